#include "carc/core/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "bots/search.hpp"

namespace carc {
namespace {

// Playout margins of one root move (a placement and its target).
struct Stat {
  double sum = 0;
  double squares = 0;
  int n = 0;
  int forced = 0;  // of n, the iterations that followed the played move by force

  double mean() const { return n > 0 ? sum / n : 0.0; }
  // The squared standard error of the mean.
  double error2() const {
    if (n < 2) return 400.0;  // one playout says little: a margin's spread is about 20 points
    const double var = std::max(0.0, squares / n - mean() * mean());
    return var / n;
  }
};

int margin(const Game& g, Seat seat) {
  int best_other = -1'000'000;
  for (Seat s = 0; s < g.players(); ++s) {
    if (s != seat) best_other = std::max(best_other, g.score(s));
  }
  return g.score(seat) - best_other;
}

}  // namespace

std::string_view move_label_name(MoveLabel l) {
  switch (l) {
    case MoveLabel::Best: return "best";
    case MoveLabel::Good: return "good";
    case MoveLabel::Inaccuracy: return "inaccuracy";
    case MoveLabel::Mistake: return "mistake";
    case MoveLabel::Blunder: return "blunder";
  }
  return "?";
}

MoveLabel label_for(double loss, double spread) {
  if (loss <= spread || loss <= LabelThresholds::kGood) return MoveLabel::Best;
  if (loss >= LabelThresholds::kBlunder) return MoveLabel::Blunder;
  if (loss >= LabelThresholds::kMistake) return MoveLabel::Mistake;
  if (loss >= LabelThresholds::kInaccuracy) return MoveLabel::Inaccuracy;
  return MoveLabel::Good;
}

std::uint64_t analysis_seed(std::uint64_t seed, int index) {
  Rng r(seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(index + 1)));
  return r.next();
}

std::optional<MoveAnalysis> analyse_move(const Game& before, const Move& played, int index, const BotSpec& budget,
                                         std::uint64_t seed) {
  MoveAnalysis a;
  a.move = index;
  a.seat = before.current_seat();
  {
    Game scratch = before;
    if (scratch.play(played)) return std::nullopt;
  }
  if (played.type == Move::Type::Discard) {
    a.discard = true;
    return a;
  }
  const PlayerView view(before);  // from here on, the bag's order is out of sight
  const Seat seat = a.seat;
  std::unordered_map<std::uint32_t, Stat> stats;
  bots::SearchHooks hooks;
  hooks.forced = std::make_pair(played.placement, bots::target_of(played));
  hooks.on_playout = [&](std::uint32_t edge, bool forced, const Game& end) {
    Stat& s = stats[edge];
    const double m = margin(end, seat);
    s.sum += m;
    s.squares += m * m;
    s.n++;
    s.forced += forced ? 1 : 0;
  };
  BotSpec spec = budget;
  spec.kind = BotKind::Mcts;
  bots::Tree tree;
  Rng rng(seed);
  a.playouts = bots::search(view, spec, rng, tree, &hooks);

  // The played move's root edge, and the search's own choice: the whole move most visited
  // by the search itself (forced visits left out), the better mean on a tie.
  const std::uint32_t place = tree.nodes[0].first_branch;
  std::uint32_t played_edge = bots::kNull;
  std::uint32_t best_edge = bots::kNull;
  Placement best_placement = played.placement;
  int best_visits = -1;
  const bots::Node& pn = tree.nodes[place];
  for (std::uint32_t i = pn.first_edge; i < pn.first_edge + pn.edge_count; ++i) {
    const bots::Edge& pe = tree.edges[i];
    if (pe.child == bots::kNull) continue;
    const bots::Node& mn = tree.nodes[pe.child];
    for (std::uint32_t j = mn.first_edge; j < mn.first_edge + mn.edge_count; ++j) {
      const auto it = stats.find(j);
      if (it == stats.end()) continue;
      const Stat& s = it->second;
      if (pe.placement() == played.placement && tree.edges[j].target() == bots::target_of(played)) played_edge = j;
      const int own = s.n - s.forced;
      if (own > best_visits || (own == best_visits && best_edge != bots::kNull && s.mean() > stats[best_edge].mean())) {
        best_visits = own;
        best_edge = j;
        best_placement = pe.placement();
      }
    }
  }
  const Stat p = played_edge != bots::kNull ? stats[played_edge] : Stat{};
  a.played_value = p.mean();
  if (best_edge == bots::kNull || best_edge == played_edge || best_visits <= 0) {
    a.best = played;
    a.best_value = a.played_value;
    a.spread = 2.0 * std::sqrt(p.error2());
    a.loss = 0;
    a.label = MoveLabel::Best;
    return a;
  }
  const Stat& b = stats[best_edge];
  a.best = bots::make_move(view.canonical(), tree.nodes[place].tile, best_placement, tree.edges[best_edge].target());
  a.best_value = b.mean();
  a.spread = 2.0 * std::sqrt(p.error2() + b.error2());
  a.loss = std::max(0.0, a.best_value - a.played_value);
  a.label = label_for(a.loss, a.spread);
  if (a.loss <= 0) {  // the played move did at least as well: it is the best found
    a.best = played;
    a.best_value = a.played_value;
  }
  return a;
}

}  // namespace carc
