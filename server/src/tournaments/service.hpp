// The server's tournaments (docs/tournaments.md): the requests of the API, the rounds that
// move on, and the results of finished tables. Everything touching storage runs on this
// class's worker thread, never on an I/O thread or a room's strand. Every decision is
// computed from the stored rows (model.hpp) and stored with one compare-and-set
// (TournamentStore::advance), so a round moves on once however many nodes decide it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/worker.hpp"
#include "carc/server/tournament_store.hpp"
#include "community/game_result.hpp"
#include "room/notice.hpp"
#include "tournaments/model.hpp"

namespace carc::server {

class TournamentService {
 public:
  struct Answer {
    int status = 200;
    std::string body;  // JSON
  };
  using Done = std::function<void(Answer)>;
  struct Hooks {
    // Makes a table's room with its players seated; `done` gets the room's id ("" on failure).
    // `tokens` are the seats' tokens, `push` the seats' Web Push subscriptions (seat order).
    std::function<void(const tournaments::Tournament&, const tournaments::Table&, const std::vector<std::string>& names,
                       const std::vector<std::string>& tokens, const std::vector<std::optional<PushTarget>>& push,
                       std::function<void(std::string)> done)>
        make_room;
    // Hands notices to the notifier; false when it cannot take them yet (asked again later).
    std::function<bool(std::vector<Notice>)> notify;
    // How long after a round's start a table's notices are derived again from the rows by
    // the ticker (docs/tournaments.md#notifications): 0 on one node, longer with several, so
    // that the node that made the rooms sends them first.
    std::int64_t notice_grace_ms = 0;
    // The players' ratings in the tournament's pace (absent: unrated, 0).
    std::function<void(std::vector<std::string> players, std::string pace,
                       std::function<void(std::map<std::string, double>)> done)>
        ratings;
    std::function<std::int64_t()> now;
    // A turn-based round's deadline (docs/tournaments.md#rounds): the table's room ends its
    // game as it stands (the seat on move loses on time; every client is told), then answers
    // each seat's score and whether it is gone, as its log says: a game over before keeps its
    // own result. None when the room cannot be reached here (another live node holds it, and
    // settles it at its own tick) or could not store the settlement.
    struct Standing {
      std::vector<int> scores;
      std::vector<bool> gone;
    };
    std::function<void(std::string room, std::function<void(std::optional<Standing>)> done)> settle;
  };

  TournamentService(std::unique_ptr<TournamentStore> store, Hooks hooks);

  // The organiser's settings are checked already. Every `done` runs on the worker.
  void create(std::string organiser, tournaments::Settings settings, std::string base, Done done);
  void get(std::string id, Done done);
  void list(Done done);
  void enter(std::string id, std::string player, std::string name, bool signed_in, Done done);
  void remove(std::string id, std::string asker, std::string player, Done done);
  // The organiser enters a computer player ("easy", "medium" or "hard") before the start.
  void add_bot(std::string id, std::string asker, std::string level, Done done);
  void drop(std::string id, std::string asker, std::string player, Done done);
  void start(std::string id, std::string asker, Done done);
  // The asker's seats at the tables still playing: room, seat and token.
  void seats(std::string id, std::string player, Done done);
  // Where an entrant's notices go (docs/tournaments.md#notifications); each given, checked
  // already: a value sets it, nullopt forgets it; absent keeps it.
  using HookChange = std::optional<std::optional<protocol::WebhookSetting>>;
  using PushChange = std::optional<std::optional<PushTarget>>;
  void set_targets(std::string id, std::string player, HookChange hook, PushChange push, Done done);
  void targets(std::string id, std::string player, Done done);
  // A finished game's result (every room's, as the ratings get them): stored once when its
  // room is a tournament table, and the tournament moves on.
  void record(community::GameResult g);
  // Starts the tournaments whose start time came and moves on the rounds that ended.
  void tick();
  // Ticks every `period` from a thread of its own until the service stops.
  void start_ticking(std::chrono::milliseconds period);
  // Asks every table still playing for its room once (`load` loads it; a finished room hands
  // its result over again): a result lost to a crash before it was stored comes back.
  void recover(std::function<void(std::string room)> load);

  // A seat's token: HMAC-SHA256 of the table and player under the tournament's secret.
  static std::string seat_token(const std::string& secret, const tournaments::Table& table, const std::string& player);

 private:
  struct Loaded {
    TournamentRow row;
    tournaments::Tournament t;
  };
  std::optional<Loaded> load(const std::string& id, Answer& error);
  void move_on(Loaded& t);
  enum class After { nothing, start_when_full, move_on };
  void answer(const std::string& id, After after, const Done& done);
  bool start_now(Loaded& t);
  static std::vector<TableRow> rows_for(const tournaments::Plan& plan);
  void fill_rooms(const Loaded& t, bool late_only);
  bool settle_late(const Loaded& t);
  struct Targets {
    std::optional<protocol::WebhookSetting> hook;
    std::optional<PushTarget> push;
  };
  std::map<std::string, Targets> targets_of(const std::string& id);
  // A table's "your table is ready" notices to its players' targets, once per process (sent_).
  void notify_table(const Loaded& t, const tournaments::Table& table, const std::map<std::string, Targets>& targets,
                    bool replayed);
  // Derived again from the rows: the current round's tables still playing (a restart, or
  // another node that died before it sent them).
  void notify_late(const Loaded& t);
  static constexpr std::int64_t kRoomGraceMs = 3000;

  std::unique_ptr<TournamentStore> store_;
  Hooks hooks_;
  std::set<std::string> sent_;  // worker only: the notices handed to the notifier by this process
  Worker worker_;
  std::mutex tick_mu_;
  std::condition_variable_any tick_cv_;
  std::jthread ticker_;  // last: stops first, before the worker it posts to
};

}  // namespace carc::server
