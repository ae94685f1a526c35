// The community's rows (docs/community.md): players' display names with their history, and
// (several nodes) the open games every node lists, so that a player on any node sees them
// all. Each store makes its own tables if they are missing (CREATE TABLE IF NOT EXISTS):
// they are beside the rooms' tables, never part of a room's log.
//
// Its own connection (SQLite: the same file; PostgreSQL: the same database), used from one
// thread (a Worker): never the room writer's, an I/O thread or a strand.
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

struct NameEntry {
  std::string name;
  std::int64_t since_ms = 0;  // when the player took it
};

// One open lobby's row: the room, the node that owns it, its listing as JSON text (written
// and read by the server), and when the owner last wrote it.
struct OpenGameRow {
  std::string room;
  std::string node;
  std::string listing;
  std::int64_t updated_ms = 0;
};

class CommunityStore {
 public:
  virtual ~CommunityStore() = default;
  // The player's names, newest first (at most `max`).
  virtual std::variant<std::vector<NameEntry>, std::string> names(const std::string& player, std::size_t max) = 0;
  // Adds `name` as the player's name at `now_ms` unless it took one after `now_ms - gap_ms`:
  // true when added, false when too soon.
  virtual std::variant<bool, std::string> add_name(const std::string& player, const std::string& name,
                                                   std::int64_t now_ms, std::int64_t gap_ms) = 0;

  // Open games (several nodes): this node's rows become exactly `rows` (others' untouched);
  // and every row written after `fresh_after_ms` (a dead owner's rows expire).
  virtual Status put_open_games(const std::string& node, const std::vector<OpenGameRow>& rows, std::int64_t now_ms) = 0;
  virtual std::variant<std::vector<OpenGameRow>, std::string> open_games(std::int64_t fresh_after_ms) = 0;

  static std::unique_ptr<CommunityStore> sqlite(const std::filesystem::path& file);  // throws StorageError
  static std::unique_ptr<CommunityStore> memory();
  static std::unique_ptr<CommunityStore> postgres(const std::string& url);  // throws StorageError
};

}  // namespace carc::server
