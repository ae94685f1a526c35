#include "push/webpush.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

namespace carc::server::push {

namespace {

using Bytes = std::string;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const unsigned char* u8(const Bytes& b) { return reinterpret_cast<const unsigned char*>(b.data()); }

Bytes hmac_sha256(const Bytes& key, const Bytes& data) {
  unsigned char out[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), u8(data), data.size(), out, &len);
  return Bytes(reinterpret_cast<char*>(out), len);
}

// HKDF (RFC 5869) with SHA-256, for outputs of at most 32 bytes (one block).
Bytes hkdf(const Bytes& salt, const Bytes& ikm, const Bytes& info, std::size_t len) {
  const Bytes prk = hmac_sha256(salt, ikm);
  return hmac_sha256(prk, info + '\x01').substr(0, len);
}

std::optional<Bytes> public_point(EVP_PKEY* key) {
  unsigned char buf[65];
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, buf, sizeof buf, &len) != 1 || len != 65) {
    return std::nullopt;
  }
  return Bytes(reinterpret_cast<char*>(buf), len);
}

Pkey from_point(std::string_view raw) {
  if (raw.size() != 65 || raw[0] != 0x04) return nullptr;
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1) return nullptr;
  char group[] = "prime256v1";
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<char*>(raw.data()), raw.size()),
      OSSL_PARAM_construct_end()};
  EVP_PKEY* out = nullptr;
  if (EVP_PKEY_fromdata(ctx.get(), &out, EVP_PKEY_PUBLIC_KEY, params) != 1) return nullptr;
  Pkey key(out);
  // fromdata does not check the point; a public-key check does.
  PkeyCtx check(EVP_PKEY_CTX_new(key.get(), nullptr));
  if (!check || EVP_PKEY_public_check(check.get()) != 1) return nullptr;
  return key;
}

std::optional<Bytes> ecdh(EVP_PKEY* mine, EVP_PKEY* theirs) {
  PkeyCtx ctx(EVP_PKEY_CTX_new(mine, nullptr));
  std::size_t len = 0;
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), theirs) != 1 ||
      EVP_PKEY_derive(ctx.get(), nullptr, &len) != 1) {
    return std::nullopt;
  }
  Bytes out(len, '\0');
  if (EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1) return std::nullopt;
  out.resize(len);
  return out;
}

std::optional<Bytes> aes128gcm(const Bytes& key, const Bytes& nonce, const Bytes& plain) {
  std::unique_ptr<EVP_CIPHER_CTX, void (*)(EVP_CIPHER_CTX*)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  Bytes out(plain.size() + 16, '\0');
  int len = 0, fin = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, 12, nullptr) != 1 ||
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, u8(key), u8(nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), o, &len, u8(plain), static_cast<int>(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), o + len, &fin) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, o + len + fin) != 1) {
    return std::nullopt;
  }
  out.resize(static_cast<std::size_t>(len + fin) + 16);
  return out;
}

// ES256: the DER signature of SHA-256(data) as the raw r || s of JWS.
std::optional<Bytes> es256(EVP_PKEY* key, const Bytes& data) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> md(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::size_t len = 0;
  if (!md || EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
      EVP_DigestSign(md.get(), nullptr, &len, u8(data), data.size()) != 1) {
    return std::nullopt;
  }
  std::vector<unsigned char> der(len);
  if (EVP_DigestSign(md.get(), der.data(), &len, u8(data), data.size()) != 1) return std::nullopt;
  const unsigned char* p = der.data();
  std::unique_ptr<ECDSA_SIG, void (*)(ECDSA_SIG*)> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len)), ECDSA_SIG_free);
  if (!sig) return std::nullopt;
  unsigned char raw[64];
  if (BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), raw, 32) != 32 || BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), raw + 32, 32) != 32) {
    return std::nullopt;
  }
  return Bytes(reinterpret_cast<char*>(raw), 64);
}

}  // namespace

std::string b64url_encode(std::string_view in) {
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {kB64[v >> 18], kB64[(v >> 12) & 63], kB64[(v >> 6) & 63], kB64[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {kB64[v >> 18], kB64[(v >> 12) & 63]};
  } else if (i + 2 == in.size()) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {kB64[v >> 18], kB64[(v >> 12) & 63], kB64[(v >> 6) & 63]};
  }
  return out;
}

std::optional<std::string> b64url_decode(std::string_view in) {
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  if (in.size() % 4 == 1) return std::nullopt;
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (char c : in) {
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '-' || c == '+') v = 62;
    else if (c == '_' || c == '/') v = 63;
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

bool valid_p256_point(std::string_view raw) { return from_point(raw) != nullptr; }

Vapid::Vapid(EVP_PKEY* key) : key_(key) { public_b64_ = b64url_encode(public_point(key).value_or("")); }
Vapid::~Vapid() { EVP_PKEY_free(key_); }

std::unique_ptr<Vapid> Vapid::generate() { return std::unique_ptr<Vapid>(new Vapid(EVP_EC_gen("P-256"))); }

std::variant<std::unique_ptr<Vapid>, std::string> Vapid::load_or_create(const std::filesystem::path& file) {
  return load_or_create(file, 0);
}

std::variant<std::unique_ptr<Vapid>, std::string> Vapid::load_or_create(const std::filesystem::path& file, int attempt) {
  if (std::FILE* f = std::fopen(file.c_str(), "r")) {
    EVP_PKEY* key = PEM_read_PrivateKey(f, nullptr, nullptr, nullptr);
    std::fclose(f);
    if (key == nullptr || !public_point(key)) {
      EVP_PKEY_free(key);
      return "the VAPID key " + file.string() + " is not a P-256 private key in PEM; restore it or move it away";
    }
    return std::unique_ptr<Vapid>(new Vapid(key));
  }
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  EVP_PKEY* key = EVP_EC_gen("P-256");
  if (key == nullptr) return std::string("cannot make a VAPID key pair");
  std::unique_ptr<Vapid> v(new Vapid(key));
  // O_EXCL: a key made by another process meanwhile is never overwritten.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  std::FILE* f = fd >= 0 ? ::fdopen(fd, "w") : nullptr;
  if (f == nullptr) {
    if (fd >= 0) ::close(fd);
    // Another process (a node on the same machine) made it first: use theirs.
    if (errno == EEXIST && attempt == 0) return load_or_create(file, 1);
    return "cannot write the VAPID key " + file.string() + "; choose a writable --data-dir or give --vapid-key";
  }
  const bool ok = PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  const bool synced = std::fflush(f) == 0 && ::fsync(fd) == 0;
  std::fclose(f);
  if (!ok || !synced) return "cannot write the VAPID key " + file.string();
  return v;
}

std::string Vapid::authorization(std::string_view audience, std::int64_t expires_unix_s, std::string_view subject) const {
  const std::string header = b64url_encode(R"({"typ":"JWT","alg":"ES256"})");
  const std::string claims =
      b64url_encode(protocol::json_text(nlohmann::json{{"aud", audience}, {"exp", expires_unix_s}, {"sub", subject}}));
  const std::string signing = header + "." + claims;
  const auto sig = es256(key_, signing);
  return "vapid t=" + signing + "." + b64url_encode(sig.value_or("")) + ", k=" + public_b64_;
}

std::optional<std::string> encrypt(std::string_view ua_public_raw, std::string_view auth_secret, std::string_view plaintext) {
  const Pkey ua = from_point(ua_public_raw);
  if (!ua || auth_secret.size() != 16) return std::nullopt;
  const Pkey as(EVP_EC_gen("P-256"));
  if (!as) return std::nullopt;
  const auto as_public = public_point(as.get());
  const auto secret = ecdh(as.get(), ua.get());
  if (!as_public || !secret) return std::nullopt;
  const Bytes ua_public(ua_public_raw);
  // RFC 8291 section 3.4: the input keying material from the ECDH secret and the auth secret.
  const Bytes key_info = Bytes("WebPush: info") + '\0' + ua_public + *as_public;
  const Bytes ikm = hkdf(Bytes(auth_secret), *secret, key_info, 32);
  Bytes salt(16, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), 16) != 1) return std::nullopt;
  // RFC 8188: the content encryption key and nonce; one record, ended by the 0x02 delimiter.
  const Bytes cek = hkdf(salt, ikm, Bytes("Content-Encoding: aes128gcm") + '\0', 16);
  const Bytes nonce = hkdf(salt, ikm, Bytes("Content-Encoding: nonce") + '\0', 12);
  const auto sealed = aes128gcm(cek, nonce, Bytes(plaintext) + '\x02');
  if (!sealed) return std::nullopt;
  const std::uint32_t rs = 4096;
  Bytes out = salt;
  out += {static_cast<char>(rs >> 24), static_cast<char>((rs >> 16) & 0xff), static_cast<char>((rs >> 8) & 0xff),
          static_cast<char>(rs & 0xff), static_cast<char>(65)};
  out += *as_public;
  out += *sealed;
  return out;
}

}  // namespace carc::server::push
