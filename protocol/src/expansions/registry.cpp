// The expansions the protocol knows: one line each.
#include "expansions/part.hpp"

#include <array>
#include <utility>
#include <vector>

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

namespace carc::protocol::detail {

namespace {

// The parts' refusal codes, in id order: each action kind's, then the step's.
struct CodeSlot {
  std::string_view name;
  int kind;  // the action kind, or -1 for a step
};
const std::vector<CodeSlot>& code_slots() {
  static const std::vector<CodeSlot> slots = [] {
    std::vector<CodeSlot> out;
    for (int e = 0; e < kExpansionKinds; ++e) {
      const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
      if (p == nullptr) continue;
      for (std::size_t k = 1; k < p->target_codes.size(); ++k) {
        if (!p->target_codes[k].empty()) out.push_back({p->target_codes[k], static_cast<int>(k)});
      }
      if (!p->step_code.empty()) out.push_back({p->step_code, -1});
    }
    return out;
  }();
  return slots;
}

int slot_of(int kind) {
  const auto& slots = code_slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].kind == kind) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::string_view elsewhere_key() {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
    if (p != nullptr && !p->elsewhere_key.empty()) return p->elsewhere_key;
  }
  return {};
}

bool is_step_type(std::string_view t) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const ProtocolPart* p = protocol_part(static_cast<Expansion>(e));
    if (p != nullptr && !p->step_type.empty() && p->step_type == t) return true;
  }
  return false;
}

std::string_view part_code_name(int k) {
  const auto& slots = code_slots();
  return k >= 0 && k < static_cast<int>(slots.size()) ? slots[static_cast<std::size_t>(k)].name : "";
}
int target_code_slot(std::uint8_t kind) { return slot_of(kind); }
int step_code_slot() { return slot_of(-1); }

bool figure_lists(ExpansionSet set) { return ruleset(set).elsewhere_part != nullptr; }

}  // namespace carc::protocol::detail
