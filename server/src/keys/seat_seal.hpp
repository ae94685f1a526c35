// Secrets sealed to a seat's holder (docs/protocol-details.md, rematch): a seat's token gives
// it an X25519 key pair (the private half derived from the token with HKDF-SHA256); a room
// stores only the public half, beside the token's hash. What is sealed to that public key
// (an ephemeral X25519 key, HKDF-SHA256, AES-256-GCM, bound to a context) opens only with the
// token, which the server sees only while its holder is connected: the database alone opens
// nothing. A rematch seals each player's new seat token this way in the old room.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace carc::server {

// The public key (64 hex digits) of the seat whose token is `token`.
std::string seat_seal_key(std::string_view token);
// `secret` sealed for `context` to the seat whose public key is `seal_key` (hex); empty when
// that is no key.
std::string seal_to_seat(std::string_view seal_key, std::string_view context, std::string_view secret);
// The secret, if `sealed` was sealed for `context` to the seat of `token`.
std::optional<std::string> open_as_seat(std::string_view token, std::string_view context, std::string_view sealed);

}  // namespace carc::server
