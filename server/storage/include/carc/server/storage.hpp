// Durable rooms (issue 4): one SQLite database `carcassonne.db` in the data folder.
//
// A room is stored as what it takes to rebuild it: settings, seed, seats (token hashes,
// never tokens), and every accepted action in order. The server replays the actions
// through the engine on start. Payloads are opaque text (JSON written by the server).
//
// Thread-safe: room strands call it concurrently; one connection behind a mutex. A write
// that fails returns false (the caller answers `unavailable` and does not apply the change)
// and leaves earlier data intact; last_error() says why.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace carc::server {

class Db;  // the SQLite connection (internal)

struct StoredSeat {
  int seat = 0;
  std::string name;
  std::string token_hash;  // the server's sha256_hex(token): never the token itself
  bool operator==(const StoredSeat&) const = default;
};

struct StoredAction {
  std::int64_t seq = 0;  // 0, 1, 2, ... within a room
  std::string payload;   // one accepted action (start, play, ...), opaque
  bool operator==(const StoredAction&) const = default;
};

struct StoredRoom {
  std::string id;
  std::string phase;  // "lobby" | "playing" | "finished"
  std::uint64_t seed = 0;
  std::string settings;  // opaque
  std::int64_t version = 0;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;  // set by the storage on every write
  std::vector<StoredSeat> seats;      // by seat
  std::vector<StoredAction> actions;  // by seq
  std::string quarantined;            // why its log no longer replays; empty if it does
  bool operator==(const StoredRoom&) const = default;
};

// Start-up failure, with a message that says what to do.
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One write of a batch (Storage::commit_batch): an action appended with the next seq of its
// room, exactly as the second Storage::append_action does it.
struct ActionAppend {
  std::string room;
  std::string payload;
  std::int64_t version = 0;
  std::string phase;               // empty keeps the room's phase
  std::optional<StoredSeat> seat;  // stored in the same transaction, if given
};

struct StorageOptions {
  enum class Sync { Full, Normal };  // PRAGMA synchronous for action commits
  Sync sync = Sync::Full;
  int busy_timeout_ms = 5000;
  std::function<std::int64_t()> clock;  // unix ms; empty = system clock
};

class Storage {
 public:
  using Options = StorageOptions;
  using Sync = StorageOptions::Sync;

  static constexpr int kSchemaVersion = 2;
  static constexpr const char* kFileName = "carcassonne.db";

  // Opens (or creates) `dir`/carcassonne.db. Throws StorageError when the folder cannot be
  // created or written, the disk is full, the file is not a healthy SQLite database, or
  // its schema is newer than this binary. Never deletes or replaces an existing file.
  static std::unique_ptr<Storage> open(const std::filesystem::path& dir, Options options);
  static std::unique_ptr<Storage> open(const std::filesystem::path& dir) { return open(dir, Options{}); }
  static std::unique_ptr<Storage> in_memory(Options options);
  static std::unique_ptr<Storage> in_memory() { return in_memory(Options{}); }

  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  // ---- writes: true when durable (per Options::sync) ----
  bool create_room(const StoredRoom& room);  // with its seats and actions; false if it exists
  bool put_seat(const std::string& room, const StoredSeat& seat);  // insert or replace
  // One transaction: the action, the room's version and phase. `seq` must be new.
  bool append_action(const std::string& room, std::int64_t seq, const std::string& payload,
                     std::int64_t version, const std::string& phase);
  // The same with the next seq of the room (0 for the first); `phase` empty keeps the
  // room's phase; `seat`, if given, is stored in the seats table in the same transaction.
  bool append_action(const std::string& room, const std::string& payload, std::int64_t version,
                     const std::string& phase, const StoredSeat* seat = nullptr);
  // Group commit: every append of `batch`, then every version-only bump of `versions`
  // (room, version; as set_version), in ONE transaction (one fsync with Sync::Full). All or
  // nothing: false (last_error() says which write failed) stores none of them. Appends of
  // one room keep their order. A batch with no append commits like set_version (no fsync).
  bool commit_batch(const std::vector<ActionAppend>& batch,
                    const std::vector<std::pair<std::string, std::int64_t>>& versions = {});
  // Version-only changes (chat, connections): committed without waiting for the disk,
  // so a process crash keeps them; the next action commit flushes them.
  bool set_version(const std::string& room, std::int64_t version);
  bool set_phase(const std::string& room, const std::string& phase);
  bool set_settings(const std::string& room, const std::string& settings);
  // Deletes a room that is neither finished (kept for its record) nor quarantined.
  bool remove_room(const std::string& room);
  // Keeps a room whose log no longer replays aside, with the reason. Never deleted.
  bool quarantine(const std::string& room, const std::string& reason);
  // Delete finished (resp. unfinished) rooms last written before `ms`; never quarantined ones.
  int purge_finished_before(std::int64_t ms);
  int purge_idle_before(std::int64_t ms);

  // ---- reads ----
  std::vector<StoredRoom> load_rooms();                 // all but the quarantined
  std::optional<StoredRoom> load_room(const std::string& id);  // also quarantined ones
  std::vector<std::pair<std::string, std::string>> quarantined();  // (id, reason)

  std::string last_error() const;
  // Write transactions committed since open (SQLite's commit hook): for tests and metrics.
  std::uint64_t commits() const;
  const std::filesystem::path& path() const { return path_; }  // empty in memory

 private:
  Storage(std::unique_ptr<Db> db, std::filesystem::path path, Options options);
  std::int64_t now() const;
  bool fail(const std::string& what);
  // One UPDATE of a room row: `sql` binds ?1 room, ?2 value, ?3 now.
  bool update_room(const char* what, const char* sql, const std::string& room, const std::string& value);
  std::optional<StoredRoom> load_locked(const std::string& id);
  void append_locked(const std::string& room, const std::string& payload, std::int64_t version,
                     const std::string& phase, const StoredSeat* seat);
  void set_version_locked(const std::string& room, std::int64_t version);

  mutable std::mutex mu_;
  std::unique_ptr<Db> db_;
  std::filesystem::path path_;
  Options options_;
  std::string last_error_;
};

}  // namespace carc::server
