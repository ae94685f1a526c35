// Durable games (issue 4): opens the data folder's database, hands the server its
// Persistence, restores every stored room on start, and purges old games in the background.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "carc/server/storage.hpp"
#include "config.hpp"
#include "persistence.hpp"

namespace carc::server {

class Server;

class Durability {
 public:
  // `--data-dir :memory:` keeps everything in memory (tests, benchmarks). Throws
  // StorageError with an actionable message when the database cannot be used.
  static std::unique_ptr<Durability> open(const Config& config);
  ~Durability();

  // The hook for Server; valid as long as this object lives.
  std::unique_ptr<Persistence> make_persistence();
  // Rebuilds every stored room in `server`; a room whose log no longer replays is logged
  // and quarantined (kept in the database, never deleted). Returns the rooms restored.
  int restore(Server& server, Persistence& persistence);
  Storage& storage() { return *storage_; }

 private:
  Durability(std::unique_ptr<Storage> storage, const Config& config);
  void purge();

  std::unique_ptr<Storage> storage_;
  std::int64_t keep_finished_ms_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread purger_;
};

}  // namespace carc::server
