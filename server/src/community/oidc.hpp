// Sign-in with the host's own OpenID Connect provider (docs/community.md, "Sign-in"): the
// authorization code flow with PKCE, state and nonce, the server as a confidential client
// (client id and secret). The provider's discovery document and key set are fetched and
// cached; the code is exchanged at its token endpoint and the ID token checked
// (id_token.hpp). All network work runs on this client's own thread: never on an I/O thread
// or a room's strand. The issuer's own host may be on a private or loopback address (it is
// the admin's choice); any other host the discovery names must be public, as for webhooks.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "community/id_token.hpp"

namespace carc::server {

struct OidcOptions {
  std::string issuer;
  std::string client_id;
  std::string client_secret;
  std::string extra_ca;  // --extra-ca: a CA the provider's certificate may chain to
  int timeout_s = 10;
};

class OidcClient {
 public:
  struct Started {
    std::string error;    // empty: ok; else a code (docs/community.md)
    std::string message;
    std::string url;      // where the browser goes: the provider's authorization endpoint
    std::string browser;  // the cookie that ties the callback to this browser
  };
  struct Finished {
    std::string error;  // empty: ok
    std::string message;
    std::string key_hash;  // the key that started the sign-in
    IdTokenClaims claims;
  };

  explicit OidcClient(OidcOptions options);  // throws std::runtime_error (an --extra-ca it cannot read)
  ~OidcClient();
  OidcClient(const OidcClient&) = delete;
  OidcClient& operator=(const OidcClient&) = delete;

  const std::string& issuer() const;
  // A sign-in for the key with this hash, coming back to `redirect_uri`. `done` runs on the
  // client's thread.
  void begin(std::string key_hash, std::string redirect_uri, std::function<void(Started)> done);
  // The provider's answer at the redirect URI: its query's `state`, `code`, `iss` and
  // `error`, and the browser's cookie. A state is used once, whatever the outcome.
  struct Callback {
    std::string state, code, iss, error, browser;
  };
  void finish(Callback cb, std::function<void(Finished)> done);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace carc::server
