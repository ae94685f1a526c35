#include "keys/seat_seal.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <memory>

#include "base/random.hpp"

namespace carc::server {

namespace {

using Bytes = std::string;
constexpr std::size_t kKey = 32, kNonce = 12, kTag = 16;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

const unsigned char* u8(std::string_view b) { return reinterpret_cast<const unsigned char*>(b.data()); }

Bytes hmac_sha256(std::string_view key, std::string_view data) {
  unsigned char out[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), u8(data), data.size(), out, &len);
  return Bytes(reinterpret_cast<char*>(out), len);
}

// HKDF (RFC 5869) with SHA-256, at most 32 bytes (one block).
Bytes hkdf(std::string_view salt, std::string_view ikm, std::string_view info, std::size_t len) {
  const Bytes prk = hmac_sha256(salt, ikm);
  return hmac_sha256(prk, Bytes(info) + '\x01').substr(0, len);
}

std::string hex(std::string_view bytes) {
  static constexpr char k[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += k[c >> 4];
    out += k[c & 15];
  }
  return out;
}

std::optional<Bytes> unhex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  Bytes out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = digit(text[i]), lo = digit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

Pkey private_key(std::string_view raw) {
  return Pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, u8(raw), raw.size()));
}

Bytes public_of(EVP_PKEY* key) {
  unsigned char out[kKey];
  std::size_t len = sizeof out;
  if (key == nullptr || EVP_PKEY_get_raw_public_key(key, out, &len) != 1 || len != kKey) return {};
  return Bytes(reinterpret_cast<char*>(out), len);
}

// The seat's private key: 32 bytes from its token (any 32 bytes are an X25519 key).
Pkey seat_private(std::string_view token) { return private_key(hkdf("carcassonne seat seal", token, "x25519", kKey)); }

std::optional<Bytes> shared_secret(EVP_PKEY* mine, std::string_view their_public) {
  Pkey theirs(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, u8(their_public), their_public.size()));
  if (mine == nullptr || !theirs) return std::nullopt;
  std::unique_ptr<EVP_PKEY_CTX, void (*)(EVP_PKEY_CTX*)> ctx(EVP_PKEY_CTX_new(mine, nullptr), EVP_PKEY_CTX_free);
  std::size_t len = kKey;
  Bytes out(kKey, '\0');
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), theirs.get()) != 1 ||
      EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1 || len != kKey) {
    return std::nullopt;
  }
  return out;
}

// The AES key and nonce of one seal: from the shared secret, both public keys and the context.
std::pair<Bytes, Bytes> seal_keys(std::string_view shared, std::string_view ephemeral, std::string_view seat,
                                  std::string_view context) {
  const Bytes salt = Bytes(ephemeral) + Bytes(seat);
  const Bytes info = "carcassonne seal\n" + Bytes(context);
  return {hkdf(salt, shared, info + "\nkey", kKey), hkdf(salt, shared, info + "\nnonce", kNonce)};
}

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, void (*)(EVP_CIPHER_CTX*)>;

}  // namespace

std::string seat_seal_key(std::string_view token) { return hex(public_of(seat_private(token).get())); }

std::string seal_to_seat(std::string_view seal_key, std::string_view context, std::string_view secret) {
  const auto seat = unhex(seal_key);
  if (!seat || seat->size() != kKey) return {};
  Bytes raw(kKey, '\0');
  secure_random(raw.data(), raw.size());
  const Pkey ephemeral = private_key(raw);
  const Bytes ephemeral_public = public_of(ephemeral.get());
  const auto shared = shared_secret(ephemeral.get(), *seat);
  if (ephemeral_public.empty() || !shared) return {};
  const auto [key, nonce] = seal_keys(*shared, ephemeral_public, *seat, context);
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  Bytes out(secret.size() + kTag, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  int len = 0, aad = 0, fin = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, u8(key), u8(nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &aad, u8(context), static_cast<int>(context.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), o, &len, u8(secret), static_cast<int>(secret.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), o + len, &fin) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTag), o + secret.size()) != 1) {
    return {};
  }
  return hex(ephemeral_public + out);
}

std::optional<std::string> open_as_seat(std::string_view token, std::string_view context, std::string_view sealed) {
  const auto raw = unhex(sealed);
  if (!raw || raw->size() < kKey + kTag) return std::nullopt;
  const std::string_view all(*raw);
  const std::string_view ephemeral = all.substr(0, kKey);
  const std::string_view body = all.substr(kKey, all.size() - kKey - kTag);
  const std::string_view tag = all.substr(all.size() - kTag);
  const Pkey mine = seat_private(token);
  const Bytes seat = public_of(mine.get());
  const auto shared = shared_secret(mine.get(), ephemeral);
  if (seat.empty() || !shared) return std::nullopt;
  const auto [key, nonce] = seal_keys(*shared, ephemeral, seat, context);
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  Bytes out(body.size(), '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  int len = 0, aad = 0, fin = 0;
  Bytes tag_copy(tag);
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, u8(key), u8(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &aad, u8(context), static_cast<int>(context.size())) != 1 ||
      EVP_DecryptUpdate(ctx.get(), o, &len, u8(body), static_cast<int>(body.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTag), tag_copy.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), o + len, &fin) != 1) {
    return std::nullopt;  // another token, another context, or altered
  }
  return out;
}

}  // namespace carc::server
