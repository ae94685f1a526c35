// The server's WebSocket framing (net/ws_frames.hpp): what a client's headers may say, the
// server's own headers, close payloads and UTF-8.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "net/ws_frames.hpp"
#include "../support/ws_frames_feed.hpp"

using namespace carc::server::ws;

TEST_CASE("a client's frame start: opcodes, the mask bit, reserved bits, control frames") {
  const FrameStart text = frame_start(0x81, 0x85);  // final text, masked, 5 bytes
  CHECK(text.error == 0);
  CHECK(text.fin);
  CHECK(text.opcode == Opcode::Text);
  CHECK(text.short_length() == 5u);
  CHECK(text.header_size == 6);
  CHECK(frame_start(0x01, 0xfe).header_size == 8);   // a 16-bit length follows
  CHECK(frame_start(0x02, 0xff).header_size == 14);  // a 64-bit length follows
  CHECK_FALSE(frame_start(0x02, 0xff).short_length());
  CHECK(frame_start(0x00, 0x80).opcode == Opcode::Continuation);

  CHECK(frame_start(0x81, 0x05).error == close_code::protocol_error);  // unmasked
  CHECK(frame_start(0xc1, 0x85).error == close_code::protocol_error);  // RSV1 without an extension
  CHECK(frame_start(0x91, 0x85).error == close_code::protocol_error);  // RSV3
  CHECK(frame_start(0x83, 0x80).error == close_code::protocol_error);  // reserved data opcode
  CHECK(frame_start(0x8b, 0x80).error == close_code::protocol_error);  // reserved control opcode
  CHECK(frame_start(0x09, 0x80).error == close_code::protocol_error);  // a fragmented ping
  CHECK(frame_start(0x89, 0xfe).error == close_code::protocol_error);  // a ping over 125 bytes
  CHECK(frame_start(0x89, 0xfd).error == 0);                           // 125 bytes is allowed
  CHECK(frame_start(0x88, 0x82).control());
}

TEST_CASE("a header's extended length must be in its shortest form; the mask follows it") {
  std::array<std::uint8_t, 14> h{0x82, 0xfe, 0x01, 0x00, 1, 2, 3, 4};
  FrameRest r = frame_rest(frame_start(h[0], h[1]), h.data());
  CHECK(r.length == 256u);
  CHECK(r.mask == std::array<std::uint8_t, 4>{1, 2, 3, 4});
  h = {0x82, 0xfe, 0x00, 0x7d, 1, 2, 3, 4};  // 125 in 16 bits
  CHECK_FALSE(frame_rest(frame_start(h[0], h[1]), h.data()).length);
  h = {0x82, 0xff, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00, 9, 8, 7, 6};  // 65,536 in 64 bits
  r = frame_rest(frame_start(h[0], h[1]), h.data());
  CHECK(r.length == 65536u);
  CHECK(r.mask == std::array<std::uint8_t, 4>{9, 8, 7, 6});
  h = {0x82, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 9, 8, 7, 6};  // 65,535 in 64 bits
  CHECK_FALSE(frame_rest(frame_start(h[0], h[1]), h.data()).length);
  h = {0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 9, 8, 7, 6};  // the top bit set
  CHECK_FALSE(frame_rest(frame_start(h[0], h[1]), h.data()).length);
  h = {0x81, 0x83, 0x10, 0x20, 0x30, 0x40};
  CHECK(frame_rest(frame_start(h[0], h[1]), h.data()).length == 3u);
}

TEST_CASE("unmasking, also from the middle of a payload") {
  const std::array<std::uint8_t, 4> mask{0x37, 0xfa, 0x21, 0x3d};
  std::string hello = {'\x7f', '\x9f', '\x4d', '\x51', '\x58'};  // RFC 6455, section 5.7
  unmask(hello.data(), hello.size(), mask);
  CHECK(hello == "Hello");
  std::string whole = "a longer payload, read in two pieces";
  unmask(whole.data(), whole.size(), mask);
  std::string first = whole.substr(0, 7);
  std::string rest = whole.substr(7);
  unmask(first.data(), first.size(), mask);
  unmask(rest.data(), rest.size(), mask, 7);
  CHECK(first + rest == "a longer payload, read in two pieces");
}

TEST_CASE("the server's headers: final, unmasked, the shortest length") {
  std::array<std::uint8_t, 10> h{};
  CHECK(server_header(h, Opcode::Text, 5) == 2);
  CHECK(h[0] == 0x81);
  CHECK(h[1] == 5);
  CHECK(server_header(h, Opcode::Text, 126) == 4);
  CHECK(h[1] == 126);
  CHECK(h[2] == 0);
  CHECK(h[3] == 126);
  CHECK(server_header(h, Opcode::Pong, 0) == 2);
  CHECK(h[0] == 0x8a);
  CHECK(server_header(h, Opcode::Text, 70000) == 10);
  CHECK(h[1] == 127);
  CHECK(h[7] == 0x01);
  CHECK(h[8] == 0x11);
  CHECK(h[9] == 0x70);
}

TEST_CASE("UTF-8: overlong forms, surrogates and code points past U+10FFFF are refused") {
  CHECK(valid_utf8(""));
  CHECK(valid_utf8("plain"));
  CHECK(valid_utf8("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8f\xb0"));  // é, 日本, 🏰
  CHECK(valid_utf8("\xf4\x8f\xbf\xbf"));                                      // U+10FFFF
  CHECK_FALSE(valid_utf8("\xff\xfe"));
  CHECK_FALSE(valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(valid_utf8("\xe0\x80\xaf"));      // overlong
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));      // a surrogate
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  CHECK_FALSE(valid_utf8("\xe6\x97"));          // cut short
  CHECK_FALSE(valid_utf8("a\x80"));             // a lone continuation byte
}

TEST_CASE("a client's close: its code is answered; a bad one is a protocol error") {
  CHECK(parse_close("").code == close_code::normal);
  CHECK(parse_close("").error == 0);
  CHECK(parse_close(close_payload(1001, "bye")).code == 1001);
  CHECK(parse_close(close_payload(4000, "")).code == 4000);
  CHECK(parse_close("x").error == close_code::protocol_error);
  CHECK(parse_close(close_payload(1005, "")).error == close_code::protocol_error);  // never sent
  CHECK(parse_close(close_payload(999, "")).error == close_code::protocol_error);
  CHECK(parse_close(close_payload(5000, "")).error == close_code::protocol_error);
  CHECK(parse_close(close_payload(1000, "\xff")).error == close_code::bad_payload);
  CHECK(close_payload(1009, std::string(200, 'x')).size() == 125);
}

namespace {

// A client's frame, masked.
std::string client_frame(std::uint8_t first, const std::string& payload) {
  const std::uint8_t mask[4] = {0x5a, 0x01, 0xc3, 0x7e};
  std::string f;
  f += static_cast<char>(first);
  if (payload.size() < 126) {
    f += static_cast<char>(0x80 | payload.size());
  } else {
    f += static_cast<char>(0x80 | 126);
    f += static_cast<char>(payload.size() >> 8);
    f += static_cast<char>(payload.size() & 0xff);
  }
  for (std::uint8_t m : mask) f += static_cast<char>(m);
  for (std::size_t i = 0; i < payload.size(); ++i) f += static_cast<char>(payload[i] ^ static_cast<char>(mask[i % 4]));
  return f;
}

using carc::test::Reads;

std::vector<std::string> feed(FrameReader& reader, const std::string& bytes, std::size_t chunk,
                              Reads how = Reads::Exact) {
  return carc::test::read_frames(reader, bytes, chunk, how, 4096);
}

}  // namespace

TEST_CASE("the frame reader: whole messages, fragments with a ping between, any read size") {
  const std::string bytes = client_frame(0x81, "{\"type\":\"watch\"}") + client_frame(0x01, "frag") +
                            client_frame(0x89, "hi") + client_frame(0x00, "men") + client_frame(0x80, "ted") +
                            client_frame(0x82, std::string(300, 'b')) + client_frame(0x81, "");
  const std::vector<std::string> expected{"text:{\"type\":\"watch\"}", "ping:hi", "text:fragmented",
                                          "binary:" + std::string(300, 'b'), "text:"};
  for (std::size_t chunk : {1, 2, 3, 7, 64, 100000}) {
    CAPTURE(chunk);
    FrameReader reader(4096);
    CHECK(reader.between_messages());
    CHECK(feed(reader, bytes, chunk) == expected);
    CHECK(reader.between_messages());
    CHECK(feed(reader, bytes, chunk, Reads::Ahead) == expected);
    CHECK(reader.between_messages());
    // Between messages the reader wants only the next frame's first 2 bytes.
    CHECK(reader.wanted()[0].size == 2);
    CHECK(reader.wanted()[1].size == 0);
  }
}

TEST_CASE("the frame reader: a short frame is read in two reads, never past its end") {
  FrameReader reader(4096);
  const std::string f = client_frame(0x81, "move") + client_frame(0x81, "next");
  CHECK(reader.wanted()[0].size == 2);
  const auto w = reader.wanted();
  std::copy_n(f.data(), 2, w[0].data);
  CHECK(reader.advance(2).kind == FrameReader::Event::Kind::More);
  CHECK(reader.wanted()[0].size + reader.wanted()[1].size == 4 + 4);  // the mask and "move"
  CHECK_FALSE(reader.between_messages());
}

TEST_CASE("the frame reader: bytes read ahead are taken up to the first event, the rest left") {
  FrameReader reader(4096);
  const std::string move = client_frame(0x81, "move"), ping = client_frame(0x89, "p"), next = client_frame(0x81, "next");
  const std::string bytes = move + ping + next.substr(0, 3);
  std::size_t used = 0;
  FrameReader::Event e = reader.feed(bytes, used);
  CHECK(e.kind == FrameReader::Event::Kind::Message);
  CHECK(used == move.size());
  CHECK(reader.take_message() == "move");
  e = reader.feed(std::string_view(bytes).substr(used), used);
  CHECK(e.kind == FrameReader::Event::Kind::Control);
  CHECK(used == ping.size());
  CHECK(reader.take_control() == "p");
  e = reader.feed(next.substr(0, 3), used);  // a frame begun: kept by the reader
  CHECK(e.kind == FrameReader::Event::Kind::More);
  CHECK(used == 3);
  CHECK_FALSE(reader.between_messages());
  e = reader.feed(next.substr(3), used);
  CHECK(e.kind == FrameReader::Event::Kind::Message);
  CHECK(reader.take_message() == "next");
  // After a refusal the reader takes nothing more.
  FrameReader broken(4096);
  const std::string bad = client_frame(0x80, "x") + move;
  CHECK(broken.feed(bad, used).error == close_code::protocol_error);
  CHECK(used == 2);
  CHECK(broken.feed(move, used).kind == FrameReader::Event::Kind::More);
  CHECK(used == 0);
}

TEST_CASE("the frame reader: refusals") {
  FrameReader a(4096);
  CHECK(feed(a, client_frame(0x80, "x"), 64) == std::vector<std::string>{"error:1002"});  // no message begun
  FrameReader b(4096);
  CHECK(feed(b, client_frame(0x01, "x") + client_frame(0x81, "y"), 64) == std::vector<std::string>{"error:1002"});
  FrameReader c(100);
  CHECK(feed(c, client_frame(0x01, std::string(60, 'x')) + client_frame(0x80, std::string(60, 'x')), 64) ==
        std::vector<std::string>{"error:1009"});
  FrameReader d(100);
  CHECK(feed(d, client_frame(0x81, std::string(101, 'x')), 64) == std::vector<std::string>{"error:1009"});
  FrameReader e(100);
  CHECK(feed(e, client_frame(0x81, std::string(100, 'x')), 64) == std::vector<std::string>{"text:" + std::string(100, 'x')});
  FrameReader f(4096);
  std::string many;
  for (int i = 0; i < 1100; ++i) many += client_frame(i == 0 ? 0x01 : 0x00, "");
  CHECK(feed(f, many, 4096) == std::vector<std::string>{"error:1009"});  // too many fragments
}
