// The room as a state machine (RoomLogic), driven through many random rooms (60 in CI;
// CARC_ROOM_GAMES=3000 build/room_test for the long run, a few minutes): players join,
// leave, are kicked, reconnect; computer players are added and removed; spectators come and
// go; chat; stores that fail; clocks that run out; absent players covered by computer
// players; bot answers that come late; whole games to the end and rematches. Every client
// keeps its own copy of the state from its welcome and the patches it gets, like the web
// client. After every command, for each client:
//   - its patches come in order, one version after another, and apply op by op (every
//     op's path exists when it is applied);
//   - its copy equals the room's whole state (as a welcome would send it) at its version.
#include <doctest/doctest.h>

#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include <spdlog/spdlog.h>

#include "carc/core/random_player.hpp"
#include "base/metrics.hpp"
#include "room/room_logic.hpp"

namespace carc::server {
namespace {

using nlohmann::json;
using protocol::ClientMessage;

struct Peer final : Client {
  json state;
  std::int64_t version = -1;
  std::optional<int> seat;
  std::string token;
  std::string rematch_room;
  bool closed = false;
  bool kicked = false;
  std::vector<std::string> errors;
  int frames = 0;
  // When its copy was last found equal to the room's state: the room's version and the
  // frames it had by then (a copy changes only with a frame, the room's state only with
  // its version, so an equal copy with neither changed since need not be compared again).
  std::int64_t equal_at_version = -1;
  int equal_at_frames = -1;

  void send(std::shared_ptr<const std::string> frame) override {
    ++frames;
    // Every frame is JSON. A broadcast hands every client the same frame: it is parsed once.
    static std::shared_ptr<const std::string> last_frame;
    static json last_msg;
    if (frame != last_frame) {
      last_msg = json::parse(*frame);
      last_frame = frame;
    }
    const json& msg = last_msg;
    const std::string type = msg.at("type");
    if (type == "welcome" || type == "state") {
      state = msg.at("state");
      version = msg.at("version");
      REQUIRE(msg.contains("server_time"));
      if (type == "welcome") {
        seat = msg["seat"].is_null() ? std::nullopt : std::optional<int>(msg["seat"].get<int>());
        if (msg["token"].is_string()) token = msg["token"];
        else token.clear();
        kicked = msg.value("kicked", false);
      }
    } else if (type == "patch") {
      REQUIRE(version >= 0);
      REQUIRE(msg.at("version") == version + 1);  // no gap, no repeat
      for (const json& op : msg.at("ops")) {
        INFO("op " << op.dump());
        REQUIRE_NOTHROW(state.patch_inplace(json::array({op})));
      }
      version = msg.at("version");
    } else if (type == "error") {
      errors.push_back(msg.at("code"));
    } else if (type == "rematch") {
      rematch_room = msg.at("room");
      REQUIRE(msg.at("token").is_string());
    } else {
      FAIL("unexpected frame " << *frame);
    }
  }
  void close(CloseReason) override { closed = true; }
};

struct Driver {
  Metrics metrics;
  std::unique_ptr<RoomLogic> room = std::make_unique<RoomLogic>("room-under-test", metrics);
  Rng rng;
  std::int64_t now = 1'700'000'000'000;
  std::vector<std::shared_ptr<Peer>> peers;  // attached
  Effects fx;
  std::optional<Effects::Store> storing;
  std::deque<BotRequest> thinking;
  bool rematch_asked = false;
  std::map<std::string, std::string> tokens_by_name;  // seat tokens to come back with
  int commands = 0;
  int bot_answers = 0;
  int failed_stores = 0;

  explicit Driver(std::uint64_t seed) : rng(seed) {}

  // Takes the effects of the last command.
  void collect() {
    if (fx.store) {
      REQUIRE_FALSE(storing);  // one change at a time
      storing = fx.store;
    }
    if (fx.think) thinking.push_back(*fx.think);
    if (fx.rematch) {
      REQUIRE_FALSE(rematch_asked);
      rematch_asked = true;
    }
    fx.clear();
    ++commands;
    if (std::getenv("CARC_ROOM_TRACE") != nullptr) {
      std::fprintf(stderr, "%s -> v%lld;", last.c_str(), static_cast<long long>(room->version()));
      for (const auto& p : peers) std::fprintf(stderr, " [%d v%lld]", p->seat ? *p->seat : -1, static_cast<long long>(p->version));
      std::fprintf(stderr, "\n");
    }
    check();
  }

  std::string last;  // the last command, for failure messages

  std::int64_t checked_version = -1;
  json truth;

  void check() {
    if (room->version() != checked_version) {
      truth = json::parse(room->state_text(now));
      checked_version = room->version();
    }
    INFO("after " << last);
    for (const auto& p : peers) {
      if (p->version < 0 || p->closed) continue;
      INFO("peer seat " << (p->seat ? *p->seat : -1) << " kicked " << p->kicked);
      REQUIRE(p->version == room->version());
      if (p->equal_at_version == checked_version && p->equal_at_frames == p->frames) continue;
      REQUIRE(p->state == truth);
      p->equal_at_version = checked_version;
      p->equal_at_frames = p->frames;
    }
  }

  std::shared_ptr<Peer> any_peer() { return peers[rng.below(static_cast<std::uint32_t>(peers.size()))]; }

  void send(const std::shared_ptr<Peer>& p, const ClientMessage& m) {
    last = "message " + std::to_string(m.index());
    room->handle(p, m, now, SteadyClock::now(), fx);
    collect();
  }

  void connect() {
    auto p = std::make_shared<Peer>();
    peers.push_back(p);
    room->attach(p);
  }

  void disconnect(const std::shared_ptr<Peer>& p) {
    last = "detach";
    room->detach(p, now, fx);
    std::erase(peers, p);
    collect();
  }

  void answer_store() {
    if (!storing) return;
    const bool ok = rng.below(20) != 0;
    if (!ok) ++failed_stores;
    const auto storing_kind = storing->action.index();
    storing.reset();
    last = std::string("stored ") + (ok ? "ok" : "failed") + " action " + std::to_string(storing_kind);
    room->stored(ok, now, fx);
    collect();
  }

  void answer_bot() {
    if (thinking.empty()) return;
    BotRequest r = thinking.front();
    thinking.pop_front();
    ++bot_answers;
    last = "bot answer";
    if (rng.below(15) == 0) {
      room->bot_failed(r.ticket, now, fx);
    } else {
      RandomPlayer player(r.seed);
      room->bot_moved(r.ticket, player.choose(*r.game), now, fx);
    }
    collect();
  }

  void tick() {
    now += 1 + static_cast<std::int64_t>(rng.below(20'000));
    if (const auto at = room->next_wake(); at && *at <= now) {
      last = "wake";
      room->wake(now, fx);
      collect();
    }
  }

  // The current player's connection, if any, plays a random legal move (or a bad one).
  void play() {
    if (room->phase() != protocol::RoomPhase::Playing) return;
    // A step of the dragon's move (princess): the stepping seat's connection, if any.
    const auto stepper = std::find_if(peers.begin(), peers.end(), [](const auto& p) {
      if (p->version < 0 || !p->seat || p->state["turn"].is_null()) return false;
      const json& t = p->state["turn"];
      return t.value("stage", "") == "dragon" && t["dragon"]["seat"] == *p->seat;
    });
    if (stepper != peers.end()) {
      const json& options = (*stepper)->state["turn"]["dragon"]["options"];
      protocol::StepMsg m;
      m.version = (*stepper)->version;
      if (rng.below(10) == 0 || options.empty()) {  // nonsense: refused, changes nothing
        m.x = 999;
        m.y = -999;
      } else {
        const json& to = options[rng.below(static_cast<std::uint32_t>(options.size()))];
        m.x = to["x"];
        m.y = to["y"];
      }
      send(*stepper, m);
      return;
    }
    const auto holder = std::find_if(peers.begin(), peers.end(), [](const auto& p) {
      return p->version >= 0 && p->seat && !p->state["turn"].is_null() && p->state["turn"]["seat"] == *p->seat;
    });
    if (holder == peers.end()) return;
    const auto& p = *holder;
    const json& legal = p->state["turn"]["legal"];
    if (legal.empty()) return;  // the dragon's move: nobody places a tile
    protocol::PlayMsg m;
    m.version = p->version;
    if (rng.below(10) == 0) {  // nonsense: refused, changes nothing
      m.x = 1000 - static_cast<std::int64_t>(rng.below(2000));
      m.y = 3;
      m.rotation = 45;
    } else {
      const json& pick = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      m.x = pick["x"];
      m.y = pick["y"];
      m.rotation = pick["rotation"];
      if (!pick["meeples"].empty() && rng.below(3) == 0) {
        m.meeple = pick["meeples"][rng.below(static_cast<std::uint32_t>(pick["meeples"].size()))];
      }
      // A special figure where the state offers one (expansions).
      if (pick.contains("figures") && rng.below(2) == 0) {
        for (const auto& [name, ports] : pick["figures"].items()) {
          if (ports.empty() || rng.below(2) == 0) continue;
          m.meeple = ports[0];
          m.figure = name;
        }
      }
    }
    send(p, m);
  }

  void lobby_step(int step) {
    const auto p = any_peer();
    switch (rng.below(9)) {
      case 0:
      case 1: send(p, protocol::JoinMsg{"P" + std::to_string(step), std::nullopt}); break;
      case 2: send(p, protocol::AddBotMsg{static_cast<protocol::BotLevel>(rng.below(3))}); break;
      case 3: send(p, protocol::RemoveBotMsg{static_cast<std::int64_t>(rng.below(7))}); break;
      case 4: send(p, protocol::KickMsg{static_cast<std::int64_t>(rng.below(7))}); break;
      case 5: send(p, protocol::LeaveMsg{}); break;
      case 6: {
        protocol::SettingsMsg s;
        if (rng.below(2)) s.turn_seconds = rng.below(3) == 0 ? std::optional<int>() : std::optional<int>(10 + static_cast<int>(rng.below(60)));
        if (rng.below(2)) s.away_seconds = rng.below(3) == 0 ? std::optional<int>() : std::optional<int>(5 + static_cast<int>(rng.below(30)));
        // Any set of the five expansions (with inns six seats; leaving inns out with six
        // seated is refused).
        if (rng.below(2)) s.expansions = ExpansionSet::from_bits(static_cast<std::uint8_t>(rng.below(32)));
        // And any set of the rule options (docs/options.md).
        if (rng.below(3) == 0) s.options = OptionSet::from_bits(static_cast<std::uint8_t>(rng.below(4)));
        send(p, s);
        break;
      }
      case 7: send(p, protocol::WatchMsg{}); break;
      default: send(p, protocol::ChatMsg{"hi \"there\" " + std::to_string(step)}); break;
    }
  }

  // Someone's connection drops, or a dropped seat comes back by token.
  void churn() {
    if (rng.below(2) == 0 && peers.size() > 1) {
      const auto p = any_peer();
      if (p->seat && !p->token.empty()) tokens_by_name[p->token] = p->token;
      disconnect(p);
    } else if (!tokens_by_name.empty()) {
      auto it = tokens_by_name.begin();
      std::advance(it, rng.below(static_cast<std::uint32_t>(tokens_by_name.size())));
      const std::string token = it->first;
      tokens_by_name.erase(it);
      connect();
      send(peers.back(), protocol::JoinMsg{std::nullopt, token});
    } else {
      connect();
      send(peers.back(), protocol::WatchMsg{});
    }
  }
};

}  // namespace

TEST_CASE("random rooms: every client's copy, built from its welcome and patches, equals the room's state") {
  spdlog::set_level(spdlog::level::warn);
  const int games = std::getenv("CARC_ROOM_GAMES") != nullptr ? std::atoi(std::getenv("CARC_ROOM_GAMES")) : 60;
  int finished = 0;
  int bot_games = 0;
  std::uint64_t commands = 0;
  std::uint64_t auto_moves = 0;
  for (int g = 0; g < games; ++g) {
    INFO("game " << g);
    Driver d(static_cast<std::uint64_t>(g) * 2654435761u + 17);
    for (int i = 0; i < 3; ++i) d.connect();
    // The lobby.
    for (int step = 0; step < 40; ++step) {
      d.lobby_step(step);
      d.answer_store();
      if (d.rng.below(6) == 0) d.churn();
      if (d.rng.below(2) == 0) d.answer_store();
    }
    while (d.storing) d.answer_store();
    // Someone seated and connected who is the host starts it.
    for (int attempt = 0; attempt < 50 && d.room->phase() == protocol::RoomPhase::Lobby; ++attempt) {
      const auto host = std::find_if(d.peers.begin(), d.peers.end(), [](const auto& p) {
        if (!p->seat || p->version < 0) return false;
        return p->state["players"][*p->seat]["host"] == true;
      });
      if (host == d.peers.end() || d.room->seated() < 2) {
        d.connect();
        d.send(d.peers.back(), protocol::JoinMsg{"late" + std::to_string(attempt), std::nullopt});
        while (d.storing) d.answer_store();
        continue;
      }
      d.send(*host, protocol::StartMsg{});
      while (d.storing) d.answer_store();
    }
    if (d.room->phase() == protocol::RoomPhase::Lobby) continue;  // everybody left
    bool had_bot = false;
    // The game: moves, churn, chat, clocks, bots.
    for (int step = 0; step < 3000 && d.room->phase() == protocol::RoomPhase::Playing; ++step) {
      switch (d.rng.below(10)) {
        case 0: d.churn(); break;
        case 1: d.send(d.any_peer(), protocol::ChatMsg{"gg"}); break;
        case 2: d.tick(); break;
        case 3:
        case 4: had_bot |= !d.thinking.empty(); d.answer_bot(); break;
        case 5: d.send(d.any_peer(), protocol::ResyncMsg{}); break;
        default: d.play(); break;
      }
      d.answer_store();
      if (d.peers.empty()) d.connect();
      // Nobody can move: let time pass until the computer players take over.
      if (step % 50 == 49) {
        d.now += 90'000;
        d.tick();
      }
    }
    while (d.storing || !d.thinking.empty()) {
      d.answer_store();
      d.answer_bot();
    }
    bot_games += had_bot ? 1 : 0;
    if (d.room->phase() != protocol::RoomPhase::Finished) continue;
    ++finished;
    // A rematch: asked by a seated human, made, stored, announced.
    const auto seated = std::find_if(d.peers.begin(), d.peers.end(), [](const auto& p) { return p->seat.has_value(); });
    if (seated != d.peers.end()) {
      d.send(*seated, protocol::RematchMsg{});
      if (d.rematch_asked) {
        d.room->rematch_created("the-rematch-room", d.now, d.fx);
        d.collect();
        while (d.storing) {
          d.storing.reset();
          d.room->stored(true, d.now, d.fx);
          d.collect();
        }
        CHECK((*seated)->rematch_room == "the-rematch-room");
        CHECK((*seated)->state["rematch"] == "the-rematch-room");
      }
    }
    commands += static_cast<std::uint64_t>(d.commands);
    auto_moves += d.metrics.auto_moves.load();
  }
  MESSAGE(finished << " of " << games << " games finished, " << bot_games << " with computer players, " << commands
                   << " commands, " << auto_moves << " moves made for absent players");
  CHECK(finished > games / 2);
  CHECK(bot_games > games / 10);
  CHECK(auto_moves > 0);
}

TEST_CASE("a game its tournament settles: after the change on its way, every client told, moves refused, replayed the same") {
  spdlog::set_level(spdlog::level::warn);
  Driver d(7);
  std::vector<RoomAction> accepted;  // what storage accepted, in order
  const auto store_ok = [&] {
    while (d.storing) {
      accepted.push_back(d.storing->action);
      d.storing.reset();
      d.last = "stored";
      d.room->stored(true, d.now, d.fx);
      d.collect();
    }
  };
  for (int i = 0; i < 3; ++i) d.connect();
  d.send(d.peers[0], protocol::JoinMsg{"Ann", std::nullopt});
  store_ok();
  d.send(d.peers[1], protocol::JoinMsg{"Bob", std::nullopt});
  store_ok();
  d.send(d.peers[2], protocol::WatchMsg{});
  d.send(d.peers[0], protocol::StartMsg{});
  store_ok();
  for (int i = 0; i < 12; ++i) {
    d.play();
    store_ok();
  }
  REQUIRE(d.room->phase() == protocol::RoomPhase::Playing);
  const int on_move = d.peers[0]->state["turn"]["seat"].get<int>();
  const json scores = json::array({d.peers[0]->state["players"][0]["score"], d.peers[0]->state["players"][1]["score"]});

  // A chat line on its way to storage: the settlement waits behind it.
  d.send(d.peers[0], protocol::ChatMsg{"good luck"});
  REQUIRE(d.storing);
  d.room->settle(d.now, d.fx);
  d.collect();
  CHECK(d.room->settling());
  CHECK(d.room->phase() == protocol::RoomPhase::Playing);
  store_ok();  // the chat line, then the settlement
  CHECK_FALSE(d.room->settling());
  REQUIRE(std::holds_alternative<GameSettled>(accepted.back()));
  CHECK(std::get<GameSettled>(accepted.back()).seat == on_move);
  REQUIRE(d.room->phase() == protocol::RoomPhase::Finished);
  // Every client's copy (checked against the room's state by collect()) says it.
  const json settled = {{"by", "tournament"}, {"reason", "round_deadline"}, {"seat", on_move}, {"gone", json::array({on_move})}};
  for (const auto& p : d.peers) {
    CHECK(p->state["phase"] == "finished");
    CHECK(p->state["turn"].is_null());
    CHECK(p->state["result"]["settled"] == settled);
    CHECK(p->state["result"]["final_scores"] == scores);
    CHECK(p->state["result"]["winners"] == json::array({1 - on_move}));
  }
  const json record = json::parse(d.room->record_json());
  CHECK(record["final"] == false);
  CHECK(record["result"] == d.peers[0]->state["result"]);
  const community::GameResult result = d.room->result();
  CHECK(result.seats[static_cast<std::size_t>(on_move)].gone);
  CHECK_FALSE(result.seats[static_cast<std::size_t>(1 - on_move)].gone);

  // The seat that was on move plays: refused, nothing stored; asked again, nothing happens.
  protocol::PlayMsg late;
  late.version = d.room->version();
  late.x = 1;
  d.send(d.peers[static_cast<std::size_t>(on_move)], late);
  CHECK(d.peers[static_cast<std::size_t>(on_move)]->errors.back() == "game_over");
  CHECK_FALSE(d.storing);
  d.room->settle(d.now, d.fx);
  d.collect();
  CHECK_FALSE(d.storing);
  CHECK_FALSE(d.room->settling());

  // The log replays to the same game, record and result.
  auto restored = RoomLogic::restore("room-under-test", d.metrics, RestoredRoom{accepted, d.room->version(), d.room->version()}, d.now);
  REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(restored));
  const auto& again = std::get<std::unique_ptr<RoomLogic>>(restored);
  CHECK(again->phase() == protocol::RoomPhase::Finished);
  CHECK(again->record_json() == d.room->record_json());
  CHECK(json::parse(again->state_text(d.now))["result"] == d.peers[0]->state["result"]);
  CHECK(again->result().seats == result.seats);
  CHECK(again->result().finished_ms == result.finished_ms);
}

}  // namespace carc::server
