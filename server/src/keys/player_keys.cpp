#include "keys/player_keys.hpp"

#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "keys/player_id.hpp"
#include "room/room.hpp"

namespace carc::server {

namespace {

constexpr std::size_t kKeyBytes = 32;
// A seat token's characters at most: a room's are 32 (kTokenBytes as base64url), a
// tournament table's 43 (an HMAC-SHA256 as base64url, docs/tournaments.md#rounds).
constexpr std::size_t kMaxToken = 64;

// The seal's pad: SHA-256(key, room), and for a token longer than 32 characters
// SHA-256(key, room, ":1") after it (a room's tokens are sealed as they always were).
std::string pad(std::string_view key, std::string_view room) {
  std::string material = "carc-seat-seal:";
  material += key;
  material += ':';
  material += room;
  std::string out;
  for (const std::string& part : {material, material + ":1"}) {
    const std::string hex = sha256_hex(part);
    for (std::size_t i = 0; i < 32; ++i) out += static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return out;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

PlayerKeys::PlayerKeys(std::unique_ptr<KeyStore> store, std::unique_ptr<IdentityStore> ids)
    : store_(std::move(store)), ids_(std::move(ids)), worker_("carc-keys", 4096) {}

bool PlayerKeys::well_formed(std::string_view key) {
  if (key.size() != (kKeyBytes * 4 + 2) / 3) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string PlayerKeys::seal(std::string_view key, std::string_view room, std::string_view token) {
  const std::string p = pad(key, room);
  std::string out;
  for (std::size_t i = 0; i < token.size() && i < p.size(); ++i) {
    const auto b = static_cast<unsigned char>(token[i] ^ p[i]);
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::optional<std::string> PlayerKeys::unseal(std::string_view key, std::string_view room, std::string_view sealed) {
  if (sealed.size() % 2 != 0 || sealed.size() / 2 > kMaxToken) return std::nullopt;
  const std::string p = pad(key, room);
  std::string out;
  for (std::size_t i = 0; i < sealed.size() / 2; ++i) {
    const auto b = static_cast<char>(std::stoi(std::string(sealed.substr(2 * i, 2)), nullptr, 16));
    out += static_cast<char>(b ^ p[i]);
  }
  return out;
}

PlayerKeys::Outcome PlayerKeys::known(const std::string& key, std::string* hash) {
  if (!well_formed(key)) return Outcome::UnknownKey;
  *hash = sha256_hex(key);
  const auto found = store_->find_key(*hash);
  if (const auto* why = std::get_if<std::string>(&found)) {
    spdlog::warn("player keys: {}", *why);
    return Outcome::Unavailable;
  }
  const auto& stored = std::get<std::optional<std::string>>(found);
  return stored && constant_time_equal(*stored, *hash) ? Outcome::Ok : Outcome::UnknownKey;
}

void PlayerKeys::create(std::function<void(Outcome, std::string)> done) {
  if (!worker_.post([this, done] {
        std::string key = random_id(kKeyBytes);
        if (const Status s = store_->add_key(sha256_hex(key), unix_ms()); !s) {
          spdlog::warn("player keys: {}", s.error());
          return done(Outcome::Unavailable, {});
        }
        done(Outcome::Ok, std::move(key));
      })) {
    done(Outcome::Unavailable, {});
  }
}

void PlayerKeys::attach(std::string key, Seat seat, std::function<void(Outcome)> done) {
  if (seat.token.size() > kMaxToken) return done(Outcome::Unavailable);
  if (!worker_.post([this, key = std::move(key), seat = std::move(seat), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o);
        const Status s = store_->add_seat(hash, KeySeat{seat.room, seat.seat, seal(key, seat.room, seat.token), unix_ms()});
        if (!s) spdlog::warn("player keys: {}", s.error());
        done(s ? Outcome::Ok : Outcome::Unavailable);
      })) {
    done(Outcome::Unavailable);
  }
}

void PlayerKeys::list(std::string key, std::function<void(Outcome, std::vector<Seat>)> done) {
  if (!worker_.post([this, key = std::move(key), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o, {});
        auto seats = store_->seats(hash);
        if (auto* why = std::get_if<std::string>(&seats)) {
          spdlog::warn("player keys: {}", *why);
          return done(Outcome::Unavailable, {});
        }
        std::vector<Seat> out;
        for (const KeySeat& s : std::get<std::vector<KeySeat>>(seats)) {
          if (auto token = unseal(key, s.room, s.sealed)) out.push_back(Seat{s.room, s.seat, std::move(*token)});
        }
        done(Outcome::Ok, std::move(out));
      })) {
    done(Outcome::Unavailable, {});
  }
}

void PlayerKeys::was_sent(std::string id, std::function<void(bool)> done) {
  if (!worker_.post([this, id = std::move(id), done] {
        const auto r = store_->was_sent(id);
        done(std::holds_alternative<bool>(r) && std::get<bool>(r));
      })) {
    done(false);
  }
}

void PlayerKeys::mark_sent(std::string id) {
  (void)worker_.post([this, id = std::move(id)] {
    if (const Status s = store_->mark_sent(id, unix_ms()); !s) spdlog::warn("notifications: {}", s.error());
  });
}

void PlayerKeys::revoke(std::string key, std::function<void(Outcome)> done) {
  if (!worker_.post([this, key = std::move(key), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o);
        const auto r = store_->revoke(hash);
        if (const auto* why = std::get_if<std::string>(&r)) {
          spdlog::warn("player keys: {}", *why);
          return done(Outcome::Unavailable);
        }
        done(std::get<bool>(r) ? Outcome::Ok : Outcome::UnknownKey);
      })) {
    done(Outcome::Unavailable);
  }
}

}  // namespace carc::server
