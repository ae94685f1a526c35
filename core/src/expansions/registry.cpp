// The expansions the engine knows: one line each.
#include "expansions/part.hpp"

namespace carc::detail {

const Part* part_of(Expansion e) {
  switch (e) {
    case Expansion::River: return &river_part();
    case Expansion::Abbot: return &abbot_part();
    case Expansion::Inns: return &inns_part();
    case Expansion::Traders: return &traders_part();
  }
  return nullptr;
}

}  // namespace carc::detail
