// Writing JSON text directly, without building a document: the hot path serializes each
// change once (docs/architecture.md: patches are built from what a change touched).
// The caller places braces and commas; these append values.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carc::protocol {

// A quoted JSON string: `"`, `\` and control characters escaped; other bytes as they are
// (names and chat are checked to be UTF-8 where they arrive).
void append_json_string(std::string& out, std::string_view s);

inline void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

inline void append_bool(std::string& out, bool b) { out += b ? "true" : "false"; }

inline void append_opt_int(std::string& out, std::optional<std::int64_t> v) {
  if (v) append_int(out, *v);
  else out += "null";
}

// `"key":` (keys are plain ASCII names chosen by us).
inline void append_key(std::string& out, std::string_view key) {
  out += '"';
  out += key;
  out += "\":";
}

}  // namespace carc::protocol
