// A move in its compact stored form (no JSON): the server's action log keeps one per
// stored move, and reads them back without building a JSON tree.
//
//   placement  "<tile>,<x>,<y>,<rotation>[,<meeple port>[,<figure>]]"   e.g. "D,2,-1,90,N"  "V,0,1,0"
//              (the figure only when not a meeple: "B,0,1,0,C,<figure>")
//   action     "<tile>,<x>,<y>,<rotation>,return,<x>,<y>"             e.g. "E,0,-1,180,return,1,0"
//   discard    "<tile>,discard"                                        e.g. "X,discard"
//   elsewhere  a placement's figure on another tile (Move::figure_cell): ",on,<x>,<y>" after
//              the port and figure                                     e.g. "P18,1,0,0,C,on,2,3"
//   target     an action with a target (Move::action_kind k > 0):
//              "<tile>,<x>,<y>,<rotation>,act,<k>,<x>,<y>,<port>"      e.g. "P24,0,1,0,act,2,1,1,N"
//   step       a step inside a turn (Move::step): "step,<x>,<y>"     e.g. "step,1,0"
//
// The names are the record format's (docs/record-format.md): tile ids, rotations in
// degrees, port names. The record entry (JSON) form is move_json / parse_move in record.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "carc/core/game.hpp"

namespace carc::protocol {

void append_move_text(std::string& out, const Move& m);
std::string move_text(const Move& m);
// The move, or nullopt with `*why` saying what is wrong. Never throws.
std::optional<Move> parse_move_text(std::string_view text, std::string* why);

}  // namespace carc::protocol
