// Tournaments' requests and rounds (docs/tournaments.md), on the service's worker.
#include "tournaments/service.hpp"
#include "tournaments/refusal.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include <spdlog/spdlog.h>

#include "base/random.hpp"

namespace carc::server {

namespace t9s = tournaments;
using nlohmann::json;

namespace {


TournamentService::Answer unavailable() {
  return t9s::refusal(503, "unavailable", "tournaments cannot be used right now; try again");
}

// Stored settings were checked when the tournament was made: read them back as they were.
std::optional<t9s::Settings> stored_settings(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  std::int64_t now = 0;
  if (auto it = j.find("start"); it != j.end() && it->is_number_integer()) now = it->get<std::int64_t>() - 1;
  auto parsed = t9s::parse_settings(j, now, [](std::string_view) { return true; });
  if (auto* s = std::get_if<t9s::Settings>(&parsed)) return *s;
  return std::nullopt;
}

std::string base64url(const unsigned char* data, std::size_t n) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bits = (bits << 8) | data[i];
    count += 8;
    while (count >= 6) {
      count -= 6;
      out.push_back(abc[(bits >> count) & 63]);
    }
  }
  if (count > 0) out.push_back(abc[(bits << (6 - count)) & 63]);
  return out;
}

}  // namespace

TournamentService::TournamentService(std::unique_ptr<TournamentStore> store, Hooks hooks)
    : store_(std::move(store)), hooks_(std::move(hooks)), worker_("carc-tournaments", 1024) {}

std::string TournamentService::seat_token(const std::string& secret, const t9s::Table& table, const std::string& player) {
  const std::string what = std::to_string(table.round) + ":" + std::to_string(table.table) + ":" +
                           std::to_string(table.game) + ":" + player;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), reinterpret_cast<const unsigned char*>(what.data()),
       what.size(), mac, &length);
  return base64url(mac, length);
}

std::optional<TournamentService::Loaded> TournamentService::load(const std::string& id, Answer& failure) {
  auto row = store_->tournament(id);
  if (auto* why = std::get_if<std::string>(&row)) {
    spdlog::warn("tournaments: {}", *why);
    failure = unavailable();
    return std::nullopt;
  }
  auto found = std::get<std::optional<TournamentRow>>(std::move(row));
  if (!found) {
    failure = t9s::refusal(404, "not_found", "no such tournament");
    return std::nullopt;
  }
  auto entrants = store_->entrants(id);
  auto tables = store_->tables(id);
  auto settings = stored_settings(found->settings);
  auto seeds = t9s::parse_seeds(found->seeds);
  if (std::holds_alternative<std::string>(entrants) || std::holds_alternative<std::string>(tables) || !settings || !seeds) {
    spdlog::warn("tournaments: {} cannot be read", id);
    failure = unavailable();
    return std::nullopt;
  }
  Loaded l{*found, {}};
  t9s::Tournament& t = l.t;
  t.id = found->id;
  t.settings = *settings;
  t.organiser = found->organiser;
  t.created_ms = found->created_ms;
  t.state = found->state;
  t.round = found->round;
  t.round_started_ms = found->round_started_ms;
  t.seeds = *seeds;
  for (const EntrantRow& e : std::get<std::vector<EntrantRow>>(entrants)) {
    t.entrants.push_back({e.player, e.name, e.dropped_after});
  }
  for (const TableRow& r : std::get<std::vector<TableRow>>(tables)) {
    t9s::Table table{r.round, r.table, r.game, r.room, t9s::parse_players(r.players).value_or(std::vector<std::string>{}),
                     t9s::parse_result(r.round, r.table, r.game, r.result)};
    t.tables.push_back(std::move(table));
  }
  return l;
}

void TournamentService::create(std::string organiser, t9s::Settings settings, std::string base, Done done) {
  if (!worker_.post([this, organiser = std::move(organiser), settings = std::move(settings), base, done] {
        TournamentRow row;
        row.id = random_id(9);
        row.settings = protocol::json_text(t9s::settings_json(settings));
        row.organiser = organiser;
        row.created_ms = hooks_.now();
        row.secret = random_id(32);
        if (Status s = store_->create(row); !s) {
          spdlog::warn("tournaments: {}", s.error());
          return done(unavailable());
        }
        Answer failure;
        auto l = load(row.id, failure);
        if (!l) return done(failure);
        json body = t9s::view(l->t);
        body["url"] = base + "/t/" + row.id;
        done({201, protocol::json_text(body)});
      })) {
    done(unavailable());
  }
}

// After a change, on the worker: the tournament read again, started if its last seat was just
// taken ("when full") or moved on, and answered as GET answers it.
void TournamentService::answer(const std::string& id, After after, const Done& done) {
  Answer failure;
  auto l = load(id, failure);
  if (!l) return done(failure);
  const bool full = !l->t.settings.start_ms && static_cast<int>(t9s::registered(l->t).size()) >= l->t.settings.seats;
  if ((after == After::start_when_full && full) || after == After::move_on) {
    if (after == After::move_on) move_on(*l);
    else start_now(*l);
    l = load(id, failure);
    if (!l) return done(failure);
  }
  done({200, protocol::json_text(t9s::view(l->t))});
}

void TournamentService::get(std::string id, Done done) {
  if (!worker_.post([this, id = std::move(id), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        done({200, protocol::json_text(t9s::view(l->t))});
      })) {
    done(unavailable());
  }
}

void TournamentService::list(Done done) {
  if (!worker_.post([this, done] {
        json out = json::array();
        for (const char* state : {"registering", "running", "finished"}) {
          auto rows = store_->tournaments(state, 50);
          if (std::holds_alternative<std::string>(rows)) return done(unavailable());
          for (const TournamentRow& r : std::get<std::vector<TournamentRow>>(rows)) {
            Answer failure;
            auto l = load(r.id, failure);
            if (l) out.push_back(t9s::summary(l->t, t9s::registered(l->t).size()));
          }
        }
        done({200, protocol::json_text(json{{"tournaments", out}})});
      })) {
    done(unavailable());
  }
}

void TournamentService::enter(std::string id, std::string player, std::string name, bool signed_in, Done done) {
  if (!worker_.post([this, id = std::move(id), player = std::move(player), name = std::move(name), signed_in, done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        if (l->t.settings.signed_in_only && !signed_in) {
          return done(t9s::refusal(403, "signin_required", "this tournament takes only signed-in players"));
        }
        auto entered = store_->enter(id, EntrantRow{player, name, hooks_.now(), 0}, l->t.settings.seats);
        if (std::holds_alternative<std::string>(entered)) return done(unavailable());
        switch (std::get<Entry>(entered)) {
          case Entry::registered: break;
          case Entry::already: return done(t9s::refusal(409, "already_registered", "you are registered already"));
          case Entry::removed: return done(t9s::refusal(403, "removed", "the organiser removed you from this tournament"));
          case Entry::full: return done(t9s::refusal(409, "full", "every seat is taken"));
          case Entry::closed: return done(t9s::refusal(409, "started", "the tournament has started: registration is closed"));
          case Entry::unknown: return done(t9s::refusal(404, "not_found", "no such tournament"));
        }
        answer(id, After::start_when_full, done);
      })) {
    done(unavailable());
  }
}

void TournamentService::remove(std::string id, std::string asker, std::string player, Done done) {
  if (!worker_.post([this, id = std::move(id), asker = std::move(asker), player = std::move(player), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        if (asker != l->t.organiser) return done(t9s::refusal(403, "not_organiser", "only the organiser removes a player"));
        if (l->t.state != "registering") {
          return done(t9s::refusal(409, "started", "the tournament has started: drop the player between rounds instead"));
        }
        auto removed = store_->withdraw(id, player);
        if (std::holds_alternative<std::string>(removed)) return done(unavailable());
        if (!std::get<bool>(removed)) return done(t9s::refusal(404, "not_registered", "that player is not registered"));
        answer(id, After::nothing, done);
      })) {
    done(unavailable());
  }
}

void TournamentService::add_bot(std::string id, std::string asker, std::string level, Done done) {
  if (!worker_.post([this, id = std::move(id), asker = std::move(asker), level = std::move(level), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        if (asker != l->t.organiser) return done(t9s::refusal(403, "not_organiser", "only the organiser enters computer players"));
        int n = 1;
        for (const t9s::Entrant& e : l->t.entrants) n += t9s::bot_level(e.player).empty() ? 0 : 1;
        const std::string name = "Computer " + std::to_string(n);
        auto entered = store_->enter(id, EntrantRow{t9s::bot_id(level, n), name, hooks_.now(), 0}, l->t.settings.seats);
        if (std::holds_alternative<std::string>(entered)) return done(unavailable());
        switch (std::get<Entry>(entered)) {
          case Entry::registered: break;
          case Entry::full: return done(t9s::refusal(409, "full", "every seat is taken"));
          case Entry::closed: return done(t9s::refusal(409, "started", "the tournament has started: registration is closed"));
          case Entry::unknown: return done(t9s::refusal(404, "not_found", "no such tournament"));
          default: return done(unavailable());
        }
        answer(id, After::start_when_full, done);
      })) {
    done(unavailable());
  }
}

void TournamentService::drop(std::string id, std::string asker, std::string player, Done done) {
  if (!worker_.post([this, id = std::move(id), asker = std::move(asker), player = std::move(player), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        if (asker != l->t.organiser && asker != player) {
          return done(t9s::refusal(403, "not_organiser", "only the organiser, or the player, drops a player"));
        }
        if (l->t.state != "running") return done(t9s::refusal(409, "not_running", "only a running tournament drops players"));
        auto dropped = store_->drop(id, player, l->t.round);
        if (std::holds_alternative<std::string>(dropped)) return done(unavailable());
        if (!std::get<bool>(dropped)) {
          return done(t9s::refusal(409, "not_entrant", "that player is not in the tournament (or was dropped already)"));
        }
        answer(id, After::move_on, done);  // a knockout match against the dropped player is forfeited
      })) {
    done(unavailable());
  }
}

void TournamentService::start(std::string id, std::string asker, Done done) {
  if (!worker_.post([this, id = std::move(id), asker = std::move(asker), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        if (asker != l->t.organiser) return done(t9s::refusal(403, "not_organiser", "only the organiser starts the tournament"));
        if (l->t.state != "registering") return done(t9s::refusal(409, "started", "the tournament has started already"));
        const int players = static_cast<int>(t9s::registered(l->t).size());
        if (players < 2) return done(t9s::refusal(409, "too_few_players", "a tournament needs 2 players at least"));
        if (l->t.settings.format == t9s::Format::swiss && players <= l->t.settings.rounds) {
          return done(t9s::refusal(409, "too_few_players", std::to_string(l->t.settings.rounds) + " Swiss rounds need " +
                                                        std::to_string(l->t.settings.rounds + 1) + " players at least"));
        }
        if (!start_now(*l)) return done(unavailable());
        answer(id, After::nothing, done);
      })) {
    done(unavailable());
  }
}

void TournamentService::seats(std::string id, std::string player, Done done) {
  if (!worker_.post([this, id = std::move(id), player = std::move(player), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        json out = json::array();
        for (const t9s::Table& table : l->t.tables) {
          if (table.result || table.room.empty()) continue;
          for (std::size_t seat = 0; seat < table.players.size(); ++seat) {
            if (table.players[seat] != player) continue;
            out.push_back({{"round", table.round}, {"table", table.table}, {"game", table.game}, {"room", table.room},
                           {"seat", seat}, {"token", seat_token(l->row.secret, table, player)}});
          }
        }
        done({200, protocol::json_text(json{{"tournament", id}, {"player", player}, {"seats", out}})});
      })) {
    done(unavailable());
  }
}

}  // namespace carc::server
