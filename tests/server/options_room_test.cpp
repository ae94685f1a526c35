// The rule options of a room on RoomLogic alone (docs/options.md): a room restored from its
// stored actions keeps its options (its welcome's settings, its record), and its rematch
// is made with them.
#include <doctest/doctest.h>

#include <memory>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "base/metrics.hpp"
#include "base/random.hpp"
#include "durable/action_codec.hpp"
#include "recording_client.hpp"
#include "room/room_logic.hpp"

namespace carc::server {
namespace {

using nlohmann::json;
using test::kT0;

struct OptionsConn final : Client {
  std::vector<json> frames;
  void send(std::shared_ptr<const std::string> frame) override { frames.push_back(json::parse(*frame)); }
  void close(CloseReason) override {}
  double take_room_token() override { return 0; }
  std::optional<json> last(const std::string& type) const {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
      if ((*it)["type"] == type) return *it;
    }
    return std::nullopt;
  }
};

const OptionSet kBoth = OptionSet{}.with(Option::NoFields).with(Option::SmallCity);

// A finished two-player game with both options, as storage holds it (each stored action
// through its row, as after a restart).
RestoredRoom finished_log() {
  RestoredRoom r;
  for (int i = 0; i < 2; ++i) {
    r.actions.push_back(SeatTaken{i, "P" + std::to_string(i), sha256_hex("token-" + std::to_string(i)), std::nullopt, i == 0});
  }
  SettingsChanged s{std::nullopt, protocol::kDefaultAwaySeconds};
  s.options = kBoth;
  r.actions.push_back(s);
  r.actions.push_back(GameStarted{2, 7, kT0});
  Game g = Game::seeded(2, 7, {}, kBoth);
  std::vector<LegalMove> legal;
  for (int i = 0; !g.finished(); ++i) {
    const Seat seat = g.current_seat();
    g.legal_moves(legal);
    REQUIRE(!legal.empty());
    const LegalMove& l = legal.front();
    const Move m = Move::place(*g.held(seat), l.placement.cell, l.placement.rotation,
                               l.meeples.size > 0 ? std::optional<Port>(l.meeples.ports[0]) : std::nullopt);
    REQUIRE_FALSE(g.play(m));
    r.actions.push_back(MovePlayed{i, seat, m, false, kT0 + 1000 * std::int64_t(i + 1)});
  }
  for (RoomAction& a : r.actions) {
    const auto back = decode_action(encode_action(1, 1, a));
    REQUIRE(std::holds_alternative<DecodedAction>(back));
    a = std::get<DecodedAction>(back).action;
  }
  r.version = static_cast<std::int64_t>(r.actions.size());
  r.game_version = r.version;
  return r;
}

}  // namespace

TEST_CASE("options: a restored room keeps them (state, record, no fields row) and its rematch is made with them") {
  spdlog::set_level(spdlog::level::warn);
  Metrics metrics;
  auto restored = RoomLogic::restore("OptRoom00001", metrics, finished_log(), kT0 + 10'000'000);
  REQUIRE(std::holds_alternative<std::unique_ptr<RoomLogic>>(restored));
  auto& room = std::get<std::unique_ptr<RoomLogic>>(restored);
  REQUIRE(room->phase() == protocol::RoomPhase::Finished);
  Effects fx;
  auto c = std::make_shared<OptionsConn>();
  room->attach(c);
  room->handle(c, protocol::JoinMsg{std::nullopt, std::string("token-0")}, kT0 + 10'000'000, SteadyClock::now(), fx);
  const auto welcome = c->last("welcome");
  REQUIRE(welcome);
  const json& state = (*welcome)["state"];
  CHECK(state["settings"]["options"] == json::array({"no_fields", "small_city"}));
  for (const json& line : state["result"]["breakdown"]) CHECK_FALSE(line["end"].contains("field"));
  const json record = json::parse(room->record_json());
  CHECK(record["options"] == json::array({"no_fields", "small_city"}));

  room->handle(c, protocol::RematchMsg{}, kT0 + 10'000'000, SteadyClock::now(), fx);
  REQUIRE(fx.rematch);
  int settings = 0;
  for (const RoomAction& a : fx.rematch->actions) {
    if (const auto* s = std::get_if<SettingsChanged>(&a)) {
      CHECK(s->options == kBoth);
      ++settings;
    }
  }
  CHECK(settings == 1);
}

}  // namespace carc::server
