// A rematch's seats (docs/protocol-details.md, rematch) on RoomLogic alone, with storage
// played by the test: each player's new token is fresh, stored in the new room only as its
// hash and in the old room only sealed to the old seat, so the stored actions give no seat
// away; the player present gets it, and so does one who comes back later (after a restart).
// Rooms stored before seats had seal keys, and rematches made before tokens were sealed,
// still work. A rematch counts against the asker's room-creation budget.
#include <doctest/doctest.h>

#include <memory>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "durable/action_codec.hpp"
#include "base/metrics.hpp"
#include "base/random.hpp"
#include "room/room_logic.hpp"
#include "keys/seat_seal.hpp"

namespace carc::server {
namespace {

using nlohmann::json;
constexpr std::int64_t kRematchT0 = 1'700'000'000'000;
constexpr const char* kNewRoom = "NewRoom00001";

struct RematchConn final : Client {
  std::vector<json> frames;
  double room_wait = 0;  // what the address's room-creation budget answers
  int asked = 0;
  void send(std::shared_ptr<const std::string> frame) override { frames.push_back(json::parse(*frame)); }
  void close(CloseReason) override {}
  double take_room_token() override {
    ++asked;
    return room_wait;
  }
  std::optional<json> last(const std::string& type) const {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
      if ((*it)["type"] == type) return *it;
    }
    return std::nullopt;
  }
};

// The seat tokens of the finished game the rematch starts from.
std::string old_token(int seat) { return "old-seat-token-" + std::to_string(seat); }

// A finished two-player game as storage holds it: seats (with seal keys unless `old_seats`),
// the start, and every move (each the first legal placement).
RestoredRoom finished_log(bool old_seats) {
  RestoredRoom r;
  for (int i = 0; i < 2; ++i) {
    r.actions.push_back(SeatTaken{i, "P" + std::to_string(i), sha256_hex(old_token(i)), std::nullopt, i == 0,
                                  old_seats ? std::string() : seat_seal_key(old_token(i))});
  }
  r.actions.push_back(GameStarted{2, 7, kRematchT0});
  Game g = Game::seeded(2, 7, {});
  std::vector<LegalMove> legal;
  for (int i = 0; !g.finished(); ++i) {
    const Seat seat = g.current_seat();
    g.legal_moves(legal);
    REQUIRE(!legal.empty());
    const Move m = Move::place(*g.held(seat), legal.front().placement.cell, legal.front().placement.rotation);
    REQUIRE_FALSE(g.play(m));
    r.actions.push_back(MovePlayed{i, seat, m, false, kRematchT0 + 1000 * std::int64_t(i + 1)});
  }
  r.version = static_cast<std::int64_t>(r.actions.size());
  r.game_version = r.version;
  return r;
}

struct RematchFixture {
  Metrics metrics;
  RestoredRoom log;
  std::unique_ptr<RoomLogic> room;
  Effects fx;
  std::int64_t now = kRematchT0 + 100'000'000;

  explicit RematchFixture(RestoredRoom l) : log(std::move(l)) {
    spdlog::set_level(spdlog::level::warn);
    restore();
  }
  void restore() {  // as after a restart: from the stored actions only
    auto r = RoomLogic::restore("OldRoom00001", metrics, log, now);
    REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(r));
    room = std::move(std::get<std::unique_ptr<RoomLogic>>(r));
    REQUIRE(room->phase() == protocol::RoomPhase::Finished);
  }
  std::shared_ptr<RematchConn> join(int seat) {
    auto c = std::make_shared<RematchConn>();
    room->attach(c);
    room->handle(c, protocol::JoinMsg{std::nullopt, old_token(seat)}, now, SteadyClock::now(), fx);
    REQUIRE(c->last("welcome"));
    return c;
  }
  void store_all() {
    while (fx.store) {
      log.actions.push_back(fx.store->action);
      fx.store.reset();
      room->stored(true, now, fx);
    }
  }
  // Asks for the rematch as `c`; returns the new room's seats as the registry would store them.
  std::vector<SeatTaken> rematch(const std::shared_ptr<RematchConn>& c) {
    room->handle(c, protocol::RematchMsg{}, now, SteadyClock::now(), fx);
    REQUIRE(fx.rematch);
    std::vector<SeatTaken> seats;
    for (const RoomAction& a : fx.rematch->actions) {
      if (const auto* s = std::get_if<SeatTaken>(&a)) seats.push_back(*s);
    }
    fx.rematch.reset();
    room->rematch_created(kNewRoom, now, fx);
    store_all();
    return seats;
  }
  // Every stored action of the old room as its database row, and the new room's seats.
  std::string database(const std::vector<SeatTaken>& seats) const {
    std::string all;
    for (const RoomAction& a : log.actions) all += encode_action(1, 1, a) + "\n";
    for (const SeatTaken& s : seats) all += encode_action(1, 1, s) + "\n";
    return all;
  }
};

// Seat `old_seat` of the old room sits at this seat of the rematch (rotated by one).
int new_seat(int old_seat) { return (old_seat + 1) % 2; }

}  // namespace

TEST_CASE("rematch seats: fresh tokens the stored actions do not give away; present and returning players get theirs") {
  RematchFixture f(finished_log(false));
  auto p0 = f.join(0);
  const auto seats = f.rematch(p0);
  const auto to_p0 = p0->last("rematch");
  REQUIRE(to_p0);
  CHECK((*to_p0)["room"] == kNewRoom);
  const std::string t0 = (*to_p0)["token"];
  CHECK(sha256_hex(t0) == seats[static_cast<std::size_t>(new_seat(0))].token_hash);
  CHECK(t0 != old_token(0));
  // A copy of the database: the token is nowhere in it, and the old derivation from the
  // stored hashes (what anyone could compute before) opens no seat.
  const std::string db = f.database(seats);
  CHECK(db.find(sha256_hex(old_token(0))) != std::string::npos);  // the reader has the old hashes
  CHECK(db.find(t0) == std::string::npos);
  for (int s = 0; s < 2; ++s) {
    const std::string derived = rematch_token(sha256_hex(old_token(s)), kNewRoom);
    for (const SeatTaken& seat : seats) CHECK(seat.token_hash != sha256_hex(derived));
  }
  // The sealed token opens with the seat's token only, and only for its own seat.
  const auto& sealed = std::get<RematchCreated>(f.log.actions.back()).seats;
  REQUIRE(sealed.size() == 2);
  CHECK(open_as_seat(old_token(0), rematch_seal_context("OldRoom00001", 0), sealed[0]) == t0);
  CHECK(!open_as_seat(old_token(1), rematch_seal_context("OldRoom00001", 0), sealed[0]));
  CHECK(!open_as_seat(old_token(0), rematch_seal_context("OldRoom00001", 1), sealed[0]));
  CHECK(!open_as_seat(sha256_hex(old_token(0)), rematch_seal_context("OldRoom00001", 0), sealed[0]));
  // A second request gives the same room and token.
  f.room->handle(p0, protocol::RematchMsg{}, f.now, SteadyClock::now(), f.fx);
  CHECK(!f.fx.rematch);
  CHECK(p0->last("rematch")->at("token") == t0);
  // P1 was away; after a restart (the old room rebuilt from its stored actions) they come
  // back from the old link and get their own seat's token.
  f.restore();
  auto p1 = f.join(1);
  const auto to_p1 = p1->last("rematch");
  REQUIRE(to_p1);
  const std::string t1 = (*to_p1)["token"];
  CHECK(sha256_hex(t1) == seats[static_cast<std::size_t>(new_seat(1))].token_hash);
  CHECK(t1 != t0);
  CHECK(db.find(t1) == std::string::npos);
  // The new room's seats carry seal keys of their own: a rematch of the rematch seals too.
  for (const SeatTaken& s : seats) CHECK(!s.seal_key.empty());
  CHECK(seats[static_cast<std::size_t>(new_seat(1))].seal_key == seat_seal_key(t1));
  // Stored and read back: the same.
  const std::string row = encode_action(5, 5, f.log.actions.back());
  const auto back = decode_action(row);
  REQUIRE(std::holds_alternative<DecodedAction>(back));
  CHECK(std::get<RematchCreated>(std::get<DecodedAction>(back).action).seats == sealed);
}

TEST_CASE("rematch seats: rooms stored before seal keys, and rematches made before tokens were sealed") {
  // Seats without seal keys: the player present gets a sealed fresh token (the server has
  // their token now); the one away keeps their token, which the database does not hold.
  RematchFixture f(finished_log(true));
  auto p1 = f.join(1);
  const auto seats = f.rematch(p1);
  const std::string t1 = p1->last("rematch")->at("token");
  CHECK(t1 != old_token(1));
  CHECK(sha256_hex(t1) == seats[static_cast<std::size_t>(new_seat(1))].token_hash);
  CHECK(seats[static_cast<std::size_t>(new_seat(0))].token_hash == sha256_hex(old_token(0)));
  CHECK(f.database(seats).find(t1) == std::string::npos);
  f.restore();
  auto p0 = f.join(0);
  CHECK(p0->last("rematch")->at("token") == old_token(0));

  // A rematch stored by the old scheme (the room only): its derived tokens still come out.
  RestoredRoom legacy = finished_log(true);
  legacy.actions.push_back(RematchCreated{"LegacyRoom01"});
  RematchFixture old(legacy);
  auto q0 = old.join(0);
  CHECK(q0->last("rematch")->at("token") == rematch_token(sha256_hex(old_token(0)), "LegacyRoom01"));
  // Its stored row, as written before: "R v gv <room>".
  const auto decoded = decode_action("R 90 80 12:LegacyRoom01");
  REQUIRE(std::holds_alternative<DecodedAction>(decoded));
  CHECK(std::get<RematchCreated>(std::get<DecodedAction>(decoded).action).seats.empty());
  const auto seat_row = decode_action("S 2 1 0 5:Alice 2:e5 - host");
  REQUIRE(std::holds_alternative<DecodedAction>(seat_row));
  CHECK(std::get<SeatTaken>(std::get<DecodedAction>(seat_row).action).seal_key.empty());
}

TEST_CASE("rematch: asked from an address with no room-creation budget left, refused with rate_limited; nothing changes") {
  RematchFixture f(finished_log(false));
  auto p0 = f.join(0);
  p0->room_wait = 42.5;
  const auto version = f.room->version();
  f.room->handle(p0, protocol::RematchMsg{}, f.now, SteadyClock::now(), f.fx);
  CHECK(p0->asked == 1);
  CHECK(!f.fx.rematch);
  CHECK(!f.fx.store);
  const auto error = p0->last("error");
  REQUIRE(error);
  CHECK((*error)["code"] == "rate_limited");
  CHECK((*error)["message"].get<std::string>().find("43 s") != std::string::npos);
  CHECK(!p0->last("rematch"));
  CHECK(f.room->version() == version);
  CHECK(json::parse(f.room->state_text(f.now))["rematch"].is_null());
  CHECK(f.metrics.rooms_rate_limited.load() == 1);
  // With budget again, it is made, and asking again costs nothing more.
  p0->room_wait = 0;
  f.rematch(p0);
  CHECK(p0->last("rematch"));
  f.room->handle(p0, protocol::RematchMsg{}, f.now, SteadyClock::now(), f.fx);
  CHECK(p0->asked == 2);
}

}  // namespace carc::server
