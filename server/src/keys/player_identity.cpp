// PlayerKeys' players (docs/community.md): which public id a key plays as, sign-in's
// binding of a key to a provider's account, and the rated-play gate with its invite codes.
// Everything runs on the keys' worker, like the rest of PlayerKeys.
#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "keys/player_id.hpp"
#include "keys/player_keys.hpp"
#include "room/room.hpp"

namespace carc::server {

namespace {

constexpr std::size_t kInviteBytes = 12;  // 16 base64url characters

template <class T>
const std::string* failed(const std::variant<T, std::string>& r) {
  return std::get_if<std::string>(&r);
}

}  // namespace

std::optional<std::string> PlayerKeys::player_of_hash(const std::string& hash) {
  if (!ids_) return player_id_of_hash(hash);
  const auto alias = ids_->alias_of(hash);
  if (const auto* why = failed(alias)) {
    spdlog::warn("sign-in: {}", *why);
    return std::nullopt;
  }
  const auto& of = std::get<std::optional<std::string>>(alias);
  return player_id_of_hash(of ? *of : hash);
}

void PlayerKeys::player_id(std::string key, std::function<void(Outcome, std::string)> done) {
  if (!worker_.post([this, key = std::move(key), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o, {});
        auto id = player_of_hash(hash);
        if (!id) return done(Outcome::Unavailable, {});
        done(Outcome::Ok, std::move(*id));
      })) {
    done(Outcome::Unavailable, {});
  }
}

void PlayerKeys::whoami(std::string key, std::function<void(Outcome, std::string, std::optional<BoundSubject>)> done) {
  if (!worker_.post([this, key = std::move(key), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o, {}, std::nullopt);
        auto id = player_of_hash(hash);
        if (!id) return done(Outcome::Unavailable, {}, std::nullopt);
        if (!ids_) return done(Outcome::Ok, std::move(*id), std::nullopt);
        auto who = ids_->subject_of(*id);
        if (const auto* why = failed(who)) {
          spdlog::warn("sign-in: {}", *why);
          return done(Outcome::Unavailable, {}, std::nullopt);
        }
        done(Outcome::Ok, std::move(*id), std::get<std::optional<BoundSubject>>(who));
      })) {
    done(Outcome::Unavailable, {}, std::nullopt);
  }
}

void PlayerKeys::key_hash(std::string key, std::function<void(Outcome, std::string)> done) {
  if (!worker_.post([this, key = std::move(key), done] {
        std::string hash;
        const Outcome o = known(key, &hash);
        done(o, o == Outcome::Ok ? hash : std::string());
      })) {
    done(Outcome::Unavailable, {});
  }
}

void PlayerKeys::bind(std::string key_hash, BoundSubject who, std::function<void(Outcome, std::string)> done) {
  if (!ids_) return done(Outcome::Unavailable, {});
  if (!worker_.post([this, key_hash = std::move(key_hash), who = std::move(who), done] {
        // The key may have been revoked while its holder was at the provider.
        const auto found = store_->find_key(key_hash);
        if (const auto* why = failed(found)) {
          spdlog::warn("sign-in: {}", *why);
          return done(Outcome::Unavailable, {});
        }
        if (!std::get<std::optional<std::string>>(found)) return done(Outcome::UnknownKey, {});
        // The key's player now: its own, or the one it is an alias of already.
        const auto alias = ids_->alias_of(key_hash);
        if (const auto* why = failed(alias)) {
          spdlog::warn("sign-in: {}", *why);
          return done(Outcome::Unavailable, {});
        }
        const auto& of = std::get<std::optional<std::string>>(alias);
        const std::string own_hash = of ? *of : key_hash;
        const auto bound = ids_->bind(who, key_hash, BoundPlayer{own_hash, player_id_of_hash(own_hash)}, unix_ms());
        if (const auto* why = failed(bound)) {
          spdlog::warn("sign-in: {}", *why);
          return done(Outcome::Unavailable, {});
        }
        done(Outcome::Ok, std::get<BoundPlayer>(bound).player_id);
      })) {
    done(Outcome::Unavailable, {});
  }
}

bool PlayerKeys::allowed(const std::string& player_id, RatedPlay mode) {
  if (mode == RatedPlay::Open) return true;
  if (!ids_) return false;
  const auto who = ids_->subject_of(player_id);
  if (const auto* why = failed(who)) {
    spdlog::warn("rated play: {}", *why);
    return false;  // unknown: not counted, rather than counted wrongly
  }
  if (std::get<std::optional<BoundSubject>>(who)) return true;
  if (mode != RatedPlay::Invite) return false;
  const auto invited = ids_->invited(player_id);
  return std::holds_alternative<bool>(invited) && std::get<bool>(invited);
}

void PlayerKeys::rated_allowed(std::string player_id, RatedPlay mode, std::function<void(bool)> done) {
  if (mode == RatedPlay::Open) return done(true);
  if (!ids_) return done(false);
  if (!worker_.post([this, player_id = std::move(player_id), mode, done] { done(allowed(player_id, mode)); })) done(false);
}

void PlayerKeys::seat_players(std::string room, RatedPlay mode,
                              std::function<void(std::optional<std::map<int, std::string>>)> done) {
  if (!worker_.post([this, room = std::move(room), mode, done] {
        const auto rows = store_->room_seats(room);
        if (const auto* why = failed(rows)) {
          spdlog::warn("player keys: {}", *why);
          return done(std::nullopt);
        }
        std::map<int, std::string> out;
        for (const RoomKeySeat& s : std::get<std::vector<RoomKeySeat>>(rows)) {  // oldest first: the first binding wins
          if (out.contains(s.seat)) continue;
          auto id = player_of_hash(s.key_hash);
          if (!id) return done(std::nullopt);  // sign-in's rows cannot be read now
          if (allowed(*id, mode)) out.emplace(s.seat, std::move(*id));
        }
        done(std::move(out));
      })) {
    done(std::nullopt);
  }
}

void PlayerKeys::make_invite(std::function<void(Outcome, std::string)> done) {
  if (!ids_) return done(Outcome::Unavailable, {});
  if (!worker_.post([this, done] {
        std::string code = random_id(kInviteBytes);
        if (const Status s = ids_->add_invite(sha256_hex(code), unix_ms()); !s) {
          spdlog::warn("invites: {}", s.error());
          return done(Outcome::Unavailable, {});
        }
        done(Outcome::Ok, std::move(code));
      })) {
    done(Outcome::Unavailable, {});
  }
}

void PlayerKeys::redeem_invite(std::string key, std::string code, std::function<void(Outcome, bool)> done) {
  if (!ids_ || code.size() > 64) return done(ids_ ? Outcome::Ok : Outcome::Unavailable, false);
  if (!worker_.post([this, key = std::move(key), code = std::move(code), done] {
        std::string hash;
        if (const Outcome o = known(key, &hash); o != Outcome::Ok) return done(o, false);
        const auto id = player_of_hash(hash);
        if (!id) return done(Outcome::Unavailable, false);
        const auto r = ids_->redeem_invite(sha256_hex(code), *id, unix_ms());
        if (const auto* why = failed(r)) {
          spdlog::warn("invites: {}", *why);
          return done(Outcome::Unavailable, false);
        }
        done(Outcome::Ok, std::get<bool>(r));
      })) {
    done(Outcome::Unavailable, false);
  }
}

}  // namespace carc::server
