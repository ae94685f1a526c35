// The server's WebSocket frame reader (server/src/net/ws_frames.hpp) on arbitrary client
// bytes: it never asks for more than a header or what is left of a message within the
// limit, never hands out a message over the limit, and what it makes of the bytes does not
// depend on how they are cut into reads. The first byte of the input picks the read size.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "net/ws_frames.hpp"

namespace {

using carc::server::ws::FrameReader;

constexpr std::size_t kLimit = 300;

std::vector<std::string> read_all(std::string_view bytes, std::size_t chunk) {
  FrameReader reader(kLimit);
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const auto w = reader.wanted();
    const std::size_t wanted = w[0].size + w[1].size;
    FUZZ_CHECK(wanted > 0);
    FUZZ_CHECK(wanted <= 14 + kLimit);
    const std::size_t n = std::min({chunk, wanted, bytes.size() - at});
    const std::size_t first = std::min(n, w[0].size);
    std::copy_n(bytes.data() + at, first, w[0].data);
    std::copy_n(bytes.data() + at + first, n - first, w[1].data);
    at += n;
    const FrameReader::Event e = reader.advance(n);
    using Kind = FrameReader::Event::Kind;
    if (e.kind == Kind::Message) {
      std::string m = reader.take_message();
      FUZZ_CHECK(m.size() <= kLimit);
      carc::server::ws::valid_utf8(m);
      out.push_back("m" + std::to_string(static_cast<int>(e.opcode)) + m);
    } else if (e.kind == Kind::Control) {
      std::string c = reader.take_control();
      FUZZ_CHECK(c.size() <= 125);
      carc::server::ws::parse_close(c);
      out.push_back("c" + std::to_string(static_cast<int>(e.opcode)) + c);
    } else if (e.kind == Kind::Error) {
      FUZZ_CHECK(e.error == 1002 || e.error == 1009);
      out.push_back("e" + std::to_string(e.error));
      break;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t chunk = 1 + data[0] % 32;
  FUZZ_CHECK(read_all(bytes, chunk) == read_all(bytes, 1 << 20));
  return 0;
}
