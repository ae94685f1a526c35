// The room's answers to client messages. Each request is checked in one fixed order
// (joined? game running? your turn? fresh version? legal placement? legal meeple?) and
// every refusal gets exactly one error code; a refused request changes nothing.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "carc/protocol/json_text.hpp"
#include "base/metrics.hpp"
#include "base/visit_overload.hpp"
#include "base/random.hpp"
#include "limits/rate_limit.hpp"
#include "room/room_logic.hpp"
#include "keys/seat_seal.hpp"

namespace carc::server {

using protocol::ErrorCode;
using protocol::RoomPhase;

namespace {

std::optional<ErrorCode> error_of(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return ErrorCode::GameOver;
    case RuleError::NotYourTurn: return ErrorCode::NotYourTurn;
    case RuleError::IllegalPlacement: return ErrorCode::IllegalPlacement;
    case RuleError::IllegalMeeple: return ErrorCode::IllegalMeeple;
    case RuleError::IllegalReturn: return ErrorCode::IllegalReturn;
    default: return std::nullopt;
  }
}

}  // namespace

void RoomLogic::on_message(Member& m, const protocol::ClientMessage& msg, std::int64_t now_ms,
                           SteadyClock::time_point t0, Effects& fx) {
  std::visit(Overload{
                 [&](const protocol::JoinMsg& v) { on_join(m, v, now_ms, t0, fx); },
                 [&](const protocol::WatchMsg&) { on_watch(m, now_ms, fx); },
                 [&](const protocol::StartMsg&) { on_start(m, now_ms, t0, fx); },
                 [&](const protocol::PlayMsg& v) { on_play(m, v, now_ms, t0, fx); },
                 [&](const protocol::ChatMsg& v) { on_chat(m, v, now_ms, t0, fx); },
                 [&](const protocol::ResyncMsg&) { on_resync(m, now_ms); },
                 [&](const protocol::AddBotMsg& v) { on_add_bot(m, v, t0, fx); },
                 [&](const protocol::RemoveBotMsg& v) { on_remove_bot(m, v, t0, fx); },
                 [&](const protocol::SettingsMsg& v) { on_settings(m, v, t0, fx); },
                 [&](const protocol::LeaveMsg&) { on_leave(m, t0, fx); },
                 [&](const protocol::KickMsg& v) { on_kick(m, v, t0, fx); },
                 [&](const protocol::RematchMsg&) { on_rematch(m, now_ms, fx); },
                 [&](const protocol::PushSubscribeMsg& v) { on_push_subscribe(m, v, t0, fx); },
                 [&](const protocol::PushUnsubscribeMsg&) { on_push_unsubscribe(m, t0, fx); },
                 [&](const protocol::HintMsg&) { on_hint(m, now_ms, fx); },
                 [&](const protocol::OpenMsg& v) { on_open(m, v, now_ms); },
                 [&](const protocol::StepMsg& v) { on_step(m, v, now_ms, t0, fx); },
             },
             msg);
}

void RoomLogic::on_join(Member& m, const protocol::JoinMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0,
                        Effects& fx) {
  if (msg.token) {
    const std::string hash = sha256_hex(*msg.token);
    const int seat = seats_.by_token_hash(hash);
    if (seat < 0) return refuse(*m.client, ErrorCode::BadToken, "this token matches no seat of this room");
    SeatState* it = &seats_.at(seat);
    if (m.role == Role::Player && m.seat != seat) {
      return refuse(*m.client, ErrorCode::BadMessage, "this connection already plays another seat");
    }
    if (m.role == Role::Player) return welcome(m, *msg.token, now_ms);  // nothing changes
    if (it->holder != nullptr && it->holder != m.client.get()) {
      if (Member* old = find(it->holder)) {
        old->role = Role::None;
        old->seat = -1;
        old->client->close(CloseReason::Replaced);
      }
    }
    if (m.role == Role::Spectator) --spectators_;
    m.role = Role::Player;
    m.seat = seat;
    it->holder = m.client.get();
    it->token = *msg.token;
    spdlog::info("room {}: seat {} ({}) reconnected", id_, seat, it->name);
    begin_change();
    seat_back(*it);
    publish(m.client.get(), fx, t0);
    welcome(m, *msg.token, now_ms);
    if (!rematch_.empty()) send_rematch(m);
    return maybe_think(now_ms, fx);
  }

  if (m.role == Role::Player) return refuse(*m.client, ErrorCode::BadMessage, "this connection already has a seat");
  if (phase_ != RoomPhase::Lobby || seats_.count() >= max_seats()) {
    // Late joiners watch.
    m.name = *msg.name;
    if (m.role == Role::Spectator) return welcome(m, std::nullopt, now_ms);
    m.role = Role::Spectator;
    ++spectators_;
    begin_change();
    publish(m.client.get(), fx, t0);
    return welcome(m, std::nullopt, now_ms);
  }
  std::string token = random_id(kTokenBytes);
  const int seat = static_cast<int>(seats_.size());
  SeatTaken taken{seat, *msg.name, sha256_hex(token), std::nullopt, seats_.host() < 0, seat_seal_key(token)};
  const RoomAction action = taken;
  store(PendingJoin{m.client, std::move(token), std::move(taken)}, action, false, fx, t0);
}

void RoomLogic::on_watch(Member& m, std::int64_t now_ms, Effects& fx) {
  if (m.role == Role::Player) {
    return refuse(*m.client, ErrorCode::BadMessage, "a player cannot watch; close the seat's connection first");
  }
  if (m.role == Role::Spectator) return welcome(m, std::nullopt, now_ms);
  m.role = Role::Spectator;
  ++spectators_;
  begin_change();
  publish(m.client.get(), fx);
  welcome(m, std::nullopt, now_ms);
}

void RoomLogic::on_start(Member& m, std::int64_t now_ms, SteadyClock::time_point t0, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only the host can start the game");
  if (m.seat != seats_.host()) return refuse(*m.client, ErrorCode::NotHost, "only the host can start the game");
  if (phase_ == RoomPhase::Finished) return refuse(*m.client, ErrorCode::GameOver, "the game is over");
  if (phase_ == RoomPhase::Playing) return refuse(*m.client, ErrorCode::BadMessage, "the game has already started");
  if (seats_.size() < static_cast<std::size_t>(kMinPlayers)) {
    return refuse(*m.client, ErrorCode::NotEnoughPlayers,
                  "a game needs 2 to " + std::to_string(max_seats()) + " players");
  }
  const RoomAction action = GameStarted{static_cast<int>(seats_.size()), game_seed(), now_ms};
  store(PendingAction{m.client, action}, action, true, fx, t0);
}

void RoomLogic::on_play(Member& m, const protocol::PlayMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0,
                        Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "join the game to play");
  if (phase_ == RoomPhase::Lobby) return refuse(*m.client, ErrorCode::NotStarted, "the game has not started");
  if (phase_ == RoomPhase::Finished) return refuse(*m.client, ErrorCode::GameOver, over_text());
  // During a series of steps inside the turn (Game::in_stage) nobody plays a tile.
  if (game_->current_seat() != m.seat || game_->in_stage()) {
    return refuse(*m.client, ErrorCode::NotYourTurn, "it is not your turn");
  }
  if (msg.version < game_version_) {
    return refuse(*m.client, ErrorCode::StaleVersion, "the game changed since version " + std::to_string(msg.version));
  }
  // A client decides on a state it was sent: a version the room has not reached is not one.
  if (msg.version > version_) {
    return refuse(*m.client, ErrorCode::BadMessage,
                  "version " + std::to_string(msg.version) + " is ahead of the room's state (" + std::to_string(version_) + ")");
  }
  // What apply() cannot be given: a cell far off the board, a rotation that is not one,
  // a port that does not exist. Everything else is the rules' question.
  const auto held = game_->held(m.seat);
  const auto rotation = Rotation::from_degrees(msg.rotation);
  constexpr std::int64_t kFar = 1000;
  if (!held || !rotation || msg.x < -kFar || msg.x > kFar || msg.y < -kFar || msg.y > kFar) {
    return refuse(*m.client, ErrorCode::IllegalPlacement, "the tile cannot go there with this rotation");
  }
  std::optional<Port> port;
  if (msg.meeple) {
    port = port_from_name(*msg.meeple);
    if (!port) return refuse(*m.client, ErrorCode::IllegalMeeple, "no such meeple port");
  }
  const Figure figure = msg.figure ? figure_from_name(*msg.figure).value_or(Figure::Meeple) : Figure::Meeple;
  if (msg.figure && game_->rules().figures[static_cast<std::size_t>(figure)] == 0) {
    return refuse(*m.client, ErrorCode::IllegalMeeple, "this game has no " + *msg.figure);
  }
  Move move = Move::place(*held, Cell{static_cast<int>(msg.x), static_cast<int>(msg.y)}, *rotation, port, figure);
  if (msg.action) {
    const auto [rx, ry] = *msg.action;
    if (rx < -kFar || rx > kFar || ry < -kFar || ry > kFar) {
      if (msg.action_kind != 0) return refuse(*m.client, protocol::target_refusal(msg.action_kind), "nothing there for this action");
      return refuse(*m.client, ErrorCode::IllegalReturn, "you have no figure there to take back");
    }
    move.action = Cell{static_cast<int>(rx), static_cast<int>(ry)};
    move.action_kind = msg.action_kind;
    move.action_port = msg.action_port;
  }
  if (msg.figure_cell) {
    const auto [fx_, fy] = *msg.figure_cell;
    if (fx_ < -kFar || fx_ > kFar || fy < -kFar || fy > kFar) {
      return refuse(*m.client, ErrorCode::IllegalMeeple, "the figure cannot go there");
    }
    move.figure_cell = Cell{static_cast<int>(fx_), static_cast<int>(fy)};
  }
  std::vector<Event> events;
  auto next = try_move(move, events);
  if (const auto* err = std::get_if<RuleError>(&next)) {
    const ErrorCode code = *err == RuleError::IllegalTarget ? protocol::target_refusal(move.action_kind)
                                                            : error_of(*err).value_or(ErrorCode::BadMessage);
    return refuse(*m.client, code, rule_error_message(*err));
  }
  const MovePlayed action{moves_, m.seat, move, false, now_ms};
  store(PendingMove{m.client, action, std::move(std::get<PackedGame>(next)), std::move(events)}, action,
        true, fx, t0);
}

// A step inside another seat's turn (an expansion's stage: Game::in_stage): only the seat
// whose step it is (Game::acting_seat) makes it, to one of the step's options.
void RoomLogic::on_step(Member& m, const protocol::StepMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0,
                        Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "join the game to play");
  if (phase_ == RoomPhase::Lobby) return refuse(*m.client, ErrorCode::NotStarted, "the game has not started");
  if (phase_ == RoomPhase::Finished) return refuse(*m.client, ErrorCode::GameOver, over_text());
  if (!game_->in_stage()) return refuse(*m.client, ErrorCode::BadMessage, "no step is due now");
  if (game_->acting_seat() != m.seat) return refuse(*m.client, ErrorCode::NotYourTurn, "this step is another seat's");
  if (msg.version < game_version_) {
    return refuse(*m.client, ErrorCode::StaleVersion, "the game changed since version " + std::to_string(msg.version));
  }
  if (msg.version > version_) {
    return refuse(*m.client, ErrorCode::BadMessage,
                  "version " + std::to_string(msg.version) + " is ahead of the room's state (" + std::to_string(version_) + ")");
  }
  constexpr std::int64_t kFar = 1000;
  if (msg.x < -kFar || msg.x > kFar || msg.y < -kFar || msg.y > kFar) {
    return refuse(*m.client, protocol::step_refusal(), "the step cannot go there");
  }
  const Move move = Move::step(Cell{static_cast<int>(msg.x), static_cast<int>(msg.y)});
  std::vector<Event> events;
  auto next = try_move(move, events);
  if (const auto* err = std::get_if<RuleError>(&next)) {
    const ErrorCode code = *err == RuleError::IllegalStep ? protocol::step_refusal()
                                                          : error_of(*err).value_or(ErrorCode::BadMessage);
    return refuse(*m.client, code, rule_error_message(*err));
  }
  const MovePlayed action{moves_, m.seat, move, false, now_ms};
  store(PendingMove{m.client, action, std::move(std::get<PackedGame>(next)), std::move(events)}, action,
        true, fx, t0);
}

void RoomLogic::on_chat(Member& m, const protocol::ChatMsg& msg, std::int64_t now_ms, SteadyClock::time_point t0,
                        Effects& fx) {
  if (m.role == Role::None) return refuse(*m.client, ErrorCode::NotJoined, "join or watch to chat");
  // Every line is stored with the room for good: one room's chat has a bound.
  if (chat_lines_stored_ >= bounds_.chat_lines || chat_bytes_stored_ + msg.text.size() > bounds_.chat_bytes) {
    return refuse(*m.client, ErrorCode::LimitReached,
                  "this room's chat is full (" + std::to_string(bounds_.chat_lines) + " lines or " +
                      std::to_string(bounds_.chat_bytes / 1024) + " KiB kept with the game)");
  }
  ChatPosted posted{next_chat_id_, std::nullopt, m.name.empty() ? std::string("spectator") : m.name, msg.text, now_ms};
  if (m.role == Role::Player) {
    posted.seat = m.seat;
    posted.name = seats_[static_cast<std::size_t>(m.seat)].name;
  }
  const RoomAction action = std::move(posted);
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_resync(Member& m, std::int64_t now_ms) {
  // Only members get patches; a connection that has not joined or watched asks for a state
  // it would not keep up to date.
  if (m.role == Role::None) return refuse(*m.client, ErrorCode::NotJoined, "join or watch first");
  std::string frame = R"({"type":"state","version":)";
  protocol::append_int(frame, version_);
  frame += R"(,"server_time":)";
  protocol::append_int(frame, now_ms);
  send_with_state(m, std::move(frame), now_ms);
}

// ---- the host's lobby: computer players, settings, kicks; leaving; rematches ----

bool RoomLogic::host_in_lobby(Member& m, std::string_view what) {
  const std::string action(what);
  if (m.role != Role::Player) {
    refuse(*m.client, ErrorCode::NotJoined, "only the host can " + action);
  } else if (m.seat != seats_.host()) {
    refuse(*m.client, ErrorCode::NotHost, "only the host can " + action);
  } else if (phase_ == RoomPhase::Finished) {
    refuse(*m.client, ErrorCode::GameOver, "the game is over");
  } else if (phase_ == RoomPhase::Playing) {
    refuse(*m.client, ErrorCode::BadMessage, "the game has started: " + action + " only in the lobby");
  } else {
    return true;
  }
  return false;
}

void RoomLogic::on_add_bot(Member& m, const protocol::AddBotMsg& msg, SteadyClock::time_point t0, Effects& fx) {
  if (!host_in_lobby(m, "add a computer player")) return;
  if (seats_.count() >= max_seats()) {
    return refuse(*m.client, ErrorCode::RoomFull, "all " + std::to_string(max_seats()) + " seats are taken");
  }
  const int seat = static_cast<int>(seats_.size());
  std::string name = "Bot " + std::to_string(seat + 1) + " (" + std::string(protocol::bot_level_name(msg.level)) + ")";
  const RoomAction action = SeatTaken{seat, std::move(name), std::string(), msg.level, false};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_remove_bot(Member& m, const protocol::RemoveBotMsg& msg, SteadyClock::time_point t0, Effects& fx) {
  if (!host_in_lobby(m, "remove a computer player")) return;
  if (msg.seat < 0 || msg.seat >= static_cast<std::int64_t>(seats_.size()) ||
      !seats_[static_cast<std::size_t>(msg.seat)].bot) {
    return refuse(*m.client, ErrorCode::BadMessage, "seat " + std::to_string(msg.seat) + " is not a computer player");
  }
  const RoomAction action = SeatFreed{static_cast<int>(msg.seat), SeatFreed::Reason::BotRemoved};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_settings(Member& m, const protocol::SettingsMsg& msg, SteadyClock::time_point t0, Effects& fx) {
  if (msg.webhook) {
    if (msg.lobby_keys_given()) {
      return refuse(*m.client, ErrorCode::BadMessage, "settings: set the webhook in a message of its own");
    }
    return on_webhook(m, msg, t0, fx);
  }
  if (!host_in_lobby(m, "change the clock")) return;
  SettingsChanged next{settings_.turn_seconds, settings_.away_seconds, settings_.expansions, settings_.pace,
                       settings_.bank_seconds, settings_.increment_seconds, hints_choice_};
  if (msg.turn_seconds) next.turn_seconds = *msg.turn_seconds;
  if (msg.away_seconds) next.away_seconds = *msg.away_seconds;
  if (msg.expansions) next.expansions = *msg.expansions;
  if (msg.pace) next.pace = *msg.pace;
  if (msg.bank_seconds) next.bank_seconds = *msg.bank_seconds;
  if (msg.increment_seconds) next.increment_seconds = *msg.increment_seconds;
  if (msg.hints) next.hints = *msg.hints;
  next.options = msg.options ? *msg.options : settings_.options;
  // More seats than the chosen expansions allow: leaving them out with that many seated changes nothing.
  if (seats_.count() > ruleset(next.expansions).max_players) {
    return refuse(*m.client, ErrorCode::BadMessage,
                  std::to_string(seats_.count()) + " players are seated: a game with these expansions has at most " +
                      std::to_string(ruleset(next.expansions).max_players));
  }
  const RoomAction action = next;
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_leave(Member& m, SteadyClock::time_point t0, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "you hold no seat to leave");
  if (phase_ != RoomPhase::Lobby) {
    return refuse(*m.client, ErrorCode::BadMessage,
                  "a game seat is kept for its player; a computer player covers it while you are away");
  }
  const RoomAction action = SeatFreed{m.seat, SeatFreed::Reason::Left};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_kick(Member& m, const protocol::KickMsg& msg, SteadyClock::time_point t0, Effects& fx) {
  if (!host_in_lobby(m, "remove a player")) return;
  if (msg.seat < 0 || msg.seat >= static_cast<std::int64_t>(seats_.size())) {
    return refuse(*m.client, ErrorCode::BadMessage, "there is no seat " + std::to_string(msg.seat));
  }
  if (msg.seat == m.seat) return refuse(*m.client, ErrorCode::BadMessage, "to give up your own seat, leave");
  const RoomAction action = SeatFreed{static_cast<int>(msg.seat), SeatFreed::Reason::Kicked};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_rematch(Member& m, std::int64_t, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only a player of this game can ask for a rematch");
  if (phase_ != RoomPhase::Finished) return refuse(*m.client, ErrorCode::BadMessage, "the game is not finished yet");
  if (!rematch_.empty()) return send_rematch(m);
  if (rematch_asked_) return;  // being created: everybody connected hears of it
  // A new room: counted against the asker's address like POST /api/rooms.
  if (const double wait = m.client->take_room_token(); wait > 0) {
    metrics_.rooms_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return refuse(*m.client, ErrorCode::RateLimited,
                  "too many new games from your address; try again in " + std::to_string(retry_after_seconds(wait)) + " s");
  }
  rematch_asked_ = true;
  // The same seats rotated by one, so that another player starts; the same host and clock.
  // A game against the computer (one human) keeps its seats, so the player keeps their
  // colour and place ("Play again").
  RematchRequest r;
  const int n = static_cast<int>(seats_.size());
  const auto humans = std::count_if(seats_.begin(), seats_.end(), [](const SeatState& s) { return !s.bot; });
  const int shift = humans == 1 ? 0 : 1;
  rematch_sealing_.assign(static_cast<std::size_t>(n), std::string());
  for (int k = 0; k < n; ++k) {
    const int from = (k + shift) % n;
    const SeatState& s = seats_[static_cast<std::size_t>(from)];
    SeatTaken seat{k, s.name, std::string(), s.bot, from == seats_.host()};
    if (!s.bot) {
      // A fresh token, whose hash goes to the new room and which this room keeps only sealed
      // to the player's seat here: it opens with their token, which the database never holds.
      const std::string key = !s.seal_key.empty() ? s.seal_key : s.token.empty() ? std::string() : seat_seal_key(s.token);
      const std::string token = random_id(kTokenBytes);
      std::string sealed = key.empty() ? std::string() : seal_to_seat(key, rematch_seal_context(id_, from), token);
      if (!sealed.empty()) {
        seat.token_hash = sha256_hex(token);
        seat.seal_key = seat_seal_key(token);
      } else {
        // A seat stored before seats had a seal key, whose player is away: nothing can be
        // sealed to them, so they keep their token (the database has only its hash).
        seat.token_hash = s.token_hash;
        sealed = "=";
      }
      rematch_sealing_[static_cast<std::size_t>(from)] = std::move(sealed);
    }
    r.actions.push_back(std::move(seat));
  }
  SettingsChanged same{settings_.turn_seconds, settings_.away_seconds, settings_.expansions,
                       settings_.pace,        settings_.bank_seconds, settings_.increment_seconds,
                       hints_choice_};
  same.options = settings_.options;  // a rematch keeps the options (docs/options.md)
  r.actions.push_back(same);
  fx.rematch = std::move(r);
}

void RoomLogic::send_rematch(Member& m) {
  const SeatState& seat = seats_[static_cast<std::size_t>(m.seat)];
  std::string token;
  if (rematch_seats_.empty()) {
    token = rematch_token(seat.token_hash, rematch_);  // a rematch made before tokens were sealed
  } else if (static_cast<std::size_t>(m.seat) < rematch_seats_.size()) {
    const std::string& sealed = rematch_seats_[static_cast<std::size_t>(m.seat)];
    if (sealed == "=") token = seat.token;
    else if (auto opened = open_as_seat(seat.token, rematch_seal_context(id_, m.seat), sealed)) token = std::move(*opened);
  }
  if (token.empty()) {
    spdlog::error("room {}: seat {}'s rematch token cannot be opened", id_, m.seat);
    return refuse(*m.client, ErrorCode::Unavailable, "your seat in the rematch cannot be found");
  }
  std::string frame = R"({"type":"rematch","room":)";
  protocol::append_json_string(frame, rematch_);
  frame += R"(,"token":)";
  protocol::append_json_string(frame, token);
  frame += '}';
  m.client->send(std::make_shared<const std::string>(std::move(frame)));
}

void RoomLogic::rematch_created(const std::string& room, std::int64_t now_ms, Effects& fx) {
  if (changes_.busy()) return defer(DeferredRematch{room});
  rematch_asked_ = false;
  if (room.empty()) {
    rematch_sealing_.clear();
    for (auto& m : members_) {
      if (m.role == Role::Player) refuse(*m.client, ErrorCode::Unavailable, "the rematch could not be created; try again");
    }
    return;
  }
  const RoomAction action = RematchCreated{room, std::exchange(rematch_sealing_, {})};
  store(PendingAction{nullptr, action}, action, false, fx, {});
  (void)now_ms;
}

}  // namespace carc::server
