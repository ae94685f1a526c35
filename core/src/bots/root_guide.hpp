// The root guide of the mcts bot (mcts.cpp): greedy's estimate of every root move, as a
// progressive bias of the search's first visits (docs/bots.md, "mcts"). A header of its own
// so that the tests can ask it what it valued.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "bots.hpp"
#include "carc/core/player_view.hpp"
#include "evaluation.hpp"
#include "mcts_tree.hpp"

namespace carc::bots {

inline constexpr double kGuideWeight = 0.5;   // progressive bias at the root: a move this many reward units ...
inline constexpr double kGuideScale = 10.0;   // ... times its estimate's shortfall in points over this (at most 1)
inline constexpr std::uint32_t kWideNode = 4;  // a root figure choice of more targets opens them best first, one by one
inline constexpr std::size_t kFarExact = 3;   // the guide values this many far destinations (a figure on another tile) of a placement exactly

// Greedy's estimate at the root (evaluation.hpp) as a progressive bias: each root edge's
// shortfall against the best sibling, in reward units, so that UCB1's first visits go to
// the moves the estimate likes (the figure choices above all, which uniform playouts
// barely tell apart) and the playouts take over as visits grow.
class RootGuide {
 public:
  explicit RootGuide(const PlayerView& view)
      : base_(view.canonical()), next_(base_), eval_(true), weight_(guide_weight(base_.rules())) {}

  // kGuideWeight, or the weight an expansion in play asks for (BotPart::guide_weight).
  static double guide_weight(const Ruleset& rules) {
    const double w = bot_hooks(rules).guide_weight;
    return w > 0.0 ? w : kGuideWeight;
  }

  const float* placements(const Tree& tree, std::uint32_t place) {
    if (placements_.empty()) {
      const Node& n = tree.nodes[place];
      std::vector<double> h(n.edge_count);
      std::vector<Target> far;
      for (std::uint32_t i = 0; i < n.edge_count; ++i) {
        const Placement p = tree.edges[n.first_edge + i].placement();
        double best = -1e18;
        far.clear();
        for_each_target(base_, n.tile, p, n.seat, [&](Target target) {
          if (target.code == kElsewhere) {
            far.push_back(target);
            return;
          }
          const double v = value(n.tile, p, target);
          known_.push_back(Known{p, target, v});
          best = std::max(best, v);
        }, tree.prune, &lists_);
        if (!far.empty()) best = std::max(best, elsewhere(n.tile, p, far));
        h[i] = best;
      }
      placements_ = biases(h);
    }
    return placements_.data();
  }

  // How many moves the guide played out and estimated (a copy of the game each).
  int valued() const { return valued_; }

  // Asked before the node's first visit. A node of more than kWideNode targets gets its
  // edges sorted best first (search() widens it).
  const float* meeples(Tree& tree, std::uint32_t node, Placement p) {
    for (const auto& [id, b] : meeples_) {
      if (id == node) return b.data();
    }
    const Node& n = tree.nodes[node];
    std::vector<double> h(n.edge_count);
    for (std::uint32_t i = 0; i < n.edge_count; ++i) h[i] = known(n.tile, p, tree.edges[n.first_edge + i].target());
    if (n.edge_count > kWideNode) {
      std::vector<std::uint32_t> order(n.edge_count);
      for (std::uint32_t i = 0; i < n.edge_count; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return h[a] > h[b]; });
      std::vector<Edge> edges(n.edge_count);
      std::vector<double> sorted(n.edge_count);
      for (std::uint32_t i = 0; i < n.edge_count; ++i) {
        edges[i] = tree.edges[n.first_edge + order[i]];
        sorted[i] = h[order[i]];
      }
      std::copy(edges.begin(), edges.end(), tree.edges.begin() + n.first_edge);
      h = std::move(sorted);
    }
    meeples_.emplace_back(node, biases(h));
    return meeples_.back().second.data();
  }

 private:
  // Every root move's value, from placements(), which meeples() reads again (each
  // costs a copy of the game, the move, the steps it begins and the estimate).
  struct Known {
    Placement p;
    Target target;
    double value;
  };

  double known(Tile t, Placement p, Target target) {
    for (const Known& k : known_) {
      if (k.p == p && k.target == target) return k.value;
    }
    return value(t, p, target);
  }

  // The figures `p` may put on other tiles (`far`: an expansion's, on any free feature of the
  // board; dozens for each placement). Valuing each on each placement cost most of a 200 ms
  // move, so a destination is valued once, by what it adds to the placement it first came
  // with (its value there less that placement's without a figure), and on every placement
  // that value is added to the placement's own without a figure; only the kFarExact best
  // destinations of each placement are played out and estimated. Returns the best value.
  double elsewhere(Tile t, Placement p, const std::vector<Target>& far) {
    const double plain = known(t, p, Target(kNoMeeple));
    std::vector<std::pair<double, Target>> order;
    order.reserve(far.size());
    for (const Target target : far) {
      auto it = std::find_if(gains_.begin(), gains_.end(), [&](const auto& g) { return g.first == target; });
      if (it == gains_.end()) {
        gains_.emplace_back(target, value(t, p, target) - plain);
        it = gains_.end() - 1;
      }
      order.emplace_back(it->second, target);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    double best = -1e18;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const double v = k < kFarExact ? value(t, p, order[k].second) : plain + order[k].first;
      known_.push_back(Known{p, order[k].second, v});
      best = std::max(best, v);
    }
    return best;
  }

  double value(Tile t, Placement p, Target target) {
    ++valued_;
    Game& next = next_;
    next = base_;
    if (next.play(make_move(next, t, p, target))) return -1e18;  // cannot happen: the move comes from the generator
    play_best_steps(next, eval_);
    return Evaluator::margin(eval_.expected(next), next.players(), base_.current_seat());
  }

  std::vector<float> biases(const std::vector<double>& h) const {
    const double top = h.empty() ? 0.0 : *std::max_element(h.begin(), h.end());
    std::vector<float> out(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      out[i] = static_cast<float>(weight_ * std::max(-1.0, (h[i] - top) / kGuideScale));
    }
    return out;
  }

  Game base_;
  Game next_;  // value()'s move, assigned over the last one (copies only the cells in use)
  TargetLists lists_;
  Evaluator eval_;
  double weight_;
  std::vector<float> placements_;
  std::vector<Known> known_;
  std::vector<std::pair<Target, double>> gains_;  // elsewhere(): what each destination adds
  int valued_ = 0;
  std::vector<std::pair<std::uint32_t, std::vector<float>>> meeples_;
};

}  // namespace carc::bots
