// Sign-in's rows (docs/community.md, "Sign-in"): which provider account (issuer + subject) is
// bound to which player, which player keys are aliases of another key's player (a second
// device signed in as the same account), and the invite codes of rated play.
//
// Its own connection (SQLite: the same file; PostgreSQL: the same database), used from one
// thread (PlayerKeys' worker). Its tables are made when it opens (CREATE TABLE IF NOT
// EXISTS), beside the rooms' store's migrations.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "carc/server/room_store.hpp"

namespace carc::server {

// A player as stored: the hash of the key it started with, and its public id (derived from
// that hash by the server, keys/player_id.hpp; stored so that it can be looked up).
struct BoundPlayer {
  std::string player_hash;
  std::string player_id;
};

struct BoundSubject {
  std::string issuer;
  std::string subject;
  std::string name;  // as the provider last gave it; may be empty
};

class IdentityStore {
 public:
  virtual ~IdentityStore() = default;
  // The player hash a key is an alias of; none when the key is its own player.
  virtual std::variant<std::optional<std::string>, std::string> alias_of(const std::string& key_hash) = 0;
  // Binds the account to a player: the one bound to it already, else `own` (the signing-in
  // key's player). The key becomes an alias of that player when it is not its own. Returns
  // the bound player.
  virtual std::variant<BoundPlayer, std::string> bind(const BoundSubject& who, const std::string& key_hash,
                                                      const BoundPlayer& own, std::int64_t ms) = 0;
  // The account bound to a player, if any.
  virtual std::variant<std::optional<BoundSubject>, std::string> subject_of(const std::string& player_id) = 0;

  // Invite codes (stored hashed): made by the admin, redeemed once.
  virtual Status add_invite(const std::string& code_hash, std::int64_t ms) = 0;
  // True when the code existed and was not used by another player (redeeming twice is fine).
  virtual std::variant<bool, std::string> redeem_invite(const std::string& code_hash, const std::string& player_id,
                                                        std::int64_t ms) = 0;
  virtual std::variant<bool, std::string> invited(const std::string& player_id) = 0;

  static std::unique_ptr<IdentityStore> sqlite(const std::filesystem::path& file);  // throws StorageError
  static std::unique_ptr<IdentityStore> memory();
  static std::unique_ptr<IdentityStore> postgres(const std::string& url);  // throws StorageError
};

}  // namespace carc::server
