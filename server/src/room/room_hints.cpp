// Hints (docs/protocol-details.md): the player whose turn it is asks what the medium computer player would
// play. The move is computed on the bot pool (never on the room's strand), sent to that
// player only, and counted in players[].hints. A second ask in the same turn gets the
// first answer again and is not counted again. The count is a stored action (HintGiven),
// so it survives a restart; the hint is sent once it is stored.
#include "carc/protocol/json.hpp"
#include "carc/protocol/json_text.hpp"
#include "carc/protocol/record.hpp"
#include "base/random.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

using protocol::ErrorCode;
using protocol::RoomPhase;

void RoomLogic::on_hint(Member& m, std::int64_t, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only a player can ask for a hint");
  if (phase_ == RoomPhase::Lobby || !game_) return refuse(*m.client, ErrorCode::NotStarted, "the game has not started");
  if (phase_ == RoomPhase::Finished || game_->finished()) {
    return refuse(*m.client, ErrorCode::GameOver, "the game is over");
  }
  if (!hints_on()) return refuse(*m.client, ErrorCode::HintsOff, "hints are off in this room");
  if (game_->current_seat() != m.seat || game_->in_stage()) return refuse(*m.client, ErrorCode::NotYourTurn, "a hint is for your own turn");
  const int turn = game_->moves_played();
  if (hint_turn_ == turn && hint_move_) return send_hint(*m.client, *hint_move_);
  if (hint_turn_ == turn && hint_ticket_ != 0) return;  // being computed: the answer goes to the seat
  std::uint64_t ticket = 0;
  while (ticket == 0) ticket = random_seed();
  hint_ticket_ = ticket;
  hint_turn_ = turn;
  hint_move_.reset();
  BotRequest r;
  r.ticket = ticket;
  r.seat = game_->current_seat();
  r.level = protocol::BotLevel::Medium;
  r.seed = think_seed(turn, r.seat);
  r.game = std::make_shared<const Game>(*game_);
  fx.hint = std::move(r);
}

void RoomLogic::hint_ready(std::uint64_t ticket, const std::optional<Move>& move, Effects& fx) {
  if (changes_.busy()) return defer(DeferredHint{ticket, move});
  if (ticket != hint_ticket_) return;
  hint_ticket_ = 0;
  if (!game_ || game_->finished() || game_->moves_played() != hint_turn_) return;  // the turn has passed
  SeatState& s = seats_.at(game_->current_seat());
  if (!move) {
    hint_turn_ = -1;
    if (s.holder != nullptr) refuse(*s.holder, ErrorCode::Unavailable, "no hint could be computed; try again");
    return;
  }
  hint_move_ = *move;
  if (hint_counted_turn_ == hint_turn_) {  // counted before a restart: not again
    if (s.holder != nullptr) send_hint(*s.holder, *move);
    return;
  }
  const RoomAction action = HintGiven{game_->current_seat(), hint_turn_};
  store(PendingAction{nullptr, action}, action, false, fx, SteadyClock::now());
}

void RoomLogic::hint_given(const HintGiven& h, Effects& fx) {
  ++seats_.at(h.seat).hints;
  hint_counted_turn_ = h.turn;
  publish(nullptr, fx, changes_.received());
  Client* holder = seats_.at(h.seat).holder;
  if (holder != nullptr && hint_move_ && hint_turn_ == h.turn) send_hint(*holder, *hint_move_);
}

void RoomLogic::send_hint(Client& c, const Move& move) const {
  // {"type":"hint","turn":N,"move":{...the record's move object...}}
  std::string frame = R"({"type":"hint","turn":)";
  protocol::append_int(frame, events_.turn_number(game_->in_extra_part()));  // turn.number
  frame += R"(,"move":)";
  frame += protocol::json_text(protocol::move_json(move));
  frame += '}';
  c.send(std::make_shared<const std::string>(std::move(frame)));
}

}  // namespace carc::server
