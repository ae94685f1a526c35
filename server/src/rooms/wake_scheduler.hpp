// Wakes turn-based rooms for their deadlines (docs/turn-based.md) when nothing else would: the
// room left memory (no connection for --room-ttl), or the node that held it died. A room in
// memory keeps its own timer (Room::arm); this only brings a room back into memory at its
// due time, and the room then acts as after any restore: Room::start() wakes it, and a
// deadline that has passed makes its one computer move.
//
// One thread of its own: rooms hand it their wake-ups without waiting (set), it writes them
// to the WakeStore, and sleeps until the earliest due time (several nodes: at most `poll`,
// since a dead node's rooms become due for this one when its lease runs out).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>

#include "carc/server/wake_store.hpp"

namespace carc::server {

class RoomRegistry;

class WakeScheduler {
 public:
  WakeScheduler(std::unique_ptr<WakeStore> store, RoomRegistry& rooms, std::chrono::milliseconds poll);
  ~WakeScheduler();
  // Starts the thread (once the registry can load rooms).
  void start();
  WakeScheduler(const WakeScheduler&) = delete;
  WakeScheduler& operator=(const WakeScheduler&) = delete;

  // Thread-safe, never blocks on storage: the room's next wake-up, or none.
  void set(const std::string& room, std::optional<std::int64_t> due_ms);
  // Writes what was handed over and stops the thread.
  void stop();

 private:
  void loop();
  void flush();
  void wake_due(std::int64_t now);

  std::unique_ptr<WakeStore> store_;
  RoomRegistry& rooms_;
  const std::chrono::milliseconds poll_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, std::optional<std::int64_t>> pending_;  // room -> latest wake-up
  std::unordered_map<std::string, std::int64_t> retry_after_;  // rooms that could not be loaded (thread only)
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace carc::server
