// Traders & Builders (docs/expansions/traders-builders.md): goods taken for completing a city
// and their majorities at the end, the builder's extra part of a turn, and the pig in farm
// scoring. The tiles and their goods symbols are data (tiles.hpp, traders.hpp).
#include "carc/core/expansions/traders/traders.hpp"

#include <algorithm>

#include "expansions/part.hpp"

namespace carc::detail {

using namespace carc::traders;

const Part& traders_part();  // below

namespace {

constexpr std::uint8_t kind_bit(Kind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }
constexpr int kMajorityPoints = 10;

// The goods each seat holds, in the game's part state bytes [8, 8 + 6 * 3) (another
// part keeps [0, 8), docs/expansions.md): one byte a seat and kind.
constexpr std::size_t kOffset = 8;
static_assert(kOffset + kMaxPlayers * kGoodKinds <= Game::kPartStateBytes && kGoodKinds <= kMaxTokenKinds);
std::size_t slot(Seat seat, int k) { return kOffset + static_cast<std::size_t>(seat * kGoodKinds + k); }

int tokens(const Game& g, Seat seat, int k) { return g.part_state()[slot(seat, k)]; }

constexpr Named kNames[] = {{Named::What::Figure, static_cast<std::uint8_t>(kBuilder), "builder"},
                            {Named::What::Figure, static_cast<std::uint8_t>(kPig), "pig"}};

void setup(Ruleset& r) {
  const auto builder = static_cast<std::size_t>(kBuilder);
  const auto pig = static_cast<std::size_t>(kPig);
  r.figures[builder] = 1;
  r.figures[pig] = 1;
  r.figure_kinds[builder] = kind_bit(Kind::Road) | kind_bit(Kind::City);
  r.figure_kinds[pig] = kind_bit(Kind::Field);
  // Neither is a follower: strength 0, and each goes only beside its owner's follower.
  r.strength[builder] = 0;
  r.strength[pig] = 0;
  r.needs_own = static_cast<std::uint8_t>(r.needs_own | (1u << builder) | (1u << pig));
  r.token_part = &traders_part();
  r.token_expansion = Expansion::Traders;
  r.token_kinds = kGoodKinds;
}

// A winner with their pig in the field: 4 a completed city instead of 3.
int winner_points(const FeatureTally& t, Seat winner, int points) {
  if (t.kind != Kind::Field) return points;
  if (((t.figures[static_cast<std::size_t>(winner)] >> static_cast<int>(kPig)) & 1) == 0) return points;
  return points + t.cities;
}

// Goods symbols in the feature of `root`, by Good.
std::array<int, kGoodKinds> goods_in(const Game& g, std::uint16_t root) {
  std::array<int, kGoodKinds> out{};
  std::uint16_t n = root;
  do {
    const Game::Node& node = g.node(n);
    const int k = good_of_marks(tile_def(g.placed(node.tile).tile).segments[node.seg].marks);
    if (k >= 0) ++out[static_cast<std::size_t>(k)];
    n = node.next;
  } while (n != root);
  return out;
}

// The player who completes a city takes its goods, whoever holds it.
void completed(Game& g, Seat seat, std::uint16_t root, Kind kind, std::vector<Event>* events) {
  if (kind != Kind::City) return;
  const std::array<int, kGoodKinds> goods = goods_in(g, root);
  if (goods[0] + goods[1] + goods[2] == 0) return;
  for (int k = 0; k < kGoodKinds; ++k) {
    std::uint8_t& held = g.part_state()[slot(seat, k)];
    held = static_cast<std::uint8_t>(held + goods[static_cast<std::size_t>(k)]);
  }
  if (events != nullptr) {
    const Game::Placed& p = g.placed(g.placed_count() - 1);
    ExpansionEvent e{Expansion::Traders, kGoodsTaken, seat, Cell{p.x, p.y}};
    e.in_turn = true;
    for (int k = 0; k < kGoodKinds; ++k) e.values[static_cast<std::size_t>(k)] = goods[static_cast<std::size_t>(k)];
    events->push_back(e);
  }
}

// The placed-tile index of `seat`'s builder, or -1 when it is in the supply.
int builder_of(const Game& g, Seat seat) {
  if (g.figures(seat, kBuilder) > 0) return -1;
  for (int i = g.placed_count() - 1; i >= 0; --i) {
    const Game::Placed& p = g.placed(i);
    if (p.meeple_seat == seat && p.figure == kBuilder) return i;
  }
  return -1;
}

// The builder triggers when it stood on the board before this tile and the tile holds a
// segment of its road or city.
bool grants_extra(const Game& g, Seat seat, int index) {
  const int b = builder_of(g, seat);
  if (b < 0 || b == index) return false;
  const std::uint16_t root = g.root_of(b, g.placed(b).meeple_seg);
  const TileDef& d = tile_def(g.placed(index).tile);
  for (int s = 0; s < d.segment_count; ++s) {
    const Kind k = d.segments[static_cast<std::size_t>(s)].kind;
    if ((k == Kind::Road || k == Kind::City) && g.root_of(index, s) == root) return true;
  }
  return false;
}

// Each kind of goods: 10 to every player holding the most of it (at least one).
void finish(Game& g, std::vector<Event>* events) {
  for (int k = 0; k < kGoodKinds; ++k) {
    int best = 0;
    for (int s = 0; s < g.players(); ++s) best = std::max(best, tokens(g, s, k));
    if (best == 0) continue;
    ExpansionEvent e{Expansion::Traders, kGoodsScored};
    e.points = kMajorityPoints;
    e.players = static_cast<std::uint8_t>(g.players());
    e.arg = static_cast<std::uint8_t>(k);
    for (int s = 0; s < g.players(); ++s) {
      e.values[static_cast<std::size_t>(s)] = tokens(g, s, k);
      if (tokens(g, s, k) != best) continue;
      g.add_score(s, kMajorityPoints);
      e.winners = static_cast<std::uint8_t>(e.winners | (1u << s));
    }
    if (events != nullptr) events->push_back(e);
  }
}

}  // namespace

const Part& traders_part() {
  static constexpr Part part{.id = Expansion::Traders,
                             .setup = &setup,
                             .winner_points = &winner_points,
                             .completed = &completed,
                             .grants_extra = &grants_extra,
                             .finish = &finish,
                             .tokens = &tokens,
                             .names = kNames};
  return part;
}

}  // namespace carc::detail
