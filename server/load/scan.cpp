#include "scan.hpp"

#include <charconv>
#include <cstring>
#include <string.h>  // memmem

namespace carc::load {
namespace {

// A cursor over JSON text that skips what it is not asked for.
struct Cursor {
  const char* p;
  const char* end;

  void ws() {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < end && *p == c) {
      ++p;
      return true;
    }
    return false;
  }
  bool string(std::string_view* out) {
    ws();
    if (p >= end || *p != '"') return false;
    const char* s = ++p;
    while (p < end && *p != '"') p += (*p == '\\') ? 2 : 1;
    if (p >= end) return false;
    if (out) *out = std::string_view(s, static_cast<std::size_t>(p - s));
    ++p;
    return true;
  }
  bool integer(int* out) {
    ws();
    const auto r = std::from_chars(p, end, *out);
    if (r.ec != std::errc()) return false;
    p = r.ptr;
    return true;
  }
  bool skip() {  // any value
    ws();
    if (p >= end) return false;
    if (*p == '"') return string(nullptr);
    if (*p == '{' || *p == '[') {
      const char open = *p;
      const char close = open == '{' ? '}' : ']';
      ++p;
      if (eat(close)) return true;
      for (;;) {
        if (open == '{') {
          if (!string(nullptr) || !eat(':')) return false;
        }
        if (!skip()) return false;
        if (eat(',')) continue;
        return eat(close);
      }
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']') ++p;  // number, true, false, null
    return true;
  }
};

// A placement as both servers write it, {"x":..,"y":..,"rotation":..,"meeples":[..]}, read
// without looking up its keys: the turn of every move is read this way. False (and `c`
// unmoved) for any other shape, which parse_legal then reads.
bool parse_legal_fast(Cursor& c, Legal& l) {
  const char* p = c.p;
  const char* const end = c.end;
  const auto lit = [&](std::string_view s) {
    if (static_cast<std::size_t>(end - p) < s.size() || std::memcmp(p, s.data(), s.size()) != 0) return false;
    p += s.size();
    return true;
  };
  const auto integer = [&](int& out) {
    const bool minus = p < end && *p == '-';
    if (minus) ++p;
    if (p >= end || *p < '0' || *p > '9') return false;
    int v = 0;
    while (p < end && *p >= '0' && *p <= '9' && v < 100'000'000) v = v * 10 + (*p++ - '0');
    out = minus ? -v : v;
    return true;
  };
  if (!lit(R"({"x":)") || !integer(l.x) || !lit(R"(,"y":)") || !integer(l.y) || !lit(R"(,"rotation":)") ||
      !integer(l.rotation) || !lit(R"(,"meeples":[)")) {
    return false;
  }
  if (p < end && *p == ']') {
    ++p;
  } else {
    for (;;) {
      if (p >= end || *p != '"') return false;
      const char* const name = ++p;
      while (p < end && *p >= 'A' && *p <= 'Z') ++p;
      const auto n = static_cast<std::size_t>(p - name);
      if (p >= end || *p != '"' || n == 0 || n > 2) return false;
      ++p;
      if (l.meeple_count < static_cast<int>(l.meeples.size())) {
        auto& slot = l.meeples[static_cast<std::size_t>(l.meeple_count++)];
        std::memcpy(slot.data(), name, n);
        slot[n] = '\0';
      }
      if (p < end && *p == ',') {
        ++p;
        continue;
      }
      if (p < end && *p == ']') {
        ++p;
        break;
      }
      return false;
    }
  }
  if (p >= end || *p != '}') return false;
  c.p = p + 1;
  return true;
}

bool parse_legal(Cursor& c, Legal& l) {
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  for (;;) {
    std::string_view key;
    if (!c.string(&key) || !c.eat(':')) return false;
    if (key == "x") {
      if (!c.integer(&l.x)) return false;
    } else if (key == "y") {
      if (!c.integer(&l.y)) return false;
    } else if (key == "rotation") {
      if (!c.integer(&l.rotation)) return false;
    } else if (key == "meeples") {
      if (!c.eat('[')) return false;
      if (!c.eat(']')) {
        for (;;) {
          std::string_view port;
          if (!c.string(&port)) return false;
          if (l.meeple_count < static_cast<int>(l.meeples.size()) && port.size() < 3) {
            auto& slot = l.meeples[static_cast<std::size_t>(l.meeple_count++)];
            std::memcpy(slot.data(), port.data(), port.size());
            slot[port.size()] = '\0';
          }
          if (c.eat(',')) continue;
          if (!c.eat(']')) return false;
          break;
        }
      }
    } else if (!c.skip()) {
      return false;
    }
    if (c.eat(',')) continue;
    return c.eat('}');
  }
}

// string_view::find, by glibc's memmem: much faster on JSON, where the needle's first
// character, a quote, is everywhere.
std::size_t find(std::string_view text, std::string_view what) {
  const void* at = ::memmem(text.data(), text.size(), what.data(), what.size());
  return at == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char*>(at) - text.data());
}

}  // namespace

std::int64_t frame_version(std::string_view frame) {
  static constexpr std::string_view kPatch = R"({"type":"patch","version":)";
  std::int64_t v = -1;
  if (frame.starts_with(kPatch)) {  // how the server writes every patch
    std::from_chars(frame.data() + kPatch.size(), frame.data() + frame.size(), v);
    return v;
  }
  const auto at = frame.find("\"version\":");
  if (at == std::string_view::npos) return -1;
  const char* s = frame.data() + at + 10;
  std::from_chars(s, frame.data() + frame.size(), v);
  return v;
}

bool parse_turn(std::string_view text, Turn& out) {
  Cursor c{text.data(), text.data() + text.size()};
  out.seat = -1;
  out.legal.clear();
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  for (;;) {
    std::string_view key;
    if (!c.string(&key) || !c.eat(':')) return false;
    if (key == "seat") {
      if (!c.integer(&out.seat)) return false;
    } else if (key == "legal") {
      if (!c.eat('[')) return false;
      if (!c.eat(']')) {
        for (;;) {
          c.ws();
          Legal& l = out.legal.emplace_back();
          if (!parse_legal_fast(c, l)) {
            l = Legal{};
            if (!parse_legal(c, l)) {
              out.legal.pop_back();
              return false;
            }
          }
          if (c.eat(',')) continue;
          if (!c.eat(']')) return false;
          break;
        }
      }
    } else if (!c.skip()) {
      return false;
    }
    if (c.eat(',')) continue;
    return c.eat('}');
  }
}

TurnChange scan_turn(std::string_view frame, Turn& out) {
  static constexpr std::string_view kTurn = R"("path":"/turn","value":)";
  const auto at = find(frame, kTurn);
  if (at == std::string_view::npos) return TurnChange::None;
  const std::string_view rest = frame.substr(at + kTurn.size());
  if (rest.starts_with("null")) return TurnChange::Ended;
  return parse_turn(rest, out) ? TurnChange::New : TurnChange::None;
}

bool sets_phase(std::string_view frame, std::string_view phase) {
  static constexpr std::string_view kPhase = R"("path":"/phase","value":")";
  const auto at = find(frame, kPhase);
  return at != std::string_view::npos && frame.substr(at + kPhase.size()).starts_with(phase);
}

}  // namespace carc::load
