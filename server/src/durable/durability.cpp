#include "durable/durability.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "durable/action_codec.hpp"
#include "bots/analyser.hpp"
#include "carc/server/pg_store.hpp"
#include "carc/server/sqlite_store.hpp"
#include "base/metrics.hpp"
#include "base/random.hpp"
#include "rooms/registry.hpp"
#include "room/room.hpp"
#include "net/server.hpp"
#include "durable/store_writer.hpp"
#include "app/turn_based_services.hpp"
#include "community/ratings.hpp"
#include "keys/player_keys.hpp"
#include "rooms/wake_scheduler.hpp"

namespace carc::server {

namespace {

std::string default_node_id() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::snprintf(host, sizeof host, "node");
  std::string id;
  for (const char* c = host; *c != '\0' && id.size() < 60; ++c) {
    id += (std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' || *c == '.') ? *c : '-';
  }
  return id + "-" + random_id(4);
}

}  // namespace

std::unique_ptr<Durability> Durability::open(const Config& config, const Decorator& decorate) {
  auto d = open_backend(config);
  if (decorate) {
    d->decorated_ = decorate(*d->backend_);
    d->store_ = d->decorated_.get();
  }
  return d;
}

std::unique_ptr<Durability> Durability::open_backend(const Config& config) {
  if (!config.db_url.empty()) {
    PgStore::Options o;
    o.node_id = config.node_id.empty() ? default_node_id() : config.node_id;
    o.lease_ms = config.lease_ms;
    o.advertise = config.bind + ":" + std::to_string(config.port);
    auto pg = PgStore::open(config.db_url, o);
    spdlog::info("storage: {} (lease {} ms)", pg->describe(), config.lease_ms);
    auto d = std::unique_ptr<Durability>(new Durability(std::move(pg), config));
    d->lease_ms_ = config.lease_ms;
    d->wake_store_ = WakeStore::postgres(config.db_url, o.node_id);
    d->key_store_ = KeyStore::postgres(config.db_url);
    d->identity_store_ = IdentityStore::postgres(config.db_url);
    d->rating_store_ = RatingStore::postgres(config.db_url);
    return d;
  }
  SqliteStore::Options options;
  options.sync = config.db_sync_normal ? SqliteStore::Sync::Normal : SqliteStore::Sync::Full;
  options.warn = [](const std::string& what) { spdlog::warn("storage: {}", what); };
  std::unique_ptr<RoomStore> store;
  if (config.data_dir.filename() == ":memory:") {
    store = SqliteStore::in_memory(options);
    spdlog::warn("storage: in memory only (--data-dir :memory:): games are lost when the server stops");
  } else {
    store = SqliteStore::open(config.data_dir, options);
    spdlog::info("storage: {} (synchronous {})", store->describe(),
                 config.db_sync_normal ? "NORMAL" : store->syncs_apart() ? "FULL, the log synced apart from its commits" : "FULL");
  }
  auto d = std::unique_ptr<Durability>(new Durability(std::move(store), config));
  const bool memory = config.data_dir.filename() == ":memory:";
  d->wake_store_ = memory ? WakeStore::memory() : WakeStore::sqlite(config.data_dir / SqliteStore::kFileName);
  d->key_store_ = memory ? KeyStore::memory() : KeyStore::sqlite(config.data_dir / SqliteStore::kFileName);
  d->identity_store_ = memory ? IdentityStore::memory() : IdentityStore::sqlite(config.data_dir / SqliteStore::kFileName);
  d->rating_store_ = memory ? RatingStore::memory() : RatingStore::sqlite(config.data_dir / SqliteStore::kFileName);
  return d;
}

Durability::Durability(std::unique_ptr<RoomStore> store, const Config& config)
    : backend_(std::move(store)),
      store_(backend_.get()),
      keep_finished_ms_(std::int64_t{config.keep_finished_hours} * 3600 * 1000),
      commit_delay_us_(config.db_commit_delay_us),
      rated_play_(config.rated_play) {}

void Durability::start_wakes(Server& server) {
  // Several nodes: poll, since another node's rooms become this one's when its lease ends.
  const auto poll = std::chrono::milliseconds(backend_->cluster() != nullptr ? std::max<std::int64_t>(500, lease_ms_ / 4) : 30'000);
  wakes_ = std::make_unique<WakeScheduler>(std::move(wake_store_), server.rooms(), poll);
  WakeScheduler* w = wakes_.get();
  server.rooms().set_wake_hook([w](const std::string& room, std::optional<std::int64_t> due) { w->set(room, due); });
}

void Durability::stop_wakes() {
  if (wakes_) wakes_->stop();
}

Durability::~Durability() {
  stop_wakes();
  // After the Server (and its writer) stopped: nothing of ours writes any more.
  if (ClusterStore* cluster = store_->cluster()) {
    if (const Status s = cluster->retire(); !s) spdlog::warn("storage: {}", s.error());
    else spdlog::info("storage: this node's rooms and lease given up (a clean stop)");
  }
}

void Durability::export_metrics(Server& server) {
  RoomStore* store = store_;
  StoreWriter* writer = writer_;
  server.metrics().set_storage_render([store, writer](std::string& out) {
    const StoreHealth h = store->health();
    const StoreWriter::Stats st = writer->stats();
    const auto line = [&](const char* name, const char* type, const char* help, long long v) {
      out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + name + " " +
             std::to_string(v) + "\n";
    };
    line("carc_storage_commits_total", "counter", "Transactions the storage writer committed (or tried).",
         static_cast<long long>(st.batches));
    line("carc_storage_fallbacks_total", "counter", "Transactions that failed and were retried write by write.",
         static_cast<long long>(st.fallbacks));
    line("carc_storage_queued_writes", "gauge", "Writes waiting for the storage writer.", static_cast<long long>(st.queued));
    line("carc_storage_overflows_total", "counter", "Writes refused at once (unavailable): the writer's queue was full.",
         static_cast<long long>(st.overflows));
    line("carc_storage_reads_total", "counter", "Rooms read from storage on demand (the read thread).",
         static_cast<long long>(st.reads));
    line("carc_storage_reads_refused_total", "counter", "Reads refused at once: too many waiting.",
         static_cast<long long>(st.reads_refused));
    if (h.wal_bytes >= 0) line("carc_storage_wal_bytes", "gauge", "Size of SQLite's write-ahead log.", h.wal_bytes);
    if (h.checkpoints >= 0) {
      line("carc_storage_checkpoints_total", "counter", "WAL checkpoints completed.", h.checkpoints);
    }
    if (h.checkpoint_failures >= 0) {
      line("carc_storage_checkpoint_failures_total", "counter", "WAL checkpoints that failed (the log grows meanwhile).",
           h.checkpoint_failures);
    }
  });
}

void Durability::purge(RoomStore& store) const {
  const auto purged = store.purge_finished_before(unix_ms() - keep_finished_ms_);
  if (const auto* why = std::get_if<std::string>(&purged)) {
    spdlog::warn("storage: {}", *why);
  } else if (const int n = std::get<int>(purged); n > 0) {
    spdlog::info("storage: purged {} finished games older than the keep time", n);
  }
}

std::unique_ptr<Persistence> Durability::make_persistence() {
  StoreWriter::Options options;
  options.commit_delay = std::chrono::microseconds(commit_delay_us_);
  auto writer = std::make_unique<StoreWriter>(*store_, options);
  writer_ = writer.get();
  writer_->every(std::chrono::minutes(10), [this](RoomStore& store) { purge(store); });
  return writer;
}

int Durability::restore(Server& server) {
  StoreWriter& writer = *writer_;
  export_metrics(server);
  writer.run_and_wait([this](RoomStore& store) { purge(store); });
  start_wakes(server);
  if (key_store_) server.turn_based().keys = std::make_shared<PlayerKeys>(std::move(key_store_), std::move(identity_store_));
  const std::vector<std::string> unrecorded = start_ratings(server);
  connect_analyses(server.analyser(), writer);
  if (ClusterStore* cluster = store_->cluster()) {
    serve_from_shared_database(server, *cluster);
    wakes_->start();
    recover_results(server, unrecorded);
    return 0;
  }
  const RoomsLoad all = writer.load_all();
  if (!all.error.empty()) throw StorageError("cannot read the stored rooms: " + all.error);
  int restored = 0;
  for (const StoredRoom& stored : all.rooms) {
    std::string why;
    auto decoded = decode_room(stored);
    if (auto* r = std::get_if<RestoredRoom>(&decoded)) {
      auto room = Room::restore(server.rooms().make_strand(), stored.id, server.rooms().shared_services(), *r);
      if (auto* ok = std::get_if<std::shared_ptr<Room>>(&room)) {
        auto restored_room = *ok;
        server.rooms().add(restored_room);
        boost::asio::post(restored_room->strand(), [restored_room] { restored_room->start(); });
        ++restored;
        continue;
      }
      why = std::get<std::string>(room);
    } else {
      why = std::get<std::string>(decoded);
    }
    spdlog::error("room {}: its stored log no longer replays ({}); quarantined, kept in the database", stored.id, why);
    writer.run([id = stored.id, why](RoomStore& store) {
      if (const Status s = store.quarantine(id, why); !s) spdlog::error("storage: {}", s.error());
    });
  }
  // Finished games stay readable after they leave memory (and are not replayed at start):
  // rebuilt on demand while kept, read on the writer's read thread, never on the caller's.
  server.rooms().set_loader([&server, &writer](std::string id, RoomRegistry::RoomCallback done) {
    writer.load(id, [&server, id, done = std::move(done)](RoomLoad load) {
      if (!load.error.empty()) {
        // Not "no such room": the client hears 503 and tries again (and it is not remembered
        // as missing).
        spdlog::warn("storage: {}", load.error);
        server.rooms().note_miss(id, RoomRegistry::Miss::Unavailable);
        return done(nullptr);
      }
      // Finished games, and turn-based games that left memory (their rooms stay stored).
      const auto& stored = load.room;
      if (!stored || !stored->quarantined.empty()) return done(nullptr);
      auto decoded = decode_room(*stored);
      const auto* r = std::get_if<RestoredRoom>(&decoded);
      if (r == nullptr) return done(nullptr);
      auto room = Room::restore(server.rooms().make_strand(), stored->id, server.rooms().shared_services(), *r);
      auto* ok = std::get_if<std::shared_ptr<Room>>(&room);
      if (ok == nullptr) return done(nullptr);
      auto loaded = *ok;
      boost::asio::post(loaded->strand(), [loaded] { loaded->start(); });
      done(loaded);
    });
  });
  writer.run_and_wait([](RoomStore& store) {
    const auto q = store.quarantined();
    if (!q.empty()) spdlog::warn("storage: {} quarantined room(s) kept aside (see the rooms table, column quarantined)", q.size());
  });
  wakes_->start();
  // Analyses a stop interrupted go on from their last saved move (one node: with several,
  // an analysis stays where its game ended and is not resumed elsewhere).
  int resumed = 0;
  writer.run_and_wait([&server, &resumed](RoomStore& store) {
    const AnalysesLoad open = store.load_analyses("");
    if (!open.error.empty()) return spdlog::warn("storage: {}", open.error);
    for (const StoredAnalysis& a : open.analyses) resumed += server.analyser().resume(a) ? 1 : 0;
  });
  if (resumed > 0) spdlog::info("storage: resumed {} analysis(es) of finished games", resumed);
  spdlog::info("storage: restored {} room(s)", restored);
  recover_results(server, unrecorded);
  return restored;
}

std::vector<std::string> Durability::start_ratings(Server& server) {
  if (!rating_store_) return {};
  // Finished rooms without a result: a crash came between their end and their result. Read
  // before the store moves to the ratings' worker (start-up may block).
  auto unrecorded = rating_store_->unrecorded_rooms();
  if (const auto* why = std::get_if<std::string>(&unrecorded)) throw StorageError("cannot read the game results: " + *why);
  auto ratings = std::make_shared<community::Ratings>(std::move(rating_store_));
  server.turn_based().ratings = ratings;
  community::rate_open_games(server.open_games(), ratings);  // hosts' ratings, quick play's match
  // A listener set before (the tournaments, docs/tournaments.md) hears every result too.
  auto before = server.rooms().services().game_result;
  // A seat whose binding the room's log lost (its append fenced in a cluster's handoff) gets
  // its player from the keys the seat was shown to, so the game is still rated.
  auto keys = server.turn_based().keys;
  server.rooms().set_game_result([ratings, before, keys, mode = rated_play_](community::GameResult g,
                                                                             std::function<void(std::string)> rated) {
    if (before) before(g, {});
    if (!keys || !community::has_unbound_seats(g)) return ratings->record(std::move(g), std::move(rated));
    const std::string room = g.room;
    keys->seat_players(room, mode, [ratings, g = std::move(g), rated = std::move(rated)](
                                       std::optional<std::map<int, std::string>> players) mutable {
      // Not recorded when the keys cannot be read: the room's log derives it again at the next start.
      if (!players) return spdlog::error("ratings: room {}: its seats' keys cannot be read; it is rated at the next start", g.room);
      community::fill_unbound(g, *players);
      ratings->record(std::move(g), std::move(rated));
    });
  });
  return std::get<std::vector<std::string>>(std::move(unrecorded));
}

void Durability::recover_results(Server& server, const std::vector<std::string>& rooms) {
  // Loading a finished room hands its result over (Room::start), which stores it once.
  if (!rooms.empty()) spdlog::info("ratings: {} finished game(s) without a result; deriving them again", rooms.size());
  for (const std::string& id : rooms) server.rooms().find(id, [](const std::shared_ptr<Room>&) {});
}

// Analyses are saved on the writer thread after every move (not waited for) and read there.
void Durability::connect_analyses(Analyser& analyser, StoreWriter& writer) {
  analyser.set_storage(
      [&writer](StoredAnalysis a) {
        writer.run([a = std::move(a)](RoomStore& store) {
          if (const Status s = store.save_analysis(a); !s) spdlog::warn("storage: the analysis of {}: {}", a.room, s.error());
        });
      },
      [&writer](std::string room, std::function<void(std::optional<StoredAnalysis>)> done) {
        writer.run([room = std::move(room), done = std::move(done)](RoomStore& store) {
          AnalysesLoad load = store.load_analyses(room);
          if (!load.error.empty()) spdlog::warn("storage: {}", load.error);
          if (!load.error.empty() || load.analyses.empty()) return done(std::nullopt);
          done(std::move(load.analyses.front()));
        });
      });
}

// Several nodes: nothing is restored at start; a room is claimed from the database by the
// first node asked for it (the front routes a room to one node), which replays its log.
void Durability::serve_from_shared_database(Server& server, ClusterStore& cluster) {
  StoreWriter& writer = *writer_;
  RoomRegistry& rooms = server.rooms();
    RoomStore* store = store_;
  rooms.set_shared_storage(true);
  rooms.set_loader([&rooms, &writer, &cluster, store](std::string id, RoomRegistry::RoomCallback done) {
    writer.load(id, [&rooms, &cluster, store, id, done = std::move(done)](RoomLoad load) {
      if (!load.owner.empty()) {
        // Routed here while another live node holds it: ask for it; the client retries. Work
        // of the server's own (find_unheld: a tournament's deadline) leaves it to that node.
        if (rooms.handoff_wanted(id)) {
          spdlog::info("room {}: held by node {}; asked for a handoff", id, load.owner);
          if (const Status s = cluster.request_handoff(id); !s) spdlog::warn("storage: {}", s.error());
        }
        rooms.note_miss(id, RoomRegistry::Miss::Elsewhere);
        return done(nullptr);
      }
      if (!load.kept_for.empty()) {
        // Released a moment ago for the node that asked for it: that node claims it first;
        // the client tries again (through the front, which now routes the room there).
        spdlog::info("room {}: released for node {}, which claims it first", id, load.kept_for);
        rooms.note_miss(id, RoomRegistry::Miss::Elsewhere);
        return done(nullptr);
      }
      if (!load.error.empty()) {
        spdlog::error("storage: {}", load.error);
        rooms.note_miss(id, RoomRegistry::Miss::Unavailable);
        return done(nullptr);
      }
      const auto& stored = load.room;
      if (!stored || !stored->quarantined.empty()) return done(nullptr);
      auto decoded = decode_room(*stored);
      const auto* r = std::get_if<RestoredRoom>(&decoded);
      std::string why = r == nullptr ? std::get<std::string>(decoded) : std::string();
      if (r != nullptr) {
        auto room = Room::restore(rooms.make_strand(), stored->id, rooms.shared_services(), *r);
        if (auto* ok = std::get_if<std::shared_ptr<Room>>(&room)) {
          auto claimed = *ok;
          rooms.services().metrics.rooms_taken_over.fetch_add(1, std::memory_order_relaxed);
          spdlog::info("room {}: claimed from the database ({} actions replayed)", id, stored->actions.size());
          boost::asio::post(claimed->strand(), [claimed] { claimed->start(); });
          return done(claimed);
        }
        why = std::get<std::string>(room);
      }
      spdlog::error("room {}: its stored log no longer replays ({}); quarantined, kept in the database", id, why);
      if (const Status s = store->quarantine(id, why); !s) spdlog::error("storage: {}", s.error());
      done(nullptr);
    });
  });
  // The lease, renewed four times per lease on a thread of its own and a connection of its
  // own: a commit that waits for a stalled database never holds it back.
  const auto every = std::chrono::milliseconds(std::max<std::int64_t>(100, cluster.lease_ms() / 4));
  writer.every_apart(every, [&rooms, &writer, &cluster] {
    Metrics& metrics = rooms.services().metrics;
    const LeaseRenewal r = cluster.renew_lease();
    if (!r.error.empty()) {
      spdlog::warn("storage: cannot renew this node's lease: {}", r.error);
      if (!cluster.lease_running() && !metrics.storage_unavailable.exchange(true)) {
        // By our own clock the lease ran out: other nodes may take our rooms now. Send their
        // clients away (they reconnect through the front, which no longer routes here).
        spdlog::error("storage: this node's lease ran out without a renewal (the database does not answer): "
                      "every room leaves this node; /healthz answers 503 until it renews");
        metrics.leases_lost.fetch_add(1, std::memory_order_relaxed);
        rooms.evict_all();
      }
      return;
    }
    const bool was_out = metrics.storage_unavailable.exchange(false);
    if (r.lost) {
      if (was_out) {
        spdlog::info("storage: the database answers again; this node has a new lease and claims rooms when asked");
      } else {
        spdlog::error("storage: this node's lease ran out (paused or cut off): every room leaves this node");
        metrics.leases_lost.fetch_add(1, std::memory_order_relaxed);
      }
      rooms.evict_all();
      return;
    }
    for (const std::string& id : r.orphans_released) {
      spdlog::warn("room {}: the database gave it to this node after this node had given up asking (a stalled "
                   "connection); released for the node that asks for it", id);
    }
    for (const std::string& id : r.wanted) {
      // Its clients go first, then every write queued before is stored, then it is released.
      rooms.evict(id, [&writer, &cluster, id] {
        writer.run([&cluster, id](RoomStore&) {
          if (const Status s = cluster.release(id); !s) spdlog::warn("storage: {}", s.error());
        });
      });
    }
  });
  spdlog::info("storage: rooms are claimed from the shared database on demand (node {})", cluster.node_id());
}

}  // namespace carc::server
