// The PostgreSQL room store (docs/cluster.md): several server nodes on one database.
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
// Three connections, each behind its own mutex, opened on first use: the writer's (commit:
// a batch is one implicit transaction of libpq's pipeline mode, one round trip for every
// room's writes; maintenance), the reads' (load_room claims and reads a room beside the
// commits), and the lease's (renewals never wait behind a commit). No call waits for the
// server without a deadline (pg.hpp: io_timeout_ms, statement_timeout, TCP keepalives and
// tcp_user_timeout). A lost or timed-out connection is re-opened at its next use;
// meanwhile calls fail (the rooms answer `unavailable`) and nothing is half-stored. Once
// this node's own clock says its lease ran out without a renewal, commits fail at once
// (the database's fence would refuse them anyway).
#pragma once

#include <algorithm>
#include <atomic>
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
  int connect_timeout_s = 2;
  // The longest any statement may wait for its answer; 0: a quarter of the lease, between
  // 250 ms and 5 s (a stalled database fails a node's writes well within its lease).
  int io_timeout_ms = 0;
};

class PgStore final : public RoomStore, public ClusterStore {
 public:
  using Options = PgOptions;
  static constexpr int kSchemaVersion = 5;

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
  // Claims and reads every playable room no other live node owns (a single node's restart).
  RoomsLoad load_rooms() override;
  std::vector<std::pair<std::string, std::string>> quarantined() override;
  std::uint64_t commits() const override;
  std::string describe() const override;
  ClusterStore* cluster() override { return this; }
  Status save_analysis(const StoredAnalysis& a) override;  // pg_analysis.cpp
  AnalysesLoad load_analyses(const std::string& room) override;

  // ---- ClusterStore ----
  LeaseRenewal renew_lease() override;
  Status request_handoff(const std::string& room) override;
  Status release(const std::string& room) override;
  Status retire() override;
  std::size_t held() const override;
  const std::string& node_id() const override { return options_.node_id; }
  std::int64_t lease_ms() const override { return options_.lease_ms; }
  bool lease_running() const override { return !lease_ran_out(); }

 private:
  struct Link;  // one connection, its mutex and its reconnect pacing
  PgStore(std::unique_ptr<PgConn> conn, std::string url, std::string where, Options options);
  std::int64_t now() const;
  // Under link.mu: connected (opened or re-opened), or false with `why`.
  bool ensure_connected(Link& link, std::string* why);
  std::optional<StoredRoom> read_locked(PgConn& c, const std::string& id);
  std::int64_t epoch_of(const std::string& room) const;  // 0: not held
  void hold(const std::string& room, std::int64_t epoch);
  void forget(const std::string& room);
  // Registered or renewed at `sent`: the lease runs until sent + lease_ms by our clock.
  void lease_from(std::chrono::steady_clock::time_point sent);
  bool lease_ran_out() const;
  // A room released for the node that asked for it is kept for that node this long: its
  // clients (sent there by the front, retrying after a second) claim it first, and a client
  // still reaching the old owner cannot take it back meanwhile. Past it, anyone may claim it.
  std::int64_t kept_ms() const { return std::clamp<std::int64_t>(options_.lease_ms, 3'000, 5'000); }
  std::variant<int, std::string> purge(const char* what, const std::string& sql, std::int64_t ms, bool fence_live);

  const std::string url_;
  std::string where_;  // host:port/db, no password
  Options options_;
  std::unique_ptr<Link> write_, read_, lease_;
  mutable std::mutex held_mu_;
  std::unordered_map<std::string, std::int64_t> epochs_;  // rooms held: room -> epoch (under held_mu_)
  // Rooms another node asks for that the database says are ours but this node does not hold
  // (a claim that reached the database after this node gave up on it), with their epoch, as
  // the last renewal saw them (under lease_->mu): released when the next renewal sees them
  // unchanged and still not held.
  std::unordered_map<std::string, std::int64_t> orphans_;
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<std::int64_t> lease_until_ns_{0};  // steady clock: our lease surely ran out after
};

}  // namespace carc::server
