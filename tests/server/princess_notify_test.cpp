// The dragon's steps in a turn-based room (docs/expansions/princess-dragon.md, "Rooms"), on
// RoomLogic alone with the time injected: a seeded game is played by random players up to
// the placement that starts the dragon's movement, the room is restored just before it (as
// after a restart), and both seats play the placement and every step through the protocol.
// Each step is its seat's turn: the seat whose step it is hears "your turn" (webhook and
// Web Push), once per step, under an id of its own, and the next turn's seat hears it when
// the movement ends.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/core/random_player.hpp"
#include "base/metrics.hpp"
#include "base/random.hpp"
#include "room/room_logic.hpp"
#include "recording_client.hpp"

namespace carc::server {
namespace {

using nlohmann::json;

const ExpansionSet kPrincess = ExpansionSet{}.with(Expansion::Princess);
using test::kT0;

// A seeded two-player game up to a bare placement that starts the dragon's movement.
struct DragonScript {
  std::uint64_t seed = 0;
  std::vector<std::pair<Seat, Move>> before;
  Seat seat = 0;
  Move trigger;
  std::optional<Game> at;  // the game just before the trigger
};

DragonScript find_dragon_turn() {
  for (std::uint64_t seed = 1; seed < 200; ++seed) {
    Game g = Game::seeded(2, seed, kPrincess);
    RandomPlayer player(seed);
    DragonScript s{seed, {}, 0, {}, std::nullopt};
    while (!g.finished() && !g.in_stage()) {
      const Move m = player.choose(g);
      if (m.type == Move::Type::Place) {
        const Move bare = Move::place(m.tile, m.placement.cell, m.placement.rotation);
        Game copy = g;
        if (!copy.play(bare) && copy.in_stage()) {
          s.seat = g.current_seat();
          s.trigger = bare;
          s.at = g;
          return s;
        }
      }
      const Seat seat = g.current_seat();
      REQUIRE_FALSE(g.play(m));
      s.before.push_back({seat, m});
    }
  }
  FAIL("no seed gave a dragon's movement");
  return {};
}

using Conn = test::RecordingClient;

struct DragonFixture {
  Metrics metrics;
  DragonScript script = find_dragon_turn();
  std::unique_ptr<RoomLogic> room;
  std::array<std::shared_ptr<Conn>, 2> conns{std::make_shared<Conn>(), std::make_shared<Conn>()};
  Effects fx;
  std::int64_t now = 0;

  DragonFixture() {
    spdlog::set_level(spdlog::level::warn);
    RestoredRoom r;
    for (int i = 0; i < 2; ++i) {
      r.actions.push_back(SeatTaken{i, "P" + std::to_string(i), sha256_hex(test::seat_token(i)), std::nullopt, i == 0});
    }
    SettingsChanged settings{};
    settings.pace = protocol::Pace::TurnBased;
    settings.bank_seconds = 7200;
    settings.increment_seconds = 600;
    settings.expansions = kPrincess;
    r.actions.push_back(settings);
    r.actions.push_back(WebhookChanged{protocol::WebhookSetting{"https://hooks.example/x", {}}});
    r.actions.push_back(GameStarted{2, script.seed, kT0});
    for (std::size_t i = 0; i < script.before.size(); ++i) {
      r.actions.push_back(MovePlayed{static_cast<int>(i), script.before[i].first, script.before[i].second, false,
                                     kT0 + 1000 * static_cast<std::int64_t>(i + 1)});
    }
    r.version = static_cast<std::int64_t>(r.actions.size());
    r.game_version = r.version;
    now = kT0 + 1000 * static_cast<std::int64_t>(script.before.size() + 1);
    auto restored = RoomLogic::restore("dragon-room", metrics, r, now);
    REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(restored));
    room = std::move(std::get<std::unique_ptr<RoomLogic>>(restored));
    for (int i = 0; i < 2; ++i) {
      room->attach(conns[static_cast<std::size_t>(i)]);
      room->handle(conns[static_cast<std::size_t>(i)], protocol::JoinMsg{std::nullopt, test::seat_token(i)}, now,
                   SteadyClock::now(), fx);
      REQUIRE(conns[static_cast<std::size_t>(i)]->frames.back()["type"] == "welcome");
    }
    fx.notices.clear();
  }

  json state() { return json::parse(room->state_text(now)); }

  void store_all() {
    while (fx.store) {
      fx.store.reset();
      room->stored(true, now, fx);
    }
  }

  void send(int seat, const protocol::ClientMessage& msg) {
    const auto& c = conns[static_cast<std::size_t>(seat)];
    room->handle(c, msg, now, SteadyClock::now(), fx);
    store_all();
    REQUIRE_FALSE(c->last_error());
  }
};

}  // namespace

TEST_CASE("the dragon in a turn-based room: each step notifies the seat whose step it is, once, under its own id") {
  DragonFixture f;
  REQUIRE(f.script.at);
  Game g = *f.script.at;
  std::set<std::string> ids;
  const auto expect_notice = [&](int seat) {
    REQUIRE(f.fx.notices.size() == 1);
    const Notice& n = f.fx.notices[0];
    CHECK(n.event == Notice::Event::YourTurn);
    REQUIRE(n.seat);
    CHECK(*n.seat == seat);
    CHECK(n.hook);  // the room's webhook hears every step
    CHECK(ids.insert(n.id).second);  // a step is not a repeat of the turn's notice
    f.fx.notices.clear();
  };

  protocol::PlayMsg p;
  p.version = f.conns[static_cast<std::size_t>(f.script.seat)]->version;
  p.x = f.script.trigger.placement.cell.x;
  p.y = f.script.trigger.placement.cell.y;
  p.rotation = f.script.trigger.placement.rotation.degrees();
  f.now += 5000;
  f.send(f.script.seat, p);
  REQUIRE_FALSE(g.play(f.script.trigger));
  REQUIRE(g.in_stage());
  expect_notice(g.acting_seat());

  int steps = 0;
  std::vector<Cell> options;
  while (g.in_stage()) {
    const int seat = g.acting_seat();
    // The state says whose step it is, as the notice does.
    CHECK(f.state()["turn"]["dragon"]["seat"] == seat);
    g.step_options(options);
    REQUIRE_FALSE(options.empty());
    f.now += 60'000;
    f.send(seat, protocol::StepMsg{f.conns[static_cast<std::size_t>(seat)]->version, options[0].x, options[0].y});
    REQUIRE_FALSE(g.play(Move::step(options[0])));
    ++steps;
    if (g.finished()) break;
    expect_notice(g.acting_seat());  // the next step's seat, or the next turn's when the movement ends
  }
  CHECK(steps >= 1);
  CHECK(static_cast<int>(ids.size()) == steps + 1);
  // The step the other seat made was a turn of its clock: it was notified for it.
  if (steps >= 2) CHECK(ids.size() >= 3);
}

}  // namespace carc::server
