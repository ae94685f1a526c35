// The PostgreSQL store's cluster operations (ClusterStore): the node's lease, hand-off
// requests, releases, a clean retirement. The lease has a connection of its own (lease_),
// so a commit that waits for a stalled database never holds a renewal back. The claims
// themselves are in load_room (pg_store.cpp) and their rules in pg_schema.cpp (claimable).
#include <chrono>
#include <exception>
#include <string>
#include <unordered_map>

#include "carc/server/pg_store.hpp"
#include "pg.hpp"
#include "pg_link.hpp"

namespace carc::server {
namespace {


}  // namespace

LeaseRenewal PgStore::renew_lease() {
  std::lock_guard lock(lease_->mu);
  LeaseRenewal out;
  try {
    if (std::string why; !ensure_connected(*lease_, &why)) {
      out.error = why;
      return out;
    }
    PgConn& c = *lease_->conn;
    const std::string ms = std::to_string(options_.lease_ms);
    const auto sent = std::chrono::steady_clock::now();
    if (c.run("renew", {options_.node_id, ms}).affected() == 1) {
      lease_from(sent);
      out.ok = true;
      PgResult w = c.run("wanted", {options_.node_id});
      std::unordered_map<std::string, std::int64_t> orphans;
      for (int i = 0; i < w.rows(); ++i) {
        const std::string id = w.text(i, 0);
        if (epoch_of(id) != 0) {
          out.wanted.push_back(id);
          continue;
        }
        // Ours in the database, not held here: a claim whose answer this node never took
        // (sent before a network stall, carried out after it). Nobody else may claim it while
        // this node is live, so it is released; but only when a second renewal finds it the
        // same, so that a claim whose answer is on its way (held a moment later) is kept.
        const std::int64_t epoch = w.int64(i, 1);
        if (const auto seen = orphans_.find(id); seen != orphans_.end() && seen->second == epoch) {
          if (c.run("release", {options_.node_id, id, std::to_string(epoch), std::to_string(kept_ms())}).affected() == 1) {
            out.orphans_released.push_back(id);
          }
        } else {
          orphans.emplace(id, epoch);
        }
      }
      orphans_ = std::move(orphans);
      return out;
    }
    // It ran out: other nodes may have taken any of our rooms already. Forget them all (their
    // writes are refused from now on) and start a new lease.
    out.lost = true;
    orphans_.clear();
    {
      std::lock_guard held(held_mu_);
      epochs_.clear();
    }
    c.run("release_all", {options_.node_id});
    const auto again = std::chrono::steady_clock::now();
    c.run("register", {options_.node_id, ms, options_.advertise});
    lease_from(again);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

Status PgStore::request_handoff(const std::string& room) {
  std::lock_guard lock(read_->mu);
  try {
    if (std::string why; !ensure_connected(*read_, &why)) return Status::failed(why);
    read_->conn->run("handoff", {options_.node_id, room});
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed("handoff " + room + ": " + e.what());
  }
}

Status PgStore::retire() {
  std::lock_guard lock(write_->mu);
  try {
    if (std::string why; !ensure_connected(*write_, &why)) return Status::failed(why);
    write_->conn->run("release_all", {options_.node_id});
    write_->conn->run("unregister", {options_.node_id});
    std::lock_guard held(held_mu_);
    epochs_.clear();
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed(std::string("retire: ") + e.what());
  }
}

Status PgStore::release(const std::string& room) {
  std::lock_guard lock(write_->mu);
  const std::int64_t epoch = epoch_of(room);
  if (epoch == 0) return Status::ok();
  try {
    if (std::string why; !ensure_connected(*write_, &why)) return Status::failed(why);
    write_->conn->run("release", {options_.node_id, room, std::to_string(epoch), std::to_string(kept_ms())});
    forget(room);
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed("release " + room + ": " + e.what());
  }
}

}  // namespace carc::server
