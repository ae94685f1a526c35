// A player's public id (docs/community.md): what names a player in profiles, ratings and
// open games without giving the player key away. The server stores only the key's SHA-256
// (hex); the public id is derived from that hash, so it can be computed from the stored rows
// alone, and it cannot be turned back into the key or the hash.
#pragma once

#include <string>
#include <string_view>

namespace carc::server {

// 16 characters of unpadded base64url: SHA-256("carc-player-id:" + key_hash_hex), its first
// 12 bytes.
std::string player_id_of_hash(std::string_view key_hash_hex);

// The form of a public id: 16 base64url characters.
bool player_id_well_formed(std::string_view id);

}  // namespace carc::server
