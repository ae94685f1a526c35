// A tournament's settings: every bad field refused with its own code (docs/tournaments.md).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tournaments/settings.hpp"

using namespace carc::server::tournaments;
using json = nlohmann::json;

namespace {

constexpr std::int64_t kNow = 1'765'000'000'000;

bool known(std::string_view id) { return id == "river" || id == "abbot"; }

std::string refused(json body) {
  auto r = parse_settings(body, kNow, known);
  if (std::holds_alternative<Settings>(r)) return "accepted";
  const auto& e = std::get<SettingsError>(r);
  CHECK_FALSE(e.message.empty());
  return e.code;
}

}  // namespace

TEST_CASE("good settings, with defaults") {
  auto r = parse_settings(json{{"name", "Friday Swiss"}, {"format", "swiss"}, {"rounds", 3}, {"seats", 8}}, kNow, known);
  REQUIRE(std::holds_alternative<Settings>(r));
  const Settings& s = std::get<Settings>(r);
  CHECK(s.rounds == 3);
  CHECK(s.per_table == 2);
  CHECK(s.pace == "live");
  CHECK_FALSE(s.start_ms);
  CHECK(settings_json(s)["start"] == "when_full");
  auto k = parse_settings(json{{"name", "Cup"}, {"format", "double_elimination"}, {"best_of", 3}, {"pace", "turn_based"},
                               {"bank_seconds", 86400}, {"start", kNow + 60000}, {"expansions", {"river"}}},
                          kNow, known);
  REQUIRE(std::holds_alternative<Settings>(k));
  CHECK(std::get<Settings>(k).best_of == 3);
  CHECK(std::get<Settings>(k).start_ms == kNow + 60000);
}

TEST_CASE("bad settings: each refused with a clear code") {
  const json swiss{{"name", "S"}, {"format", "swiss"}, {"rounds", 3}};
  auto with = [&](const char* key, json value) {
    json b = swiss;
    b[key] = value;
    return refused(b);
  };
  CHECK(refused(json::array()) == "bad_request");
  CHECK(with("colour", "red") == "bad_request");
  CHECK(with("name", "") == "bad_name");
  CHECK(with("name", std::string(65, 'x')) == "bad_name");
  CHECK(with("name", "tab\there") == "bad_name");
  CHECK(with("format", "ladder") == "bad_format");
  CHECK(with("rounds", 0) == "bad_rounds");
  CHECK(with("rounds", 21) == "bad_rounds");
  CHECK(with("rounds", "3") == "bad_rounds");
  CHECK(refused(json{{"name", "S"}, {"format", "swiss"}}) == "bad_rounds");
  CHECK(refused(json{{"name", "R"}, {"format", "round_robin"}, {"rounds", 2}}) == "bad_rounds");
  CHECK(with("per_table", 7) == "bad_per_table");
  CHECK(with("per_table", 1) == "bad_per_table");
  CHECK(refused(json{{"name", "K"}, {"format", "single_elimination"}, {"per_table", 3}}) == "bad_per_table");
  CHECK(with("expansions", {"river", "river"}) == "bad_expansion");
  CHECK(with("expansions", {"dragons"}) == "bad_expansion");
  CHECK(with("pace", "blitz") == "bad_pace");
  CHECK(with("bank_seconds", 3600) == "bad_clock");
  CHECK(with("turn_seconds", 5) == "bad_clock");
  CHECK(with("start", kNow - 1) == "bad_start");
  CHECK(with("start", "soon") == "bad_start");
  CHECK(with("seats", 1) == "bad_seats");
  CHECK(with("seats", 3) == "bad_seats");  // 3 rounds need 4 players
  CHECK(with("seats", 257) == "bad_seats");
  CHECK(with("rated", "yes") == "bad_request");
  CHECK(with("best_of", 3) == "bad_best_of");
  CHECK(refused(json{{"name", "K"}, {"format", "single_elimination"}, {"best_of", 2}}) == "bad_best_of");
}
