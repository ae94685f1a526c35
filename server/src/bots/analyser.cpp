#include "bots/analyser.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

#include "carc/core/analysis.hpp"
#include "carc/protocol/analysis_json.hpp"
#include "carc/protocol/record.hpp"

namespace carc::server {

struct Analyser::Job {
  std::string room;
  std::string record;  // its text, stored with the analysis
  int players = 0;
  ExpansionSet expansions;
  OptionSet options;
  std::vector<Move> moves;            // the record's moves, the steps inside a turn on their own
  // One per record entry (a placement with its steps, or a discard): the index of its move
  // in `moves`, the steps before it, and who made it. The steps are reviewed with their
  // placement (docs/analysis.md).
  std::vector<std::size_t> at;
  std::vector<int> steps_before;
  std::vector<Seat> seats;
  std::vector<std::string> entries;  // analysed so far, each an entry's JSON text
  std::uint64_t seed = 0;
  bool busy = false;  // a worker is on its next move
  std::size_t total() const { return at.size(); }
  bool done() const { return entries.size() >= at.size(); }
};

Analyser::Analyser(Options options) : options_(options) {}

void Analyser::set_storage(Save save, Load load) {
  std::lock_guard lock(mu_);
  save_ = std::move(save);
  load_ = std::move(load);
}

std::shared_ptr<Analyser::Job> Analyser::make_job(const std::string& room, const std::string& record,
                                                  std::string* why) const {
  const auto j = nlohmann::json::parse(record, nullptr, false);
  auto parsed = protocol::parse_record(j);
  if (auto* e = std::get_if<protocol::RecordError>(&parsed)) {
    *why = e->message;
    return nullptr;
  }
  auto& r = std::get<protocol::Record>(parsed);
  auto job = std::make_shared<Job>();
  job->room = room;
  job->record = record;
  job->players = r.players;
  job->expansions = r.expansions;
  job->options = r.options;
  Game seats = Game::replay(r.players, r.expansions, r.options);
  int steps = 0;
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const Move& m = r.moves[i];
    if (m.type == Move::Type::Step) {
      ++steps;
    } else {
      job->at.push_back(i);
      job->steps_before.push_back(steps);
      job->seats.push_back(seats.current_seat());
    }
    if (const auto e = seats.play(m)) {
      *why = std::string(rule_error_message(*e));
      return nullptr;
    }
  }
  job->moves = std::move(r.moves);
  job->seed = std::hash<std::string>{}(room);
  return job;
}

bool Analyser::enqueue(const std::string& room, const std::string& record) {
  return enqueue(room, [&record] { return record; });
}

bool Analyser::enqueue(const std::string& room, const std::function<std::string()>& record) {
  if (options_.concurrent <= 0) return false;
  {
    // Checked again below: the replay of make_job is not made for a job refused anyway.
    std::lock_guard lock(mu_);
    if (queue_.size() >= options_.max_queued || jobs_.contains(room)) return false;
  }
  std::string why;
  auto job = make_job(room, record(), &why);
  if (!job) {
    spdlog::error("room {}: its record cannot be analysed ({})", room, why);
    return false;
  }
  StoredAnalysis snap;
  {
    std::lock_guard lock(mu_);
    if (queue_.size() >= options_.max_queued || jobs_.contains(room)) return false;
    queue_.push_back(job);
    jobs_[room] = job;
    snap = snapshot_locked(*job);
  }
  if (save_) save_(std::move(snap));
  if (pool_ != nullptr) pool_->wake_background();
  return true;
}

bool Analyser::resume(const StoredAnalysis& stored) {
  if (options_.concurrent <= 0) return false;
  std::string why;
  auto job = make_job(stored.room, stored.record, &why);
  if (!job) {
    spdlog::error("room {}: its stored analysis cannot be resumed ({})", stored.room, why);
    return false;
  }
  const auto entries = nlohmann::json::parse(stored.moves, nullptr, false);
  if (entries.is_array()) {
    for (const auto& e : entries) {
      if (job->done()) break;
      job->entries.push_back(protocol::json_text(e));
    }
  }
  {
    std::lock_guard lock(mu_);
    if (jobs_.contains(stored.room)) return false;
    jobs_[stored.room] = job;
    if (job->done()) {
      keep_locked(job);
    } else {
      queue_.push_back(job);
    }
  }
  if (pool_ != nullptr) pool_->wake_background();
  return true;
}

StoredAnalysis Analyser::snapshot_locked(const Job& job) const {
  std::string moves = "[";
  for (std::size_t i = 0; i < job.entries.size(); ++i) {
    if (i > 0) moves += ',';
    moves += job.entries[i];
  }
  moves += ']';
  const char* status = job.done() ? "done" : (job.entries.empty() && !job.busy ? "queued" : "running");
  return StoredAnalysis{job.room, status, job.record, std::move(moves)};
}

std::string Analyser::answer_locked(const Job& job) const {
  StoredAnalysis s = snapshot_locked(job);
  // How long it will take: the moves left of this game and of those before it in the
  // queue, at the think time a move, spread over the analyses running at once.
  std::size_t ahead = 0;
  for (const auto& q : queue_) {
    if (q.get() == &job) break;
    ahead += q->total() - q->entries.size();
  }
  const std::size_t left = job.total() - job.entries.size();
  const std::int64_t ms = static_cast<std::int64_t>(ahead + left) * options_.ms_per_move / std::max(1, options_.concurrent);
  std::string out = R"({"status":")" + s.status + R"(","total":)" + std::to_string(job.total()) +
                    R"(,"done":)" + std::to_string(job.entries.size()) + R"(,"eta_seconds":)" +
                    std::to_string((ms + 999) / 1000) + R"(,"moves":)" + s.moves + "}";
  return out;
}

void Analyser::keep_locked(const std::shared_ptr<Job>& job) {
  done_order_.push_back(job->room);
  while (done_order_.size() > options_.keep_done) {
    jobs_.erase(done_order_.front());  // still in storage
    done_order_.pop_front();
  }
}

std::optional<std::string> Analyser::cached(const std::string& room) const {
  std::lock_guard lock(mu_);
  if (const auto it = jobs_.find(room); it != jobs_.end()) return answer_locked(*it->second);
  return std::nullopt;
}

void Analyser::lookup(const std::string& room, std::function<void(std::optional<std::string>)> done) {
  Load load;
  {
    std::lock_guard lock(mu_);
    if (const auto it = jobs_.find(room); it != jobs_.end()) return done(answer_locked(*it->second));
    load = load_;
  }
  if (!load) return done(std::nullopt);
  load(room, [done = std::move(done)](std::optional<StoredAnalysis> stored) {
    if (!stored) return done(std::nullopt);
    // Not in this process's queue (another node's, or from before a restart that did not
    // resume it): what storage holds.
    done(R"({"status":")" + stored->status + R"(","moves":)" + stored->moves + "}");
  });
}

std::function<std::int64_t()> preemptible_clock(std::function<bool()> preempt, std::int64_t budget_ns, bool* preempted) {
  // A fixed jump at the preemption would not do: a start read after it looks like no time
  // spent at all, and the search would run its whole budget (a live turn waited a minute).
  return [preempt = std::move(preempt), budget_ns, preempted, jumped = std::int64_t{0}]() mutable {
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (!*preempted && preempt()) *preempted = true;
    if (*preempted) jumped += budget_ns + 1;
    return now + jumped;
  };
}

bool Analyser::step(const std::function<bool()>& preempt) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(mu_);
    if (running_ >= options_.concurrent) return false;
    for (const auto& q : queue_) {
      if (!q->busy && !q->done()) {
        job = q;
        break;
      }
    }
    if (!job) return false;
    job->busy = true;
    ++running_;
  }
  const std::size_t k = job->entries.size();
  std::optional<std::string> entry;
  bool preempted = false;
  try {
    const std::size_t i = job->at[k];
    auto before = seeded_replay(job->players, job->expansions, job->moves, i, job->options);
    if (auto* g = std::get_if<Game>(&before)) {
      if (g->moves_played() + job->steps_before[k] > static_cast<int>(i) || job->moves[i].type == Move::Type::Discard) {
        MoveAnalysis a;
        a.move = static_cast<int>(k);
        a.seat = job->seats[k];
        a.discard = true;
        entry = protocol::json_text(protocol::move_analysis_json(a));
      } else {
        BotSpec spec;
        spec.kind = BotKind::Mcts;
        spec.think_ns = options_.ms_per_move * 1'000'000;
        // The wall clock, until a live computer turn waits: then the search stops after its
        // current playout, and this move is done again.
        spec.clock = preemptible_clock(preempt, spec.think_ns, &preempted);
        if (!preempt()) {
          const auto a = analyse_move(*g, job->moves[i], static_cast<int>(k), spec, analysis_seed(job->seed, static_cast<int>(k)));
          if (!preempted && a) entry = protocol::json_text(protocol::move_analysis_json(*a));
          if (!preempted && !a) throw std::runtime_error("the move does not replay");
        } else {
          preempted = true;
        }
      }
    } else {
      throw std::runtime_error("the record does not replay");
    }
  } catch (const std::exception& e) {
    spdlog::error("room {}: analysis of move {} failed ({}); the analysis is dropped", job->room, k, e.what());
    std::lock_guard lock(mu_);
    job->busy = false;
    --running_;
    std::erase(queue_, job);
    jobs_.erase(job->room);
    return true;
  }
  StoredAnalysis snap;
  bool save = false;
  {
    std::lock_guard lock(mu_);
    job->busy = false;
    --running_;
    if (entry) {
      job->entries.push_back(std::move(*entry));
      save = true;
      if (job->done()) {
        std::erase(queue_, job);
        keep_locked(job);
      }
      snap = snapshot_locked(*job);
    }
  }
  if (save && save_) save_(std::move(snap));
  (void)preempted;
  return true;
}

}  // namespace carc::server
