// The room's public event list ("events" in the state, docs/protocol.md), kept
// compactly: a few bytes per event instead of its JSON text, which is written again only
// when a whole state is needed (welcome, resync). Append-only, like the list itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "carc/core/game.hpp"

namespace carc::protocol {

class EventHistory {
 public:
  // Appends `{"type":"started"}`, or the public events among `events` (draws and meeple
  // returns are shown in players[] and board[], not listed; the draw of the tile of an
  // extra part of the turn is listed as `extra`). For each added entry, appends
  // `,{"op":"add","path":"/events/<id>","value":<entry>}` to `ops` when it is not null.
  void append_started(std::string* ops);
  void append(const std::vector<Event>& events, std::string* ops);

  // The whole list as a JSON array.
  void write_json(std::string& out) const;
  int size() const { return count_; }
  std::size_t memory_bytes() const { return bytes_.capacity(); }

  // Points per seat from the scored events, split as the result's breakdown. Each total
  // is 16 bits (a seat's points of one kind stay far below 32,767): every room in play
  // keeps these, and at int they were a third of its RoomLogic (docs/hot-path.md#memory).
  struct Totals {
    using Points = std::int16_t;
    static constexpr std::size_t kRows = 4;
    using Rows = std::array<std::array<Points, kMaxPlayers>, kRows>;
    std::array<std::array<Points, 6>, kMaxPlayers> game{};  // by Kind, during the game
    std::array<std::array<Points, 6>, kMaxPlayers> end{};   // by Kind, end of the game
    // The expansions' own rows, by Expansion: what each part takes out of the kinds'
    // rows or adds with its events (protocol/src/expansions/ names them).
    std::array<Rows, kExpansionKinds> rows{};

    // Adds `points` to a total.
    static void add(Points& total, int points) { total = static_cast<Points>(total + points); }
  };
  const Totals& totals() const { return totals_; }
  // turn.number of the turn being played: both parts of a turn with an extra part have one number.
  int turn_number(bool in_extra_part) const { return in_extra_part && next_turn_ > 1 ? next_turn_ - 1 : next_turn_; }

 private:
  // Writes the entry that starts at bytes_[at] and returns the offset of the next one.
  std::size_t write_entry(std::string& out, std::size_t at, int id) const;
  void added(std::size_t at, std::string* ops);
  void make_room(std::size_t bytes);
  int turn_of(bool extra);  // the turn of a placement or discard (advances past a part 1)
  void count_points(const FeatureScored& s, Seat winner);

  std::vector<std::uint8_t> bytes_;
  int count_ = 0;
  int next_turn_ = 1;  // turn number of the next placement or discard
  Totals totals_;
};

}  // namespace carc::protocol
