// One game room: seats, spectators, chat and the game, owned by one strand.
//
// Every entry point below "on the strand" must run on strand(): work from sockets enters
// by posting there, so the room's state needs no lock. Each accepted change goes through
// the Persistence hook, then becomes exactly one patch, serialized once and queued to
// every client of the room.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"
#include "carc/protocol/messages.hpp"
#include "carc/protocol/view.hpp"
#include "client.hpp"
#include "persistence.hpp"

namespace carc::server {

class Metrics;

struct RoomServices {
  Persistence& persistence;
  Metrics& metrics;
};

// How far a restored room's version jumps past the stored one (see Room::restore).
inline constexpr std::int64_t kRestoreVersionGap = 100;

class Room : public std::enable_shared_from_this<Room> {
 public:
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
  using Clock = std::chrono::steady_clock;

 private:
  enum class Role : std::uint8_t { None, Player, Spectator };
  struct SeatState {
    std::string name;
    std::string token_hash;
    Client* holder = nullptr;  // the connection playing this seat, if any
  };
  struct Member {
    ClientPtr client;
    Role role = Role::None;
    int seat = -1;
    std::string name;  // spectators who gave one, for chat
  };

  Strand strand_;
  const std::string id_;
  RoomServices services_;

  std::vector<SeatState> seats_;
  std::vector<Member> members_;  // every socket open on /ws/<room>
  int spectators_ = 0;

  std::unique_ptr<Game> game_;  // null in the lobby
  std::uint64_t seed_ = 0;
  std::vector<MovePlayed> actions_;  // the players' moves, as persisted
  std::vector<Move> record_moves_;   // every placement and discard (automatic ones too)
  // Numbers the events as they happen; their full list is rebuilt from the seed and the
  // actions when a welcome or a resync needs it (it is the bulk of a late game's state).
  protocol::EventLog events_{false};
  std::deque<protocol::ChatLine> chat_;
  std::int64_t next_chat_id_ = 0;
  nlohmann::json result_;

  std::string prev_core_;  // serialized core view of version_, the base of the next diff
  std::int64_t version_ = 1;
  std::int64_t game_version_ = 1;  // version of the last change of the game itself
  std::int64_t persisted_version_ = 0;  // version written with the last stored action
  bool storing_ = false;                       // a change is on its way to storage
  std::deque<std::function<void()>> waiting_;  // what arrived meanwhile, in order

  std::atomic<std::uint8_t> phase_{0};
  std::atomic<int> connections_{0};
  std::atomic<int> seated_{0};
  std::atomic<std::int64_t> idle_since_ms_{0};

  // ---- handlers ----
  void on_join(Member& m, const protocol::JoinMsg& msg, Clock::time_point t0);
  void on_watch(Member& m, Clock::time_point t0);
  void on_start(Member& m, Clock::time_point t0);
  void on_play(Member& m, const protocol::PlayMsg& msg, Clock::time_point t0);
  void on_chat(Member& m, const protocol::ChatMsg& msg, Clock::time_point t0);
  void on_resync(Member& m);

  Member* find(const Client* c);
  std::vector<protocol::SeatView> seat_views() const;
  protocol::RoomView view(const std::vector<protocol::SeatView>& seats) const;
  nlohmann::json full_state() const;
  protocol::EventLog replay_events() const;
  void welcome(Member& m, std::optional<std::string_view> token);
  // Makes the change since the last version one patch and queues it to every client but
  // `except` (whose welcome already holds it).
  void publish(const Client* except, nlohmann::json extra_ops, Clock::time_point t0);
  void apply_game_events(const std::vector<Event>& events, nlohmann::json* ops);
  void finish_game();
  void set_phase(protocol::RoomPhase p);
  // Stores `action` (the Persistence hook), then applies it with `apply` on the strand once
  // it is durable; if it cannot be stored, `client` gets `unavailable` and nothing changes.
  // Requests that arrive meanwhile wait (when_idle), so changes stay in order.
  void store(const ClientPtr& client, const RoomAction& action, bool game_change, std::function<void()> apply);
  void when_idle(std::function<void()> f);
  void resume();
  void start_game(int players, std::uint64_t seed, Clock::time_point t0);
  void play_move(const MovePlayed& action, const Applied& next, Clock::time_point t0);
  void post_chat(ChatPosted posted, Clock::time_point t0);

 public:
  Room(Strand strand, std::string id, RoomServices services);
  // Rebuilds a stored room by replaying its actions; the error names the refused move.
  static std::variant<std::shared_ptr<Room>, std::string> restore(Strand strand, std::string id,
                                                                  RoomServices services, const RestoredRoom& r);

  const std::string& id() const { return id_; }
  Strand& strand() { return strand_; }

  // ---- thread-safe ----
  protocol::RoomPhase phase() const { return static_cast<protocol::RoomPhase>(phase_.load()); }
  int connections() const { return connections_.load(); }
  int seated() const { return seated_.load(); }
  std::int64_t idle_since_ms() const { return idle_since_ms_.load(); }  // steady clock; 0 while connected

  // ---- on the strand ----
  void attach(const ClientPtr& c);
  void detach(const ClientPtr& c);
  void handle(const ClientPtr& c, const protocol::ClientMessage& msg, Clock::time_point received);
  void refuse(Client& c, protocol::ErrorCode code, std::string_view message);
  void close_all(CloseReason why);
  nlohmann::json info_json() const;    // GET /api/rooms/<id>
  nlohmann::json record_json() const;  // GET /api/rooms/<id>/record
  nlohmann::json state_json() const { return full_state(); }
  std::int64_t version() const { return version_; }
  std::size_t memory_bytes() const;
};

std::int64_t steady_ms();
std::int64_t unix_ms();

}  // namespace carc::server
