// The SQLite store's schema and what it checks before it opens a database (sqlite_store.cpp,
// sqlite_writes.cpp): internal to carc_storage.
#pragma once

#include <filesystem>
#include <string>

#include "carc/server/sqlite_store.hpp"

namespace carc::server {

class Db;
class SqlError;

namespace sqlite_schema {

// The store keeps actions.room -> rooms.id itself, with no lookup per append: an append is
// refused when its room is gone (known_ or one read of rooms), and the deletes of rooms
// (remove, purges) delete their actions first. SQLite's own check would look the room up
// again for every insert, and its cascade is not needed.
inline constexpr const char* kForeignKeys = "PRAGMA foreign_keys = OFF";

std::string quoted(const std::filesystem::path& p);
// Writes and syncs a small file to find out early (and say clearly) whether the folder
// takes writes: a read-only file system, missing permissions or a full disk.
void probe_writable(const std::filesystem::path& dir);
// Reads the header without SQLite, so a foreign file is refused before anything opens it.
void check_header(const std::filesystem::path& file);
// The error of a database that would not open, with what to do about it.
StorageError open_error(const std::filesystem::path& file, const SqlError& e);
// Brings the database to SqliteStore::kSchemaVersion; throws StorageError for a newer one
// (left untouched).
void migrate(Db& db, const std::string& where);
const char* sync_pragma(SqliteStore::Sync s);

}  // namespace sqlite_schema
}  // namespace carc::server
