// One game room on its strand: a thin adapter that feeds RoomLogic its commands (from
// sockets, storage, the clock and the bot pool) and carries out the effects it answers
// with. Everything below "on the strand" must run on strand(): work from other threads
// enters by posting there, so the room's state needs no lock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "carc/protocol/messages.hpp"
#include "carc/protocol/room_state.hpp"
#include "room/client.hpp"
#include "durable/persistence.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

class Metrics;
class BotPool;
class Room;

struct RoomServices {
  Persistence& persistence;
  Metrics& metrics;
  BotPool* bots = nullptr;  // null: computer players never move (tests of the room alone)
  // Creates a rematch room seated with `actions` (SeatTaken..., SettingsChanged) and calls
  // back with its id, or an empty string when it cannot be created. Empty: no rematches.
  using RematchMaker =
      std::function<void(std::vector<RoomAction> actions, std::function<void(std::string room)> done)>;
  RematchMaker make_rematch;
  // A finished game's last connection just closed (called on its strand). The registry
  // retires it then when --finished-room-ttl is 0. Empty: only the sweeper retires rooms.
  std::function<void(const std::shared_ptr<Room>&)> finished_idle;
  // Turn-based rooms (docs/turn-based.md): the room's next wake-up changed (stored beside it, so
  // that it is woken out of memory too); and notices to send once their change is stored.
  std::function<void(const std::string& room, std::optional<std::int64_t> due_ms)> wake_changed;
  std::function<void(std::vector<Notice> notices)> notify;
  // A game just ended with a human in it: its record goes to the analysis (docs/analysis.md).
  // The record is made by the call, only when the game is taken (an analysis queue can be full).
  std::function<void(const std::string& room, const std::function<std::string()>& record)> game_over;
  StoreBounds bounds;  // what a room may store beyond its game
  // Ratings (docs/community.md#ratings): a finished game's result, handed over when the game
  // ends and again whenever a finished room is restored (the ratings store it once: the
  // room's log is the outbox). `rated` gets the `rated` message when that hand-over rated it.
  std::function<void(community::GameResult result, std::function<void(std::string frame)> rated)> game_result = {};
  // Open games (docs/community.md): what the list shows of this room changed (none: not
  // listed); `open`: whether the host still has it open (false once it started, was closed
  // or left memory: the host's address may then list another). Called on the strand.
  std::function<void(const std::string& room, const std::optional<OpenListing>& listing, bool open)> listing_changed = {};
  RoomLogic::OpenGate open_gate = {};  // the per-address cap on open games
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
  using Clock = std::chrono::steady_clock;

 private:
  Strand strand_;
  // The same for every room of a registry: shared, not copied into each (304 bytes a room,
  // docs/hot-path.md#memory).
  std::shared_ptr<const RoomServices> services_;
  std::unique_ptr<RoomLogic> logic_;
  // What the running command asked for: made by its first effect, carried out and freed by
  // carry_out(), so that a room between commands holds none of it (320 bytes).
  std::unique_ptr<Effects> fx_;
  Effects& fx() {
    if (!fx_) fx_ = std::make_unique<Effects>();
    return *fx_;
  }
  boost::asio::steady_timer timer_;
  std::optional<std::int64_t> armed_at_;  // unix ms the timer waits for
  bool storing_ = false;  // a change is on its way to storage
  int asked_ = 0;         // computer-player turns and hints the bot pool has not answered yet
  bool retired_ = false;  // expired: refuses attaches, does nothing more (RoomRegistry::expire)
  std::optional<std::int64_t> wake_due_;  // the wake-up last handed to wake_changed
  bool wake_known_ = false;              // wake_due_ is what storage holds (false: write it once)
  std::atomic<bool> keep_stored_{false};
  // Asked by the room's tournament to settle it (settle()): answered once the settlement is
  // stored, or at once when there is nothing to settle.
  std::vector<std::function<void(std::optional<community::GameResult>)>> settle_waiters_;
  void answer_settle();  // the waiters, once no settlement is on its way
  std::unique_ptr<const OpenListing> listed_;  // what listing_changed last heard (null: not listed)
  bool open_told_ = false;             // ... and whether the room was open then  // a turn-based game: stays stored when it leaves memory

  std::atomic<std::uint8_t> phase_{0};
  std::atomic<int> connections_{0};
  std::atomic<int> seated_{0};
  std::atomic<std::int64_t> idle_since_ms_{0};
  std::atomic<std::size_t> mem_engine_{0}, mem_history_{0}, mem_view_{0}, mem_other_{0};

  // Carries out what the last command asked for, then refreshes the thread-safe mirrors.
  void carry_out();
  void arm(std::optional<std::int64_t> at);
  void hand_result();  // a finished game's result to the ratings (RoomServices::game_result)
  // Tells listing_changed when the room's listing or open flag changed (`gone`: it leaves).
  void relist(bool gone = false);

 public:
  // The registry's rooms share its services; a room made alone (tests) gets its own copy.
  Room(Strand strand, std::string id, std::shared_ptr<const RoomServices> services);
  Room(Strand strand, std::unique_ptr<RoomLogic> logic, std::shared_ptr<const RoomServices> services);
  Room(Strand strand, std::string id, RoomServices services);
  // Rebuilds a stored room by replaying its actions; the error names the refused action.
  static std::variant<std::shared_ptr<Room>, std::string> restore(Strand strand, std::string id,
                                                                  std::shared_ptr<const RoomServices> services,
                                                                  const RestoredRoom& r);
  static std::variant<std::shared_ptr<Room>, std::string> restore(Strand strand, std::string id,
                                                                  RoomServices services, const RestoredRoom& r);

  const std::string& id() const { return logic_->id(); }
  Strand& strand() { return strand_; }

  // ---- thread-safe ----
  protocol::RoomPhase phase() const { return static_cast<protocol::RoomPhase>(phase_.load()); }
  int connections() const { return connections_.load(); }
  int seated() const { return seated_.load(); }
  std::int64_t idle_since_ms() const { return idle_since_ms_.load(); }  // steady clock; 0 while connected
  RoomLogic::Memory memory() const;
  // A turn-based room that is not finished stays stored when it leaves memory (it is woken
  // for its deadlines and loaded when its players come back).
  bool keeps_stored() const { return keep_stored_.load(); }

  // ---- on the strand ----
  // After a restore (or creation): starts the clocks and any computer player's turn.
  void start();
  // A retired room closes the client instead (RoomClosed): it reconnects, finds the room
  // gone, and hears so.
  void attach(const ClientPtr& c);
  // Retires the room if it still has no connection, nothing on its way to storage and no
  // answer of the bot pool to wait for, and has been idle longer than `ttl_ms` at
  // `now_steady_ms`. Decided here, on the strand,
  // because an attach may be queued right behind.
  bool retire_if_idle(std::int64_t now_steady_ms, std::int64_t ttl_ms);
  // Several nodes: the room leaves this node (another node takes it, or this node lost its
  // lease). Its clients are closed with Moved; it does nothing more, like a retired room.
  void evict();
  bool retired() const { return retired_; }
  void detach(const ClientPtr& c);
  void handle(const ClientPtr& c, const protocol::ClientMessage& msg, Clock::time_point received);
  void close_all(CloseReason why);
  void forget_clients() { logic_->forget_clients(); }  // only once the I/O threads have stopped
  std::string info_json() const { return logic_->info_json(); }      // GET /api/rooms/<id>
  std::string record_json() const { return logic_->record_json(); }  // GET /api/rooms/<id>/record
  std::string state_text();                                          // the whole public state
  std::int64_t version() const { return logic_->version(); }
  std::optional<int> seat_of_token(std::string_view token) const { return logic_->seat_of_token(token); }
  // A push service said the seat's subscription to `endpoint` is gone (Web Push).
  void drop_push(int seat, const std::string& endpoint);
  // The seat of `token` was shown to player `player` (a public id; docs/community.md#ratings).
  // Binds the seat of `token` to `player` (docs/community.md#ratings). False when this room
  // has left this node meanwhile (another node holds it now): nothing was bound.
  bool bind_player(const std::string& token, const std::string& player);
  bool never_rated() const { return logic_->never_rated(); }  // an unrated tournament's table: nothing binds
  // Its tournament settles the table at the round's deadline (docs/tournaments.md#rounds):
  // the game ends as it stands and every client is told (RoomLogic::settle). `done` gets the
  // game's result once that is stored, or the result of a game already over, or none (the
  // lobby, storage refused it, or the room left this node).
  void settle(std::function<void(std::optional<community::GameResult>)> done);
};

std::int64_t steady_ms();
// The wall clock rooms use (banks, deadlines, stored times), in ms since the epoch.
std::int64_t unix_ms();
// Test builds only (carcassonne-server-test, main.cpp with CARC_TEST_HOOKS): an offset added
// to unix_ms(), so that a test moves the clock past an hour-long bank instead of waiting.
// Set before the server starts; the shipped server never sets one.
using ClockOffset = std::int64_t (*)();
void set_clock_offset(ClockOffset offset);

}  // namespace carc::server
