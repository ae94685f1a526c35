// The load generator's rooms and players: R rooms of P players, each a WebSocket client
// (wsclient.hpp) on the generator's loop (loop.hpp), that create their rooms, join, start and
// play random legal moves (read from the patches, scan.hpp), flat out or one move per room
// per interval, replacing each finished game by a new room; and the figures of the run
// (moves, latency, patches, a new room's setup time).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loop.hpp"
#include "scan.hpp"
#include "wsclient.hpp"

namespace carc::load {

struct Options {
  int port = 0;
  int rooms = 10;
  int players = 4;
  int interval_ms = 0;  // 0: flat out
  int duration_s = 30;
  int server_pid = 0;
  std::string spawn;  // server binary to start on a free port
  std::vector<std::string> server_args;
  int connect_batch = 200;
  bool replace = true;  // a finished room is replaced by a new one
  bool standby = true;  // flat out: a pool of R rooms is set up ahead to replace finished games
  int timeline_s = 0;   // > 0: the latency of each window of this many seconds, to stderr
  bool address_per_room = false;  // each room's players connect from their own 127.1.x.y (per-address limits)
  std::string room_body = "{}";   // POST /api/rooms: the room's settings (--expansions)
};

struct Room {
  int index = 0;  // in Bench::rooms_
  std::string id;
  std::vector<std::unique_ptr<WsConn>> conns;
  std::vector<int> seat;      // by connection
  std::vector<std::int64_t> version;  // by connection
  std::vector<WsConn*> by_seat;
  int welcomed = 0;
  bool started = false;   // its first turn has come
  bool standby = false;   // set up ahead, waiting to replace a finished game (flat out)
  bool finished = false;
  Turn turn;
  bool has_turn = false;
  std::int64_t brain_version = 0;
  std::int64_t pending = 0;  // the version the move in flight will produce
  Clock::time_point sent_at;
  Clock::time_point created_at;
  int received = 0;
  std::mt19937_64 rng;
};

class Bench final : public WsConn::Handler {
 public:
  Bench(Loop& loop, Options opt) : loop_(loop), opt_(std::move(opt)) {}

  void start() {
    for (int r = 0; r < opt_.rooms; ++r) create_room();
    for (int r = 0; r < standby_pool(); ++r) create_room(true);
  }

  // Flat out, a pool of rooms (as many as play) is set up ahead, seated and started, and
  // each finished game is replaced by the oldest of them: R rooms stay in play however long
  // a server takes to set a room up. (A server slow at that would otherwise have fewer
  // games in play at once, and so show a lower latency for each move.)
  int standby_pool() const { return opt_.interval_ms == 0 && opt_.replace && opt_.standby ? opt_.rooms : 0; }

  bool all_started() const { return started_rooms_ >= opt_.rooms; }
  void begin_play() {
    playing_ = true;
    moves_ = 0;
    play_start_ = Clock::now();
    latency_.clear();
    latency_at_.clear();
    setup_ms_.clear();
    patches_ = 0;
    patch_bytes_ = 0;
  }
  void end_play() { playing_ = false; }
  void stop() {
    stopping_ = true;
    for (auto& r : rooms_) {
      if (!r) continue;
      for (auto& c : r->conns) {
        if (c) c->close();
      }
    }
  }

  // The rooms it holds on the server (created and not closed: playing, finished and waiting
  // for their last patch, or set up ahead) and their open connections: what the server's
  // memory is divided by.
  int rooms_held() const {
    int n = 0;
    for (const auto& r : rooms_) n += r && !r->id.empty() ? 1 : 0;
    return n;
  }
  int connections_open() const {
    int n = 0;
    for (const auto& r : rooms_) {
      if (!r) continue;
      for (const auto& c : r->conns) n += c && c->open() ? 1 : 0;
    }
    return n;
  }

  // ---- figures ----
  std::uint64_t moves_ = 0, patches_ = 0, patch_bytes_ = 0, errors_ = 0, disconnects_ = 0, games_ = 0;
  std::vector<double> latency_;
  std::vector<float> latency_at_;  // when each latency_ sample ended, in seconds of play
  Clock::time_point play_start_{};
  std::vector<double> setup_ms_;  // a room's creation to its first turn, for rooms set up while playing
  int started_rooms_ = 0;
  int in_play_ = 0;  // rooms started and not finished

 private:
  Loop& loop_;
  Options opt_;
  std::vector<std::unique_ptr<Room>> rooms_;
  std::random_device rd_;
  bool playing_ = false;
  bool stopping_ = false;
  int connecting_ = 0;
  std::vector<std::pair<int, int>> to_connect_;  // (room, player)
  std::deque<int> ready_;  // standby rooms started and waiting, oldest first
  int waiting_ = 0;        // finished games no standby room was ready to replace
  std::string play_;       // the move being written

  Room& room_of(const WsConn& c) { return *rooms_[static_cast<std::size_t>(c.tag / 8)]; }
  static int player_of(const WsConn& c) { return c.tag % 8; }

  int create_room(bool standby = false);

  // Connects in batches: thousands of simultaneous SYNs overflow the listen queue.
  void pump();

  void on_open(WsConn& c) override;
  void on_closed(WsConn& c, std::string_view why) override;
  void on_text(WsConn& c, std::string_view text) override;

  // The room's first client reads each patch's turn and the end of the game.
  void brain(Room& r, std::string_view text, std::int64_t v);

  // A started room begins to play.
  void play(Room& r);

  // A standby room has its first turn: it replaces a finished game at once if one is
  // waiting for it, else it waits for the next game's end.
  void standby_ready(Room& r);

  void finish(Room& r);

  // Closes a finished room's connections and forgets it (at the end of the loop's turn:
  // the handler that called this still holds the room, and events of this turn may name
  // its connections).
  void close_room(Room& r);

  // A paced room's move; the next one an interval later.
  void tick(int index);

  void move(Room& r);
};

}  // namespace carc::load
