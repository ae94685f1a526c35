// The server's WebSocket frame reader (server/src/net/ws_frames.hpp) on arbitrary client
// bytes: it never asks for more than a header or what is left of a message within the
// limit, never hands out a message over the limit, and what it makes of the bytes depends
// neither on how they are cut into reads nor on whether they are read exactly or read ahead
// and fed. The first byte of the input picks the read size.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "net/ws_frames.hpp"
#include "../support/ws_frames_feed.hpp"

namespace {

using carc::server::ws::FrameReader;
using carc::test::Reads;

constexpr std::size_t kLimit = 300;

std::vector<std::string> read_all(std::string_view bytes, std::size_t chunk, Reads how) {
  FrameReader reader(kLimit);
  std::vector<std::string> out = carc::test::read_frames(reader, bytes, chunk, how, kLimit);
  for (const std::string& e : out) {
    FUZZ_CHECK(e.rfind("asked:", 0) != 0 && e.rfind("fed:", 0) != 0);
    const std::string_view payload = std::string_view(e).substr(e.find(':') + 1);
    if (e.rfind("text:", 0) == 0 || e.rfind("binary:", 0) == 0) {
      FUZZ_CHECK(payload.size() <= kLimit);
      carc::server::ws::valid_utf8(payload);
    } else if (e.rfind("error:", 0) == 0) {
      FUZZ_CHECK(e == "error:1002" || e == "error:1009");
    } else {
      FUZZ_CHECK(payload.size() <= 125);
      carc::server::ws::parse_close(payload);
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t chunk = 1 + data[0] % 32;
  const std::vector<std::string> whole = read_all(bytes, 1 << 20, Reads::Exact);
  FUZZ_CHECK(read_all(bytes, chunk, Reads::Exact) == whole);
  FUZZ_CHECK(read_all(bytes, chunk, Reads::Ahead) == whole);
  FUZZ_CHECK(read_all(bytes, 128, Reads::Ahead) == whole);
  return 0;
}
