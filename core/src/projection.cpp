#include "carc/core/projection.hpp"

namespace carc {

std::array<int, kMaxPlayers> projected_points(const Game& g) {
  std::array<int, kMaxPlayers> out{};
  if (g.finished()) return out;
  Game end = g;  // copies only the parts in use (a few KB)
  end.finish();
  for (Seat s = 0; s < g.players(); ++s) out[static_cast<std::size_t>(s)] = end.score(s) - g.score(s);
  return out;
}

}  // namespace carc
