// Compares a public state seen by clients of an older server with today's: every field the
// old one had must be there with the same value; fields added since (settings, clocks,
// bots, rematch) may be new.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace carc::test {

// The first difference ("" if none), as a JSON pointer and the two values.
inline std::string first_difference(const nlohmann::json& seen, const nlohmann::json& now, const std::string& at = "") {
  if (seen.is_object() && now.is_object()) {
    for (const auto& [key, value] : seen.items()) {
      if (!now.contains(key)) return at + "/" + key + " is gone";
      if (auto d = first_difference(value, now.at(key), at + "/" + key); !d.empty()) return d;
    }
    return "";
  }
  if (seen.is_array() && now.is_array()) {
    if (seen.size() != now.size()) return at + ": " + std::to_string(seen.size()) + " vs " + std::to_string(now.size()) + " items";
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (auto d = first_difference(seen[i], now[i], at + "/" + std::to_string(i)); !d.empty()) return d;
    }
    return "";
  }
  return seen == now ? "" : at + ": " + seen.dump() + " vs " + now.dump();
}

}  // namespace carc::test
