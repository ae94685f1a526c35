// The public state of a room (protocol.md, docs/protocol-details.md), built from the game
// and the room's public facts. Secrets never get here: the view reads only public queries
// of the game (no seed, no bag order) and seat names, never tokens.
//
// The view has two parts. "events" and "chat" only grow, are the bulk of a late game's
// state and are kept as compact text; the rest (the core view) is rebuilt after each
// change and diffed against the previous one.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"

namespace carc::protocol {

enum class RoomPhase : std::uint8_t { Lobby, Playing, Finished };
std::string_view phase_name(RoomPhase p);  // "lobby", "playing", "finished"
std::string_view seat_color(int seat);      // "red", "blue", "green", "yellow", "black"

struct SeatView {
  std::string_view name;
  bool connected = false;
};

struct RoomView {
  std::string_view room;
  RoomPhase phase = RoomPhase::Lobby;
  const Game* game = nullptr;  // null in the lobby
  std::span<const SeatView> seats;
  int spectators = 0;
  const nlohmann::json* result = nullptr;  // null until finished
};

// Everything of the public state except "events" and "chat".
nlohmann::json core_view(const RoomView& v);

// `turn.legal`: every legal placement of the current tile with its meeple ports.
nlohmann::json legal_json(const Game& g);

// The room's events, in order, with ids and turn numbers (append-only).
class EventLog {
 public:
  // A log that only numbers its entries keeps no text (to_json() is then empty): a room can
  // rebuild its full list by replaying its game, and save the memory.
  explicit EventLog(bool keep_text = true) : keep_text_(keep_text) {}

  // Appends the public events among `events` (draws are not listed: held tiles are shown
  // in players[]) and returns the added entries, for "add /events/-" patch operations.
  std::vector<nlohmann::json> append(const std::vector<Event>& events);
  nlohmann::json append_started();
  nlohmann::json to_json() const;
  int size() const { return count_; }
  std::size_t memory_bytes() const { return text_.capacity(); }

 private:
  nlohmann::json add(nlohmann::json entry);

  std::string text_;  // serialized entries separated by commas
  bool keep_text_ = true;
  int count_ = 0;
  int next_turn_ = 1;  // turn number of the next placement or discard
};

struct ChatLine {
  std::int64_t id = 0;
  std::optional<int> seat;
  std::string name;
  std::string text;
  std::int64_t time_ms = 0;
};
nlohmann::json chat_json(const ChatLine& c);
inline constexpr std::size_t kChatKept = 100;

// The whole public state.
nlohmann::json full_view(const RoomView& v, const EventLog& events, const std::deque<ChatLine>& chat);

// RFC 6902 operations turning core view `before` into `after` (nlohmann::json::diff),
// except that a new turn replaces "/turn" whole: its legal list rarely shares anything
// with the previous turn's, and one replace is smaller than a replace per entry.
// Takes both by value: pass them moved when they are no longer needed.
nlohmann::json diff_core(nlohmann::json before, nlohmann::json after);

// Operations appending to an append-only array at `path` ("/events", "/chat").
void append_ops(nlohmann::json& ops, std::string_view path, const std::vector<nlohmann::json>& values);

}  // namespace carc::protocol
