// When each turn-based room must be woken (docs/turn-based.md), kept beside the rooms so that a
// deadline is met while its room is out of memory, after a restart, and in a cluster by
// whichever node may take the room. One row per room with a due time; the room itself is
// the authority (it recomputes its deadline from its log when it is loaded), so a stale
// row only wakes a room early, never makes a move.
//
// Its own connection (SQLite: the same file, WAL; PostgreSQL: the same database), used
// from one thread (the wake scheduler's): never the room writer's, never a strand.
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

struct DueWake {
  std::string room;
  std::int64_t due_ms = 0;
};

class WakeStore {
 public:
  virtual ~WakeStore() = default;
  // Sets (or, with nullopt, clears) the room's wake-up.
  virtual Status set(const std::string& room, std::optional<std::int64_t> due_ms) = 0;
  // Rooms due by `now_ms` that this node may take, earliest first: with several nodes,
  // those without an owner, with an owner whose lease ran out, or held by this node.
  virtual std::variant<std::vector<DueWake>, std::string> due(std::int64_t now_ms, int limit) = 0;
  // The earliest wake-up stored, if any (the scheduler sleeps until then).
  virtual std::optional<std::int64_t> next() = 0;

  // `dir`/carcassonne.db (made by SqliteStore first); throws StorageError.
  static std::unique_ptr<WakeStore> sqlite(const std::filesystem::path& file);
  static std::unique_ptr<WakeStore> memory();  // --data-dir :memory:
  static std::unique_ptr<WakeStore> postgres(const std::string& url, const std::string& node_id);
};

}  // namespace carc::server
