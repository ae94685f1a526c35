// The result object of a finished room (docs/protocol.md, docs/protocol-details.md): final
// scores, winners, and each seat's points by kind, with the expansions' own rows.
#include <algorithm>
#include <array>
#include <string_view>

#include "carc/protocol/json_text.hpp"
#include "carc/protocol/room_state.hpp"

namespace carc::protocol {

std::string result_text(const Game& g, const EventHistory& events) {
  const int n = g.players();
  int best = g.score(0);
  for (int s = 1; s < n; ++s) best = std::max(best, g.score(s));
  std::string out = R"({"final_scores":[)";
  for (int s = 0; s < n; ++s) {
    if (s > 0) out += ',';
    append_int(out, g.score(s));
  }
  out += R"(],"winners":[)";
  bool first = true;
  for (int s = 0; s < n; ++s) {
    if (g.score(s) != best) continue;
    if (!first) out += ',';
    first = false;
    append_int(out, s);
  }
  out += R"(],"breakdown":[)";
  const auto& t = events.totals();
  static constexpr std::array<std::string_view, 5> kKinds = {"road", "city", "monastery", "field", "garden"};
  const bool gardens = g.expansions().has(Expansion::Abbot);
  const bool inns = g.expansions().has(Expansion::Inns);
  const bool traders = g.expansions().has(Expansion::Traders);
  const auto row = [&](std::string_view key, int points, int& total) {
    out += ',';
    append_key(out, key);
    append_int(out, points);
    total += points;
  };
  // Road, city, monastery (and field at the end), then the garden when the Abbot is in.
  const auto kind_rows = [&](const auto& points, std::size_t kinds, int& total) {
    for (std::size_t k = 0; k < kinds; ++k) {
      if (k > 0) out += ',';
      append_key(out, kKinds[k]);
      append_int(out, points[k]);
      total += points[k];
    }
    if (gardens) row("garden", points[4], total);
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
    if (gardens) row("abbot", t.abbot[i], total);
    if (inns) {
      row("inn", t.inn_game[i], total);
      row("cathedral", t.cathedral_game[i], total);
    }
    out += R"(},"end":{)";
    kind_rows(end, 4, total);
    if (inns) {
      row("inn", t.inn_end[i], total);
      row("cathedral", t.cathedral_end[i], total);
    }
    if (traders) {
      row("pig", t.pig[i], total);
      row("goods", t.goods[i], total);
    }
    out += R"(},"total":)";
    append_int(out, total);
    out += '}';
  }
  out += "]}";
  return out;
}

}  // namespace carc::protocol
