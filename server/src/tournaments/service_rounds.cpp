// Tournaments' rounds (docs/tournaments.md#rounds): the start, each next round with its rooms,
// the results of finished tables, on the service's worker. Each step is computed from the
// stored rows and stored with TournamentStore::advance's compare-and-set: a step that lost
// the race (another node, or this one before a restart, took it) stores nothing.
#include <algorithm>
#include <future>

#include <spdlog/spdlog.h>

#include "tournaments/service.hpp"

namespace carc::server {

namespace t9s = tournaments;

namespace {

template <class T, class F>
std::optional<T> wait_for(F&& start) {
  auto promise = std::make_shared<std::promise<T>>();
  auto future = promise->get_future();
  start([promise](T value) { promise->set_value(std::move(value)); });
  if (future.wait_for(std::chrono::seconds(10)) != std::future_status::ready) return std::nullopt;
  return future.get();
}

std::string name_of(const t9s::Tournament& t, const std::string& player) {
  for (const t9s::Entrant& e : t.entrants) {
    if (e.player == player) return e.name;
  }
  return player;
}

}  // namespace

// The rows of a plan's tables: a bye or a forfeit with its result, the others waiting for
// their rooms, which are made once the rows are stored (fill_rooms).
std::vector<TableRow> TournamentService::rows_for(const t9s::Plan& plan) {
  std::vector<TableRow> rows;
  for (const t9s::Table& table : plan.tables) {
    rows.push_back(TableRow{table.round, table.table, table.game, "", t9s::players_text(table.players),
                            table.result ? t9s::result_text(*table.result) : ""});
  }
  return rows;
}

// Makes the room of every stored table that has none and stores it once (set_room): the
// node that stored the round does it at once; any node's tick does it for a round stored
// more than kRoomGraceMs ago (its node died before). Two nodes racing make two rooms, one is
// stored, the other is never joined. The node that stored a room tells its players.
void TournamentService::fill_rooms(const Loaded& l, bool late_only) {
  if (l.t.state != "running") return;
  if (late_only && hooks_.now() < l.t.round_started_ms + kRoomGraceMs) return;
  bool missing = false;
  for (const t9s::Table& table : l.t.tables) missing = missing || (!table.result && table.room.empty());
  if (!missing) return;
  const auto targets = targets_of(l.t.id);
  for (const t9s::Table& table : l.t.tables) {
    if (table.result || !table.room.empty()) continue;
    std::vector<std::string> names, tokens;
    std::vector<std::optional<PushTarget>> push;
    for (const std::string& p : table.players) {
      names.push_back(name_of(l.t, p));
      tokens.push_back(seat_token(l.row.secret, table, p));
      const auto it = targets.find(p);
      push.push_back(it == targets.end() ? std::nullopt : it->second.push);
    }
    auto room = wait_for<std::string>([&](std::function<void(std::string)> done) {
      hooks_.make_room(l.t, table, names, tokens, push, std::move(done));
    });
    if (!room || room->empty()) {
      spdlog::warn("tournaments: {}: no room for round {} table {} (tried again by the next tick)", l.t.id, table.round, table.table);
      continue;
    }
    auto stored = store_->set_room(l.t.id, table.round, table.table, table.game, *room);
    if (auto* why = std::get_if<std::string>(&stored)) spdlog::warn("tournaments: {}: {}", l.t.id, *why);
    if (!std::holds_alternative<bool>(stored) || !std::get<bool>(stored)) continue;  // another node's room is the table's
    t9s::Table made = table;
    made.room = *room;
    notify_table(l, made, targets, false);
  }
}

bool TournamentService::start_now(Loaded& l) {
  std::vector<std::string> players;
  for (const t9s::Entrant& e : t9s::registered(l.t)) players.push_back(e.player);
  std::map<std::string, double> ratings;
  if (hooks_.ratings) {
    auto got = wait_for<std::map<std::string, double>>([&](std::function<void(std::map<std::string, double>)> done) {
      hooks_.ratings(players, l.t.settings.pace == "live" ? "live" : "turn-based", std::move(done));
    });
    if (got) ratings = std::move(*got);
  }
  l.t.seeds = t9s::seed(l.t, [&](const std::string& p) {
    auto it = ratings.find(p);
    return it == ratings.end() ? 0.0 : it->second;
  });
  l.t.round = 0;
  const t9s::Plan plan = t9s::plan(l.t);
  if (plan.kind != t9s::Plan::Kind::next_round) return false;
  const std::int64_t started = std::max(hooks_.now(), l.row.round_started_ms + 1);
  auto moved = store_->advance(l.row, "running", plan.round, t9s::seeds_text(l.t.seeds), started, rows_for(plan));
  if (auto* why = std::get_if<std::string>(&moved)) {
    spdlog::warn("tournaments: {}: {}", l.t.id, *why);
    return false;
  }
  if (std::get<bool>(moved)) spdlog::info("tournaments: {} started with {} players", l.t.id, players.size());
  Answer failure;
  if (auto again = load(l.t.id, failure)) {
    if (std::get<bool>(moved)) fill_rooms(*again, false);
    move_on(*again);  // a first round of byes only
  }
  return true;
}

void TournamentService::move_on(Loaded& first) {
  Loaded l = first;
  for (int step = 0; step < 64 && l.t.state == "running"; ++step) {
    const t9s::Plan plan = t9s::plan(l.t);
    if (plan.kind == t9s::Plan::Kind::wait) return;
    const std::int64_t started = std::max(hooks_.now(), l.row.round_started_ms + 1);
    std::variant<bool, std::string> moved;
    if (plan.kind == t9s::Plan::Kind::finish) {
      moved = store_->advance(l.row, "finished", l.t.round, "", started, {});
    } else {
      moved = store_->advance(l.row, "running", plan.round, "", started, rows_for(plan));
    }
    if (auto* why = std::get_if<std::string>(&moved)) return spdlog::warn("tournaments: {}: {}", l.t.id, *why);
    if (!std::get<bool>(moved)) return;  // another node (or an earlier run) took this step
    spdlog::info("tournaments: {}: {} (round {})", l.t.id,
                 plan.kind == t9s::Plan::Kind::finish ? "finished" : "tables made", plan.round);
    Answer failure;
    auto again = load(l.t.id, failure);
    if (!again) return;
    fill_rooms(*again, false);
    again = load(l.t.id, failure);
    if (!again) return;
    l = std::move(*again);
  }
}

void TournamentService::record(community::GameResult g) {
  worker_.post([this, g = std::move(g)] {
    auto running = store_->tournaments("running", 1000);
    if (auto* why = std::get_if<std::string>(&running)) return spdlog::warn("tournaments: {}", *why);
    for (const TournamentRow& r : std::get<std::vector<TournamentRow>>(running)) {
      auto tables = store_->tables(r.id);
      if (std::holds_alternative<std::string>(tables)) continue;
      for (const TableRow& row : std::get<std::vector<TableRow>>(tables)) {
        if (row.room != g.room || !row.result.empty()) continue;
        // The room was made with the table's players in its seats, in order.
        const auto players = t9s::parse_players(row.players).value_or(std::vector<std::string>{});
        if (players.size() != g.seats.size()) {
          return spdlog::warn("tournaments: {}: room {} has {} seats for {} players", r.id, g.room, g.seats.size(), players.size());
        }
        t9s::TableResult result{row.round, row.table, row.game, {}};
        for (std::size_t i = 0; i < players.size(); ++i) result.seats.push_back({players[i], g.seats[i].score, g.seats[i].gone});
        auto stored = store_->set_result(r.id, row.round, row.table, row.game, t9s::result_text(result));
        if (auto* why = std::get_if<std::string>(&stored)) return spdlog::warn("tournaments: {}: {}", r.id, *why);
        Answer failure;
        if (auto l = load(r.id, failure)) move_on(*l);
        return;
      }
    }
  });
}

// A turn-based round whose deadline (its start + round_hours) passed: each table still playing
// is settled as its game stands: its room ends the game (the seat on move loses on time, gone:
// below every seat still there; the others keep their scores; no move counts after it) and
// answers the result its log now holds, which is stored once (set_result: only a table without
// a result), like a game's own; then the round moves on. The room decides on its strand: a
// last move stored first ends the game itself, and that result is the one stored.
bool TournamentService::settle_late(const Loaded& l) {
  if (l.t.state != "running" || l.t.settings.pace != "turn_based" || !hooks_.settle) return false;
  const std::int64_t deadline = l.t.round_started_ms + std::int64_t{l.t.settings.round_hours} * 3'600'000;
  if (hooks_.now() < deadline) return false;
  bool settled = false;
  for (const t9s::Table& table : l.t.tables) {
    if (table.round != l.t.round || table.result || table.room.empty()) continue;
    auto got = wait_for<std::optional<Hooks::Standing>>([&](std::function<void(std::optional<Hooks::Standing>)> done) {
      hooks_.settle(table.room, std::move(done));
    });
    if (!got || !*got || (*got)->scores.size() != table.players.size() || (*got)->gone.size() != table.players.size()) {
      spdlog::warn("tournaments: {}: round {} table {}: room {} cannot be settled here at the deadline (tried again by the next tick)",
                   l.t.id, table.round, table.table, table.room);
      continue;
    }
    const Hooks::Standing& s = **got;
    t9s::TableResult result{table.round, table.table, table.game, {}};
    for (std::size_t i = 0; i < table.players.size(); ++i) {
      result.seats.push_back({table.players[i], s.scores[i], s.gone[i]});
    }
    auto stored = store_->set_result(l.t.id, table.round, table.table, table.game, t9s::result_text(result));
    if (auto* why = std::get_if<std::string>(&stored)) {
      spdlog::warn("tournaments: {}: {}", l.t.id, *why);
      continue;
    }
    if (!std::get<bool>(stored)) continue;  // its game's own result, or another node, came first
    spdlog::info("tournaments: {}: round {} table {} settled at the round's deadline (room {}: {})", l.t.id, table.round,
                 table.table, table.room, t9s::result_text(result));
    settled = true;
  }
  return settled;
}

void TournamentService::tick() {
  worker_.post([this] {
    const std::int64_t now = hooks_.now();
    auto waiting = store_->tournaments("registering", 1000);
    if (auto* rows = std::get_if<std::vector<TournamentRow>>(&waiting)) {
      for (const TournamentRow& r : *rows) {
        Answer failure;
        auto l = load(r.id, failure);
        if (!l) continue;
        const int players = static_cast<int>(t9s::registered(l->t).size());
        const int fewest = l->t.settings.format == t9s::Format::swiss ? l->t.settings.rounds + 1 : 2;
        // Its time came, or (no time) it is full and its start on the last registration failed.
        const bool due = l->t.settings.start_ms ? *l->t.settings.start_ms <= now : players >= l->t.settings.seats;
        if (due && players >= fewest) start_now(*l);
      }
    }
    auto running = store_->tournaments("running", 1000);
    if (auto* rows = std::get_if<std::vector<TournamentRow>>(&running)) {
      for (const TournamentRow& r : *rows) {
        Answer failure;
        auto l = load(r.id, failure);
        if (!l) continue;
        if (settle_late(*l)) l = load(r.id, failure);
        if (!l) continue;
        fill_rooms(*l, true);
        move_on(*l);
        if ((l = load(r.id, failure))) notify_late(*l);
      }
    }
  });
}

void TournamentService::start_ticking(std::chrono::milliseconds period) {
  ticker_ = std::jthread([this, period](std::stop_token stop) {
    while (!stop.stop_requested()) {
      std::unique_lock lock(tick_mu_);
      if (tick_cv_.wait_for(lock, stop, period, [] { return false; })) break;
      if (stop.stop_requested()) break;
      tick();
    }
  });
}

void TournamentService::recover(std::function<void(std::string room)> load_room) {
  worker_.post([this, load_room = std::move(load_room)] {
    auto running = store_->tournaments("running", 1000);
    if (auto* why = std::get_if<std::string>(&running)) return spdlog::warn("tournaments: {}", *why);
    for (const TournamentRow& r : std::get<std::vector<TournamentRow>>(running)) {
      auto tables = store_->tables(r.id);
      if (std::holds_alternative<std::string>(tables)) continue;
      for (const TableRow& row : std::get<std::vector<TableRow>>(tables)) {
        if (row.result.empty() && !row.room.empty()) load_room(row.room);
      }
    }
  });
}

}  // namespace carc::server
