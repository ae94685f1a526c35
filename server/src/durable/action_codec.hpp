// How a RoomAction is stored (docs/durability.md): one line of compact text per action, written and
// read without a JSON tree. The store keeps it as an opaque payload.
//
//   <tag> <version> <game version> <fields...>
//
//   S v gv <seat> <name> <token hash> <bot level|->[ host][ key <seal key>]   a seat taken (host: it
//                                                         becomes the host; key: seat_seal.hpp)
//   F v gv <seat> <left|kicked|bot_removed>               a lobby seat freed
//   T v gv <turn s|-> <away s|->[ <expansion bits>][ <pace> <bank s> <increment s>[ hints|no_hints]]  the room's settings
//   G v gv <players> <seed> <time ms>                     the game started
//   M v gv <index> <seat> <time ms> <move>[ auto]         a move (move_codec.hpp)
//   C v gv <id> <seat|-> <time ms> <name> <text>          a chat line
//   R v gv <room>[ <sealed token>...]                     the rematch's room, and per seat the new
//                                                         token sealed to its player (persistence.hpp)
//   W v gv <json|discord|ntfy> <url>  or  W v gv -       the room's webhook, or none
//   P v gv <seat> <endpoint> <p256dh> <auth>              a seat's push subscription (empty endpoint: none)
//   B v gv <seat> <player id>                             the seat's player (docs/community.md#ratings)
//
// In T, each optional part is left out at its default (no expansions; live at the default
// bank; hints following the seats), so rows written before either existed read unchanged;
// when the host set the hints, the pace part is written too and the hints word follows it; with
// rule options (docs/options.md) the pace part too, then "options" and their bits. Fields are separated by one
// space; <name>, <token hash>, <text> and <room> are length-prefixed ("5:Alice") so they may
// hold any bytes. Example:
//   M 57 57 12 1 1764575000000 D,2,-1,90,N
//
// Databases written before this format hold JSON objects ({"type":"move",...}); the decoder
// reads both, so they restore unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "carc/server/room_store.hpp"
#include "durable/persistence.hpp"

namespace carc::server {

struct DecodedAction {
  RoomAction action;
  std::int64_t version = 0;
  std::int64_t game_version = 0;
};

std::string encode_action(std::int64_t version, std::int64_t game_version, const RoomAction& action);
// The action of one payload (either format), or why it cannot be read. Never throws.
std::variant<DecodedAction, std::string> decode_action(std::string_view payload);
// True when the payload stores a move (cheap: looks at the tag only).
bool is_move_payload(std::string_view payload);

// The RestoredRoom of a stored room, or why its log cannot be read ("action <seq>: ...").
std::variant<RestoredRoom, std::string> decode_room(const StoredRoom& stored);

}  // namespace carc::server
