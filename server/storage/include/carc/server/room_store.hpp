// The room store (docs/durability.md): what a server keeps of its rooms, behind one interface
// with two backends: SQLite (one process; the default) and PostgreSQL (several nodes).
//
// A room is stored as its ordered log of accepted actions (opaque payloads written by the
// server's codec) plus a small row: phase, last version, timestamps, quarantine. The server
// replays the log through the engine to rebuild a room.
//
// Every write answers for itself: a call returns its own outcome and reason, so a failure
// can never be reported with another thread's message. Writes reach the store in batches
// (commit), one transaction per batch, from the server's one writer thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace carc::server {

struct StoredAction {
  std::int64_t seq = 0;  // 0, 1, 2, ... within a room, without gaps
  std::string payload;   // one accepted action, opaque
  bool operator==(const StoredAction&) const = default;
};

struct StoredRoom {
  std::string id;
  std::string phase;  // "lobby" | "playing" | "finished"
  std::int64_t version = 0;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;        // the last write, to within a minute (SQLite: appends refresh it once a minute)
  std::vector<StoredAction> actions;  // by seq
  std::string quarantined;            // why its log no longer replays; empty if it does
  bool operator==(const StoredRoom&) const = default;
};

// Start-up failure, with a message that says what to do.
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The outcome of one write: ok, or why not.
class [[nodiscard]] Status {
 public:
  static Status ok() { return Status(); }
  static Status failed(std::string why) { return Status(why.empty() ? std::string("failed") : std::move(why)); }
  bool is_ok() const { return error_.empty(); }
  explicit operator bool() const { return is_ok(); }
  const std::string& error() const { return error_; }

 private:
  Status() = default;
  explicit Status(std::string e) : error_(std::move(e)) {}
  std::string error_;
};

// ---- the writes of a batch ----
// A new empty room: phase "lobby", version 1. Refused if the id exists.
// Several nodes: `claim` false leaves it without an owner (it is created wherever a client
// asked, and served where the front routes it: the first node asked claims it).
struct CreateRoom {
  std::string room;
  std::int64_t created_ms = 0;
  bool claim = true;
};
// One action at `seq`, the room's next sequence number (the writer counts them). The
// primary key (room, seq) refuses a second writer of the same place. In the same
// statement or transaction the room's version becomes max(version, `version`) and, unless
// `phase` is empty, its phase `phase`. Refused (nothing stored) if the room is gone.
struct AppendAction {
  std::string room;
  std::int64_t seq = 0;
  std::string payload;
  std::int64_t version = 0;
  std::string phase;
};
struct SetPhase {
  std::string room;
  std::string phase;
};
// Deletes a room with its log, unless it is finished (kept for its record until purged)
// or quarantined (never deleted).
struct RemoveRoom {
  std::string room;
};
using Write = std::variant<CreateRoom, AppendAction, SetPhase, RemoveRoom>;

// A version-only change (connections, spectators): version = max(version, `version`).
// Never refused: a room that is gone is skipped.
struct VersionBump {
  std::string room;
  std::int64_t version = 0;
};

struct Batch {
  std::vector<Write> writes;          // applied in this order
  std::vector<VersionBump> versions;  // after the writes
  bool empty() const { return writes.empty() && versions.empty(); }
};

struct BatchResult {
  // Non-empty: the transaction failed and NOTHING of the batch was stored.
  std::string error;
  // Otherwise, one entry per write: empty if it was stored, else why it was refused (the
  // room is gone, the id exists); the others of the batch were stored all the same.
  std::vector<std::string> refused;
  bool committed() const { return error.empty(); }
};

struct RoomLoad {
  std::optional<StoredRoom> room;  // nullopt: no such room (or `error`, or `owner`)
  std::string error;               // non-empty: it could not be read
  std::string owner;               // several nodes: another live node holds the room (nullopt room)
  std::string kept_for;            // several nodes: released for another live node that asked for it, which claims it first
};

struct RoomsLoad {
  std::vector<StoredRoom> rooms;
  std::string error;
};

// What a lease renewal found (several nodes).
struct LeaseRenewal {
  bool ok = false;                  // renewed (the lease was still running)
  bool lost = false;                // it had expired: every room claimed before is lost (re-registered now)
  std::string error;                // the database could not be reached (then neither ok nor lost)
  std::vector<std::string> wanted;  // rooms of this node that another node asks for (handoff)
  std::vector<std::string> orphans_released;  // rooms the database gave this node but it never held, released
};

// The operations of a store shared by several nodes (PostgreSQL): the node's lease, and
// rooms moving between nodes. A single-node store (SQLite) has none: RoomStore::cluster()
// is null. Each may be called from any thread; none waits for the writer's commits.
class ClusterStore {
 public:
  virtual ~ClusterStore() = default;
  // Renews this node's lease (a thread of its own calls it every lease / 4, so that a
  // writer held by a slow commit never lets it run out). When it had run out, the node has
  // lost every room it held: they are forgotten (later writes are refused) and the caller
  // must drop them from memory.
  virtual LeaseRenewal renew_lease() = 0;
  // Asks the owner of `room` to hand it over (it is routed here now). The owner sees it in
  // its next renewal and releases the room.
  virtual Status request_handoff(const std::string& room) = 0;
  // Gives up a room this node holds (after its clients were sent away and its writes
  // stored): no owner, so the next node asked claims it. When a node asked for it, the room
  // is kept for that node a few seconds: no other node (this one included) can claim it
  // meanwhile, so a client still reaching this node cannot take it back before the asker.
  virtual Status release(const std::string& room) = 0;
  // A clean stop: gives up every room and the lease, so other nodes take the rooms at once
  // instead of after the lease. Call it after the last write.
  virtual Status retire() = 0;
  virtual const std::string& node_id() const = 0;
  virtual std::int64_t lease_ms() const = 0;
  virtual std::size_t held() const = 0;  // rooms this node holds a claim on
  // False once the lease ran out by this node's own clock without a renewal (the database
  // did not answer): its rooms are surely not its own any more.
  virtual bool lease_running() const = 0;
};

// What a store can tell about its own health, for /metrics. -1: not applicable.
struct StoreHealth {
  std::int64_t wal_bytes = -1;             // SQLite: the write-ahead log's size on disk
  std::int64_t checkpoints = -1;           // SQLite: checkpoints completed by its own thread
  std::int64_t checkpoint_failures = -1;   // SQLite: checkpoints that failed (busy, disk, I/O)
};

// The analysis of a finished game (docs/analysis.md), kept in a table of its own beside its room.
struct StoredAnalysis {
  std::string room;
  std::string status;  // "queued" | "running" | "done"
  std::string record;  // the game's record (carcassonne-record/1 text): what is analysed
  std::string moves;   // the entries analysed so far: a JSON array's text
  bool operator==(const StoredAnalysis&) const = default;
};
struct AnalysesLoad {
  std::vector<StoredAnalysis> analyses;
  std::string error;
};

class RoomStore {
 public:
  virtual ~RoomStore() = default;
  RoomStore() = default;
  RoomStore(const RoomStore&) = delete;
  RoomStore& operator=(const RoomStore&) = delete;

  // One transaction for the whole batch (one fsync, one round trip of the pipeline). A write
  // refused for what it found (see BatchResult) does not stop the others; a failure of the
  // transaction itself (disk full, constraint, connection lost) stores none of them.
  virtual BatchResult commit(const Batch& batch) = 0;
  // A store whose commit() returns before its writes are on disk (syncs_apart()) puts them
  // there with sync(): every commit returned before the call. The writer answers a write
  // only after it, and meanwhile commits the next batch: sync() runs on a thread of its
  // own beside commit(), one call at a time. After a failed sync every commit fails too.
  virtual bool syncs_apart() const { return false; }
  virtual Status sync() { return Status::ok(); }
  // A room whose log no longer replays is kept aside with the reason. Never deleted.
  virtual Status quarantine(const std::string& room, const std::string& reason) = 0;
  // Deletes finished (resp. unfinished) rooms last written before `ms`, never quarantined
  // ones; the number deleted, or the error.
  virtual std::variant<int, std::string> purge_finished_before(std::int64_t ms) = 0;
  virtual std::variant<int, std::string> purge_idle_before(std::int64_t ms) = 0;

  // Quarantined ones too. May run on another thread beside commit() (the server reads on
  // a thread of its own, on a connection of its own, so that reads never hold commits).
  // Several nodes: claims the room for this node unless another live node holds it.
  virtual RoomLoad load_room(const std::string& id) = 0;
  // Every room that can still be played (lobby, playing), not quarantined: start-up.
  // Finished games are read on demand (load_room).
  virtual RoomsLoad load_rooms() = 0;
  virtual std::vector<std::pair<std::string, std::string>> quarantined() = 0;  // (id, reason)

  // The operations of several nodes, or null (a single-node store).
  virtual ClusterStore* cluster() { return nullptr; }
  virtual StoreHealth health() const { return {}; }

  // Analyses of finished games (analysis_store.cpp of each backend): one row a room, written
  // whole. A room's analysis goes when its room is purged. A store without them refuses.
  virtual Status save_analysis(const StoredAnalysis& a) { (void)a; return Status::failed("this store keeps no analyses"); }
  // The analysis of `room` (none: an empty list); with an empty `room`, every analysis not
  // yet done (a restart resumes them).
  virtual AnalysesLoad load_analyses(const std::string& room) { (void)room; return {{}, "this store keeps no analyses"}; }

  // Write transactions committed since open: for tests and metrics.
  virtual std::uint64_t commits() const = 0;
  // Where the data lives, for logs: a file path, or a database without its password.
  virtual std::string describe() const = 0;

  // One write in its own batch: ok, or why it failed or was refused.
  Status apply(Write w) {
    Batch b;
    b.writes.push_back(std::move(w));
    const BatchResult r = commit(b);
    if (!r.committed()) return Status::failed(r.error);
    if (!r.refused.empty() && !r.refused[0].empty()) return Status::failed(r.refused[0]);
    return Status::ok();
  }
};

// A store that passes every call to another one: the base of decorators that change one
// or two calls (a test's fault injection, a held sync) and must forward the rest, the
// cluster's and the analyses' included.
class ForwardingStore : public RoomStore {
 public:
  explicit ForwardingStore(RoomStore& inner) : inner_(inner) {}

  BatchResult commit(const Batch& batch) override { return inner_.commit(batch); }
  bool syncs_apart() const override { return inner_.syncs_apart(); }
  Status sync() override { return inner_.sync(); }
  Status quarantine(const std::string& room, const std::string& reason) override { return inner_.quarantine(room, reason); }
  std::variant<int, std::string> purge_finished_before(std::int64_t ms) override { return inner_.purge_finished_before(ms); }
  std::variant<int, std::string> purge_idle_before(std::int64_t ms) override { return inner_.purge_idle_before(ms); }
  RoomLoad load_room(const std::string& id) override { return inner_.load_room(id); }
  RoomsLoad load_rooms() override { return inner_.load_rooms(); }
  std::vector<std::pair<std::string, std::string>> quarantined() override { return inner_.quarantined(); }
  ClusterStore* cluster() override { return inner_.cluster(); }
  StoreHealth health() const override { return inner_.health(); }
  Status save_analysis(const StoredAnalysis& a) override { return inner_.save_analysis(a); }
  AnalysesLoad load_analyses(const std::string& room) override { return inner_.load_analyses(room); }
  std::uint64_t commits() const override { return inner_.commits(); }
  std::string describe() const override { return inner_.describe(); }

 protected:
  RoomStore& inner_;
};

}  // namespace carc::server
