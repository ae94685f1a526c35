// The event history's base entries (event_history.cpp), each described once: a list of
// fields that both encode() and write() walk, so the bytes an entry is stored as and the
// JSON read back from them cannot drift apart. The expansions' entries are their parts'
// (protocol/src/expansions/).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history_bytes.hpp"

namespace carc::protocol::history {

// The base entries' tags; the expansions' entries follow (ProtocolPart::first_tag).
enum Tag : std::uint8_t { kStarted, kPlaced, kDiscarded, kScored, kGameOver, kExtra, kBaseTags };

// What an entry's fields take their values from (only those of its tag are read).
struct EntryValues {
  int turn = 0;
  int seat = 0;
  int tile = 0;
  bool extra = false;  // the extra part of a turn
  Cell cell{};
  int rotation = 0;                 // quarter turns
  std::optional<Port> meeple;
  Figure figure = Figure::Meeple;
  std::optional<Cell> action;       // the action instead of a figure, and its cell
  std::optional<Cell> figure_cell;  // the figure's tile when not the placed one (Move::figure_cell)
  Kind kind = Kind::Road;
  int flags = 0;                    // scored: bit 0 end, the parts' marks, kBonusFlag
  int points = 0;
  int winners = 0;                  // bit per seat
  int seats = 0;                    // entries per seat
  const std::array<int, kMaxPlayers>* meeples = nullptr;
  const std::array<int, kMaxPlayers>* bonus = nullptr;
  int tiles = 0, pennants = 0, cities = 0;
  const std::vector<Cell>* cells = nullptr;
  const std::vector<int>* scores = nullptr;
};

inline constexpr int kBonusFlag = 16;  // scored: per-seat bonus points follow the meeples

void encode(Bytes& b, Tag tag, const EntryValues& v);
// Writes the entry of `tag` whose bytes start at `at` (after `{"id":N`, up to and with its
// closing brace); returns the offset after it.
std::size_t write(std::string& out, Tag tag, const Bytes& b, std::size_t at);

}  // namespace carc::protocol::history
