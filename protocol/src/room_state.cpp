#include "carc/protocol/room_state.hpp"

#include "carc/protocol/json_text.hpp"

namespace carc::protocol {
namespace {

constexpr std::array<std::string_view, 3> kPhaseNames = {"lobby", "playing", "finished"};
constexpr std::array<std::string_view, kMaxPlayers> kColors = {"red", "blue", "green", "yellow", "black", "pink"};

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
  const Ruleset& rules = ruleset(f.settings.expansions);
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
bool in_bag_list(const Ruleset& rules, int k) {
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

void write_meeple(std::string& out, std::optional<Seat> seat, std::optional<Port> port, Figure figure) {
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

}  // namespace

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
  if (const Ruleset& rules = ruleset(f.settings.expansions); rules.has_specials) {
    out += R"(,"figures":)";
    write_figures(out, rules, figures_of(f, seat));
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
    if (rules.action != nullptr) {
      out += R"(,"return":)";
      if (m.take_back) {
        out += R"({"x":)";
        append_int(out, m.take_back->x);
        out += R"(,"y":)";
        append_int(out, m.take_back->y);
        out += R"(},"return_points":)";
        append_int(out, m.take_back_points);
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
  if (f.phase != RoomPhase::Playing || g == nullptr || g->finished() || !held) {
    out += "null";
    return;
  }
  out += R"({"number":)";
  append_int(out, g->moves_played() + 1);
  out += R"(,"seat":)";
  append_int(out, g->current_seat());
  out += R"(,"tile":)";
  append_letter(out, held);
  out += R"(,"legal":)";
  write_legal(out, *g);
  out += R"(,"deadline":)";
  append_opt_int(out, f.deadline_ms);
  out += '}';
}

void write_board_tile(std::string& out, const BoardTile& t) {
  out += R"({"x":)";
  append_int(out, t.cell.x);
  out += R"(,"y":)";
  append_int(out, t.cell.y);
  out += R"(,"tile":)";
  append_letter(out, t.tile);
  out += R"(,"rotation":)";
  append_int(out, t.rotation.degrees());
  out += R"(,"meeple":)";
  write_meeple(out, t.meeple_seat, t.meeple_port, t.figure);
  out += '}';
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
  if (f.game == nullptr) {
    write_board_tile(out, BoardTile{ruleset(f.settings.expansions).start, Cell{0, 0}, Rotation{}, std::nullopt,
                                    std::nullopt, Figure::Meeple});
  } else {
    bool first = true;
    for (const BoardTile& t : f.game->board()) {
      if (!first) out += ',';
      first = false;
      write_board_tile(out, t);
    }
  }
  out += R"(],"bag":)";
  write_bag(out, f.game, ruleset(f.settings.expansions));
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
    out += R"(},"total":)";
    append_int(out, total);
    out += '}';
  }
  out += "]}";
  return out;
}

// ---------------------------------------------------------------------------------------
// StatePatcher

StatePatcher::SeatMirror StatePatcher::seat_of(const RoomFacts& f, int seat) {
  const SeatFacts& s = f.seats[static_cast<std::size_t>(seat)];
  return SeatMirror{std::string(s.name),
                    s.bot,
                    s.connected,
                    s.away,
                    seat == f.host,
                    s.bank_ms,
                    score_of(f, seat),
                    f.projected[static_cast<std::size_t>(seat) % kMaxPlayers],
                    meeples_of(f, seat),
                    s.hints,
                    tile_of(f, seat),
                    figures_of(f, seat)};
}

std::optional<std::array<int, 3>> StatePatcher::turn_key(const RoomFacts& f) {
  const Game* g = f.game;
  if (f.phase != RoomPhase::Playing || g == nullptr || g->finished()) return std::nullopt;
  const auto held = g->held(g->current_seat());
  if (!held) return std::nullopt;
  return std::array<int, 3>{g->moves_played() + 1, g->current_seat(), static_cast<int>(*held)};
}

void StatePatcher::reset(const RoomFacts& f, int board_size, int chat_size) {
  seats_.clear();
  for (std::size_t i = 0; i < f.seats.size(); ++i) seats_.push_back(seat_of(f, static_cast<int>(i)));
  phase_ = f.phase;
  spectators_ = f.spectators;
  settings_ = f.settings;
  rematch_ = std::string(f.rematch);
  result_ = !f.result.empty();
  bag_ = bag_of(f.game, ruleset(f.settings.expansions), &bag_left_);
  turn_ = turn_key(f);
  deadline_ = f.deadline_ms;
  board_size_ = board_size;
  chat_size_ = chat_size;
}

void StatePatcher::begin(std::int64_t version) {
  frame_.clear();
  frame_ += R"({"type":"patch","version":)";
  append_int(frame_, version);
  frame_ += R"(,"ops":[)";
  first_ = true;
}

std::string& StatePatcher::op(std::string_view kind, std::string_view path) {
  if (!first_) frame_ += ',';
  first_ = false;
  frame_ += R"({"op":")";
  frame_ += kind;
  frame_ += R"(","path":")";
  frame_ += path;
  return frame_;
}

std::string& StatePatcher::value() {
  frame_ += R"(","value":)";
  return frame_;
}

std::string& StatePatcher::replace(std::string_view path) {
  op("replace", path);
  return value();
}

void StatePatcher::board_added(const TilePlaced& p, int seat) {
  append_int(op("add", "/board/"), board_size_++);
  write_board_tile(value(), BoardTile{p.tile, p.cell, p.rotation, p.meeple ? std::optional<Seat>(seat) : std::nullopt,
                                      p.meeple, p.figure});
  frame_ += '}';
}

void StatePatcher::meeple_returned(int tile_index) {
  append_int(op("replace", "/board/"), tile_index);
  frame_ += "/meeple";
  value() += "null}";
}

void StatePatcher::game_events(EventHistory& history, const std::vector<Event>& events) {
  for (const Event& e : events) {
    if (const auto* p = std::get_if<TilePlaced>(&e)) board_added(*p, p->seat);
    else if (const auto* r = std::get_if<MeepleReturned>(&e)) meeple_returned(r->tile_index);
  }
  // The events' own adds come after the board's: a returned meeple's tile may be the one
  // just placed, and no event refers to the board.
  const std::size_t mark = frame_.size();
  history.append(events, &frame_);
  if (frame_.size() != mark && first_) {
    frame_.erase(mark, 1);  // the history writes a leading comma before each op
    first_ = false;
  }
}

void StatePatcher::events_started(EventHistory& history) {
  const std::size_t mark = frame_.size();
  history.append_started(&frame_);
  if (first_) {
    frame_.erase(mark, 1);
    first_ = false;
  }
}

void StatePatcher::chat_added(const ChatLine& c, bool dropped_first) {
  if (dropped_first) {
    op("remove", "/chat/0") += "\"}";
    --chat_size_;
  }
  append_int(op("add", "/chat/"), chat_size_++);
  write_chat_line(value(), c);
  frame_ += '}';
}

void StatePatcher::players(const RoomFacts& f) {
  const std::size_t n = f.seats.size();
  const auto same_seat = [&](std::size_t i) {
    return seats_[i].name == f.seats[i].name && seats_[i].bot == f.seats[i].bot;
  };
  const std::size_t common = std::min(n, seats_.size());
  bool shifted = n < seats_.size();
  for (std::size_t i = 0; i < common && !shifted; ++i) shifted = !same_seat(i);
  if (shifted) {
    // Seats moved (someone left or was removed): the lobby's small array, whole.
    write_players(replace("/players"), f);
    frame_ += '}';
    seats_.clear();
    for (std::size_t i = 0; i < n; ++i) seats_.push_back(seat_of(f, static_cast<int>(i)));
    return;
  }
  for (std::size_t i = 0; i < common; ++i) {
    SeatMirror now = seat_of(f, static_cast<int>(i));
    SeatMirror& was = seats_[i];
    const auto field = [&](std::string_view name) -> std::string& {
      append_int(op("replace", "/players/"), static_cast<std::int64_t>(i));
      frame_ += '/';
      frame_ += name;
      return value();
    };
    if (now.connected != was.connected) append_bool(field("connected"), now.connected), frame_ += '}';
    if (now.away != was.away) append_bool(field("away"), now.away), frame_ += '}';
    if (now.host != was.host) append_bool(field("host"), now.host), frame_ += '}';
    if (now.bank_ms != was.bank_ms) append_opt_int(field("bank_ms"), now.bank_ms), frame_ += '}';
    if (now.score != was.score) append_int(field("score"), now.score), frame_ += '}';
    if (now.projected != was.projected) append_int(field("projected"), now.projected), frame_ += '}';
    if (now.meeples != was.meeples) append_int(field("meeples"), now.meeples), frame_ += '}';
    if (now.hints != was.hints) append_int(field("hints"), now.hints), frame_ += '}';
    if (now.tile != was.tile) append_letter(field("tile"), now.tile), frame_ += '}';
    if (now.figures != was.figures) {
      write_figures(field("figures"), ruleset(f.settings.expansions), now.figures);
      frame_ += '}';
    }
    was = std::move(now);
  }
  for (std::size_t i = common; i < n; ++i) {
    append_int(op("add", "/players/"), static_cast<std::int64_t>(i));
    write_player(value(), f, static_cast<int>(i));
    frame_ += '}';
    seats_.push_back(seat_of(f, static_cast<int>(i)));
  }
}

void StatePatcher::sync(const RoomFacts& f) {
  if (!(f.settings.expansions == settings_.expansions)) {
    // The host changed the expansions in the lobby: the bag's kinds change, and the start
    // tile and the players' figures with them.
    write_bag(replace("/bag"), f.game, ruleset(f.settings.expansions));
    frame_ += '}';
    bag_ = bag_of(f.game, ruleset(f.settings.expansions), &bag_left_);
    write_board_tile(replace("/board/0"), BoardTile{ruleset(f.settings.expansions).start, Cell{0, 0}, Rotation{},
                                                    std::nullopt, std::nullopt, Figure::Meeple});
    frame_ += '}';
    write_players(replace("/players"), f);
    frame_ += '}';
    seats_.clear();
    for (std::size_t i = 0; i < f.seats.size(); ++i) seats_.push_back(seat_of(f, static_cast<int>(i)));
  }
  players(f);
  if (f.phase != phase_) {
    append_name(replace("/phase"), phase_name(f.phase));
    frame_ += '}';
    phase_ = f.phase;
  }
  int left = 0;
  const auto bag = bag_of(f.game, ruleset(f.settings.expansions), &left);
  if (left != bag_left_) {

    append_int(replace("/bag/left"), left);
    frame_ += '}';
    bag_left_ = left;
  }
  for (int k = 0; k < kTileKinds; ++k) {
    const auto i = static_cast<std::size_t>(k);
    if (bag[i] == bag_[i]) continue;
    op("replace", "/bag/tiles/") += tile_name(static_cast<Tile>(k));
    append_int(value(), bag[i]);
    frame_ += '}';
    bag_[i] = bag[i];
  }
  const auto turn = turn_key(f);
  if (turn != turn_ || (turn && f.deadline_ms != deadline_)) {
    write_turn(replace("/turn"), f);
    frame_ += '}';
    turn_ = turn;
    deadline_ = f.deadline_ms;
  }
  if (f.spectators != spectators_) {
    append_int(replace("/spectators"), f.spectators);
    frame_ += '}';
    spectators_ = f.spectators;
  }
  if (!(f.settings == settings_)) {
    write_settings(replace("/settings"), f.settings);
    frame_ += '}';
    settings_ = f.settings;
  }
  if (f.rematch != rematch_) {
    append_json_string(replace("/rematch"), f.rematch);
    frame_ += '}';
    rematch_ = std::string(f.rematch);
  }
  if (!f.result.empty() && !result_) {
    replace("/result") += f.result;
    frame_ += '}';
    result_ = true;
  }
}

std::size_t StatePatcher::memory_bytes() const {
  std::size_t n = frame_.capacity() + rematch_.capacity() + seats_.capacity() * sizeof(SeatMirror);
  for (const auto& s : seats_) n += s.name.capacity();
  return n;
}

std::string StatePatcher::take_frame() {
  frame_ += "]}";
  std::string out = std::move(frame_);
  frame_.clear();
  first_ = true;
  return out;
}

}  // namespace carc::protocol
