// Knockout brackets (docs/tournaments.md#knockout).
#include "tournaments/bracket.hpp"

#include <algorithm>
#include <cstddef>

namespace carc::server::tournaments {
namespace {

int power_of_two(int n) {
  int size = 2;
  while (size < n) size *= 2;
  return size;
}

// Seeds (1-based) in bracket order: 1 8 4 5 2 7 3 6 for eight.
std::vector<int> positions(int size) {
  std::vector<int> pos{1, 2};
  while (static_cast<int>(pos.size()) < size) {
    const int twice = static_cast<int>(pos.size()) * 2;
    std::vector<int> next;
    for (int s : pos) {
      next.push_back(s);
      next.push_back(twice + 1 - s);
    }
    pos = std::move(next);
  }
  return pos;
}

Source seed(int s) { return {Source::Kind::seed, s}; }
Source winner(int m) { return {Source::Kind::winner, m}; }
Source loser(int m) { return {Source::Kind::loser, m}; }

int add(std::vector<Match>& b, Side side, int level, Source x, Source y) {
  int round = 1;
  for (const Source& s : {x, y}) {
    if (s.kind != Source::Kind::seed) round = std::max(round, b[static_cast<std::size_t>(s.index)].round + 1);
  }
  b.push_back({side, level, round, x, y});
  return static_cast<int>(b.size()) - 1;
}

// The winners' side; returns each level's match indices.
std::vector<std::vector<int>> winners_side(std::vector<Match>& b, int players) {
  const int size = power_of_two(players);
  const std::vector<int> pos = positions(size);
  std::vector<std::vector<int>> levels(1);
  for (std::size_t i = 0; i < pos.size(); i += 2) {
    levels[0].push_back(add(b, Side::winners, 1, seed(pos[i] - 1), seed(pos[i + 1] - 1)));
  }
  while (levels.back().size() > 1) {
    const std::vector<int> prev = levels.back();
    std::vector<int> level;
    for (std::size_t i = 0; i < prev.size(); i += 2) {
      level.push_back(add(b, Side::winners, static_cast<int>(levels.size()) + 1, winner(prev[i]), winner(prev[i + 1])));
    }
    levels.push_back(level);
  }
  return levels;
}

}  // namespace

std::string side_name(Side s) {
  switch (s) {
    case Side::winners: return "winners";
    case Side::losers: return "losers";
    case Side::final: return "final";
  }
  return "winners";
}

std::vector<Match> single_elimination(int players) {
  std::vector<Match> b;
  winners_side(b, players);
  return b;
}

std::vector<Match> double_elimination(int players) {
  std::vector<Match> b;
  const std::vector<std::vector<int>> wb = winners_side(b, players);
  if (wb.size() == 1) {  // two players: the loser gets a second chance in the final
    add(b, Side::final, 1, winner(wb[0][0]), loser(wb[0][0]));
    return b;
  }
  int level = 1;
  std::vector<int> lb;
  for (std::size_t i = 0; i < wb[0].size(); i += 2) {
    lb.push_back(add(b, Side::losers, level, loser(wb[0][i]), loser(wb[0][i + 1])));
  }
  for (std::size_t w = 1; w < wb.size(); ++w) {
    // The losers of this winners' level drop in, in reverse order (no early rematch).
    ++level;
    std::vector<int> dropped;
    for (std::size_t i = 0; i < lb.size(); ++i) {
      dropped.push_back(add(b, Side::losers, level, winner(lb[i]), loser(wb[w][wb[w].size() - 1 - i])));
    }
    lb = dropped;
    if (lb.size() > 1) {
      ++level;
      std::vector<int> halved;
      for (std::size_t i = 0; i < lb.size(); i += 2) {
        halved.push_back(add(b, Side::losers, level, winner(lb[i]), winner(lb[i + 1])));
      }
      lb = halved;
    }
  }
  add(b, Side::final, 1, winner(wb.back()[0]), winner(lb[0]));
  return b;
}

std::vector<PlayerId> seed_by_rating(const std::vector<PlayerId>& registered, const std::map<PlayerId, double>& rating) {
  std::vector<PlayerId> seeds = registered;
  auto of = [&](const PlayerId& p) {
    auto it = rating.find(p);
    return it == rating.end() ? 0.0 : it->second;
  };
  std::stable_sort(seeds.begin(), seeds.end(), [&](const PlayerId& a, const PlayerId& b) { return of(a) > of(b); });
  return seeds;
}

std::vector<MatchState> resolve(const std::vector<Match>& bracket, const std::vector<PlayerId>& seeds,
                                const std::vector<TableResult>& results, int best_of) {
  std::vector<MatchState> states(bracket.size());
  std::map<PlayerId, std::size_t> seed_of;
  for (std::size_t i = 0; i < seeds.size(); ++i) seed_of.emplace(seeds[i], i);
  auto slot = [&](const Source& s) {
    if (s.kind == Source::Kind::seed) {
      if (s.index < 0 || static_cast<std::size_t>(s.index) >= seeds.size()) return Slot{Slot::Kind::bye, {}};
      return Slot{Slot::Kind::player, seeds[static_cast<std::size_t>(s.index)]};
    }
    const MatchState& m = states[static_cast<std::size_t>(s.index)];
    if (!m.decided) return Slot{};
    return s.kind == Source::Kind::winner ? m.winner : m.loser;
  };
  const int need = best_of / 2 + 1;
  for (std::size_t i = 0; i < bracket.size(); ++i) {
    const Match& match = bracket[i];
    MatchState& st = states[i];
    st.a = slot(match.a);
    st.b = slot(match.b);
    if (st.a.kind == Slot::Kind::pending || st.b.kind == Slot::Kind::pending) continue;
    if (st.a.kind == Slot::Kind::bye || st.b.kind == Slot::Kind::bye) {
      st.decided = true;
      st.winner = st.a.kind == Slot::Kind::bye ? st.b : st.a;
      st.loser = Slot{Slot::Kind::bye, {}};
      continue;
    }
    std::vector<const TableResult*> games;
    for (const TableResult& t : results) {
      if (t.round != match.round || t.table != static_cast<int>(i) || t.seats.size() != 2) continue;
      const PlayerId& x = t.seats[0].player;
      const PlayerId& y = t.seats[1].player;
      if ((x == st.a.player && y == st.b.player) || (x == st.b.player && y == st.a.player)) games.push_back(&t);
    }
    std::sort(games.begin(), games.end(), [](const TableResult* x, const TableResult* y) { return x->game < y->game; });
    std::int64_t scored_a = 0, scored_b = 0;
    for (const TableResult* g : games) {
      if (st.decided) break;
      std::vector<int> places = table_places(*g);
      for (std::size_t s = 0; s < 2; ++s) {
        const bool is_a = g->seats[s].player == st.a.player;
        (is_a ? scored_a : scored_b) += g->seats[s].score;
        if (places[s] == 1 && places[1 - s] == 2) ++(is_a ? st.wins_a : st.wins_b);
      }
      ++st.games;
      if (st.wins_a >= need || st.wins_b >= need || st.games >= best_of) {
        bool a_wins = st.wins_a != st.wins_b ? st.wins_a > st.wins_b
                      : scored_a != scored_b ? scored_a > scored_b
                                             : seed_of[st.a.player] < seed_of[st.b.player];
        st.decided = true;
        st.winner = a_wins ? st.a : st.b;
        st.loser = a_wins ? st.b : st.a;
      }
    }
  }
  return states;
}

std::optional<std::vector<Placing>> knockout_places(const std::vector<Match>& bracket, const std::vector<MatchState>& states,
                                                    const std::vector<PlayerId>& seeds) {
  if (bracket.empty()) return std::nullopt;
  for (const MatchState& s : states) {
    if (!s.decided) return std::nullopt;
  }
  std::map<PlayerId, int> last;  // the round of the last match played
  for (std::size_t i = 0; i < bracket.size(); ++i) {
    for (const Slot* s : {&states[i].a, &states[i].b}) {
      if (s->kind == Slot::Kind::player) last[s->player] = std::max(last[s->player], bracket[i].round);
    }
  }
  const MatchState& final = states.back();
  auto rank_of = [&](const PlayerId& p) {
    if (p == final.winner.player) return std::pair(0, 0);
    if (p == final.loser.player) return std::pair(1, 0);
    return std::pair(2, -last[p]);
  };
  std::vector<PlayerId> order = seeds;
  std::stable_sort(order.begin(), order.end(), [&](const PlayerId& a, const PlayerId& b) { return rank_of(a) < rank_of(b); });
  std::vector<Placing> places;
  for (std::size_t i = 0; i < order.size(); ++i) {
    int place = static_cast<int>(i) + 1;
    if (i > 0 && rank_of(order[i]) == rank_of(order[i - 1])) place = places.back().place;
    places.push_back({order[i], place});
  }
  return places;
}

}  // namespace carc::server::tournaments
