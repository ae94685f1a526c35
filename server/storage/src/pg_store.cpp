#include "carc/server/pg_store.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include "pg.hpp"
#include "pg_link.hpp"
#include "pg_schema.hpp"

namespace carc::server {
namespace {

using pg_schema::kOwnerGone;
using pg_schema::migrate;
using pg_schema::prepare_statements;

std::string redact(const std::string& url) {
  // postgresql://user:secret@host/db -> postgresql://user:***@host/db
  const auto scheme = url.find("://");
  const auto at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

PgConnOptions conn_options(const PgOptions& o) {
  PgConnOptions c;
  c.connect_timeout_s = std::max(1, o.connect_timeout_s);
  c.io_timeout_ms = o.io_timeout_ms > 0 ? o.io_timeout_ms
                                        : static_cast<int>(std::clamp<std::int64_t>(o.lease_ms / 4, 250, 5'000));
  return c;
}

std::string i64(std::int64_t v) { return std::to_string(v); }

}  // namespace


PgStore::PgStore(std::unique_ptr<PgConn> conn, std::string url, std::string where, Options options)
    : url_(std::move(url)), where_(std::move(where)), options_(std::move(options)),
      write_(std::make_unique<Link>()), read_(std::make_unique<Link>()), lease_(std::make_unique<Link>()) {
  write_->conn = std::move(conn);
}

PgStore::~PgStore() = default;

std::unique_ptr<PgStore> PgStore::open(const std::string& url, Options options) {
  if (options.node_id.empty()) throw StorageError("PostgreSQL storage needs a node id (--node-id)");
  std::unique_ptr<PgConn> conn;
  try {
    conn = std::make_unique<PgConn>(url, conn_options(options));
  } catch (const PgError& e) {
    throw StorageError("cannot connect to PostgreSQL at " + redact(url) + ": " + e.what() +
                       "; check that it runs and that --db (or DATABASE_URL) names it");
  }
  const std::string where = conn->where();
  const auto sent = std::chrono::steady_clock::now();
  try {
    conn->exec("SET client_min_messages = warning");
    migrate(*conn, where);
    prepare_statements(*conn);
    conn->run("register", {options.node_id, i64(options.lease_ms), options.advertise});
  } catch (const PgError& e) {
    throw StorageError("cannot use the PostgreSQL database " + where + ": " + e.what());
  }
  auto store = std::unique_ptr<PgStore>(new PgStore(std::move(conn), url, where, std::move(options)));
  store->lease_from(sent);
  return store;
}

std::int64_t PgStore::now() const {
  if (options_.clock) return options_.clock();
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::uint64_t PgStore::commits() const { return commits_.load(std::memory_order_relaxed); }

std::string PgStore::describe() const { return "PostgreSQL " + where_ + " (node " + options_.node_id + ")"; }

std::size_t PgStore::held() const {
  std::lock_guard lock(held_mu_);
  return epochs_.size();
}

std::int64_t PgStore::epoch_of(const std::string& room) const {
  std::lock_guard lock(held_mu_);
  const auto it = epochs_.find(room);
  return it != epochs_.end() ? it->second : 0;
}

void PgStore::hold(const std::string& room, std::int64_t epoch) {
  std::lock_guard lock(held_mu_);
  epochs_[room] = epoch;
}

void PgStore::forget(const std::string& room) {
  std::lock_guard lock(held_mu_);
  epochs_.erase(room);
}

void PgStore::lease_from(std::chrono::steady_clock::time_point sent) {
  const auto until = sent + std::chrono::milliseconds(options_.lease_ms);
  lease_until_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(until.time_since_epoch()).count(),
                        std::memory_order_relaxed);
}

bool PgStore::lease_ran_out() const {
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch());
  return now.count() > lease_until_ns_.load(std::memory_order_relaxed);
}

bool PgStore::ensure_connected(Link& link, std::string* why) {
  if (link.conn && link.conn->healthy()) return true;
  // One attempt per quarter second at most: while the server is away (or a network times
  // out) every call fails at once instead of each waiting for its own attempt.
  const auto t = std::chrono::steady_clock::now();
  if (t < link.next_reconnect) {
    *why = "PostgreSQL unreachable: " + link.last_error;
    return false;
  }
  try {
    if (link.conn) {
      link.conn->reset();
    } else {
      auto c = std::make_unique<PgConn>(url_, conn_options(options_));
      c->exec("SET client_min_messages = warning");
      prepare_statements(*c);
      link.conn = std::move(c);
    }
    return true;
  } catch (const PgError& e) {
    link.last_error = e.what();
    link.next_reconnect = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
    *why = std::string("PostgreSQL unreachable: ") + e.what();
    return false;
  }
}

// ---- writes ----------------------------------------------------------------------------
BatchResult PgStore::commit(const Batch& batch) {
  BatchResult result;
  if (batch.empty()) return result;
  std::lock_guard lock(write_->mu);
  if (lease_ran_out()) {
    // Not renewed within the lease (the database or the way to it stalls): the fence would
    // refuse these writes; say so now instead of waiting for the database.
    result.error = "commit of " + std::to_string(batch.writes.size()) +
                   " write(s): refused before the fence: this node's lease ran out without a renewal";
    return result;
  }
  if (std::string why; !ensure_connected(*write_, &why)) {
    result.error = "commit of " + std::to_string(batch.writes.size()) + " write(s): " + why;
    return result;
  }
  PgConn& conn = *write_->conn;
  const std::string me = options_.node_id;
  const std::string t = i64(now());
  // Writes of rooms this node does not hold are refused here; the others go in one pipeline.
  std::vector<std::pair<std::string, Params>> statements;
  std::vector<int> statement_of(batch.writes.size(), -1);
  std::vector<std::string> refused(batch.writes.size());
  std::unordered_map<std::string, std::int64_t> created;  // rooms created earlier in this batch count as held
  const auto epoch_now = [&](const std::string& room) -> std::int64_t {
    if (const auto it = created.find(room); it != created.end()) return it->second;
    const auto it = epochs_.find(room);
    return it != epochs_.end() ? it->second : 0;
  };
  {
    std::lock_guard held(held_mu_);
    for (std::size_t i = 0; i < batch.writes.size(); ++i) {
      const Write& w = batch.writes[i];
      if (const auto* c = std::get_if<CreateRoom>(&w)) {
        statement_of[i] = static_cast<int>(statements.size());
        statements.push_back({c->claim ? "create" : "create_unowned", {me, c->room, i64(c->created_ms != 0 ? c->created_ms : now()), t}});
        if (c->claim) created.try_emplace(c->room, 1);
        continue;
      }
      const std::string& room = std::visit([](const auto& v) -> const std::string& { return v.room; }, w);
      const std::int64_t held_epoch = epoch_now(room);
      if (held_epoch == 0) {
        if (std::holds_alternative<RemoveRoom>(w)) continue;  // nothing of ours to remove
        refused[i] = std::visit(
            [](const auto& v) {
              using T = std::decay_t<decltype(v)>;
              if constexpr (std::is_same_v<T, AppendAction>) return "append " + v.room + " #" + std::to_string(v.seq);
              else if constexpr (std::is_same_v<T, SetPhase>) return "set_phase " + v.room;
              else return "write " + v.room;
            },
            w) + ": no such room held by this node (never created or claimed here, or lost to another node)";
        continue;
      }
      const std::string epoch = i64(held_epoch);
      statement_of[i] = static_cast<int>(statements.size());
      if (const auto* a = std::get_if<AppendAction>(&w)) {
        statements.push_back({"append", {me, a->room, i64(a->seq), a->payload, i64(a->version), a->phase, t, epoch}});
      } else if (const auto* p = std::get_if<SetPhase>(&w)) {
        statements.push_back({"phase", {me, p->room, p->phase, t, epoch}});
      } else if (const auto* r = std::get_if<RemoveRoom>(&w)) {
        statements.push_back({"remove", {me, r->room, epoch}});
      }
    }
    // Version bumps are fenced like the writes; a room not held here is skipped.
    for (const VersionBump& b : batch.versions) {
      if (const std::int64_t e = epoch_now(b.room); e != 0) statements.push_back({"bump", {me, b.room, i64(b.version), t, i64(e)}});
    }
  }
  if (statements.empty()) {
    result.refused = std::move(refused);
    return result;
  }
  PgConn::Piped piped = conn.pipeline(statements);
  if (!piped.error.empty()) {
    result.error = "commit of " + std::to_string(batch.writes.size()) + " write(s): " + piped.error;
    if (!conn.healthy()) result.error += " (PostgreSQL unreachable)";
    return result;
  }
  commits_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard held(held_mu_);
  for (std::size_t i = 0; i < batch.writes.size(); ++i) {
    if (statement_of[i] < 0) continue;
    const bool changed = piped.results[static_cast<std::size_t>(statement_of[i])].affected() > 0;
    const Write& w = batch.writes[i];
    if (const auto* c = std::get_if<CreateRoom>(&w)) {
      if (changed && c->claim) epochs_[c->room] = 1;
      else if (!changed) refused[i] = "create " + c->room + ": the room exists (or this node's lease ran out)";
    } else if (const auto* a = std::get_if<AppendAction>(&w); a != nullptr && !changed) {
      refused[i] = "append " + a->room + " #" + std::to_string(a->seq) +
                   ": refused by the fence (the room is gone, or another node took it over, or this node's lease ran out)";
      epochs_.erase(a->room);
    } else if (const auto* p = std::get_if<SetPhase>(&w); p != nullptr && !changed) {
      refused[i] = "set_phase " + p->room + ": refused by the fence (the room is gone or held by another node)";
      epochs_.erase(p->room);  // as SQLite forgets it: the room is not ours to write
    } else if (const auto* r = std::get_if<RemoveRoom>(&w); r != nullptr) {
      epochs_.erase(r->room);  // removed, or not ours any more: either way not held
    }
  }
  result.refused = std::move(refused);
  return result;
}

Status PgStore::quarantine(const std::string& room, const std::string& reason) {
  std::lock_guard lock(write_->mu);
  try {
    if (std::string why; !ensure_connected(*write_, &why)) return Status::failed("quarantine " + room + ": " + why);
    if (write_->conn->run("quarantine", {room, reason}).affected() == 0) return Status::failed("quarantine " + room + ": no such room");
    forget(room);
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed("quarantine " + room + ": " + e.what());
  }
}

std::variant<int, std::string> PgStore::purge(const char* what, const std::string& sql, std::int64_t ms, bool fence_live) {
  std::lock_guard lock(write_->mu);
  try {
    if (std::string why; !ensure_connected(*write_, &why)) return std::string(what) + ": " + why;
    // Rooms another live node holds are that node's to expire.
    std::string q = sql;
    if (fence_live) q += " AND (owner IS NULL OR owner = $2 OR " + std::string(kOwnerGone) + ")";
    q += " RETURNING id";
    Params params{i64(ms)};
    if (fence_live) params.push_back(options_.node_id);
    PgResult r = write_->conn->query(q, params);
    if (!r.ok()) return std::string(what) + ": " + r.error();
    for (int i = 0; i < r.rows(); ++i) forget(r.text(i, 0));
    return r.rows();
  } catch (const std::exception& e) {
    return std::string(what) + ": " + e.what();
  }
}

std::variant<int, std::string> PgStore::purge_finished_before(std::int64_t ms) {
  return purge("purge_finished_before", "DELETE FROM rooms WHERE phase = 'finished' AND quarantined IS NULL AND updated_ms < $1",
               ms, false);
}

std::variant<int, std::string> PgStore::purge_idle_before(std::int64_t ms) {
  return purge("purge_idle_before", "DELETE FROM rooms WHERE phase <> 'finished' AND quarantined IS NULL AND updated_ms < $1",
               ms, true);
}

// ---- reads and claims ------------------------------------------------------------------
std::optional<StoredRoom> PgStore::read_locked(PgConn& c, const std::string& id) {
  PgResult r = c.run("room", {id});
  if (r.rows() == 0) return std::nullopt;
  StoredRoom room;
  room.id = r.text(0, 0);
  room.phase = r.text(0, 1);
  room.version = r.int64(0, 2);
  room.created_ms = r.int64(0, 3);
  room.updated_ms = r.int64(0, 4);
  room.quarantined = r.text(0, 5);
  PgResult a = c.run("log", {id});
  room.actions.reserve(static_cast<std::size_t>(a.rows()));
  for (int i = 0; i < a.rows(); ++i) room.actions.push_back({a.int64(i, 0), a.text(i, 1)});
  return room;
}

RoomLoad PgStore::load_room(const std::string& id) {
  std::lock_guard lock(read_->mu);
  RoomLoad out;
  try {
    if (std::string why; !ensure_connected(*read_, &why)) {
      out.error = "load_room " + id + ": " + why;
      return out;
    }
    PgConn& c = *read_->conn;
    PgResult claim = c.run("claim", {options_.node_id, id});
    if (claim.rows() == 1) {
      hold(id, claim.int64(0, 0));
    } else {
      PgResult h = c.run("holder", {id});
      if (h.rows() == 0) return out;  // no such room
      const std::string owner = h.text(0, 0);
      const bool quarantined = h.text(0, 1) == "t";
      const bool owner_live = h.text(0, 2) == "t";
      if (!quarantined) {
        if (owner_live && owner != options_.node_id) {
          out.owner = owner;
          return out;
        }
        if (const std::string asker = h.text(0, 3); h.text(0, 4) == "t" && asker != options_.node_id) {
          out.kept_for = asker;
          return out;
        }
        out.error = "load_room " + id + ": not claimed (this node's lease ran out)";
        return out;
      }
    }
    out.room = read_locked(c, id);
  } catch (const std::exception& e) {
    out.error = "load_room " + id + ": " + e.what();
  }
  return out;
}

RoomsLoad PgStore::load_rooms() {
  std::lock_guard lock(read_->mu);
  RoomsLoad out;
  try {
    if (std::string why; !ensure_connected(*read_, &why)) {
      out.error = "load_rooms: " + why;
      return out;
    }
    PgConn& c = *read_->conn;
    PgResult claimed = c.run("claim_all", {options_.node_id});
    for (int i = 0; i < claimed.rows(); ++i) hold(claimed.text(i, 0), claimed.int64(i, 1));
    PgResult ids = c.exec("SELECT id FROM rooms WHERE quarantined IS NULL AND phase <> 'finished' ORDER BY created_ms, id");
    for (int i = 0; i < ids.rows(); ++i) {
      const std::string id = ids.text(i, 0);
      if (epoch_of(id) == 0) continue;  // another live node's
      if (auto r = read_locked(c, id)) out.rooms.push_back(std::move(*r));
    }
  } catch (const std::exception& e) {
    out.rooms.clear();
    out.error = std::string("load_rooms: ") + e.what();
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> PgStore::quarantined() {
  std::lock_guard lock(read_->mu);
  std::vector<std::pair<std::string, std::string>> out;
  try {
    if (std::string why; !ensure_connected(*read_, &why)) return out;
    PgResult r = read_->conn->exec("SELECT id, quarantined FROM rooms WHERE quarantined IS NOT NULL ORDER BY id");
    for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), r.text(i, 1));
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

}  // namespace carc::server
