// openskill's rate() with the Plackett-Luce model, step for step (docs/community.md#ratings):
// rate.ts adds tau to every sigma and sorts the players by rank; util.ts `rankings` gives each
// sorted position the index of the first player of its tie; plackett-luce.ts then moves each
// player by omega and shrinks it by delta. Teams are single players here, so a team's mu and
// sigma^2 are the player's own.
#include "community/rating.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>

namespace carc::server::community {

std::vector<Rating> rate(std::span<const Rating> prior, std::span<const int> rank, const RatingModel& model) {
  const std::size_t n = prior.size();
  if (n != rank.size() || n < 2) throw std::invalid_argument("rate: one rank per player, two players at least");

  // The players in rank order (a stable sort, as sort-unwind keeps ties in input order).
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });

  std::vector<double> mu(n), sig_sq(n);
  std::vector<std::size_t> tie_rank(n);  // util.ts `rankings`: index of the tie's first position
  const double tau_sq = model.tau * model.tau;
  for (std::size_t j = 0; j < n; ++j) {
    const Rating& r = prior[order[j]];
    mu[j] = r.mu;
    sig_sq[j] = r.sigma * r.sigma + tau_sq;  // sigma = sqrt(sigma^2 + tau^2), squared again
    tie_rank[j] = (j > 0 && rank[order[j - 1]] < rank[order[j]]) ? j : (j > 0 ? tie_rank[j - 1] : 0);
  }

  const double beta_sq = model.beta * model.beta;
  double c_sq = 0;
  for (std::size_t j = 0; j < n; ++j) c_sq += sig_sq[j] + beta_sq;
  const double c = std::sqrt(c_sq);

  std::vector<double> exp_mu(n), sum_q(n, 0.0), a(n, 0.0);
  for (std::size_t j = 0; j < n; ++j) exp_mu[j] = std::exp(mu[j] / c);
  for (std::size_t q = 0; q < n; ++q) {
    for (std::size_t i = 0; i < n; ++i) {
      if (tie_rank[i] >= tie_rank[q]) sum_q[q] += exp_mu[i];
      if (tie_rank[i] == tie_rank[q]) a[q] += 1;
    }
  }

  std::vector<Rating> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    double omega_sum = 0, delta_sum = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (tie_rank[q] > tie_rank[i]) continue;
      const double quotient = exp_mu[i] / sum_q[q];
      omega_sum += (i == q ? 1 - quotient : -quotient) / a[q];
      delta_sum += quotient * (1 - quotient) / a[q];
    }
    const double gamma = std::sqrt(sig_sq[i]) / c;  // util.ts defaultGamma
    const double omega = omega_sum * (sig_sq[i] / c);
    const double delta = delta_sum * (sig_sq[i] / (c * c)) * gamma;
    // plackett-luce.ts with one player per team: sigma^2 / team sigma^2 is 1.
    const double sigma = std::sqrt(sig_sq[i]);
    out[order[i]] = Rating{mu[i] + omega, sigma * std::sqrt(std::max(1 - delta, model.kappa))};
  }
  return out;
}

}  // namespace carc::server::community
