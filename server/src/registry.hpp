// All rooms of the process, by id. The map is shared by every thread, so it has a mutex;
// the rooms themselves are only touched on their own strands.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <boost/asio/io_context.hpp>

#include "config.hpp"
#include "metrics.hpp"
#include "room.hpp"

namespace carc::server {

class RoomRegistry {
  boost::asio::io_context& io_;
  RoomServices services_;
  const Limits& limits_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;  // mutable: find() loads
  std::function<std::shared_ptr<Room>(std::string_view)> loader_;

 public:
  RoomRegistry(boost::asio::io_context& io, RoomServices services, const Limits& limits);
  // Gives the rooms a bot pool (computer players) and rematches through this registry.
  void set_bots(BotPool* bots);

  // A new empty room with a fresh id; nullptr at the room cap or if storage refuses it.
  std::shared_ptr<Room> create();
  // Adds a restored room (issue 4).
  void add(std::shared_ptr<Room> room);
  // A room not in memory is asked of the loader (a finished game that expired from memory
  // but is still kept in storage for its record, issue 4).
  std::shared_ptr<Room> find(std::string_view id) const;
  using Loader = std::function<std::shared_ptr<Room>(std::string_view id)>;
  void set_loader(Loader loader) { loader_ = std::move(loader); }
  std::size_t size() const;
  Metrics::RoomCounts counts() const;
  void for_each(const std::function<void(const std::shared_ptr<Room>&)>& fn) const;
  // Removes rooms that had no connection for longer than their time to live (a shorter one
  // for rooms where nobody ever sat). Finished games stay readable from storage.
  std::size_t expire(std::int64_t now_steady_ms);
  Room::Strand make_strand();
  const RoomServices& services() const { return services_; }
  // A rematch room (protocol 1.2) seated by `actions` (SeatTaken..., SettingsChanged, with
  // the old seats' token hashes): stored, then added; `done` gets its id or "" on failure.
  void create_rematch(std::vector<RoomAction> actions, const std::function<void(std::string)>& done);
};

// Room ids as issued: 10..64 of [A-Za-z0-9_-].
bool valid_room_id(std::string_view id);

}  // namespace carc::server
