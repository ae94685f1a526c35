#include "room/room_logic.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json_text.hpp"
#include "carc/core/projection.hpp"
#include "carc/protocol/record.hpp"
#include "base/metrics.hpp"
#include "base/visit_overload.hpp"
#include "base/random.hpp"

namespace carc::server {

using protocol::ErrorCode;
using protocol::RoomPhase;

// Rematches made before seats were sealed (their RematchCreated has no seats): the new
// room holds the hashes of these tokens, so they are still handed out. Anyone who reads the
// stored hashes can compute them, which is why new rematches seal fresh tokens instead.
std::string rematch_token(std::string_view old_hash, std::string_view new_room) {
  std::string seed = "rematch:";
  seed += old_hash;
  seed += ':';
  seed += new_room;
  return sha256_hex(seed);
}

std::string rematch_seal_context(std::string_view old_room, int seat) {
  return "rematch seat " + std::string(old_room) + " " + std::to_string(seat);
}

RoomLogic::RoomLogic(std::string id, Metrics& metrics) : id_(std::move(id)), metrics_(metrics) {
  const auto seats = seats_.facts(settings_.turn_based());
  patcher_.reset(facts(seats), 1, 0);
}

std::variant<std::unique_ptr<RoomLogic>, std::string> RoomLogic::restore(std::string id, Metrics& metrics,
                                                                         const RestoredRoom& r, std::int64_t now_ms) {
  auto room = std::make_unique<RoomLogic>(std::move(id), metrics);
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    if (auto why = room->replay(r.actions[i], now_ms)) return "action " + std::to_string(i) + ": " + *why;
  }
  // Rooms written before hosts were stored: the first human is the host.
  room->seats_.ensure_host();
  // Version bumps that only flag connections are stored without waiting for the writer, so
  // a crash can lose the last few of them; restarting a little further on keeps versions
  // from ever going back for a client that saw them. Game versions are stored with every
  // action and need no gap.
  room->version_ = r.version + kRestoreVersionGap;
  room->game_version_ = r.game_version;
  room->persisted_version_ = r.version;
  for (auto& s : room->seats_) s.gone_since_ms = now_ms;  // everybody reconnects from now on
  const auto seats = room->seats_.facts(room->settings_.turn_based());
  room->patcher_.reset(room->facts(seats), room->game_ ? room->game_->tiles_placed() : 1,
                       static_cast<int>(room->chat_.size()));
  return room;
}

std::optional<std::string> RoomLogic::replay(const RoomAction& action, std::int64_t now_ms) {
  if (const auto* s = std::get_if<SeatTaken>(&action)) {
    if (phase_ != RoomPhase::Lobby) return "a seat taken after the start";
    if (s->seat != static_cast<int>(seats_.size())) return "seat " + std::to_string(s->seat) + " out of order";
    // A rematch stores its seats before its settings: a seat only an expansion allows comes first.
    if (seats_.size() >= static_cast<std::size_t>(kMaxPlayers)) return "too many seats";
    seats_.take(SeatState{s->name, s->token_hash, s->bot, nullptr, {}, now_ms, false, 0, nullptr}, s->host).seal_key =
        s->seal_key;
  } else if (const auto* f = std::get_if<SeatFreed>(&action)) {
    if (phase_ != RoomPhase::Lobby) return "a seat freed after the start";
    if (f->seat < 0 || f->seat >= static_cast<int>(seats_.size())) return "no seat " + std::to_string(f->seat);
    free_seat(*f, now_ms, nullptr);
  } else if (const auto* c = std::get_if<SettingsChanged>(&action)) {
    settings_changed(*c);
  } else if (const auto* w = std::get_if<WebhookChanged>(&action)) {
    hook_ = w->hook;
    settings_.webhook = hook_.has_value();
    ++notify_changes_stored_;
  } else if (const auto* p = std::get_if<PushChanged>(&action)) {
    ++notify_changes_stored_;
    if (p->seat < 0 || p->seat >= static_cast<int>(seats_.size())) return "no seat " + std::to_string(p->seat);
    auto& push = seats_[static_cast<std::size_t>(p->seat)].push;
    if (p->endpoint.empty()) push.reset();
    else push = std::make_shared<const PushTarget>(PushTarget{p->endpoint, p->p256dh, p->auth});
  } else if (const auto* g = std::get_if<GameStarted>(&action)) {
    if (phase_ != RoomPhase::Lobby) return "the game started twice";
    const int n = static_cast<int>(seats_.size());
    if (n < kMinPlayers || g->players != n || n > max_seats()) return "players do not match seats";
    start_game(*g, nullptr);
  } else if (const auto* m = std::get_if<MovePlayed>(&action)) {
    if (!game_) return "a move before the start";
    if (m->index != moves_) return "move " + std::to_string(m->index) + " out of order";
    if (m->seat != game_->acting_seat()) return "not that seat's turn";
    std::vector<Event> events;
    Game& next = RoomGame::scratch_copy(*game_);
    if (const auto err = next.play(m->move, &events)) return std::string(rule_error_name(*err));
    game_.set(next);
    play_move(*m, events, nullptr);
  } else if (const auto* chat = std::get_if<ChatPosted>(&action)) {
    chat_.push_back(protocol::ChatLine{chat->id, chat->seat, chat->name, chat->text, chat->time_ms});
    next_chat_id_ = chat->id + 1;
    ++chat_lines_stored_;
    chat_bytes_stored_ += chat->text.size();
    if (chat_.size() > protocol::kChatKept) chat_.pop_front();
  } else if (const auto* rm = std::get_if<RematchCreated>(&action)) {
    rematch_ = rm->room;
    rematch_seats_ = rm->seats;
  } else if (const auto* b = std::get_if<PlayerBound>(&action)) {
    if (b->seat < 0 || b->seat >= static_cast<int>(seats_.size())) return "no seat " + std::to_string(b->seat);
    player_bound(*b);
  } else if (std::holds_alternative<NeverRated>(action)) {
    never_rated_ = true;
  } else if (const auto* e = std::get_if<GameSettled>(&action)) {
    if (phase_ != RoomPhase::Playing || !game_) return "a game settled outside its play";
    if (e->seat >= static_cast<int>(seats_.size())) return "no seat " + std::to_string(e->seat);
    settle_game(*e, nullptr);
  } else if (const auto* h = std::get_if<HintGiven>(&action)) {
    if (!game_) return "a hint before the start";
    if (h->seat < 0 || h->seat >= static_cast<int>(seats_.size())) return "no seat " + std::to_string(h->seat);
    ++seats_[static_cast<std::size_t>(h->seat)].hints;
    hint_counted_turn_ = h->turn;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// State and publishing

std::optional<std::int64_t> RoomLogic::deadline() const {
  if (phase_ != RoomPhase::Playing) return std::nullopt;
  if (settings_.turn_based()) {
    if (!game_ || game_->finished()) return std::nullopt;
    return turn_started_ms_ + seats_[static_cast<std::size_t>(game_->acting_seat())].bank_ms;
  }
  if (!settings_.turn_seconds) return std::nullopt;
  return turn_started_ms_ + std::int64_t{*settings_.turn_seconds} * 1000;
}

protocol::RoomFacts RoomLogic::facts(const std::vector<protocol::SeatFacts>& seats) const {
  protocol::RoomFacts f;
  f.room = id_;
  f.phase = phase_;
  f.seats = seats;
  f.host = seats_.host();
  f.spectators = spectators_;
  f.settings = settings_;
  f.settings.hints = hints_on();
  f.deadline_ms = deadline();
  f.rematch = rematch_;
  f.game = game_ ? &game_.get() : nullptr;
  f.turn_number = events_.turn_number(game_ && game_->in_extra_part());
  f.result = record_.result();
  if (game_ && game_->moves_played() != projected_at_) {  // once a move, not once a change
    projected_ = projected_points(*game_);
    projected_at_ = game_->moves_played();
  }
  if (game_ && !settled_) f.projected = projected_;  // a settled game has no end scoring to come
  return f;
}

RoomLogic::Member* RoomLogic::find(const Client* c) {
  for (auto& m : members_) {
    if (m.client.get() == c) return &m;
  }
  return nullptr;
}

void RoomLogic::begin_change() { patcher_.begin(version_ + 1); }

void RoomLogic::publish(const Client* except, Effects& fx, SteadyClock::time_point received) {
  const std::array<const Client*, 1> one = {except};
  publish(std::span<const Client* const>(one), fx, received);
}

void RoomLogic::publish(std::span<const Client* const> except, Effects& fx, SteadyClock::time_point received) {
  const auto seats = seats_.facts(settings_.turn_based());
  patcher_.sync(facts(seats));
  if (patcher_.empty()) {
    patcher_.take_frame();  // nothing public changed: no version, no patch
    return;
  }
  auto frame = std::make_shared<const std::string>(patcher_.take_frame());
  ++version_;
  // Released, not kept for the next welcome: assigning an empty string would keep the
  // capacity (libstdc++ copies a short string into the buffer it has).
  std::string().swap(state_cache_);
  state_cache_version_ = -1;
  if (version_ != persisted_version_) fx.version_bump = version_;
  std::uint64_t sent = 0;
  for (const auto& m : members_) {
    if (m.role == Role::None || std::find(except.begin(), except.end(), m.client.get()) != except.end()) continue;
    m.client->send(frame);
    ++sent;
  }
  metrics_.patches.fetch_add(1, std::memory_order_relaxed);
  metrics_.patch_bytes.fetch_add(frame->size(), std::memory_order_relaxed);
  metrics_.frames_sent.fetch_add(sent, std::memory_order_relaxed);
  if (received != SteadyClock::time_point{}) metrics_.observe_broadcast(SteadyClock::now() - received);
}

std::string RoomLogic::state_text(std::int64_t) {
  if (state_cache_version_ != version_) {
    state_cache_.clear();
    const auto seats = seats_.facts(settings_.turn_based());
    protocol::write_state(state_cache_, facts(seats), events_, chat_.items());
    state_cache_version_ = version_;
  }
  return state_cache_;
}

void RoomLogic::welcome(Member& m, std::optional<std::string_view> token, std::int64_t now_ms, bool kicked) {
  std::string frame = R"({"type":"welcome","seat":)";
  if (m.role == Role::Player) protocol::append_int(frame, m.seat);
  else frame += "null";
  frame += R"(,"token":)";
  if (token) protocol::append_json_string(frame, *token);
  else frame += "null";
  frame += R"(,"version":)";
  protocol::append_int(frame, version_);
  frame += R"(,"server_time":)";
  protocol::append_int(frame, now_ms);
  if (kicked) frame += R"(,"kicked":true)";
  if (phase_ == protocol::RoomPhase::Lobby) frame += open_ ? R"(,"open":true)" : R"(,"open":false)";
  send_with_state(m, std::move(frame), now_ms);
}

void RoomLogic::send_with_state(Member& m, std::string frame, std::int64_t now_ms) {
  frame += R"(,"state":)";
  if (state_cache_version_ != version_) state_text(now_ms);
  frame += state_cache_;
  frame += '}';
  m.client->send(std::make_shared<const std::string>(std::move(frame)));
  metrics_.frames_sent.fetch_add(1, std::memory_order_relaxed);
}

void RoomLogic::refuse(Client& c, ErrorCode code, std::string_view message) {
  metrics_.refused(code);
  spdlog::info("room {}: refused {}: {}", id_, protocol::error_code_name(code), message);
  c.send(std::make_shared<const std::string>(protocol::error_frame(code, message)));
}

// ---------------------------------------------------------------------------------------
// Storing and applying

void RoomLogic::store(Pending p, const RoomAction& action, bool game_change, Effects& fx,
                      SteadyClock::time_point received) {
  const std::int64_t next = version_ + 1;
  fx.store = Effects::Store{action, next, game_change ? next : game_version_};
  changes_.start(std::move(p), received);
}

void RoomLogic::stored(bool ok, std::int64_t now_ms, Effects& fx) {
  std::optional<Pending> done = changes_.finish();
  if (!done) return;
  Pending& p = *done;
  if (ok) {
    persisted_version_ = version_ + 1;
    apply(p, now_ms, fx);
  } else {
    const ClientPtr* client = std::visit([](auto& v) { return &v.client; }, p);
    if (*client) {
      refuse(**client, ErrorCode::Unavailable, "the server cannot store this change right now; try again");
    } else if (std::holds_alternative<PendingMove>(p)) {
      // A computer player's move is never refused: it thinks again once storage is back.
      thinking_ = 0;
      bot_retry_ms_ = now_ms + 1000;
    } else if (const auto* s = std::get_if<PendingAction>(&p); s && std::holds_alternative<GameSettled>(s->action)) {
      settling_ = false;  // its tournament asks again at its next tick
    } else if (const auto* a = std::get_if<PendingAction>(&p); a && std::holds_alternative<HintGiven>(a->action)) {
      // A hint is sent only once it is counted: the next ask computes it again.
      hint_turn_ = -1;
      hint_move_.reset();
      const int seat = std::get<HintGiven>(a->action).seat;
      if (Client* holder = seats_.at(seat).holder) refuse(*holder, ErrorCode::Unavailable, "no hint could be stored; try again");
    }
  }
  resume(now_ms, fx);
}

void RoomLogic::apply(Pending& p, std::int64_t now_ms, Effects& fx) {
  if (auto* join = std::get_if<PendingJoin>(&p)) {
    const SeatTaken& t = join->taken;
    seats_.take(SeatState{t.name, t.token_hash, std::nullopt, nullptr, {}, now_ms, false, 0, nullptr}, t.host).seal_key =
        t.seal_key;
    spdlog::info("room {}: {} took seat {}{}", id_, t.name, t.seat, t.host ? " (host)" : "");
    begin_change();
    Member* joiner = find(join->client.get());
    if (joiner == nullptr) return publish(nullptr, fx, changes_.received());  // seated, then gone
    SeatState& seat = seats_.at(seats_.count() - 1);
    seat.holder = join->client.get();
    seat.token = join->token;
    if (joiner->role == Role::Spectator) --spectators_;
    joiner->role = Role::Player;
    joiner->seat = t.seat;
    publish(join->client.get(), fx, changes_.received());
    return welcome(*joiner, join->token, now_ms);
  }
  if (auto* move = std::get_if<PendingMove>(&p)) {
    begin_change();
    game_.set(std::move(move->next));
    play_move(move->action, move->events, &fx);
    publish(nullptr, fx, changes_.received());
    game_version_ = version_;
    if (game_->finished()) notify_over(fx);
    else notify_turn(fx);
    return maybe_think(now_ms, fx);
  }
  auto& a = std::get<PendingAction>(p);
  apply_action(a.client, a.action, now_ms, fx);
}

void RoomLogic::apply_action(const ClientPtr& client, const RoomAction& action, std::int64_t now_ms, Effects& fx) {
  begin_change();
  if (const auto* g = std::get_if<GameStarted>(&action)) {
    start_game(*g, &fx);
    metrics_.games_started.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("room {}: game started with {} players", id_, g->players);
    publish(nullptr, fx, changes_.received());
    game_version_ = version_;
    notify_turn(fx);
    return maybe_think(now_ms, fx);
  }
  if (const auto* h = std::get_if<HintGiven>(&action)) return hint_given(*h, fx);
  if (const auto* e = std::get_if<GameSettled>(&action)) {
    // The end of a game like its last move's: published, the notices of its end, the result.
    settling_ = false;
    settle_game(*e, &fx);
    publish(nullptr, fx, changes_.received());
    game_version_ = version_;
    return notify_over(fx);
  }
  if (const auto* c = std::get_if<ChatPosted>(&action)) {
    ++next_chat_id_;
    ++chat_lines_stored_;
    chat_bytes_stored_ += c->text.size();
    const bool drop = chat_.size() >= protocol::kChatKept;
    if (drop) chat_.pop_front();
    chat_.push_back(protocol::ChatLine{c->id, c->seat, c->name, c->text, c->time_ms});
    patcher_.chat_added(chat_.back(), drop);
    return publish(nullptr, fx, changes_.received());
  }
  if (const auto* s = std::get_if<SeatTaken>(&action)) {  // a computer player
    seats_.take(SeatState{s->name, s->token_hash, s->bot, nullptr, {}, now_ms, false, 0, nullptr}, false);
    return publish(nullptr, fx, changes_.received());
  }
  if (const auto* f = std::get_if<SeatFreed>(&action)) return free_seat(*f, now_ms, &fx);
  if (const auto* c = std::get_if<SettingsChanged>(&action)) {
    settings_changed(*c);
    return publish(nullptr, fx, changes_.received());
  }
  if (const auto* w = std::get_if<WebhookChanged>(&action)) {
    ++notify_changes_stored_;
    hook_ = w->hook;
    settings_.webhook = hook_.has_value();
    spdlog::info("room {}: webhook {}", id_, hook_ ? "set" : "removed");
    return publish(nullptr, fx, changes_.received());
  }
  if (const auto* p = std::get_if<PushChanged>(&action)) {
    ++notify_changes_stored_;
    auto& push = seats_[static_cast<std::size_t>(p->seat)].push;
    if (p->endpoint.empty()) push.reset();
    else push = std::make_shared<const PushTarget>(PushTarget{p->endpoint, p->p256dh, p->auth});
    return publish(nullptr, fx, changes_.received());  // nothing public: no patch
  }
  if (const auto* b = std::get_if<PlayerBound>(&action)) {
    player_bound(*b);
    return publish(nullptr, fx, changes_.received());  // nothing public: no patch
  }
  if (std::holds_alternative<NeverRated>(action)) {
    never_rated_ = true;
    return publish(nullptr, fx, changes_.received());  // nothing public: no patch
  }
  if (const auto* r = std::get_if<RematchCreated>(&action)) {
    rematch_ = r->room;
    rematch_seats_ = r->seats;
    spdlog::info("room {}: rematch in room {}", id_, rematch_);
    publish(nullptr, fx, changes_.received());
    for (auto& m : members_) {
      if (m.role == Role::Player && !seats_[static_cast<std::size_t>(m.seat)].bot) send_rematch(m);
    }
    return;
  }
  (void)client;
}

void RoomLogic::resume(std::int64_t now_ms, Effects& fx) {
  while (auto next = changes_.next()) {
    Deferred& d = *next;
    std::visit(Overload{
                   [&](DeferredMessage& m) { handle(m.client, m.msg, now_ms, m.received, fx); },
                   [&](DeferredDetach& m) { detach(m.client, now_ms, fx); },
                   [&](DeferredWake&) { wake(now_ms, fx); },
                   [&](DeferredBotMove& m) { bot_moved(m.ticket, m.move, now_ms, fx); },
                   [&](DeferredBotFailed& m) { bot_failed(m.ticket, now_ms, fx); },
                   [&](DeferredRematch& m) { rematch_created(m.room, now_ms, fx); },
                   [&](DeferredDropPush& m) { drop_push(m.seat, m.endpoint, fx); },
                   [&](DeferredHint& m) { hint_ready(m.ticket, m.move, fx); },
                   [&](DeferredBindPlayer& m) { bind_player(m.token, m.player, fx); },
                   [&](DeferredSettle&) { settle(now_ms, fx); },
               },
               d);
  }
}

// ---------------------------------------------------------------------------------------
// Seats

void RoomLogic::free_seat(const SeatFreed& f, std::int64_t now_ms, Effects* fx) {
  seats_.free(f.seat);
  if (fx == nullptr) return;  // replaying a stored log: nobody is connected yet
  // Who hears it in a welcome of their own: the seat's player and those who moved up.
  std::vector<const Client*> moved;
  for (auto& m : members_) {
    if (m.role != Role::Player) continue;
    if (m.seat == f.seat) {
      m.role = Role::Spectator;
      m.seat = -1;
      ++spectators_;
      moved.push_back(m.client.get());
    } else if (m.seat > f.seat) {
      --m.seat;
      moved.push_back(m.client.get());
    }
  }
  static constexpr std::array<std::string_view, 3> kWhat = {"left", "was removed by the host",
                                                            "(a computer player) was removed"};
  spdlog::info("room {}: seat {} {}", id_, f.seat, kWhat[static_cast<std::size_t>(f.reason)]);
  publish(moved, *fx, changes_.received());
  for (const Client* c : moved) {
    Member* m = find(c);
    const bool seated = m->role == Role::Player;
    std::optional<std::string_view> token;
    if (seated) token = seats_[static_cast<std::size_t>(m->seat)].token;
    welcome(*m, token, now_ms, !seated && f.reason == SeatFreed::Reason::Kicked);
  }
}

}  // namespace carc::server
