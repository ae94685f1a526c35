#include "durability.hpp"

#include <cstdlib>
#include <string>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "action_codec.hpp"
#include "carc/server/sqlite_store.hpp"
#include "crash_store.hpp"
#include "registry.hpp"
#include "room.hpp"
#include "server.hpp"
#include "store_writer.hpp"

namespace carc::server {

std::unique_ptr<Durability> Durability::open(const Config& config) {
  SqliteStore::Options options;
  options.sync = config.db_sync_normal ? SqliteStore::Sync::Normal : SqliteStore::Sync::Full;
  std::unique_ptr<RoomStore> store;
  if (config.data_dir.filename() == ":memory:") {
    store = SqliteStore::in_memory(options);
    spdlog::warn("storage: in memory only (--data-dir :memory:): games are lost when the server stops");
  } else {
    store = SqliteStore::open(config.data_dir, options);
    spdlog::info("storage: {} (synchronous {})", store->describe(), config.db_sync_normal ? "NORMAL" : "FULL");
  }
  return std::unique_ptr<Durability>(new Durability(std::move(store), config));
}

Durability::Durability(std::unique_ptr<RoomStore> store, const Config& config)
    : backend_(std::move(store)),
      store_(backend_.get()),
      keep_finished_ms_(std::int64_t{config.keep_finished_hours} * 3600 * 1000) {
  if (const char* v = std::getenv("CARC_CRASH_AFTER_PERSIST"); v != nullptr && std::atoi(v) > 0) {
    spdlog::warn("CARC_CRASH_AFTER_PERSIST={}: test-only fault injection is on", v);
    crash_ = std::make_unique<CrashAfterMoves>(*backend_, std::atoi(v));
    store_ = crash_.get();
  }
}

Durability::~Durability() = default;

void Durability::purge(RoomStore& store) const {
  const auto purged = store.purge_finished_before(unix_ms() - keep_finished_ms_);
  if (const auto* why = std::get_if<std::string>(&purged)) {
    spdlog::warn("storage: {}", *why);
  } else if (const int n = std::get<int>(purged); n > 0) {
    spdlog::info("storage: purged {} finished games older than the keep time", n);
  }
}

std::unique_ptr<Persistence> Durability::make_persistence() {
  auto writer = std::make_unique<StoreWriter>(*store_);
  writer_ = writer.get();
  writer_->every(std::chrono::minutes(10), [this](RoomStore& store) { purge(store); });
  return writer;
}

int Durability::restore(Server& server) {
  StoreWriter& writer = *writer_;
  writer.run_and_wait([this](RoomStore& store) { purge(store); });
  const RoomsLoad all = writer.load_all();
  if (!all.error.empty()) throw StorageError("cannot read the stored rooms: " + all.error);
  int restored = 0;
  for (const StoredRoom& stored : all.rooms) {
    std::string why;
    auto decoded = decode_room(stored);
    if (auto* r = std::get_if<RestoredRoom>(&decoded)) {
      auto room = Room::restore(server.rooms().make_strand(), stored.id, server.rooms().services(), *r);
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
  // Finished games stay readable after they leave memory: rebuilt on demand while kept,
  // read on the writer's thread, never on the caller's.
  server.rooms().set_loader([&server, &writer](std::string id, RoomRegistry::RoomCallback done) {
    writer.load(std::move(id), [&server, done = std::move(done)](RoomLoad load) {
      if (!load.error.empty()) spdlog::error("storage: {}", load.error);
      const auto& stored = load.room;
      if (!stored || stored->phase != "finished" || !stored->quarantined.empty()) return done(nullptr);
      auto decoded = decode_room(*stored);
      const auto* r = std::get_if<RestoredRoom>(&decoded);
      if (r == nullptr) return done(nullptr);
      auto room = Room::restore(server.rooms().make_strand(), stored->id, server.rooms().services(), *r);
      auto* ok = std::get_if<std::shared_ptr<Room>>(&room);
      done(ok != nullptr ? *ok : nullptr);
    });
  });
  writer.run_and_wait([](RoomStore& store) {
    const auto q = store.quarantined();
    if (!q.empty()) spdlog::warn("storage: {} quarantined room(s) kept aside (see the rooms table, column quarantined)", q.size());
  });
  spdlog::info("storage: restored {} room(s)", restored);
  return restored;
}

}  // namespace carc::server
