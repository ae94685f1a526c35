// The expansions the engine knows: the one place in core that lists them
// (docs/expansions.md, "Adding an expansion"). One line each:
//
//   #define CARC_EXPANSION_<n> Name, id
//
// <n> is the Expansion value (kept in records and expansion bit masks: never renumber),
// Name the Expansion enumerator and id the expansion's folder, core/src/expansions/<id>/ and
// core/include/carc/core/expansions/<id>/, where everything else about it lives. The rest of
// the engine reads this list through each.hpp.
#pragma once

#define CARC_EXPANSION_0 River, river
#define CARC_EXPANSION_1 Abbot, abbot
#define CARC_EXPANSION_2 Inns, inns
#define CARC_EXPANSION_3 Traders, traders
#define CARC_EXPANSION_4 Princess, princess
