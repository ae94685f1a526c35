#include "carc/protocol/room_state.hpp"

#include "carc/protocol/json_text.hpp"
#include "expansions/part.hpp"
#include "room_state_parts.hpp"

namespace carc::protocol {
namespace {
constexpr std::array<std::string_view, 3> kPhaseNames = {"lobby", "playing", "finished"};
constexpr std::array<std::string_view, kMaxPlayers> kColors = {"red", "blue", "green", "yellow", "black", "pink"};
}  // namespace

namespace detail {

void append_letter(std::string& out, std::optional<Tile> t) {
  if (!t) {
    out += "null";
    return;
  }
  out += '"';
  out += tile_name(*t);
  out += '"';
}

void append_name(std::string& out, std::string_view s) {
  out += '"';
  out += s;
  out += '"';
}

int score_of(const RoomFacts& f, int seat) {
  return f.game != nullptr && seat < f.game->players() ? f.game->score(seat) : 0;
}
int meeples_of(const RoomFacts& f, int seat) {
  return f.game != nullptr && seat < f.game->players() ? f.game->meeples(seat) : kMeeplesPerPlayer;
}
// Special figures in supply (index by Figure); the lobby shows the game's starting supply.
std::array<int, kFigureKinds> figures_of(const RoomFacts& f, int seat) {
  std::array<int, kFigureKinds> out{};
  const Ruleset& rules = f.settings.rules();
  for (int k = 1; k < kFigureKinds; ++k) {
    out[static_cast<std::size_t>(k)] = f.game != nullptr && seat < f.game->players()
                                           ? f.game->figures(seat, static_cast<Figure>(k))
                                           : rules.figures[static_cast<std::size_t>(k)];
  }
  return out;
}

void write_figures(std::string& out, const Ruleset& rules, const std::array<int, kFigureKinds>& figures) {
  out += '{';
  bool first = true;
  for (int k = 1; k < kFigureKinds; ++k) {
    if (rules.figures[static_cast<std::size_t>(k)] == 0) continue;
    if (!first) out += ',';
    first = false;
    append_key(out, figure_name(static_cast<Figure>(k)));
    append_int(out, figures[static_cast<std::size_t>(k)]);
  }
  out += '}';
}

const ProtocolPart* token_part(const RoomFacts& f) {
  const Ruleset& rules = f.settings.rules();
  return rules.token_expansion ? protocol_part(*rules.token_expansion) : nullptr;
}

std::array<int, kMaxTokenKinds> tokens_of(const RoomFacts& f, int seat) {
  std::array<int, kMaxTokenKinds> out{};
  if (f.game == nullptr || seat >= f.game->players()) return out;
  for (int k = 0; k < f.game->rules().token_kinds; ++k) out[static_cast<std::size_t>(k)] = f.game->tokens(seat, k);
  return out;
}

void write_tokens(std::string& out, const ProtocolPart& part, int kinds, const std::array<int, kMaxTokenKinds>& tokens) {
  out += '{';
  for (int k = 0; k < kinds; ++k) {
    if (k > 0) out += ',';
    append_key(out, part.token_name(k));
    append_int(out, tokens[static_cast<std::size_t>(k)]);
  }
  out += '}';
}

std::optional<Tile> tile_of(const RoomFacts& f, int seat) {
  return f.game != nullptr && seat < f.game->players() ? f.game->held(seat) : std::nullopt;
}

std::array<int, kTileKinds> bag_of(const Game* g, const Ruleset& rules, int* left) {
  if (g != nullptr) {
    *left = g->bag_left();
    return g->bag_counts();
  }
  std::array<int, kTileKinds> counts{};
  *left = 0;
  for (int k = 0; k < kTileKinds; ++k) {
    const int n = rules.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == rules.start ? 1 : 0);
    counts[static_cast<std::size_t>(k)] = n;
    *left += n;
  }
  return counts;
}

// The kinds `bag.tiles` lists: every kind of the game's tile set but a start tile that has
// no other copy (the base game: A..X, as always).
static bool in_bag_list(const Ruleset& rules, int k) {
  return rules.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == rules.start ? 1 : 0) > 0;
}

void write_bag(std::string& out, const Game* g, const Ruleset& rules) {
  int left = 0;
  const auto counts = bag_of(g, rules, &left);
  out += R"({"left":)";
  append_int(out, left);
  out += R"(,"tiles":{)";
  bool first = true;
  for (int k = 0; k < kTileKinds; ++k) {
    if (!in_bag_list(rules, k)) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += tile_name(static_cast<Tile>(k));
    out += "\":";
    append_int(out, counts[static_cast<std::size_t>(k)]);
  }
  out += "}}";
}

void write_players(std::string& out, const RoomFacts& f) {
  out += '[';
  for (std::size_t i = 0; i < f.seats.size(); ++i) {
    if (i > 0) out += ',';
    write_player(out, f, static_cast<int>(i));
  }
  out += ']';
}

static void write_meeple(std::string& out, std::optional<Seat> seat, std::optional<Port> port, Figure figure) {
  if (!seat || !port) {
    out += "null";
    return;
  }
  out += R"({"seat":)";
  append_int(out, *seat);
  out += R"(,"at":")";
  out += port_name(*port);
  out += '"';
  if (figure != Figure::Meeple) {
    out += R"(,"figure":")";
    out += figure_name(figure);
    out += '"';
  }
  out += '}';
}

}  // namespace detail

using namespace detail;

// Every part of the room's expansions, in id order.
template <typename F>
void each_part(const Ruleset& rules, F&& f) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (!rules.expansions.has(static_cast<Expansion>(e))) continue;
    if (const ProtocolPart* part = protocol_part(static_cast<Expansion>(e)); part != nullptr) f(*part);
  }
}


std::string_view phase_name(RoomPhase p) { return kPhaseNames[static_cast<std::size_t>(p)]; }
std::string_view seat_color(int seat) { return kColors[static_cast<std::size_t>(seat) % kColors.size()]; }

void write_player(std::string& out, const RoomFacts& f, int seat) {
  const SeatFacts& s = f.seats[static_cast<std::size_t>(seat)];
  out += R"({"seat":)";
  append_int(out, seat);
  out += R"(,"name":)";
  append_json_string(out, s.name);
  out += R"(,"color":)";
  append_name(out, seat_color(seat));
  out += R"(,"score":)";
  append_int(out, score_of(f, seat));
  out += R"(,"projected":)";
  append_int(out, f.projected[static_cast<std::size_t>(seat) % kMaxPlayers]);
  out += R"(,"hints":)";
  append_int(out, s.hints);
  out += R"(,"meeples":)";
  append_int(out, meeples_of(f, seat));
  if (const Ruleset& rules = f.settings.rules(); rules.has_specials) {
    out += R"(,"figures":)";
    write_figures(out, rules, figures_of(f, seat));
  }
  if (const ProtocolPart* tokens = token_part(f)) {
    out += ',';
    append_key(out, tokens->tokens_key);
    write_tokens(out, *tokens, f.settings.rules().token_kinds, tokens_of(f, seat));
  }
  out += R"(,"connected":)";
  append_bool(out, s.connected);
  out += R"(,"tile":)";
  append_letter(out, tile_of(f, seat));
  out += R"(,"host":)";
  append_bool(out, seat == f.host);
  out += R"(,"bot":)";
  if (s.bot) append_name(out, bot_level_name(*s.bot));
  else out += "null";
  out += R"(,"away":)";
  append_bool(out, s.away);
  out += R"(,"bank_ms":)";
  append_opt_int(out, s.bank_ms);
  out += '}';
}

void write_legal(std::string& out, const Game& g) {
  thread_local std::vector<LegalMove> moves;
  g.legal_moves(moves);
  out += '[';
  bool first = true;
  for (const LegalMove& m : moves) {
    if (!first) out += ',';
    first = false;
    out += R"({"x":)";
    append_int(out, m.placement.cell.x);
    out += R"(,"y":)";
    append_int(out, m.placement.cell.y);
    out += R"(,"rotation":)";
    append_int(out, m.placement.rotation.degrees());
    out += R"(,"meeples":[)";
    bool first_port = true;
    for (Port p : m.meeples) {
      if (!first_port) out += ',';
      first_port = false;
      append_name(out, port_name(p));
    }
    out += ']';
    const Ruleset& rules = g.rules();
    if (rules.has_specials) {
      out += R"(,"figures":{)";
      bool first_figure = true;
      for (int k = 1; k < kFigureKinds; ++k) {
        if (rules.figures[static_cast<std::size_t>(k)] == 0) continue;
        if (!first_figure) out += ',';
        first_figure = false;
        append_key(out, figure_name(static_cast<Figure>(k)));
        out += '[';
        bool first_p = true;
        for (Port p : m.figures[static_cast<std::size_t>(k)]) {
          if (!first_p) out += ',';
          first_p = false;
          append_name(out, port_name(p));
        }
        out += ']';
      }
      out += '}';
    }
    each_part(rules, [&](const ProtocolPart& part) {
      if (part.legal_keys != nullptr) part.legal_keys(g, m, out);
    });
    if (rules.action_part != nullptr) {
      out += R"(,"return":)";
      if (m.action) {
        out += R"({"x":)";
        append_int(out, m.action->x);
        out += R"(,"y":)";
        append_int(out, m.action->y);
        out += R"(},"return_points":)";
        append_int(out, m.action_points);
      } else {
        out += "null";
      }
    }
    out += '}';
  }
  out += ']';
}

void write_turn(std::string& out, const RoomFacts& f) {
  const Game* g = f.game;
  const auto held = g != nullptr ? g->held(g->current_seat()) : std::nullopt;
  // In a stage of steps inside the turn (Game::in_stage()) the placer holds no tile yet.
  if (f.phase != RoomPhase::Playing || g == nullptr || g->finished() || (!held && !g->in_stage())) {
    out += "null";
    return;
  }
  out += R"({"number":)";
  append_int(out, f.turn_number > 0 ? f.turn_number : g->moves_played() + 1);
  out += R"(,"seat":)";
  append_int(out, g->current_seat());
  out += R"(,"tile":)";
  append_letter(out, held);
  if (g->rules().extra_hooks) {
    out += R"(,"extra":)";  // an extra part of the turn (docs/expansions.md)
    append_bool(out, g->in_extra_part());
  }
  out += R"(,"legal":)";
  if (g->in_stage()) out += "[]";  // no tile is placed while the steps go on
  else write_legal(out, *g);
  each_part(g->rules(), [&](const ProtocolPart& part) {
    if (part.turn_keys != nullptr) part.turn_keys(*g, out);
  });
  out += R"(,"deadline":)";
  append_opt_int(out, f.deadline_ms);
  out += '}';
}

namespace {
// What every board entry starts with: where, which tile, how it is turned.
void write_board_tile_head(std::string& out, const BoardTile& t) {
  out += R"({"x":)";
  append_int(out, t.cell.x);
  out += R"(,"y":)";
  append_int(out, t.cell.y);
  out += R"(,"tile":)";
  append_letter(out, t.tile);
  out += R"(,"rotation":)";
  append_int(out, t.rotation.degrees());
}
}  // namespace

void write_board_tile(std::string& out, const BoardTile& t) {
  write_board_tile_head(out, t);
  out += R"(,"meeple":)";
  write_meeple(out, t.meeple_seat, t.meeple_port, t.figure);
  out += '}';
}

void write_board_tile_list(std::string& out, const BoardTile& t, std::string_view figures) {
  write_board_tile_head(out, t);
  out += R"(,"meeples":)";
  out += figures;
  out += '}';
}

std::string board_figures(const Game* g, int index) {
  std::string out = "[";
  if (g != nullptr) {
    thread_local std::vector<Game::Standing> all;
    g->standing(all);
    bool first = true;
    for (const Game::Standing& s : all) {
      if (s.tile != index) continue;
      if (!first) out += ',';
      first = false;
      out += R"({"seat":)";
      append_int(out, s.seat);
      out += R"(,"at":)";
      append_name(out, port_name(s.port));
      if (s.figure != Figure::Meeple) {
        out += R"(,"figure":)";
        append_name(out, figure_name(s.figure));
      }
      out += '}';
    }
  }
  out += ']';
  return out;
}

std::vector<std::pair<std::string, std::string>> expansion_state_keys(const RoomFacts& f) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string text;
  const Ruleset& rules = f.settings.rules();
  each_part(rules, [&](const ProtocolPart& part) {
    if (part.state_keys != nullptr) part.state_keys(f.game, rules, text);
  });
  if (text.empty()) return out;
  text[0] = '{';  // the keys each start with a comma
  text += '}';
  const json keys = json::parse(text, nullptr, false);  // the parts' own text; discarded if ever malformed
  if (keys.is_discarded()) return out;
  for (auto it = keys.begin(); it != keys.end(); ++it) out.emplace_back(it.key(), json_text(it.value()));
  return out;
}
void write_chat_line(std::string& out, const ChatLine& c) {
  out += R"({"id":)";
  append_int(out, c.id);
  out += R"(,"seat":)";
  append_opt_int(out, c.seat);
  out += R"(,"name":)";
  append_json_string(out, c.name);
  out += R"(,"text":)";
  append_json_string(out, c.text);
  out += R"(,"time":)";
  append_int(out, c.time_ms);
  out += '}';
}

void write_settings(std::string& out, const ClockSettings& s) {
  out += R"({"turn_seconds":)";
  append_opt_int(out, s.turn_seconds);
  out += R"(,"away_seconds":)";
  append_opt_int(out, s.away_seconds);
  out += R"(,"expansions":[)";
  bool first = true;
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (!s.expansions.has(static_cast<Expansion>(e))) continue;
    if (!first) out += ',';
    first = false;
    append_name(out, expansion_name(static_cast<Expansion>(e)));
  }
  out += ']';
  out += R"(,"options":[)";
  first = true;
  for (int o = 0; o < kOptionKinds; ++o) {
    if (!s.options.has(static_cast<Option>(o))) continue;
    if (!first) out += ',';
    first = false;
    append_name(out, option_name(static_cast<Option>(o)));
  }
  out += ']';
  out += R"(,"pace":)";
  append_name(out, pace_name(s.pace));
  out += R"(,"bank_seconds":)";
  append_int(out, s.bank_seconds);
  out += R"(,"increment_seconds":)";
  append_int(out, s.increment_seconds);
  out += R"(,"webhook":)";
  append_bool(out, s.webhook);
  out += R"(,"hints":)";
  append_bool(out, s.hints);
  out += '}';
}

void write_state(std::string& out, const RoomFacts& f, const EventHistory& events, const std::deque<ChatLine>& chat) {
  out += R"({"room":)";
  append_json_string(out, f.room);
  out += R"(,"phase":)";
  append_name(out, phase_name(f.phase));
  out += R"(,"players":)";
  write_players(out, f);
  out += R"(,"turn":)";
  write_turn(out, f);
  out += R"(,"board":[)";
  const bool lists = figure_lists(f.settings.expansions);
  if (f.game == nullptr) {
    const BoardTile start{f.settings.rules().start, Cell{0, 0}, Rotation{}, std::nullopt, std::nullopt,
                          Figure::Meeple};
    if (lists) write_board_tile_list(out, start, "[]");
    else write_board_tile(out, start);
  } else {
    int index = 0;
    for (const BoardTile& t : f.game->board()) {
      if (index > 0) out += ',';
      if (lists) write_board_tile_list(out, t, board_figures(f.game, index));
      else write_board_tile(out, t);
      ++index;
    }
  }
  out += R"(],"bag":)";
  write_bag(out, f.game, f.settings.rules());
  each_part(f.settings.rules(), [&](const ProtocolPart& part) {
    if (part.state_keys != nullptr) part.state_keys(f.game, f.settings.rules(), out);
  });
  out += R"(,"spectators":)";
  append_int(out, f.spectators);
  out += R"(,"events":)";
  events.write_json(out);
  out += R"(,"chat":[)";
  bool first = true;
  for (const ChatLine& c : chat) {
    if (!first) out += ',';
    first = false;
    write_chat_line(out, c);
  }
  out += R"(],"result":)";
  if (f.result.empty()) out += "null";
  else out += f.result;
  out += R"(,"settings":)";
  write_settings(out, f.settings);
  out += R"(,"rematch":)";
  if (f.rematch.empty()) out += "null";
  else append_json_string(out, f.rematch);
  out += '}';
}

}  // namespace carc::protocol
