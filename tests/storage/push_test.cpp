// Notifications outside the page end to end (docs/turn-based.md): the real server sends Web Push
// to a local HTTPS endpoint (its certificate trusted through --extra-ca) and the room's
// webhook to a local HTTP receiver (--allow-private-hooks). The test subscribes with keys it
// makes, decrypts the push with its own private key (RFC 8291, written here independently of
// the server's code), checks the VAPID signature (RFC 8292) against GET /api/push/key, and
// finds the room, the seat and the link. Bad input is refused and changes nothing.
#include <doctest/doctest.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <random>

#include "harness.hpp"
#include "helpers.hpp"
#include "receivers.hpp"

using namespace carc::test;

namespace {

std::string b64url(const std::string& in) {
  static constexpr char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) out += k[(acc >> (bits -= 6)) & 63];
  }
  if (bits > 0) out += k[(acc << (6 - bits)) & 63];
  return out;
}

std::string unb64url(std::string in) {
  for (auto& c : in) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (in.size() % 4) in += '=';
  std::string out(in.size(), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(in.data()),
                                static_cast<int>(in.size()));
  REQUIRE(n >= 0);
  out.resize(static_cast<std::size_t>(n) - std::count(in.end() - 2, in.end(), '='));
  return out;
}

std::string hmac(const std::string& key, const std::string& data) {
  unsigned char out[32];
  unsigned len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string hkdf(const std::string& salt, const std::string& ikm, const std::string& info, std::size_t n) {
  return hmac(hmac(salt, ikm), info + '\x01').substr(0, n);
}

EVP_PKEY* point_key(const std::string& raw) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
  EVP_PKEY_fromdata_init(ctx);
  char group[] = "prime256v1";
  OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
                    OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<char*>(raw.data()), raw.size()),
                    OSSL_PARAM_construct_end()};
  EVP_PKEY* k = nullptr;
  EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, p);
  EVP_PKEY_CTX_free(ctx);
  return k;
}

// The subscriber: a P-256 key pair and an auth secret, as a browser makes them.
struct Subscriber {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  std::string auth = std::string(16, '\0');
  Subscriber() { RAND_bytes(reinterpret_cast<unsigned char*>(auth.data()), 16); }
  ~Subscriber() { EVP_PKEY_free(key); }
  std::string public_raw() const {
    unsigned char b[65];
    std::size_t n = 0;
    EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, b, 65, &n);
    return std::string(reinterpret_cast<char*>(b), n);
  }
  // RFC 8291 / RFC 8188: one aes128gcm record.
  std::string decrypt(const std::string& body) const {
    REQUIRE(body.size() > 86 + 16);
    const std::string salt = body.substr(0, 16);
    const auto idlen = static_cast<unsigned char>(body[20]);
    REQUIRE(idlen == 65);
    const std::string as_public = body.substr(21, 65);
    EVP_PKEY* as = point_key(as_public);
    REQUIRE(as != nullptr);
    EVP_PKEY_CTX* d = EVP_PKEY_CTX_new(key, nullptr);
    std::size_t n = 32;
    std::string secret(32, '\0');
    EVP_PKEY_derive_init(d);
    EVP_PKEY_derive_set_peer(d, as);
    REQUIRE(EVP_PKEY_derive(d, reinterpret_cast<unsigned char*>(secret.data()), &n) == 1);
    EVP_PKEY_CTX_free(d);
    EVP_PKEY_free(as);
    const std::string ikm = hkdf(auth, secret, std::string("WebPush: info") + '\0' + public_raw() + as_public, 32);
    const std::string cek = hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16);
    const std::string nonce = hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12);
    const std::string sealed = body.substr(86);
    const std::string ct = sealed.substr(0, sealed.size() - 16);
    std::string tag = sealed.substr(sealed.size() - 16);
    EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
    std::string plain(ct.size(), '\0');
    int len = 0, fin = 0;
    EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), nullptr, reinterpret_cast<const unsigned char*>(cek.data()),
                       reinterpret_cast<const unsigned char*>(nonce.data()));
    EVP_DecryptUpdate(c, reinterpret_cast<unsigned char*>(plain.data()), &len, reinterpret_cast<const unsigned char*>(ct.data()),
                      static_cast<int>(ct.size()));
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, tag.data());
    const int ok = EVP_DecryptFinal_ex(c, reinterpret_cast<unsigned char*>(plain.data()) + len, &fin);
    EVP_CIPHER_CTX_free(c);
    REQUIRE(ok == 1);  // the tag checks: the key and the content are right
    REQUIRE(!plain.empty());
    CHECK(plain.back() == '\x02');  // the last record's delimiter
    plain.pop_back();
    return plain;
  }
};

// RFC 8292: "vapid t=<JWT>, k=<key>"; the JWT's ES256 signature checks with k.
json check_vapid(const std::string& header, const std::string& server_key) {
  REQUIRE(header.starts_with("vapid t="));
  const auto comma = header.find(", k=");
  REQUIRE(comma != std::string::npos);
  const std::string jwt = header.substr(8, comma - 8);
  CHECK(header.substr(comma + 4) == server_key);
  const auto d1 = jwt.find('.'), d2 = jwt.rfind('.');
  const json head = json::parse(unb64url(jwt.substr(0, d1)));
  CHECK(head["alg"] == "ES256");
  const std::string raw = unb64url(jwt.substr(d2 + 1));
  REQUIRE(raw.size() == 64);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  ECDSA_SIG_set0(sig, BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), 32, nullptr),
                 BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + 32, 32, nullptr));
  unsigned char* der = nullptr;
  const int der_len = i2d_ECDSA_SIG(sig, &der);
  EVP_PKEY* pub = point_key(unb64url(server_key));
  REQUIRE(pub != nullptr);
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  EVP_DigestVerifyInit(md, nullptr, EVP_sha256(), nullptr, pub);
  const std::string signed_part = jwt.substr(0, d2);
  const int ok = EVP_DigestVerify(md, der, static_cast<std::size_t>(der_len), reinterpret_cast<const unsigned char*>(signed_part.data()),
                                  signed_part.size());
  EVP_MD_CTX_free(md);
  EVP_PKEY_free(pub);
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);
  CHECK(ok == 1);
  return json::parse(unb64url(jwt.substr(d1 + 1, d2 - d1 - 1)));
}

json read_until_error(WsClient& c) {
  for (;;) {
    json f = c.read();
    if (f["type"] == "error") return f;
  }
}

}  // namespace

TEST_CASE("notifications: Web Push to a local HTTPS endpoint and the room's webhook, decrypted and checked") {
  TempDir dir;
  Receiver::make_cert(dir.path());
  Receiver push_service(dir.path());
  Receiver hooks;
  ServerProcess server(dir.path() / "data", dir.path() / "server.log", {},
                       {"--allow-private-hooks", "--extra-ca", (dir.path() / "cert.pem").string(), "--base-url", "https://carc.test"});
  REQUIRE(server.wait_ready());
  const json key_reply = http_request(server.port(), http::verb::get, "/api/push/key").json_body();
  const std::string server_key = key_reply["public_key"].get<std::string>();
  CHECK(unb64url(server_key).size() == 65);

  const std::string room = http_request(server.port(), http::verb::post, "/api/rooms", "{}").json_body()["room"].get<std::string>();
  WsClient alice(server.port(), room);
  alice.send({{"type", "join"}, {"name", "Alice"}});
  alice.expect("welcome");
  WsClient bob(server.port(), room);
  bob.send({{"type", "join"}, {"name", "Bob"}});
  bob.expect("welcome");
  Subscriber sub;
  const std::string endpoint = push_service.base() + "/push/bob-1";

  // Bad input first: each refused with a clear error, nothing changes.
  const json good_sub{{"endpoint", endpoint}, {"keys", {{"p256dh", b64url(sub.public_raw())}, {"auth", b64url(sub.auth)}}}};
  for (const json& bad : {json{{"type", "push_subscribe"}},
                          json{{"type", "push_subscribe"}, {"subscription", {{"endpoint", endpoint}}}},
                          json{{"type", "push_subscribe"}, {"subscription", {{"endpoint", "ftp://x"}, {"keys", good_sub["keys"]}}}},
                          json{{"type", "push_subscribe"}, {"subscription", {{"endpoint", endpoint}, {"keys", {{"p256dh", b64url(std::string(65, 'x'))}, {"auth", b64url(sub.auth)}}}}}},
                          json{{"type", "push_subscribe"}, {"subscription", {{"endpoint", endpoint}, {"keys", {{"p256dh", b64url(sub.public_raw())}, {"auth", "short"}}}}}}}) {
    bob.send(bad);
    const json e = read_until_error(bob);
    CHECK(e["code"] == "bad_message");
    CAPTURE(e.dump());
  }
  for (const json& bad : {json{{"type", "settings"}, {"webhook", {{"url", "https://x.test/" + std::string(600, 'a')}}}},
                          json{{"type", "settings"}, {"webhook", {{"url", hooks.base() + "/hook"}, {"format", "slack"}}}},
                          json{{"type", "settings"}, {"webhook", "https://x.test/"}},
                          json{{"type", "settings"}, {"webhook", {{"url", hooks.base()}}}, {"pace", "live"}}}) {
    alice.send(bad);
    CHECK(read_until_error(alice)["code"] == "bad_message");
  }
  bob.send({{"type", "settings"}, {"webhook", {{"url", hooks.base() + "/hook"}}}});
  CHECK(read_until_error(bob)["code"] == "not_host");
  alice.send({{"type", "resync"}});
  alice.expect("state");
  CHECK(alice.state["settings"]["webhook"] == false);

  // The real thing.
  bob.send({{"type", "push_subscribe"}, {"subscription", good_sub}});
  alice.send({{"type", "settings"}, {"webhook", {{"url", hooks.base() + "/hook"}, {"format", "json"}}}});
  while (alice.state["settings"]["webhook"] != true) alice.read();
  CHECK(alice.state.dump().find(hooks.base()) == std::string::npos);  // the URL is a secret of the room
  alice.send({{"type", "settings"}, {"pace", "turn_based"}, {"bank_seconds", 86400}, {"increment_seconds", 3600}});
  while (alice.state["settings"]["pace"] != "turn_based") alice.read();
  push_service.answer_next({503});  // the first try fails: sent again with backoff
  alice.send({{"type", "start"}});
  while (alice.state["phase"] != "playing") alice.read();
  REQUIRE(alice.state["turn"]["seat"] == 0);
  std::mt19937 rng(3);
  const auto v = alice.version;
  alice.send(choose_play(alice.state, alice.version, rng));
  while (alice.version == v) alice.read();

  // Webhook: your_turn of Alice (the start), then of Bob.
  REQUIRE(hooks.wait_for(2, std::chrono::seconds(10)));
  const auto h = hooks.received();
  const json first = json::parse(h[0].body), second = json::parse(h[1].body);
  CHECK(h[0].target == "/hook");
  CHECK(first["event"] == "your_turn");
  CHECK(first["seat"] == 0);
  CHECK(first["name"] == "Alice");
  CHECK(second["seat"] == 1);
  CHECK(second["room"] == room);
  CHECK(second["url"] == "https://carc.test/r/" + room);
  CHECK(first["id"] != second["id"]);

  // Push: Bob's turn only, twice (503, then accepted), the same id each time.
  REQUIRE(push_service.wait_for(2, std::chrono::seconds(15)));
  const auto p = push_service.received();
  for (const auto& r : p) {
    CHECK(r.target == "/push/bob-1");
    CHECK(r.headers.at("Content-Encoding") == "aes128gcm");
    CHECK(std::stoi(r.headers.at("TTL")) > 0);
    const json claims = check_vapid(r.headers.at("Authorization"), server_key);
    CHECK(claims["aud"] == push_service.base());
    CHECK(claims["exp"].get<std::int64_t>() > std::time(nullptr));
    CHECK(claims["sub"].get<std::string>().starts_with("mailto:"));
  }
  const json payload = json::parse(sub.decrypt(p[0].body));
  const json again = json::parse(sub.decrypt(p[1].body));
  CHECK(p[0].body != p[1].body);  // encrypted afresh
  CHECK(payload == again);
  CHECK(payload["event"] == "your_turn");
  CHECK(payload["room"] == room);
  CHECK(payload["seat"] == 1);
  CHECK(payload["url"] == "https://carc.test/r/" + room);
  CHECK(!payload["title"].get<std::string>().empty());
  CHECK(payload["body"].get<std::string>().find(payload["url"].get<std::string>()) != std::string::npos);

  // A push service answering 410: the subscription is deleted, nothing more is sent to it.
  push_service.answer_next({410});
  while (bob.version < alice.version) bob.read();
  const auto v2 = bob.version;
  bob.send(choose_play(bob.state, bob.version, rng));  // Alice's turn: no push (she has none)
  while (bob.version == v2) bob.read();
  while (alice.version < bob.version) alice.read();
  const auto v3 = alice.version;
  alice.send(choose_play(alice.state, alice.version, rng));  // Bob's turn: pushed, 410
  while (alice.version == v3) alice.read();
  REQUIRE(push_service.wait_for(3, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  while (bob.version < alice.version) bob.read();
  const auto v4 = bob.version;
  bob.send(choose_play(bob.state, bob.version, rng));
  while (bob.version == v4) bob.read();
  while (alice.version < bob.version) alice.read();
  const auto v5 = alice.version;
  alice.send(choose_play(alice.state, alice.version, rng));  // Bob's turn again: no subscription
  while (alice.version == v5) alice.read();
  REQUIRE(hooks.wait_for(6, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(push_service.received().size() == 3);
  CHECK(server.log_text().find("subscription is gone") != std::string::npos);
}

TEST_CASE("notifications: without --allow-private-hooks, private addresses and plain http are refused") {
  TempDir dir;
  ServerProcess server(dir.path() / "data", dir.path() / "server.log");
  REQUIRE(server.wait_ready());
  const std::string room = http_request(server.port(), http::verb::post, "/api/rooms", "{}").json_body()["room"].get<std::string>();
  WsClient alice(server.port(), room);
  alice.send({{"type", "join"}, {"name", "Alice"}});
  alice.expect("welcome");
  Subscriber sub;
  for (const std::string url : {"https://127.0.0.1/hook", "https://10.1.2.3/x", "https://[::1]:8443/x", "https://169.254.169.254/latest",
                                "https://192.168.1.5/x", "https://localhost/x", "http://example.org/hook", "https://[fe80::1]/x"}) {
    alice.send({{"type", "settings"}, {"webhook", {{"url", url}, {"format", "ntfy"}}}});
    const json e = read_until_error(alice);
    CHECK(e["code"] == "bad_message");
    CAPTURE(url);
    alice.send({{"type", "push_subscribe"},
                {"subscription", {{"endpoint", url}, {"keys", {{"p256dh", b64url(sub.public_raw())}, {"auth", b64url(sub.auth)}}}}}});
    CHECK(read_until_error(alice)["code"] == "bad_message");
  }
  alice.send({{"type", "settings"}, {"webhook", {{"url", "https://hooks.example.org/carc"}, {"format", "discord"}}}});
  while (alice.state["settings"]["webhook"] != true) alice.read();
  alice.send({{"type", "settings"}, {"webhook", nullptr}});
  while (alice.state["settings"]["webhook"] != false) alice.read();
}
