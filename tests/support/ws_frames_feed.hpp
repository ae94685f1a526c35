// Client bytes through the server's WebSocket frame reader (server/src/net/ws_frames.hpp),
// cut into reads the way a socket may cut them: the unit test and the fuzz target share it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "net/ws_frames.hpp"

namespace carc::test {

enum class Reads {
  Exact,  // each read at most `chunk` bytes and never more than the reader wants
  Ahead,  // as net/ws_session.cpp: up to `chunk` bytes read ahead and fed, but a payload
          // at least that long read exactly
};

// Reads `bytes` through `reader` and lists what came out: "text:...", "binary:...",
// "ping:...", "control<opcode>:...", "error:CODE". A reader that asks for nothing, or for
// more than a header and `limit` bytes of payload, ends the list with "asked:N".
inline std::vector<std::string> read_frames(server::ws::FrameReader& reader, std::string_view bytes,
                                            std::size_t chunk, Reads how, std::size_t limit) {
  using server::ws::FrameReader;
  using server::ws::Opcode;
  using Kind = FrameReader::Event::Kind;
  std::vector<std::string> out;
  const auto event = [&](const FrameReader::Event& e) {
    if (e.kind == Kind::Message) out.push_back((e.opcode == Opcode::Text ? "text:" : "binary:") + reader.take_message());
    if (e.kind == Kind::Control) {
      out.push_back((e.opcode == Opcode::Ping ? std::string("ping")
                                              : "control" + std::to_string(static_cast<int>(e.opcode))) +
                    ":" + reader.take_control());
    }
    if (e.kind == Kind::Error) out.push_back("error:" + std::to_string(e.error));
    return e.kind != Kind::Error;
  };
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t wanted = reader.wanted_size();
    if (wanted == 0 || wanted > 14 + limit) {
      out.push_back("asked:" + std::to_string(wanted));
      break;
    }
    if (how == Reads::Ahead && wanted < chunk) {
      std::string_view ahead = bytes.substr(at, chunk);
      at += ahead.size();
      bool going = true;
      while (going && !ahead.empty()) {
        std::size_t used = 0;
        going = event(reader.feed(ahead, used));
        if (used == 0 && going) {
          out.push_back("fed:0");
          going = false;
        }
        ahead.remove_prefix(used);
      }
      if (!going) break;
      continue;
    }
    const auto w = reader.wanted();
    const std::size_t n = std::min({chunk, wanted, bytes.size() - at});
    const std::size_t first = std::min(n, w[0].size);
    std::copy_n(bytes.data() + at, first, w[0].data);
    std::copy_n(bytes.data() + at + first, n - first, w[1].data);
    at += n;
    if (!event(reader.advance(n))) break;
  }
  return out;
}

}  // namespace carc::test
