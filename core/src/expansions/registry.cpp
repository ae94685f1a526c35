// The parts of the expansions the engine knows, from the list (carc/core/expansions/list.hpp):
// expansion <id>'s part is <id>_part(), in core/src/expansions/<id>/.
#include "expansions/part.hpp"

namespace carc::detail {

#define CARC_PART_DECLARATION(Name, id) const Part& id##_part();
CARC_EACH_EXPANSION(CARC_PART_DECLARATION)
#undef CARC_PART_DECLARATION

const Part* part_of(Expansion e) {
  switch (e) {
#define CARC_PART_CASE(Name, id) \
  case Expansion::Name: return &id##_part();
    CARC_EACH_EXPANSION(CARC_PART_CASE)
#undef CARC_PART_CASE
  }
  return nullptr;
}

std::string_view name_in_parts(Named::What what, std::uint8_t value) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const Part* part = part_of(static_cast<Expansion>(e));
    if (part == nullptr) continue;
    for (const Named& n : part->names) {
      if (n.what == what && n.value == value) return n.name;
    }
  }
  return {};
}

}  // namespace carc::detail
