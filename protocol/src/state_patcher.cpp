// StatePatcher (room_state.hpp): the RFC 6902 operations one change makes to the public
// state, from what the change touched.
#include "carc/protocol/json_text.hpp"
#include "carc/protocol/room_state.hpp"
#include "expansions/part.hpp"
#include "room_state_parts.hpp"

namespace carc::protocol {

using namespace detail;


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
                    figures_of(f, seat),
                    tokens_of(f, seat)};
}

std::optional<std::array<int, 4>> StatePatcher::turn_key(const RoomFacts& f) {
  const Game* g = f.game;
  if (f.phase != RoomPhase::Playing || g == nullptr || g->finished()) return std::nullopt;
  const auto held = g->held(g->current_seat());
  if (!held && !g->in_stage()) return std::nullopt;
  return std::array<int, 4>{g->moves_played() + 1, g->current_seat(), held ? static_cast<int>(*held) : -1,
                            g->in_stage() ? g->stage_step() : 0};
}

void StatePatcher::keep_bag(const std::array<int, kTileKinds>& bag) {
  for (std::size_t i = 0; i < bag.size(); ++i) bag_[i] = static_cast<std::uint8_t>(bag[i]);
}

void StatePatcher::reset(const RoomFacts& f, int board_size, int chat_size) {
  seats_.clear();
  for (std::size_t i = 0; i < f.seats.size(); ++i) seats_.push_back(seat_of(f, static_cast<int>(i)));
  phase_ = f.phase;
  spectators_ = f.spectators;
  settings_ = f.settings;
  rematch_ = std::string(f.rematch);
  result_ = !f.result.empty();
  keep_bag(bag_of(f.game, f.settings.rules(), &bag_left_));
  turn_ = turn_key(f);
  deadline_ = f.deadline_ms;
  keys_ = expansion_state_keys(f);
  lists_ = figure_lists(f.settings.expansions);
  figures_.clear();
  if (lists_) {
    for (int i = 0; i < board_size; ++i) figures_.push_back(board_figures(f.game, i));
  }
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
  const BoardTile t{p.tile, p.cell, p.rotation, p.meeple ? std::optional<Seat>(seat) : std::nullopt, p.meeple, p.figure};
  if (lists_) {
    // Its figures come with the next sync (board_figures_changed): a figure may stand on
    // another tile than this one.
    write_board_tile_list(value(), t, "[]");
    figures_.emplace_back("[]");
  } else {
    write_board_tile(value(), t);
  }
  frame_ += '}';
}

void StatePatcher::meeple_returned(int tile_index) {
  if (lists_) return;  // the lists are compared as a whole (board_figures_changed)
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
      write_figures(field("figures"), f.settings.rules(), now.figures);
      frame_ += '}';
    }
    if (const ProtocolPart* tokens = token_part(f); tokens != nullptr && now.tokens != was.tokens) {
      write_tokens(field(tokens->tokens_key), *tokens, f.settings.rules().token_kinds, now.tokens);
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

void StatePatcher::board_figures_changed(const RoomFacts& f) {
  if (!lists_ || f.game == nullptr) return;
  for (std::size_t i = 0; i < figures_.size(); ++i) {
    std::string now = board_figures(f.game, static_cast<int>(i));
    if (now == figures_[i]) continue;
    append_int(op("replace", "/board/"), static_cast<std::int64_t>(i));
    frame_ += "/meeples";
    value() += now;
    frame_ += '}';
    figures_[i] = std::move(now);
  }
}

void StatePatcher::expansion_keys(const RoomFacts& f) {
  auto now = expansion_state_keys(f);
  if (now == keys_) return;
  const auto find = [](const auto& list, const std::string& key) {
    for (const auto& kv : list) {
      if (kv.first == key) return &kv;
    }
    return static_cast<const std::pair<std::string, std::string>*>(nullptr);
  };
  for (const auto& [key, text] : keys_) {
    if (find(now, key) == nullptr) op("remove", "/") += key + "\"}";
  }
  for (const auto& [key, text] : now) {
    const auto* was = find(keys_, key);
    if (was != nullptr && was->second == text) continue;
    op(was != nullptr ? "replace" : "add", "/") += key;
    value() += text;
    frame_ += '}';
  }
  keys_ = std::move(now);
}

void StatePatcher::sync(const RoomFacts& f) {
  if (!(f.settings.expansions == settings_.expansions && f.settings.options == settings_.options)) {
    lists_ = figure_lists(f.settings.expansions);
    figures_.assign(lists_ ? 1 : 0, "[]");
    // The host changed the expansions in the lobby: the bag's kinds change, and the start
    // tile and the players' figures with them.
    write_bag(replace("/bag"), f.game, f.settings.rules());
    frame_ += '}';
    keep_bag(bag_of(f.game, f.settings.rules(), &bag_left_));
    const BoardTile start{f.settings.rules().start, Cell{0, 0}, Rotation{}, std::nullopt, std::nullopt,
                          Figure::Meeple};
    if (lists_) write_board_tile_list(replace("/board/0"), start, "[]");
    else write_board_tile(replace("/board/0"), start);
    frame_ += '}';
    write_players(replace("/players"), f);
    frame_ += '}';
    seats_.clear();
    for (std::size_t i = 0; i < f.seats.size(); ++i) seats_.push_back(seat_of(f, static_cast<int>(i)));
  }
  players(f);
  board_figures_changed(f);
  expansion_keys(f);
  if (f.phase != phase_) {
    append_name(replace("/phase"), phase_name(f.phase));
    frame_ += '}';
    phase_ = f.phase;
  }
  int left = 0;
  const auto bag = bag_of(f.game, f.settings.rules(), &left);
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
    bag_[i] = static_cast<std::uint8_t>(bag[i]);
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
