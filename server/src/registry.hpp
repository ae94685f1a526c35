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
 public:
  using RoomCallback = std::function<void(std::shared_ptr<Room>)>;
  // Loads a room that is not in memory; `done(nullptr)` if there is none. Never blocks
  // the caller: `done` may run on any thread.
  using Loader = std::function<void(std::string id, RoomCallback done)>;

 private:
  boost::asio::io_context& io_;
  RoomServices services_;
  const Limits& limits_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;  // null: an id being created
  std::unordered_map<std::string, std::vector<RoomCallback>> loading_;  // id -> who waits for it
  Loader loader_;

  void loaded(const std::string& id, std::shared_ptr<Room> room);
  std::int64_t ttl_ms(const Room& room) const;

 public:
  RoomRegistry(boost::asio::io_context& io, RoomServices services, const Limits& limits);
  // Gives the rooms a bot pool (computer players) and rematches through this registry.
  void set_bots(BotPool* bots);

  // A new empty room with a fresh id, stored before `done` gets it; nullptr at the room
  // cap or if storage refuses it. `done` may run on any thread (the store's).
  void create(RoomCallback done);
  // Adds a restored room (issue 4).
  void add(std::shared_ptr<Room> room);
  // The room: from memory (then `done` runs at once, on the caller's thread), else from the
  // loader (a finished game that expired from memory but is still kept in storage for its
  // record, issue 4), else nullptr. Concurrent finds of one id share one load.
  void find(std::string_view id, RoomCallback done);
  std::shared_ptr<Room> find_loaded(std::string_view id) const;  // memory only
  void set_loader(Loader loader) { loader_ = std::move(loader); }
  std::size_t size() const;
  Metrics::RoomCounts counts() const;
  void for_each(const std::function<void(const std::shared_ptr<Room>&)>& fn) const;
  // Asks every room that had no connection for longer than its time to live (a shorter one
  // for rooms where nobody ever sat) to retire. Each decides on its own strand, where a
  // connection may just be arriving: a retired room refuses later attaches, leaves the map
  // and storage (finished games stay readable from storage). Returns the rooms asked.
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
