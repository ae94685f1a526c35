// The cost of durability per move, without the network: plays random 4-player games
// through the engine and stores every move as the server does (one append_action per
// move), in several storage modes, in one run.
//
//   carc-storage-bench [--games N] [--dir DIR]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "carc/server/storage.hpp"

namespace {

using carc::server::Storage;
using Clock = std::chrono::steady_clock;

enum class Mode { EngineOnly, Memory, FileNormal, FileFull };

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::EngineOnly: return "engine only (no storage)";
    case Mode::Memory: return "storage :memory:";
    case Mode::FileNormal: return "storage file, synchronous=NORMAL";
    case Mode::FileFull: return "storage file, synchronous=FULL (default)";
  }
  return "";
}

std::string payload(const carc::Move& m, int seat) {
  // The shape of a stored play; the bench only needs realistic sizes.
  char buf[160];
  std::snprintf(buf, sizeof buf, R"({"type":"play","seat":%d,"x":%d,"y":%d,"rotation":%d,"meeple":%s})", seat,
                m.placement.cell.x, m.placement.cell.y, m.placement.rotation.quarter_turns() * 90,
                m.meeple ? R"("N")" : "null");
  return buf;
}

struct Result {
  long moves = 0;
  double seconds = 0;
};

Result run(Mode mode, int games, const std::filesystem::path& dir) {
  std::unique_ptr<Storage> store;
  if (mode == Mode::Memory) store = Storage::in_memory();
  if (mode == Mode::FileNormal || mode == Mode::FileFull) {
    std::filesystem::remove_all(dir);
    Storage::Options o;
    o.sync = mode == Mode::FileFull ? Storage::Sync::Full : Storage::Sync::Normal;
    store = Storage::open(dir, o);
  }
  Result r;
  const auto t0 = Clock::now();
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(g + 1);
    const std::string id = "bench-room-" + std::to_string(g);
    carc::Game game = carc::Game::seeded(4, seed);
    carc::RandomPlayer player(seed ^ 0xABCDEF);
    std::int64_t version = 5;
    if (store) {
      carc::server::StoredRoom room;
      room.id = id;
      room.phase = "playing";
      room.seed = seed;
      room.settings = "{}";
      room.version = version;
      for (int s = 0; s < 4; ++s) room.seats.push_back({s, "Player " + std::to_string(s), std::string(64, 'f')});
      room.actions.push_back({0, R"({"type":"start"})"});
      if (!store->create_room(room)) {
        std::fprintf(stderr, "create_room: %s\n", store->last_error().c_str());
        std::exit(1);
      }
    }
    std::int64_t seq = 1;
    while (game.anyone_holds()) {
      const int seat = game.current_seat();
      const carc::Move m = player.choose(game);
      if (game.play(m)) {
        std::fprintf(stderr, "engine refused a random move\n");
        std::exit(1);
      }
      ++version;
      ++r.moves;
      if (store && !store->append_action(id, seq++, payload(m, seat), version,
                                         game.anyone_holds() ? "playing" : "finished")) {
        std::fprintf(stderr, "append_action: %s\n", store->last_error().c_str());
        std::exit(1);
      }
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 20;
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "carc-storage-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view a = argv[i];
    if (a == "--games") games = std::atoi(argv[i + 1]);
    else if (a == "--dir") dir = argv[i + 1];
  }
  std::printf("%d random 4-player games per mode, data folder %s\n", games, dir.c_str());
  double base = 0;
  for (Mode m : {Mode::EngineOnly, Mode::Memory, Mode::FileNormal, Mode::FileFull}) {
    const Result r = run(m, games, dir);
    const double rate = static_cast<double>(r.moves) / r.seconds;
    if (m == Mode::EngineOnly) base = rate;
    std::printf("%-42s %8ld moves %10.0f moves/s %9.1f us/move", mode_name(m), r.moves, rate,
                1e6 * r.seconds / static_cast<double>(r.moves));
    if (m != Mode::EngineOnly) std::printf("  (+%.1f us/move for storage)", 1e6 / rate - 1e6 / base);
    std::printf("\n");
  }
  std::filesystem::remove_all(dir);
}
