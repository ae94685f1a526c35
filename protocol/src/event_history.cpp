#include "carc/protocol/event_history.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "carc/protocol/json_text.hpp"
#include "expansions/part.hpp"
#include "history_bytes.hpp"
#include "history_entries.hpp"

namespace carc::protocol {
namespace {

using namespace history;

// The parts' marks of a scored feature (ProtocolPart::scored), as the history's flag bits.
int scored_flags(const FeatureScored& s) {
  int out = 0;
  for (const detail::ScoredFlag& f : detail::scored_flags()) {
    if (f.holds(s)) out |= f.bit;
  }
  return out;
}

}  // namespace

void EventHistory::added(std::size_t at, std::string* ops) {
  const int id = count_++;
  if (ops == nullptr) return;
  *ops += R"(,{"op":"add","path":"/events/)";
  append_int(*ops, id);
  *ops += R"(","value":)";
  write_entry(*ops, at, id);
  *ops += '}';
}

// Steps of 512 bytes rather than doubling: a game's whole list takes about 1 KB, which
// doubling would leave at 2 KB in most rooms, half of it unused.
void EventHistory::make_room(std::size_t bytes) {
  if (bytes_.capacity() - bytes_.size() < bytes) bytes_.reserve(bytes_.size() + std::max<std::size_t>(bytes, 512));
}

void EventHistory::append_started(std::string* ops) {
  make_room(1);
  const std::size_t at = bytes_.size();
  encode(bytes_, kStarted, EntryValues{});
  added(at, ops);
}

void EventHistory::append(const std::vector<Event>& events, std::string* ops) {
  bool replacing = false;  // an extra part's tile was discarded: the next draw replaces it (not a new extra part)
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    make_room(64);  // any entry but a score of a very large feature
    const std::size_t at = bytes_.size();
    const int current = next_turn_ > 1 ? next_turn_ - 1 : 1;  // the turn being played
    EntryValues v;
    Tag tag = kStarted;
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      tag = kPlaced;
      v.turn = turn_of(p->extra);
      v.seat = p->seat;
      v.tile = static_cast<int>(p->tile);
      v.cell = p->cell;
      v.rotation = p->rotation.quarter_turns();
      v.meeple = p->meeple;
      v.figure = p->figure;
      if (p->action_kind == 0) v.action = p->action;  // actions with a target have events of their own
      if (p->meeple) v.figure_cell = p->figure_cell;
      v.extra = p->extra;
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      replacing = d->extra;
      tag = kDiscarded;
      v.turn = turn_of(d->extra);
      v.seat = d->seat;
      v.tile = static_cast<int>(d->tile);
      v.extra = d->extra;
    } else if (const auto* s = std::get_if<FeatureScored>(&e)) {
      tag = kScored;
      v.turn = current;
      v.kind = s->kind;
      bool bonus = false;
      for (int b : s->bonus) bonus = bonus || b != 0;
      v.flags = (s->end_of_game ? 1 : 0) | scored_flags(*s) | (bonus ? kBonusFlag : 0);
      v.points = s->points;
      for (Seat w : s->winners) {
        v.winners |= 1 << w;
        count_points(*s, w);
      }
      // One entry a seat, never fewer than the 5 that base games' events always carried.
      v.seats = std::max(kMaxPlayersBase, s->players);
      v.meeples = &s->meeples;
      v.bonus = &s->bonus;
      v.tiles = s->tiles;
      v.pennants = s->pennants;
      v.cities = s->cities;
      v.cells = &s->cells;
    } else if (const auto* g = std::get_if<GameEnded>(&e)) {
      tag = kGameOver;
      v.scores = &g->final_scores;
      for (Seat w : g->winners) v.winners |= 1 << w;
    } else if (const auto* drawn = std::get_if<TileDrawn>(&e)) {
      if (!drawn->extra || std::exchange(replacing, false)) continue;  // held tiles are shown in players[]
      tag = kExtra;
      v.turn = current;
      v.seat = drawn->seat;
    } else if (const auto* x = std::get_if<ExpansionEvent>(&e)) {
      const detail::ProtocolPart* part = detail::protocol_part(x->expansion);
      if (part == nullptr || part->kinds == 0) continue;
      put8(bytes_, part->first_tag + x->kind);
      if (part->encode != nullptr) {
        part->encode(bytes_, *x, current);
      } else {
        // Kept as its JSON (after the id), with the events it takes in (ProtocolPart::merge).
        json entry = part->history_json != nullptr ? part->history_json(*x) : part->event_json(*x);
        entry["turn"] = current;
        // Figures sent home (MeepleReturned) between them are not listed anyway.
        for (std::size_t j = i + 1; part->merge != nullptr && j < events.size(); ++j) {
          if (std::holds_alternative<MeepleReturned>(events[j])) continue;
          const auto* next = std::get_if<ExpansionEvent>(&events[j]);
          if (next == nullptr || !part->merge(entry, *next)) break;
          i = j;
        }
        const std::string text = json_text(entry);
        const std::size_t n = std::min<std::size_t>(text.size() - 1, 0xFFFF);  // without the opening brace
        put16(bytes_, static_cast<int>(n));
        bytes_.insert(bytes_.end(), text.begin() + 1, text.begin() + 1 + static_cast<std::ptrdiff_t>(n));
      }
      if (part->count_event != nullptr) part->count_event(*x, totals_.rows[static_cast<std::size_t>(x->expansion)]);
      added(at, ops);
      continue;
    } else {
      continue;  // other draws, MeepleReturned
    }
    encode(bytes_, tag, v);
    added(at, ops);
  }
}

std::size_t EventHistory::write_entry(std::string& out, std::size_t at, int id) const {
  const std::uint8_t tag = bytes_[at++];
  out += R"({"id":)";
  append_int(out, id);
  if (tag < kBaseTags) return write(out, static_cast<Tag>(tag), bytes_, at);
  const detail::ProtocolPart* part = detail::protocol_part_of_tag(tag);  // an expansion's entry
  if (part->write == nullptr) {  // kept as its JSON
    const auto n = static_cast<std::size_t>(bytes_[at] | (bytes_[at + 1] << 8));
    out += ',';
    out.append(reinterpret_cast<const char*>(bytes_.data()) + at + 2, n);
    return at + 2 + n;
  }
  return part->write(out, static_cast<std::uint8_t>(tag - part->first_tag), bytes_, at);
}

int EventHistory::turn_of(bool extra) {
  // Both parts of a turn with an extra part are one turn: entries of part 2 keep part 1's number.
  if (extra) return next_turn_ > 1 ? next_turn_ - 1 : 1;
  return next_turn_++;
}

void EventHistory::count_points(const FeatureScored& s, Seat w) {
  const auto seat = static_cast<std::size_t>(w);
  // The parts take their share first (all of it, for an action's points); the kind's row
  // gets the rest.
  int base = s.points;
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part == nullptr || part->count_scored == nullptr) continue;
    if (part->count_scored(s, seat, base, totals_.rows[static_cast<std::size_t>(e)]) >= 0) return;
  }
  auto& by_kind = s.end_of_game ? totals_.end : totals_.game;
  Totals::add(by_kind[seat][static_cast<std::size_t>(s.kind)], base);
}

void EventHistory::write_json(std::string& out) const {
  out += '[';
  std::size_t at = 0;
  for (int id = 0; id < count_; ++id) {
    if (id > 0) out += ',';
    at = write_entry(out, at, id);
  }
  out += ']';
}

}  // namespace carc::protocol
