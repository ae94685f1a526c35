// `carcassonne bench-view`: the cost of the public state on the server's hot path, on one
// thread. For whole random games it measures, per move: the rules (a copy of the game and
// play()), and the patch built from the move's events (StatePatcher: the ops as text, one
// frame); then, on every finished 72-tile board: the whole state written from scratch (what
// a room does once per version, when a welcome or a resync asks for it) and a welcome
// served from that text (what every further client of the same version costs).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/event_history.hpp"
#include "carc/protocol/room_state.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace carc::tools {
namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

struct Room {
  std::vector<std::string> names;
  std::vector<protocol::SeatFacts> seats;
  std::unique_ptr<Game> game;
  protocol::EventHistory events;
  std::deque<protocol::ChatLine> chat;
  std::string result;
  protocol::StatePatcher patcher;

  protocol::RoomFacts facts() const {
    protocol::RoomFacts f;
    f.room = "bench-room";
    f.phase = game->finished() ? protocol::RoomPhase::Finished : protocol::RoomPhase::Playing;
    f.seats = seats;
    f.host = 0;
    f.game = game.get();
    f.result = result;
    return f;
  }
};

}  // namespace

int cmd_bench_view(const std::vector<std::string>& args) {
  bool bad = false;
  std::uint64_t games = 200;
  std::uint64_t players = 4;
  cli::flag(args, "--games", &games, &bad);
  cli::flag(args, "--players", &players, &bad);
  if (bad || games == 0 || players < 2 || players > 5) return usage_error("bench-view [--games N>0] [--players 2..5]");

  std::vector<double> rules_us, patch_us, state_us, welcome_us;
  std::size_t patch_bytes = 0, patches = 0, state_bytes = 0;
  std::uint64_t sink = 0;
  for (std::uint64_t i = 0; i < games; ++i) {
    Room r;
    for (std::uint64_t s = 0; s < players; ++s) r.names.push_back("Player " + std::to_string(s + 1));
    for (const auto& n : r.names) r.seats.push_back(protocol::SeatFacts{n, true, std::nullopt, false, std::nullopt});
    std::vector<Event> events;
    r.game = std::make_unique<Game>(Game::seeded(static_cast<int>(players), i, &events));
    r.patcher.reset(r.facts(), 1, 0);
    r.patcher.begin(2);
    r.patcher.events_started(r.events);
    r.patcher.game_events(r.events, events);
    r.patcher.sync(r.facts());
    r.patcher.take_frame();
    RandomPlayer player(i * 0x9E3779B97F4A7C15ULL + 3);
    std::int64_t version = 2;
    while (!r.game->finished()) {
      const Move m = player.choose(*r.game);
      events.clear();
      auto t0 = Clock::now();
      auto next = std::make_unique<Game>(*r.game);  // the room plays on a copy, swapped in once stored
      if (next->play(m, &events)) return std::fprintf(stderr, "internal error: a random move was refused\n"), 3;
      rules_us.push_back(us_since(t0));
      t0 = Clock::now();
      r.game = std::move(next);
      r.patcher.begin(++version);
      r.patcher.game_events(r.events, events);
      if (r.game->finished()) r.result = protocol::result_text(*r.game, r.events);
      r.patcher.sync(r.facts());
      const std::string frame = r.patcher.take_frame();
      patch_us.push_back(us_since(t0));
      patch_bytes += frame.size();
      ++patches;
    }
    std::string state;
    auto t0 = Clock::now();
    protocol::write_state(state, r.facts(), r.events, r.chat);
    state_us.push_back(us_since(t0));
    state_bytes += state.size();
    t0 = Clock::now();
    std::string welcome = R"({"type":"welcome","seat":null,"version":)" + std::to_string(version) + R"(,"state":)";
    welcome += state;
    welcome += '}';
    welcome_us.push_back(us_since(t0));
    sink += welcome.size();
  }
  const double n = static_cast<double>(patches);
  std::printf("%llu games of %llu players, %zu moves\n", static_cast<unsigned long long>(games),
              static_cast<unsigned long long>(players), patches);
  std::printf("rules per move (copy + play): p50 %.2f us, p99 %.2f us\n", cli::percentile(rules_us, 0.5),
              cli::percentile(rules_us, 0.99));
  std::printf("patch per move (ops from events, one frame): p50 %.2f us, p99 %.2f us, %.0f bytes on average\n",
              cli::percentile(patch_us, 0.5), cli::percentile(patch_us, 0.99), static_cast<double>(patch_bytes) / n);
  std::printf("whole state of a finished board, from scratch: p50 %.1f us, max %.1f us, %.0f bytes\n",
              cli::percentile(state_us, 0.5), cli::percentile(state_us, 1.0),
              static_cast<double>(state_bytes) / static_cast<double>(games));
  std::printf("welcome on a finished board from the cached state: p50 %.2f us, max %.2f us\n",
              cli::percentile(welcome_us, 0.5), cli::percentile(welcome_us, 1.0));
  std::printf("{\"rules_us_p50\":%.2f,\"patch_us_p50\":%.2f,\"patch_us_p99\":%.2f,\"state_us_p50\":%.1f,"
              "\"state_us_max\":%.1f,\"welcome_us_p50\":%.2f,\"welcome_us_max\":%.2f,\"state_bytes\":%.0f,\"sink\":%llu}\n",
              cli::percentile(rules_us, 0.5), cli::percentile(patch_us, 0.5), cli::percentile(patch_us, 0.99),
              cli::percentile(state_us, 0.5), cli::percentile(state_us, 1.0), cli::percentile(welcome_us, 0.5),
              cli::percentile(welcome_us, 1.0), static_cast<double>(state_bytes) / static_cast<double>(games),
              static_cast<unsigned long long>(sink % 10));
  return 0;
}

}  // namespace carc::tools
