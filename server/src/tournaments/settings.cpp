// Checking a tournament's settings (docs/tournaments.md#creating-one).
#include "tournaments/settings.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

namespace carc::server::tournaments {
namespace {

using json = nlohmann::json;

const std::set<std::string> kKeys{"name",         "format",    "rounds",       "per_table",         "expansions",
                                  "pace",         "turn_seconds", "bank_seconds", "increment_seconds", "start",
                                  "seats",        "rated",     "best_of",      "signed_in_only",    "round_hours"};

SettingsError error(std::string code, std::string message) { return {std::move(code), std::move(message)}; }

// An integer field within [lo, hi], or the error; absent keeps `value`.
std::optional<SettingsError> integer(const json& body, const char* key, int lo, int hi, int& value, const char* code,
                                     const std::string& words) {
  auto it = body.find(key);
  if (it == body.end()) return std::nullopt;
  if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > hi) {
    return error(code, words);
  }
  value = static_cast<int>(it->get<std::int64_t>());
  return std::nullopt;
}

std::optional<SettingsError> boolean(const json& body, const char* key, bool& value) {
  auto it = body.find(key);
  if (it == body.end()) return std::nullopt;
  if (!it->is_boolean()) return error("bad_request", std::string(key) + " must be true or false");
  value = it->get<bool>();
  return std::nullopt;
}

std::size_t utf8_length(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

std::string format_name(Format f) {
  switch (f) {
    case Format::swiss: return "swiss";
    case Format::round_robin: return "round_robin";
    case Format::single_elimination: return "single_elimination";
    case Format::double_elimination: return "double_elimination";
  }
  return "swiss";
}

bool knockout(Format f) { return f == Format::single_elimination || f == Format::double_elimination; }

std::variant<Settings, SettingsError> parse_settings(const json& body, std::int64_t now_ms,
                                                     const std::function<bool(std::string_view)>& known_expansion) {
  if (!body.is_object()) return error("bad_request", "the body must be a JSON object");
  for (const auto& [key, _] : body.items()) {
    if (kKeys.count(key) == 0) return error("bad_request", "unknown field: " + key);
  }
  Settings s;
  // name
  auto name = body.find("name");
  if (name == body.end() || !name->is_string()) return error("bad_name", "a name is required");
  s.name = name->get<std::string>();
  const std::size_t length = utf8_length(s.name);
  bool control = false;
  for (unsigned char c : s.name) control = control || c < 0x20 || c == 0x7F;
  if (length < 1 || length > 64 || control || s.name.front() == ' ' || s.name.back() == ' ') {
    return error("bad_name", "the name must be 1 to 64 characters, without control characters or spaces at its ends");
  }
  // format
  auto format = body.find("format");
  if (format == body.end() || !format->is_string()) return error("bad_format", "a format is required");
  const std::string f = format->get<std::string>();
  if (f == "swiss") s.format = Format::swiss;
  else if (f == "round_robin") s.format = Format::round_robin;
  else if (f == "single_elimination") s.format = Format::single_elimination;
  else if (f == "double_elimination") s.format = Format::double_elimination;
  else return error("bad_format", "the format is swiss, round_robin, single_elimination or double_elimination");
  // rounds: Swiss only
  if (s.format == Format::swiss) {
    if (!body.contains("rounds")) return error("bad_rounds", "a Swiss tournament needs its number of rounds");
    if (auto e = integer(body, "rounds", 1, kMaxRounds, s.rounds, "bad_rounds",
                         "a Swiss tournament has 1 to " + std::to_string(kMaxRounds) + " rounds")) {
      return *e;
    }
  } else if (body.contains("rounds")) {
    return error("bad_rounds", "only a Swiss tournament sets its number of rounds");
  }
  // players per table
  const bool many = s.format == Format::swiss || s.format == Format::round_robin;
  if (auto e = integer(body, "per_table", 2, many ? 6 : 2, s.per_table, "bad_per_table",
                       many ? "2 to 6 players per table" : "a knockout plays 2 per table")) {
    return *e;
  }
  // expansions
  if (auto it = body.find("expansions"); it != body.end()) {
    if (!it->is_array()) return error("bad_expansion", "expansions must be a list of expansion ids");
    std::set<std::string> seen;
    for (const json& x : *it) {
      if (!x.is_string() || !known_expansion(x.get<std::string>())) {
        return error("bad_expansion", "unknown expansion: " + (x.is_string() ? x.get<std::string>() : protocol::json_text(x)));
      }
      if (!seen.insert(x.get<std::string>()).second) return error("bad_expansion", "an expansion is named twice");
      s.expansions.push_back(x.get<std::string>());
    }
  }
  // pace and its clock
  if (auto it = body.find("pace"); it != body.end()) {
    if (!it->is_string() || (*it != "live" && *it != "turn_based")) {
      return error("bad_pace", "the pace is live or turn_based");
    }
    s.pace = it->get<std::string>();
  }
  if (s.pace == "live") {
    if (body.contains("bank_seconds") || body.contains("increment_seconds") || body.contains("round_hours")) {
      return error("bad_clock", "a live tournament has a turn clock (turn_seconds), no bank");
    }
    if (auto e = integer(body, "turn_seconds", 10, 3600, s.turn_seconds, "bad_clock",
                         "turn_seconds is 10 to 3600")) {
      return *e;
    }
  } else {
    if (body.contains("turn_seconds")) return error("bad_clock", "a turn-based tournament has a bank, no turn clock");
    if (auto e = integer(body, "bank_seconds", 3600, 2592000, s.bank_seconds, "bad_clock",
                         "bank_seconds is 3600 to 2592000")) {
      return *e;
    }
    if (auto e = integer(body, "increment_seconds", 0, 604800, s.increment_seconds, "bad_clock",
                         "increment_seconds is 0 to 604800")) {
      return *e;
    }
    if (auto e = integer(body, "round_hours", 1, 24 * 60, s.round_hours, "bad_clock",
                         "round_hours is 1 to 1440")) {
      return *e;
    }
  }
  // start
  if (auto it = body.find("start"); it != body.end() && !(it->is_string() && *it == "when_full")) {
    if (!it->is_number_integer()) return error("bad_start", "start is a time (ms since the epoch) or \"when_full\"");
    const std::int64_t at = it->get<std::int64_t>();
    if (at <= now_ms) return error("bad_start", "the start time is in the past");
    if (at > now_ms + 366LL * 24 * 3600 * 1000) return error("bad_start", "the start time is more than a year away");
    s.start_ms = at;
  }
  // seats
  const int fewest = std::max(2, s.format == Format::swiss ? s.rounds + 1 : 2);
  if (!body.contains("seats")) s.seats = std::max(s.seats, fewest);
  if (auto e = integer(body, "seats", 2, kMaxSeats, s.seats, "bad_seats",
                       "seats is 2 to " + std::to_string(kMaxSeats) + " players")) {
    return *e;
  }
  if (s.seats < fewest) {
    return error("bad_seats", std::to_string(s.rounds) + " Swiss rounds need at least " + std::to_string(fewest) + " seats");
  }
  if (auto e = boolean(body, "rated", s.rated)) return *e;
  if (auto e = boolean(body, "signed_in_only", s.signed_in_only)) return *e;
  // best of N: knockout only, odd
  if (auto it = body.find("best_of"); it != body.end()) {
    if (!knockout(s.format)) return error("bad_best_of", "only a knockout plays matches of several games");
    if (auto e = integer(body, "best_of", 1, 7, s.best_of, "bad_best_of", "best_of is 1, 3, 5 or 7")) return *e;
    if (s.best_of % 2 == 0) return error("bad_best_of", "best_of is 1, 3, 5 or 7");
  }
  return s;
}

json settings_json(const Settings& s) {
  json j{{"name", s.name},
         {"format", format_name(s.format)},
         {"per_table", s.per_table},
         {"expansions", s.expansions},
         {"pace", s.pace},
         {"seats", s.seats},
         {"rated", s.rated},
         {"signed_in_only", s.signed_in_only},
         {"start", s.start_ms ? json(*s.start_ms) : json("when_full")}};
  if (s.format == Format::swiss) j["rounds"] = s.rounds;
  if (knockout(s.format)) j["best_of"] = s.best_of;
  if (s.pace == "live") {
    j["turn_seconds"] = s.turn_seconds;
  } else {
    j["bank_seconds"] = s.bank_seconds;
    j["increment_seconds"] = s.increment_seconds;
    j["round_hours"] = s.round_hours;
  }
  return j;
}

}  // namespace carc::server::tournaments
