// The expansions the protocol knows: one line each.
#include "expansions/part.hpp"

namespace carc::protocol::detail {

const ProtocolPart* protocol_part(Expansion e) {
  switch (e) {
    case Expansion::Traders: return &traders_protocol();
    default: return nullptr;
  }
}

const ProtocolPart* protocol_part_of_tag(std::uint8_t tag) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
    if (p != nullptr && tag >= p->first_tag && tag < p->first_tag + p->kinds) return p;
  }
  return nullptr;
}

}  // namespace carc::protocol::detail
