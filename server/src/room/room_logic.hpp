// What a room does, without sockets, strands or threads: a state machine fed commands
// (a client's message, a connection coming or going, storage answering, the clock, a
// computer player's move) with the time injected, answering with effects for the outside
// world to carry out (store this, wake me at T, ask a computer player, create a rematch).
// Frames go straight to the members' Client interface (each Client queues them itself).
//
// Every accepted change is stored before it is applied and broadcast (Effects::store, then
// stored(ok)); commands that arrive meanwhile wait, in order. One change = one patch,
// serialized once by the StatePatcher and shared by every client of the room.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/event_history.hpp"
#include "carc/protocol/messages.hpp"
#include "carc/protocol/room_state.hpp"
#include "community/game_result.hpp"
#include "room/client.hpp"
#include "room/lazy_deque.hpp"
#include "room/notice.hpp"
#include "room/open_listing.hpp"
#include "durable/persistence.hpp"
#include "room/room_changes.hpp"
#include "room/room_game_store.hpp"
#include "room/room_record.hpp"
#include "room/room_seats.hpp"

namespace carc::server {

class Metrics;

// How far a restored room's version jumps past the stored one (see RoomLogic::restore).
inline constexpr std::int64_t kRestoreVersionGap = 100;

// A computer player's turn to compute (on the bot pool, never on a strand).
struct BotRequest {
  std::uint64_t ticket = 0;  // answer with bot_moved(ticket, ...); stale tickets are dropped
  Seat seat = 0;
  protocol::BotLevel level = protocol::BotLevel::Medium;
  bool automatic = false;  // for an absent human
  std::uint64_t seed = 0;
  std::shared_ptr<const Game> game;  // a copy; the pool gives the bot only its player's view
};

// A finished room's rematch to create: its seats in the new order and its settings.
struct RematchRequest {
  std::vector<RoomAction> actions;  // SeatTaken..., SettingsChanged
};

struct Effects {
  struct Store {
    RoomAction action;
    std::int64_t version = 0;
    std::int64_t game_version = 0;
  };
  std::optional<Store> store;                // store, then answer stored(ok)
  std::optional<std::int64_t> version_bump;  // the newest version, stored without waiting
  bool finished = false;                     // the game just ended
  std::optional<BotRequest> think;
  std::optional<BotRequest> hint;             // a hint to compute on the bot pool: hint_ready()
  std::optional<RematchRequest> rematch;     // create it, then answer rematch_created()
  std::vector<Notice> notices;               // to send once this change is stored (docs/turn-based.md)
  void clear() { *this = Effects{}; }
};

// What one room may store beyond its game (docs/configuration.md, "What a room stores").
struct StoreBounds {
  std::size_t chat_lines = 2000;
  std::size_t chat_bytes = 256 << 10;
  std::size_t notify_changes = 200;  // webhook settings and push subscriptions, made or removed
};

class RoomLogic {
 public:
  void set_bounds(const StoreBounds& b) { bounds_ = b; }
  RoomLogic(std::string id, Metrics& metrics);
  // Rebuilds a stored room by replaying its actions (`now`: when the clocks restart for
  // the disconnected); the error names the refused action.
  static std::variant<std::unique_ptr<RoomLogic>, std::string> restore(std::string id, Metrics& metrics,
                                                                       const RestoredRoom& r, std::int64_t now_ms);

  // ---- commands ----
  void attach(const ClientPtr& c);
  void detach(const ClientPtr& c, std::int64_t now_ms, Effects& fx);
  void handle(const ClientPtr& c, const protocol::ClientMessage& msg, std::int64_t now_ms,
              SteadyClock::time_point received, Effects& fx);
  void stored(bool ok, std::int64_t now_ms, Effects& fx);
  // The clock: call at next_wake() (or later); also right after a restore.
  void wake(std::int64_t now_ms, Effects& fx);
  void bot_moved(std::uint64_t ticket, const Move& move, std::int64_t now_ms, Effects& fx);
  void bot_failed(std::uint64_t ticket, std::int64_t now_ms, Effects& fx);
  // A hint computed on the bot pool; `move` empty if the computer player failed.
  void hint_ready(std::uint64_t ticket, const std::optional<Move>& move, Effects& fx);
  // The rematch room was made (its id), or could not be (empty).
  void rematch_created(const std::string& room, std::int64_t now_ms, Effects& fx);
  // Its tournament settles the table at the round's deadline (docs/tournaments.md#rounds):
  // the game ends as it stands (GameSettled, stored like a move), the seat on move loses on
  // time. Nothing happens in the lobby or once the game is over (its own result counts).
  void settle(std::int64_t now_ms, Effects& fx);
  // A settle() on its way (waiting for a change before it, or being stored).
  bool settling() const { return settling_; }
  void close_all(CloseReason why);
  // Drops every reference to a connection (members, a change being stored, waiting
  // commands): a connection holds its room, so these would keep both alive. For the end of
  // the process, once no strand runs.
  void forget_clients();

  // ---- queries ----
  const std::string& id() const { return id_; }
  protocol::RoomPhase phase() const { return phase_; }
  std::int64_t version() const { return version_; }
  int connections() const { return static_cast<int>(members_.size()); }
  int seated() const { return static_cast<int>(seats_.size()); }
  // Seats the room's expansions allow (their ruleset's max_players, docs/expansions.md).
  int max_seats() const { return ruleset(settings_.expansions).max_players; }
  int humans() const {
    int n = 0;
    for (const SeatState& s : seats_) n += s.bot ? 0 : 1;
    return n;
  }
  std::optional<std::int64_t> next_wake() const;  // unix ms
  // Turn-based rooms (docs/turn-based.md): when this room must be woken even if it is out of
  // memory (a human's bank runs out, or a computer player's turn is due); none otherwise.
  std::optional<std::int64_t> stored_wake() const;
  bool turn_based() const { return settings_.turn_based(); }
  // settings.hints: the host's choice, else on when exactly one human plays
  // against computer players.
  bool hints_on() const { return hints_choice_.value_or(humans() == 1 && seated() > 1); }
  // The human seat whose token this is (compared in constant time), if any.
  std::optional<int> seat_of_token(std::string_view token) const;
  // Forgets the seat's push subscription if it is still `endpoint` (the push service said 404/410).
  void drop_push(int seat, const std::string& endpoint, Effects& fx);
  // After a restore: the notices its last change caused, again (sent unless delivered before).
  void replay_notices(Effects& fx);
  // ---- room_community.cpp: ratings (docs/community.md#ratings) ----
  // The seat whose token this is was shown to player `player` (a public id): stored as its
  // player unless it has one already, is a computer player's, or the game is over.
  void bind_player(std::string_view token, const std::string& player, Effects& fx);
  // The finished game as the ratings see it (a function of the stored log).
  community::GameResult result() const;
  bool never_rated() const { return never_rated_; }  // NeverRated stored: no seat binds a player
  // Tells every connection what the game did to the seats' ratings (the `rated` message).
  void tell_rated(const std::string& frame);
  // ---- open games (room_open.cpp, docs/community.md) ----
  // Asked before the host lists the room: an error text when the host's address may list no
  // more open games, none when it may (it is then counted). Unset: always allowed.
  using OpenGate = std::function<std::optional<std::string>(const std::string& room, const Client& host)>;
  void set_open_gate(OpenGate gate) { open_gate_ = std::move(gate); }
  bool open() const { return open_ && phase_ == protocol::RoomPhase::Lobby; }
  // What the list of open games shows of this room; none while it is not to be listed
  // (not open, started, full, or nobody connected to its host's seat).
  std::optional<OpenListing> listing() const;
  std::string state_text(std::int64_t now_ms);     // the whole public state (cached per version)
  std::string info_json() const;                    // GET /api/rooms/<id>
  std::string record_json() const;                  // GET /api/rooms/<id>/record
  struct Memory {
    std::size_t engine = 0, history = 0, view = 0, other = 0;
  };
  Memory memory() const;

 private:
  enum class Role : std::uint8_t { None, Player, Spectator };
  enum class Auto : std::uint8_t { No, Away, Timeout };  // why a computer plays a human's turn
  struct Member {
    ClientPtr client;
    Role role = Role::None;
    int seat = -1;
    std::string name;  // spectators who gave one, for chat
  };
  std::string id_;
  Metrics& metrics_;
  RoomSeats seats_;
  std::vector<Member> members_;  // every socket open on /ws/<room>
  int spectators_ = 0;
  protocol::ClockSettings settings_;
  std::optional<bool> hints_choice_;  // settings.hints as the host set it, none: the default
  bool open_ = false;                 // listed among the open games (in memory only)
  std::int64_t opened_ms_ = 0;
  OpenGate open_gate_;
  void on_open(Member& m, const protocol::OpenMsg& msg, std::int64_t now_ms);
  // The hint of the current turn: asked (ticket), then answered for game move `hint_turn_`.
  std::uint64_t hint_ticket_ = 0;
  int hint_turn_ = -1;
  std::optional<Move> hint_move_;
  int hint_counted_turn_ = -1;  // the game move whose hint is counted (stored as HintGiven)
  std::optional<protocol::WebhookSetting> hook_;  // a secret of the room: never in the public state
  protocol::RoomPhase phase_ = protocol::RoomPhase::Lobby;

  RoomGame game_;  // none in the lobby; packed between moves (docs/hot-path.md#memory)
  // players[].projected of game_ after projected_at_ moves (facts() refreshes it once a move).
  mutable std::array<int, kMaxPlayers> projected_{};
  mutable int projected_at_ = -1;
  int moves_ = 0;               // MovePlayed actions so far
  RoomRecord record_;
  std::int64_t turn_started_ms_ = 0;
  protocol::EventHistory events_;
  LazyDeque<protocol::ChatLine> chat_;  // empty: no allocation
  std::int64_t next_chat_id_ = 0;
  StoreBounds bounds_;
  std::size_t chat_lines_stored_ = 0;
  std::size_t chat_bytes_stored_ = 0;
  std::size_t notify_changes_stored_ = 0;
  bool notify_bound_reached(Member& m);
  std::string rematch_;  // the rematch room's id
  bool never_rated_ = false;  // NeverRated stored: no seat binds a player, the result rates nobody
  std::optional<GameSettled> settled_;  // the tournament ended the game (docs/tournaments.md#rounds)
  bool settling_ = false;
  // Per seat, its player's token in the rematch, sealed to the seat (RematchCreated::seats);
  // while the rematch is being created, the ones it will store.
  std::vector<std::string> rematch_seats_, rematch_sealing_;

  protocol::StatePatcher patcher_;
  std::string state_cache_;
  std::int64_t state_cache_version_ = -1;
  std::int64_t version_ = 1;
  std::int64_t game_version_ = 1;  // version of the last change of the game itself
  std::int64_t persisted_version_ = 0;

  ChangeQueue changes_;
  std::uint64_t thinking_ = 0;  // the ticket a computer player works on, 0 if none
  Auto thinking_for_ = Auto::No;  // why, when it plays a human's turn
  bool rematch_asked_ = false;    // a rematch room is being created
  std::int64_t bot_retry_ms_ = 0;  // after storage refused a computer player's move

  // ---- room_logic.cpp: state, publishing, storing ----
  protocol::RoomFacts facts(const std::vector<protocol::SeatFacts>& seats) const;
  std::optional<std::int64_t> deadline() const;
  Member* find(const Client* c);
  // Makes the change since the last version one patch (the ops already begun by the
  // caller, if any) and queues it to every member but `except`.
  void publish(const Client* except, Effects& fx, SteadyClock::time_point received = {});
  void publish(std::span<const Client* const> except, Effects& fx, SteadyClock::time_point received);
  void begin_change();
  void welcome(Member& m, std::optional<std::string_view> token, std::int64_t now_ms, bool kicked = false);
  // Ends `frame` with `,"state":` and the state (serialized once a version), sends it to `m`.
  void send_with_state(Member& m, std::string frame, std::int64_t now_ms);
  void refuse(Client& c, protocol::ErrorCode code, std::string_view message);
  void store(Pending p, const RoomAction& action, bool game_change, Effects& fx, SteadyClock::time_point received);
  void apply(Pending& p, std::int64_t now_ms, Effects& fx);
  void apply_action(const ClientPtr& client, const RoomAction& action, std::int64_t now_ms, Effects& fx);
  void resume(std::int64_t now_ms, Effects& fx);
  void defer(Deferred d) { changes_.hold(std::move(d)); }
  // Replays one stored action (restore); the error says why it does not fit.
  std::optional<std::string> replay(const RoomAction& action, std::int64_t now_ms);
  void start_game(const GameStarted& g, Effects* fx);
  // After game_ has moved on by `action` with `events`.
  void play_move(const MovePlayed& action, const std::vector<Event>& events, Effects* fx);
  // The next game if `move` is legal for the current seat (on a copy), else the rule error.
  std::variant<PackedGame, RuleError> try_move(const Move& move, std::vector<Event>& events) const;
  void finish_game(Effects* fx);
  void settle_game(const GameSettled& e, Effects* fx);  // the game ends as it stands
  // Why a move is refused once the game is over (`game_over`): a settled game says so.
  std::string_view over_text() const {
    return settled_ ? "the tournament settled this game at its round's deadline: it is over and no move counts"
                    : "the game is over";
  }
  // ---- room_notify.cpp: banks and notifications (docs/turn-based.md) ----
  void settings_changed(const SettingsChanged& c);
  void bank_after_move(const MovePlayed& action);
  // The notices this change causes (a human's turn began, the game ended).
  void notify_turn(Effects& fx);
  void notify_over(Effects& fx);
  Notice notice(Notice::Event e, std::optional<int> seat) const;
  void on_push_subscribe(Member& m, const protocol::PushSubscribeMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void on_push_unsubscribe(Member& m, SteadyClock::time_point t0, Effects& fx);
  void on_webhook(Member& m, const protocol::SettingsMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void free_seat(const SeatFreed& f, std::int64_t now_ms, Effects* fx);
  void player_bound(const PlayerBound& b);  // room_community.cpp

  // ---- room_requests.cpp: client messages, in the fixed order of checks ----
  void on_message(Member& m, const protocol::ClientMessage& msg, std::int64_t now_ms,
                  SteadyClock::time_point received, Effects& fx);
  void on_join(Member& m, const protocol::JoinMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx);
  void on_watch(Member& m, std::int64_t now_ms, Effects& fx);
  void on_start(Member& m, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx);
  void on_play(Member& m, const protocol::PlayMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx);
  void on_step(Member& m, const protocol::StepMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx);
  void on_chat(Member& m, const protocol::ChatMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx);
  void on_resync(Member& m, std::int64_t now_ms);
  void on_add_bot(Member& m, const protocol::AddBotMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void on_remove_bot(Member& m, const protocol::RemoveBotMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void on_settings(Member& m, const protocol::SettingsMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void on_leave(Member& m, SteadyClock::time_point t0, Effects& fx);
  void on_kick(Member& m, const protocol::KickMsg& msg, SteadyClock::time_point t0, Effects& fx);
  void on_rematch(Member& m, std::int64_t now_ms, Effects& fx);
  // ---- room_hints.cpp: hints ----
  void on_hint(Member& m, std::int64_t now_ms, Effects& fx);
  void send_hint(Client& c, const Move& move) const;
  void hint_given(const HintGiven& h, Effects& fx);  // stored: counted, published, sent
  // The host's lobby commands share their first checks; false when refused.
  bool host_in_lobby(Member& m, std::string_view what);
  void send_rematch(Member& m);

  // ---- room_clock.cpp: computer players, clocks, absent players ----
  // Asks a computer player for the current turn if it is one's, or a human's who is away
  // or out of time.
  void maybe_think(std::int64_t now_ms, Effects& fx);
  std::optional<Auto> auto_reason(std::int64_t now_ms) const;
  void seat_back(SeatState& s);
};

// The seat token that rematches made before tokens were sealed gave the player of a seat
// whose token hash was `old_hash` (derived: the new room holds its hash).
std::string rematch_token(std::string_view old_hash, std::string_view new_room);
// What a rematch's new token is sealed for (seat_seal.hpp): the old room and the seat.
std::string rematch_seal_context(std::string_view old_room, int seat);

}  // namespace carc::server
