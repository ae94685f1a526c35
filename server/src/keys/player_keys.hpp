// Player keys (docs/turn-based.md): "your games" on every device without an account. A key is 256
// random bits the browser keeps (localStorage) and sends only in an Authorization header,
// never in a URL the server sees (the transfer link carries it in the fragment). The server
// stores its SHA-256; each seat shown to the key keeps its token sealed with the key (XOR
// with SHA-256(key, room)), so the database alone gives no seat away and only the key's
// holder gets the token back. Stored hashes are compared in constant time; a key can be
// revoked (deleted with its seats).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carc/server/key_store.hpp"
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

  explicit PlayerKeys(std::unique_ptr<KeyStore> store);

  // A key's form: 43 base64url characters (32 bytes).
  static bool well_formed(std::string_view key);
  // Every `done` runs on the keys' worker thread.
  void create(std::function<void(Outcome, std::string key)> done);
  void attach(std::string key, Seat seat, std::function<void(Outcome)> done);
  void list(std::string key, std::function<void(Outcome, std::vector<Seat>)> done);
  void revoke(std::string key, std::function<void(Outcome)> done);
  // The key's public id (player_id.hpp) once the key is known: what names the player in
  // profiles, names and open games (docs/community.md).
  void identify(std::string key, std::function<void(Outcome, std::string player_id)> done);
  // The notifications' delivery log (the same side database): `done(true)` when `id` was
  // delivered already (or the log cannot be read: then it is sent, at least once).
  void was_sent(std::string id, std::function<void(bool)> done);
  void mark_sent(std::string id);

  // The sealing, for tests: seal(key, room, seal(key, room, t)) == t.
  static std::string seal(std::string_view key, std::string_view room, std::string_view token);
  static std::optional<std::string> unseal(std::string_view key, std::string_view room, std::string_view sealed);

 private:
  // Under the worker: the key's stored hash, compared in constant time.
  Outcome known(const std::string& key, std::string* hash);

  std::shared_ptr<KeyStore> store_;
  Worker worker_;  // last: stops first
};

}  // namespace carc::server
