// The game state of one game and the rules that change it (docs/rules.md), with the rules of
// its expansions asked at fixed points (ruleset.hpp, docs/expansions.md).
//
// A Game is a plain value (no heap): copy it to branch, compare replays, or keep history.
// `play` mutates in place and reports what happened as events; `apply` is the pure form.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "carc/core/options.hpp"
#include "carc/core/tiles.hpp"

namespace carc {

using Seat = int;

struct Cell {
  int x = 0;
  int y = 0;
  constexpr bool operator==(const Cell&) const = default;
};

constexpr Cell neighbour(Cell c, Side s) {
  switch (s) {
    case Side::N: return {c.x, c.y - 1};
    case Side::E: return {c.x + 1, c.y};
    case Side::S: return {c.x, c.y + 1};
    case Side::W: return {c.x - 1, c.y};
  }
  return c;
}

// One port per feature of a tile that may take a meeple (at most one per segment).
struct PortList {
  std::array<Port, kMaxSegments> ports{};
  std::uint8_t size = 0;
  const Port* begin() const { return ports.data(); }
  const Port* end() const { return ports.data() + size; }
};

struct Placement {
  Cell cell;
  Rotation rotation;
  constexpr bool operator==(const Placement&) const = default;
};

// A whole turn: place `tile` (the one the player holds) with an optional figure (`meeple`
// is its port, `figure` which one), or with an expansion's action instead (`action`: the
// cell it names; Ruleset::action_part), or discard the tile when it has no legal placement.
// A Step is a move made inside another seat's turn (Game::in_stage(): an expansion's series
// of steps, each by the next seat in turn), `placement.cell` naming where it goes.
struct Move {
  enum class Type : std::uint8_t { Place, Discard, Step };
  Type type = Type::Place;
  Tile tile = Tile::A;
  Placement placement;
  std::optional<Port> meeple;  // board orientation
  Figure figure = Figure::Meeple;
  std::optional<Cell> action;  // the cell the action instead of a figure names
  // Records only: the entry belongs to an extra part of the turn (docs/expansions.md).
  // The engine knows when an extra part is due (Game::in_extra_part()); a record's mark
  // is checked against it there.
  bool extra = false;
  // The figure goes on another placed tile than this one (an expansion's Part::figure_elsewhere),
  // `meeple` naming the port on that tile; nullopt: on the placed tile.
  std::optional<Cell> figure_cell = {};
  // Which action instead of a figure `action` is (0: the one Ruleset::action_part offers;
  // others: Ruleset::target_part's, which also name a port, `action_port`).
  std::uint8_t action_kind = 0;
  std::optional<Port> action_port = {};

  static Move place(Tile t, Cell c, Rotation r, std::optional<Port> meeple = std::nullopt,
                    Figure figure = Figure::Meeple) {
    return Move{Type::Place, t, Placement{c, r}, meeple, figure, std::nullopt, false};
  }
  static Move place_with_action(Tile t, Cell c, Rotation r, Cell at) {
    return Move{Type::Place, t, Placement{c, r}, std::nullopt, Figure::Meeple, at, false};
  }
  static Move discard(Tile t) { return Move{Type::Discard, t, {}, std::nullopt, Figure::Meeple, std::nullopt, false}; }
  static Move step(Cell to) { return Move{Type::Step, Tile::A, Placement{to, Rotation{}}, std::nullopt, Figure::Meeple, std::nullopt, false}; }
  static Move place_with_target(Tile t, Cell c, Rotation r, std::uint8_t kind, Cell at, Port port) {
    Move m = place(t, c, r);
    m.action = at;
    m.action_kind = kind;
    m.action_port = port;
    return m;
  }
};

// Why a move was refused. Stable names via rule_error_name().
enum class RuleError : std::uint8_t {
  GameOver,          // nobody holds a tile, or the game was finished
  NotYourTurn,       // apply(): the seat is not the current seat
  WrongTile,         // the move's tile is not the tile the player holds
  TileExhausted,     // more copies of this letter than the 72-tile set holds
  IllegalPlacement,  // occupied cell, no neighbour, or an edge that does not match
  IllegalMeeple,     // not a port of the tile, occupied feature, or empty supply
  IllegalDiscard,    // the tile has a legal placement
  IllegalReturn,     // the move's action (instead of a figure) is not offered with this placement
  IllegalTarget,     // an action with a target (cell and port) the rules do not offer there
  IllegalStep,       // a step inside a turn that is not one of its options, or no step is due
};
std::string_view rule_error_name(RuleError e);     // "game_over", "wrong_tile", ...
std::string_view rule_error_message(RuleError e);  // human text

// ---- Events: what a move did, in order ----
struct TilePlaced {
  Seat seat;
  Tile tile;
  Cell cell;
  Rotation rotation;
  std::optional<Port> meeple;
  Figure figure = Figure::Meeple;
  std::optional<Cell> action = {};  // the action made instead of a figure (its cell)
  bool extra = false;               // the extra part of a turn (docs/expansions.md)
  std::optional<Cell> figure_cell = {};  // Move::figure_cell
  std::uint8_t action_kind = 0;
  std::optional<Port> action_port = {};
};
// The move that placed a tile, from its event (what a record lists).
inline Move move_of(const TilePlaced& p) {
  Move m = Move::place(p.tile, p.cell, p.rotation, p.meeple, p.meeple ? p.figure : Figure::Meeple);
  m.action = p.action;
  m.extra = p.extra;
  m.figure_cell = p.figure_cell;
  m.action_kind = p.action_kind;
  m.action_port = p.action_port;
  return m;
}

struct TileDiscarded {
  Seat seat;
  Tile tile;
  bool extra = false;  // inside an extra part of the turn
};
struct TileDrawn {  // public: held tiles are shown to everybody
  Seat seat;
  Tile tile;
  bool extra = false;  // the tile of an extra part of the turn: the seat keeps the turn
};
struct FeatureScored {
  Kind kind;
  bool end_of_game;
  int points;                                  // each winner gets this many
  std::vector<Seat> winners;                   // seats with the most meeples on it
  std::array<int, kMaxPlayers> meeples{};      // followers' strength on the feature per seat
  int tiles = 0;                               // distinct tiles
  int pennants = 0;
  int cities = 0;                              // fields: completed cities touching it
  std::vector<Cell> cells;                     // distinct tiles of the feature
  bool by_action = false;                      // scored by an action instead of a figure (Game::score_and_return)
  std::uint8_t marks = 0;                      // the feature's segment marks, or-ed (tiles.hpp)
  std::array<int, kMaxPlayers> bonus{};        // a winner's points beyond `points` (Part::winner_points)
  int players = kMaxPlayersBase;               // seats of the game (how many entries `meeples` has in use)
};
// Kinds of tokens an expansion may keep per seat (Game::tokens).
inline constexpr int kMaxTokenKinds = 4;

// An event of an expansion's own (docs/expansions.md): which expansion and which of its
// kinds, with a small payload whose meaning is the expansion's; its protocol folder
// (protocol/src/expansions/) writes it as JSON. Base code only passes it on.
struct ExpansionEvent {
  Expansion expansion;
  std::uint8_t kind = 0;        // the expansion's own numbering
  Seat seat = -1;               // the seat it concerns, or -1
  Cell cell{};                  // the cell it concerns
  int points = 0;               // what each winner scores
  std::uint8_t winners = 0;     // bit per seat
  std::uint8_t players = 0;     // seats of the game
  std::uint8_t arg = 0;         // one more value of the kind's own
  bool in_turn = false;         // caused by the turn being played (listed with its number)
  std::array<int, kMaxPlayers> values{};  // one value per seat, or per token kind
};
// A meeple taken back to its owner's supply when its feature scored during the game
// (farmers and end-of-game scoring keep theirs on the board). Follows its FeatureScored.
struct MeepleReturned {
  Seat seat;
  int tile_index;  // the tile it stood on, in placement order (the start tile is 0)
  Cell cell;
  Figure figure = Figure::Meeple;
};
struct GameEnded {
  std::vector<int> final_scores;
  std::vector<Seat> winners;
};
using Event =
    std::variant<TilePlaced, TileDiscarded, TileDrawn, FeatureScored, MeepleReturned, GameEnded, ExpansionEvent>;

// A figure on the board, or a target of one: a placed tile's cell and a port on it.
struct Spot {
  Cell cell;
  Port port;
  constexpr bool operator==(const Spot&) const = default;
};

struct LegalMove {
  Placement placement;
  PortList meeples;  // empty when the player has no meeple left
  // Special figures (index by Figure; [Meeple] unused): empty when the game lacks the
  // figure or the player has none in supply.
  std::array<PortList, kFigureKinds> figures{};
  std::optional<Cell> action = {};  // the action this placement may make instead of a figure ...
  int action_points = 0;            // ... and what that scores at once
};

struct FeatureInfo;  // features.hpp

// A tile on the board, for views.
struct BoardTile {
  Tile tile;
  Cell cell;
  Rotation rotation;
  std::optional<Seat> meeple_seat;
  std::optional<Port> meeple_port;  // board orientation, as the player gave it
  Figure figure = Figure::Meeple;
};

namespace detail {
struct Part;  // an expansion's hooks (core/src/expansions/)
}

// What scoring knows of a feature when it asks the parts for its points.
struct FeatureTally {
  Kind kind;
  bool end;
  int tiles;
  int pennants;
  int cities;                                    // fields: completed cities touching it
  std::uint8_t marks;                            // the segments' marks, or-ed
  std::array<std::uint8_t, kMaxPlayers> figures;  // per seat: bit per Figure standing in it
};

// The rules of one set of expansions and options: the tile set and its piles, the figures,
// and the parts (expansions, then options: docs/options.md) the engine asks at fixed points.
// Built once per set, never changed.
struct Ruleset {
  ExpansionSet expansions;
  Tile start = kStartTile;
  std::array<std::uint8_t, kTileKinds> counts{};  // copies in the game, start tile included
  // Draw order: pile 0 first. pile[k]: the pile tile kind k is drawn from.
  std::array<std::uint8_t, kTileKinds> pile{};
  std::array<std::uint8_t, 4> pile_size{};
  int piles = 1;
  int bag_size = 0;  // every tile but the start tile
  // The bag before its shuffle, in draw order: each pile's tiles in catalog order, those
  // held back (held_back) after the pile's others; and how many of each pile are shuffled
  // (the ones not held back).
  std::array<Tile, kMaxTilesInGame> unshuffled{};
  // One past the last kind in this game (counts > 0): walks over kinds stop there (24 in a
  // base game, of kTileKinds).
  int kind_end = 0;
  // Tile kinds on which no figure may go as they are placed (set by the parts).
  std::array<std::uint8_t, kTileKinds> bare{};
  std::array<std::uint8_t, 4> pile_shuffled{};
  // Figures: how many each player has (0: not in this game), and the kinds of feature
  // each may stand on (bit per Kind).
  std::array<std::uint8_t, kFigureKinds> figures{};
  std::array<std::uint8_t, kFigureKinds> figure_kinds{};
  bool has_specials = false;  // some figure besides the meeple
  // A figure's strength in majorities (0 for one that never occupies a feature), and the
  // figures that go only where their owner already has a follower, on a feature the tile
  // does not complete (bit per Figure; set by the parts, docs/expansions.md).
  std::array<std::uint8_t, kFigureKinds> strength{};
  std::uint8_t needs_own = 0;
  int max_players = kMaxPlayersBase;
  // Which hooks some part of this set has (part.hpp), so a base game asks none.
  bool points_hooks = false;
  bool completed_hooks = false;
  bool extra_hooks = false;
  bool finish_hooks = false;
  // The part that places a kind of tile by its own rules, or null: the frontier.
  std::array<const detail::Part*, kTileKinds> placer{};
  // The part that offers an action instead of a figure, or null.
  const detail::Part* action_part = nullptr;
  // The part whose actions name a target (Move::action_kind > 0), and which kinds (bit per kind).
  const detail::Part* target_part = nullptr;
  std::uint8_t target_kinds = 0;
  // Tiles that wait beside the bag until a part lets them in (Game::release_held_back), and
  // how many.
  std::array<std::uint8_t, kTileKinds> held_back{};
  int held_back_count = 0;
  // The part that forbids figures on some tiles, lets a placement's figure go on another
  // tile, runs a series of steps inside a turn; null when none does.
  const detail::Part* block_part = nullptr;
  const detail::Part* elsewhere_part = nullptr;
  const detail::Part* stage_part = nullptr;
  bool start_hooks = false;   // Part::turn_started
  bool placed_hooks = false;  // Part::tile_placed
  bool scored_hooks = false;  // Part::feature_scored
  bool left_hooks = false;    // Part::figure_left
  // The part that keeps a supply of tokens per seat (Game::tokens), its expansion, and
  // how many kinds.
  const detail::Part* token_part = nullptr;
  std::optional<Expansion> token_expansion;
  int token_kinds = 0;
  std::array<const detail::Part*, kExpansionKinds + kOptionKinds> parts{};
  int part_count = 0;
  // The rule options (docs/options.md): last, so the fields the hot path reads keep their
  // places.
  OptionSet options;

  // The pile the `draw`-th draw of the game (0 first) comes from.
  int pile_of_draw(int draw) const;
};

// The ruleset of a set of expansions and options (every set is built once, at start-up).
const Ruleset& ruleset(ExpansionSet set, OptionSet options = {});
// Whether this engine implements an expansion (a record or a room naming one it does not
// is refused).
bool expansion_implemented(Expansion e);

class Rng;
class PackedGame;

struct ElsewhereTargets;

class Game {
 public:
  enum class Phase : std::uint8_t { Playing, Finished };

  // A game whose bag is shuffled from `seed`; every player draws, unplaceable tiles are
  // discarded automatically and the game ends (with end-of-game scoring) by itself.
  static Game seeded(int players, std::uint64_t seed, std::vector<Event>* events = nullptr);
  static Game seeded(int players, std::uint64_t seed, ExpansionSet expansions, std::vector<Event>* events = nullptr);
  static Game seeded(int players, std::uint64_t seed, ExpansionSet expansions, OptionSet options,
                     std::vector<Event>* events = nullptr);

  // A game replayed from a record: which tile each draw gives is unknown until a move
  // names it (the record's tile), and discards come as explicit moves. End-of-game scoring
  // runs only when finish() is called.
  static Game replay(int players, ExpansionSet expansions = {}, OptionSet options = {});

  // A seeded game whose bag is `order` (drawn first to last): exactly the bag's multiset,
  // each pile in its place, else nullopt. Its seed() is 0. What the analysis uses to play
  // a record again as the game it was (core/src/game_with_bag.cpp). Tiles held back
  // (Ruleset::held_back) come in where the order has them, without a shuffle.
  static std::optional<Game> with_bag(int players, ExpansionSet expansions, std::span<const Tile> order);
  static std::optional<Game> with_bag(int players, ExpansionSet expansions, OptionSet options,
                                      std::span<const Tile> order);

  // Applies one move of the current seat. On error nothing changes.
  std::optional<RuleError> play(const Move& m, std::vector<Event>* events = nullptr);

  // Runs end-of-game scoring now (once). Seeded games do this by themselves.
  void finish(std::vector<Event>* events = nullptr);

  // ---- queries ----
  int players() const { return players_; }
  const Ruleset& rules() const { return *rules_; }
  ExpansionSet expansions() const { return rules_->expansions; }
  OptionSet options() const { return rules_->options; }
  Phase phase() const { return phase_; }
  bool finished() const { return phase_ == Phase::Finished; }
  bool is_seeded() const { return seeded_; }
  std::uint64_t seed() const { return seed_; }
  // True while some seat holds a tile (the game goes on).
  bool anyone_holds() const;
  Seat current_seat() const { return current_; }
  // The tile `seat` holds; nullopt if none (or, in a replay, not yet named).
  std::optional<Tile> held(Seat seat) const {
    if (seat < 0 || seat >= players_) return std::nullopt;
    const std::uint8_t h = held_[static_cast<std::size_t>(seat)];
    if (h == kNone || h == kUnknown) return std::nullopt;
    return static_cast<Tile>(h);
  }
  bool holds(Seat seat) const;
  int score(Seat seat) const { return scores_[static_cast<std::size_t>(seat)]; }
  // Tokens of kind `k` that `seat` holds: an expansion's supply beside the figures, kept
  // in its part state (Ruleset::token_kinds kinds; 0 in a game without tokens).
  int tokens(Seat seat, int k) const;
  // True while the current seat plays an extra part of its turn (an expansion's
  // Part::grants_extra, docs/expansions.md): the tile it holds is the extra tile, and the
  // next entry of a record carries "extra".
  bool in_extra_part() const { return extra_; }
  int meeples(Seat seat) const { return supply_[static_cast<std::size_t>(seat)][0]; }
  // Figures of a kind in `seat`'s supply (0 for a figure this game lacks).
  int figures(Seat seat, Figure f) const {
    return supply_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(f)];
  }
  int bag_left() const { return bag_end_ - drawn_; }
  // How many of each tile kind are still in the bag (seeded) / not yet named (replay).
  std::array<int, kTileKinds> bag_counts() const;
  int moves_played() const { return moves_; }       // placements + discards
  int tiles_placed() const { return placed_count_; }

  // Every legal placement of `t` (all four rotations listed, even when they look alike).
  void legal_placements(Tile t, std::vector<Placement>& out) const;
  bool has_legal_placement(Tile t) const;
  // How many legal placements `t` has, and the k-th of them in legal_placements() order
  // (what a random player needs, without building the list).
  int count_legal_placements(Tile t) const;
  Placement nth_legal_placement(Tile t, int k) const;
  // nth_legal_placement(t, rng.below(count_legal_placements(t))) in one walk of the
  // frontier (random players and playouts: the same draw, the same generator state after);
  // none, and nothing drawn, when `t` has no legal placement.
  std::optional<Placement> random_legal_placement(Tile t, Rng& rng) const;
  bool is_legal_placement(Tile t, Placement p) const;
  // Ports (one per feature) where a meeple may go if `t` is placed at `p` (which must be
  // legal); empty if `seat` has no meeple left.
  PortList meeple_targets(Tile t, Placement p, Seat seat) const;
  // The same for any figure: empty when the game lacks it or `seat` has none in supply.
  PortList figure_targets(Tile t, Placement p, Seat seat, Figure f) const;
  // The action `seat` may make with this placement instead of a figure (the cell it names,
  // Ruleset::action_part), and its points.
  std::optional<Cell> action_offer(Tile t, Placement p, Seat seat, int* points = nullptr) const;
  // Legal placements with their meeple targets for the current seat's held tile.
  void legal_moves(std::vector<LegalMove>& out) const;

  // ---- what an expansion adds (docs/expansions.md, "Parts and their hook points") ----
  // A series of steps inside a turn (Ruleset::stage_part): each by the next seat in turn
  // from the placer's, as Move::step; the placement is scored when the series ends.
  bool in_stage() const { return stage_; }
  // The seat that acts now: the current seat, or in a stage the seat whose step it is.
  Seat acting_seat() const { return stage_ ? (current_ + stage_step_) % players_ : current_; }
  int stage_step() const { return stage_step_ + 1; }  // the step due, from 1
  void step_options(std::vector<Cell>& out) const;
  // Where a figure may go on other placed tiles with this placement (Part::figure_elsewhere;
  // empty when it offers none).
  void figure_targets_elsewhere(Tile t, Placement p, Seat seat, Figure f, std::vector<Spot>& out) const;
  // The same for every figure kind (out.by_figure[f] for figure f), the tile laid on one
  // copy of the game for all of them (out.after, kept for the next call).
  void figure_targets_elsewhere(Tile t, Placement p, Seat seat, ElsewhereTargets& out) const;
  // The targets of an action with a target (Ruleset::target_part; kind > 0).
  void action_targets(Tile t, Placement p, Seat seat, std::uint8_t kind, std::vector<Spot>& out) const;
  // A figure on the board.
  struct Standing {
    Seat seat;
    int tile;  // placed-tile index
    std::uint8_t seg;
    Port port;
    Figure figure;
  };
  // Every figure on the board, by tile then port (the placed tile's own figure, then those
  // put there from elsewhere).
  void standing(std::vector<Standing>& out) const;
  // Calls `f` with each of them in that order, without a list (the bots' and the parts'
  // walks over the figures run in every playout). `f` must not change the game.
  template <typename F>
  void for_each_standing(F&& f) const {
    std::array<std::uint64_t, (kMaxTilesInGame + 63) / 64> spared{};  // the tiles holding a spare figure
    for (int k = 0; k < spare_count_; ++k) {
      const int tile = spare_[static_cast<std::size_t>(k)].tile;
      spared[static_cast<std::size_t>(tile / 64)] |= 1ull << (tile % 64);
    }
    for (int i = 0; i < placed_count_; ++i) {
      const Placed& p = placed_[static_cast<std::size_t>(i)];
      const bool own = p.meeple_seat != kNone;
      if (((spared[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) == 0) {
        if (own) f(Standing{p.meeple_seat, i, p.meeple_seg, p.meeple_port, p.figure});
        continue;
      }
      std::array<Standing, kMaxSpares + 1> here;
      int n = 0;
      if (own) here[static_cast<std::size_t>(n++)] = Standing{p.meeple_seat, i, p.meeple_seg, p.meeple_port, p.figure};
      for (int k = 0; k < spare_count_; ++k) {
        const Spare& sp = spare_[static_cast<std::size_t>(k)];
        if (sp.tile != i) continue;
        // Insertion by port, after the equal ones: the order of a stable sort.
        int at = n++;
        for (; at > 0 && sp.port < here[static_cast<std::size_t>(at - 1)].port; --at) here[static_cast<std::size_t>(at)] = here[static_cast<std::size_t>(at - 1)];
        here[static_cast<std::size_t>(at)] = Standing{sp.seat, i, sp.seg, sp.port, sp.figure};
      }
      for (int k = 0; k < n; ++k) f(here[static_cast<std::size_t>(k)]);
    }
  }
  // The first of them (by tile then port) that is `seat`'s figure `f`, without a list.
  std::optional<Standing> find_standing(Seat seat, Figure f) const;
  // Tiles waiting beside the bag (Ruleset::held_back) until a part lets them in.
  int held_back_waiting() const { return rules_->bag_size - bag_end_; }

  std::vector<BoardTile> board() const;
  std::optional<BoardTile> tile_at(Cell c) const;

  // ---- hidden information, for player views (player_view.hpp) ----
  // Puts the tiles still in the bag in `order` (drawn first to last; exactly bag_counts()
  // of each kind) and forgets the seed, which no longer describes the bag. On another
  // multiset, or a game that is not seeded, returns false and changes nothing.
  bool reorder_bag(std::span<const Tile> order);
  // Bit r set when `t` at rotation r matches `want` (2 bits of Terrain per side N E S W
  // from bit 0, 0 where no tile touches).
  static std::uint8_t fitting_rotations(Tile t, std::uint16_t want);

  // Memory of this state (it owns no heap).
  static constexpr std::size_t memory_bytes() { return sizeof(Game); }

  // A copy takes the parts of the arrays in use (the board's layout, the placed tiles, the
  // nodes, the frontier, the draw pile), not their capacity for every expansion: a base
  // game copies about as much as it did before expansions (bots copy once a playout).
  Game(const Game& o) { copy_from(o); }
  Game& operator=(const Game& o) {
    if (this != &o) copy_from(o);
    return *this;
  }

  // ---- internals, public for the implementation's helpers and the expansions' parts ----
  // The board lives in two-byte slots: cell (x, y) is slot (x + stride y) mod slots, with
  // the smallest layout that holds the game's tiles. A game of n tiles spans at most n - 1
  // steps (|dx| + |dy| between any two), so every cell the engine looks at (within two
  // cells of the placed tiles' bounding box) differs from any other by |dx| + |dy| <= n + 3,
  // and the layout's lattice has no shorter vector: 4096 slots, stride 90 (shortest vector
  // 90) for the base game's 72 tiles; 8192, stride 3969 (128) up to 120 tiles; 16384,
  // stride 181 (178) up to 160 (checked by a test). A base game touches 8 KB of board,
  // as it did with one-byte slots and 4096. Every lookup is first checked against the
  // bounding box.
  struct GridLayout {
    int slots;
    int stride;
    int max_tiles;
  };
  static constexpr std::array<GridLayout, 3> kGridLayouts = {{{4096, 90, 72}, {8192, 3969, 120}, {16384, 181, 160}}};
  static constexpr int kGridSlots = 16384;
  static constexpr int grid_index(Cell c, int stride, int slots) { return (c.x + stride * c.y) & (slots - 1); }
  int grid_index(Cell c) const { return (c.x + grid_stride_ * c.y) & grid_mask_; }
  static constexpr int kMaxNodes = kMaxNodesInGame;
  static constexpr std::uint8_t kNone = 0xFF;
  static constexpr std::uint8_t kUnknown = 0xFE;
  // A frontier cell's `want` bit for an exclusive side (Terrain::Exclusive) facing it: no
  // tile of the land bag fits there.
  static constexpr std::uint16_t kExclusiveWant = 0x100;

  struct Node {
    std::uint16_t parent;
    std::uint16_t next;       // circular list of the nodes of one feature
    std::uint16_t open;       // open city/road sides of the feature (root only)
    std::uint16_t size;       // union by size (root only)
    std::uint8_t tile;        // placed-tile index
    std::uint8_t seg;         // segment index on that tile
    Kind kind;
    std::uint8_t meeple_total;                  // root only: figures' strength in all
    std::array<std::uint8_t, kMaxPlayers> meeples;  // root only: strength per seat
    std::uint8_t cities;      // fields: the city segments of the same tile it touches
  };
  struct Placed {
    std::int16_t x, y;
    Tile tile;
    std::uint8_t rotation;
    std::uint16_t base;          // first node
    std::uint8_t meeple_seat;    // kNone if none
    std::uint8_t meeple_seg;
    Port meeple_port;
    Figure figure;
  };
  // Where a frontier cell is; what it wants is beside it in frontier_want_ (2 bits of
  // Terrain per side that touches a tile, 0 where free; kExclusiveWant), so that the walks
  // that only ask what fits read a dense array of 16-bit words.
  struct FrontierCell {
    std::int16_t x, y;
  };

  // For the parts (core/src/expansions/): a few bytes of state each part owns.
  static constexpr int kPartStateBytes = 48;
  // The scoring helpers the parts use.
  std::uint16_t root_of(int tile_index, int seg) const {
    return find(static_cast<std::uint16_t>(placed_[static_cast<std::size_t>(tile_index)].base + seg));
  }
  const Node& node(std::uint16_t n) const { return nodes_[n]; }
  void add_score(Seat seat, int points) { scores_[static_cast<std::size_t>(seat)] += points; }
  std::array<std::uint8_t, kPartStateBytes>& part_state() { return part_state_; }
  const std::array<std::uint8_t, kPartStateBytes>& part_state() const { return part_state_; }
  int placed_count() const { return placed_count_; }
  const Placed& placed(int index) const { return placed_[static_cast<std::size_t>(index)]; }
  // The placed-tile index at a cell, or -1.
  int placed_at(Cell c) const {
    if (!in_grid(c)) return -1;
    return static_cast<int>(slot(c)) - 1;
  }
  // Filled cells among the 8 around `c`.
  int cells_around(Cell c) const { return monastery_neighbours(c); }
  // Scores the figure at segment `seg` of placed tile `index` now as an incomplete cloister
  // and returns it to its owner's supply (an action instead of a figure; the event is
  // `by_action`).
  void score_and_return(int index, int seg, std::vector<Event>* events);
  // The figure at segment `seg` of placed tile `index`, if one stands there.
  std::optional<Standing> figure_at(int index, int seg) const;
  // Sends that figure to its owner's supply, scoring nothing (Part::figure_left is told).
  void send_home(int index, int seg, std::vector<Event>* events);
  // Sends home every figure that goes only beside its owner's follower (Ruleset::needs_own)
  // whose feature holds none of its owner's followers any more.
  void send_home_lonely(std::vector<Event>* events);
  // Lets the held-back tiles into the bag (once): shuffled in with the tiles left (seeded),
  // and the seats other than `seat` that hold no tile because the bag had run out draw one
  // each, in turn after `seat`.
  void release_held_back(Seat seat, std::vector<Event>* events);
  bool released() const { return release_draw_ != kNone; }

 private:
  friend void list_features(const Game& g, std::vector<FeatureInfo>& out);  // features.cpp
  friend class PackedGame;  // packed_game.hpp: a game at rest without its grid
  Game() = default;
  void copy_from(const Game& o);
  void start(int players, const Ruleset& rules, std::vector<Event>* events);
  void draw(Seat s, std::vector<Event>* events, bool extra = false);
  void advance_turn();
  void start_turn(std::vector<Event>* events) {
    if (turn_start_due_) run_turn_start(events);
  }
  void run_turn_start(std::vector<Event>* events);
  void finish_placement(Seat seat, int index, std::vector<Event>* events);
  std::optional<RuleError> check_elsewhere(const Move& m, int* tile, int* seg) const;
  bool may_go_elsewhere(Tile t, Seat seat, Figure f) const;
  void elsewhere_spots(const Game& after, Figure f, std::vector<Spot>& out) const;
  // One walk of the tiles placed before the placement for the figures in `figures` (a bit
  // per Figure), judged on `after`: each free feature a figure may take goes to its list.
  void elsewhere_walk(const Game& after, std::uint32_t figures, const std::array<std::vector<Spot>*, kFigureKinds>& out) const;
  std::optional<RuleError> check_target(const Move& m) const;
  std::optional<RuleError> play_step(const Move& m, std::vector<Event>* events);
  // The tile laid into the board and the forest, nothing else (its placer's `placed` hook).
  int lay(Tile t, Placement p);
  void put_figure(int index, Seat seat, int seg, Port port, Figure figure);
  void settle(std::vector<Event>* events);
  std::optional<RuleError> check(const Move& m, int* meeple_seg, int* figure_tile) const;
  // Lays the tile, puts the figure (on tile `figure_tile`, the placed one when -1) or makes
  // the action; returns the placed index. Scoring is finish_placement's.
  int place(Tile t, Placement p, Seat seat, int meeple_seg, std::optional<Port> port, Figure figure,
            std::vector<Event>* events, const Move* move = nullptr, int figure_tile = -1);
  void score_completed(int tile_index, Seat seat, std::vector<Event>* events);
  void score_feature(std::uint16_t root, Kind kind, bool end, std::vector<Event>* events, int points_override = -1,
                     int cities = 0, int monastery_tile = -1);
  int monastery_neighbours(Cell c) const;
  std::uint16_t find(std::uint16_t n) const;
  std::uint16_t unite(std::uint16_t a, std::uint16_t b);
  void add_frontier(Cell c, Side towards_tile, Terrain t);
  void remove_frontier(int index);
  // Within one cell of the placed tiles' bounding box.
  bool in_grid(Cell c) const {
    return c.x >= min_x_ - 1 && c.x <= max_x_ + 1 && c.y >= min_y_ - 1 && c.y <= max_y_ + 1;
  }
  std::uint16_t constraint(Cell c) const;
  // The features `t` placed at `p` would touch: each (segment, board feature) contact,
  // with the tile's segments grouped where one board feature joins them.
  struct Contacts;
  void contacts(Tile t, Placement p, Contacts& out) const;
  // Bit s set: segment s of `t` placed at `p` would join a feature that holds no meeple.
  std::uint8_t free_segments(Tile t, Placement p) const;
  // Bit s set: segment s of `t` placed at `p` would join a feature holding a follower of
  // `seat` that stays incomplete (roads and cities) with the tile placed.
  std::uint8_t owned_segments(Tile t, Placement p, Seat seat) const;
  // The segments figure `f` of `seat` may take on `t` placed at `p`.
  std::uint8_t figure_segments(Tile t, Placement p, Seat seat, Figure f) const;

  // One slot a cell: 0 empty, 1..127 placed index + 1, kFrontierBase + i for the i-th
  // frontier cell (an empty cell next to a tile; at most 2 * 127 + 2 of them).
  static constexpr std::uint16_t kFrontierBase = kMaxTilesInGame + 1;
  // The small state first, then the arrays by how much of them a base game touches, the
  // grid last: a base game's working set stays on few pages.
  std::array<std::uint8_t, kTileKinds> unseen_{};
  std::array<int, kMaxPlayers> scores_{};
  std::array<std::array<std::uint8_t, kFigureKinds>, kMaxPlayers> supply_{};
  std::array<std::uint8_t, kMaxPlayers> held_{};
  std::array<std::uint8_t, kMaxPlayers> held_draw_{};  // which draw of the game each seat holds
  std::array<std::uint8_t, kPartStateBytes> part_state_{};
  const Ruleset* rules_ = nullptr;
  std::uint64_t seed_ = 0;
  std::uint16_t node_count_ = 0;
  std::uint16_t frontier_count_ = 0;
  std::uint8_t placed_count_ = 0;
  std::uint8_t drawn_ = 0;
  std::uint8_t players_ = 0;
  std::int16_t min_x_ = 0, max_x_ = 0, min_y_ = 0, max_y_ = 0;
  std::uint8_t monks_ = 0;  // figures standing on cloisters (skip the scan when 0)
  mutable std::uint8_t free_cache_ = 0;      // last free_segments() answer ...
  mutable std::uint64_t free_cache_key_ = 0;  // ... and what it was for (0: nothing)
  mutable std::uint8_t owned_cache_ = 0;      // the same for owned_segments()
  mutable std::uint64_t owned_cache_key_ = 0;
  Seat current_ = 0;
  int moves_ = 0;
  Phase phase_ = Phase::Playing;
  bool seeded_ = false;
  bool extra_ = false;      // the current seat plays an extra part of its turn
  bool extra_due_ = false;  // set by place(): this placement earned an extra part
  bool stage_ = false;      // a series of steps is under way (Ruleset::stage_part)
  bool fixed_order_ = false;  // with_bag(): the held-back tiles keep the given order when they come in
  bool turn_start_due_ = false;  // the current seat's turn has not started yet (Part::turn_started)
  std::uint8_t stage_step_ = 0;  // steps made in it
  std::uint8_t stage_index_ = 0;  // the placement it follows, scored when it ends
  std::uint8_t bag_end_ = 0;      // tiles that can be drawn (the rest are held back)
  std::uint8_t release_draw_ = kNone;  // drawn_ when the held-back tiles came in
  // Figures besides each placed tile's own (Placed::meeple_seat ...): put there from
  // another tile (Part::figure_elsewhere).
  struct Spare {
    std::uint8_t tile, seat, seg;
    Port port;
    Figure figure;
  };
  static constexpr int kMaxSpares = 40;
  std::array<Spare, kMaxSpares> spare_{};
  std::uint8_t spare_count_ = 0;
  int grid_stride_ = 90;
  int grid_mask_ = 4095;
  // Written before they are read (up to placed_count_, node_count_, frontier_count_ and
  // the bag's size), so a new game does not clear them: only the grid must start empty.
  std::array<std::uint16_t, 2 * kMaxTilesInGame + 8> frontier_want_;
  std::array<FrontierCell, 2 * kMaxTilesInGame + 8> frontier_;
  std::array<Tile, kMaxTilesInGame> bag_;
  std::array<Placed, kMaxTilesInGame> placed_;
  mutable std::array<Node, kMaxNodes> nodes_;     // mutable: path compression in find()
  std::array<std::uint16_t, kGridSlots> grid_;  // the first grid_mask_ + 1 in use, cleared by start()
  // The placed-tile slot of a cell (placed index + 1), 0 if no tile is there.
  std::uint16_t slot(Cell c) const {
    const std::uint16_t g = grid_[static_cast<std::size_t>(grid_index(c))];
    return g < kFrontierBase ? g : 0;
  }
};

// Game::figure_targets_elsewhere() for every figure kind: the targets, and the game with the
// tile laid that judged them (reused by the next call: assigning it over the last one copies
// only the board cells either uses).
struct ElsewhereTargets {
  std::array<std::vector<Spot>, kFigureKinds> by_figure;
  std::unique_ptr<Game> after;
};

// The pure form: the next game and the events, or the rule error.
struct Applied {
  Game game;
  std::vector<Event> events;
};
std::variant<Applied, RuleError> apply(const Game& g, Seat seat, const Move& m);

// A small deterministic generator (SplitMix64), for shuffles and random players.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  // Inline: playouts draw from it on every move.
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0, without modulo bias: Lemire's nearly divisionless bounded
  // integers.
  std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

 private:
  std::uint64_t state_;
};

}  // namespace carc
