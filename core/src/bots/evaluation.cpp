#include "evaluation.hpp"

#include <algorithm>
#include <cmath>

namespace carc::bots {
namespace {

// Weights, tuned with `carcassonne arena` (docs/bots.md).
constexpr double kMeepleValue = 4.0;       // a meeple in supply at the start of the game ...
constexpr double kMeepleDecay = 0.85;      // ... each further one is worth this much less
constexpr double kReturnShare = 0.5;       // a meeple coming back later is worth this share
constexpr double kOthersHelp = 0.3;        // other players' turns count this much for filling a cell

// The chance that every open cell of `f` gets a fitting tile before the game ends.
double completion(const FeatureInfo& f, const Outlook& o) {
  if (f.open == 0) return 1.0;
  if (o.bag == 0 || f.cell_count == 0) return 0.0;
  const double cells = std::max<double>(f.open, f.cell_count);
  const double tries = (o.turns_own + kOthersHelp * o.turns_other) / cells;
  double p = 1.0;
  for (int i = 0; i < f.cell_count; ++i) {
    const double share = static_cast<double>(f.cells[static_cast<std::size_t>(i)].fitting) / o.bag;
    if (share <= 0) return 0.0;
    p *= 1.0 - std::pow(1.0 - std::min(share, 1.0), tries);
  }
  return p;
}

double supply_value(int supply, int bag, int bag_size) {
  const double phase = static_cast<double>(bag) / bag_size;
  double v = 0;
  double w = kMeepleValue;
  for (int k = 0; k < supply; ++k, w *= kMeepleDecay) v += w;
  return v * phase;
}

}  // namespace

Scores Evaluator::expected(const Game& g) {
  Scores e{};
  const int players = g.players();
  for (Seat s = 0; s < players; ++s) e[static_cast<std::size_t>(s)] = g.score(s);
  if (g.finished()) return e;

  if (rules_ != &g.rules()) {
    rules_ = &g.rules();
    hooks_ = &bot_hooks(g.rules());
  }
  const BotHooks& hooks = *hooks_;
  list_features(g, features_);
  const int bag = g.bag_left();
  const double turns_each = static_cast<double>(bag) / players + 1.0;
  const Outlook outlook{turns_each, turns_each * (players - 1), bag};
  const int bag_size = g.rules().bag_size;
  const double meeple_back = kReturnShare * kMeepleValue * static_cast<double>(bag) / bag_size;
  constexpr std::uint8_t kMeepleBit = 1u << static_cast<int>(Figure::Meeple);

  std::array<double, FeatureInfo::kMaxFeatures> p_city{};
  const std::size_t n = std::min(features_.size(), p_city.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (features_[i].kind != Kind::Field) p_city[i] = completion(features_[i], outlook);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const FeatureInfo& f = features_[i];
    int best = 0;
    for (Seat s = 0; s < players; ++s) best = std::max<int>(best, f.meeples[static_cast<std::size_t>(s)]);
    if (best == 0) continue;  // a city listed for a farm only
    const double p = p_city[i];
    double value = 0;  // a kind the base game does not know is worth nothing here
    if (f.kind == Kind::Road) {
      value = f.tiles;
    } else if (f.kind == Kind::City) {
      value = (f.tiles + f.pennants) * (1.0 + p);
    } else if (is_cloister(f.kind)) {
      const double filled = 8 - f.open;
      value = p * 9.0 + (1.0 - p) * (1.0 + filled + 0.5 * f.open);
    } else if (f.kind == Kind::Field) {
      double cities = f.completed_cities;
      for (int c = 0; c < f.city_count; ++c) cities += p_city[f.cities[static_cast<std::size_t>(c)]];
      value = 3.0 * cities;
    }
    for (const auto hook : hooks.feature_value) value = hook(f, p, value);
    for (Seat s = 0; s < players; ++s) {
      const int mine = f.meeples[static_cast<std::size_t>(s)];
      const std::uint8_t figures = f.figures[static_cast<std::size_t>(s)];
      const bool others = (figures & ~kMeepleBit) != 0;  // some figure besides the meeple
      if (mine == best) {
        double won = value;
        if (others) {
          for (const auto hook : hooks.winner_extra) won += hook(f, figures, value);
        }
        e[static_cast<std::size_t>(s)] += won;
      }
      if (f.kind != Kind::Field) e[static_cast<std::size_t>(s)] += p * mine * meeple_back;
      if (others) {
        for (const auto hook : hooks.standing_extra) e[static_cast<std::size_t>(s)] += hook(f, figures, p, outlook);
      }
    }
  }
  for (int k = 0; k < hooks.tokens.size; ++k) {
    const BotPart* part = hooks.tokens.items[static_cast<std::size_t>(k)];
    part->tokens(g, hooks.tallies[static_cast<std::size_t>(k)], e);
  }
  const double phase = static_cast<double>(bag) / bag_size;
  for (Seat s = 0; s < players; ++s) {
    // The additions keep their order (bot_hooks.hpp, BotPart::supply).
    double own = supply_value(g.meeples(s), bag, bag_size);
    for (const auto hook : hooks.supply_with_meeples) own += hook(g, s, bag, bag_size, phase);
    e[static_cast<std::size_t>(s)] += own;
    if (!hooks.supply_after.empty()) {
      double more = 0.0;
      for (const auto hook : hooks.supply_after) more += hook(g, s, bag, bag_size, phase);
      e[static_cast<std::size_t>(s)] += more;
    }
  }
  if (risks_) {
    for (const auto hook : hooks.risk) hook(g, e);
  }
  return e;
}

double Evaluator::margin(const Scores& e, int players, Seat me) {
  double best_other = -1e9;
  for (Seat s = 0; s < players; ++s) {
    if (s != me) best_other = std::max(best_other, e[static_cast<std::size_t>(s)]);
  }
  return e[static_cast<std::size_t>(me)] - best_other;
}

}  // namespace carc::bots
