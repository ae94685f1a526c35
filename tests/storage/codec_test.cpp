// The stored form of room actions (action_codec.hpp): every action type round-trips, the
// text is compact, malformed payloads are refused with a reason (never a throw), and a
// database written before the compact format (JSON payloads, schema 2) still restores to
// exactly the state its clients saw.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>
#include <random>

#include "durable/action_codec.hpp"
#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"
#include "base/metrics.hpp"
#include "room/room.hpp"
#include "state_match.hpp"

using namespace carc::server;
using carc::test::slurp;
using carc::test::TempDir;
using nlohmann::json;

#ifndef CARC_TEST_DATA
#define CARC_TEST_DATA "tests/storage/data"
#endif

namespace {

const carc::ExpansionSet kRiverAbbot = carc::ExpansionSet{}.with(carc::Expansion::River).with(carc::Expansion::Abbot);

SettingsChanged with_options(SettingsChanged c, std::uint8_t bits) {
  c.options = carc::OptionSet::from_bits(bits);
  return c;
}

std::vector<RoomAction> samples() {
  using carc::Cell;
  using carc::Move;
  using carc::Port;
  using carc::Rotation;
  using carc::Tile;
  return {
      SeatTaken{0, "Alice", std::string(64, 'a'), std::nullopt, true},
      SeatTaken{4, "  spaces: and 12:colons\nnew line é", "", carc::protocol::BotLevel::Hard},
      SeatTaken{1, "", "h", carc::protocol::BotLevel::Easy},
      SeatFreed{2, SeatFreed::Reason::Kicked},
      SeatFreed{0, SeatFreed::Reason::BotRemoved},
      SettingsChanged{60, std::nullopt},
      SettingsChanged{std::nullopt, 0},
      GameStarted{5, 0xFFFFFFFFFFFFFFFFULL, 1764575000000},
      GameStarted{2, 0, 0},
      MovePlayed{0, 1, Move::place(Tile::D, Cell{2, -1}, Rotation::quarters(1), Port::N), false, 1764575000001},
      MovePlayed{71, 4, Move::place(Tile::V, Cell{-30, 41}, Rotation::quarters(3), std::nullopt), true, 7},
      MovePlayed{3, 0, Move::discard(Tile::X), true, 9},
      ChatPosted{0, 2, "Bob", "hello: \"quoted\" {json} 5:x \t end ", 1764575000002},
      ChatPosted{12345, std::nullopt, "spectator", "", 3},
      RematchCreated{"AbCdEfGhIj_-12"},
      SettingsChanged{std::nullopt, 60, {}, carc::protocol::Pace::TurnBased, 3600, 0},
      SettingsChanged{30, std::nullopt, {}, carc::protocol::Pace::Live, 7200, 600},
      WebhookChanged{carc::protocol::WebhookSetting{"https://hooks.example.org/a b:1?x=\"y\"", carc::protocol::HookFormat::Ntfy}},
      WebhookChanged{std::nullopt},
      PushChanged{3, "https://push.example.org/send/abc", std::string(87, 'B'), std::string(22, 'a')},
      PushChanged{0, "", "", ""},
      SettingsChanged{std::nullopt, 60, kRiverAbbot},
      SettingsChanged{90, std::nullopt, kRiverAbbot, carc::protocol::Pace::TurnBased, 3600, 0},
      SettingsChanged{60, std::nullopt, {}, carc::protocol::Pace::Live, carc::protocol::kDefaultBankSeconds,
                      carc::protocol::kDefaultIncrementSeconds, true},
      SettingsChanged{std::nullopt, 60, kRiverAbbot, carc::protocol::Pace::TurnBased, 3600, 0, false},
      // A seat with its seal key, and a rematch with each seat's sealed token (seat_seal.hpp).
      SeatTaken{2, "Bob", std::string(64, 'b'), std::nullopt, false, std::string(64, 'c')},
      SeatTaken{0, "Ann", std::string(64, 'd'), std::nullopt, true, std::string(64, 'e')},
      RematchCreated{"AbCdEfGhIj_-12", {std::string(160, 'f'), "", "="}},
      // The rule options (docs/options.md), with and without hints.
      with_options(SettingsChanged{std::nullopt, 60, kRiverAbbot}, 3),
      with_options(SettingsChanged{60, std::nullopt, {}, carc::protocol::Pace::Live, carc::protocol::kDefaultBankSeconds,
                                   carc::protocol::kDefaultIncrementSeconds, true},
                   2),
      // A game its tournament settled at the round's deadline (docs/tournaments.md#rounds).
      GameSettled{GameSettled::Reason::RoundDeadline, 1, 1767225600123},
      GameSettled{GameSettled::Reason::RoundDeadline, -1, 5},
      // A room that is never rated, and a seat's player for the ratings (docs/community.md#ratings).
      NeverRated{},
      PlayerBound{3, "AbCdEfGhIjKlMn_-"},
  };
}

std::string dump(const RoomAction& a) { return encode_action(0, 0, a); }  // equal actions encode equally

}  // namespace

TEST_CASE("codec: every action type round-trips with its versions") {
  std::int64_t v = 1;
  for (const RoomAction& a : samples()) {
    const std::string payload = encode_action(v, v / 2, a);
    CAPTURE(payload);
    CHECK(payload.front() != '{');  // not JSON
    const auto back = decode_action(payload);
    REQUIRE(std::holds_alternative<DecodedAction>(back));
    const auto& d = std::get<DecodedAction>(back);
    CHECK(d.action.index() == a.index());
    CHECK(dump(d.action) == dump(a));
    CHECK(d.version == v);
    CHECK(d.game_version == v / 2);
    CHECK(is_move_payload(payload) == std::holds_alternative<MovePlayed>(a));
    v = v > (INT64_MAX - 3) / 7 ? 2 : v * 7 + 3;  // large versions, never past int64
  }
  const auto move = encode_action(57, 57, samples()[9]);
  CHECK(move == "M 57 57 0 1 1764575000001 D,2,-1,90,N");
  CHECK(encode_action(58, 57, samples()[11]) == "M 58 57 3 0 9 X,discard auto");
  CHECK(encode_action(60, 57, samples().back()) == "B 60 57 3 16:AbCdEfGhIjKlMn_-");
  CHECK(encode_action(61, 57, samples()[samples().size() - 2]) == "N 61 57");
  CHECK(encode_action(61, 57, samples()[samples().size() - 4]) == "E 61 57 round_deadline 1 1767225600123");
  CHECK(encode_action(62, 57, samples()[samples().size() - 3]) == "E 62 57 round_deadline - 5");
  CHECK(encode_action(3, 1, samples()[0]) == "S 3 1 0 5:Alice 64:" + std::string(64, 'a') + " - host");
  CHECK(encode_action(3, 1, samples()[2]) == "S 3 1 1 0: 1:h easy");
  // Live settings at the defaults keep the oldest format; others carry the pace.
  CHECK(encode_action(4, 1, samples()[5]) == "T 4 1 60 -");
  CHECK(encode_action(4, 1, samples()[15]) == "T 4 1 - 60 turn_based 3600 0");
  CHECK(encode_action(4, 1, samples()[18]) == "W 4 1 -");
  // The expansions (a number) come before the pace (a word); each is left out at its default.
  CHECK(encode_action(4, 1, samples()[21]) == "T 4 1 - 60 3");
  CHECK(encode_action(4, 1, samples()[22]) == "T 4 1 90 - 3 turn_based 3600 0");
  CHECK(encode_action(3, 1, samples()[26]) == "S 3 1 0 3:Ann 64:" + std::string(64, 'd') + " - host key " + std::string(64, 'e'));
  CHECK(encode_action(9, 8, samples()[27]) == "R 9 8 14:AbCdEfGhIj_-12 160:" + std::string(160, 'f') + " 0: 1:=");
  // The options (their bits) last, after the pace part written in full.
  CHECK(encode_action(4, 1, samples()[28]) == "T 4 1 - 60 3 live 259200 86400 options 3");
  CHECK(encode_action(4, 1, samples()[29]) == "T 4 1 60 - live 259200 86400 hints options 2");
}

TEST_CASE("codec: a settings row's options read back; zero, out of range or repeated ones are refused") {
  const auto d = decode_action("T 4 1 - 60 3 live 259200 86400 no_hints options 1");
  REQUIRE(std::holds_alternative<DecodedAction>(d));
  const auto* got = std::get_if<SettingsChanged>(&std::get<DecodedAction>(d).action);
  REQUIRE(got != nullptr);
  CHECK(got->options == carc::OptionSet{}.with(carc::Option::NoFields));
  CHECK(got->hints == false);
  CHECK(got->expansions == kRiverAbbot);
  for (const char* bad : {"T 4 1 - 60 live 3600 0 options 0", "T 4 1 - 60 live 3600 0 options 4",
                          "T 4 1 - 60 live 3600 0 options", "T 4 1 - 60 live 3600 0 options 1 options 1",
                          "T 4 1 - 60 live 3600 0 options 1 hints"}) {
    CAPTURE(bad);
    CHECK(std::holds_alternative<std::string>(decode_action(bad)));
  }
}

TEST_CASE("codec: settings rows in every stored form read back (base 1.1, expansions only, pace only, both)") {
  using carc::protocol::Pace;
  const std::pair<const char*, SettingsChanged> cases[] = {
      {"T 4 1 60 -", SettingsChanged{60, std::nullopt}},
      {"T 4 1 - 60 3", SettingsChanged{std::nullopt, 60, kRiverAbbot}},  // as the first expansions wrote them
      {"T 4 1 - 60 turn_based 3600 0", SettingsChanged{std::nullopt, 60, {}, Pace::TurnBased, 3600, 0}},  // turn-based rooms
      {"T 4 1 90 - 3 live 7200 600", SettingsChanged{90, std::nullopt, kRiverAbbot, Pace::Live, 7200, 600}},
      {"T 4 1 - 60 live 259200 86400 hints", SettingsChanged{std::nullopt, 60, {}, Pace::Live, 259200, 86400, true}},  // hints
      {"T 4 1 90 - 3 turn_based 3600 0 no_hints", SettingsChanged{90, std::nullopt, kRiverAbbot, Pace::TurnBased, 3600, 0, false}},
  };
  for (const auto& [payload, want] : cases) {
    CAPTURE(payload);
    const auto d = decode_action(payload);
    REQUIRE(std::holds_alternative<DecodedAction>(d));
    const auto* got = std::get_if<SettingsChanged>(&std::get<DecodedAction>(d).action);
    REQUIRE(got != nullptr);
    CHECK(got->turn_seconds == want.turn_seconds);
    CHECK(got->away_seconds == want.away_seconds);
    CHECK(got->expansions == want.expansions);
    CHECK(got->pace == want.pace);
    CHECK(got->bank_seconds == want.bank_seconds);
    CHECK(got->increment_seconds == want.increment_seconds);
    CHECK(got->hints == want.hints);  // older rows: none (the default that follows the seats)
    CHECK(got->options.empty());      // rows from before the options: none
  }
  for (const char* bad : {"T 4 1 - 60 32", "T 4 1 - 60 3 3", "T 4 1 - 60 3 slow 1 1", "T 4 1 - 60 turn_based 3600",
                          "T 4 1 - 60 turn_based 3600 0 3", "T 4 1 - 60 live 3600 0 maybe",
                          "T 4 1 - 60 live 3600 0 hints hints"}) {
    CAPTURE(bad);
    CHECK(std::holds_alternative<std::string>(decode_action(bad)));
  }
}

TEST_CASE("codec: a malformed payload is refused with a reason, never a throw") {
  for (const char* bad : {"", "Q 1 1", "M", "M 1", "M 1 1 0 1 5", "M 1 1 0 1 5 D,2,-1,45", "M 1 1 0 9 5 D,2,-1,90",
                          "M 1 1 0 1 5 D,2,-1,90 manual", "M 1 1 0 1 5 D,2,-1,90 auto x", "M  1 1 0 1 5 D,2,-1,90",
                          "M 1 1 0 1 5 D,2,-1,90 ", "S 1 1 0 5:Ali", "S 1 1 0 9999999999999999999:x 1:h -",
                          "S 1 1 0 5:Alice 1:h wizard", "S 1 1 0 5:Alice 1:h - guest", "S 1 1 0 5:Alice 1:h - key", "R 1 1 1:x 3:ab", "S 1 1 0 Alice 1:h -", "F 1 1 0 bored", "G 1 1 1 5 0",
                          "G 1 1 3 -5 0", "T 1 1 x -", "C 1 1 0 - 5 3:Bob", "R 1 1", "{", "{\"type\":\"move\"}",
                          "{\"type\":\"teleport\",\"v\":1,\"gv\":1}", "[1,2]", "-1 1 1"}) {
    CAPTURE(bad);
    const auto d = decode_action(bad);
    REQUIRE(std::holds_alternative<std::string>(d));
    CHECK_FALSE(std::get<std::string>(d).empty());
  }
  // Every truncation and a thousand random byte flips of valid payloads: an action or a
  // reason, never an exception or a crash.
  std::mt19937 rng(42);
  int refused = 0;
  for (const RoomAction& a : samples()) {
    const std::string payload = encode_action(12, 11, a);
    for (std::size_t n = 0; n < payload.size(); ++n) {
      const auto d = decode_action(std::string_view(payload).substr(0, n));
      refused += std::holds_alternative<std::string>(d) ? 1 : 0;
    }
    for (int i = 0; i < 70; ++i) {
      std::string p = payload;
      p[rng() % p.size()] = static_cast<char>(rng() % 256);
      (void)decode_action(p);
    }
  }
  CHECK(refused > 100);
}

TEST_CASE("codec: the JSON payloads of older databases decode to the same actions") {
  // As the server wrote them before the compact format (its SQLite persistence of the time).
  const std::pair<const char*, RoomAction> cases[] = {
      {R"({"gv":1,"name":"P0 é","seat":0,"token_hash":"e55a","type":"seat","v":2})", SeatTaken{0, "P0 é", "e55a", std::nullopt}},
      {R"({"gv":1,"host":true,"name":"P0","seat":1,"token_hash":"e5","type":"seat","v":2})", SeatTaken{1, "P0", "e5", std::nullopt, true}},
      {R"({"bot":"medium","gv":1,"name":"Bot","seat":1,"token_hash":"","type":"seat","v":3})",
       SeatTaken{1, "Bot", "", carc::protocol::BotLevel::Medium}},
      {R"({"gv":4,"players":2,"seed":12889457499221998752,"time":1796112488703,"type":"start","v":4})",
       GameStarted{2, 12889457499221998752ULL, 1796112488703}},
      {R"({"gv":5,"index":0,"move":{"meeple":"EL","rotation":0,"tile":"D","x":-1,"y":0},"seat":0,"time":17,"type":"move","v":5})",
       MovePlayed{0, 0, carc::Move::place(carc::Tile::D, carc::Cell{-1, 0}, carc::Rotation::quarters(0), carc::Port::EL), false, 17}},
      {R"({"auto":true,"gv":6,"index":1,"move":{"discard":true,"tile":"X"},"seat":1,"time":18,"type":"move","v":6})",
       MovePlayed{1, 1, carc::Move::discard(carc::Tile::X), true, 18}},
      {R"({"gv":25,"id":1,"name":"spectator","seat":null,"text":"a line","time":19,"type":"chat","v":28})",
       ChatPosted{1, std::nullopt, "spectator", "a line", 19}},
      {R"({"gv":1,"reason":1,"seat":2,"type":"freed","v":7})", SeatFreed{2, SeatFreed::Reason::Kicked}},
      {R"({"away_seconds":null,"gv":1,"turn_seconds":90,"type":"settings","v":8})", SettingsChanged{90, std::nullopt}},
      {R"({"gv":80,"room":"AbCdEfGhIj","type":"rematch","v":81})", RematchCreated{"AbCdEfGhIj"}},
  };
  for (const auto& [payload, want] : cases) {
    CAPTURE(payload);
    const auto d = decode_action(payload);
    REQUIRE(std::holds_alternative<DecodedAction>(d));
    CHECK(dump(std::get<DecodedAction>(d).action) == dump(want));
    CHECK(is_move_payload(payload) == std::holds_alternative<MovePlayed>(want));
  }
}

TEST_CASE("codec: a schema-2 database with JSON payloads migrates and restores to what its clients saw") {
  TempDir tmp;
  const auto dir = tmp.path() / "data";
  std::filesystem::create_directories(dir);
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir / SqliteStore::kFileName).c_str(), &db) == SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, slurp(CARC_TEST_DATA "/schema2-json-actions.sql").c_str(), nullptr, nullptr, &err);
    INFO((err != nullptr ? err : ""));
    sqlite3_free(err);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
  }
  const json expected = json::parse(slurp(CARC_TEST_DATA "/schema2-json-actions.json"));
  auto store = SqliteStore::open(dir);
  auto all = store->load_rooms();
  REQUIRE(all.error.empty());
  // Start-up loads the playable rooms; the finished one is read on demand.
  REQUIRE(all.rooms.size() == 2);
  for (const StoredRoom& r : all.rooms) CHECK(r.phase != "finished");
  auto cold = store->load_room("0iRwpaSE4ZQS");
  REQUIRE(cold.room);
  CHECK(cold.room->phase == "finished");
  all.rooms.push_back(std::move(*cold.room));

  boost::asio::io_context io;
  Metrics metrics;
  NullPersistence none;
  std::map<std::string, std::shared_ptr<Room>> rooms;
  for (const StoredRoom& stored : all.rooms) {
    auto decoded = decode_room(stored);
    REQUIRE_MESSAGE(std::holds_alternative<RestoredRoom>(decoded), std::get<std::string>(decoded));
    auto room = Room::restore(boost::asio::make_strand(io), stored.id, RoomServices{none, metrics, nullptr, {}, {}, {}, {}, {}, {}},
                              std::get<RestoredRoom>(decoded));
    REQUIRE_MESSAGE(std::holds_alternative<std::shared_ptr<Room>>(room), std::get<std::string>(room));
    rooms[stored.id] = std::get<std::shared_ptr<Room>>(room);
  }
  const auto durable = [](json state) {
    for (auto& p : state["players"]) p.erase("connected");
    state.erase("spectators");
    return state;
  };
  const auto& playing = expected["playing"];
  const auto& room = rooms.at(playing["room"].get<std::string>());
  CHECK(carc::test::first_difference(durable(playing["state"]), durable(json::parse(room->state_text()))) == "");
  CHECK(room->version() > playing["version"].get<std::int64_t>());  // versions never go back
  CHECK(json::parse(room->state_text())["chat"].size() == 2);
  const auto& finished = rooms.at(expected["finished"]["room"].get<std::string>());
  CHECK(json::parse(finished->state_text())["result"]["final_scores"] == expected["finished"]["result"]["final_scores"]);
  CHECK(json::parse(rooms.at(expected["lobby"]["room"].get<std::string>())->state_text())["players"].size() == 1);
}
