#include "community/id_token.hpp"

#include <cjose/header.h>
#include <cjose/jwk.h>
#include <cjose/jws.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

struct JwsFree {
  void operator()(cjose_jws_t* j) const { cjose_jws_release(j); }
};
struct JwkFree {
  void operator()(cjose_jwk_t* k) const { cjose_jwk_release(k); }
};
using Jws = std::unique_ptr<cjose_jws_t, JwsFree>;
using Jwk = std::unique_ptr<cjose_jwk_t, JwkFree>;

IdTokenError refuse(std::string code, std::string message) { return {std::move(code), std::move(message)}; }

// The key type an algorithm needs; empty: an algorithm we do not accept.
std::string_view kty_for(std::string_view alg) {
  static constexpr std::string_view kRsa[] = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"};
  static constexpr std::string_view kEc[] = {"ES256", "ES384", "ES512"};
  for (auto a : kRsa) {
    if (a == alg) return "RSA";
  }
  for (auto a : kEc) {
    if (a == alg) return "EC";
  }
  return {};
}

Jws import(std::string_view jwt) {
  if (jwt.empty() || jwt.size() > 16 * 1024) return nullptr;
  cjose_err err;
  return Jws(cjose_jws_import(jwt.data(), jwt.size(), &err));
}

std::string header_field(cjose_jws_t* jws, const char* name) {
  cjose_err err;
  cjose_header_t* h = cjose_jws_get_protected(jws);
  if (h == nullptr) return {};
  const char* v = cjose_header_get(h, name, &err);
  return v != nullptr ? std::string(v) : std::string();
}

bool audience_ok(const json& claims, const std::string& client_id) {
  const auto aud = claims.find("aud");
  if (aud == claims.end()) return false;
  if (aud->is_string()) return aud->get<std::string>() == client_id;
  if (!aud->is_array()) return false;
  bool found = false;
  for (const auto& a : *aud) found = found || (a.is_string() && a.get<std::string>() == client_id);
  if (!found) return false;
  // Several audiences: the party it was issued to (azp) must be us (OpenID Connect Core 3.1.3.7).
  if (aud->size() > 1) {
    const auto azp = claims.find("azp");
    return azp != claims.end() && azp->is_string() && azp->get<std::string>() == client_id;
  }
  return true;
}

std::string string_claim(const json& claims, const char* name) {
  const auto it = claims.find(name);
  return it != claims.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::optional<std::string> id_token_kid(std::string_view jwt) {
  Jws jws = import(jwt);
  if (!jws) return std::nullopt;
  std::string kid = header_field(jws.get(), "kid");
  if (kid.empty()) return std::nullopt;
  return kid;
}

bool jwks_has_kid(std::string_view jwks, std::string_view kid) {
  const json set = json::parse(jwks, nullptr, false);
  if (!set.is_object() || !set.contains("keys") || !set["keys"].is_array()) return false;
  for (const auto& k : set["keys"]) {
    if (k.is_object() && k.contains("kid") && k["kid"].is_string() && k["kid"].get<std::string>() == kid) return true;
  }
  return false;
}

std::variant<IdTokenClaims, IdTokenError> verify_id_token(std::string_view jwt, std::string_view jwks,
                                                          const IdTokenCheck& check) {
  Jws jws = import(jwt);
  if (!jws) return refuse("bad_token", "the ID token is not a signed JWT (JWS compact form)");
  const std::string alg = header_field(jws.get(), "alg");
  const std::string_view kty = kty_for(alg);
  if (kty.empty()) return refuse("bad_algorithm", "the ID token is signed with \"" + alg.substr(0, 20) + "\", not RS*, PS* or ES*");
  const std::string kid = header_field(jws.get(), "kid");

  const json set = json::parse(jwks, nullptr, false);
  if (!set.is_object() || !set.contains("keys") || !set["keys"].is_array()) {
    return refuse("bad_jwks", "the provider's key set (jwks_uri) is not a JWK Set");
  }
  bool tried = false;
  bool verified = false;
  for (const auto& k : set["keys"]) {
    if (!k.is_object() || !k.contains("kty") || k["kty"] != kty) continue;
    if (k.contains("use") && k["use"] != "sig") continue;
    if (!kid.empty() && (!k.contains("kid") || k["kid"] != kid)) continue;
    if (k.contains("alg") && k["alg"] != alg) continue;
    const std::string text = protocol::json_text(k);
    cjose_err err;
    Jwk key(cjose_jwk_import(text.data(), text.size(), &err));
    if (!key) continue;
    tried = true;
    if (cjose_jws_verify(jws.get(), key.get(), &err)) {
      verified = true;
      break;
    }
  }
  if (!tried) return refuse("unknown_signing_key", "no key of the provider's key set matches the ID token (kid \"" + kid.substr(0, 64) + "\")");
  if (!verified) return refuse("bad_signature", "the ID token's signature does not verify with the provider's key");

  uint8_t* plain = nullptr;
  std::size_t plain_len = 0;
  cjose_err err;
  if (!cjose_jws_get_plaintext(jws.get(), &plain, &plain_len, &err)) return refuse("bad_token", "the ID token has no payload");
  const json claims = json::parse(std::string_view(reinterpret_cast<const char*>(plain), plain_len), nullptr, false);
  if (!claims.is_object()) return refuse("bad_token", "the ID token's payload is not a JSON object");

  IdTokenClaims out;
  out.issuer = string_claim(claims, "iss");
  if (out.issuer != check.issuer) {
    return refuse("wrong_issuer", "the ID token was issued by \"" + out.issuer.substr(0, 200) + "\", not the configured issuer");
  }
  if (!audience_ok(claims, check.client_id)) return refuse("wrong_audience", "the ID token is not meant for this server's client id");
  const auto exp = claims.find("exp");
  if (exp == claims.end() || !exp->is_number()) return refuse("bad_token", "the ID token has no expiry (exp)");
  if (exp->get<double>() + static_cast<double>(check.leeway_s) < static_cast<double>(check.now_s)) {
    return refuse("expired", "the ID token has expired");
  }
  if (const auto iat = claims.find("iat"); iat != claims.end() && iat->is_number() &&
                                           iat->get<double>() > static_cast<double>(check.now_s + check.leeway_s)) {
    return refuse("bad_token", "the ID token was issued in the future");
  }
  if (string_claim(claims, "nonce") != check.nonce || check.nonce.empty()) {
    return refuse("wrong_nonce", "the ID token's nonce is not the one this sign-in sent");
  }
  out.subject = string_claim(claims, "sub");
  if (out.subject.empty() || out.subject.size() > 255) return refuse("bad_token", "the ID token names no subject (sub)");
  out.name = string_claim(claims, "name");
  if (out.name.empty()) out.name = string_claim(claims, "preferred_username");
  if (out.name.size() > 100) out.name.clear();  // never cut inside a UTF-8 sequence
  return out;
}

}  // namespace carc::server
