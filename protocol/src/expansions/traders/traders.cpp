// Traders & Builders on the wire (docs/expansions/traders-builders.md, docs/protocol.md):
// the "goods" and "goods_scored" events, each player's "goods", and the breakdown's "pig"
// and "goods" rows.
#include "carc/core/expansions/traders/traders.hpp"

#include "expansions/part.hpp"

namespace carc::protocol::detail {

const ProtocolPart& traders_protocol();  // below

namespace {

using history::Bytes;

constexpr std::uint8_t kFirstTag = 6;  // after the base entries' tags (event_history.cpp)

std::string_view token_name(int k) { return traders::good_name(static_cast<traders::Good>(k)); }

json event_json(const ExpansionEvent& e) {
  if (e.kind == traders::kGoodsTaken) {
    json goods = json::object();
    for (int k = 0; k < traders::kGoodKinds; ++k) goods[std::string(token_name(k))] = e.values[static_cast<std::size_t>(k)];
    return json{{"type", "goods"}, {"seat", e.seat}, {"goods", goods}, {"x", e.cell.x}, {"y", e.cell.y}};
  }
  json held = json::array();
  for (int s = 0; s < e.players; ++s) held.push_back(e.values[static_cast<std::size_t>(s)]);
  json seats = json::array();
  for (int s = 0; s < kMaxPlayers; ++s) {
    if (((e.winners >> s) & 1) != 0) seats.push_back(s);
  }
  return json{{"type", "goods_scored"},
              {"good", std::string(token_name(e.arg))},
              {"points", e.points},
              {"seats", seats},
              {"held", held}};
}

// goods: turn (2), seat, a byte a kind of goods, the cell (2).
// goods_scored: the kind of goods, points (2), the winners' mask, the seats, a byte a seat.
void encode(Bytes& b, const ExpansionEvent& e, int turn) {
  if (e.kind == traders::kGoodsTaken) {
    history::put16(b, turn);
    history::put8(b, e.seat);
    for (int k = 0; k < traders::kGoodKinds; ++k) history::put8(b, e.values[static_cast<std::size_t>(k)]);
    history::put8(b, e.cell.x);
    history::put8(b, e.cell.y);
    return;
  }
  history::put8(b, e.arg);
  history::put16(b, e.points);
  history::put8(b, e.winners);
  history::put8(b, e.players);  // one entry a seat of the game, as in a replay's events
  for (int k = 0; k < e.players; ++k) history::put8(b, e.values[static_cast<std::size_t>(k)]);
}

std::size_t write(std::string& out, std::uint8_t kind, const Bytes& b, std::size_t at) {
  if (kind == traders::kGoodsTaken) {
    history::turn_and_seat(out, "goods", b, at);
    out += R"(,"goods":{)";
    for (int k = 0; k < traders::kGoodKinds; ++k) {
      if (k > 0) out += ',';
      append_key(out, token_name(k));
      append_int(out, b[at + 3 + static_cast<std::size_t>(k)]);
    }
    out += R"(},"x":)";
    append_int(out, history::s8(b[at + 3 + traders::kGoodKinds]));
    out += R"(,"y":)";
    append_int(out, history::s8(b[at + 4 + traders::kGoodKinds]));
    out += '}';
    return at + 5 + traders::kGoodKinds;
  }
  out += R"(,"type":"goods_scored","good":")";
  out += token_name(b[at]);
  out += '"';
  const int seats = history::points_and_seats(out, b, at + 1, "held");
  out += '}';
  return at + 5 + static_cast<std::size_t>(seats);
}

// Rows: 0 the pig's points in fields (beyond the field's), 1 the goods majorities.
int count_scored(const FeatureScored& s, std::size_t seat, int&, Rows& rows) {
  EventHistory::Totals::add(rows[0][seat], s.bonus[seat]);
  return -1;
}

void count_event(const ExpansionEvent& e, Rows& rows) {
  if (e.kind != traders::kGoodsScored) return;
  for (std::size_t s = 0; s < kMaxPlayers; ++s) {
    if (((e.winners >> s) & 1) != 0) EventHistory::Totals::add(rows[1][s], e.points);
  }
}

// A city segment's goods symbol (GET /api/tiles).
void segment_json(const Segment& s, json& out) {
  if (const int g = traders::good_of_marks(s.marks); s.kind == Kind::City && g >= 0) out["goods"] = std::string(token_name(g));
}

}  // namespace

const ProtocolPart& traders_protocol() {
  static const ProtocolPart part{.id = Expansion::Traders,
                                 .event_json = &event_json,
                                 .first_tag = kFirstTag,
                                 .kinds = 2,
                                 .encode = &encode,
                                 .write = &write,
                                 .segment_json = &segment_json,
                                 .tokens_key = "goods",
                                 .token_name = &token_name,
                                 .rows = {{{"pig", true, false}, {"goods", true, true}}},
                                 .count_scored = &count_scored,
                                 .count_event = &count_event};
  return part;
}

}  // namespace carc::protocol::detail
