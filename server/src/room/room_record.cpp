#include "room/room_record.hpp"

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

#include "carc/protocol/record.hpp"

namespace carc::server {

void RoomRecord::reserve() {
  moves_.reserve(kMaxTilesInGame);
  automatic_.reserve(kMaxTilesInGame);
}

void RoomRecord::add(const std::vector<Event>& events, bool automatic) {
  bool first = true;  // the move itself comes first; automatic discards after it are the engine's
  for (const Event& e : events) {
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      moves_.push_back(move_of(*p));
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      moves_.push_back(Move::discard(d->tile));
    } else {
      continue;
    }
    automatic_.push_back(automatic && first ? 1 : 0);
    first = false;
  }
}

std::string RoomRecord::json(int players, bool finished, ExpansionSet expansions, OptionSet options) const {
  nlohmann::json record = protocol::record_json(players, moves_, finished, expansions, options);
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
  return moves_.capacity() * sizeof(Move) + automatic_.capacity() + result_.capacity();
}

}  // namespace carc::server
