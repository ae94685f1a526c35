#include "carc/protocol/event_history.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "carc/protocol/json_text.hpp"
#include "expansions/part.hpp"
#include "history_bytes.hpp"

namespace carc::protocol {
namespace {

using namespace history;

// The base entries' tags; the expansions' entries follow (ProtocolPart::first_tag).
enum Tag : std::uint8_t { kStarted, kPlaced, kDiscarded, kScored, kGameOver, kExtra };
constexpr int kExtraFlag = 0x40;  // placed: the extra part of a turn
constexpr std::uint8_t kNoPort = 0xFF;
constexpr int kBonusFlag = 16;  // scored: per-seat bonus points follow (bits 1-3: the parts' flags)

// Every part's marks of a scored feature, in expansion id order.
template <typename F>
void for_each_scored_flag(F&& f) {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part == nullptr) continue;
    for (const detail::ScoredFlag& flag : part->scored) {
      if (flag.holds != nullptr) f(flag);
    }
  }
}

int scored_flags(const FeatureScored& s) {
  int out = 0;
  for_each_scored_flag([&](const detail::ScoredFlag& f) {
    if (f.holds(s)) out |= f.bit;
  });
  return out;
}

void letter(std::string& out, std::uint8_t tile) {
  out += '"';
  out += tile_name(static_cast<Tile>(tile));
  out += '"';
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
  put8(bytes_, kStarted);
  added(at, ops);
}

void EventHistory::append(const std::vector<Event>& events, std::string* ops) {
  bool replacing = false;  // an extra part's tile was discarded: the next draw replaces it (not a new extra part)
  for (const Event& e : events) {
    make_room(64);  // any entry but a score of a very large feature
    const std::size_t at = bytes_.size();
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      put8(bytes_, kPlaced);
      put16(bytes_, turn_of(p->extra));
      put8(bytes_, p->seat);
      put8(bytes_, static_cast<int>(p->tile));
      put8(bytes_, p->cell.x);
      put8(bytes_, p->cell.y);
      put8(bytes_, p->rotation.quarter_turns());
      put8(bytes_, p->meeple ? static_cast<int>(*p->meeple) : kNoPort);
      put8(bytes_, static_cast<int>(p->figure) | (p->action ? 0x80 : 0) | (p->extra ? kExtraFlag : 0));
      if (p->action) {
        put8(bytes_, p->action->x);
        put8(bytes_, p->action->y);
      }
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      replacing = d->extra;
      put8(bytes_, kDiscarded);
      put16(bytes_, turn_of(d->extra));
      put8(bytes_, d->seat);
      put8(bytes_, static_cast<int>(d->tile) | (d->extra ? 0x80 : 0));
    } else if (const auto* s = std::get_if<FeatureScored>(&e)) {
      put8(bytes_, kScored);
      put16(bytes_, next_turn_ > 1 ? next_turn_ - 1 : 1);
      put8(bytes_, static_cast<int>(s->kind));
      bool bonus = false;
      for (int b : s->bonus) bonus = bonus || b != 0;
      put8(bytes_, (s->end_of_game ? 1 : 0) | scored_flags(*s) | (bonus ? kBonusFlag : 0));
      put16(bytes_, s->points);
      int mask = 0;
      for (Seat w : s->winners) {
        mask |= 1 << w;
        count_points(*s, w);
      }
      put8(bytes_, mask);
      // One entry a seat, never fewer than the 5 that base games' events always carried.
      const int seats = std::max(kMaxPlayersBase, s->players);
      put8(bytes_, seats);
      for (int k = 0; k < seats; ++k) put8(bytes_, s->meeples[static_cast<std::size_t>(k)]);
      if (bonus) {
        for (int k = 0; k < seats; ++k) put8(bytes_, s->bonus[static_cast<std::size_t>(k)]);
      }
      put8(bytes_, s->tiles);
      put8(bytes_, s->pennants);
      put8(bytes_, s->cities);
      put8(bytes_, static_cast<int>(s->cells.size()));
      for (Cell c : s->cells) {
        put8(bytes_, c.x);
        put8(bytes_, c.y);
      }
    } else if (const auto* g = std::get_if<GameEnded>(&e)) {
      put8(bytes_, kGameOver);
      put8(bytes_, static_cast<int>(g->final_scores.size()));
      for (int v : g->final_scores) put16(bytes_, v);
      int mask = 0;
      for (Seat w : g->winners) mask |= 1 << w;
      put8(bytes_, mask);
    } else if (const auto* drawn = std::get_if<TileDrawn>(&e)) {
      if (!drawn->extra || std::exchange(replacing, false)) continue;  // held tiles are shown in players[]
      put8(bytes_, kExtra);
      put16(bytes_, next_turn_ > 1 ? next_turn_ - 1 : 1);
      put8(bytes_, drawn->seat);
    } else if (const auto* x = std::get_if<ExpansionEvent>(&e)) {
      const detail::ProtocolPart* part = detail::protocol_part(x->expansion);
      if (part == nullptr || part->encode == nullptr) continue;
      put8(bytes_, part->first_tag + x->kind);
      part->encode(bytes_, *x, next_turn_ > 1 ? next_turn_ - 1 : 1);
      if (part->count_event != nullptr) part->count_event(*x, totals_.rows[static_cast<std::size_t>(x->expansion)]);
    } else {
      continue;  // other draws, MeepleReturned
    }
    added(at, ops);
  }
}

std::size_t EventHistory::write_entry(std::string& out, std::size_t at, int id) const {
  const auto& b = bytes_;
  const std::uint8_t tag = b[at++];
  out += R"({"id":)";
  append_int(out, id);
  switch (tag) {
    case kStarted:
      out += R"(,"type":"started"})";
      return at;
    case kPlaced: {
      turn_and_seat(out, "placed", b, at);
      out += R"(,"tile":)";
      letter(out, b[at + 3]);
      out += R"(,"x":)";
      append_int(out, s8(b[at + 4]));
      out += R"(,"y":)";
      append_int(out, s8(b[at + 5]));
      out += R"(,"rotation":)";
      append_int(out, b[at + 6] * 90);
      out += R"(,"meeple":)";
      if (b[at + 7] == kNoPort) {
        out += "null";
      } else {
        out += '"';
        out += port_name(static_cast<Port>(b[at + 7]));
        out += '"';
      }
      const int extra = b[at + 8];
      const auto figure = static_cast<Figure>(extra & 0x0F);
      if ((extra & kExtraFlag) != 0) out += R"(,"extra":true)";
      if (b[at + 7] != kNoPort && figure != Figure::Meeple) {
        out += R"(,"figure":")";
        out += figure_name(figure);
        out += '"';
      }
      if ((extra & 0x80) != 0) {  // the action instead of a figure, and its cell
        out += ',';
        append_key(out, detail::action_key());
        cell_object(out, b, at + 9);
      }
      out += '}';
      return at + ((extra & 0x80) != 0 ? 11 : 9);
    }
    case kDiscarded:
      turn_and_seat(out, "discarded", b, at);
      out += R"(,"tile":)";
      letter(out, b[at + 3] & 0x7F);
      if ((b[at + 3] & 0x80) != 0) out += R"(,"extra":true)";
      out += '}';
      return at + 4;
    case kScored: {
      out += R"(,"type":"scored","turn":)";
      append_int(out, get16(b, at));
      out += R"(,"kind":")";
      out += kind_name(static_cast<Kind>(b[at + 2]));
      out += R"(","end":)";
      append_bool(out, (b[at + 3] & 1) != 0);
      const int flags = b[at + 3];
      for_each_scored_flag([&](const detail::ScoredFlag& f) {
        if ((flags & f.bit) != 0) {
          out += ',';
          append_key(out, f.key);
          out += "true";
        }
      });
      const int seats = points_and_seats(out, b, at + 4, "meeples");
      at += 8 + static_cast<std::size_t>(seats);
      if ((flags & kBonusFlag) != 0) {  // winners' points beyond `points`, per seat
        out += R"(,"bonus":)";
        byte_array(out, b, at, seats);
        at += static_cast<std::size_t>(seats);
      }
      out += R"(,"tiles":)";
      append_int(out, b[at]);
      out += R"(,"pennants":)";
      append_int(out, b[at + 1]);
      out += R"(,"cities":)";
      append_int(out, b[at + 2]);
      out += R"(,"cells":[)";
      const int n = b[at + 3];
      at += 4;
      for (int i = 0; i < n; ++i, at += 2) {
        if (i > 0) out += ',';
        cell_object(out, b, at);
      }
      out += "]}";
      return at;
    }
    case kExtra:
      turn_and_seat(out, "extra", b, at);
      out += '}';
      return at + 3;
    case kGameOver: {
      out += R"(,"type":"game_over","final_scores":[)";
      const int n = b[at++];
      for (int i = 0; i < n; ++i, at += 2) {
        if (i > 0) out += ',';
        append_int(out, get16(b, at));
      }
      out += R"(],"winners":)";
      seats_array(out, b[at]);
      out += '}';
      return at + 1;
    }
    default: {  // an expansion's entry
      const detail::ProtocolPart* part = detail::protocol_part_of_tag(tag);
      return part->write(out, static_cast<std::uint8_t>(tag - part->first_tag), b, at);
    }
  }
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
  by_kind[seat][static_cast<std::size_t>(s.kind)] += base;
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
