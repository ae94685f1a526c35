// The public state as the server writes it (room_state.hpp: text, patches from what
// changed) against the oracle (tests/support/oracle_view: the whole document as a JSON tree,
// as the server built it before): over many random rooms and games, after every change
//   - the written state parses to exactly the oracle's document, and
//   - the patch, applied op by op to the previous document, gives the new one; every op's
//     path exists when it is applied (nlohmann's patch throws otherwise).
#include <doctest/doctest.h>

#include <deque>
#include <string>
#include <vector>

#include "carc/core/random_player.hpp"
#include "carc/protocol/room_state.hpp"
#include "oracle_view.hpp"

using namespace carc;
using namespace carc::protocol;
using nlohmann::json;

namespace {

struct Room {
  std::string id = "room-under-test";
  RoomPhase phase = RoomPhase::Lobby;
  std::vector<std::string> names;
  std::vector<SeatFacts> seats;
  int host = -1;
  int spectators = 0;
  ClockSettings settings;
  std::optional<std::int64_t> deadline;
  std::string rematch;
  std::unique_ptr<Game> game;
  std::string result;
  EventHistory history;
  test::OracleEvents oracle_events;
  std::vector<Event> all_events;
  std::deque<ChatLine> chat;
  std::int64_t chat_id = 0;
  StatePatcher patcher;
  json published;  // the state as the clients hold it
  std::int64_t version = 1;
  int ops_seen = 0;
  int extra_parts = 0;  // builders' extra parts seen in the published state

  RoomFacts facts() {
    for (std::size_t i = 0; i < seats.size(); ++i) seats[i].name = names[i];
    RoomFacts f;
    f.turn_number = game ? history.turn_number(game->in_extra_part()) : 0;
    f.room = id;
    f.phase = phase;
    f.seats = seats;
    f.host = host;
    f.spectators = spectators;
    f.settings = settings;
    f.deadline_ms = phase == RoomPhase::Playing ? deadline : std::nullopt;
    f.rematch = rematch;
    f.game = game.get();
    f.result = result;
    return f;
  }

  json written() {
    std::string text;
    write_state(text, facts(), history, chat);
    json doc = json::parse(text);
    CHECK(doc == test::oracle_state(facts(), oracle_events, chat, all_events));
    return doc;
  }

  void begin() { patcher.begin(++version); }

  // Ends a change: its patch must turn the published state into the written one.
  void commit() {
    patcher.sync(facts());
    const json frame = json::parse(patcher.take_frame());
    REQUIRE(frame["type"] == "patch");
    REQUIRE(frame["version"] == version);
    for (const json& op : frame["ops"]) {
      INFO("op: " << op.dump());
      REQUIRE_NOTHROW(published.patch_inplace(json::array({op})));
      ++ops_seen;
    }
    const json now = written();
    REQUIRE(published == now);
  }

  void add_chat(Rng& rng) {
    begin();
    const bool drop = chat.size() >= kChatKept;
    if (drop) chat.pop_front();
    std::optional<int> seat;
    if (!seats.empty() && rng.below(2) == 0) seat = static_cast<int>(rng.below(static_cast<std::uint32_t>(seats.size())));
    chat.push_back(ChatLine{chat_id++, seat, "n\"a\\me", "line " + std::to_string(chat_id) + " \n\t\x01 é", 1700000000000 + chat_id});
    patcher.chat_added(chat.back(), drop);
    commit();
  }

  void play(Rng& rng, RandomPlayer& player) {
    begin();
    std::vector<Event> ev;
    REQUIRE_FALSE(game->play(player.choose(*game), &ev));
    patcher.game_events(history, ev);
    oracle_events.append(ev);
    all_events.insert(all_events.end(), ev.begin(), ev.end());
    // Some changes come with the move: a seat away or back, a new deadline.
    if (rng.below(4) == 0 && !seats.empty()) {
      auto& s = seats[rng.below(static_cast<std::uint32_t>(seats.size()))];
      s.away = !s.away;
    }
    if (settings.turn_seconds) deadline = 1700000000000 + static_cast<std::int64_t>(rng.below(1u << 30));
    if (game->finished()) {
      phase = RoomPhase::Finished;
      result = result_text(*game, history);
    }
    commit();
    if (published["turn"].is_object() && published["turn"].value("extra", false)) ++extra_parts;
  }
};

}  // namespace

TEST_CASE("the written state equals the oracle's, and every patch turns the previous state into the next") {
  int total_ops = 0;
  int extra_parts = 0;
  std::array<int, 16> by_set{};
  std::array<int, 4> by_options{};
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng(seed * 7919);
    Room r;
    r.patcher.reset(r.facts(), 1, 0);
    r.published = r.written();
    // Every set of the four expansions (with inns up to six players).
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(seed % 16));
    const int players = std::min(2 + static_cast<int>((seed / 16 + seed) % 5), ruleset(set).max_players);
    // The lobby: joins, computer players, someone leaving (seats move up), spectators,
    // chat, the clock.
    for (int step = 0; step < 12 || static_cast<int>(r.seats.size()) < players; ++step) {
      r.begin();
      switch (rng.below(7)) {
        case 0:
        case 1:
          if (r.seats.size() < static_cast<std::size_t>(kMaxPlayers)) {
            r.names.push_back("P" + std::to_string(step) + (step % 3 == 0 ? " \"quoted\"" : ""));
            SeatFacts s;
            s.connected = rng.below(3) != 0;
            if (rng.below(3) == 0) s.bot = static_cast<BotLevel>(rng.below(3));
            r.seats.push_back(s);
            if (r.host < 0 && !s.bot) r.host = static_cast<int>(r.seats.size()) - 1;
          }
          break;
        case 2:
          if (r.seats.size() > 1) {
            const auto i = rng.below(static_cast<std::uint32_t>(r.seats.size()));
            r.seats.erase(r.seats.begin() + i);
            r.names.erase(r.names.begin() + i);
            r.host = 0;
          }
          break;
        case 3: r.spectators += rng.below(2) == 0 ? 1 : (r.spectators > 0 ? -1 : 1); break;
        case 4:
          if (!r.seats.empty()) r.seats[rng.below(static_cast<std::uint32_t>(r.seats.size()))].connected ^= true;
          break;
        case 5:
          r.settings.turn_seconds = rng.below(2) == 0 ? std::optional<int>() : std::optional<int>(10 + static_cast<int>(rng.below(100)));
          r.settings.away_seconds = rng.below(3) == 0 ? std::optional<int>() : std::optional<int>(5 + static_cast<int>(rng.below(100)));
          // The expansions too (docs/expansions.md): any set of the four.
          r.settings.expansions = ExpansionSet::from_bits(static_cast<std::uint8_t>(rng.below(16)));
          // And the rule options (docs/options.md): the players' figures change with them.
          r.settings.options = OptionSet::from_bits(static_cast<std::uint8_t>(rng.below(4)));
          r.settings.pace = rng.below(2) == 0 ? protocol::Pace::Live : protocol::Pace::TurnBased;
          r.settings.bank_seconds = 3600 + static_cast<int>(rng.below(1000));
          r.settings.webhook = rng.below(2) == 0;
          for (auto& s : r.seats) {
            s.bank_ms = r.settings.turn_based() ? std::optional<std::int64_t>(rng.below(100000)) : std::nullopt;
          }
          break;
        default: break;
      }
      r.commit();
      if (rng.below(4) == 0) r.add_chat(rng);
    }
    while (static_cast<int>(r.seats.size()) > players) {
      r.begin();
      r.seats.pop_back();
      r.names.pop_back();
      r.commit();
    }
    r.begin();
    r.settings.expansions = set;
    r.settings.options = OptionSet::from_bits(static_cast<std::uint8_t>((seed / 3) % 4));
    r.commit();
    // The start.
    r.begin();
    std::vector<Event> ev;
    r.game = std::make_unique<Game>(Game::seeded(players, seed, r.settings.expansions, r.settings.options, &ev));
    r.phase = RoomPhase::Playing;
    ++by_set[r.settings.expansions.bits()];
    ++by_options[r.settings.options.bits()];
    if (r.settings.turn_seconds) r.deadline = 1700000000000;
    r.patcher.events_started(r.history);
    r.oracle_events.append_started();
    r.patcher.game_events(r.history, ev);
    r.oracle_events.append(ev);
    r.all_events = ev;
    r.commit();
    // The game, with chat, connections and spectators changing on the way.
    RandomPlayer player(seed);
    while (!r.game->finished()) {
      r.play(rng, player);
      switch (rng.below(8)) {
        case 0: r.add_chat(rng); break;
        case 1:
          r.begin();
          r.seats[rng.below(static_cast<std::uint32_t>(r.seats.size()))].connected ^= true;
          r.commit();
          break;
        case 2:
          r.begin();
          ++r.spectators;
          r.commit();
          break;
        default: break;
      }
    }
    CHECK(r.published["phase"] == "finished");
    CHECK(r.published["turn"].is_null());
    CHECK(r.published["result"]["final_scores"].size() == static_cast<std::size_t>(players));
    // A rematch is named.
    r.begin();
    r.rematch = "next-room-id";
    r.commit();
    CHECK(r.published["rematch"] == "next-room-id");
    total_ops += r.ops_seen;
    extra_parts += r.extra_parts;
  }
  CHECK(extra_parts > 0);
  CHECK(total_ops > 10000);
  for (int bits = 0; bits < 16; ++bits) CHECK(by_set[static_cast<std::size_t>(bits)] > 0);  // every set was played
  for (int bits = 0; bits < 4; ++bits) CHECK(by_options[static_cast<std::size_t>(bits)] > 0);  // and every set of options
}

TEST_CASE("the state names no seed and no bag order") {
  std::vector<Event> ev;
  Game g = Game::seeded(3, 0x1234ABCD, &ev);
  EventHistory h;
  h.append_started(nullptr);
  h.append(ev, nullptr);
  std::vector<SeatFacts> seats(3);
  RoomFacts f;
  f.room = "r";
  f.phase = RoomPhase::Playing;
  f.seats = seats;
  f.game = &g;
  std::string text;
  write_state(text, f, h, {});
  const json doc = json::parse(text);
  CHECK(doc["bag"].size() == 2);
  CHECK(doc["bag"]["left"] == g.bag_left());
  CHECK(text.find("seed") == std::string::npos);
  CHECK(text.find(std::to_string(0x1234ABCD)) == std::string::npos);
}

TEST_CASE("rooms with the Princess & the Dragon: the written state equals the oracle's, every patch gives it") {
  int stage_turns = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Rng rng(seed * 104729);
    Room r;
    r.settings.expansions = ExpansionSet::from_bits(static_cast<std::uint8_t>((seed % 16) | (1u << static_cast<int>(Expansion::Princess))));
    r.patcher.reset(r.facts(), 1, 0);
    r.published = r.written();
    const int players = 2 + static_cast<int>(seed % 3);
    for (int i = 0; i < players; ++i) {
      r.begin();
      r.names.push_back("P" + std::to_string(i));
      r.seats.push_back(SeatFacts{});
      r.host = 0;
      r.commit();
    }
    r.begin();
    std::vector<Event> ev;
    r.game = std::make_unique<Game>(Game::seeded(players, seed * 17, r.settings.expansions, &ev));
    r.phase = RoomPhase::Playing;
    r.patcher.events_started(r.history);
    r.oracle_events.append_started();
    r.patcher.game_events(r.history, ev);
    r.oracle_events.append(ev);
    r.all_events = ev;
    r.commit();
    RandomPlayer player(seed);
    while (!r.game->finished()) {
      r.play(rng, player);
      stage_turns += r.game->in_stage() ? 1 : 0;
    }
    CHECK(r.published["phase"] == "finished");
  }
  CHECK(stage_turns > 0);
}
