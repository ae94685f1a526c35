// The Abbot (docs/expansions/abbot.md): one abbot per player, for monasteries and
// gardens, and its take-back instead of placing a figure. Gardens are tiles (tiles.hpp) and
// score like monasteries (the engine's cloister-like kind, abbot.hpp).
#include "carc/core/expansions/abbot/abbot.hpp"

#include "expansions/part.hpp"

namespace carc::detail {

using namespace carc::abbot;

const Part& abbot_part();  // below

namespace {

constexpr std::uint8_t kind_bit(Kind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }

constexpr Named kNames[] = {{Named::What::Figure, static_cast<std::uint8_t>(kAbbot), "abbot"},
                            {Named::What::Kind, static_cast<std::uint8_t>(kGarden), "garden"}};

void setup(Ruleset& r) {
  const auto abbot = static_cast<std::size_t>(kAbbot);
  r.figures[abbot] = 1;
  r.figure_kinds[abbot] = kind_bit(Kind::Monastery) | kind_bit(kGarden);
  r.strength[abbot] = 1;
  r.action_part = &abbot_part();
}

// Where `seat`'s abbot stands (its tile's index, -1 when in supply) and its segment.
int abbot_of(const Game& g, Seat seat, int* seg = nullptr) {
  if (g.figures(seat, kAbbot) > 0) return -1;  // in supply
  const std::optional<Game::Standing> f = g.find_standing(seat, kAbbot);
  if (!f) return -1;
  if (seg != nullptr) *seg = f->seg;
  return f->tile;
}

// Offered while the abbot's monastery or garden stays incomplete with this tile placed.
std::optional<Cell> offer(const Game& g, Seat seat, Tile, Placement p, int* points) {
  const int i = abbot_of(g, seat);
  if (i < 0) return std::nullopt;
  const Cell at{g.placed(i).x, g.placed(i).y};
  const bool touches = p.cell.x >= at.x - 1 && p.cell.x <= at.x + 1 && p.cell.y >= at.y - 1 && p.cell.y <= at.y + 1;
  const int around = g.cells_around(at) + (touches ? 1 : 0);
  if (around >= 8) return std::nullopt;
  *points = 1 + around;
  return at;
}

void act(Game& g, Seat seat, Cell, std::vector<Event>* events) {
  int seg = 0;
  const int tile = abbot_of(g, seat, &seg);
  g.score_and_return(tile, seg, events);
}

}  // namespace

const Part& abbot_part() {
  static constexpr Part part{.id = Expansion::Abbot, .setup = &setup, .offer = &offer, .act = &act, .names = kNames};
  return part;
}

}  // namespace carc::detail
