// The expansions the engine knows: one line each.
#include "expansions/part.hpp"

namespace carc::detail {

const Part& river_part();    // river/river.cpp
const Part& abbot_part();    // abbot/abbot.cpp
const Part& inns_part();     // inns/inns.cpp
const Part& traders_part();  // traders/traders.cpp

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
