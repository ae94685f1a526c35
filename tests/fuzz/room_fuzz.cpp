// The server's handling of a sequence of arbitrary client frames against one room: the
// room's state machine (RoomLogic) driven directly, without sockets or strands. A few fake
// clients attach, send frames (raw bytes, or well-formed messages built from the input,
// legal plays picked from their own copy of the state among them), detach; the input
// decides when storage answers and whether it fails, what a computer player answers
// (a legal move, garbage, a failure, a stale ticket), when the clock wakes the room, and
// when the server crashes and the room is rebuilt from what was stored.
//
// What must hold whatever the input:
// - every frame a client gets is a JSON object of a known type; error codes are known;
// - a client's copy of the state, built from its welcome/state and the patches after it
//   (each exactly one version on), equals the server's state after every command;
// - versions never go back, for the room and for any client; at most one change is being
//   stored at a time, and while one is, commands wait (no frame, no change);
// - a refused request changes nothing;
// - a legal play from the state's own `turn.legal`, sent by the player whose turn it is
//   with a fresh version, is accepted;
// - the stored actions always rebuild the room (restore), to the same game record, past
//   every version a client saw; the record is a valid carcassonne-record/1.
//
// The room's randomness (seat tokens, game seeds) comes from getrandom(2), wrapped at link
// time (-Wl,--wrap=getrandom) by a generator reset for every input, so a crash replays.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include <spdlog/spdlog.h>

#include "room_fuzz_harness.hpp"

namespace {

std::uint64_t g_random = 1;

}  // namespace

extern "C" ssize_t __wrap_getrandom(void* buf, std::size_t n, unsigned int) {
  auto* p = static_cast<unsigned char*>(buf);
  for (std::size_t i = 0; i < n; ++i) {
    g_random = g_random * 6364136223846793005ULL + 1442695040888963407ULL;  // an LCG: only determinism matters
    p[i] = static_cast<unsigned char>(g_random >> 56);
  }
  return static_cast<ssize_t>(n);
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  g_random = 1;
  room_fuzz::Input in{data, size};
  room_fuzz::Harness(in).run();
  return 0;
}
