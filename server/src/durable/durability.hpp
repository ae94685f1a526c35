// Durable games (docs/durability.md, docs/cluster.md): opens the room store named by the configuration, hands
// the server its Persistence (the group-commit writer), restores every stored room on
// start, loads finished games on demand, and purges old ones in the background.
#pragma once

#include <functional>
#include <memory>

#include "carc/server/room_store.hpp"
#include "carc/server/key_store.hpp"
#include "carc/server/identity_store.hpp"
#include "carc/server/rating_store.hpp"
#include "carc/server/wake_store.hpp"
#include "app/config.hpp"
#include "durable/persistence.hpp"

namespace carc::server {

class Analyser;
class Server;
class StoreWriter;
class WakeScheduler;

class Durability {
 public:
  // Wraps the store (a test build's fault injection, tests/storage/crash_store.hpp); the
  // shipped server has none.
  using Decorator = std::function<std::unique_ptr<RoomStore>(RoomStore&)>;
  // `--data-dir :memory:` keeps everything in memory (tests, benchmarks). Throws
  // StorageError with an actionable message when the database cannot be used.
  static std::unique_ptr<Durability> open(const Config& config, const Decorator& decorate = {});
  // The test build's fault injection for the ratings (durable/crash_ratings.hpp).
  using RatingDecorator = std::function<std::unique_ptr<RatingStore>(std::unique_ptr<RatingStore>)>;
  void decorate_ratings(const RatingDecorator& decorate) {
    if (decorate && rating_store_) rating_store_ = decorate(std::move(rating_store_));
  }
  ~Durability();

  // The hook for Server (which owns it); make it once, before restore().
  std::unique_ptr<Persistence> make_persistence();
  // Rebuilds every stored room in `server`; a room whose log no longer replays is logged
  // and quarantined (kept in the database, never deleted). Returns the rooms restored.
  // Blocks: call it before the server listens.
  int restore(Server& server);
  RoomStore& store() { return *store_; }
  // Stops the turn-based rooms' wake-ups (before the Server goes: they load its rooms).
  void stop_wakes();

 private:
  Durability(std::unique_ptr<RoomStore> store, const Config& config);
  static std::unique_ptr<Durability> open_backend(const Config& config);
  void purge(RoomStore& store) const;
  void serve_from_shared_database(Server& server, ClusterStore& cluster);
  void export_metrics(Server& server);
  static void connect_analyses(Analyser& analyser, StoreWriter& writer);

  std::unique_ptr<RoomStore> backend_;
  std::unique_ptr<RoomStore> decorated_;  // a test build's decorator, when asked for
  RoomStore* store_;                      // decorated_ if set, else backend_
  std::int64_t keep_finished_ms_;
  int commit_delay_us_;
  RatedPlay rated_play_;  // --rated-play: whose seats the ratings' fallback binds
  StoreWriter* writer_ = nullptr;         // owned by the Server
  std::int64_t lease_ms_ = 0;             // several nodes: the lease, for the wakes' poll
  std::unique_ptr<WakeStore> wake_store_;  // handed to wakes_ in restore()
  std::unique_ptr<KeyStore> key_store_;    // handed to the server in restore()
  std::unique_ptr<IdentityStore> identity_store_;  // with the keys (sign-in, docs/community.md)
  std::unique_ptr<RatingStore> rating_store_;  // handed to the server's ratings in restore()
  // Ratings (docs/community.md#ratings): hands the server its ratings and the rooms their
  // results' hook; answers the finished rooms that have no result yet, which
  // recover_results() loads once the rooms are restored.
  std::vector<std::string> start_ratings(Server& server);
  void recover_results(Server& server, const std::vector<std::string>& rooms);
  std::unique_ptr<WakeScheduler> wakes_;
  // Wake-ups of turn-based rooms: rooms made or restored from here on hand theirs over.
  void start_wakes(Server& server);
};

}  // namespace carc::server
