#include "net/ws_frames.hpp"

#include <algorithm>

namespace carc::server::ws {

FrameStart frame_start(std::uint8_t b0, std::uint8_t b1) {
  FrameStart s;
  s.fin = (b0 & 0x80u) != 0;
  s.opcode = static_cast<Opcode>(b0 & 0x0fu);
  s.length7 = static_cast<std::uint8_t>(b1 & 0x7fu);
  s.header_size = 2 + (s.length7 == 126 ? 2 : s.length7 == 127 ? 8 : 0) + 4;
  const auto op = static_cast<std::uint8_t>(s.opcode);
  const bool known = op <= 2 || (op >= 8 && op <= 10);
  // No extension is ever agreed, so every reserved bit is an error; a client masks every
  // frame; a control frame is final and at most 125 bytes (RFC 6455, sections 5.1, 5.2, 5.5).
  if ((b0 & 0x70u) != 0 || !known || (b1 & 0x80u) == 0 || (s.control() && (!s.fin || s.length7 > 125))) {
    s.error = close_code::protocol_error;
  }
  return s;
}

FrameRest frame_rest(const FrameStart& start, const std::uint8_t* h) {
  FrameRest r;
  std::size_t at = 2;
  if (start.length7 < 126) {
    r.length = start.length7;
  } else {
    const int bytes = start.length7 == 126 ? 2 : 8;
    std::uint64_t len = 0;
    for (int i = 0; i < bytes; ++i) len = (len << 8) | h[at + static_cast<std::size_t>(i)];
    at += static_cast<std::size_t>(bytes);
    const bool shortest = bytes == 2 ? len >= 126 : len > 0xffff;
    if (shortest && (len >> 63) == 0) r.length = len;
  }
  std::copy(h + at, h + at + 4, r.mask.begin());
  return r;
}

void unmask(char* data, std::size_t n, const std::array<std::uint8_t, 4>& mask, std::size_t offset) {
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<char>(data[i] ^ static_cast<char>(mask[(offset + i) & 3]));
}

std::size_t server_header(std::array<std::uint8_t, 10>& out, Opcode opcode, std::uint64_t length) {
  out[0] = static_cast<std::uint8_t>(0x80u | static_cast<std::uint8_t>(opcode));
  if (length < 126) {
    out[1] = static_cast<std::uint8_t>(length);
    return 2;
  }
  if (length <= 0xffff) {
    out[1] = 126;
    out[2] = static_cast<std::uint8_t>(length >> 8);
    out[3] = static_cast<std::uint8_t>(length);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) out[2 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(length >> (56 - 8 * i));
  return 10;
}

bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int more = 0;
    unsigned lo = 0x80;
    unsigned hi = 0xbf;  // the allowed range of the second byte (RFC 3629, section 4)
    if (c >= 0xc2 && c <= 0xdf) {
      more = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      more = 2;
      if (c == 0xe0) lo = 0xa0;  // overlong
      if (c == 0xed) hi = 0x9f;  // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      more = 3;
      if (c == 0xf0) lo = 0x90;  // overlong
      if (c == 0xf4) hi = 0x8f;  // past U+10FFFF
    } else {
      return false;
    }
    if (end - p <= more) return false;
    if (p[1] < lo || p[1] > hi) return false;
    for (int i = 2; i <= more; ++i) {
      if ((p[i] & 0xc0u) != 0x80u) return false;
    }
    p += more + 1;
  }
  return true;
}

CloseFrame parse_close(std::string_view payload) {
  CloseFrame f;
  if (payload.empty()) return f;
  if (payload.size() == 1) {
    f.error = close_code::protocol_error;
    return f;
  }
  const auto code = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) |
                                                static_cast<unsigned char>(payload[1]));
  // The codes an endpoint may send (RFC 6455, section 7.4; 1012-1014 registered since).
  const bool sendable = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
  if (!sendable) {
    f.error = close_code::protocol_error;
  } else if (!valid_utf8(payload.substr(2))) {
    f.error = close_code::bad_payload;
  } else {
    f.code = code;
  }
  return f;
}

std::string close_payload(std::uint16_t code, std::string_view reason) {
  std::string p;
  p += static_cast<char>(code >> 8);
  p += static_cast<char>(code & 0xff);
  p += reason.substr(0, 123);
  return p;
}

// ---- FrameReader ----

namespace {
constexpr std::uint32_t kMaxMessageFrames = 1024;  // frames one message may take
}  // namespace

void FrameReader::want_start() {
  step_ = Step::Start;
  have_ = 0;
  want_ = {Piece{reinterpret_cast<char*>(head_.data()), 2}, Piece{}};
}

FrameReader::Event FrameReader::advance(std::size_t n) {
  have_ += n;
  const std::size_t first = std::min(n, want_[0].size);
  want_[0].data += first;
  want_[0].size -= first;
  want_[1].data += n - first;
  want_[1].size -= n - first;
  if (want_[0].size + want_[1].size > 0) return Event{};
  switch (step_) {
    case Step::Start: return start();
    case Step::Rest: return rest();
    case Step::Payload: return frame();
  }
  return Event{};
}

FrameReader::Event FrameReader::feed(std::string_view bytes, std::size_t& used) {
  used = 0;
  while (used < bytes.size()) {
    const std::size_t n = std::min(bytes.size() - used, wanted_size());
    if (n == 0) break;  // done after an error
    const std::size_t first = std::min(n, want_[0].size);
    std::copy_n(bytes.data() + used, first, want_[0].data);
    std::copy_n(bytes.data() + used + first, n - first, want_[1].data);
    used += n;
    const Event e = advance(n);
    if (e.kind != Event::Kind::More) return e;
  }
  return Event{};
}

// The frame's first two bytes: checked, then the rest of its header is wanted, with the
// payload when its length is short.
FrameReader::Event FrameReader::start() {
  start_ = frame_start(head_[0], head_[1]);
  if (start_.error != 0) return fail(start_.error);
  if (!start_.control()) {
    const bool continues = start_.opcode == Opcode::Continuation;
    if (continues != (frames_ > 0)) return fail(close_code::protocol_error);
    if (++frames_ > kMaxMessageFrames) return fail(close_code::too_big);
    if (!continues) text_ = start_.opcode == Opcode::Text;
  }
  step_ = Step::Rest;
  have_ = 0;
  want_ = {Piece{reinterpret_cast<char*>(head_.data()) + 2, start_.header_size - 2}, Piece{}};
  if (const auto len = start_.short_length()) {
    if (!target_payload(*len)) return fail(close_code::too_big);
    step_ = Step::Payload;
  }
  return Event{};
}

FrameReader::Event FrameReader::rest() {
  const FrameRest r = frame_rest(start_, head_.data());
  if (!r.length) return fail(close_code::protocol_error);
  if (!target_payload(*r.length)) return fail(close_code::too_big);
  step_ = Step::Payload;
  have_ = 0;
  want_[0] = Piece{};
  if (want_[1].size == 0) return frame();
  return Event{};
}

// Where the frame's payload goes (want_[1]); false when the message would pass the limit.
bool FrameReader::target_payload(std::uint64_t length) {
  if (start_.control()) {
    control_.resize(static_cast<std::size_t>(length));
    want_[1] = Piece{control_.data(), control_.size()};
    return true;
  }
  if (length > max_message_ - std::min(max_message_, message_.size())) return false;
  frame_at_ = message_.size();
  message_.resize(frame_at_ + static_cast<std::size_t>(length));
  want_[1] = Piece{message_.data() + frame_at_, static_cast<std::size_t>(length)};
  return true;
}

// A whole frame is in.
FrameReader::Event FrameReader::frame() {
  const FrameRest r = frame_rest(start_, head_.data());
  const Opcode opcode = start_.opcode;
  const bool control = start_.control();
  const bool fin = start_.fin;
  want_start();
  if (control) {
    unmask(control_.data(), control_.size(), r.mask);
    return Event{Event::Kind::Control, opcode, 0};
  }
  unmask(message_.data() + frame_at_, message_.size() - frame_at_, r.mask);
  if (!fin) return Event{};
  frames_ = 0;
  return Event{Event::Kind::Message, text_ ? Opcode::Text : Opcode::Binary, 0};
}

std::string FrameReader::take_message() {
  std::string m;
  m.swap(message_);
  return m;
}

std::string FrameReader::take_control() {
  std::string c;
  c.swap(control_);
  return c;
}

}  // namespace carc::server::ws
