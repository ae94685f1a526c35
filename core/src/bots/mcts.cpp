#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "bots.hpp"
#include "evaluation.hpp"
#include "mcts_tree.hpp"
#include "root_guide.hpp"
#include "search.hpp"

namespace carc::bots {
namespace {

constexpr double kExploration = 0.4;  // UCB1's c, for rewards in [0, 1] (0.25 played as well, 0.7 and 1.0 worse)
constexpr double kMarginWeight = 0.25;  // share of the reward that is the score margin ...
constexpr double kMarginScale = 20.0;   // ... squashed with tanh(margin / scale)
constexpr std::uint32_t kPlayoutMeeple = 2;  // playouts put a meeple on 1 placement in this many
constexpr int kShortPlayout = 12;       // short playouts (playout_horizon) stop after this many tiles ...
constexpr double kWinSpread = 2.0;     // ... and the estimate's margin reads as a win over 2 * sqrt(tiles left) points

// Each seat's reward for a finished game: its share of the victory, blended with how far
// it is ahead of (or behind) the best other player.
std::array<float, kMaxPlayers> rewards(const Game& g) {
  std::array<float, kMaxPlayers> r{};
  const int players = g.players();
  int top = g.score(0);
  for (Seat s = 1; s < players; ++s) top = std::max(top, g.score(s));
  int winners = 0;
  for (Seat s = 0; s < players; ++s) winners += g.score(s) == top ? 1 : 0;
  for (Seat s = 0; s < players; ++s) {
    int best_other = -1;
    for (Seat o = 0; o < players; ++o) {
      if (o != s) best_other = std::max(best_other, g.score(o));
    }
    const double win = g.score(s) == top ? 1.0 / winners : 0.0;
    const double margin = 0.5 + 0.5 * std::tanh((g.score(s) - best_other) / kMarginScale);
    r[static_cast<std::size_t>(s)] = static_cast<float>((1.0 - kMarginWeight) * win + kMarginWeight * margin);
  }
  return r;
}

// Each seat's reward for an unfinished game, from greedy's estimate of the final scores:
// the chance to win read off the estimated margin (spread wider the more tiles are left),
// blended with the margin as in rewards().
std::array<float, kMaxPlayers> estimated_rewards(const Game& g, Evaluator& eval) {
  std::array<float, kMaxPlayers> r{};
  const Scores e = eval.expected(g);
  const double sigma = kWinSpread * std::sqrt(1.0 + g.bag_left());
  for (Seat s = 0; s < g.players(); ++s) {
    const double m = Evaluator::margin(e, g.players(), s);
    const double win = 0.5 + 0.5 * std::tanh(m / sigma);
    const double margin = 0.5 + 0.5 * std::tanh(m / kMarginScale);
    r[static_cast<std::size_t>(s)] = static_cast<float>((1.0 - kMarginWeight) * win + kMarginWeight * margin);
  }
  return r;
}

// How far playouts go: to the end of the game, but only kShortPlayout tiles when an
// expansion in play asks for short playouts (BotPart::short_playouts), then greedy's
// estimate scores them. Those are the expansions whose figures make a playout cost several
// times a base one and whose points uniform placements hardly ever bring about, while the
// estimate weighs them (docs/bots.md has the games that decided it, expansion by
// expansion). In the base game short playouts measured worse: the estimate's blind spots
// weigh more than the noise they save.
int playout_horizon(const Ruleset& rules) { return bot_hooks(rules).short_playouts ? kShortPlayout : 0; }

// A playout's figure for a placement (none only when there is none): a uniform choice
// among the tile's own targets (each figure's ports, the action) and, as one choice each,
// the lists of targets on other tiles (a figure put elsewhere, one list per figure; an
// action that names a figure, one per kind), then a uniform one in the list chosen.
// Uniform over every target, a figure put on the placed tile was rare beside those lists
// (an action per follower of the seat, a figure on any free feature of the board), so
// playouts hardly placed meeples.
Target playout_target(const Game& g, Tile t, Placement p, Seat seat, Rng& rng, std::vector<Target>& targets,
                      std::vector<std::uint32_t>& groups, TargetLists& lists) {
  targets.clear();
  groups.clear();
  std::uint32_t own = 0;  // the tile's own targets come first (for_each_target's order)
  for_each_target(g, t, p, seat, [&](Target x) {
    if (x == Target(kNoMeeple)) return;
    if (x.code != kElsewhere && x.code != kOnTarget) {
      ++own;
    } else if (groups.empty() || targets[groups.back()].code != x.code || targets[groups.back()].high() != x.high()) {
      groups.push_back(static_cast<std::uint32_t>(targets.size()));
    }
    targets.push_back(x);
  }, false, &lists);
  const auto choices = own + static_cast<std::uint32_t>(groups.size());
  if (choices == 0) return Target(kNoMeeple);
  const std::uint32_t k = rng.below(choices);
  if (k < own) return targets[k];
  const std::uint32_t group = k - own;
  const std::uint32_t first = groups[group];
  const std::uint32_t end = group + 1 < groups.size() ? groups[group + 1] : static_cast<std::uint32_t>(targets.size());
  return targets[first + rng.below(end - first)];
}

// Plays `g` with uniform placements and, on some of them, a uniform meeple: to its end, or
// for `horizon` tiles when that is positive.
// The lists a playout fills, kept by the search for all its playouts (their heap reused).
struct PlayoutLists {
  std::vector<Target> targets;
  std::vector<std::uint32_t> groups;
  TargetLists lists;
  std::vector<Cell> steps;
};

void playout(Game& g, Rng& rng, PlayoutLists& scratch, int horizon = 0) {
  std::vector<Target>& targets = scratch.targets;
  std::vector<std::uint32_t>& groups = scratch.groups;
  TargetLists& lists = scratch.lists;
  for (int played = 0; !g.finished() && (horizon <= 0 || played < horizon); ++played) {
    play_steps(g, rng, scratch.steps);
    if (g.finished()) return;
    const Seat seat = g.current_seat();
    const Tile t = *g.held(seat);
    const Placement p = g.random_legal_placement(t, rng).value_or(Placement{});
    Target target(kNoMeeple);
    const Ruleset& rules = g.rules();
    if (!rules.has_specials && rules.elsewhere_part == nullptr && rules.target_part == nullptr) {
      if (g.meeples(seat) > 0 && rng.below(kPlayoutMeeple) == 0) {
        const PortList ports = g.meeple_targets(t, p, seat);
        if (ports.size > 0) target = figure_target(ports.ports[rng.below(ports.size)], Figure::Meeple);
      }
    } else if (rng.below(kPlayoutMeeple) == 0) {
      target = playout_target(g, t, p, seat, rng, targets, groups, lists);
    }
    if (g.play(make_move(g, t, p, target))) return;  // cannot happen: the move comes from the generator
  }
}

struct Step {
  std::uint32_t node;
  std::uint32_t edge;
  Seat seat;
};

int iteration_budget(const BotSpec& spec) {
  if (spec.iterations > 0) return std::min(spec.iterations, BotSpec::kMaxIterations);
  if (spec.think_ns > 0 && spec.clock) return BotSpec::kMaxIterations;
  return BotSpec::kDefaultIterations;
}

// The edge of node `node` whose placement (or, for a meeple node, target) is the forced one.
std::uint32_t find_edge(const Tree& tree, std::uint32_t node, const Placement* p, Target target) {
  const Node& n = tree.nodes[node];
  for (std::uint32_t i = n.first_edge; i < n.first_edge + n.edge_count; ++i) {
    const Edge& e = tree.edges[i];
    if (p != nullptr ? e.placement() == *p : e.target() == target) return i;
  }
  return kNull;
}

}  // namespace

int search(const PlayerView& view, const BotSpec& spec, Rng& rng, Tree& tree, const SearchHooks* hooks) {
  const bool timed = spec.think_ns > 0 && static_cast<bool>(spec.clock);
  const std::int64_t start = timed ? spec.clock() : 0;
  const int budget = iteration_budget(spec);
  const bool forcing = hooks != nullptr && hooks->forced && hooks->forced_every > 0;

  tree.prune = !forcing;  // a forced move may be a dominated one: keep every move
  tree.nodes.reserve(4096);
  tree.edges.reserve(65536);
  const std::uint32_t root = tree.add_turn();
  std::optional<RootGuide> guide;
  if (tree.guide) guide.emplace(view);
  std::vector<Step> path;
  Evaluator leaf_eval(true);
  Game g = view.canonical();  // each iteration's sample, assigned over the last one
  PlayoutLists lists;
  int done = 0;
  while (done < budget) {
    if (timed && done > 0 && spec.clock() - start >= spec.think_ns) break;
    view.determinize(rng, g);
    path.clear();
    std::uint32_t turn = root;
    const bool force = forcing && done % hooks->forced_every == 0;
    while (!g.finished()) {
      const std::uint32_t place = tree.branch(turn, g, rng);
      if (place == kNull) break;
      const Seat seat = tree.nodes[place].seat;
      const bool here = force && turn == root;
      const bool guided = guide && turn == root;
      std::uint32_t pe = here ? find_edge(tree, place, &hooks->forced->first, Target()) : kNull;
      if (pe == kNull) pe = tree.select(place, kExploration, guided ? guide->placements(tree, place) : nullptr);
      const Placement p = tree.edges[pe].placement();
      if (tree.edges[pe].child == kNull) {
        const std::uint32_t m = tree.add_meeples(g, place, p, rng);
        tree.edges[pe].child = m;
      }
      const std::uint32_t meeples = tree.edges[pe].child;
      std::uint32_t me = here ? find_edge(tree, meeples, nullptr, hooks->forced->second) : kNull;
      if (me == kNull) {
        const float* bias = guided ? guide->meeples(tree, meeples, p) : nullptr;
        me = tree.select(meeples, kExploration, bias, guided && tree.nodes[meeples].edge_count > kWideNode);
      }
      path.push_back(Step{place, pe, seat});
      path.push_back(Step{meeples, me, seat});
      if (g.play(make_move(g, tree.nodes[place].tile, p, tree.edges[me].target()))) break;  // cannot happen
      play_steps(g, rng, lists.steps);
      if (tree.edges[me].visits == 0 || tree.full()) break;  // a new leaf: play out from here
      if (tree.edges[me].child == kNull) {
        const std::uint32_t next = tree.add_turn();
        tree.edges[me].child = next;
      }
      turn = tree.edges[me].child;
    }
    playout(g, rng, lists, tree.horizon);
    const auto r = g.finished() || tree.horizon <= 0 ? rewards(g) : estimated_rewards(g, leaf_eval);
    tree.nodes[root].visits++;
    for (const Step& s : path) {
      tree.nodes[s.node].visits++;
      Edge& e = tree.edges[s.edge];
      e.visits++;
      e.reward += r[static_cast<std::size_t>(s.seat)];
    }
    if (hooks != nullptr && hooks->on_playout && path.size() >= 2) hooks->on_playout(path[1].edge, force, g);
    ++done;
  }
  return done;
}

BotChoice mcts_move(const PlayerView& view, const BotSpec& spec, Rng& rng) {
  Tree tree;
  tree.guide = true;
  tree.horizon = playout_horizon(view.canonical().rules());
  const int done = search(view, spec, rng, tree, nullptr);
  const std::uint32_t root = 0;
  const std::uint32_t place = tree.nodes[root].first_branch;
  const Edge& pe = tree.edges[tree.most_visited(place)];
  const Edge& me = tree.edges[tree.most_visited(pe.child)];
  return BotChoice{make_move(view.canonical(), tree.nodes[place].tile, pe.placement(), me.target()), done};
}

}  // namespace carc::bots
