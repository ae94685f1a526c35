#include "carc/protocol/move_codec.hpp"

#include <charconv>
#include <initializer_list>

namespace carc::protocol {

namespace {

// Splits off the text up to the next comma (or the end).
std::string_view next_field(std::string_view& rest) {
  const auto comma = rest.find(',');
  std::string_view field = rest.substr(0, comma);
  rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  return field;
}

bool parse_int(std::string_view s, int lo, int hi, int* out) {
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

void append_ints(std::string& out, std::initializer_list<int> values) {
  char buf[16];
  for (const int v : values) {
    out += ',';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
}

}  // namespace

void append_move_text(std::string& out, const Move& m) {
  if (m.type == Move::Type::Step) {
    out += "step";
    append_ints(out, {m.placement.cell.x, m.placement.cell.y});
    return;
  }
  out += tile_name(m.tile);
  if (m.type == Move::Type::Discard) {
    out += ",discard";
    return;
  }
  char buf[48];
  const auto& c = m.placement.cell;
  char* p = buf;
  for (const int v : {c.x, c.y, m.placement.rotation.degrees()}) {
    *p++ = ',';
    p = std::to_chars(p, buf + sizeof buf, v).ptr;
  }
  out.append(buf, p);
  if (m.meeple) {
    out += ',';
    out += port_name(*m.meeple);
    if (m.figure != Figure::Meeple) {
      out += ',';
      out += figure_name(m.figure);
    }
    if (m.figure_cell) {
      out += ",on";
      append_ints(out, {m.figure_cell->x, m.figure_cell->y});
    }
  }
  if (m.action && m.action_kind != 0 && m.action_port) {
    out += ",act";
    append_ints(out, {m.action_kind, m.action->x, m.action->y});
    out += ',';
    out += port_name(*m.action_port);
  } else if (m.action) {
    p = buf;
    for (const int v : {m.action->x, m.action->y}) {
      *p++ = ',';
      p = std::to_chars(p, buf + sizeof buf, v).ptr;
    }
    out += ",return";
    out.append(buf, p);
  }
}

std::string move_text(const Move& m) {
  std::string out;
  append_move_text(out, m);
  return out;
}

std::optional<Move> parse_move_text(std::string_view text, std::string* why) {
  if (text.ends_with(',')) {
    *why = "a move ends with a comma";
    return std::nullopt;
  }
  std::string_view rest = text;
  const std::string_view letter = next_field(rest);
  constexpr int kFar = 1'000'000;  // far-away cells are simply illegal, as in records (parse_move)
  if (letter == "step") {
    int x = 0, y = 0;
    if (!parse_int(next_field(rest), -kFar, kFar, &x) || !parse_int(rest, -kFar, kFar, &y)) {
      *why = "a step needs integer x and y";
      return std::nullopt;
    }
    return Move::step(Cell{x, y});
  }
  const auto tile = tile_from_name(letter);
  if (!tile) {
    *why = "unknown tile \"" + std::string(letter.substr(0, 8)) + "\"";
    return std::nullopt;
  }
  if (rest == "discard") return Move::discard(*tile);
  int x = 0, y = 0, degrees = 0;
  if (!parse_int(next_field(rest), -kFar, kFar, &x) || !parse_int(next_field(rest), -kFar, kFar, &y)) {
    *why = "a placement needs integer x and y";
    return std::nullopt;
  }
  std::optional<Rotation> rotation;
  if (parse_int(next_field(rest), 0, 270, &degrees)) rotation = Rotation::from_degrees(degrees);
  if (!rotation) {
    *why = "the rotation must be 0, 90, 180 or 270";
    return std::nullopt;
  }
  std::optional<Port> meeple;
  Figure figure = Figure::Meeple;
  if (!rest.empty()) {
    const std::string_view port = next_field(rest);
    if (port == "return") {
      int rx = 0, ry = 0;
      if (!parse_int(next_field(rest), -kFar, kFar, &rx) || !parse_int(rest, -kFar, kFar, &ry)) {
        *why = "a take-back needs integer x and y";
        return std::nullopt;
      }
      return Move::place_with_action(*tile, Cell{x, y}, *rotation, Cell{rx, ry});
    }
    if (port == "act") {
      int kind = 0, ax = 0, ay = 0;
      std::optional<Port> at;
      if (!parse_int(next_field(rest), 1, 255, &kind) || !parse_int(next_field(rest), -kFar, kFar, &ax) ||
          !parse_int(next_field(rest), -kFar, kFar, &ay) || !(at = port_from_name(rest))) {
        *why = "an action with a target needs its kind, integer x and y and a port";
        return std::nullopt;
      }
      return Move::place_with_target(*tile, Cell{x, y}, *rotation, static_cast<std::uint8_t>(kind), Cell{ax, ay}, *at);
    }
    meeple = port_from_name(port);
    if (!meeple) {
      *why = "unknown meeple port \"" + std::string(port.substr(0, 8)) + "\"";
      return std::nullopt;
    }
    if (!rest.empty() && !rest.starts_with("on,")) {
      const std::string_view name = next_field(rest);
      const auto f = figure_from_name(name);
      if (!f) {
        *why = "unknown figure \"" + std::string(name.substr(0, 8)) + "\"";
        return std::nullopt;
      }
      figure = *f;
    }
  }
  Move m = Move::place(*tile, Cell{x, y}, *rotation, meeple, figure);
  if (!rest.empty()) {
    int fx = 0, fy = 0;
    if (!meeple || next_field(rest) != "on" || !parse_int(next_field(rest), -kFar, kFar, &fx) ||
        !parse_int(rest, -kFar, kFar, &fy)) {
      *why = "a figure on another tile is \"on,<x>,<y>\" after its port";
      return std::nullopt;
    }
    m.figure_cell = Cell{fx, fy};
  }
  return m;
}

}  // namespace carc::protocol
