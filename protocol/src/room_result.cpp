// The result object of a finished room (protocol.md, docs/protocol-details.md): final
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
  for (int s = 0; s < n; ++s) {
    const auto& game = t.game[static_cast<std::size_t>(s)];
    const auto& end = t.end[static_cast<std::size_t>(s)];
    if (s > 0) out += ',';
    out += R"({"seat":)";
    append_int(out, s);
    out += R"(,"game":{)";
    int total = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      if (k > 0) out += ',';
      append_key(out, kKinds[k]);
      append_int(out, game[k]);
      total += game[k];
    }
    if (gardens) {
      out += R"(,"garden":)";
      append_int(out, game[4]);
      out += R"(,"abbot":)";
      append_int(out, t.abbot[static_cast<std::size_t>(s)]);
      total += game[4] + t.abbot[static_cast<std::size_t>(s)];
    }
    const auto i = static_cast<std::size_t>(s);
    if (inns) {
      row("inn", t.inn_game[i], total);
      row("cathedral", t.cathedral_game[i], total);
    }
    out += R"(},"end":{)";
    for (std::size_t k = 0; k < 4; ++k) {
      if (k > 0) out += ',';
      append_key(out, kKinds[k]);
      append_int(out, end[k]);
      total += end[k];
    }
    if (gardens) {
      out += R"(,"garden":)";
      append_int(out, end[4]);
      total += end[4];
    }
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
