// The search tree of the mcts bot: one tree for every sampled bag order (information-set
// MCTS). A turn's decision is two levels: where the tile goes, then the meeple. Below a
// whole move, the next turn depends on the draws: a turn node lists one placement node
// per (seat, tile) that the sampled bags have given there.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "bots.hpp"
#include "carc/core/game.hpp"

namespace carc::bots {

inline constexpr std::uint32_t kNull = 0xFFFFFFFF;

struct Edge {
  std::uint32_t child = kNull;  // placement edge: its meeple node; meeple edge: the next turn node
  std::uint32_t visits = 0;
  float reward = 0;             // sum over visits, for the seat that decides here
  std::int8_t x = 0;            // placement edges: cell and rotation; meeple edges: the target's cell
  std::int8_t y = 0;
  std::uint8_t rotation = 0;    // meeple edges: the target's arg
  std::uint8_t meeple = 0;      // meeple edges: the target's code (bots.hpp, Target)

  Placement placement() const { return Placement{Cell{x, y}, Rotation::quarters(rotation)}; }
  Target target() const {
    Target t(meeple);
    t.x = x;
    t.y = y;
    t.arg = rotation;
    return t;
  }
  void set_target(Target t) {
    meeple = t.code;
    x = t.x;
    y = t.y;
    rotation = t.arg;
  }
};

struct Node {
  std::uint32_t first_edge = 0;
  std::uint16_t edge_count = 0;
  std::uint16_t tried = 0;          // edges [first, first + tried) were visited
  std::uint32_t visits = 0;
  std::uint32_t first_branch = kNull;  // turn node: its first placement node
  std::uint32_t next_branch = kNull;   // placement node: the next one of its turn node
  Seat seat = 0;                       // placement node: who decides, with which tile
  Tile tile = Tile::A;
};

class Tree {
 public:
  // Bounds the memory of one search (about 16 bytes an edge); a full tree keeps
  // searching, it only stops growing.
  static constexpr std::size_t kMaxEdges = 1u << 21;

  std::vector<Node> nodes;
  std::vector<Edge> edges;
  // Leave out moves another one dominates (bots.hpp, take_back_dominates). Off when a
  // search must measure any move a player made (the analysis).
  bool prune = true;
  // Steer the root's first visits with greedy's estimate (mcts.cpp, progressive bias). Off
  // for the analysis, which measures moves by their playouts alone.
  bool guide = false;
  // Playouts stop after this many tiles and greedy's estimate scores them (0: to the end).
  int horizon = 0;

  bool full() const { return edges.size() + 256 > kMaxEdges; }

  std::uint32_t add_turn() {
    nodes.emplace_back();
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }

  // The placement node of `turn` for the current seat's held tile, made if new. kNull
  // when the tree is full.
  std::uint32_t branch(std::uint32_t turn, const Game& g, Rng& rng) {
    const Seat seat = g.current_seat();
    const Tile t = *g.held(seat);
    std::uint32_t* link = &nodes[turn].first_branch;
    while (*link != kNull) {
      const Node& b = nodes[*link];
      if (b.seat == seat && b.tile == t) return *link;
      link = &nodes[*link].next_branch;
    }
    if (full()) return kNull;
    Node n;
    n.seat = seat;
    n.tile = t;
    n.first_edge = static_cast<std::uint32_t>(edges.size());
    const int count = g.count_legal_placements(t);
    for (int k = 0; k < count; ++k) {
      const Placement p = g.nth_legal_placement(t, k);
      Edge e;
      e.x = static_cast<std::int8_t>(p.cell.x);
      e.y = static_cast<std::int8_t>(p.cell.y);
      e.rotation = static_cast<std::uint8_t>(p.rotation.quarter_turns());
      edges.push_back(e);
    }
    finish_node(n, count, rng);
    nodes.push_back(n);
    // `link` pointed into `nodes`, which push_back may have moved: link again.
    return relink(turn, static_cast<std::uint32_t>(nodes.size() - 1));
  }

  // The meeple node below placement `p` of node `place` (seat and tile from it).
  std::uint32_t add_meeples(const Game& g, std::uint32_t place, Placement p, Rng& rng) {
    Node n;
    n.seat = nodes[place].seat;
    n.tile = nodes[place].tile;
    n.first_edge = static_cast<std::uint32_t>(edges.size());
    int count = 0;
    for_each_target(g, n.tile, p, n.seat, [&](Target target) {
      Edge e;
      e.set_target(target);
      edges.push_back(e);
      ++count;
    }, prune, &lists_);
    finish_node(n, count, rng);
    nodes.push_back(n);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }

  // The edge to follow: an untried one if any (in the random order they were shuffled
  // into), else the best by UCB1 with exploration constant `c`. `bias` (one value per edge
  // of the node, or null): progressive bias, added as bias / visits, so that it steers the
  // first visits and fades as the playouts speak.
  // With `widen`, the node opens its edges one by one as its visits grow (1 + sqrt(visits)
  // of them: progressive widening), for a node whose edges come best first.
  std::uint32_t select(std::uint32_t node, double c, const float* bias = nullptr, bool widen = false) {
    Node& n = nodes[node];
    if (n.tried < n.edge_count && (!widen || n.tried < 1 + static_cast<std::uint32_t>(std::sqrt(static_cast<double>(n.visits))))) {
      return n.first_edge + n.tried++;
    }
    return best_ucb(n, c * std::sqrt(std::log(static_cast<double>(n.visits) + 1.0)), bias, n.tried);
  }

  // The most visited edge (the better mean on a tie).
  std::uint32_t most_visited(std::uint32_t node) const {
    const Node& n = nodes[node];
    std::uint32_t best = n.first_edge;
    for (std::uint32_t i = n.first_edge + 1; i < n.first_edge + n.edge_count; ++i) {
      const Edge& a = edges[i];
      const Edge& b = edges[best];
      if (a.visits > b.visits || (a.visits == b.visits && a.visits > 0 &&
                                  a.reward / static_cast<float>(a.visits) > b.reward / static_cast<float>(b.visits))) {
        best = i;
      }
    }
    return best;
  }

 private:
  TargetLists lists_;  // add_meeples()'s, reused

  // 1 / v and 1 / sqrt(v) for the visit counts most edges have: UCB1 without a division
  // or a square root per edge (the loop was about 5 % of the time of base-game playouts).
  struct Inverse {
    double one;
    double sqrt;
  };
  static constexpr std::uint32_t kInverses = 2048;
  static const std::array<Inverse, kInverses>& inverses() {
    static const std::array<Inverse, kInverses> table = [] {
      std::array<Inverse, kInverses> t{};
      for (std::uint32_t v = 1; v < kInverses; ++v) t[v] = Inverse{1.0 / v, 1.0 / std::sqrt(static_cast<double>(v))};
      return t;
    }();
    return table;
  }

  // The edge of `n` (all tried) with the best reward / visits + c_sqrt_log / sqrt(visits)
  // (+ bias / visits).
  // (Over the first `count` edges: those tried.)
  [[gnu::noinline]] std::uint32_t best_ucb(const Node& n, double c_sqrt_log, const float* bias, std::uint32_t count) const {
    const auto& inv = inverses();
    const Edge* e = edges.data() + n.first_edge;
    std::uint32_t best = 0;
    double best_value = -1e9;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t v = e[i].visits;
      const Inverse k = v < kInverses ? inv[v] : Inverse{1.0 / v, 1.0 / std::sqrt(static_cast<double>(v))};
      double value = e[i].reward * k.one + c_sqrt_log * k.sqrt;
      if (bias != nullptr) value += bias[i] * k.one;
      if (value > best_value) {
        best_value = value;
        best = i;
      }
    }
    return n.first_edge + best;
  }

  void finish_node(Node& n, int count, Rng& rng) {
    n.edge_count = static_cast<std::uint16_t>(count);
    for (int i = count - 1; i > 0; --i) {  // untried edges come in a random order
      const auto j = rng.below(static_cast<std::uint32_t>(i + 1));
      std::swap(edges[n.first_edge + static_cast<std::uint32_t>(i)], edges[n.first_edge + j]);
    }
  }

  std::uint32_t relink(std::uint32_t turn, std::uint32_t id) {
    std::uint32_t* link = &nodes[turn].first_branch;
    while (*link != kNull && *link != id) link = &nodes[*link].next_branch;
    *link = id;
    return id;
  }
};

}  // namespace carc::bots
