#include "limits/address.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace carc::server {

namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// An X-Forwarded-For entry: an address, possibly "[v6]", "[v6]:port" or "v4:port".
std::optional<IpAddress> parse_forwarded_entry(std::string_view e) {
  e = trim(e);
  if (e.starts_with('[')) {
    const auto close = e.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    return IpAddress::parse(e.substr(1, close - 1));
  }
  if (const auto colon = e.find(':'); colon != std::string_view::npos && e.find(':', colon + 1) == std::string_view::npos) {
    e = e.substr(0, colon);  // one colon: IPv4 with a port
  }
  return IpAddress::parse(e);
}

}  // namespace

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  // inet_pton wants a NUL-terminated string; the longest literal is 45 characters.
  char buf[64];
  if (text.empty() || text.size() >= sizeof buf) return std::nullopt;
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  IpAddress a;
  std::uint8_t raw[16];
  if (::inet_pton(AF_INET, buf, raw) == 1) {
    std::copy(kMappedPrefix.begin(), kMappedPrefix.end(), a.bytes.begin());
    std::copy(raw, raw + 4, a.bytes.begin() + 12);
    a.v4 = true;
    return a;
  }
  if (::inet_pton(AF_INET6, buf, raw) == 1) {
    std::copy(raw, raw + 16, a.bytes.begin());
    a.v4 = std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), a.bytes.begin());
    return a;
  }
  return std::nullopt;
}

std::string IpAddress::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  if (v4) {
    ::inet_ntop(AF_INET, bytes.data() + 12, buf, sizeof buf);
  } else {
    ::inet_ntop(AF_INET6, bytes.data(), buf, sizeof buf);
  }
  return buf;
}

std::optional<Cidr> Cidr::parse(std::string_view text) {
  text = trim(text);
  const auto slash = text.find('/');
  auto addr = IpAddress::parse(text.substr(0, slash));
  if (!addr) return std::nullopt;
  const int max = addr->v4 ? 32 : 128;
  int prefix = max;
  if (slash != std::string_view::npos) {
    const std::string_view p = text.substr(slash + 1);
    const auto r = std::from_chars(p.data(), p.data() + p.size(), prefix);
    if (p.empty() || r.ec != std::errc() || r.ptr != p.data() + p.size() || prefix < 0 || prefix > max) {
      return std::nullopt;
    }
  }
  Cidr c;
  c.prefix = prefix;
  c.base = *addr;
  const int bits = addr->v4 ? prefix + 96 : prefix;
  for (int i = 0; i < 16; ++i) {
    const int keep = std::clamp(bits - 8 * i, 0, 8);
    c.base.bytes[static_cast<std::size_t>(i)] &= static_cast<std::uint8_t>(0xff00u >> keep);
  }
  return c;
}

bool Cidr::contains(const IpAddress& a) const {
  if (a.v4 != base.v4) return false;
  const int bits = base.v4 ? prefix + 96 : prefix;
  for (int i = 0; i < 16; ++i) {
    const int keep = std::clamp(bits - 8 * i, 0, 8);
    const auto mask = static_cast<std::uint8_t>(0xff00u >> keep);
    if ((a.bytes[static_cast<std::size_t>(i)] & mask) != base.bytes[static_cast<std::size_t>(i)]) return false;
  }
  return true;
}

std::string Cidr::to_string() const { return base.to_string() + "/" + std::to_string(prefix); }

bool any_contains(std::span<const Cidr> ranges, const IpAddress& a) {
  for (const auto& r : ranges) {
    if (r.contains(a)) return true;
  }
  return false;
}

IpAddress client_address(const IpAddress& peer, std::string_view forwarded_for, std::span<const Cidr> trusted) {
  IpAddress client = peer;
  while (any_contains(trusted, client) && !forwarded_for.empty()) {
    const auto comma = forwarded_for.rfind(',');
    const std::string_view entry = comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1);
    forwarded_for = comma == std::string_view::npos ? std::string_view() : forwarded_for.substr(0, comma);
    if (trim(entry).empty()) continue;  // "a, , b": a proxy wrote nothing
    auto next = parse_forwarded_entry(entry);
    if (!next) break;
    client = *next;
  }
  return client;
}

std::string limit_key(const IpAddress& a) {
  if (a.v4) return a.to_string();
  IpAddress net = a;
  std::fill(net.bytes.begin() + 8, net.bytes.end(), std::uint8_t{0});
  return net.to_string() + "/64";
}

}  // namespace carc::server
