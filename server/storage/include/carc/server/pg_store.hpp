// The PostgreSQL room store (issue 11): several server nodes on one database.
//
// The same contract as the SQLite store (room_store.hpp), plus what several nodes need:
// - every node has an id and a lease in the table `nodes`, renewed with the database's clock
//   (node clocks are never compared);
// - a room has one owner node and an epoch. Every write of a room (append, phase, remove)
//   is fenced on owner = this node, epoch = the epoch this store claimed, and this node's
//   lease still running, in the same statement: a node that lost its room (paused past its
//   lease, cut off, or the room was taken over) can never write it again. The primary key
//   (room, seq) is the backstop;
// - load_room() claims the room (a new epoch) unless another node with a live lease owns it;
//   it then answers `owner` instead of the room.
//
// One connection behind a mutex, used from the server's one writer thread; a batch is one
// implicit transaction of libpq's pipeline mode (one round trip for every room's writes).
// A lost connection is re-opened at the next call; meanwhile calls fail (the rooms answer
// `unavailable`) and nothing is half-stored.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "carc/server/room_store.hpp"

namespace carc::server {

class PgConn;  // the libpq connection (internal)

struct PgOptions {
  std::string node_id;                  // required: unique per running node
  std::int64_t lease_ms = 10'000;       // a node that did not renew for this long has lost its rooms
  std::string advertise;                // how others may name this node in logs ("host:port"); optional
  std::function<std::int64_t()> clock;  // unix ms for created/updated times; empty = system clock
  int connect_timeout_s = 5;
};

// What a lease renewal found.
struct LeaseRenewal {
  bool ok = false;            // renewed (the lease was still running)
  bool lost = false;          // it had expired: every room claimed before is lost (re-registered now)
  std::string error;          // the database could not be reached (then neither ok nor lost)
  std::vector<std::string> wanted;  // rooms of this node that another node asks for (handoff)
};

class PgStore final : public RoomStore {
 public:
  using Options = PgOptions;
  static constexpr int kSchemaVersion = 2;

  // Connects to `url` (postgresql://user:pass@host:port/db or a libpq conninfo), migrates
  // the schema forward and registers the node's lease. Throws StorageError when the
  // database cannot be reached, is not one of ours, or has a newer schema: never changes
  // a database it refuses.
  static std::unique_ptr<PgStore> open(const std::string& url, Options options);
  ~PgStore() override;

  BatchResult commit(const Batch& batch) override;
  Status quarantine(const std::string& room, const std::string& reason) override;
  std::variant<int, std::string> purge_finished_before(std::int64_t ms) override;
  std::variant<int, std::string> purge_idle_before(std::int64_t ms) override;
  // Claims the room for this node (a new epoch) unless another live node owns it, then
  // reads it. Quarantined rooms are read, not claimed.
  RoomLoad load_room(const std::string& id) override;
  // Claims and reads every room no other live node owns (a single node's restart).
  RoomsLoad load_rooms() override;
  std::vector<std::pair<std::string, std::string>> quarantined() override;
  std::uint64_t commits() const override;
  std::string describe() const override;

  // Renews this node's lease (the writer thread calls it every lease_ms / 4). When it had
  // run out, the node has lost every room it held: they are forgotten here (later writes
  // are refused) and the caller must drop them from memory.
  LeaseRenewal renew_lease();
  // Asks the owner of `room` to hand it over (it is routed here now). The owner sees it in
  // its next renewal and releases the room.
  Status request_handoff(const std::string& room);
  // Gives up a room this node holds (after its clients were sent away and its writes
  // stored): no owner, so the next node asked claims it.
  Status release(const std::string& room);
  // A clean stop: gives up every room and the lease, so other nodes take the rooms at once
  // instead of after the lease. Call it after the last write.
  Status retire();
  // Rooms this store holds a claim on (tests, metrics).
  std::size_t held() const;
  const std::string& node_id() const { return options_.node_id; }

 private:
  PgStore(std::unique_ptr<PgConn> conn, std::string where, Options options);
  std::int64_t now() const;
  bool ensure_connected(std::string* why);
  std::optional<StoredRoom> read_locked(const std::string& id);
  std::int64_t epoch_of(const std::string& room) const;  // 0: not held
  std::variant<int, std::string> purge(const char* what, const std::string& sql, std::int64_t ms, bool fence_live);

  mutable std::mutex mu_;
  std::unique_ptr<PgConn> conn_;
  std::string where_;  // host:port/db, no password
  Options options_;
  std::unordered_map<std::string, std::int64_t> epochs_;  // rooms held: room -> epoch
  std::uint64_t commits_ = 0;
  std::chrono::steady_clock::time_point next_reconnect_{};
  std::string last_reconnect_error_;
};

}  // namespace carc::server
