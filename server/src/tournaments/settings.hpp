// A tournament's settings as its organiser gives them (docs/tournaments.md#creating-one),
// checked in one fixed order: every refusal names the field and says why. Pure: no I/O.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace carc::server::tournaments {

enum class Format { swiss, round_robin, single_elimination, double_elimination };
std::string format_name(Format f);  // the wire name: "swiss", "round_robin", ...
bool knockout(Format f);

struct Settings {
  std::string name;
  Format format = Format::swiss;
  int rounds = 0;  // Swiss: the number of rounds; otherwise 0 (the format decides)
  int per_table = 2;
  std::vector<std::string> expansions;
  std::string pace = "live";   // "live" | "turn_based"
  int turn_seconds = 120;      // live: each turn's clock
  int bank_seconds = 259200;   // turn-based: the bank and what each move adds
  int increment_seconds = 86400;
  std::optional<std::int64_t> start_ms;  // none: starts when full (or when the organiser starts it)
  int seats = 8;                         // the most players
  bool rated = false;
  int best_of = 1;                       // knockout: games per match
  bool signed_in_only = false;           // only players signed in with the host's provider register
  int round_hours = 72;                  // turn-based: a round's length (its deadline)
  bool operator==(const Settings&) const = default;
};

struct SettingsError {
  std::string code;     // stable, on the wire: bad_request, bad_name, bad_rounds, ...
  std::string message;  // what is wrong, in words
};

inline constexpr int kMaxSeats = 256;
inline constexpr int kMaxRounds = 20;

// The settings from a request body; `now_ms` is the server's clock, `known_expansion` says
// whether an expansion id exists.
std::variant<Settings, SettingsError> parse_settings(const nlohmann::json& body, std::int64_t now_ms,
                                                     const std::function<bool(std::string_view)>& known_expansion);

nlohmann::json settings_json(const Settings& s);

}  // namespace carc::server::tournaments
