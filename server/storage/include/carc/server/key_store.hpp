// Player keys (docs/turn-based.md, "your games" on every device): a key is a secret the browser
// keeps; the server stores only its hash, and for each seat the key was shown, the seat's
// token sealed with the key (so the stored rows alone give no seat away). Revoking a key
// deletes it with its seats.
//
// Its own connection (SQLite: the same file; PostgreSQL: the same database), used from one
// thread (PlayerKeys' worker): never the room writer's, an I/O thread or a strand.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "carc/server/room_store.hpp"

namespace carc::server {

struct KeySeat {
  std::string room;
  int seat = 0;
  std::string sealed;  // the seat token sealed with the key (hex)
  std::int64_t added_ms = 0;
};

// A seat of one room shown to a key (the ratings' fallback for a seat whose binding the room's
// log lost, docs/community.md#ratings).
struct RoomKeySeat {
  std::string key_hash;
  int seat = 0;
  std::int64_t added_ms = 0;
  bool operator==(const RoomKeySeat&) const = default;
};

class KeyStore {
 public:
  virtual ~KeyStore() = default;
  virtual Status add_key(const std::string& hash, std::int64_t created_ms) = 0;
  // The stored hash equal to `hash` (the caller compares it again in constant time), none
  // when there is no such key, or the error.
  virtual std::variant<std::optional<std::string>, std::string> find_key(const std::string& hash) = 0;
  // Adds or replaces the key's seat in `room`.
  virtual Status add_seat(const std::string& hash, const KeySeat& seat) = 0;
  virtual std::variant<std::vector<KeySeat>, std::string> seats(const std::string& hash) = 0;
  // The keys `room`'s seats were shown to, oldest first.
  virtual std::variant<std::vector<RoomKeySeat>, std::string> room_seats(const std::string& room) = 0;
  // Deletes the key and its seats; false when there was no such key.
  virtual std::variant<bool, std::string> revoke(const std::string& hash) = 0;

  // The notifications delivered (docs/turn-based.md): a notice is derived again from a room's log
  // when the room is restored, and sent unless its id is marked here (at least once).
  virtual Status mark_sent(const std::string& id, std::int64_t ms) = 0;
  virtual std::variant<bool, std::string> was_sent(const std::string& id) = 0;

  static std::unique_ptr<KeyStore> sqlite(const std::filesystem::path& file);  // throws StorageError
  static std::unique_ptr<KeyStore> memory();
  static std::unique_ptr<KeyStore> postgres(const std::string& url);  // throws StorageError
};

}  // namespace carc::server
