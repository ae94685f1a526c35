#include "carc/protocol/view.hpp"

#include <array>

#include "carc/protocol/json.hpp"

namespace carc::protocol {

namespace {

constexpr std::array<std::string_view, 3> kPhaseNames = {"lobby", "playing", "finished"};
constexpr std::array<std::string_view, kMaxPlayers> kColors = {"red", "blue", "green", "yellow", "black"};

std::string letter(Tile t) { return std::string(1, tile_letter(t)); }

json players_json(const RoomView& v) {
  json players = json::array();
  for (std::size_t i = 0; i < v.seats.size(); ++i) {
    const int seat = static_cast<int>(i);
    json p{{"seat", seat},
           {"name", v.seats[i].name},
           {"color", seat_color(seat)},
           {"score", 0},
           {"meeples", kMeeplesPerPlayer},
           {"connected", v.seats[i].connected},
           {"tile", nullptr},
           {"host", seat == 0}};
    if (v.game != nullptr && seat < v.game->players()) {
      p["score"] = v.game->score(seat);
      p["meeples"] = v.game->meeples(seat);
      if (const auto t = v.game->held(seat)) p["tile"] = letter(*t);
    }
    players.push_back(std::move(p));
  }
  return players;
}

json board_json(const Game* g) {
  json board = json::array();
  if (g == nullptr) {
    board.push_back(json{{"x", 0}, {"y", 0}, {"tile", letter(kStartTile)}, {"rotation", 0}, {"meeple", nullptr}});
    return board;
  }
  for (const BoardTile& t : g->board()) {
    json meeple = nullptr;
    if (t.meeple_seat && t.meeple_port) {
      meeple = json{{"seat", *t.meeple_seat}, {"at", std::string(port_name(*t.meeple_port))}};
    }
    board.push_back(json{{"x", t.cell.x},
                         {"y", t.cell.y},
                         {"tile", letter(t.tile)},
                         {"rotation", t.rotation.degrees()},
                         {"meeple", std::move(meeple)}});
  }
  return board;
}

json bag_json(const Game* g) {
  json tiles = json::object();
  int left = 0;
  if (g == nullptr) {
    for (const TileDef& d : catalog()) {
      const int n = d.count - (d.tile == kStartTile ? 1 : 0);
      tiles[letter(d.tile)] = n;
      left += n;
    }
  } else {
    const auto counts = g->bag_counts();
    for (int k = 0; k < kTileKinds; ++k) tiles[letter(static_cast<Tile>(k))] = counts[static_cast<std::size_t>(k)];
    left = g->bag_left();
  }
  return json{{"left", left}, {"tiles", std::move(tiles)}};
}

json turn_json(const RoomView& v) {
  if (v.phase != RoomPhase::Playing || v.game == nullptr || v.game->finished()) return nullptr;
  const Game& g = *v.game;
  const Seat s = g.current_seat();
  const auto held = g.held(s);
  if (!held) return nullptr;
  return json{{"number", g.moves_played() + 1}, {"seat", s}, {"tile", letter(*held)}, {"legal", legal_json(g)}};
}

}  // namespace

std::string_view phase_name(RoomPhase p) { return kPhaseNames[static_cast<std::size_t>(p)]; }
std::string_view seat_color(int seat) { return kColors[static_cast<std::size_t>(seat) % kColors.size()]; }

json legal_json(const Game& g) {
  std::vector<LegalMove> moves;
  g.legal_moves(moves);
  json legal = json::array();
  for (const LegalMove& m : moves) {
    json ports = json::array();
    for (Port p : m.meeples) ports.push_back(std::string(port_name(p)));
    legal.push_back(json{{"x", m.placement.cell.x},
                         {"y", m.placement.cell.y},
                         {"rotation", m.placement.rotation.degrees()},
                         {"meeples", std::move(ports)}});
  }
  return legal;
}

json core_view(const RoomView& v) {
  return json{{"room", v.room},
              {"phase", phase_name(v.phase)},
              {"players", players_json(v)},
              {"turn", turn_json(v)},
              {"board", board_json(v.game)},
              {"bag", bag_json(v.game)},
              {"spectators", v.spectators},
              {"result", v.result != nullptr ? *v.result : json(nullptr)}};
}

json EventLog::add(json entry) {
  entry["id"] = count_++;
  if (!keep_text_) return entry;
  if (!text_.empty()) text_ += ',';
  text_ += entry.dump(-1, ' ', false, json::error_handler_t::replace);
  return entry;
}

std::vector<json> EventLog::append(const std::vector<Event>& events) {
  std::vector<json> added;
  for (const Event& e : events) {
    // Held tiles and meeples are shown in players[] and board[], not as events.
    if (std::holds_alternative<TileDrawn>(e) || std::holds_alternative<MeepleReturned>(e)) continue;
    json entry = event_json(e);
    if (std::holds_alternative<TilePlaced>(e) || std::holds_alternative<TileDiscarded>(e)) {
      entry["turn"] = next_turn_++;
    } else if (std::holds_alternative<FeatureScored>(e)) {
      entry["turn"] = next_turn_ > 1 ? next_turn_ - 1 : 1;  // the turn that caused it
    }
    added.push_back(add(std::move(entry)));
  }
  return added;
}

json EventLog::append_started() { return add(json{{"type", "started"}}); }

json EventLog::to_json() const { return json::parse("[" + text_ + "]"); }

json chat_json(const ChatLine& c) {
  return json{{"id", c.id},
              {"seat", c.seat ? json(*c.seat) : json(nullptr)},
              {"name", c.name},
              {"text", c.text},
              {"time", c.time_ms}};
}

json full_view(const RoomView& v, const EventLog& events, const std::deque<ChatLine>& chat) {
  json state = core_view(v);
  state["events"] = events.to_json();
  json lines = json::array();
  for (const ChatLine& c : chat) lines.push_back(chat_json(c));
  state["chat"] = std::move(lines);
  return state;
}

json diff_core(json before, json after) {
  const auto number = [](const json& view) -> json {
    const auto t = view.find("turn");
    if (t == view.end() || !t->is_object()) return nullptr;
    return t->value("number", json(nullptr));
  };
  const bool new_turn = number(before) != number(after);
  if (!new_turn) return json::diff(before, after);
  // Diff everything but "turn", then replace "turn" whole.
  json turn = std::move(after.at("turn"));
  before.erase("turn");
  after.erase("turn");
  json ops = json::diff(before, after);
  ops.push_back(json{{"op", "replace"}, {"path", "/turn"}, {"value", std::move(turn)}});
  return ops;
}

void append_ops(json& ops, std::string_view path, const std::vector<json>& values) {
  const std::string target = std::string(path) + "/-";
  for (const json& v : values) ops.push_back(json{{"op", "add"}, {"path", target}, {"value", v}});
}

}  // namespace carc::protocol
