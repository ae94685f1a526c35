// The WebSocket framing the server reads and writes after the opening handshake (RFC 6455,
// section 5): a client's frame headers checked and parsed, masks removed, the server's own
// headers, close payloads and UTF-8. No I/O here: net/ws_session.cpp drives it, and the
// tests feed it bytes. Why the server frames its WebSockets itself: docs/hot-path.md#memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carc::server::ws {

enum class Opcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

// Close codes the server sends (RFC 6455, section 7.4.1).
namespace close_code {
inline constexpr std::uint16_t normal = 1000;
inline constexpr std::uint16_t going_away = 1001;
inline constexpr std::uint16_t protocol_error = 1002;
inline constexpr std::uint16_t bad_payload = 1007;  // a text message that is not UTF-8
inline constexpr std::uint16_t policy_error = 1008;
inline constexpr std::uint16_t too_big = 1009;
inline constexpr std::uint16_t internal_error = 1011;
}  // namespace close_code

// What the first two bytes of a client's frame say; `error` is non-zero (the close code)
// when they break the protocol: a reserved bit or opcode, an unmasked frame, a control
// frame that is fragmented or longer than 125 bytes.
struct FrameStart {
  bool fin = false;
  Opcode opcode = Opcode::Continuation;
  std::uint8_t length7 = 0;     // 0..125: the payload's length; 126, 127: 2 or 8 bytes follow
  std::size_t header_size = 2;  // the whole header: 2 + the extended length + the 4-byte mask
  std::uint16_t error = 0;

  bool control() const { return static_cast<std::uint8_t>(opcode) >= 8; }
  // The payload's length when the first two bytes tell it (under 126).
  std::optional<std::uint64_t> short_length() const {
    return length7 < 126 ? std::optional<std::uint64_t>(length7) : std::nullopt;
  }
};
FrameStart frame_start(std::uint8_t b0, std::uint8_t b1);

// The rest of a whole header (`h` holds start.header_size bytes): the payload's length and
// the mask. No length when the extended length is not in its shortest form or its top bit
// is set (a protocol error).
struct FrameRest {
  std::optional<std::uint64_t> length;
  std::array<std::uint8_t, 4> mask{};
};
FrameRest frame_rest(const FrameStart& start, const std::uint8_t* h);

// Unmasks `n` bytes of payload that start `offset` bytes into the frame's payload.
void unmask(char* data, std::size_t n, const std::array<std::uint8_t, 4>& mask, std::size_t offset = 0);

// A server frame's header (final, unmasked) for a payload of `length` bytes, written to
// `out`; returns its size (2, 4 or 10).
std::size_t server_header(std::array<std::uint8_t, 10>& out, Opcode opcode, std::uint64_t length);

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool valid_utf8(std::string_view s);

// A client's close frame: the code to answer with, or the protocol error it makes (a
// one-byte payload, a code no endpoint may send, a reason that is not UTF-8).
struct CloseFrame {
  std::uint16_t code = close_code::normal;  // none given: 1000
  std::uint16_t error = 0;
};
CloseFrame parse_close(std::string_view payload);

// A close frame's payload: the code, then the reason (at most 123 bytes).
std::string close_payload(std::uint16_t code, std::string_view reason);

// A client's frames, read in either of two ways. Exactly, with no byte of the next frame:
// the reader says where the next bytes go (wanted()), the caller reads at most that much
// into them and says how many came (advance()); a frame's first 2 bytes come first, then
// the rest of its header together with the payload when the length is short (under 126),
// or the rest of the header and then the payload. Or ahead: the caller reads into a buffer
// of its own and hands the bytes over (feed()), which takes what the frames need. A
// message's length is checked against `max_message` before a byte of its payload is kept.
// A message leaves no buffer behind.
class FrameReader {
 public:
  struct Piece {
    char* data = nullptr;
    std::size_t size = 0;
  };
  struct Event {
    enum class Kind : std::uint8_t { More, Message, Control, Error };
    Kind kind = Kind::More;
    Opcode opcode = Opcode::Continuation;  // Message: Text or Binary; Control: its opcode
    std::uint16_t error = 0;               // Error: the close code (1002, or 1009: over the limit)
  };

  explicit FrameReader(std::size_t max_message) : max_message_(max_message) { want_start(); }

  // Where the next bytes go, in order (the second piece may be empty).
  std::array<Piece, 2> wanted() const { return want_; }
  std::size_t wanted_size() const { return want_[0].size + want_[1].size; }
  // Nothing read of a next message yet.
  bool between_messages() const { return step_ == Step::Start && have_ == 0 && frames_ == 0; }
  // `n` bytes arrived into wanted(): what they complete. After an error the reader is done.
  Event advance(std::size_t n);
  // Bytes the caller read ahead into a buffer of its own: the reader takes from the front of
  // `bytes` what its frames need, up to and including the first event, and says in `used`
  // how many it took; the rest belongs to the frames after that event.
  Event feed(std::string_view bytes, std::size_t& used);
  // The message an event of kind Message completed.
  std::string take_message();
  // The payload of the control frame an event of kind Control completed.
  std::string take_control();

 private:
  enum class Step : std::uint8_t { Start, Rest, Payload };

  Event start();
  Event rest();
  Event frame();
  Event fail(std::uint16_t code) { return Event{Event::Kind::Error, Opcode::Continuation, code}; }
  bool target_payload(std::uint64_t length);
  void want_start();

  std::size_t max_message_;
  std::array<std::uint8_t, 14> head_{};
  FrameStart start_;
  Step step_ = Step::Start;
  std::array<Piece, 2> want_{};
  std::size_t have_ = 0;         // bytes of the current step read so far
  std::string message_;          // the message's payload so far, unmasked
  std::string control_;          // a control frame's payload
  std::size_t frame_at_ = 0;     // where the frame's payload starts in message_
  std::uint32_t frames_ = 0;     // frames of the message so far; 0: between messages
  bool text_ = false;
};

}  // namespace carc::server::ws
