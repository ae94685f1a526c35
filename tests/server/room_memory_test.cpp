// A room's memory by the server's own split (RoomLogic::memory, docs/hot-path.md#memory):
// its game between moves is packed, a few KB whatever the ruleset, not a whole Game; a
// move on its way to storage adds its own packed game, which is gone once stored or
// refused by storage.
#include <doctest/doctest.h>

#include <malloc.h>

#include <deque>

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/metrics.hpp"
#include "room/room_logic.hpp"
#include "room/lazy_deque.hpp"
#include "room/room_record.hpp"

namespace carc::server {
namespace {

using nlohmann::json;

struct SeatClient final : Client {
  json state;
  std::int64_t version = -1;
  int seat = -1;
  void send(std::shared_ptr<const std::string> frame) override {
    const json msg = json::parse(*frame);
    if (msg.at("type") == "welcome") {
      state = msg.at("state");
      version = msg.at("version");
      if (msg["seat"].is_number()) seat = msg["seat"];
    } else if (msg.at("type") == "patch") {
      state.patch_inplace(msg.at("ops"));
      version = msg.at("version");
    }
  }
  void close(CloseReason) override {}
};

struct FourPlayers {
  Metrics metrics;
  RoomLogic room{"room-memory", metrics};
  std::vector<std::shared_ptr<SeatClient>> seats;
  Effects fx;
  std::int64_t now = 1'700'000'000'000;

  void store_ok() {
    REQUIRE(fx.store);
    fx.clear();
    room.stored(true, now, fx);
  }

  explicit FourPlayers(ExpansionSet expansions) {
    for (int i = 0; i < 4; ++i) {
      seats.push_back(std::make_shared<SeatClient>());
      room.attach(seats.back());
      room.handle(seats.back(), protocol::JoinMsg{"P" + std::to_string(i), std::nullopt}, now, SteadyClock::now(), fx);
      store_ok();
    }
    protocol::SettingsMsg s;
    s.expansions = expansions;
    room.handle(seats[0], s, now, SteadyClock::now(), fx);
    store_ok();
    room.handle(seats[0], protocol::StartMsg{}, now, SteadyClock::now(), fx);
    store_ok();
    REQUIRE(room.phase() == protocol::RoomPhase::Playing);
  }

  // The current seat sends its first legal placement, without a figure.
  void send_move() {
    const json& turn = seats[0]->state.at("turn");
    const int s = turn.at("seat");
    const json& pick = turn.at("legal").at(0);
    protocol::PlayMsg m;
    m.version = seats[static_cast<std::size_t>(s)]->version;
    m.x = pick.at("x");
    m.y = pick.at("y");
    m.rotation = pick.at("rotation");
    fx.clear();
    room.handle(seats[static_cast<std::size_t>(s)], m, now, SteadyClock::now(), fx);
    REQUIRE(fx.store);
  }
};

}  // namespace

TEST_CASE("a room in play holds its game packed: a few KB, not a whole Game, for any ruleset") {
  for (const std::uint8_t bits : {std::uint8_t{0x00}, std::uint8_t{0x0F}}) {
    CAPTURE(bits);
    FourPlayers t(ExpansionSet::from_bits(bits));
    for (int i = 0; i < 40 && t.room.phase() == protocol::RoomPhase::Playing; ++i) {
      t.send_move();
      const std::size_t storing = t.room.memory().engine;
      if (i % 7 == 3) {  // storage refuses: the move's game is dropped, the room's stays
        t.fx.clear();
        t.room.stored(false, t.now, t.fx);
        CHECK(t.room.memory().engine < storing);
        t.send_move();
      }
      t.store_ok();
      const std::size_t at_rest = t.room.memory().engine;
      CHECK(2 * storing > 3 * at_rest);  // two packed games while the move is stored
      // A Game is 45 KB (sized for every ruleset); packed, 40 moves in, under 8 KB.
      CHECK(at_rest < 8 * 1024);
      CHECK(at_rest < Game::memory_bytes() / 4);
    }
  }
}

TEST_CASE("a room in play keeps its record compact and no state text between welcomes") {
  for (const std::uint8_t bits : {std::uint8_t{0x00}, std::uint8_t{0x0F}}) {
    CAPTURE(bits);
    FourPlayers t(ExpansionSet::from_bits(bits));
    for (int i = 0; i < 17; ++i) {
      t.send_move();
      t.store_ok();
    }
    const auto m = t.room.memory();
    // 18 moves recorded (the start's draw too) and about 40 events: well under 2 KB (a
    // record reserved for 160 Moves of 52 bytes held 8.3 KB).
    CHECK(m.history < 2 * 1024);
    // The last welcome's state text went with the next change; what is left is the
    // patcher's mirror of the seats.
    CHECK(m.view < 1024);
  }
}

TEST_CASE("a recorded move gives every field back") {
  std::vector<Move> moves = {
      Move::place(Tile::D, Cell{2, -1}, Rotation::quarters(1), Port::N),
      Move::place(Tile::B, Cell{-63, 64}, Rotation::quarters(3), Port::C, static_cast<Figure>(3)),
      Move::place_with_action(Tile::E, Cell{0, -1}, Rotation::quarters(2), Cell{1, 0}),
      Move::place_with_target(Tile::V, Cell{0, 1}, Rotation{}, 2, Cell{1, 1}, Port::WR),
      Move::discard(Tile::X),
      Move::step(Cell{-5, 7}),
  };
  Move elsewhere = Move::place(Tile::U, Cell{1, 0}, Rotation{}, Port::C);
  elsewhere.figure_cell = Cell{2, 3};
  elsewhere.extra = true;
  moves.push_back(elsewhere);
  for (const Move& m : moves) {
    const Move back = RecordedMove::of(m).move();
    CHECK(back.type == m.type);
    CHECK(back.tile == m.tile);
    CHECK(back.placement == m.placement);
    CHECK(back.meeple == m.meeple);
    CHECK(back.figure == m.figure);
    CHECK(back.action == m.action);
    CHECK(back.extra == m.extra);
    CHECK(back.figure_cell == m.figure_cell);
    CHECK(back.action_kind == m.action_kind);
    CHECK(back.action_port == m.action_port);
  }
  CHECK(sizeof(RecordedMove) <= 18);
}

// The heap bytes in use, as glibc counts them (every arena; a chunk freed into a thread's
// cache still counts, so only many allocations at once show).
static std::size_t heap_in_use() { return ::mallinfo2().uordblks; }

TEST_CASE("an empty chat or queue of waiting commands holds no memory; its first line does") {
  constexpr int kRooms = 64;
  (void)LazyDeque<protocol::ChatLine>{}.items();  // the shared empty deque, made once
  std::vector<std::deque<protocol::ChatLine>> plain;
  std::vector<LazyDeque<protocol::ChatLine>> lazy;
  plain.reserve(kRooms);
  lazy.reserve(kRooms);
  std::size_t before = heap_in_use();
  for (int i = 0; i < kRooms; ++i) plain.emplace_back();
  CHECK(heap_in_use() - before >= kRooms * 64);  // a std::deque allocates as it is made
  before = heap_in_use();
  for (int i = 0; i < kRooms; ++i) lazy.emplace_back();
  CHECK(heap_in_use() == before);

  LazyDeque<protocol::ChatLine>& q = lazy.front();
  CHECK(q.empty());
  CHECK(q.items().empty());
  q.push_back(protocol::ChatLine{1, 0, "a", "first", 10});
  q.push_back(protocol::ChatLine{2, 1, "b", "second", 20});
  CHECK(q.size() == 2);
  CHECK(q.front().text == "first");
  CHECK(q.back().text == "second");
  std::vector<std::int64_t> ids;
  for (const auto& line : q) ids.push_back(line.id);
  CHECK(ids == std::vector<std::int64_t>{1, 2});
  q.pop_front();
  CHECK(q.front().text == "second");
  q.pop_front();
  CHECK(q.empty());

  // The last line out gave its deque back: what is read now is the shared empty one.
  const auto* none = &LazyDeque<protocol::ChatLine>{}.items();
  CHECK(&q.items() == none);
  q.push_back(protocol::ChatLine{3, 0, "a", "again", 30});
  CHECK(&q.items() != none);
  q.clear();
  CHECK(q.empty());
  CHECK(&q.items() == none);
  // The patcher's mirror of the bag counts in bytes: 119 kinds were 476 bytes in every room.
  CHECK(sizeof(protocol::StatePatcher) < 400);
}

}  // namespace carc::server
