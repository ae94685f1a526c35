// The Persistence hook backed by carc::storage (issue 4): each accepted RoomAction becomes
// one stored action (JSON text), durable before the room broadcasts it; on start, stored
// rooms become RestoredRoom values for Room::restore.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "carc/server/storage.hpp"
#include "persistence.hpp"
#include "room.hpp"

namespace carc::server {

// One action as stored: {"type": "seat"|"start"|"move"|"chat", "v": version, "gv": game
// version, ...the action's fields}. A move is a record entry (record-format.md).
std::string encode_action(std::int64_t version, std::int64_t game_version, const RoomAction& action);
// The RestoredRoom of a stored room, or why its log cannot be read.
std::variant<RestoredRoom, std::string> decode_room(const StoredRoom& stored);

class SqlitePersistence final : public Persistence {
 public:
  // `crash_after_moves` > 0: test-only fault injection (CARC_CRASH_AFTER_PERSIST): the
  // process _exits right after that many moves were made durable, before the broadcast.
  explicit SqlitePersistence(Storage& storage, int crash_after_moves = 0);

  bool room_created(std::string_view room, std::int64_t created_ms) override;
  bool persist(std::string_view room, std::int64_t version, std::int64_t game_version,
               const RoomAction& action) override;
  void room_finished(std::string_view room, std::int64_t finished_ms) override;
  void room_removed(std::string_view room) override;
  void version_changed(std::string_view room, std::int64_t version) override;

 private:
  Storage& storage_;
  int crash_after_moves_;
  std::atomic<int> moves_{0};
};

}  // namespace carc::server
