#include "durability.hpp"

#include <cstdlib>
#include <string>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "registry.hpp"
#include "room.hpp"
#include "server.hpp"
#include "sqlite_persistence.hpp"

namespace carc::server {

std::unique_ptr<Durability> Durability::open(const Config& config) {
  Storage::Options options;
  options.sync = config.db_sync_normal ? Storage::Sync::Normal : Storage::Sync::Full;
  std::unique_ptr<Storage> storage;
  if (config.data_dir.filename() == ":memory:") {
    storage = Storage::in_memory(options);
    spdlog::warn("storage: in memory only (--data-dir :memory:): games are lost when the server stops");
  } else {
    storage = Storage::open(config.data_dir, options);
    spdlog::info("storage: {} (synchronous {})", storage->path().string(), config.db_sync_normal ? "NORMAL" : "FULL");
  }
  return std::unique_ptr<Durability>(new Durability(std::move(storage), config));
}

Durability::Durability(std::unique_ptr<Storage> storage, const Config& config)
    : storage_(std::move(storage)),
      keep_finished_ms_(std::int64_t{config.keep_finished_hours} * 3600 * 1000) {
  purge();
  purger_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::minutes(10), [this] { return stopping_; })) {
      lock.unlock();
      purge();
      lock.lock();
    }
  });
}

Durability::~Durability() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (purger_.joinable()) purger_.join();
}

void Durability::purge() {
  const std::int64_t now = unix_ms();
  const int finished = storage_->purge_finished_before(now - keep_finished_ms_);
  if (finished > 0) spdlog::info("storage: purged {} finished games older than the keep time", finished);
}

std::unique_ptr<Persistence> Durability::make_persistence() {
  int crash_after = 0;
  if (const char* v = std::getenv("CARC_CRASH_AFTER_PERSIST")) crash_after = std::atoi(v);
  if (crash_after > 0) spdlog::warn("CARC_CRASH_AFTER_PERSIST={}: test-only fault injection is on", crash_after);
  return std::make_unique<SqlitePersistence>(*storage_, crash_after);
}

int Durability::restore(Server& server, Persistence& persistence) {
  int restored = 0;
  for (const StoredRoom& stored : storage_->load_rooms()) {
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
    if (!storage_->quarantine(stored.id, why)) spdlog::error("storage: {}", storage_->last_error());
  }
  // Finished games stay readable after they leave memory: rebuilt on demand while kept.
  server.rooms().set_loader([this, &server, &persistence](std::string_view id) -> std::shared_ptr<Room> {
    const auto stored = storage_->load_room(std::string(id));
    if (!stored || stored->phase != "finished" || !stored->quarantined.empty()) return nullptr;
    auto decoded = decode_room(*stored);
    const auto* r = std::get_if<RestoredRoom>(&decoded);
    if (r == nullptr) return nullptr;
    auto room = Room::restore(server.rooms().make_strand(), stored->id, server.rooms().services(), *r);
    auto* ok = std::get_if<std::shared_ptr<Room>>(&room);
    return ok != nullptr ? *ok : nullptr;
  });
  const auto q = storage_->quarantined();
  if (!q.empty()) spdlog::warn("storage: {} quarantined room(s) kept aside (see the rooms table, column quarantined)", q.size());
  spdlog::info("storage: restored {} room(s)", restored);
  return restored;
}

}  // namespace carc::server
