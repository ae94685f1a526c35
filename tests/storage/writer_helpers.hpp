// What the storage writer's tests share: a chat line, a room created or a change stored
// and waited for, and a gate that holds the writer thread (docs/durability.md).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include <doctest/doctest.h>

#include "durable/action_codec.hpp"
#include "durable/store_writer.hpp"

namespace carc::test {

inline server::ChatPosted chat(int i) {
  return server::ChatPosted{i, std::nullopt, "bot", "line " + std::to_string(i), 1000 + i};
}

inline bool created(server::StoreWriter& w, const std::string& room) {
  std::promise<bool> p;
  w.room_created(room, 1000, [&](bool ok) { p.set_value(ok); });
  return p.get_future().get();
}

inline bool persist(server::StoreWriter& w, const std::string& room, std::int64_t version, const server::RoomAction& a) {
  std::promise<bool> p;
  w.persist_async(room, version, 1, a, [&](bool ok) { p.set_value(ok); });
  return p.get_future().get();
}

inline std::string text_of(const server::StoredAction& a) {
  const auto d = server::decode_action(a.payload);
  REQUIRE(std::holds_alternative<server::DecodedAction>(d));
  return std::get<server::ChatPosted>(std::get<server::DecodedAction>(d).action).text;
}

// Holds the writer thread (hold_writer) until released, so that everything queued
// meanwhile must go out in its next batch.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool entered = false, open = false;
  void hold() {
    std::unique_lock lock(m);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  void wait_entered() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
};

// Queues a task that holds the writer thread in `gate`, after everything queued before it
// (committed first, in that pass), and returns once the writer is held.
inline void hold_writer(server::StoreWriter& w, Gate& gate) {
  w.run([&gate](server::RoomStore&) { gate.hold(); });
  gate.wait_entered();
}

}  // namespace carc::test
