#include "evaluation.hpp"

#include <algorithm>
#include <cmath>

#include "carc/core/expansions/abbot/abbot.hpp"
#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/traders/traders.hpp"

namespace carc::bots {
namespace {

// Weights, tuned with `carcassonne arena` (docs/bots.md).
constexpr double kMeepleValue = 4.0;       // a meeple in supply at the start of the game ...
constexpr double kMeepleDecay = 0.85;      // ... each further one is worth this much less
constexpr double kReturnShare = 0.5;       // a meeple coming back later is worth this share
constexpr double kOthersHelp = 0.3;        // other players' turns count this much for filling a cell

struct Outlook {
  double turns_own;    // turns the owner still has
  double turns_other;  // turns everybody else still has
  int bag;
};

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

constexpr double kAbbotValue = 3.0;  // an abbot in supply at the start of the game
// Inns & Cathedrals and Traders & Builders (docs/bots.md).
constexpr double kBigValue = 6.0;       // the big meeple in supply at the start of the game
constexpr double kBuilderValue = 2.0;   // the builder or the pig in supply at the start
constexpr double kExtraTurn = 2.25;     // what an extra part of a turn is worth (3.0 and 1.5 played no better)
constexpr double kGoodsMajority = 10.0;
constexpr double kGoodsClump = 1.5;     // tokens come by the city: spread of the tokens still to take

// Goods tokens of each kind in the whole game (the tiles of its set).
std::array<int, traders::kGoodKinds> goods_in_game(const Ruleset& rules) {
  std::array<int, traders::kGoodKinds> out{};
  for (int k = 0; k < kTileKinds; ++k) {
    const int copies = rules.counts[static_cast<std::size_t>(k)];
    if (copies == 0) continue;
    const TileDef& d = tile_def(static_cast<Tile>(k));
    for (int i = 0; i < d.segment_count; ++i) {
      const int good = traders::good_of_marks(d.segments[static_cast<std::size_t>(i)].marks);
      if (good >= 0) out[static_cast<std::size_t>(good)] += copies;
    }
  }
  return out;
}

// Each goods majority by how open it still is (majority_chance): 10 points times each
// seat's chance to end with the most tokens of the kind.
void add_goods(const Game& g, const std::array<int, traders::kGoodKinds>& total, Scores& e) {
  if (g.rules().token_kinds == 0) return;  // a game without tokens has no goods
  const int players = g.players();
  for (int k = 0; k < traders::kGoodKinds; ++k) {
    int taken = 0;
    for (Seat s = 0; s < players; ++s) taken += g.tokens(s, k);
    const int left = std::max(0, total[static_cast<std::size_t>(k)] - taken);
    if (taken == 0 && left == 0) continue;
    for (Seat s = 0; s < players; ++s) {
      int best_other = 0;
      for (Seat o = 0; o < players; ++o) {
        if (o != s) best_other = std::max(best_other, g.tokens(o, k));
      }
      e[static_cast<std::size_t>(s)] += kGoodsMajority * majority_chance(g.tokens(s, k) - best_other, left);
    }
  }
}

bool has(std::uint8_t figures, Figure f) { return ((figures >> static_cast<int>(f)) & 1) != 0; }

double supply_value(int supply, int bag, int bag_size) {
  const double phase = static_cast<double>(bag) / bag_size;
  double v = 0;
  double w = kMeepleValue;
  for (int k = 0; k < supply; ++k, w *= kMeepleDecay) v += w;
  return v * phase;
}

}  // namespace

double majority_chance(int lead, int left) {
  // The lead against the spread of the tokens still to come, as a normal variable; +0.5:
  // a tie wins too.
  const double spread = std::sqrt(kGoodsClump * left);
  const double margin = lead + 0.5;
  if (spread <= 0) return margin > 0 ? 1.0 : 0.0;
  return 0.5 * std::erfc(-margin / (spread * std::sqrt(2.0)));
}

// A builder brings an extra part each time its owner extends its feature again: one of
// the owner's turns whose tile fits one of the open cells (the share of the bag that fits
// some cell), at most once per open cell, and fewer as the feature nears closing (then the
// builder comes back and must be placed again).
double builder_value(const FeatureInfo& f, double p, double turns_own, int bag) {
  if (bag == 0 || f.cell_count == 0) return 0.0;
  double fits = 0;
  for (int i = 0; i < f.cell_count; ++i) fits += f.cells[static_cast<std::size_t>(i)].fitting;
  const double per_turn = std::min(1.0, fits / bag);
  const double triggers = std::min<double>(f.cell_count, turns_own * per_turn);
  return kExtraTurn * triggers * (1.0 - 0.5 * p);
}

Scores Evaluator::expected(const Game& g) {
  Scores e{};
  const int players = g.players();
  for (Seat s = 0; s < players; ++s) e[static_cast<std::size_t>(s)] = g.score(s);
  if (g.finished()) return e;

  list_features(g, features_);
  const int bag = g.bag_left();
  const double turns_each = static_cast<double>(bag) / players + 1.0;
  const Outlook outlook{turns_each, turns_each * (players - 1), bag};
  const int bag_size = g.rules().bag_size;
  const double meeple_back = kReturnShare * kMeepleValue * static_cast<double>(bag) / bag_size;

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
    double value = 0;
    switch (f.kind) {
      // An inn or a cathedral pays only when the feature closes.
      case Kind::Road: value = (f.marks & inns::kMarkInn) != 0 ? 2.0 * f.tiles * p : f.tiles; break;
      case Kind::City:
        value = (f.marks & inns::kMarkCathedral) != 0 ? 3.0 * (f.tiles + f.pennants) * p : (f.tiles + f.pennants) * (1.0 + p);
        break;
      case Kind::Unscored: break;
      case abbot::kGarden:
      case Kind::Monastery: {
        const double filled = 8 - f.open;
        value = p * 9.0 + (1.0 - p) * (1.0 + filled + 0.5 * f.open);
        break;
      }
      case Kind::Field: {
        double cities = f.completed_cities;
        for (int c = 0; c < f.city_count; ++c) cities += p_city[f.cities[static_cast<std::size_t>(c)]];
        value = 3.0 * cities;
        break;
      }
    }
    double cities = 0;  // fields: what the pig adds, one a city
    if (f.kind == Kind::Field) cities = value / 3.0;
    for (Seat s = 0; s < players; ++s) {
      const int mine = f.meeples[static_cast<std::size_t>(s)];
      const std::uint8_t figures = f.figures[static_cast<std::size_t>(s)];
      if (mine == best) e[static_cast<std::size_t>(s)] += value + (has(figures, traders::kPig) ? cities : 0.0);
      if (f.kind != Kind::Field) e[static_cast<std::size_t>(s)] += p * mine * meeple_back;
      if (has(figures, traders::kBuilder)) e[static_cast<std::size_t>(s)] += builder_value(f, p, outlook.turns_own, outlook.bag);
    }
  }
  if (goods_rules_ != &g.rules()) {
    goods_rules_ = &g.rules();
    goods_total_ = goods_in_game(g.rules());
  }
  add_goods(g, goods_total_, e);  // nothing without goods in the game
  for (Seat s = 0; s < players; ++s) {
    const double phase = static_cast<double>(bag) / bag_size;
    e[static_cast<std::size_t>(s)] += supply_value(g.meeples(s), bag, bag_size) +
                                      kAbbotValue * g.figures(s, abbot::kAbbot) * static_cast<double>(bag) / bag_size;
    if (g.rules().has_specials) {
      e[static_cast<std::size_t>(s)] += kBigValue * g.figures(s, inns::kBig) * phase +
                                        kBuilderValue * (g.figures(s, traders::kBuilder) + g.figures(s, traders::kPig)) * phase;
    }
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
