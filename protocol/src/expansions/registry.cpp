// The expansions the protocol knows: one line each.
#include "expansions/part.hpp"

#include <array>
#include <utility>

namespace carc::protocol::detail {

const ProtocolPart& abbot_protocol();    // abbot/abbot.cpp
const ProtocolPart& inns_protocol();     // inns/inns.cpp
const ProtocolPart& traders_protocol();  // traders/traders.cpp
const ProtocolPart& princess_protocol();  // princess/princess.cpp

const ProtocolPart* protocol_part(Expansion e) {
  switch (e) {
    case Expansion::River: return nullptr;  // nothing on the wire beyond its tiles
    case Expansion::Abbot: return &abbot_protocol();
    case Expansion::Inns: return &inns_protocol();
    case Expansion::Traders: return &traders_protocol();
    case Expansion::Princess: return &princess_protocol();
  }
  return nullptr;
}

const ProtocolPart* protocol_part_of_tag(std::uint8_t tag) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
    if (p != nullptr && tag >= p->first_tag && tag < p->first_tag + p->kinds) return p;
  }
  return nullptr;
}

}  // namespace carc::protocol::detail

namespace carc::protocol::detail {

std::string_view action_key() {
  static const std::string_view key = [] {
    for (int e = 0; e < kExpansionKinds; ++e) {
      const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
      if (p != nullptr && !p->action_key.empty()) return p->action_key;
    }
    return std::string_view{};
  }();
  return key;
}

std::span<const ScoredFlag> scored_flags() {
  static const auto flags = [] {
    std::pair<std::array<ScoredFlag, 2 * kExpansionKinds>, std::size_t> out{};
    for (int e = 0; e < kExpansionKinds; ++e) {
      const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
      if (p == nullptr) continue;
      for (const ScoredFlag& f : p->scored) {
        if (f.holds != nullptr) out.first[out.second++] = f;
      }
    }
    return out;
  }();
  return {flags.first.data(), flags.second};
}

}  // namespace carc::protocol::detail
