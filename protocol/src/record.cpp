#include "carc/protocol/record.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "carc/protocol/json.hpp"
#include "expansions/part.hpp"

namespace carc::protocol {
namespace {

RecordError err(std::string message, std::optional<int> move = std::nullopt) {
  return RecordError{std::move(message), move};
}

}  // namespace

std::optional<Move> parse_move(const json& m, std::string* why) {
  if (!m.is_object()) {
    *why = "a move must be an object";
    return std::nullopt;
  }
  const auto tile_it = m.find("tile");
  if (tile_it == m.end() || !tile_it->is_string()) {
    *why = "a move needs \"tile\", a tile id (A..X, or an expansion's)";
    return std::nullopt;
  }
  const auto tile = tile_from_name(tile_it->get_ref<const std::string&>());
  if (!tile) {
    *why = "unknown tile \"" + tile_it->get<std::string>() + "\"";
    return std::nullopt;
  }
  const auto discard_it = m.find("discard");
  if (discard_it != m.end() && !discard_it->is_null()) {
    if (!discard_it->is_boolean()) {
      *why = "\"discard\" must be true or false";
      return std::nullopt;
    }
    if (discard_it->get<bool>()) {
      Move d = Move::discard(*tile);
      const auto extra_it = m.find("extra");
      if (extra_it != m.end() && !extra_it->is_null()) {
        if (!extra_it->is_boolean()) {
          *why = "\"extra\" must be true or false";
          return std::nullopt;
        }
        d.extra = extra_it->get<bool>();
      }
      return d;
    }
  }
  auto int_field = [&](const char* name, long long* out) {
    const auto it = m.find(name);
    if (it == m.end() || !it->is_number_integer()) {
      *why = std::string("a placement needs an integer \"") + name + "\"";
      return false;
    }
    *out = it->get<long long>();
    return true;
  };
  long long x = 0;
  long long y = 0;
  long long deg = 0;
  if (!int_field("x", &x) || !int_field("y", &y) || !int_field("rotation", &deg)) return std::nullopt;
  const auto rot = Rotation::from_degrees(deg);
  if (!rot) {
    *why = "\"rotation\" must be 0, 90, 180 or 270";
    return std::nullopt;
  }
  // Far-away cells are simply illegal placements; clamp so they cannot overflow an int.
  constexpr long long kFar = 1'000'000;
  const Cell cell{static_cast<int>(std::clamp(x, -kFar, kFar)), static_cast<int>(std::clamp(y, -kFar, kFar))};
  std::optional<Port> meeple;
  const auto meeple_it = m.find("meeple");
  if (meeple_it != m.end() && !meeple_it->is_null()) {
    if (!meeple_it->is_string()) {
      *why = "\"meeple\" must be a port name or null";
      return std::nullopt;
    }
    meeple = port_from_name(meeple_it->get_ref<const std::string&>());
    if (!meeple) {
      *why = "unknown meeple port \"" + meeple_it->get<std::string>() + "\"";
      return std::nullopt;
    }
  }
  Figure figure = Figure::Meeple;
  const auto figure_it = m.find("figure");
  if (figure_it != m.end() && !figure_it->is_null()) {
    if (!figure_it->is_string()) {
      *why = "\"figure\" must be a figure name or null";
      return std::nullopt;
    }
    const auto f = figure_from_name(figure_it->get_ref<const std::string&>());
    if (!f) {
      *why = "unknown figure \"" + figure_it->get<std::string>() + "\"";
      return std::nullopt;
    }
    if (!meeple) {
      *why = "a \"figure\" needs a \"meeple\" port";
      return std::nullopt;
    }
    figure = *f;
  }
  std::optional<Cell> action;
  const auto return_it = m.find("return");
  if (return_it != m.end() && !return_it->is_null()) {
    const auto rx = return_it->is_object() ? return_it->find("x") : return_it->end();
    const auto ry = return_it->is_object() ? return_it->find("y") : return_it->end();
    if (!return_it->is_object() || rx == return_it->end() || ry == return_it->end() || !rx->is_number_integer() ||
        !ry->is_number_integer()) {
      *why = "\"return\" must be an object with integer \"x\" and \"y\"";
      return std::nullopt;
    }
    if (meeple) {
      *why = "a placement takes a figure back or places one, never both";
      return std::nullopt;
    }
    action = Cell{static_cast<int>(std::clamp(rx->get<long long>(), -kFar, kFar)),
                     static_cast<int>(std::clamp(ry->get<long long>(), -kFar, kFar))};
  }
  bool extra = false;
  const auto extra_it = m.find("extra");
  if (extra_it != m.end() && !extra_it->is_null()) {
    if (!extra_it->is_boolean()) {
      *why = "\"extra\" must be true or false";
      return std::nullopt;
    }
    extra = extra_it->get<bool>();
  }
  Move out = action ? Move::place_with_action(*tile, cell, *rot, *action) : Move::place(*tile, cell, *rot, meeple, figure);
  out.extra = extra;
  return out;
}

std::optional<Move> parse_move(const json& m, std::string* why, ExpansionSet expansions, std::vector<Cell>* steps) {
  std::optional<Move> move = parse_move(m, why);
  if (!move) return std::nullopt;
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (!expansions.has(static_cast<Expansion>(e))) continue;
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part != nullptr && part->read_move != nullptr && !part->read_move(m, *move, steps, why)) return std::nullopt;
  }
  return move;
}

std::variant<ExpansionSet, std::string> parse_expansions(const json* value) {
  ExpansionSet set;
  if (value == nullptr || value->is_null()) return set;
  if (!value->is_array()) return std::string("\"expansions\" must be an array of expansion ids");
  for (const json& id : *value) {
    if (!id.is_string()) return std::string("\"expansions\" must be an array of expansion ids");
    const auto e = expansion_from_name(id.get_ref<const std::string&>());
    if (!e) return "unknown expansion \"" + id.get<std::string>() + "\"";
    if (set.has(*e)) return "expansion \"" + id.get<std::string>() + "\" is listed twice";
    if (!expansion_implemented(*e)) return "expansion \"" + id.get<std::string>() + "\" is not implemented here";
    set = set.with(*e);
  }
  return set;
}

// Rooms offer every expansion a record may name (the server runs the steps inside a turn
// that some expansions have: Game::in_stage, docs/protocol.md).
std::variant<ExpansionSet, std::string> parse_room_expansions(const json* value) { return parse_expansions(value); }

std::variant<OptionSet, std::string> parse_options(const json* value) {
  OptionSet set;
  if (value == nullptr || value->is_null()) return set;
  if (!value->is_array()) return std::string("\"options\" must be an array of option ids");
  for (const json& id : *value) {
    if (!id.is_string()) return std::string("\"options\" must be an array of option ids");
    const auto o = option_from_name(id.get_ref<const std::string&>());
    if (!o) return "unknown option \"" + id.get<std::string>() + "\"";
    if (set.has(*o)) return "option \"" + id.get<std::string>() + "\" is listed twice";
    set = set.with(*o);
  }
  return set;
}

json options_json(OptionSet set) {
  json out = json::array();
  for (int o = 0; o < kOptionKinds; ++o) {
    if (set.has(static_cast<Option>(o))) out.push_back(std::string(option_name(static_cast<Option>(o))));
  }
  return out;
}

bool fields_played(const Ruleset& rules) {
  for (int f = 0; f < kFigureKinds; ++f) {
    if (rules.figures[static_cast<std::size_t>(f)] > 0 &&
        ((rules.figure_kinds[static_cast<std::size_t>(f)] >> static_cast<int>(Kind::Field)) & 1) != 0) {
      return true;
    }
  }
  return false;
}

json expansions_json(ExpansionSet set) {
  json out = json::array();
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (set.has(static_cast<Expansion>(e))) out.push_back(std::string(expansion_name(static_cast<Expansion>(e))));
  }
  return out;
}

std::variant<Record, RecordError> parse_record(const json& j) {
  if (!j.is_object()) return err("a record must be a JSON object");
  const auto format = j.find("format");
  if (format != j.end() && !(format->is_string() && format->get<std::string>() == "carcassonne-record/1")) {
    return err("unsupported record format (expected \"carcassonne-record/1\")");
  }
  const auto players = j.find("players");
  if (players == j.end() || !players->is_number_integer()) return err("\"players\" must be an integer from 2 to 5 (6 if an expansion allows it)");
  const auto n = players->get<long long>();
  if (n < kMinPlayers || n > kMaxPlayers) return err("\"players\" must be between 2 and 5 (6 if an expansion allows it)");
  Record r;
  r.players = static_cast<int>(n);
  const auto exp_it = j.find("expansions");
  auto expansions = parse_expansions(exp_it == j.end() ? nullptr : &*exp_it);
  if (auto* why = std::get_if<std::string>(&expansions)) return err(*why);
  r.expansions = std::get<ExpansionSet>(expansions);
  const auto opt_it = j.find("options");
  auto options = parse_options(opt_it == j.end() ? nullptr : &*opt_it);
  if (auto* why = std::get_if<std::string>(&options)) return err(*why);
  r.options = std::get<OptionSet>(options);
  const Ruleset& rules = ruleset(r.expansions, r.options);
  if (n > rules.max_players) return err("\"players\" must be between 2 and " + std::to_string(rules.max_players) + " with these expansions");
  const auto final_it = j.find("final");
  if (final_it != j.end() && !final_it->is_null()) {
    if (!final_it->is_boolean()) return err("\"final\" must be true or false");
    r.final = final_it->get<bool>();
  }
  const auto moves = j.find("moves");
  if (moves == j.end() || !moves->is_array()) return err("\"moves\" must be an array");
  r.moves.reserve(moves->size());
  int index = 0;
  for (const json& m : *moves) {
    std::string why;
    std::vector<Cell> steps;
    auto move = parse_move(m, &why, r.expansions, &steps);
    if (!move) return err(why, index);
    if (rules.counts[static_cast<std::size_t>(move->tile)] == 0) {
      return err("tile \"" + std::string(tile_name(move->tile)) + "\" is not in this game's tile set", index);
    }
    if (move->meeple && rules.figures[static_cast<std::size_t>(move->figure)] == 0) {
      return err("figure \"" + std::string(figure_name(move->figure)) + "\" is not in this game", index);
    }
    if (move->action && move->action_kind == 0 && rules.action_part == nullptr) {
      return err("\"return\" needs an expansion whose placements may take an action", index);
    }
    r.moves.push_back(*move);
    for (const Cell& c : steps) r.moves.push_back(Move::step(c));
    ++index;
  }
  return r;
}

json move_json(const Move& m) { return move_json(m, {}); }

json move_json(const Move& m, std::span<const Cell> steps) {
  json out{{"tile", std::string(tile_name(m.tile))}};
  if (m.type == Move::Type::Discard) {
    out["discard"] = true;
    if (m.extra) out["extra"] = true;
    return out;
  }
  out["x"] = m.placement.cell.x;
  out["y"] = m.placement.cell.y;
  out["rotation"] = m.placement.rotation.degrees();
  if (m.meeple) out["meeple"] = std::string(port_name(*m.meeple));
  if (m.meeple && m.figure != Figure::Meeple) out["figure"] = std::string(figure_name(m.figure));
  if (m.action && m.action_kind == 0) out[std::string(detail::action_key())] = json{{"x", m.action->x}, {"y", m.action->y}};
  if (m.extra) out["extra"] = true;
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part != nullptr && part->write_move != nullptr) part->write_move(m, steps, out);
  }
  return out;
}

json record_json(int players, const std::vector<Move>& moves, bool final, ExpansionSet expansions, OptionSet options) {
  json ms = json::array();
  // The steps made inside a turn (Move::Type::Step) go in the entry of the placement before them.
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (moves[i].type == Move::Type::Step) continue;
    std::vector<Cell> steps;
    for (std::size_t k = i + 1; k < moves.size() && moves[k].type == Move::Type::Step; ++k) steps.push_back(moves[k].placement.cell);
    ms.push_back(move_json(moves[i], steps));
  }
  json out{{"format", "carcassonne-record/1"}, {"players", players}};
  if (!expansions.empty()) out["expansions"] = expansions_json(expansions);
  if (!options.empty()) out["options"] = options_json(options);
  out["moves"] = std::move(ms);
  out["final"] = final;
  return out;
}

json breakdown_json(int players, const std::vector<Event>& events, ExpansionSet expansions, OptionSet options) {
  // A replay's breakdown: a kind's row holds its features' whole points (a part's share
  // included); only the rows a part marks in_record stand apart (protocol/src/expansions/).
  struct Line {
    int game[5] = {0, 0, 0, 0, 0};  // road, city, monastery, (field), and a kind an expansion adds
    int end[5] = {0, 0, 0, 0, 0};   // road, city, monastery, field, ...
  };
  std::vector<Line> lines(static_cast<std::size_t>(players));
  std::array<detail::Rows, kExpansionKinds> rows{};
  const auto part_of = [](int e) { return detail::protocol_part(static_cast<Expansion>(e)); };
  for (const Event& e : events) {
    if (const auto* x = std::get_if<ExpansionEvent>(&e)) {
      const detail::ProtocolPart* part = part_of(static_cast<int>(x->expansion));
      if (part != nullptr && part->count_event != nullptr) part->count_event(*x, rows[static_cast<std::size_t>(x->expansion)]);
      continue;
    }
    const auto* s = std::get_if<FeatureScored>(&e);
    if (s == nullptr) continue;
    const auto k = static_cast<std::size_t>(s->kind);
    for (Seat seat : s->winners) {
      if (seat < 0 || seat >= players) continue;
      const auto i = static_cast<std::size_t>(seat);
      Line& l = lines[i];
      if (k >= 5) continue;
      const int points = s->points + s->bonus[i];
      // A part that takes the whole of it (an action's points) into a row of its own.
      int base = s->points;
      detail::Rows scratch{};
      EventHistory::Totals::Points* whole = nullptr;
      for (int x = 0; x < kExpansionKinds && whole == nullptr; ++x) {
        const detail::ProtocolPart* part = part_of(x);
        if (part == nullptr || part->count_scored == nullptr) continue;
        const int r = part->count_scored(*s, i, base, scratch);
        if (r >= 0 && part->rows[static_cast<std::size_t>(r)].in_record) whole = &rows[static_cast<std::size_t>(x)][static_cast<std::size_t>(r)][i];
        if (r >= 0) break;
      }
      if (whole != nullptr) {
        EventHistory::Totals::add(*whole, points);
      } else if (s->end_of_game) {
        l.end[k] += points;
      } else {
        l.game[k] += points;
      }
    }
  }
  std::uint8_t kinds_shown = 0;
  for (int x = 0; x < kExpansionKinds; ++x) {
    if (expansions.has(static_cast<Expansion>(x)) && part_of(x) != nullptr) kinds_shown |= part_of(x)->kinds_shown;
  }
  const bool fields = fields_played(ruleset(expansions, options));
  json out = json::array();
  for (int seat = 0; seat < players; ++seat) {
    const auto i = static_cast<std::size_t>(seat);
    const Line& l = lines[i];
    int total = 0;
    for (int k = 0; k < 5; ++k) total += l.game[k] + l.end[k];
    json line{{"seat", seat},
              {"game", {{"road", l.game[0]}, {"city", l.game[1]}, {"monastery", l.game[2]}}},
              {"end", {{"road", l.end[0]}, {"city", l.end[1]}, {"monastery", l.end[2]}}}};
    if (fields) line["end"]["field"] = l.end[3];
    // The kinds past the base game's four that an expansion shows (ProtocolPart::kinds_shown).
    for (int k = static_cast<int>(Kind::Field) + 1; k < static_cast<int>(std::size(l.game)); ++k) {
      if (((kinds_shown >> k) & 1) == 0) continue;
      const std::string kind(kind_name(static_cast<Kind>(k)));
      line["game"][kind] = l.game[k];
      line["end"][kind] = l.end[k];
    }
    for (int x = 0; x < kExpansionKinds; ++x) {
      const detail::ProtocolPart* part = part_of(x);
      if (part == nullptr) continue;
      for (std::size_t r = 0; r < part->rows.size(); ++r) {
        if (!part->rows[r].in_record) continue;
        const int v = rows[static_cast<std::size_t>(x)][r][i];
        total += v;
        if (expansions.has(static_cast<Expansion>(x))) line[part->rows[r].end ? "end" : "game"][std::string(part->rows[r].key)] = v;
      }
    }
    line["total"] = total;
    out.push_back(std::move(line));
  }
  return out;
}

std::variant<json, RecordError> replay(const Record& r) {
  Game g = Game::replay(r.players, r.expansions, r.options);
  std::vector<Event> events;
  json scores_after = json::array();
  json event_log = json::array();
  int index = -1;  // the record entry: the steps made inside a turn belong to their placement's
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const Move& m = r.moves[i];
    const bool step = m.type == Move::Type::Step;
    if (!step) ++index;
    const std::size_t before = events.size();
    if (!step && g.in_stage()) {
      return err("the entry lists too few steps: a legal one is left (" + std::string(rule_error_name(RuleError::IllegalStep)) + ")",
                 index - 1);
    }
    if (!step && m.extra != g.in_extra_part() && g.anyone_holds() && !g.finished()) {
      return err(m.extra ? "\"extra\": true on an entry outside an extra part of the turn"
                         : "this entry is an extra part of the turn and must carry \"extra\": true",
                 index);
    }
    if (auto e = g.play(m, &events)) {
      return err(std::string(rule_error_message(*e)) + " (" + std::string(rule_error_name(*e)) + ")", index);
    }
    json row = json::array();
    for (int s = 0; s < r.players; ++s) row.push_back(g.score(s));
    if (step) {
      scores_after.back() = std::move(row);
    } else {
      scores_after.push_back(std::move(row));
    }
    for (std::size_t k = before; k < events.size(); ++k) {
      json ev = event_json(events[k]);
      ev["move"] = index;
      event_log.push_back(std::move(ev));
    }
  }
  if (g.in_stage()) {
    return err("the entry lists too few steps: a legal one is left (" + std::string(rule_error_name(RuleError::IllegalStep)) + ")", index);
  }
  json supply = json::array();
  for (int s = 0; s < r.players; ++s) supply.push_back(g.meeples(s));
  json figures = nullptr;
  if (g.rules().has_specials) {
    figures = json::array();
    for (int s = 0; s < r.players; ++s) {
      json mine = json::object();
      for (int f = 1; f < kFigureKinds; ++f) {
        if (g.rules().figures[static_cast<std::size_t>(f)] == 0) continue;
        mine[std::string(figure_name(static_cast<Figure>(f)))] = g.figures(s, static_cast<Figure>(f));
      }
      figures.push_back(std::move(mine));
    }
  }
  // Each seat's tokens, under their expansion's key (protocol/src/expansions/).
  json tokens = nullptr;
  const detail::ProtocolPart* token_part =
      g.rules().token_expansion ? detail::protocol_part(*g.rules().token_expansion) : nullptr;
  if (token_part != nullptr) {
    tokens = json::array();
    for (int s = 0; s < r.players; ++s) {
      json mine = json::object();
      for (int k = 0; k < g.rules().token_kinds; ++k) mine[std::string(token_part->token_name(k))] = g.tokens(s, k);
      tokens.push_back(std::move(mine));
    }
  }
  json extra_keys = json::object();
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (r.expansions.has(static_cast<Expansion>(e)) && part != nullptr && part->result_json != nullptr) part->result_json(g, extra_keys);
  }
  if (r.final) {
    const std::size_t before = events.size();
    g.finish(&events);
    for (std::size_t i = before; i < events.size(); ++i) event_log.push_back(event_json(events[i]));
  }
  json finals = json::array();
  int best = g.score(0);
  for (int s = 0; s < r.players; ++s) {
    finals.push_back(g.score(s));
    best = std::max(best, g.score(s));
  }
  json winners = json::array();
  for (int s = 0; s < r.players; ++s) {
    if (g.score(s) == best) winners.push_back(s);
  }
  json out{{"scores_after_move", scores_after},
           {"final_scores", finals},
           {"meeples_in_supply", supply},
           {"winners", winners},
           {"breakdown", breakdown_json(r.players, events, r.expansions, r.options)},
           {"events", event_log}};
  if (!figures.is_null()) out["figures_in_supply"] = std::move(figures);
  if (!tokens.is_null()) out[std::string(token_part->tokens_key)] = std::move(tokens);
  for (auto& [k, v] : extra_keys.items()) out[k] = v;
  return out;
}

}  // namespace carc::protocol
