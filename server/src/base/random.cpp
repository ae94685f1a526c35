#include "base/random.hpp"

#include <sys/random.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace carc::server {

void secure_random(void* out, std::size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::getrandom(p + done, n - done, 0);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  if (done == n) return;
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  if (f == nullptr) throw std::runtime_error("no secure random source (getrandom and /dev/urandom failed)");
  const std::size_t got = std::fread(p + done, 1, n - done, f);
  std::fclose(f);
  if (got != n - done) throw std::runtime_error("short read from /dev/urandom");
}

std::uint64_t random_seed() {
  std::uint64_t v = 0;
  secure_random(&v, sizeof v);
  return v;
}

namespace {
std::atomic<bool> g_test_seeded{false};
std::atomic<std::uint64_t> g_test_seed{0};

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
}  // namespace

void set_test_seed(std::uint64_t seed) {
  g_test_seed.store(seed, std::memory_order_relaxed);
  g_test_seeded.store(true, std::memory_order_release);
}

std::uint64_t game_seed() {
  if (g_test_seeded.load(std::memory_order_acquire)) return g_test_seed.load(std::memory_order_relaxed);
  return random_seed();
}

std::uint64_t think_seed(int move, int seat) {
  if (!g_test_seeded.load(std::memory_order_acquire)) return random_seed();
  const std::uint64_t at = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(move)) << 8) |
                           static_cast<std::uint8_t>(seat);
  return splitmix64(g_test_seed.load(std::memory_order_relaxed) ^ splitmix64(at));
}

std::string random_id(std::size_t bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string raw(bytes, '\0');
  secure_random(raw.data(), raw.size());
  std::string out;
  out.reserve((bytes * 4 + 2) / 3);
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : raw) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(acc >> bits) & 63U];
    }
  }
  if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63U];
  return out;
}

namespace {

constexpr std::array<std::uint32_t, 64> kK = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::array<std::uint32_t, 8>& h, const unsigned char* block) {
  std::array<std::uint32_t, 64> w{};
  for (int i = 0; i < 16; ++i) {
    w[static_cast<std::size_t>(i)] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
                                     (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
  }
  for (std::size_t i = 16; i < 64; ++i) {
    const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  auto [a, b, c, d, e, f, g, hh] = h;
  for (std::size_t i = 0; i < 64; ++i) {
    const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
    const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string msg(data);
  const std::uint64_t bit_len = static_cast<std::uint64_t>(data.size()) * 8;
  msg += static_cast<char>(0x80);
  while (msg.size() % 64 != 56) msg += '\0';
  for (int i = 7; i >= 0; --i) msg += static_cast<char>((bit_len >> (8 * i)) & 0xFF);
  for (std::size_t off = 0; off < msg.size(); off += 64) {
    compress(h, reinterpret_cast<const unsigned char*>(msg.data() + off));
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (std::uint32_t v : h) {
    for (int i = 28; i >= 0; i -= 4) out += kHex[(v >> i) & 0xF];
  }
  return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace carc::server
