#include "room/room_record.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

#include "carc/protocol/record.hpp"

namespace carc::server {

RecordedMove RecordedMove::of(const Move& m) {
  RecordedMove r;
  r.x = static_cast<std::int16_t>(m.placement.cell.x);
  r.y = static_cast<std::int16_t>(m.placement.cell.y);
  r.tile = static_cast<std::uint8_t>(m.tile);
  r.bits = static_cast<std::uint8_t>(static_cast<unsigned>(m.type) | (static_cast<unsigned>(m.placement.rotation.quarter_turns()) << 2) |
                                     (m.extra ? 16U : 0U) | (m.action ? 32U : 0U) | (m.figure_cell ? 64U : 0U));
  if (m.meeple) r.meeple = static_cast<std::uint8_t>(*m.meeple);
  r.figure = static_cast<std::uint8_t>(m.figure);
  if (m.action) {
    r.action_x = static_cast<std::int16_t>(m.action->x);
    r.action_y = static_cast<std::int16_t>(m.action->y);
  }
  if (m.figure_cell) {
    r.figure_x = static_cast<std::int16_t>(m.figure_cell->x);
    r.figure_y = static_cast<std::int16_t>(m.figure_cell->y);
  }
  r.action_kind = m.action_kind;
  if (m.action_port) r.action_port = static_cast<std::uint8_t>(*m.action_port);
  return r;
}

Move RecordedMove::move() const {
  Move m;
  m.type = static_cast<Move::Type>(bits & 3U);
  m.tile = static_cast<Tile>(tile);
  m.placement = Placement{Cell{x, y}, Rotation::quarters((bits >> 2) & 3U)};
  if (meeple != kNone) m.meeple = static_cast<Port>(meeple);
  m.figure = static_cast<Figure>(figure);
  if (bits & 32U) m.action = Cell{action_x, action_y};
  m.extra = (bits & 16U) != 0;
  if (bits & 64U) m.figure_cell = Cell{figure_x, figure_y};
  m.action_kind = action_kind;
  if (action_port != kNone) m.action_port = static_cast<Port>(action_port);
  return m;
}

void RoomRecord::push(const Move& m) {
  if (moves_.size() == moves_.capacity()) {
    const std::size_t doubled = std::max<std::size_t>(16, 2 * moves_.capacity());
    moves_.reserve(moves_.size() < expected_ ? std::min(doubled, expected_) : moves_.size() + 16);
  }
  moves_.push_back(RecordedMove::of(m));
}

void RoomRecord::add(const std::vector<Event>& events, bool automatic) {
  bool first = true;  // the move itself comes first; automatic discards after it are the engine's
  for (const Event& e : events) {
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      push(move_of(*p));
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      push(Move::discard(d->tile));
    } else {
      continue;
    }
    automatic_.push_back(automatic && first ? 1 : 0);
    first = false;
  }
}

std::string RoomRecord::json(int players, bool finished, ExpansionSet expansions, OptionSet options) const {
  std::vector<Move> played;
  played.reserve(moves_.size());
  for (const RecordedMove& m : moves_) played.push_back(m.move());
  nlohmann::json record = protocol::record_json(players, played, finished, expansions, options);
  auto& moves = record["moves"];
  for (std::size_t i = 0; i < automatic_.size() && i < moves.size(); ++i) {
    if (automatic_[i]) moves[i]["auto"] = true;
  }
  if (!result_.empty()) {
    auto result = nlohmann::json::parse(result_, nullptr, false);  // our own text: always whole
    if (!result.is_discarded()) record["result"] = std::move(result);
  }
  return protocol::json_text(record);
}

std::size_t RoomRecord::memory_bytes() const {
  return moves_.capacity() * sizeof(RecordedMove) + automatic_.capacity() + result_.capacity();
}

}  // namespace carc::server
