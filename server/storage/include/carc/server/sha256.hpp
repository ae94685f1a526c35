// SHA-256 (FIPS 180-4), enough to store seat tokens as hashes, never in clear.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc::server {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string sha256_hex(std::string_view data);  // 64 lowercase hex digits

}  // namespace carc::server
