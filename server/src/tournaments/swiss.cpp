// Swiss pairings by backtracking over the ranked list (docs/tournaments.md#swiss).
#include "tournaments/swiss.hpp"

#include <algorithm>
#include <cstddef>

namespace carc::server::tournaments {
namespace {

// Seats `players` (in rank order) at tables of `sizes`, each table's first seat the best
// player still unseated and the others the next ones who met nobody at the table yet.
// Gives up (false) after `budget` steps: the caller then allows rematches.
class Seater {
 public:
  Seater(const std::vector<PlayerId>& players, const std::vector<int>& sizes, const Met& met)
      : players_(players), sizes_(sizes), met_(met), used_(players.size(), false) {}

  bool strict(std::vector<std::vector<PlayerId>>& out) {
    budget_ = 200000;
    out.clear();
    return table(0, out);
  }

  // Rank order, preferring players who met nobody at the table; counts the rematches left.
  int loose(std::vector<std::vector<PlayerId>>& out) {
    out.clear();
    std::fill(used_.begin(), used_.end(), false);
    int rematches = 0;
    for (int size : sizes_) {
      std::vector<PlayerId> t;
      while (static_cast<int>(t.size()) < size) {
        std::size_t pick = players_.size();
        for (std::size_t i = 0; i < players_.size(); ++i) {
          if (used_[i]) continue;
          if (pick == players_.size()) pick = i;
          if (fits(t, players_[i])) { pick = i; break; }
        }
        for (const PlayerId& p : t) rematches += have_met(met_, p, players_[pick]) ? 1 : 0;
        used_[pick] = true;
        t.push_back(players_[pick]);
      }
      out.push_back(std::move(t));
    }
    return rematches;
  }

 private:
  bool fits(const std::vector<PlayerId>& t, const PlayerId& p) const {
    for (const PlayerId& q : t) {
      if (have_met(met_, p, q)) return false;
    }
    return true;
  }

  bool table(std::size_t n, std::vector<std::vector<PlayerId>>& out) {
    if (n == sizes_.size()) return true;
    std::size_t first = 0;
    while (first < used_.size() && used_[first]) ++first;
    if (first == used_.size()) return false;
    used_[first] = true;
    std::vector<PlayerId> t{players_[first]};
    bool ok = others(n, first + 1, t, out);
    used_[first] = false;
    return ok;
  }

  bool others(std::size_t n, std::size_t from, std::vector<PlayerId>& t, std::vector<std::vector<PlayerId>>& out) {
    if (--budget_ < 0) return false;
    if (static_cast<int>(t.size()) == sizes_[n]) {
      out.push_back(t);
      if (table(n + 1, out)) return true;
      out.pop_back();
      return false;
    }
    for (std::size_t i = from; i < players_.size(); ++i) {
      if (used_[i] || !fits(t, players_[i])) continue;
      used_[i] = true;
      t.push_back(players_[i]);
      bool ok = others(n, i + 1, t, out);
      t.pop_back();
      used_[i] = false;
      if (ok) return true;
      if (budget_ < 0) return false;
    }
    return false;
  }

  const std::vector<PlayerId>& players_;
  const std::vector<int>& sizes_;
  const Met& met_;
  std::vector<bool> used_;
  long budget_ = 0;
};

}  // namespace

Seating swiss_pairing(const std::vector<PlayerId>& ranked, const Met& met, const std::set<PlayerId>& had_bye,
                      int per_table) {
  Seating seating;
  std::vector<int> sizes = table_sizes(static_cast<int>(ranked.size()), per_table);
  const bool bye = !sizes.empty() && sizes.back() == 1;
  if (!bye) {
    Seater seater(ranked, sizes, met);
    if (!seater.strict(seating.tables)) seating.rematches = seater.loose(seating.tables);
    return seating;
  }
  sizes.pop_back();
  // Bye candidates from the bottom: those who had none; only if everyone had one, anyone.
  std::vector<std::size_t> candidates;
  for (std::size_t i = ranked.size(); i-- > 0;) {
    if (had_bye.count(ranked[i]) == 0) candidates.push_back(i);
  }
  if (candidates.empty()) {
    for (std::size_t i = ranked.size(); i-- > 0;) candidates.push_back(i);
  }
  auto without = [&](std::size_t skip) {
    std::vector<PlayerId> rest;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      if (i != skip) rest.push_back(ranked[i]);
    }
    return rest;
  };
  for (std::size_t c : candidates) {
    std::vector<PlayerId> rest = without(c);
    Seater seater(rest, sizes, met);
    if (seater.strict(seating.tables)) {
      seating.tables.push_back({ranked[c]});
      return seating;
    }
  }
  std::vector<PlayerId> rest = without(candidates.front());
  Seater seater(rest, sizes, met);
  seating.rematches = seater.loose(seating.tables);
  seating.tables.push_back({ranked[candidates.front()]});
  return seating;
}

}  // namespace carc::server::tournaments
