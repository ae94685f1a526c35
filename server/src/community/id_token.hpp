// The check of an OpenID Connect ID token (docs/community.md, "Sign-in"): its signature with
// one of the provider's published keys (JWKS), then its claims: the issuer the server is
// configured with, this server's client id as audience, not expired, and the nonce the
// sign-in started with. The JOSE work (JWK import, JWS verification) is Cisco's cjose; this
// file only chooses which key and which algorithms, and reads the claims.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace carc::server {

struct IdTokenClaims {
  std::string issuer;
  std::string subject;
  std::string name;  // "name" or "preferred_username" when given; may be empty
};

struct IdTokenCheck {
  std::string issuer;     // exactly as configured (--oidc-issuer)
  std::string client_id;  // --oidc-client-id
  std::string nonce;      // the one this sign-in sent
  std::int64_t now_s = 0;
  std::int64_t leeway_s = 60;  // clocks differ a little
};

// A refusal: a stable code (docs/community.md lists them) and a sentence for the log.
struct IdTokenError {
  std::string code;
  std::string message;
};

// `jwks` is the provider's JSON Web Key Set ({"keys": [...]}). Only asymmetric signatures
// (RS*, PS*, ES*) with a key of the matching type count: "none" and HMAC are refused.
std::variant<IdTokenClaims, IdTokenError> verify_id_token(std::string_view jwt, std::string_view jwks,
                                                          const IdTokenCheck& check);

// The "kid" a token's header names, if any (a key the cached JWKS lacks means: fetch it again).
std::optional<std::string> id_token_kid(std::string_view jwt);

// Whether `jwks` has a key with this id.
bool jwks_has_kid(std::string_view jwks, std::string_view kid);

}  // namespace carc::server
