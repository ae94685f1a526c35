// All rooms of the process, by id. The map is shared by every thread, so it has a mutex;
// the rooms themselves are only touched on their own strands.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <boost/asio/io_context.hpp>

#include "app/config.hpp"
#include "base/metrics.hpp"
#include "rooms/miss_cache.hpp"
#include "room/room.hpp"

namespace carc::server {

class RoomRegistry {
 public:
  using RoomCallback = std::function<void(std::shared_ptr<Room>)>;
  // Loads a room that is not in memory; `done(nullptr)` if there is none. Never blocks
  // the caller: `done` may run on any thread.
  using Loader = std::function<void(std::string id, RoomCallback done)>;
  // Why a find gave nullptr, as the loader noted it (several nodes), or Busy when too many
  // storage lookups were already on their way.
  enum class Miss { NotFound, Elsewhere, Unavailable, Busy };
  // Rooms storage did not have are remembered this long (steady ms). One node: a room can
  // only appear by being created here, which forgets its miss at once, so the time only
  // bounds memory. Several nodes: a room created on another node cannot be forgotten here
  // (nothing tells this node), so the time is short: a miss never hides a room for longer.
  static constexpr std::int64_t kMissTtlMs = 60'000;
  static constexpr std::int64_t kSharedMissTtlMs = 2'000;
  static constexpr std::size_t kMissesKept = 100'000;
  // Storage lookups of rooms not in memory on their way at once; past it a lookup is
  // answered Busy (503, Retry-After) without touching storage. Room enough for a wave of
  // claims (a node's rooms moving here after it failed: each room one lookup, its players
  // sharing it); one address's lookups are held far below by its budget.
  static constexpr std::size_t kMaxLoads = 512;

 private:
  boost::asio::io_context& io_;
  // One for every room it makes (Room::services_); set up before the server runs.
  std::shared_ptr<RoomServices> shared_services_;
  RoomServices& services_;
  const Limits& limits_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;  // null: an id being created
  struct Load {
    std::vector<RoomCallback> waiters;
    bool explained = false;  // the loader noted why it finds no room (elsewhere, unreachable)
    bool handoff = false;    // a client waits: a live node holding the room is asked to hand it over
  };
  void find(std::string_view id, RoomCallback done, bool handoff);
  std::unordered_map<std::string, Load> loading_;  // id -> the load on its way
  Loader loader_;
  std::unordered_map<std::string, std::pair<Miss, std::int64_t>> misses_;  // id -> why, until (steady ms)
  MissCache absent_{kMissesKept, kMissTtlMs};  // ids storage did not have

  // Cleared by the destructor: a loader's answer that comes (or is dropped) after the
  // registry is gone must not touch it.
  std::shared_ptr<std::atomic<bool>> alive_ = std::make_shared<std::atomic<bool>>(true);

  void loaded(const std::string& id, std::shared_ptr<Room> room);
  // The answer handed to the loader: answers once; dropped unanswered (the loader or its
  // callback threw, a queue was discarded), it answers "unavailable" so nobody waits forever.
  RoomCallback load_answer(const std::string& id);
  void create_room(RoomCallback done, bool serve_here);
  bool shared_ = false;  // several nodes: rooms created for a client are served where the front routes them
  std::int64_t ttl_ms(const Room& room) const;
  // On the room's strand: retires it if it is still idle past `ttl_ms` and takes it out
  // of the map and of this node's storage lease.
  void retire(const std::shared_ptr<Room>& room, std::int64_t now_steady_ms, std::int64_t ttl_ms);

 public:
  RoomRegistry(boost::asio::io_context& io, RoomServices services, const Limits& limits);
  ~RoomRegistry();
  RoomRegistry(const RoomRegistry&) = delete;
  RoomRegistry& operator=(const RoomRegistry&) = delete;
  // Gives the rooms a bot pool (computer players) and rematches through this registry.
  void set_bots(BotPool* bots);
  // Turn-based rooms (docs/turn-based.md): where rooms hand their wake-ups and notices. Set
  // before the first room is made or restored.
  void set_wake_hook(std::function<void(const std::string&, std::optional<std::int64_t>)> hook) {
    services_.wake_changed = std::move(hook);
  }
  void set_notify(std::function<void(std::vector<Notice>)> notify) { services_.notify = std::move(notify); }
  // Told every game that ends with a human seated: its id and record (before rooms run).
  void set_game_over(std::function<void(const std::string& room, const std::function<std::string()>& record)> f) {
    services_.game_over = std::move(f);
  }

  // Ratings (docs/community.md#ratings): where finished games hand their results.
  void set_game_result(decltype(RoomServices::game_result) f) { services_.game_result = std::move(f); }
  // Open games (docs/community.md): where rooms tell their listing, and the per-address cap.
  // Set before the first room is made or restored.
  void set_open_games(decltype(RoomServices::listing_changed) changed, RoomLogic::OpenGate gate) {
    services_.listing_changed = std::move(changed);
    services_.open_gate = std::move(gate);
  }

  // A new empty room with a fresh id, stored before `done` gets it; nullptr at the room
  // cap or if storage refuses it. `done` may run on any thread (the store's).
  void create(RoomCallback done);
  // Several nodes on one database: a room created for a client is stored without an owner
  // and not kept here (the node the front routes it to claims it); rematches stay here.
  void set_shared_storage(bool shared);
  // Adds a restored room (docs/durability.md).
  void add(std::shared_ptr<Room> room);
  // The room: from memory (then `done` runs at once, on the caller's thread), else from the
  // loader (a finished game that expired from memory but is still kept in storage for its
  // record), else nullptr. Concurrent finds of one id share one load.
  void find(std::string_view id, RoomCallback done) { find(id, std::move(done), true); }
  // The same for the server's own work on a room (a tournament's round deadline): with several
  // nodes, a room another live node holds is not asked for (nullptr): that node's own work
  // does it there, as turn-based wake-ups load only rooms no live node holds (docs/cluster.md).
  void find_unheld(std::string_view id, RoomCallback done) { find(id, std::move(done), false); }
  // The loader: whether a find that waits for this load wants the room handed over.
  bool handoff_wanted(const std::string& id) const;
  std::shared_ptr<Room> find_loaded(std::string_view id) const;  // memory only
  // What find() would answer without any storage work: the room in memory, or nullptr for
  // an id that is malformed, being created, or known to be missing. nullopt when only
  // storage can tell (the caller charges the client's lookup budget first).
  std::optional<std::shared_ptr<Room>> find_cached(std::string_view id) const;
  void set_loader(Loader loader) { loader_ = std::move(loader); }
  // The loader says why it found no room: another live node holds it, or storage is
  // unreachable. Remembered a few seconds, for the answer the client gets (miss()).
  void note_miss(const std::string& id, Miss why);
  Miss miss(std::string_view id) const;
  // Several nodes: the room leaves this node (its clients are closed with Moved, on its
  // strand); then `after` runs (there), e.g. to release it in storage. No room: `after` at once.
  void evict(const std::string& id, std::function<void()> after = {});
  // Every room leaves this node (its lease ran out: other nodes may hold them already).
  void evict_all();
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
  std::shared_ptr<const RoomServices> shared_services() const { return shared_services_; }
  // A rematch room seated by `actions` (SeatTaken..., SettingsChanged, with
  // the new seats' token hashes): stored, then added; `done` gets its id or "" on failure.
  void create_rematch(std::vector<RoomAction> actions, const std::function<void(std::string)>& done);
};

// Room ids as issued: 10..64 of [A-Za-z0-9_-].
bool valid_room_id(std::string_view id);

}  // namespace carc::server
