// The result object of a finished room (docs/protocol.md, docs/protocol-details.md): final
// scores, winners, and each seat's points by kind, with the expansions' own rows.
#include <algorithm>
#include <array>
#include <climits>
#include <string_view>

#include "carc/protocol/json_text.hpp"
#include "carc/protocol/record.hpp"
#include "carc/protocol/room_state.hpp"
#include "expansions/part.hpp"

namespace carc::protocol {

namespace {

std::string result_text(const Game& g, const EventHistory& events, const Settlement* settled) {
  const int n = g.players();
  // The winners: the best score among the seats that count (a settled game's gone seats rank
  // below every seat still there).
  const auto counts = [&](int s) {
    if (settled == nullptr || static_cast<int>(settled->gone.size()) >= n) return true;
    return std::find(settled->gone.begin(), settled->gone.end(), s) == settled->gone.end();
  };
  int best = INT_MIN;
  for (int s = 0; s < n; ++s) best = counts(s) ? std::max(best, g.score(s)) : best;
  std::string out = R"({"final_scores":[)";
  for (int s = 0; s < n; ++s) {
    if (s > 0) out += ',';
    append_int(out, g.score(s));
  }
  out += R"(],"winners":[)";
  bool first = true;
  for (int s = 0; s < n; ++s) {
    if (g.score(s) != best || !counts(s)) continue;
    if (!first) out += ',';
    first = false;
    append_int(out, s);
  }
  out += R"(],"breakdown":[)";
  const auto& t = events.totals();
  static constexpr std::array<std::string_view, 4> kKinds = {"road", "city", "monastery", "field"};
  // The parts of the game's expansions, in id order: their rows follow the kinds'.
  std::array<const detail::ProtocolPart*, kExpansionKinds> parts{};
  std::uint8_t kinds_shown = 0;
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (!g.expansions().has(static_cast<Expansion>(e))) continue;
    parts[static_cast<std::size_t>(e)] = detail::protocol_part(static_cast<Expansion>(e));
    if (parts[static_cast<std::size_t>(e)] != nullptr) kinds_shown |= parts[static_cast<std::size_t>(e)]->kinds_shown;
  }
  const auto row = [&](std::string_view key, int points, int& total) {
    out += ',';
    append_key(out, key);
    append_int(out, points);
    total += points;
  };
  // Road, city, monastery (and field at the end, when fields are played: docs/options.md), then
  // the kinds an expansion adds.
  const bool fields = fields_played(g.rules());
  const auto kind_rows = [&](const auto& points, std::size_t kinds, int& total) {
    for (std::size_t k = 0; k < kinds; ++k) {
      if (k > 0) out += ',';
      append_key(out, kKinds[k]);
      append_int(out, points[k]);
      total += points[k];
    }
    for (std::size_t k = 4; k < points.size(); ++k) {
      if (((kinds_shown >> k) & 1) != 0) row(kind_name(static_cast<Kind>(k)), points[k], total);
    }
  };
  const auto part_rows = [&](bool end, std::size_t seat, int& total) {
    for (std::size_t e = 0; e < parts.size(); ++e) {
      if (parts[e] == nullptr) continue;
      for (std::size_t r = 0; r < parts[e]->rows.size(); ++r) {
        const detail::RowKey& key = parts[e]->rows[r];
        if (!key.key.empty() && key.end == end) row(key.key, t.rows[e][r][seat], total);
      }
    }
  };
  for (int s = 0; s < n; ++s) {
    const auto& game = t.game[static_cast<std::size_t>(s)];
    const auto& end = t.end[static_cast<std::size_t>(s)];
    if (s > 0) out += ',';
    out += R"({"seat":)";
    append_int(out, s);
    out += R"(,"game":{)";
    int total = 0;
    const auto i = static_cast<std::size_t>(s);
    kind_rows(game, 3, total);
    part_rows(false, i, total);
    out += R"(},"end":{)";
    kind_rows(end, fields ? 4 : 3, total);
    part_rows(true, i, total);
    out += R"(},"total":)";
    append_int(out, total);
    out += '}';
  }
  out += ']';
  if (settled != nullptr) {
    out += R"(,"settled":{"by":"tournament","reason":)";
    append_json_string(out, settled->reason);
    out += R"(,"seat":)";
    if (settled->seat >= 0) append_int(out, settled->seat);
    else out += "null";
    out += R"(,"gone":[)";
    for (std::size_t i = 0; i < settled->gone.size(); ++i) {
      if (i > 0) out += ',';
      append_int(out, settled->gone[i]);
    }
    out += "]}";
  }
  out += '}';
  return out;
}

}  // namespace

std::string result_text(const Game& g, const EventHistory& events) { return result_text(g, events, nullptr); }

std::string result_text(const Game& g, const EventHistory& events, const Settlement& settled) {
  return result_text(g, events, &settled);
}

}  // namespace carc::protocol
