#include "tournaments/setup.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/config.hpp"
#include "app/turn_based_services.hpp"
#include "base/random.hpp"
#include "carc/protocol/record.hpp"
#include "carc/server/sqlite_store.hpp"
#include "community/ratings.hpp"
#include "community/services.hpp"
#include "durable/persistence.hpp"
#include "keys/seat_seal.hpp"
#include "net/server.hpp"
#include "push/notifier.hpp"
#include "room/room.hpp"
#include "rooms/registry.hpp"
#include "tournaments/service.hpp"

namespace carc::server {

namespace {

using nlohmann::json;
namespace t9s = tournaments;

// A table's room (docs/tournaments.md#rounds): its players seated in order under their
// entrant names with the tokens the tournament derives for them, the tournament's clock, and
// the game started: a player who does not come is played for by the clock's away rules and
// loses the table.
void make_room(RoomRegistry& rooms, const t9s::Tournament& t, const t9s::Table& table, const std::vector<std::string>& names,
               const std::vector<std::string>& tokens, const std::vector<std::optional<PushTarget>>& push,
               std::function<void(std::string)> done) {
  const json ids = t.settings.expansions;
  auto set = protocol::parse_room_expansions(&ids);
  if (std::holds_alternative<std::string>(set)) return done({});
  SettingsChanged settings;
  settings.expansions = std::get<ExpansionSet>(set);
  if (t.settings.pace == "live") {
    settings.turn_seconds = t.settings.turn_seconds;
    settings.away_seconds = std::max(5, t.settings.turn_seconds);  // away (or never come) for one turn's clock
  } else {
    settings.pace = protocol::Pace::TurnBased;
    settings.bank_seconds = t.settings.bank_seconds;
    settings.increment_seconds = t.settings.increment_seconds;
    settings.away_seconds = protocol::kDefaultAwaySeconds;
  }
  std::vector<RoomAction> actions;
  bool host = false;  // the first human seat hosts
  for (std::size_t i = 0; i < table.players.size(); ++i) {
    const std::string level = t9s::bot_level(table.players[i]);
    if (!level.empty()) {
      actions.push_back(SeatTaken{static_cast<int>(i), names[i], "", protocol::bot_level_from_name(level), false, ""});
      continue;
    }
    actions.push_back(SeatTaken{static_cast<int>(i), names[i], sha256_hex(tokens[i]), std::nullopt, !host,
                                seat_seal_key(tokens[i])});
    host = true;
  }
  actions.push_back(settings);
  // An entrant's Web Push subscription is its seat's too: each of its turns is told, as in any
  // turn-based room (docs/tournaments.md#notifications).
  for (std::size_t i = 0; i < push.size() && i < table.players.size(); ++i) {
    if (push[i]) actions.push_back(PushChanged{static_cast<int>(i), push[i]->endpoint, push[i]->p256dh, push[i]->auth});
  }
  // A rated tournament's seats are bound to their players, so the ratings count the game; an
  // unrated one's room is never rated, whoever's player keys its seats are shown to.
  if (t.settings.rated) {
    for (std::size_t i = 0; i < table.players.size(); ++i) {
      if (t9s::bot_level(table.players[i]).empty()) actions.push_back(PlayerBound{static_cast<int>(i), table.players[i]});
    }
  } else {
    actions.push_back(NeverRated{});
  }
  actions.push_back(GameStarted{static_cast<int>(table.players.size()), game_seed(), unix_ms()});
  // Started like a restored room (its clock armed, a computer player to move asked), since
  // a table of computer players alone has nobody to wake it.
  rooms.create_rematch(std::move(actions), [&rooms, done](std::string id) {
    if (auto room = id.empty() ? nullptr : rooms.find_loaded(id)) {
      boost::asio::post(room->strand(), [room] { room->start(); });
    }
    done(id);
  });
}

// Each player's rating in `pace` from the ratings' players' pages, one after another.
void ratings_of(std::shared_ptr<community::Ratings> ratings, std::vector<std::string> players, std::string pace,
                std::function<void(std::map<std::string, double>)> done) {
  struct Ask {
    std::shared_ptr<community::Ratings> ratings;
    std::vector<std::string> players;
    std::string pace;
    std::function<void(std::map<std::string, double>)> done;
    std::map<std::string, double> got;
    std::size_t next = 0;
    static void go(std::shared_ptr<Ask> a) {
      if (a->next == a->players.size() || !a->ratings) return a->done(std::move(a->got));
      const std::string player = a->players[a->next++];
      a->ratings->player(player, [a, player](community::Ratings::Answer answer) {
        const json j = json::parse(answer.body, nullptr, false);
        if (answer.status == 200 && j.is_object() && j.contains("ratings") && j["ratings"].contains(a->pace)) {
          a->got[player] = j["ratings"][a->pace].value("rating", 0.0);
        }
        go(a);
      });
    }
  };
  auto ask = std::make_shared<Ask>(Ask{std::move(ratings), std::move(players), std::move(pace), std::move(done), {}, 0});
  Ask::go(ask);
}

}  // namespace

void start_tournaments(Server& server, const Config& config) {
  std::unique_ptr<TournamentStore> store;
  if (!config.db_url.empty()) {
    store = TournamentStore::postgres(config.db_url);
  } else if (config.data_dir.filename() == ":memory:") {
    store = TournamentStore::sqlite(":memory:");
  } else {
    store = TournamentStore::sqlite(config.data_dir / SqliteStore::kFileName);
  }
  RoomRegistry& rooms = server.rooms();
  TurnBasedServices& tb = server.turn_based();
  TournamentService::Hooks hooks;
  hooks.make_room = [&rooms](const t9s::Tournament& t, const t9s::Table& table, const std::vector<std::string>& names,
                             const std::vector<std::string>& tokens, const std::vector<std::optional<PushTarget>>& push,
                             std::function<void(std::string)> done) {
    make_room(rooms, t, table, names, tokens, push, std::move(done));
  };
  // The notifier and the keys (where deliveries are marked) are set up by Durability::restore.
  hooks.notify = [&tb](std::vector<Notice> notices) {
    if (!tb.notifier || !tb.keys) return false;
    tb.notifier->send(std::move(notices));
    return true;
  };
  hooks.notice_grace_ms = config.db_url.empty() ? 0 : 10000;
  hooks.ratings = [&tb](std::vector<std::string> players, std::string pace,
                        std::function<void(std::map<std::string, double>)> done) {
    ratings_of(tb.ratings, std::move(players), std::move(pace), std::move(done));
  };
  hooks.now = [] { return unix_ms(); };
  // The room settles on its own strand (its game state is never touched from here). A room
  // out of memory is loaded (claimed with several nodes, when no live node holds it); one a
  // live node holds is left to that node's tick, never asked for (docs/cluster.md).
  hooks.settle = [&rooms](std::string room, std::function<void(std::optional<TournamentService::Hooks::Standing>)> done) {
    rooms.find_unheld(room, [done](std::shared_ptr<Room> r) {
      if (!r) return done(std::nullopt);
      boost::asio::post(r->strand(), [r, done] {
        r->settle([done](std::optional<community::GameResult> g) {
          if (!g) return done(std::nullopt);
          TournamentService::Hooks::Standing s;
          for (const community::ResultSeat& seat : g->seats) {
            s.scores.push_back(seat.score);
            s.gone.push_back(seat.gone);
          }
          done(std::move(s));
        });
      });
    });
  };
  auto service = std::make_shared<TournamentService>(std::move(store), std::move(hooks));
  server.community().tournaments = service;
  // Every finished game's result reaches the tournaments; the ratings chain it after theirs.
  rooms.set_game_result([service](community::GameResult g, std::function<void(std::string)>) { service->record(std::move(g)); });
  // One node: load the rooms of tables without a result (a finished one hands it over). Not
  // with several nodes: loading claims a room, which would pull live games off their nodes;
  // there a finished room hands its result over when it is next loaded anywhere.
  if (config.db_url.empty()) {
    service->recover([&rooms](std::string room) { rooms.find(room, [](const std::shared_ptr<Room>&) {}); });
  }
  service->start_ticking(std::chrono::milliseconds(500));
}

}  // namespace carc::server
