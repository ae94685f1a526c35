// The ID token check of sign-in (docs/community.md, "Sign-in"): tokens signed here with keys
// made here (cjose), so each refusal is tested on its own: a tampered payload, another key
// under the same key id, an expired token, a wrong nonce, issuer or audience, an algorithm
// that is not asymmetric, garbage. A good token gives its subject.
#include <doctest/doctest.h>

#include <cjose/header.h>
#include <cjose/jwk.h>
#include <cjose/jws.h>

#include <nlohmann/json.hpp>
#include <string>

#include "community/id_token.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

constexpr std::int64_t kNow = 1'800'000'000;

struct Key {
  cjose_jwk_t* jwk = nullptr;
  explicit Key(const char* kid) {
    cjose_err err;
    static const uint8_t e[] = {0x01, 0x00, 0x01};
    jwk = cjose_jwk_create_RSA_random(2048, e, sizeof e, &err);
    REQUIRE(jwk != nullptr);
    REQUIRE(cjose_jwk_set_kid(jwk, kid, std::char_traits<char>::length(kid), &err));
  }
  ~Key() { cjose_jwk_release(jwk); }
  Key(const Key&) = delete;
  Key& operator=(const Key&) = delete;
  json public_jwk() const {
    cjose_err err;
    char* text = cjose_jwk_to_json(jwk, false, &err);
    json j = json::parse(text);
    free(text);
    return j;
  }
  std::string sign(const json& claims, const char* alg = "RS256") const {
    cjose_err err;
    cjose_header_t* h = cjose_header_new(&err);
    cjose_header_set(h, "alg", alg, &err);
    cjose_header_set(h, "kid", cjose_jwk_get_kid(jwk, &err), &err);
    const std::string body = claims.dump();
    cjose_jws_t* jws = cjose_jws_sign(jwk, h, reinterpret_cast<const uint8_t*>(body.data()), body.size(), &err);
    REQUIRE(jws != nullptr);
    const char* out = nullptr;
    REQUIRE(cjose_jws_export(jws, &out, &err));
    std::string s(out);
    cjose_jws_release(jws);
    cjose_header_release(h);
    return s;
  }
};

json good_claims() {
  return {{"iss", "https://id.example.org"}, {"aud", "carc"},  {"sub", "alice-1"},
          {"exp", kNow + 600},               {"iat", kNow - 5}, {"nonce", "n-123"}, {"name", "Alice"}};
}

IdTokenCheck good_check() { return {"https://id.example.org", "carc", "n-123", kNow, 60}; }

std::string jwks_of(std::initializer_list<const Key*> keys) {
  json set{{"keys", json::array()}};
  for (const Key* k : keys) set["keys"].push_back(k->public_jwk());
  return set.dump();
}

std::string code_of(const std::variant<IdTokenClaims, IdTokenError>& r) {
  if (const auto* e = std::get_if<IdTokenError>(&r)) return e->code;
  return "ok";
}

std::string b64url(std::string_view s) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(s[i]) << 16) | (static_cast<unsigned char>(s[i + 1]) << 8) |
                       static_cast<unsigned char>(s[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kAlphabet[(v >> k) & 63];
  }
  if (s.size() - i == 1) {
    const unsigned v = static_cast<unsigned char>(s[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (s.size() - i == 2) {
    const unsigned v = (static_cast<unsigned char>(s[i]) << 16) | (static_cast<unsigned char>(s[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

}  // namespace

TEST_CASE("id token: a good token gives its issuer, subject and name") {
  const Key key("k1");
  const auto r = verify_id_token(key.sign(good_claims()), jwks_of({&key}), good_check());
  REQUIRE(code_of(r) == "ok");
  const auto& c = std::get<IdTokenClaims>(r);
  CHECK(c.issuer == "https://id.example.org");
  CHECK(c.subject == "alice-1");
  CHECK(c.name == "Alice");
  CHECK(id_token_kid(key.sign(good_claims())) == "k1");
  CHECK(jwks_has_kid(jwks_of({&key}), "k1"));
  CHECK_FALSE(jwks_has_kid(jwks_of({&key}), "k2"));
}

TEST_CASE("id token: a tampered payload or another key's signature is refused") {
  const Key key("k1");
  const Key other("k1");  // the same key id, another key: an attacker's
  std::string jwt = key.sign(good_claims());
  // Swap the payload for one naming another subject, keeping the signature.
  json evil = good_claims();
  evil["sub"] = "mallory";
  const auto dot1 = jwt.find('.');
  const auto dot2 = jwt.find('.', dot1 + 1);
  const std::string tampered = jwt.substr(0, dot1 + 1) + b64url(evil.dump()) + jwt.substr(dot2);
  CHECK(code_of(verify_id_token(tampered, jwks_of({&key}), good_check())) == "bad_signature");
  CHECK(code_of(verify_id_token(other.sign(good_claims()), jwks_of({&key}), good_check())) == "bad_signature");
  // A key the set does not have.
  const Key stranger("k9");
  CHECK(code_of(verify_id_token(stranger.sign(good_claims()), jwks_of({&key}), good_check())) == "unknown_signing_key");
}

TEST_CASE("id token: expired, wrong nonce, wrong issuer, wrong audience") {
  const Key key("k1");
  const std::string jwks = jwks_of({&key});
  json c = good_claims();
  c["exp"] = kNow - 61;  // past the minute of leeway
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "expired");
  c["exp"] = kNow - 30;  // within it
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "ok");

  IdTokenCheck check = good_check();
  check.nonce = "n-other";
  CHECK(code_of(verify_id_token(key.sign(good_claims()), jwks, check)) == "wrong_nonce");
  c = good_claims();
  c.erase("nonce");
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "wrong_nonce");

  c = good_claims();
  c["iss"] = "https://evil.example.org";
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "wrong_issuer");

  c = good_claims();
  c["aud"] = "someone-else";
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "wrong_audience");
  c["aud"] = json::array({"someone-else", "carc"});  // several audiences: azp must be us
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "wrong_audience");
  c["azp"] = "carc";
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "ok");

  c = good_claims();
  c.erase("sub");
  CHECK(code_of(verify_id_token(key.sign(c), jwks, good_check())) == "bad_token");
}

TEST_CASE("id token: no signature, HMAC and garbage are refused") {
  const Key key("k1");
  const std::string jwks = jwks_of({&key});
  const std::string header = b64url(R"({"alg":"none","kid":"k1"})");
  CHECK(code_of(verify_id_token(header + "." + b64url(good_claims().dump()) + ".", jwks, good_check())) != "ok");
  const std::string hs = b64url(R"({"alg":"HS256","kid":"k1"})");
  CHECK(code_of(verify_id_token(hs + "." + b64url(good_claims().dump()) + ".c2ln", jwks, good_check())) == "bad_algorithm");
  CHECK(code_of(verify_id_token("", jwks, good_check())) == "bad_token");
  CHECK(code_of(verify_id_token("a.b.c", jwks, good_check())) == "bad_token");
  CHECK(code_of(verify_id_token(key.sign(good_claims()), "not json", good_check())) == "bad_jwks");
}

}  // namespace carc::server
