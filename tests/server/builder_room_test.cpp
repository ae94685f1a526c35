// The builder's two-part turn in a room (docs/expansions/traders-builders.md), on RoomLogic
// alone with the time injected: a seeded game is searched for a placement that triggers a
// builder, the room is restored just before it (as after a restart), and the turn is
// played through its protocol: one patch and one stored move per part, turn.extra, the
// same turn number and seat, stale part-1 versions, the clocks of both kinds, no second
// "your turn" notice, a clock running out in the extra part, a computer player's extra part.
#include <doctest/doctest.h>

#include <memory>
#include <optional>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/core/expansions/traders/traders.hpp"
#include "base/metrics.hpp"
#include "base/random.hpp"
#include "room/room_logic.hpp"
#include "recording_client.hpp"

namespace carc::server {
namespace {

using nlohmann::json;

const ExpansionSet kTraders = ExpansionSet{}.with(Expansion::Traders);
using test::kT0;

// A seeded game up to a placement that triggers a builder (with a tile left to draw).
struct BuilderScript {
  std::uint64_t seed = 0;
  int players = 2;
  std::vector<std::pair<Seat, Move>> before;  // the placements before it
  Seat seat = 0;
  Move trigger;
};

// Each seat places its builder where it may, otherwise a meeple where it may, and takes
// any placement that triggers its builder.
BuilderScript find_builder_turn(ExpansionSet set, int players) {
  std::vector<LegalMove> legal;
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    Game g = Game::seeded(players, seed, set);
    BuilderScript s{seed, players, {}, 0, {}};
    while (!g.finished()) {
      const Seat seat = g.current_seat();
      const Tile t = *g.held(seat);
      g.legal_moves(legal);
      for (const LegalMove& m : legal) {
        Game copy = g;
        const Move bare = Move::place(t, m.placement.cell, m.placement.rotation);
        if (!copy.play(bare) && copy.in_extra_part() && copy.current_seat() == seat) {
          s.seat = seat;
          s.trigger = bare;
          return s;
        }
      }
      std::optional<Move> pick;
      for (const LegalMove& m : legal) {
        const PortList& b = m.figures[static_cast<std::size_t>(traders::kBuilder)];
        if (b.size > 0) {
          pick = Move::place(t, m.placement.cell, m.placement.rotation, b.ports[0], traders::kBuilder);
          break;
        }
      }
      for (const LegalMove& m : legal) {
        if (pick) break;
        if (m.meeples.size > 0) pick = Move::place(t, m.placement.cell, m.placement.rotation, m.meeples.ports[0]);
      }
      if (!pick) pick = Move::place(t, legal.front().placement.cell, legal.front().placement.rotation);
      REQUIRE_FALSE(g.play(*pick));
      s.before.push_back({seat, *pick});
    }
  }
  FAIL("no seed gave a builder's extra part");
  return {};
}

using Conn = test::RecordingClient;

// The stored log of a room at `script`'s trigger (its placements before it, one second
// apart), with `settings` (expansions set here) and seat `bot_seat` a computer player.
RestoredRoom log_of(const BuilderScript& script, SettingsChanged settings, bool webhook, int bot_seat = -1) {
  RestoredRoom r;
  for (int i = 0; i < script.players; ++i) {
    if (i == bot_seat) {
      r.actions.push_back(SeatTaken{i, "Bot", "", protocol::BotLevel::Easy, false});
    } else {
      r.actions.push_back(SeatTaken{i, "P" + std::to_string(i), sha256_hex(test::seat_token(i)), std::nullopt, i == 0});
    }
  }
  settings.expansions = kTraders;
  r.actions.push_back(settings);
  if (webhook) r.actions.push_back(WebhookChanged{protocol::WebhookSetting{"https://hooks.example/x", {}}});
  r.actions.push_back(GameStarted{script.players, script.seed, kT0});
  for (std::size_t i = 0; i < script.before.size(); ++i) {
    r.actions.push_back(
        MovePlayed{static_cast<int>(i), script.before[i].first, script.before[i].second, false, kT0 + 1000 * std::int64_t(i + 1)});
  }
  r.version = static_cast<std::int64_t>(r.actions.size());
  r.game_version = r.version;
  return r;
}

struct BuilderFixture {
  Metrics metrics;
  BuilderScript script = find_builder_turn(kTraders, 2);
  std::unique_ptr<RoomLogic> room;
  std::shared_ptr<Conn> conn = std::make_shared<Conn>();
  Effects fx;
  std::int64_t now = 0;
  std::vector<RoomAction> stored;  // every action the room asked to store

  explicit BuilderFixture(SettingsChanged settings, bool webhook = false, int bot_seat = -1) {
    spdlog::set_level(spdlog::level::warn);
    const RestoredRoom log = log_of(script, settings, webhook, bot_seat);
    now = kT0 + 1000 * static_cast<std::int64_t>(script.before.size() + 1);
    auto r = RoomLogic::restore("builder-room", metrics, log, now);
    REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(r));
    room = std::move(std::get<std::unique_ptr<RoomLogic>>(r));
    stored = log.actions;
    if (bot_seat == script.seat) return;
    room->attach(conn);
    room->handle(conn, protocol::JoinMsg{std::nullopt, test::seat_token(script.seat)}, now, SteadyClock::now(), fx);
    REQUIRE(conn->frames.back()["type"] == "welcome");
    REQUIRE(conn->frames.back()["seat"] == script.seat);
  }

  json state() { return json::parse(room->state_text(now)); }

  // Lets storage answer yes to every change asked for.
  void store_all() {
    while (fx.store) {
      stored.push_back(fx.store->action);
      fx.store.reset();
      room->stored(true, now, fx);
    }
  }

  void play(const Move& m, std::int64_t version) {
    protocol::PlayMsg p;
    p.version = version;
    p.x = m.placement.cell.x;
    p.y = m.placement.cell.y;
    p.rotation = m.placement.rotation.degrees();
    if (m.meeple) p.meeple = std::string(port_name(*m.meeple));
    room->handle(conn, p, now, SteadyClock::now(), fx);
    store_all();
  }

  // The first legal placement of the current turn, from the public state.
  Move first_legal() {
    const json s = state();
    const json& e = s["turn"]["legal"][0];
    return Move::place(*tile_from_name(s["turn"]["tile"].get<std::string>()), Cell{e["x"], e["y"]},
                       *Rotation::from_degrees(e["rotation"]));
  }
};

SettingsChanged live(std::optional<int> turn_seconds) {
  SettingsChanged s{};
  s.turn_seconds = turn_seconds;
  s.away_seconds = 60;
  return s;
}

}  // namespace

TEST_CASE("a builder's turn: part 1, its scoring and the extra tile in one patch; the same turn; stale part-1 plays") {
  BuilderFixture f(live(60));
  const json before = f.state();
  const int seat = f.script.seat;
  REQUIRE(before["turn"]["seat"] == seat);
  CHECK(before["turn"]["extra"] == false);
  const int number = before["turn"]["number"];
  const auto v1 = f.conn->version;
  const std::size_t frames = f.conn->frames.size();
  f.play(f.script.trigger, v1);
  // Exactly one patch for part 1, holding the placement, the extra-part event and the turn.
  REQUIRE(f.conn->frames.size() == frames + 1);
  const json patch = f.conn->frames.back();
  REQUIRE(patch["type"] == "patch");
  bool placed = false, extra_event = false, turn = false;
  for (const json& op : patch["ops"]) {
    if (op["path"] == "/turn") {
      turn = true;
      CHECK(op["value"]["extra"] == true);
    }
    if (op["op"] == "add" && op["path"].get<std::string>().rfind("/events/", 0) == 0) {
      placed |= op["value"]["type"] == "placed";
      if (op["value"]["type"] == "extra") {
        extra_event = true;
        CHECK(op["value"]["seat"] == seat);
        CHECK(op["value"]["turn"] == number);
      }
    }
  }
  CHECK(placed);
  CHECK(extra_event);
  CHECK(turn);
  const json mid = f.state();
  CHECK(mid["turn"]["seat"] == seat);
  CHECK(mid["turn"]["number"] == number);
  CHECK(mid["turn"]["extra"] == true);
  CHECK(mid["turn"]["tile"] == mid["players"][seat]["tile"]);
  CHECK_FALSE(mid["turn"]["legal"].empty());
  CHECK(mid["players"][seat]["goods"].is_object());
  CHECK(mid["players"][seat]["figures"].contains("builder"));
  // The deadline starts again for the extra part (turn_seconds).
  CHECK(mid["turn"]["deadline"] == f.now + 60'000);
  // The part-1 version is stale now; nothing changes.
  const auto v2 = f.conn->version;
  REQUIRE(v2 == v1 + 1);
  f.play(f.first_legal(), v1);
  CHECK(f.conn->last_error() == "stale_version");
  CHECK(f.room->version() == v2);
  // A client reconnecting between the parts sees the extra tile and whose turn it is; so does
  // a room restored from the stored log (a restart between the parts).
  auto again = std::make_shared<Conn>();
  f.room->attach(again);
  f.room->handle(again, protocol::JoinMsg{std::nullopt, test::seat_token(seat)}, f.now, SteadyClock::now(), f.fx);
  REQUIRE(again->frames.back()["type"] == "welcome");
  CHECK(again->frames.back()["state"]["turn"] == mid["turn"]);
  f.conn = again;
  RestoredRoom log;
  log.actions = f.stored;
  log.version = f.room->version();
  log.game_version = v2;
  Metrics m2;
  auto restored = RoomLogic::restore("builder-room", m2, log, f.now);
  REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(restored));
  const json back = json::parse(std::get<std::unique_ptr<RoomLogic>>(restored)->state_text(f.now));
  CHECK(back["turn"] == mid["turn"]);
  json players = mid["players"];  // nobody is connected to a restored room yet
  for (json& p : players) p["connected"] = false;
  CHECK(back["players"] == players);
  CHECK(back["board"] == mid["board"]);
  CHECK(back["events"] == mid["events"]);
  // Part 2 with the new version: one more patch, then the other seat's turn.
  f.now += 2000;
  f.play(f.first_legal(), f.conn->version);
  const json after = f.state();
  REQUIRE(after["phase"] == "playing");
  CHECK(after["turn"]["extra"] == false);
  CHECK(after["turn"]["seat"] == 1 - seat);
  CHECK(after["turn"]["number"] == number + 1);
  const json& last_placed = after["events"][after["events"].size() - 1];
  bool extra_placed = false;
  for (const json& e : after["events"]) extra_placed |= e["type"] == "placed" && e.value("extra", false);
  CHECK(extra_placed);
  (void)last_placed;
  // The record marks the part-2 entry "extra", and only it.
  const json record = json::parse(f.room->record_json());
  int extras = 0;
  for (const json& mv : record["moves"]) extras += mv.value("extra", false) ? 1 : 0;
  CHECK(extras >= 1);
  CHECK(record["moves"][record["moves"].size() - 1]["extra"] == true);
}

TEST_CASE("a builder's turn in a turn-based room: the bank runs on through both parts, one increment, one notice") {
  SettingsChanged s = live(std::nullopt);
  s.pace = protocol::Pace::TurnBased;
  s.bank_seconds = 7200;
  s.increment_seconds = 600;
  BuilderFixture f(s, true);
  const int seat = f.script.seat;
  const json before = f.state();
  const std::int64_t bank = before["players"][seat]["bank_ms"];
  const std::int64_t deadline = before["turn"]["deadline"];
  const std::int64_t turn_start = deadline - bank;
  f.now += 5000;
  f.play(f.script.trigger, f.conn->version);
  const json mid = f.state();
  REQUIRE(mid["turn"]["extra"] == true);
  CHECK(mid["players"][seat]["bank_ms"] == bank);
  CHECK(mid["turn"]["deadline"] == deadline);
  CHECK(f.fx.notices.empty());  // no "your turn" for the extra part
  f.now += 7000;
  f.play(f.first_legal(), f.conn->version);
  const json after = f.state();
  REQUIRE(after["turn"]["seat"] == 1 - seat);
  const std::int64_t used = f.now - turn_start;
  CHECK(after["players"][seat]["bank_ms"] == std::min<std::int64_t>(7'200'000, bank - used + 600'000));
  REQUIRE(f.fx.notices.size() == 1);
  CHECK(f.fx.notices[0].seat == 1 - seat);
}

TEST_CASE("a clock that runs out in the extra part hands over only that part") {
  BuilderFixture f(live(10));
  const int seat = f.script.seat;
  f.play(f.script.trigger, f.conn->version);
  REQUIRE(f.state()["turn"]["extra"] == true);
  CHECK_FALSE(f.fx.think);  // the player has the extra part's whole clock
  f.now += 10'001;
  f.room->wake(f.now, f.fx);
  REQUIRE(f.fx.think);
  const BotRequest r = *f.fx.think;
  f.fx.think.reset();
  CHECK(r.seat == seat);
  CHECK(r.automatic);
  CHECK(r.game->in_extra_part());
  f.room->bot_moved(r.ticket, f.first_legal(), f.now, f.fx);
  f.store_all();
  const json after = f.state();
  CHECK(after["turn"]["seat"] == 1 - seat);
  CHECK(after["turn"]["extra"] == false);
  CHECK_FALSE(f.fx.think);  // the next seat's human plays their own turn
  const json record = json::parse(f.room->record_json());
  const json& last = record["moves"][record["moves"].size() - 1];
  CHECK(last["extra"] == true);
  CHECK(last["auto"] == true);
}

TEST_CASE("a computer player that triggers its builder plays the extra part too") {
  BuilderFixture probe(live(std::nullopt));
  BuilderFixture f(live(std::nullopt), false, probe.script.seat);
  const int seat = f.script.seat;
  f.room->wake(f.now, f.fx);
  REQUIRE(f.fx.think);
  BotRequest r = *f.fx.think;
  f.fx.think.reset();
  CHECK(r.seat == seat);
  f.room->bot_moved(r.ticket, f.script.trigger, f.now, f.fx);
  f.store_all();
  REQUIRE(f.state()["turn"]["extra"] == true);
  REQUIRE(f.fx.think);  // asked again, for the extra part
  r = *f.fx.think;
  f.fx.think.reset();
  CHECK(r.seat == seat);
  CHECK(r.game->in_extra_part());
  f.room->bot_moved(r.ticket, f.first_legal(), f.now, f.fx);
  f.store_all();
  CHECK(f.state()["turn"]["seat"] == 1 - seat);
}

}  // namespace carc::server
