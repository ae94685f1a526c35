// The game's setup and turns: the seeded bag, drawing, whose turn it is, checking and
// playing a move. Legality queries are in game_queries.cpp and game_segments.cpp; the
// feature forest in game_features.cpp, scoring in game_scoring.cpp, the figures on the
// board in game_figures.cpp.
#include "carc/core/game.hpp"

#include <algorithm>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc {

using detail::kNoSeg;
using detail::kTables;
using detail::Oriented;
using detail::oriented;

std::string_view rule_error_name(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return "game_over";
    case RuleError::NotYourTurn: return "not_your_turn";
    case RuleError::WrongTile: return "wrong_tile";
    case RuleError::TileExhausted: return "tile_exhausted";
    case RuleError::IllegalPlacement: return "illegal_placement";
    case RuleError::IllegalMeeple: return "illegal_meeple";
    case RuleError::IllegalDiscard: return "illegal_discard";
    case RuleError::IllegalReturn: return "illegal_return";
    case RuleError::IllegalTarget: return "illegal_target";
    case RuleError::IllegalStep: return "illegal_step";
  }
  return "unknown";
}

std::string_view rule_error_message(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return "the game is over: nobody holds a tile";
    case RuleError::NotYourTurn: return "it is not this seat's turn";
    case RuleError::WrongTile: return "this is not the tile the player holds";
    case RuleError::TileExhausted: return "more copies of this tile than the game's tile set holds";
    case RuleError::IllegalPlacement:
      return "the tile cannot go there: the cell must be empty, touch a placed tile and match every edge (a tile an "
             "expansion places goes where that expansion's rules allow)";
    case RuleError::IllegalMeeple:
      return "no meeple can go there: not a feature of this tile this figure may take, the feature is occupied, "
             "or none is left";
    case RuleError::IllegalReturn:
      return "no such action there: the game has no action instead of a figure, or this placement does not offer "
             "this player's at that cell";
    case RuleError::IllegalDiscard: return "the tile has a legal placement, so it cannot be discarded";
    case RuleError::IllegalTarget:
      return "no such action there: this placement does not offer this action at that figure";
    case RuleError::IllegalStep:
      return "no such step: no step is due, or the rules do not allow one to that tile";
  }
  return "unknown error";
}

// ---------------------------------------------------------------- Rng


// ---------------------------------------------------------------- setup

Game Game::seeded(int players, std::uint64_t seed, std::vector<Event>* events) {
  return seeded(players, seed, ExpansionSet{}, events);
}

// Each pile in catalog order (Ruleset::unshuffled), shuffled from `seed`: the land bag first
// (so a base game's bag is what it always was), then the other piles in draw order; the
// tiles held back wait after their pile, unshuffled.
Game Game::seeded(int players, std::uint64_t seed, ExpansionSet expansions, std::vector<Event>* events) {
  return seeded(players, seed, expansions, OptionSet{}, events);
}

// Options change no tile: a game with options draws the bag of the same seed without them.
Game Game::seeded(int players, std::uint64_t seed, ExpansionSet expansions, OptionSet options,
                  std::vector<Event>* events) {
  Game g;
  g.seeded_ = true;
  g.seed_ = seed;
  const Ruleset& rules = ruleset(expansions, options);
  const int land = rules.piles - 1;
  Rng rng(seed);
  std::array<int, 4> begin{};
  for (int p = 1; p < rules.piles; ++p) begin[static_cast<std::size_t>(p)] = begin[static_cast<std::size_t>(p - 1)] + rules.pile_size[static_cast<std::size_t>(p - 1)];
  std::copy_n(rules.unshuffled.begin(), rules.bag_size, g.bag_.begin());
  auto shuffle_pile = [&](int p) {
    const int first = begin[static_cast<std::size_t>(p)];
    for (int i = rules.pile_shuffled[static_cast<std::size_t>(p)] - 1; i > 0; --i) {
      const auto j = rng.below(static_cast<std::uint32_t>(i + 1));
      std::swap(g.bag_[static_cast<std::size_t>(first + i)], g.bag_[static_cast<std::size_t>(first) + j]);
    }
  };
  shuffle_pile(land);
  for (int p = 0; p < land; ++p) shuffle_pile(p);
  g.start(players, rules, events);
  return g;
}

Game Game::replay(int players, ExpansionSet expansions, OptionSet options) {
  Game g;
  g.seeded_ = false;
  g.start(players, ruleset(expansions, options), nullptr);
  return g;
}

void Game::start(int players, const Ruleset& rules, std::vector<Event>* events) {
  rules_ = &rules;
  for (const GridLayout& l : kGridLayouts) {
    grid_stride_ = l.stride;
    grid_mask_ = l.slots - 1;
    if (rules.bag_size + 1 <= l.max_tiles) break;
  }
  std::fill(grid_.begin(), grid_.begin() + grid_mask_ + 1, std::uint16_t{0});
  players_ = static_cast<std::uint8_t>(std::clamp(players, kMinPlayers, rules.max_players));
  for (int k = 0; k < kTileKinds; ++k) unseen_[static_cast<std::size_t>(k)] = rules.counts[static_cast<std::size_t>(k)];
  unseen_[static_cast<std::size_t>(rules.start)]--;
  held_.fill(kNone);
  bag_end_ = static_cast<std::uint8_t>(rules.bag_size - rules.held_back_count);
  release_draw_ = kNone;
  for (auto& s : supply_) s.fill(0);
  for (int s = 0; s < players_; ++s) supply_[static_cast<std::size_t>(s)] = rules.figures;
  place(rules.start, Placement{{0, 0}, Rotation{}}, -1, -1, std::nullopt, Figure::Meeple, nullptr);
  for (int s = 0; s < players_; ++s) draw(s, events);
  current_ = 0;
  turn_start_due_ = rules.start_hooks;
  if (seeded_) settle(events);
}

// ---------------------------------------------------------------- copies

namespace {
// copy_from() rewrites only the cells in use when they are at most one slot in this many: a
// base game's 8 KB layout copies faster whole (measured), the 32 KB of every expansion not.
constexpr int kSparseCopyRatio = 32;
}  // namespace

void Game::copy_from(const Game& o) {
  const auto prefix = [](auto& to, const auto& from, std::size_t n) {
    std::copy(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(n), to.begin());
  };
  // The grid is nonzero only at the placed tiles' and the frontier's cells (lay(),
  // add_frontier(), remove_frontier()). A game assigned over another of the same layout
  // clears its own cells and writes the other's, a few hundred slots instead of all 32 KB
  // of the largest layout (the search assigns a game every playout: docs/bots.md). A new
  // game (rules_ null: nothing in its grid is known) copies the whole layout.
  const int touched = placed_count_ + frontier_count_ + o.placed_count_ + o.frontier_count_;
  const bool sparse = rules_ != nullptr && grid_mask_ == o.grid_mask_ && grid_stride_ == o.grid_stride_ &&
                      touched * kSparseCopyRatio <= grid_mask_ + 1;
  if (sparse) {
    for (int i = 0; i < placed_count_; ++i) {
      const Placed& p = placed_[static_cast<std::size_t>(i)];
      grid_[static_cast<std::size_t>(grid_index(Cell{p.x, p.y}))] = 0;
    }
    for (int i = 0; i < frontier_count_; ++i) {
      const FrontierCell& f = frontier_[static_cast<std::size_t>(i)];
      grid_[static_cast<std::size_t>(grid_index(Cell{f.x, f.y}))] = 0;
    }
    for (int i = 0; i < o.placed_count_; ++i) {
      const Placed& p = o.placed_[static_cast<std::size_t>(i)];
      const auto k = static_cast<std::size_t>(grid_index(Cell{p.x, p.y}));
      grid_[k] = o.grid_[k];
    }
    for (int i = 0; i < o.frontier_count_; ++i) {
      const FrontierCell& f = o.frontier_[static_cast<std::size_t>(i)];
      const auto k = static_cast<std::size_t>(grid_index(Cell{f.x, f.y}));
      grid_[k] = o.grid_[k];
    }
  } else {
    prefix(grid_, o.grid_, static_cast<std::size_t>(o.grid_mask_) + 1);
  }
  prefix(placed_, o.placed_, o.placed_count_);
  prefix(nodes_, o.nodes_, o.node_count_);
  prefix(frontier_want_, o.frontier_want_, o.frontier_count_);
  prefix(frontier_, o.frontier_, o.frontier_count_);
  if (o.rules_ != nullptr) prefix(bag_, o.bag_, static_cast<std::size_t>(o.rules_->bag_size));
  grid_stride_ = o.grid_stride_;
  grid_mask_ = o.grid_mask_;
  unseen_ = o.unseen_;
  scores_ = o.scores_;
  supply_ = o.supply_;
  held_ = o.held_;
  held_draw_ = o.held_draw_;
  part_state_ = o.part_state_;
  extra_ = o.extra_;
  extra_due_ = o.extra_due_;
  stage_ = o.stage_;
  fixed_order_ = o.fixed_order_;
  turn_start_due_ = o.turn_start_due_;
  stage_step_ = o.stage_step_;
  stage_index_ = o.stage_index_;
  bag_end_ = o.bag_end_;
  release_draw_ = o.release_draw_;
  spare_count_ = o.spare_count_;
  std::copy(o.spare_.begin(), o.spare_.begin() + o.spare_count_, spare_.begin());
  rules_ = o.rules_;
  seed_ = o.seed_;
  node_count_ = o.node_count_;
  frontier_count_ = o.frontier_count_;
  placed_count_ = o.placed_count_;
  drawn_ = o.drawn_;
  players_ = o.players_;
  min_x_ = o.min_x_;
  max_x_ = o.max_x_;
  min_y_ = o.min_y_;
  max_y_ = o.max_y_;
  monks_ = o.monks_;
  free_cache_ = o.free_cache_;
  free_cache_key_ = o.free_cache_key_;
  owned_cache_ = o.owned_cache_;
  owned_cache_key_ = o.owned_cache_key_;
  current_ = o.current_;
  moves_ = o.moves_;
  phase_ = o.phase_;
  seeded_ = o.seeded_;
}

// ---------------------------------------------------------------- hidden information

bool Game::reorder_bag(std::span<const Tile> order) {
  if (!seeded_ || static_cast<int>(order.size()) != bag_left()) return false;
  std::array<std::uint8_t, kTileKinds> counts{};
  int draw = drawn_;
  for (const Tile t : order) {
    const auto k = static_cast<std::size_t>(t);
    if (k >= counts.size() || ++counts[k] > unseen_[k]) return false;
    if (rules_->pile[k] != rules_->pile_of_draw(draw++)) return false;  // each pile keeps its place
  }
  std::copy(order.begin(), order.end(), bag_.begin() + drawn_);
  seed_ = 0;
  return true;
}

std::uint8_t Game::fitting_rotations(Tile t, std::uint16_t want) {
  return kTables.fits[static_cast<std::size_t>(t)][want];
}

// ---------------------------------------------------------------- turns

void Game::draw(Seat s, std::vector<Event>* events, bool extra) {
  auto& h = held_[static_cast<std::size_t>(s)];
  if (drawn_ >= bag_end_) {
    h = kNone;
    return;
  }
  held_draw_[static_cast<std::size_t>(s)] = drawn_;
  if (seeded_) {
    const Tile t = bag_[drawn_];
    h = static_cast<std::uint8_t>(t);
    unseen_[static_cast<std::size_t>(t)]--;
    if (events != nullptr) events->push_back(TileDrawn{s, t, extra});
  } else {
    h = kUnknown;
  }
  ++drawn_;
}

void Game::advance_turn() {
  extra_ = false;
  for (int i = 1; i <= players_; ++i) {
    const Seat s = (current_ + i) % players_;
    if (held_[static_cast<std::size_t>(s)] != kNone) {
      current_ = s;
      turn_start_due_ = rules_->start_hooks;
      return;
    }
  }
}

// What happens at the start of a turn, before its discard or placement (Part::turn_started),
// once: asked by the turn's first move, so that it counts in that move's record row.
void Game::run_turn_start(std::vector<Event>* events) {
  turn_start_due_ = false;
  for (int i = 0; i < rules_->part_count; ++i) {
    const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
    if (part->turn_started != nullptr) part->turn_started(*this, current_, events);
  }
}

void Game::settle(std::vector<Event>* events) {
  while (phase_ == Phase::Playing) {
    if (!anyone_holds()) {
      finish(events);
      return;
    }
    if (!holds(current_)) advance_turn();
    if (stage_) return;
    const Tile t = static_cast<Tile>(held_[static_cast<std::size_t>(current_)]);
    if (has_legal_placement(t)) return;
    start_turn(events);
    if (events != nullptr) events->push_back(TileDiscarded{current_, t, extra_});
    ++moves_;
    held_[static_cast<std::size_t>(current_)] = kNone;
    draw(current_, events, extra_);
    if (!holds(current_)) advance_turn();
  }
}

std::optional<RuleError> Game::check(const Move& m, int* meeple_seg, int* figure_tile) const {
  *meeple_seg = -1;
  *figure_tile = -1;
  if (phase_ == Phase::Finished || !anyone_holds() || !holds(current_)) return RuleError::GameOver;
  if (stage_) return RuleError::NotYourTurn;  // a step is due (Move::step), from acting_seat()
  if (static_cast<int>(m.tile) >= kTileKinds) return RuleError::WrongTile;
  const std::uint8_t h = held_[static_cast<std::size_t>(current_)];
  if (h == kUnknown) {
    // A replay names the tile: one of the set, from the pile this seat's draw came from, and
    // not a held-back tile unless the draw came after they joined the bag.
    if (rules_->pile[static_cast<std::size_t>(m.tile)] !=
        rules_->pile_of_draw(held_draw_[static_cast<std::size_t>(current_)])) {
      return RuleError::WrongTile;
    }
    if (rules_->held_back[static_cast<std::size_t>(m.tile)] != 0 &&
        (release_draw_ == kNone || held_draw_[static_cast<std::size_t>(current_)] < release_draw_)) {
      return RuleError::WrongTile;
    }
    if (unseen_[static_cast<std::size_t>(m.tile)] == 0) return RuleError::TileExhausted;
  } else if (h != static_cast<std::uint8_t>(m.tile)) {
    return RuleError::WrongTile;
  }
  if (m.type == Move::Type::Discard) {
    if (has_legal_placement(m.tile)) return RuleError::IllegalDiscard;
    return std::nullopt;
  }
  if (m.type != Move::Type::Place) return RuleError::IllegalStep;
  if (!is_legal_placement(m.tile, m.placement)) return RuleError::IllegalPlacement;
  if (m.action && m.action_kind != 0) {
    if (m.meeple) return RuleError::IllegalTarget;  // a figure and an action together
    return check_target(m);
  }
  if (m.action) {
    if (m.meeple) return RuleError::IllegalReturn;  // a figure and an action together
    const std::optional<Cell> offer = action_offer(m.tile, m.placement, current_);
    if (!offer || !(*offer == *m.action)) return RuleError::IllegalReturn;
  }
  if (m.figure_cell) {
    if (!m.meeple) return RuleError::IllegalMeeple;
    return check_elsewhere(m, figure_tile, meeple_seg);
  }
  if (m.meeple) {
    const auto f = static_cast<std::size_t>(m.figure);
    if (f >= static_cast<std::size_t>(kFigureKinds) || supply_[static_cast<std::size_t>(current_)][f] == 0) {
      return RuleError::IllegalMeeple;
    }
    const Oriented& o = oriented(m.tile, m.placement.rotation.quarter_turns());
    const std::uint8_t seg = o.seg_at[static_cast<std::size_t>(*m.meeple)];
    if (seg == kNoSeg) return RuleError::IllegalMeeple;
    const Kind kind = tile_def(m.tile).segments[seg].kind;
    if (((rules_->figure_kinds[f] >> static_cast<int>(kind)) & 1) == 0) return RuleError::IllegalMeeple;
    if (((figure_segments(m.tile, m.placement, current_, m.figure) >> seg) & 1) == 0) return RuleError::IllegalMeeple;
    *meeple_seg = seg;
  }
  return std::nullopt;
}

std::optional<RuleError> Game::check_target(const Move& m) const {
  if (rules_->target_part == nullptr || m.action_kind >= 8 || ((rules_->target_kinds >> m.action_kind) & 1) == 0 ||
      !m.action_port) {
    return RuleError::IllegalTarget;
  }
  std::vector<Spot> targets;
  action_targets(m.tile, m.placement, current_, m.action_kind, targets);
  // A target is a figure: any port of the segment it stands on names it.
  const int index = placed_at(*m.action);
  if (index < 0) return RuleError::IllegalTarget;
  const Placed& at = placed_[static_cast<std::size_t>(index)];
  const Oriented& o = oriented(at.tile, at.rotation);
  const std::uint8_t seg = o.seg_at[static_cast<std::size_t>(*m.action_port)];
  for (const Spot& s : targets) {
    if (s.cell == *m.action && seg != kNoSeg && o.seg_at[static_cast<std::size_t>(s.port)] == seg) return std::nullopt;
  }
  return RuleError::IllegalTarget;
}

std::optional<RuleError> Game::play(const Move& m, std::vector<Event>* events) {
  if (m.type == Move::Type::Step) return play_step(m, events);
  int meeple_seg = -1;
  int figure_tile = -1;
  if (auto err = check(m, &meeple_seg, &figure_tile)) return err;
  start_turn(events);
  const Seat seat = current_;
  auto& h = held_[static_cast<std::size_t>(seat)];
  if (h == kUnknown) unseen_[static_cast<std::size_t>(m.tile)]--;
  h = kNone;
  ++moves_;
  if (m.type == Move::Type::Discard) {
    if (events != nullptr) events->push_back(TileDiscarded{seat, m.tile, extra_});
    draw(seat, events, extra_);
    if (!holds(seat)) advance_turn();
  } else {
    const int index = place(m.tile, m.placement, seat, meeple_seg, meeple_seg >= 0 ? m.meeple : std::nullopt, m.figure,
                            events, &m, figure_tile);
    // A series of steps inside the turn (Ruleset::stage_part): the placement is scored when
    // it ends (play_step).
    if (const detail::Part* part = rules_->stage_part; part != nullptr && part->steps_begin(*this, seat, index, events)) {
      std::vector<Cell> options;
      part->step_options(*this, options);
      if (!options.empty()) {
        stage_ = true;
        stage_step_ = 0;
        stage_index_ = static_cast<std::uint8_t>(index);
        return std::nullopt;
      }
    }
    finish_placement(seat, index, events);
  }
  if (seeded_) settle(events);
  return std::nullopt;
}

// Scoring what the placement completed, the extra part of the turn or the draw, and the
// next turn.
void Game::finish_placement(Seat seat, int index, std::vector<Event>* events) {
  score_completed(index, seat, events);
  // An extra part of the turn (Part::grants_extra, docs/expansions.md): its tile is drawn only
  // now, after part 1's scoring, and the seat keeps the turn; the other seats' held tiles
  // never change.
  const bool due = extra_due_;
  extra_due_ = false;
  draw(seat, events, due);
  if (due && holds(seat)) {
    extra_ = true;
  } else {
    advance_turn();
  }
}

std::optional<RuleError> Game::play_step(const Move& m, std::vector<Event>* events) {
  if (phase_ == Phase::Finished) return RuleError::GameOver;
  if (!stage_) return RuleError::IllegalStep;
  std::vector<Cell> options;
  const detail::Part* part = rules_->stage_part;
  part->step_options(*this, options);
  if (std::find(options.begin(), options.end(), m.placement.cell) == options.end()) return RuleError::IllegalStep;
  const Seat seat = acting_seat();
  part->step(*this, seat, m.placement.cell, events);
  ++stage_step_;
  options.clear();
  part->step_options(*this, options);
  if (options.empty()) {
    stage_ = false;
    stage_step_ = 0;
    finish_placement(current_, stage_index_, events);
    if (seeded_) settle(events);
  }
  return std::nullopt;
}

void Game::step_options(std::vector<Cell>& out) const {
  out.clear();
  if (stage_) rules_->stage_part->step_options(*this, out);
}

void Game::action_targets(Tile t, Placement p, Seat seat, std::uint8_t kind, std::vector<Spot>& out) const {
  out.clear();
  if (rules_->target_part == nullptr || kind >= 8 || ((rules_->target_kinds >> kind) & 1) == 0) return;
  rules_->target_part->action_targets(*this, seat, kind, t, p, out);
}

// The held-back tiles join the bag (Ruleset::held_back): a seeded game shuffles them into
// the tiles not drawn yet, from its seed and the number of tiles drawn.
void Game::release_held_back(Seat seat, std::vector<Event>* events) {
  if (release_draw_ != kNone) return;
  release_draw_ = drawn_;
  bag_end_ = static_cast<std::uint8_t>(rules_->bag_size);
  if (seeded_ && !fixed_order_) {
    Rng rng(seed_ ^ (0xD6E8FEB86659FD93ull * (static_cast<std::uint64_t>(drawn_) + 1)));
    const int first = drawn_;
    const int n = bag_end_ - first;
    for (int i = n - 1; i > 0; --i) {
      const auto j = rng.below(static_cast<std::uint32_t>(i + 1));
      std::swap(bag_[static_cast<std::size_t>(first + i)], bag_[static_cast<std::size_t>(first) + j]);
    }
  }
  for (int i = 1; i < players_; ++i) {
    const Seat s = (seat + i) % players_;
    if (held_[static_cast<std::size_t>(s)] == kNone) draw(s, events);
  }
}

std::variant<Applied, RuleError> apply(const Game& g, Seat seat, const Move& m) {
  if (g.in_stage()) {
    if (g.finished()) return RuleError::GameOver;
    if (seat != g.acting_seat() || m.type != Move::Type::Step) return RuleError::NotYourTurn;
  } else if (seat != g.current_seat() || !g.holds(seat)) {
    if (!g.anyone_holds() || g.finished()) return RuleError::GameOver;
    return RuleError::NotYourTurn;
  }
  Applied out{g, {}};
  if (auto err = out.game.play(m, &out.events)) return *err;
  return out;
}

}  // namespace carc
