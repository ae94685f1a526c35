// A fuzz target's input read as it goes: one byte, or a run of them, at a time; past the
// end, bytes are 0 and runs empty, so every input is a complete run of the target.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace carc_fuzz {

struct Input {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::string bytes(std::size_t count) {
    count = std::min(count, n);
    std::string s(reinterpret_cast<const char*>(p), count);
    p += count;
    n -= count;
    return s;
  }
};

}  // namespace carc_fuzz
