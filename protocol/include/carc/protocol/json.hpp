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

// A document as JSON text, the only way the protocol and the server write one. Strings
// from the network may hold bytes that are not UTF-8; nlohmann's plain dump() throws on
// them, and an exception on an I/O thread would end the process. Here such a byte becomes
// U+FFFD instead. (scripts/check-layers.sh refuses any other dump() in product code.)
std::string json_text(const json& j);

}  // namespace carc::protocol
