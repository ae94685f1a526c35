#include "keys/player_id.hpp"

#include <cstdint>

#include "base/random.hpp"

namespace carc::server {

namespace {

constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::size_t kIdBytes = 12;  // 96 bits: 16 base64url characters, no padding

int hex_value(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

}  // namespace

std::string player_id_of_hash(std::string_view key_hash_hex) {
  std::string material = "carc-player-id:";
  material += key_hash_hex;
  const std::string hex = sha256_hex(material);
  std::string out;
  for (std::size_t i = 0; i < kIdBytes; i += 3) {
    std::uint32_t group = 0;
    for (std::size_t j = 0; j < 3; ++j) {
      group = (group << 8) | static_cast<std::uint32_t>(hex_value(hex[2 * (i + j)]) * 16 + hex_value(hex[2 * (i + j) + 1]));
    }
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64Url[(group >> shift) & 63];
  }
  return out;
}

bool player_id_well_formed(std::string_view id) {
  if (id.size() != kIdBytes * 4 / 3) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace carc::server
