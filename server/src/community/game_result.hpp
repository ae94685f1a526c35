// A finished game as the ratings see it (docs/community.md#ratings): who sat where (the
// player bound to each seat), the scores, and how much of each seat's game a computer
// played. Derived from the room's log when its game ends (RoomLogic::result), so deriving it
// again after a crash gives the same result. Pure: no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carc::server::community {

struct ResultSeat {
  std::string player;  // public id (keys/player_id.hpp); empty: no player key was bound
  std::string name;    // the seat's name in this game
  bool bot = false;    // a computer player's seat
  int score = 0;
  int turns = 0;       // the seat's moves, its own and those made for it
  int auto_turns = 0;  // made for it by a computer player (away, or out of time)
  bool gone = false;   // its last turn was made for it: it left or timed out before the end
  // Its points by kind (road, city, monastery, field, and the kinds the expansions add),
  // during the game and at the end together, from the result's breakdown (docs/protocol.md).
  // Empty for results stored before it was kept.
  std::map<std::string, int> points;
  bool operator==(const ResultSeat&) const = default;
};

struct GameResult {
  std::string room;
  std::string pace;        // "live" | "turn-based"
  std::string expansions;  // ids, comma-separated, "" for the base game
  std::int64_t finished_ms = 0;
  std::vector<ResultSeat> seats;
  bool never_rated = false;  // the room stored NeverRated (an unrated tournament's table)
};

// Why the game rates nobody, or nullopt when it is rated: not a never-rated room, two seats at least, no computer
// player's seat, every seat bound to a player and no player in two seats, and nobody still
// seated at the end whose turns a computer played for more than a quarter.
std::optional<std::string> unrated_reason(const GameResult& g);

// A seat's binding lost with the room's log (an append fenced in a cluster's handoff) is
// found again from the keys the seat was shown to (PlayerKeys::seat_players): whether `g` has
// a human seat without a player in a room that may be rated, and each such seat filled from
// `players` (seat -> player); the bindings the log had stay.
bool has_unbound_seats(const GameResult& g);
void fill_unbound(GameResult& g, const std::map<int, std::string>& players);

// Each seat's place, 1 = first (equal places are ties): the seats still seated by score, then
// those gone before the end below every one of them, by score among themselves.
std::vector<int> places(const GameResult& g);

// The seats as stored with the result (JSON text), and back; nullopt for text it cannot read.
std::string seats_json(const std::vector<ResultSeat>& seats);
std::optional<std::vector<ResultSeat>> parse_seats(std::string_view text);

}  // namespace carc::server::community
