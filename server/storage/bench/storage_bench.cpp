// The cost of durability per move, without the network: plays random 4-player games
// through the engine and stores every move as the server does (one append per
// move, each its own commit), in several storage modes, in one run.
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
#include "carc/server/sqlite_store.hpp"

namespace {

using carc::server::SqliteStore;
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

std::string payload(const carc::Move& m, int seat, std::int64_t version, int index) {
  // The shape of a stored move (server/src/durable/action_codec.hpp); the bench only needs
  // realistic sizes.
  char buf[160];
  std::snprintf(buf, sizeof buf, "M %lld %lld %d %d 1764575000000 %s,%d,%d,%d%s", static_cast<long long>(version),
                static_cast<long long>(version), index, seat, std::string(carc::tile_name(m.tile)).c_str(), m.placement.cell.x,
                m.placement.cell.y, m.placement.rotation.degrees(), m.meeple ? ",N" : "");
  return buf;
}

struct Result {
  long moves = 0;
  double seconds = 0;
};

Result run(Mode mode, int games, const std::filesystem::path& dir) {
  std::unique_ptr<SqliteStore> store;
  if (mode == Mode::Memory) store = SqliteStore::in_memory();
  if (mode == Mode::FileNormal || mode == Mode::FileFull) {
    std::filesystem::remove_all(dir);
    SqliteStore::Options o;
    o.sync = mode == Mode::FileFull ? SqliteStore::Sync::Full : SqliteStore::Sync::Normal;
    store = SqliteStore::open(dir, o);
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
      const carc::server::Status created = store->apply(carc::server::CreateRoom{id, 1000});
      const carc::server::Status started =
          store->apply(carc::server::AppendAction{id, 0, "G 5 5 4 " + std::to_string(seed) + " 1764575000000", version, "playing"});
      if (!created || !started) {
        std::fprintf(stderr, "create: %s%s\n", created.error().c_str(), started.error().c_str());
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
      if (store) {
        const carc::server::Status s = store->apply(carc::server::AppendAction{
            id, seq, payload(m, seat, version, static_cast<int>(seq - 1)), version, game.anyone_holds() ? "" : "finished"});
        ++seq;
        if (!s) {
          std::fprintf(stderr, "append: %s\n", s.error().c_str());
          std::exit(1);
        }
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
