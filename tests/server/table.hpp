// A room with seated players (and optionally a spectator), and random legal turns taken
// from the state each client keeps by applying patches.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "carc/core/game.hpp"
#include "harness.hpp"

namespace carc::test {

// Waits (taking frames) until `pred(state)` holds.
template <class Pred>
void wait_for(Peer& p, Pred pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred(p.state())) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "timed out waiting for the state");
    p.next(std::chrono::milliseconds(100));
  }
}

struct Table {
  std::string room;
  std::vector<std::unique_ptr<Peer>> players;
  std::unique_ptr<Peer> spectator;

  Table(const ServerProcess& server, int n, bool with_spectator = false) : room(create_room(server.port())) {
    static const char* kNames[] = {"Alice", "Bob", "Carol", "Dave", "Eve"};
    for (int i = 0; i < n; ++i) {
      players.push_back(std::make_unique<Peer>(server.port(), room));
      players.back()->join(kNames[i]);
      REQUIRE(players.back()->seat() == i);
    }
    if (with_spectator) {
      spectator = std::make_unique<Peer>(server.port(), room);
      spectator->watch();
    }
    sync();
  }

  std::vector<Peer*> all() {
    std::vector<Peer*> out;
    for (auto& p : players) out.push_back(p.get());
    if (spectator) out.push_back(spectator.get());
    return out;
  }

  std::int64_t max_version() {
    std::int64_t v = 0;
    for (Peer* p : all()) v = std::max(v, p->version());
    return v;
  }

  // Every client reaches the newest version any of them has seen.
  void sync() {
    const auto v = max_version();
    for (Peer* p : all()) p->catch_up(v);
  }

  void start() {
    players[0]->send({{"type", "start"}});
    players[0]->expect("patch");
    sync();
    REQUIRE(players[0]->state()["phase"] == "playing");
  }

  bool finished() { return players[0]->state()["phase"] == "finished"; }

  Peer& current() { return *players[players[0]->state()["turn"]["seat"].get<std::size_t>()]; }

  // A random legal turn for the current player; returns the patch.
  json play_random(Rng& rng) {
    Peer& p = current();
    const json& legal = p.state()["turn"]["legal"];
    REQUIRE(!legal.empty());
    const json& pick = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    json meeple = nullptr;
    if (!pick["meeples"].empty() && rng.below(3) == 0) {
      meeple = pick["meeples"][rng.below(static_cast<std::uint32_t>(pick["meeples"].size()))];
    }
    p.send({{"type", "play"}, {"version", p.version()}, {"x", pick["x"]}, {"y", pick["y"]},
            {"rotation", pick["rotation"]}, {"meeple", meeple}});
    json patch = p.expect("patch");
    sync();
    return patch;
  }
};

}  // namespace carc::test
