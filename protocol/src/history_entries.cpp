#include "history_entries.hpp"

#include <span>
#include <string_view>

#include "expansions/part.hpp"

namespace carc::protocol::history {
namespace {

constexpr std::uint8_t kNoPort = 0xFF;
constexpr int kExtraBit = 0x40;   // placed, the figure byte: the extra part of a turn
constexpr int kActionBit = 0x80;  // placed, the figure byte: an action's cell follows
constexpr int kElsewhereBit = 0x20;  // placed, the figure byte: the figure's other tile follows
constexpr int kTileExtraBit = 0x80;  // discarded, the tile byte: the extra part of a turn

// One value of an entry: its bytes, and its JSON (`,"<key>":...`).
enum class F : std::uint8_t {
  Turn,       // 2 bytes
  Seat,       // 1 byte
  Tile,       // 1 byte: the letter
  TileExtra,  // 1 byte: the letter, bit 7 the extra part (then `,"extra":true`)
  X, Y,       // 1 signed byte each: the cell
  Rotation,   // 1 byte: quarter turns, written in degrees
  Meeple,     // 1 byte: a port, or none (null)
  Figure,     // 1 byte: the figure (bits 0-3), kExtraBit, kActionBit and then the cell (2 bytes)
  Kind,       // 1 byte
  Flags,      // 1 byte: `"end"` (bit 0) and the parts' marks of a scored feature
  Points,     // 2 bytes
  Winners,    // 1 byte, bit per seat: `[s,...]`
  Meeples,    // a seat count, a byte a seat; then as many bonus bytes when Flags has kBonusFlag
  Tiles, Pennants, Cities,  // 1 byte each
  Cells,      // a count, then 2 bytes a cell
  Scores,     // a count, then 2 bytes a score
};
struct Field {
  F f;
  std::string_view key;  // with its comma and colon: `,"<key>":`
};
struct Entry {
  std::string_view type;  // `,"type":"<type>"`
  std::span<const Field> fields;
};

constexpr Field kPlacedFields[] = {{F::Turn, R"(,"turn":)"},         {F::Seat, R"(,"seat":)"}, {F::Tile, R"(,"tile":)"},
                                   {F::X, R"(,"x":)"},               {F::Y, R"(,"y":)"},       {F::Rotation, R"(,"rotation":)"},
                                   {F::Meeple, R"(,"meeple":)"},     {F::Figure, R"(,"figure":)"}};
constexpr Field kDiscardedFields[] = {{F::Turn, R"(,"turn":)"}, {F::Seat, R"(,"seat":)"}, {F::TileExtra, R"(,"tile":)"}};
constexpr Field kScoredFields[] = {{F::Turn, R"(,"turn":)"},   {F::Kind, R"(,"kind":)"},         {F::Flags, R"(,"end":)"},
                                   {F::Points, R"(,"points":)"}, {F::Winners, R"(,"seats":)"},   {F::Meeples, R"(,"meeples":)"},
                                   {F::Tiles, R"(,"tiles":)"}, {F::Pennants, R"(,"pennants":)"}, {F::Cities, R"(,"cities":)"},
                                   {F::Cells, R"(,"cells":)"}};
constexpr Field kGameOverFields[] = {{F::Scores, R"(,"final_scores":)"}, {F::Winners, R"(,"winners":)"}};
constexpr Field kExtraFields[] = {{F::Turn, R"(,"turn":)"}, {F::Seat, R"(,"seat":)"}};

constexpr std::array<Entry, kBaseTags> kEntries = {{{R"(,"type":"started")", {}},
                                                    {R"(,"type":"placed")", kPlacedFields},
                                                    {R"(,"type":"discarded")", kDiscardedFields},
                                                    {R"(,"type":"scored")", kScoredFields},
                                                    {R"(,"type":"game_over")", kGameOverFields},
                                                    {R"(,"type":"extra")", kExtraFields}}};

void key(std::string& out, std::string_view prefix) { out += prefix; }

// `,"<name>":` for a key known only at run time (the parts').
void named_key(std::string& out, std::string_view name) {
  out += ',';
  append_key(out, name);
}

void quoted(std::string& out, std::string_view s) {
  out += '"';
  out += s;
  out += '"';
}

}  // namespace

void encode(Bytes& b, Tag tag, const EntryValues& v) {
  put8(b, tag);
  for (const Field& field : kEntries[tag].fields) {
    switch (field.f) {
      case F::Turn: put16(b, v.turn); break;
      case F::Seat: put8(b, v.seat); break;
      case F::Tile: put8(b, v.tile); break;
      case F::TileExtra: put8(b, v.tile | (v.extra ? kTileExtraBit : 0)); break;
      case F::X: put8(b, v.cell.x); break;
      case F::Y: put8(b, v.cell.y); break;
      case F::Rotation: put8(b, v.rotation); break;
      case F::Meeple: put8(b, v.meeple ? static_cast<int>(*v.meeple) : kNoPort); break;
      case F::Figure:
        put8(b, static_cast<int>(v.figure) | (v.action ? kActionBit : 0) | (v.extra ? kExtraBit : 0) |
                    (v.figure_cell ? kElsewhereBit : 0));
        if (v.action) {
          put8(b, v.action->x);
          put8(b, v.action->y);
        }
        if (v.figure_cell) {
          put8(b, v.figure_cell->x);
          put8(b, v.figure_cell->y);
        }
        break;
      case F::Kind: put8(b, static_cast<int>(v.kind)); break;
      case F::Flags: put8(b, v.flags); break;
      case F::Points: put16(b, v.points); break;
      case F::Winners: put8(b, v.winners); break;
      case F::Meeples:
        put8(b, v.seats);
        for (int k = 0; k < v.seats; ++k) put8(b, (*v.meeples)[static_cast<std::size_t>(k)]);
        if ((v.flags & kBonusFlag) != 0) {
          for (int k = 0; k < v.seats; ++k) put8(b, (*v.bonus)[static_cast<std::size_t>(k)]);
        }
        break;
      case F::Tiles: put8(b, v.tiles); break;
      case F::Pennants: put8(b, v.pennants); break;
      case F::Cities: put8(b, v.cities); break;
      case F::Cells:
        put8(b, static_cast<int>(v.cells->size()));
        for (Cell c : *v.cells) {
          put8(b, c.x);
          put8(b, c.y);
        }
        break;
      case F::Scores:
        put8(b, static_cast<int>(v.scores->size()));
        for (int s : *v.scores) put16(b, s);
        break;
    }
  }
}

std::size_t write(std::string& out, Tag tag, const Bytes& b, std::size_t at) {
  out += kEntries[tag].type;
  int flags = 0;
  bool has_meeple = false;
  for (const Field& field : kEntries[tag].fields) {
    switch (field.f) {
      case F::Turn:
      case F::Points:
        key(out, field.key);
        append_int(out, get16(b, at));
        at += 2;
        continue;
      case F::Seat:
      case F::Tiles:
      case F::Pennants:
      case F::Cities:
        key(out, field.key);
        append_int(out, b[at++]);
        continue;
      case F::Tile:
      case F::TileExtra:
        key(out, field.key);
        quoted(out, tile_name(static_cast<Tile>(b[at] & (field.f == F::TileExtra ? 0x7F : 0xFF))));
        if (field.f == F::TileExtra && (b[at] & kTileExtraBit) != 0) out += R"(,"extra":true)";
        ++at;
        continue;
      case F::X:
      case F::Y:
        key(out, field.key);
        append_int(out, s8(b[at++]));
        continue;
      case F::Rotation:
        key(out, field.key);
        append_int(out, b[at++] * 90);
        continue;
      case F::Meeple:
        key(out, field.key);
        has_meeple = b[at] != kNoPort;
        if (has_meeple) quoted(out, port_name(static_cast<Port>(b[at])));
        else out += "null";
        ++at;
        continue;
      case F::Figure: {
        const int v = b[at++];
        const auto figure = static_cast<Figure>(v & 0x0F);
        if ((v & kExtraBit) != 0) out += R"(,"extra":true)";
        if (has_meeple && figure != Figure::Meeple) {
          key(out, field.key);
          quoted(out, figure_name(figure));
        }
        if ((v & kActionBit) != 0) {
          named_key(out, detail::action_key());
          cell_object(out, b, at);
          at += 2;
        }
        if ((v & kElsewhereBit) != 0) {
          named_key(out, detail::elsewhere_key());
          cell_object(out, b, at);
          at += 2;
        }
        continue;
      }
      case F::Kind:
        key(out, field.key);
        quoted(out, kind_name(static_cast<Kind>(b[at++])));
        continue;
      case F::Flags:
        flags = b[at++];
        key(out, field.key);
        append_bool(out, (flags & 1) != 0);
        for (const detail::ScoredFlag& f : detail::scored_flags()) {
          if ((flags & f.bit) != 0) {
            named_key(out, f.key);
            out += "true";
          }
        }
        continue;
      case F::Winners:
        key(out, field.key);
        seats_array(out, b[at++]);
        continue;
      case F::Meeples: {
        const int seats = b[at++];
        key(out, field.key);
        byte_array(out, b, at, seats);
        at += static_cast<std::size_t>(seats);
        if ((flags & kBonusFlag) != 0) {  // winners' points beyond `points`, per seat
          out += R"(,"bonus":)";
          byte_array(out, b, at, seats);
          at += static_cast<std::size_t>(seats);
        }
        continue;
      }
      case F::Cells: {
        key(out, field.key);
        out += '[';
        const int n = b[at++];
        for (int i = 0; i < n; ++i, at += 2) {
          if (i > 0) out += ',';
          cell_object(out, b, at);
        }
        out += ']';
        continue;
      }
      case F::Scores: {
        key(out, field.key);
        out += '[';
        const int n = b[at++];
        for (int i = 0; i < n; ++i, at += 2) {
          if (i > 0) out += ',';
          append_int(out, get16(b, at));
        }
        out += ']';
        continue;
      }
    }
  }
  out += '}';
  return at;
}

}  // namespace carc::protocol::history
