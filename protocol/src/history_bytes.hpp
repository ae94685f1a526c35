// The event history's bytes (event_history.cpp): little-endian 16-bit values, signed cells,
// and the JSON pieces several entries share. Used by the base entries and by each
// expansion's (protocol/src/expansions/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/json_text.hpp"

namespace carc::protocol::history {

using Bytes = std::vector<std::uint8_t>;

inline void put16(Bytes& b, int v) {
  const auto u = static_cast<std::uint16_t>(v);
  b.push_back(static_cast<std::uint8_t>(u & 0xFF));
  b.push_back(static_cast<std::uint8_t>(u >> 8));
}
inline int get16(const Bytes& b, std::size_t at) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(b[at] | (b[at + 1] << 8)));
}
inline void put8(Bytes& b, int v) { b.push_back(static_cast<std::uint8_t>(v)); }
inline int s8(std::uint8_t v) { return static_cast<std::int8_t>(v); }

// `[s,...]`: the seats whose bit is set in `mask`.
inline void seats_array(std::string& out, std::uint8_t mask) {
  out += '[';
  bool first = true;
  for (int s = 0; s < kMaxPlayers; ++s) {
    if (((mask >> s) & 1) == 0) continue;
    if (!first) out += ',';
    first = false;
    append_int(out, s);
  }
  out += ']';
}

// `{"x":X,"y":Y}` from a cell's two signed bytes at `at`.
inline void cell_object(std::string& out, const Bytes& b, std::size_t at) {
  out += R"({"x":)";
  append_int(out, s8(b[at]));
  out += R"(,"y":)";
  append_int(out, s8(b[at + 1]));
  out += '}';
}

// `,"type":"<type>","turn":T,"seat":S` from the turn's two bytes and the seat's one at `at`.
inline void turn_and_seat(std::string& out, std::string_view type, const Bytes& b, std::size_t at) {
  out += R"(,"type":")";
  out += type;
  out += R"(","turn":)";
  append_int(out, get16(b, at));
  out += R"(,"seat":)";
  append_int(out, b[at + 2]);
}

// `[v,...]` from the `n` bytes from `at` on.
inline void byte_array(std::string& out, const Bytes& b, std::size_t at, int n) {
  out += '[';
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ',';
    append_int(out, b[at + static_cast<std::size_t>(i)]);
  }
  out += ']';
}

// What every kind of score carries: `,"points":P,"seats":[winners],"<per_seat>":[v,...]`
// from two bytes of points, the winners' mask, a seat count and one byte a seat. Returns
// the seat count; the entry goes on at `at + 4 + seats`.
inline int points_and_seats(std::string& out, const Bytes& b, std::size_t at, std::string_view per_seat) {
  out += R"(,"points":)";
  append_int(out, get16(b, at));
  out += R"(,"seats":)";
  seats_array(out, b[at + 2]);
  out += ',';
  append_key(out, per_seat);
  const int seats = b[at + 3];
  byte_array(out, b, at + 4, seats);
  return seats;
}

}  // namespace carc::protocol::history
