// JSON names of the core's values (docs/protocol.md, docs/protocol-details.md). Everything that goes
// on the wire gets its spelling here, never from an enum's C++ name or index.
#pragma once

#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"

namespace carc::protocol {

using json = nlohmann::json;

// `GET /api/tiles`: every tile the engine knows with ports, sides, pennants, counts (in its
// own set), its expansion and the base start tile. With a set of expansions
// (`?expansions=`): that game's tile set, its counts and its start tile.
json tiles_json();
json tiles_json(ExpansionSet set);

// One event as in docs/protocol.md, without "id" and "turn" (the caller adds them).
json event_json(const Event& e);

json cell_json(Cell c);

}  // namespace carc::protocol
