// Web Push crypto with OpenSSL (docs/turn-based.md): RFC 8291 message encryption (aes128gcm, RFC
// 8188, one record) to a subscription's keys, and RFC 8292 VAPID: the server's P-256 key
// pair, made once and kept in the data folder (or given by --vapid-key), and the signed
// token of each request.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

struct evp_pkey_st;

namespace carc::server::push {

std::string b64url_encode(std::string_view bytes);
std::optional<std::string> b64url_decode(std::string_view text);  // padding optional

// True for an uncompressed P-256 point (65 bytes, 0x04...) that lies on the curve.
bool valid_p256_point(std::string_view raw);

class Vapid {
 public:
  // Reads the PEM private key at `file`, or makes one and writes it there (mode 0600) when
  // there is none. Never replaces an existing file; the error says why it cannot be used.
  static std::variant<std::unique_ptr<Vapid>, std::string> load_or_create(const std::filesystem::path& file);
  static std::unique_ptr<Vapid> generate();  // kept in memory only (--data-dir :memory:)
  static std::variant<std::unique_ptr<Vapid>, std::string> load_or_create(const std::filesystem::path& file, int attempt);
  ~Vapid();
  Vapid(const Vapid&) = delete;
  Vapid& operator=(const Vapid&) = delete;

  // The uncompressed public key, base64url (GET /api/push/key, and "k=" of the header).
  const std::string& public_key() const { return public_b64_; }
  // The Authorization header for a push to `audience` (the endpoint's origin):
  // "vapid t=<ES256 JWT>, k=<public key>".
  std::string authorization(std::string_view audience, std::int64_t expires_unix_s, std::string_view subject) const;

 private:
  explicit Vapid(evp_pkey_st* key);
  evp_pkey_st* key_;
  std::string public_b64_;
};

// The RFC 8291 body of `plaintext` for a subscription (raw keys: the 65-byte p256dh point and
// the 16-byte auth secret); none when the keys are unusable.
std::optional<std::string> encrypt(std::string_view ua_public, std::string_view auth_secret, std::string_view plaintext);

}  // namespace carc::server::push
