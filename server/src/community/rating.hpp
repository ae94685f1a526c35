// Weng-Lin ratings with the Plackett-Luce model (docs/community.md#ratings), computed
// exactly as the `openskill` npm package (5.0.1) does with its defaults: every player is a
// team of one, sigma grows by tau before a game, ties share a rank. Pure: no I/O, no clock.
#pragma once

#include <span>
#include <vector>

namespace carc::server::community {

// A player's skill belief: mean and standard deviation.
struct Rating {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
};

// openskill's defaults (constants.ts).
struct RatingModel {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;
  double kappa = 1e-4;
  double tau = 25.0 / 300.0;
  double z = 3.0;  // the ordinal's width: ordinal = mu - z * sigma

  Rating initial() const { return {mu, sigma}; }
  // openskill's `ordinal`: the conservative estimate shown as the rating.
  double ordinal(const Rating& r) const { return r.mu - z * r.sigma; }
};

// The ratings after one game. `prior[i]` is player i's rating before it, `rank[i]` its place
// (lower is better, equal values are a tie; only their order matters, as in openskill's
// `rank` option). Both spans have the same size, at least 2. The answer is in the order of
// `prior`.
std::vector<Rating> rate(std::span<const Rating> prior, std::span<const int> rank, const RatingModel& model = {});

}  // namespace carc::server::community
