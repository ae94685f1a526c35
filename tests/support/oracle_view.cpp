#include "oracle_view.hpp"

#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"
#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/traders/traders.hpp"

namespace carc::test {

namespace oracle_princess {  // oracle_princess.cpp
void state_keys(const Game* g, const Ruleset& rules, json& out);
json figures_of(const Game& g, int index);
void turn_keys(const Game& g, json& turn);
void legal_keys(const Game& g, const LegalMove& m, json& entry);
bool event_entry(const ExpansionEvent& e, int turn, json& list, json& out);
}  // namespace oracle_princess

using protocol::RoomFacts;
using protocol::RoomPhase;

namespace {

std::string letter(Tile t) { return std::string(tile_name(t)); }

// The room's options by name, in the list's order (docs/options.md).
json options_of(OptionSet set) {
  json out = json::array();
  if (set.has(Option::NoFields)) out.push_back("no_fields");
  if (set.has(Option::SmallCity)) out.push_back("small_city");
  return out;
}

json players_json(const RoomFacts& f) {
  json players = json::array();
  for (std::size_t i = 0; i < f.seats.size(); ++i) {
    const int seat = static_cast<int>(i);
    const auto& s = f.seats[i];
    json p{{"seat", seat},
           {"name", s.name},
           {"color", protocol::seat_color(seat)},
           {"score", 0},
           {"projected", f.projected[i % kMaxPlayers]},
           {"hints", s.hints},
           {"meeples", kMeeplesPerPlayer},
           {"connected", s.connected},
           {"tile", nullptr},
           {"host", seat == f.host},
           {"bot", s.bot ? json(protocol::bot_level_name(*s.bot)) : json(nullptr)},
           {"away", s.away},
           {"bank_ms", s.bank_ms ? json(*s.bank_ms) : json(nullptr)}};
    const Ruleset& rules = ruleset(f.settings.expansions, f.settings.options);
    if (rules.has_specials) {
      json figures = json::object();
      for (int k = 1; k < kFigureKinds; ++k) {
        if (rules.figures[static_cast<std::size_t>(k)] == 0) continue;
        const bool in_game = f.game != nullptr && seat < f.game->players();
        figures[std::string(figure_name(static_cast<Figure>(k)))] =
            in_game ? f.game->figures(seat, static_cast<Figure>(k)) : rules.figures[static_cast<std::size_t>(k)];
      }
      p["figures"] = figures;
    }
    if (f.settings.expansions.has(Expansion::Traders)) {
      json goods = json::object();
      for (int k = 0; k < traders::kGoodKinds; ++k) {
        const bool in_game = f.game != nullptr && seat < f.game->players();
        goods[std::string(traders::good_name(static_cast<traders::Good>(k)))] = in_game ? f.game->tokens(seat, k) : 0;
      }
      p["goods"] = goods;
    }
    if (f.game != nullptr && seat < f.game->players()) {
      p["score"] = f.game->score(seat);
      p["meeples"] = f.game->meeples(seat);
      if (const auto t = f.game->held(seat)) p["tile"] = letter(*t);
    }
    players.push_back(std::move(p));
  }
  return players;
}

json board_json(const Game* g, const Ruleset& rules) {
  json board = json::array();
  const bool lists = rules.expansions.has(Expansion::Princess);  // every figure of a tile
  if (g == nullptr) {
    board.push_back(json{{"x", 0}, {"y", 0}, {"tile", letter(rules.start)}, {"rotation", 0}, {"meeple", nullptr}});
    if (lists) {
      board[0].erase("meeple");
      board[0]["meeples"] = json::array();
    }
    return board;
  }
  int index = 0;
  for (const BoardTile& t : g->board()) {
    if (lists) {
      board.push_back(json{{"x", t.cell.x}, {"y", t.cell.y}, {"tile", letter(t.tile)}, {"rotation", t.rotation.degrees()},
                           {"meeples", oracle_princess::figures_of(*g, index++)}});
      continue;
    }
    json meeple = nullptr;
    if (t.meeple_seat && t.meeple_port) {
      meeple = json{{"seat", *t.meeple_seat}, {"at", std::string(port_name(*t.meeple_port))}};
      if (t.figure != Figure::Meeple) meeple["figure"] = std::string(figure_name(t.figure));
    }
    board.push_back(json{{"x", t.cell.x},
                         {"y", t.cell.y},
                         {"tile", letter(t.tile)},
                         {"rotation", t.rotation.degrees()},
                         {"meeple", std::move(meeple)}});
  }
  return board;
}

// bag.tiles: the kinds of the game's tile set (docs/expansions.md), a
// start tile with no other copy left out.
json bag_json(const Game* g, const Ruleset& rules) {
  json tiles = json::object();
  int left = 0;
  for (const TileDef& d : catalog()) {
    const int n = rules.counts[static_cast<std::size_t>(d.tile)] - (d.tile == rules.start ? 1 : 0);
    if (n <= 0) continue;
    tiles[letter(d.tile)] = g == nullptr ? n : g->bag_counts()[static_cast<std::size_t>(d.tile)];
    left += g == nullptr ? n : 0;
  }
  if (g != nullptr) left = g->bag_left();
  return json{{"left", left}, {"tiles", std::move(tiles)}};
}

json turn_json(const RoomFacts& f, const OracleEvents& log) {
  if (f.phase != RoomPhase::Playing || f.game == nullptr || f.game->finished()) return nullptr;
  const Game& g = *f.game;
  const Seat s = g.current_seat();
  const auto held = g.held(s);
  if (!held && !g.in_stage()) return nullptr;
  json turn{{"number", log.turn_number(g.in_extra_part())},
            {"seat", s},
            {"tile", held ? json(letter(*held)) : json(nullptr)},
            {"legal", g.in_stage() ? json::array() : oracle_legal(g)},
            {"deadline", f.deadline_ms ? json(*f.deadline_ms) : json(nullptr)}};
  if (g.expansions().has(Expansion::Traders)) turn["extra"] = g.in_extra_part();
  if (g.expansions().has(Expansion::Princess)) oracle_princess::turn_keys(g, turn);
  return turn;
}

// The room's breakdown: the record's (protocol::breakdown_json), with what inns,
// cathedrals and pigs changed moved out of their feature's row into rows of their own.
json room_breakdown(const Game& g, const std::vector<Event>& all) {
  json out = protocol::breakdown_json(g.players(), all, g.expansions());
  // No fields row where fields are not played (docs/options.md).
  if (g.options().has(Option::NoFields)) {
    for (json& line : out) line["end"].erase("field");
  }
  const bool inns = g.expansions().has(Expansion::Inns);
  const bool traders = g.expansions().has(Expansion::Traders);
  for (json& line : out) {
    if (inns) {
      for (const char* part : {"game", "end"}) line[part]["inn"] = line[part]["cathedral"] = 0;
    }
    if (traders) line["end"]["pig"] = 0;
  }
  // The fairy's row comes with the record's breakdown (the princess part marks it in_record).
  for (const Event& e : all) {
    const auto* s = std::get_if<FeatureScored>(&e);
    if (s == nullptr || s->by_action) continue;
    const char* part = s->end_of_game ? "end" : "game";
    for (Seat w : s->winners) {
      json& line = out[static_cast<std::size_t>(w)][part];
      const auto move = [&](const char* from, const char* to, int points) {
        line[from] = line[from].get<int>() - points;
        line[to] = line[to].get<int>() + points;
      };
      if (s->kind == Kind::Road && (s->marks & inns::kMarkInn) != 0) move("road", "inn", s->points - s->tiles);
      if (s->kind == Kind::City && (s->marks & inns::kMarkCathedral) != 0) {
        move("city", "cathedral", s->points - (s->end_of_game ? 1 : 2) * (s->tiles + s->pennants));
      }
      if (s->bonus[static_cast<std::size_t>(w)] != 0) move("field", "pig", s->bonus[static_cast<std::size_t>(w)]);
    }
  }
  return out;
}

json result_json(const Game& g, const std::vector<Event>& all) {
  json finals = json::array();
  int best = g.score(0);
  for (int s = 0; s < g.players(); ++s) {
    finals.push_back(g.score(s));
    best = std::max(best, g.score(s));
  }
  json winners = json::array();
  for (int s = 0; s < g.players(); ++s) {
    if (g.score(s) == best) winners.push_back(s);
  }
  return json{{"final_scores", finals},
              {"winners", winners},
              {"breakdown", room_breakdown(g, all)}};
}

}  // namespace

json oracle_legal(const Game& g) {
  std::vector<LegalMove> moves;
  g.legal_moves(moves);
  json legal = json::array();
  for (const LegalMove& m : moves) {
    json ports = json::array();
    for (Port p : m.meeples) ports.push_back(std::string(port_name(p)));
    json entry{{"x", m.placement.cell.x},
               {"y", m.placement.cell.y},
               {"rotation", m.placement.rotation.degrees()},
               {"meeples", std::move(ports)}};
    const Ruleset& rules = g.rules();
    if (rules.has_specials) {
      json figures = json::object();
      for (int k = 1; k < kFigureKinds; ++k) {
        if (rules.figures[static_cast<std::size_t>(k)] == 0) continue;
        json fp = json::array();
        for (Port p : m.figures[static_cast<std::size_t>(k)]) fp.push_back(std::string(port_name(p)));
        figures[std::string(figure_name(static_cast<Figure>(k)))] = std::move(fp);
      }
      entry["figures"] = std::move(figures);
    }
    if (rules.action_part != nullptr) {
      entry["return"] = m.action ? json{{"x", m.action->x}, {"y", m.action->y}} : json(nullptr);
      if (m.action) entry["return_points"] = m.action_points;
    }
    if (g.expansions().has(Expansion::Princess)) oracle_princess::legal_keys(g, m, entry);
    legal.push_back(std::move(entry));
  }
  return legal;
}

void OracleEvents::add(json entry) {
  entry["id"] = list_.size();
  list_.push_back(std::move(entry));
}

void OracleEvents::append(const std::vector<Event>& events) {
  bool after_extra_discard = false;
  for (const Event& e : events) {
    const int current = next_turn_ > 1 ? next_turn_ - 1 : 1;  // the turn being played
    if (const auto* d = std::get_if<TileDrawn>(&e)) {
      // A builder's extra part earned (its tile drawn); a replacement for a discarded extra
      // tile earns nothing new.
      if (d->extra && !after_extra_discard) add(json{{"type", "extra"}, {"turn", current}, {"seat", d->seat}});
      after_extra_discard = false;
      continue;
    }
    if (std::holds_alternative<MeepleReturned>(e)) continue;
    if (const auto* x = std::get_if<ExpansionEvent>(&e); x != nullptr && x->expansion == Expansion::Princess) {
      json entry;
      if (oracle_princess::event_entry(*x, current, list_, entry)) add(std::move(entry));
      continue;
    }
    json entry = protocol::event_json(e);
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      // The room's history keeps the portal's tile; the fairy and the princess have events of their own.
      entry.erase("fairy");
      entry.erase("princess");
      if (!p->meeple) entry.erase("portal");
    }
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      entry["turn"] = p->extra ? current : next_turn_++;  // part 2 of a turn keeps its number
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      entry["turn"] = d->extra ? current : next_turn_++;
      after_extra_discard = d->extra;
    } else if (const auto* x = std::get_if<ExpansionEvent>(&e); std::holds_alternative<FeatureScored>(e) || (x != nullptr && x->in_turn)) {
      entry["turn"] = current;  // the turn that caused it
    }
    add(std::move(entry));
  }
}

void OracleEvents::append_started() { add(json{{"type", "started"}}); }

json oracle_chat_line(const protocol::ChatLine& c) {
  return json{{"id", c.id},
              {"seat", c.seat ? json(*c.seat) : json(nullptr)},
              {"name", c.name},
              {"text", c.text},
              {"time", c.time_ms}};
}

json oracle_state(const RoomFacts& f, const OracleEvents& log, const std::deque<protocol::ChatLine>& chat,
                  const std::vector<Event>& all_events) {
  json lines = json::array();
  for (const auto& c : chat) lines.push_back(oracle_chat_line(c));
  const bool finished = f.phase == RoomPhase::Finished && f.game != nullptr;
  json out{{"room", f.room},
              {"phase", protocol::phase_name(f.phase)},
              {"players", players_json(f)},
              {"turn", turn_json(f, log)},
              {"board", board_json(f.game, ruleset(f.settings.expansions, f.settings.options))},
              {"bag", bag_json(f.game, ruleset(f.settings.expansions, f.settings.options))},
              {"spectators", f.spectators},
              {"events", log.list()},
              {"chat", std::move(lines)},
              {"result", finished ? result_json(*f.game, all_events) : json(nullptr)},
              {"settings", {{"turn_seconds", f.settings.turn_seconds ? json(*f.settings.turn_seconds) : json(nullptr)},
                            {"away_seconds", f.settings.away_seconds ? json(*f.settings.away_seconds) : json(nullptr)},
                            {"expansions", protocol::expansions_json(f.settings.expansions)},
                            {"options", options_of(f.settings.options)},
                            {"pace", protocol::pace_name(f.settings.pace)},
                            {"bank_seconds", f.settings.bank_seconds},
                            {"increment_seconds", f.settings.increment_seconds},
                            {"webhook", f.settings.webhook},
                            {"hints", f.settings.hints}}},
              {"rematch", f.rematch.empty() ? json(nullptr) : json(f.rematch)}};
  if (f.settings.expansions.has(Expansion::Princess)) {
    oracle_princess::state_keys(f.game, ruleset(f.settings.expansions), out);
  }
  return out;
}

}  // namespace carc::test
