#include "durable/write_batcher.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace carc::server {

namespace {

const std::string& room_of(const Write& w) {
  return std::visit([](const auto& v) -> const std::string& { return v.room; }, w);
}

std::string describe(const Write& w) {
  struct {
    std::string operator()(const CreateRoom& c) { return "create " + c.room; }
    std::string operator()(const AppendAction& a) { return "append " + a.room + " #" + std::to_string(a.seq); }
    std::string operator()(const SetPhase& p) { return "set_phase " + p.room + " " + p.phase; }
    std::string operator()(const RemoveRoom& r) { return "remove " + r.room; }
  } d;
  return std::visit(d, w);
}

}  // namespace

void WriteBatcher::answer(Done& done, bool ok) {
  if (!done) return;
  try {
    done(ok);
  } catch (const std::exception& e) {
    spdlog::error("storage: a persist callback threw: {}", e.what());
  }
}

void WriteBatcher::give(Done& done, bool ok) {
  if (ok && store_.syncs_apart()) {
    if (done) unsynced_.push_back(std::move(done));
    return;
  }
  answer(done, ok);
}

bool WriteBatcher::number(Entry& e, std::unordered_map<std::string, std::int64_t>& next, std::string* why) {
  if (const auto* c = std::get_if<CreateRoom>(&*e.write)) {
    next[c->room] = 0;  // its actions may follow in the same batch
    return true;
  }
  auto* a = std::get_if<AppendAction>(&*e.write);
  if (a == nullptr) return true;
  auto it = next.find(a->room);
  if (it == next.end()) {
    const auto known = next_seq_.find(a->room);
    if (known == next_seq_.end()) {
      *why = "the room is not open on this server (never created or loaded here, or removed)";
      return false;
    }
    it = next.emplace(a->room, known->second).first;
  }
  a->seq = it->second++;
  return true;
}

void WriteBatcher::settle(const Entry& e) {
  const Write& w = *e.write;
  if (const auto* a = std::get_if<AppendAction>(&w)) next_seq_[a->room] = a->seq + 1;
  if (const auto* c = std::get_if<CreateRoom>(&w)) next_seq_[c->room] = 0;
  if (const auto* r = std::get_if<RemoveRoom>(&w)) next_seq_.erase(r->room);
}

void WriteBatcher::commit_versions(std::vector<VersionBump>& versions) {
  if (versions.empty()) return;
  Batch bumps;
  bumps.versions = std::move(versions);
  versions.clear();
  const BatchResult r = store_.commit(bumps);
  if (!r.committed()) spdlog::warn("storage: {}", r.error);
}

void WriteBatcher::commit(std::vector<Entry>& entries, std::vector<VersionBump>& versions) {
  Batch batch;
  std::vector<Entry*> sent;
  std::unordered_map<std::string, std::int64_t> next;
  for (Entry& e : entries) {
    if (!e.write) {
      next_seq_[e.open] = e.next_seq;
      next.erase(e.open);
      continue;
    }
    std::string why;
    if (!number(e, next, &why)) {
      spdlog::error("storage: {}: {} (the change is refused as unavailable)", describe(*e.write), why);
      answer(e.done, false);
      continue;
    }
    batch.writes.push_back(*e.write);
    sent.push_back(&e);
  }
  batch.versions = std::move(versions);
  versions.clear();
  if (batch.empty()) {
    entries.clear();
    return;
  }

  const BatchResult result = store_.commit(batch);
  batches_.fetch_add(1, std::memory_order_relaxed);
  writes_.fetch_add(sent.size(), std::memory_order_relaxed);
  if (sent.size() > largest_.load(std::memory_order_relaxed)) largest_.store(sent.size(), std::memory_order_relaxed);
  if (result.committed()) {
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const std::string& refused = i < result.refused.size() ? result.refused[i] : std::string();
      if (!refused.empty()) spdlog::error("storage: {} (refused)", refused);
      else settle(*sent[i]);
      give(sent[i]->done, refused.empty());
    }
  } else if (sent.size() <= 1) {
    // Nothing to tell apart: the one write (if any) cannot be stored.
    if (sent.empty()) {
      spdlog::warn("storage: {}", result.error);
    } else {
      spdlog::error("storage: {} (the change is refused as unavailable)", result.error);
      answer(sent[0]->done, false);
      commit_versions(batch.versions);
    }
  } else {
    // One bad write must not make the others unavailable: each in its own transaction.
    spdlog::warn("storage: {}; retrying its {} write(s) one by one", result.error, sent.size());
    fallbacks_.fetch_add(1, std::memory_order_relaxed);
    one_by_one(sent, batch.versions);
  }
  entries.clear();
}

void WriteBatcher::one_by_one(std::vector<Entry*>& writes, std::vector<VersionBump>& versions) {
  std::vector<std::string> failed_rooms;  // later writes of a room that failed fail too (order)
  for (Entry* e : writes) {
    const std::string& room = room_of(*e->write);
    if (std::find(failed_rooms.begin(), failed_rooms.end(), room) != failed_rooms.end()) {
      spdlog::error("storage: {}: an earlier write of the room failed (the change is refused as unavailable)",
                    describe(*e->write));
      answer(e->done, false);
      continue;
    }
    std::unordered_map<std::string, std::int64_t> next;
    std::string why;
    bool ok = number(*e, next, &why);
    if (ok) {
      Batch one;
      one.writes.push_back(*e->write);
      const BatchResult r = store_.commit(one);
      why = r.committed() ? (r.refused.empty() ? std::string() : r.refused[0]) : r.error;
      ok = why.empty();
      if (ok) settle(*e);
    }
    if (!ok) {
      spdlog::error("storage: {}: {} (the change is refused as unavailable)", describe(*e->write), why);
      failed_rooms.push_back(room);
    }
    give(e->done, ok);
  }
  commit_versions(versions);
}

}  // namespace carc::server
