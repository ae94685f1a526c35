// The `small_city` option (docs/options.md): a city completed during the game that covers
// exactly two tiles scores 2 in all, whatever its pennants; at the end of the game, and for
// any other size, cities score as usual. Asked after every expansion's points, so it has
// the last word on such a city.
#include "expansions/part.hpp"

namespace carc::detail {
namespace {

int feature_points(const FeatureTally& t, int points) {
  if (t.kind == Kind::City && !t.end && t.tiles == 2) return 2;
  return points;
}

}  // namespace

const Part& small_city_part() {
  static constexpr Part part{.id = {}, .feature_points = &feature_points};
  return part;
}

}  // namespace carc::detail
