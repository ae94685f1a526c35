// Player keys (docs/turn-based.md): "your games" on every device without an account. A key is 256
// random bits the browser keeps (localStorage) and sends only in an Authorization header,
// never in a URL the server sees (the transfer link carries it in the fragment). The server
// stores its SHA-256; each seat shown to the key keeps its token sealed with the key (XOR
// with SHA-256(key, room), then SHA-256(key, room, ":1") for a longer token), so the database alone gives no seat away and only the key's
// holder gets the token back. Stored hashes are compared in constant time; a key can be
// revoked (deleted with its seats).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carc/server/identity_store.hpp"
#include "carc/server/key_store.hpp"
#include "community/rated_play.hpp"
#include "base/worker.hpp"

namespace carc::server {

class PlayerKeys {
 public:
  enum class Outcome { Ok, UnknownKey, Unavailable };
  struct Seat {
    std::string room;
    int seat = 0;
    std::string token;
  };

  // `ids`: sign-in's rows (docs/community.md); none: every key is its own player.
  explicit PlayerKeys(std::unique_ptr<KeyStore> store, std::unique_ptr<IdentityStore> ids = nullptr);

  // A key's form: 43 base64url characters (32 bytes).
  static bool well_formed(std::string_view key);
  // Every `done` runs on the keys' worker thread.
  void create(std::function<void(Outcome, std::string key)> done);
  void attach(std::string key, Seat seat, std::function<void(Outcome)> done);
  void list(std::string key, std::function<void(Outcome, std::vector<Seat>)> done);
  void revoke(std::string key, std::function<void(Outcome)> done);
  // The notifications' delivery log (the same side database): `done(true)` when `id` was
  // delivered already (or the log cannot be read: then it is sent, at least once).
  void was_sent(std::string id, std::function<void(bool)> done);
  void mark_sent(std::string id);

  // Players (docs/community.md; keys/player_identity.cpp). The public id a key plays as: the
  // player its key is an alias of (signed in as the same account on another device), else
  // player_id_of_hash(its own hash). The one function ratings, names and open games use.
  void player_id(std::string key, std::function<void(Outcome, std::string player_id)> done);
  // The same, with the account bound to that player (none: not signed in).
  void whoami(std::string key, std::function<void(Outcome, std::string player_id, std::optional<BoundSubject>)> done);
  // The hash of a known key (sign-in remembers it while the provider is asked).
  void key_hash(std::string key, std::function<void(Outcome, std::string hash)> done);
  // Binds the account to the key's player, or makes the key an alias of the player already
  // bound to it. `done(Ok, that player's id)`.
  void bind(std::string key_hash, BoundSubject who, std::function<void(Outcome, std::string player_id)> done);
  // Rated play (--rated-play): whether this player's games may count for ratings.
  void rated_allowed(std::string player_id, RatedPlay mode, std::function<void(bool)> done);
  // The ratings' fallback (docs/community.md#ratings): for each seat of `room` shown to a key
  // whose player may play rated, the player of the first such key; a seat whose binding the
  // room's log lost (its append fenced in a cluster's handoff) still has its player here.
  // None when the keys cannot be read (then nothing may be recorded: the result is derived
  // again at the next start).
  void seat_players(std::string room, RatedPlay mode, std::function<void(std::optional<std::map<int, std::string>>)> done);
  // Invite codes for --rated-play invite: a new one (shown once, stored hashed), and its use.
  void make_invite(std::function<void(Outcome, std::string code)> done);
  void redeem_invite(std::string key, std::string code, std::function<void(Outcome, bool redeemed)> done);

  // The sealing, for tests: seal(key, room, seal(key, room, t)) == t.
  static std::string seal(std::string_view key, std::string_view room, std::string_view token);
  static std::optional<std::string> unseal(std::string_view key, std::string_view room, std::string_view sealed);

 private:
  // Under the worker: the key's stored hash, compared in constant time.
  Outcome known(const std::string& key, std::string* hash);
  // Under the worker: the public id of the player a stored key hash plays as.
  std::optional<std::string> player_of_hash(const std::string& hash);
  // Under the worker: rated_allowed's answer.
  bool allowed(const std::string& player_id, RatedPlay mode);

  std::shared_ptr<KeyStore> store_;
  std::shared_ptr<IdentityStore> ids_;
  Worker worker_;  // last: stops first
};

}  // namespace carc::server
