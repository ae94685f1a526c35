// carc-durability-bench: the cost of durability per move, end to end. Starts the real
// server once per storage mode (same run, same machine) and plays R rooms x 2 players
// flat out over WebSockets, one thread per room; prints moves per second.
//
//   carc-durability-bench [--rooms R] [--games G]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "helpers.hpp"

using namespace carc::test;

namespace {

long play_room(std::uint16_t port, int games, unsigned seed) {
  long moves = 0;
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    const auto reply = http_request(port, http::verb::post, "/api/rooms", "{}");
    if (reply.status != 201) throw std::runtime_error("POST /api/rooms: " + std::to_string(reply.status));
    const std::string room = reply.json_body()["room"].get<std::string>();
    std::vector<std::unique_ptr<WsClient>> ps;
    for (int i = 0; i < 2; ++i) {
      ps.push_back(std::make_unique<WsClient>(port, room));
      std::string name = "B";
      name += std::to_string(i);
      ps.back()->send({{"type", "join"}, {"name", name}});
      ps.back()->expect("welcome");
    }
    ps[0]->read_until_version(ps[1]->version);
    ps[0]->send({{"type", "start"}});
    while (ps[0]->state["phase"] != "playing") ps[0]->expect("patch");
    ps[1]->read_until_version(ps[0]->version);
    while (ps[0]->state["phase"] == "playing") {
      const int seat = ps[0]->state["turn"]["seat"].get<int>();
      WsClient& m = *ps[static_cast<std::size_t>(seat)];
      WsClient& o = *ps[static_cast<std::size_t>(1 - seat)];
      m.send(choose_play(m.state, m.version, rng));
      m.expect("patch");
      o.read_until_version(m.version);
      ++moves;
    }
    for (auto& p : ps) p->close();
  }
  return moves;
}

}  // namespace

int main(int argc, char** argv) {
  int rooms = 16;
  int games = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rooms") == 0) rooms = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--games") == 0) games = std::atoi(argv[i + 1]);
  }
  struct Mode {
    const char* name;
    std::string data_dir;
    std::vector<std::string> args;
  };
  TempDir tmp;
  const std::vector<Mode> modes = {
      {"no durable storage (--data-dir :memory:)", ":memory:", {}},
      {"SQLite file, --db-sync normal", (tmp.path() / "normal").string(), {"--db-sync", "normal"}},
      {"SQLite file, --db-sync full (default)", (tmp.path() / "full").string(), {"--db-sync", "full"}},
  };
  std::printf("%d rooms x 2 players, %d game(s) per room, flat out over WebSockets\n", rooms, games);
  for (const Mode& mode : modes) {
    ServerProcess server(mode.data_dir, tmp.path() / "server.log", {}, mode.args);
    if (!server.wait_ready()) {
      std::fprintf(stderr, "server did not start:\n%s\n", server.log_text().c_str());
      return 1;
    }
    std::atomic<long> moves{0};
    std::vector<std::thread> threads;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rooms; ++r) {
      threads.emplace_back([&, r] { moves += play_room(server.port(), games, static_cast<unsigned>(r + 1)); });
    }
    for (auto& t : threads) t.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-44s %6ld moves in %6.2f s: %8.0f moves/s\n", mode.name, moves.load(), s,
                static_cast<double>(moves.load()) / s);
    server.kill(SIGTERM);
  }
}
