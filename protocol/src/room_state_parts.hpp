// The pieces of the public state that both the whole document (room_state.cpp) and the
// patches (state_patcher.cpp) write, so that both always write them the same way.
// Internal to carc::protocol.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "carc/protocol/room_state.hpp"

namespace carc::protocol::detail {

void append_letter(std::string& out, std::optional<Tile> t);  // "V" or null
void append_name(std::string& out, std::string_view s);         // a quoted plain name

int score_of(const RoomFacts& f, int seat);
int meeples_of(const RoomFacts& f, int seat);
std::optional<Tile> tile_of(const RoomFacts& f, int seat);
// Special figures in supply (index by Figure); the lobby shows the game's starting supply.
std::array<int, kFigureKinds> figures_of(const RoomFacts& f, int seat);
void write_figures(std::string& out, const Ruleset& rules, const std::array<int, kFigureKinds>& figures);
// Tokens (Game::tokens): the part of the expansion that keeps them in the room's game, or
// null; each seat's (the lobby: none yet); `{"<kind>":N,...}` under the part's key.
struct ProtocolPart;
const ProtocolPart* token_part(const RoomFacts& f);
std::array<int, kMaxTokenKinds> tokens_of(const RoomFacts& f, int seat);
void write_tokens(std::string& out, const ProtocolPart& part, int kinds, const std::array<int, kMaxTokenKinds>& tokens);

std::array<int, kTileKinds> bag_of(const Game* g, const Ruleset& rules, int* left);
void write_bag(std::string& out, const Game* g, const Ruleset& rules);
void write_players(std::string& out, const RoomFacts& f);

}  // namespace carc::protocol::detail
