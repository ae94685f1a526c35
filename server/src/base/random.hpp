// Secrets and identifiers from the operating system's CSPRNG (getrandom(2)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc::server {

// Fills `out` from getrandom(2), falling back to /dev/urandom; throws if neither works.
void secure_random(void* out, std::size_t n);
std::uint64_t random_seed();

// The seed of a game a room starts: random_seed(), or the test seed when one is set.
std::uint64_t game_seed();
// The seed of a computer player's search (or a hint's) for `seat` at move `move`: random, or
// one that follows from the test seed, so that the computer players play the same game again.
std::uint64_t think_seed(int move, int seat);
// Test builds only (carcassonne-server-test, main.cpp with CARC_TEST_HOOKS reads
// CARC_TEST_SEED): set before the server starts, so that a test plays a game it knows (its
// bag, and the computer players' choices). The shipped server never sets one.
void set_test_seed(std::uint64_t seed);
// `bytes` random bytes as unpadded base64url (letters, digits, '-' and '_').
std::string random_id(std::size_t bytes);

inline constexpr std::size_t kRoomIdBytes = 9;    // 72 bits, 12 characters
inline constexpr std::size_t kTokenBytes = 24;    // 192 bits, 32 characters

// SHA-256 of `data` as lowercase hex: seat tokens are kept and stored only as hashes.
std::string sha256_hex(std::string_view data);

// Compares without an early exit, so timing does not reveal a prefix.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace carc::server
