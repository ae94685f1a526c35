#include "room.hpp"

#include <algorithm>

#include <boost/asio/dispatch.hpp>

#include <spdlog/spdlog.h>

#include "carc/protocol/record.hpp"
#include "metrics.hpp"
#include "random.hpp"

namespace carc::server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RoomPhase;

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

std::optional<ErrorCode> error_of(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return ErrorCode::GameOver;
    case RuleError::NotYourTurn: return ErrorCode::NotYourTurn;
    case RuleError::IllegalPlacement: return ErrorCode::IllegalPlacement;
    case RuleError::IllegalMeeple: return ErrorCode::IllegalMeeple;
    default: return std::nullopt;
  }
}

}  // namespace

Room::Room(Strand strand, std::string id, RoomServices services)
    : strand_(std::move(strand)), id_(std::move(id)), services_(services) {
  const auto seats = seat_views();
  prev_core_ = protocol::core_view(view(seats)).dump();
  idle_since_ms_ = steady_ms();
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(Strand strand, std::string id, RoomServices services,
                                                               const RestoredRoom& r) {
  auto room = std::make_shared<Room>(std::move(strand), std::move(id), services);
  std::vector<Event> events;
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    const std::string where = "action " + std::to_string(i) + ": ";
    const RoomAction& action = r.actions[i];
    if (const auto* s = std::get_if<SeatTaken>(&action)) {
      if (room->game_) return where + "a seat taken after the start";
      if (s->seat != static_cast<int>(room->seats_.size())) return where + "seat " + std::to_string(s->seat) + " out of order";
      if (room->seats_.size() >= static_cast<std::size_t>(kMaxPlayers)) return where + "too many seats";
      room->seats_.push_back(SeatState{s->name, s->token_hash, nullptr});
    } else if (const auto* g = std::get_if<GameStarted>(&action)) {
      if (room->game_) return where + "the game started twice";
      const int n = static_cast<int>(room->seats_.size());
      if (n < kMinPlayers || g->players != n) return where + "players do not match seats";
      events.clear();
      room->seed_ = g->seed;
      room->game_ = std::make_unique<Game>(Game::seeded(n, g->seed, &events));
      room->events_.append_started();
      room->apply_game_events(events, nullptr);
      room->set_phase(RoomPhase::Playing);
    } else if (const auto* m = std::get_if<MovePlayed>(&action)) {
      if (!room->game_) return where + "a move before the start";
      if (m->index != static_cast<int>(room->actions_.size())) return where + "move " + std::to_string(m->index) + " out of order";
      if (m->seat != room->game_->current_seat()) return where + "not that seat's turn";
      events.clear();
      if (const auto err = room->game_->play(m->move, &events)) return where + std::string(rule_error_name(*err));
      room->actions_.push_back(*m);
      room->apply_game_events(events, nullptr);
    } else if (const auto* c = std::get_if<ChatPosted>(&action)) {
      room->chat_.push_back(protocol::ChatLine{c->id, c->seat, c->name, c->text, c->time_ms});
      room->next_chat_id_ = c->id + 1;
      if (room->chat_.size() > protocol::kChatKept) room->chat_.pop_front();
    } else {
      return where + "not supported by this server";
    }
  }
  room->seated_ = static_cast<int>(room->seats_.size());
  if (room->game_ && room->game_->finished()) room->finish_game();
  // Version bumps that only flag connections are stored without waiting for the writer, so
  // a crash can lose the last few of them; restarting a little further on keeps versions
  // from ever going back for a client that saw them. Game versions are stored with every
  // action and need no gap.
  room->version_ = r.version + kRestoreVersionGap;
  room->game_version_ = r.game_version;
  const auto seats = room->seat_views();
  room->prev_core_ = protocol::core_view(room->view(seats)).dump();
  return room;
}

// ---------------------------------------------------------------------------------------
// Views and broadcasting

Room::Member* Room::find(const Client* c) {
  for (auto& m : members_) {
    if (m.client.get() == c) return &m;
  }
  return nullptr;
}

std::vector<protocol::SeatView> Room::seat_views() const {
  std::vector<protocol::SeatView> out;
  out.reserve(seats_.size());
  for (const auto& s : seats_) out.push_back(protocol::SeatView{s.name, s.holder != nullptr});
  return out;
}

protocol::RoomView Room::view(const std::vector<protocol::SeatView>& seats) const {
  return protocol::RoomView{id_, phase(), game_.get(), seats, spectators_, result_.is_null() ? nullptr : &result_};
}

json Room::full_state() const {
  const auto seats = seat_views();
  return protocol::full_view(view(seats), replay_events(), chat_);
}

protocol::EventLog Room::replay_events() const {
  protocol::EventLog log;
  if (!game_) return log;
  std::vector<Event> events;
  Game g = Game::seeded(game_->players(), seed_, &events);
  log.append_started();
  log.append(events);
  for (const auto& a : actions_) {
    events.clear();
    g.play(a.move, &events);
    log.append(events);
  }
  return log;
}

void Room::welcome(Member& m, std::optional<std::string_view> token) {
  const std::optional<int> seat = m.role == Role::Player ? std::optional<int>(m.seat) : std::nullopt;
  m.client->send(std::make_shared<const std::string>(protocol::welcome_frame(seat, token, version_, full_state())));
  services_.metrics.frames_sent.fetch_add(1, std::memory_order_relaxed);
}

void Room::publish(const Client* except, json extra_ops, Clock::time_point t0) {
  const auto seats = seat_views();
  json after = protocol::core_view(view(seats));
  std::string after_text = after.dump();
  json ops = protocol::diff_core(json::parse(prev_core_), std::move(after));
  prev_core_ = std::move(after_text);
  for (auto& op : extra_ops) ops.push_back(std::move(op));
  ++version_;
  // A stored action already carries its version; other changes only move the version on.
  if (version_ != persisted_version_) services_.persistence.version_changed(id_, version_);
  auto frame = std::make_shared<const std::string>(protocol::patch_frame(version_, ops));
  std::uint64_t sent = 0;
  for (const auto& m : members_) {
    if (m.role == Role::None || m.client.get() == except) continue;
    m.client->send(frame);
    ++sent;
  }
  auto& metrics = services_.metrics;
  metrics.patches.fetch_add(1, std::memory_order_relaxed);
  metrics.patch_bytes.fetch_add(frame->size(), std::memory_order_relaxed);
  metrics.frames_sent.fetch_add(sent, std::memory_order_relaxed);
  metrics.observe_broadcast(Clock::now() - t0);
}

void Room::apply_game_events(const std::vector<Event>& events, json* ops) {
  for (const Event& e : events) {
    if (const auto* p = std::get_if<TilePlaced>(&e)) {
      record_moves_.push_back(Move::place(p->tile, p->cell, p->rotation, p->meeple));
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      record_moves_.push_back(Move::discard(d->tile));
    }
  }
  auto added = events_.append(events);
  if (ops != nullptr) protocol::append_ops(*ops, "/events", added);
}

void Room::finish_game() {
  // The breakdown needs every event of the game: replay the actions from the seed (pure).
  std::vector<Event> all;
  Game g = Game::seeded(game_->players(), seed_, &all);
  for (const auto& a : actions_) g.play(a.move, &all);
  json final_scores = json::array();
  json winners = json::array();
  for (const Event& e : all) {
    if (const auto* end = std::get_if<GameEnded>(&e)) {
      final_scores = end->final_scores;
      winners = end->winners;
    }
  }
  result_ = json{{"final_scores", std::move(final_scores)},
                 {"winners", std::move(winners)},
                 {"breakdown", protocol::breakdown_json(game_->players(), all)}};
  set_phase(RoomPhase::Finished);
}

void Room::set_phase(RoomPhase p) { phase_.store(static_cast<std::uint8_t>(p)); }

void Room::store(const ClientPtr& client, const RoomAction& action, bool game_change, std::function<void()> apply) {
  const std::int64_t next = version_ + 1;
  storing_ = true;
  services_.persistence.persist_async(
      id_, next, game_change ? next : game_version_, action,
      [self = shared_from_this(), client, next, apply = std::move(apply)](bool ok) mutable {
        // Inline when the store answered on the strand; else back onto it.
        boost::asio::dispatch(self->strand_, [self, client, next, ok, apply = std::move(apply)] {
          self->storing_ = false;
          if (ok) {
            self->persisted_version_ = next;
            apply();
          } else {
            self->refuse(*client, ErrorCode::Unavailable, "the server cannot store this change right now; try again");
          }
          self->resume();
        });
      });
}

void Room::when_idle(std::function<void()> f) {
  if (storing_) return waiting_.push_back(std::move(f));
  f();
}

void Room::resume() {
  while (!storing_ && !waiting_.empty()) {
    auto f = std::move(waiting_.front());
    waiting_.pop_front();
    f();
  }
}

// ---------------------------------------------------------------------------------------
// Requests

void Room::on_join(Member& m, const protocol::JoinMsg& msg, Clock::time_point t0) {
  if (msg.token) {
    const std::string hash = sha256_hex(*msg.token);
    auto it = std::find_if(seats_.begin(), seats_.end(),
                           [&](const SeatState& s) { return constant_time_equal(s.token_hash, hash); });
    if (it == seats_.end()) return refuse(*m.client, ErrorCode::BadToken, "this token matches no seat of this room");
    const int seat = static_cast<int>(it - seats_.begin());
    if (m.role == Role::Player && m.seat != seat) {
      return refuse(*m.client, protocol::ErrorCode::BadMessage, "this connection already plays another seat");
    }
    if (m.role == Role::Player) return welcome(m, *msg.token);  // nothing changes
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
    spdlog::info("room {}: seat {} ({}) reconnected", id_, seat, it->name);
    publish(m.client.get(), json::array(), t0);
    return welcome(m, *msg.token);
  }

  if (m.role == Role::Player) return refuse(*m.client, ErrorCode::BadMessage, "this connection already has a seat");
  if (phase() != RoomPhase::Lobby || seats_.size() >= static_cast<std::size_t>(kMaxPlayers)) {
    // Late joiners watch.
    m.name = *msg.name;
    if (m.role == Role::Spectator) return welcome(m, std::nullopt);
    m.role = Role::Spectator;
    ++spectators_;
    publish(m.client.get(), json::array(), t0);
    return welcome(m, std::nullopt);
  }
  const std::string token = random_id(kTokenBytes);
  const int seat = static_cast<int>(seats_.size());
  SeatTaken taken{seat, *msg.name, sha256_hex(token), std::nullopt, seat == 0};
  store(m.client, taken, false, [this, client = m.client, taken, token, t0] {
    seats_.push_back(SeatState{taken.name, taken.token_hash, nullptr});
    seated_ = static_cast<int>(seats_.size());
    spdlog::info("room {}: {} took seat {}{}", id_, taken.name, taken.seat, taken.seat == 0 ? " (host)" : "");
    Member* joiner = find(client.get());
    if (joiner == nullptr) return publish(nullptr, json::array(), t0);  // seated, then gone
    seats_.back().holder = client.get();
    if (joiner->role == Role::Spectator) --spectators_;
    joiner->role = Role::Player;
    joiner->seat = taken.seat;
    publish(client.get(), json::array(), t0);
    welcome(*joiner, token);
  });
}

void Room::on_watch(Member& m, Clock::time_point t0) {
  if (m.role == Role::Player) return refuse(*m.client, ErrorCode::BadMessage, "a player cannot watch; close the seat's connection first");
  if (m.role == Role::Spectator) return welcome(m, std::nullopt);
  m.role = Role::Spectator;
  ++spectators_;
  publish(m.client.get(), json::array(), t0);
  welcome(m, std::nullopt);
}

void Room::on_start(Member& m, Clock::time_point t0) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only the host can start the game");
  if (m.seat != 0) return refuse(*m.client, ErrorCode::NotHost, "only the host can start the game");
  if (phase() == RoomPhase::Finished) return refuse(*m.client, ErrorCode::GameOver, "the game is over");
  if (phase() == RoomPhase::Playing) return refuse(*m.client, ErrorCode::BadMessage, "the game has already started");
  if (seats_.size() < static_cast<std::size_t>(kMinPlayers)) {
    return refuse(*m.client, ErrorCode::NotEnoughPlayers, "a game needs 2 to 5 players");
  }
  const int players = static_cast<int>(seats_.size());
  const std::uint64_t seed = random_seed();
  store(m.client, GameStarted{players, seed, unix_ms()}, true, [this, players, seed, t0] { start_game(players, seed, t0); });
}

void Room::start_game(int players, std::uint64_t seed, Clock::time_point t0) {
  std::vector<Event> events;
  seed_ = seed;
  game_ = std::make_unique<Game>(Game::seeded(players, seed, &events));
  set_phase(RoomPhase::Playing);
  json ops = json::array();
  protocol::append_ops(ops, "/events", {events_.append_started()});
  apply_game_events(events, &ops);
  if (game_->finished()) finish_game();
  services_.metrics.games_started.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("room {}: game started with {} players", id_, players);
  publish(nullptr, std::move(ops), t0);
  game_version_ = version_;
}

void Room::on_play(Member& m, const protocol::PlayMsg& msg, Clock::time_point t0) {
  // The fixed order: joined? game running? your turn? fresh version? legal placement? legal meeple?
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "join the game to play");
  if (phase() == RoomPhase::Lobby) return refuse(*m.client, ErrorCode::NotStarted, "the game has not started");
  if (phase() == RoomPhase::Finished || game_->finished()) return refuse(*m.client, ErrorCode::GameOver, "the game is over");
  if (game_->current_seat() != m.seat) return refuse(*m.client, ErrorCode::NotYourTurn, "it is not your turn");
  if (msg.version < game_version_) {
    return refuse(*m.client, ErrorCode::StaleVersion, "the game changed since version " + std::to_string(msg.version));
  }
  const auto held = game_->held(m.seat);
  if (!held) return refuse(*m.client, ErrorCode::NotYourTurn, "you hold no tile");
  const auto rotation = Rotation::from_degrees(msg.rotation);
  constexpr std::int64_t kFar = 1000;
  if (!rotation || msg.x < -kFar || msg.x > kFar || msg.y < -kFar || msg.y > kFar) {
    return refuse(*m.client, ErrorCode::IllegalPlacement, "no such cell or rotation");
  }
  const Placement placement{Cell{static_cast<int>(msg.x), static_cast<int>(msg.y)}, *rotation};
  if (!game_->is_legal_placement(*held, placement)) {
    return refuse(*m.client, ErrorCode::IllegalPlacement, "the tile cannot go there with this rotation");
  }
  std::optional<Port> port;
  if (msg.meeple) {
    port = port_from_name(*msg.meeple);
    if (!port) return refuse(*m.client, ErrorCode::IllegalMeeple, "no such meeple port");
  }
  const Move move = Move::place(*held, placement.cell, placement.rotation, port);
  auto applied = carc::apply(*game_, m.seat, move);
  if (const auto* err = std::get_if<RuleError>(&applied)) {
    const auto code = error_of(*err).value_or(ErrorCode::BadMessage);
    return refuse(*m.client, code, std::string(rule_error_message(*err)));
  }
  MovePlayed action{static_cast<int>(actions_.size()), m.seat, move, false, unix_ms()};
  auto next = std::make_shared<Applied>(std::move(std::get<Applied>(applied)));
  store(m.client, action, true, [this, action, next, t0] { play_move(action, *next, t0); });
}

void Room::play_move(const MovePlayed& action, const Applied& next, Clock::time_point t0) {
  *game_ = next.game;
  actions_.push_back(action);
  json ops = json::array();
  apply_game_events(next.events, &ops);
  services_.metrics.moves.fetch_add(1, std::memory_order_relaxed);
  if (game_->finished()) {
    finish_game();
    services_.metrics.games_finished.fetch_add(1, std::memory_order_relaxed);
    services_.persistence.room_finished(id_, unix_ms());
    spdlog::info("room {}: game over after {} moves", id_, actions_.size());
  }
  publish(nullptr, std::move(ops), t0);
  game_version_ = version_;
}

void Room::on_chat(Member& m, const protocol::ChatMsg& msg, Clock::time_point t0) {
  if (m.role == Role::None) return refuse(*m.client, ErrorCode::NotJoined, "join or watch to chat");
  ChatPosted posted{next_chat_id_, std::nullopt, m.name.empty() ? std::string("spectator") : m.name, msg.text,
                    unix_ms()};
  if (m.role == Role::Player) {
    posted.seat = m.seat;
    posted.name = seats_[static_cast<std::size_t>(m.seat)].name;
  }
  store(m.client, posted, false, [this, posted, t0]() mutable { post_chat(std::move(posted), t0); });
}

void Room::post_chat(ChatPosted posted, Clock::time_point t0) {
  ++next_chat_id_;
  json ops = json::array();
  if (chat_.size() >= protocol::kChatKept) {
    chat_.pop_front();
    ops.push_back(json{{"op", "remove"}, {"path", "/chat/0"}});
  }
  chat_.push_back(protocol::ChatLine{posted.id, posted.seat, std::move(posted.name), std::move(posted.text), posted.time_ms});
  protocol::append_ops(ops, "/chat", {protocol::chat_json(chat_.back())});
  publish(nullptr, std::move(ops), t0);
}

void Room::on_resync(Member& m) {
  m.client->send(std::make_shared<const std::string>(protocol::state_frame(version_, full_state())));
  services_.metrics.frames_sent.fetch_add(1, std::memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------
// Public API

void Room::attach(const ClientPtr& c) {
  members_.push_back(Member{c, Role::None, -1, {}});
  connections_.fetch_add(1);
  idle_since_ms_ = 0;
}

void Room::detach(const ClientPtr& c) {
  if (storing_) return when_idle([this, c] { detach(c); });
  const auto it = std::find_if(members_.begin(), members_.end(), [&](const Member& m) { return m.client == c; });
  if (it == members_.end()) return;
  const Role role = it->role;
  const int seat = it->seat;
  members_.erase(it);
  if (connections_.fetch_sub(1) == 1) idle_since_ms_ = steady_ms();
  if (role == Role::Player && seats_[static_cast<std::size_t>(seat)].holder == c.get()) {
    seats_[static_cast<std::size_t>(seat)].holder = nullptr;
    spdlog::info("room {}: seat {} disconnected", id_, seat);
    publish(nullptr, json::array(), Clock::now());
  } else if (role == Role::Spectator) {
    --spectators_;
    publish(nullptr, json::array(), Clock::now());
  }
}

void Room::handle(const ClientPtr& c, const protocol::ClientMessage& msg, Clock::time_point received) {
  // One change at a time: what arrives while a change is being stored waits its turn.
  if (storing_) return when_idle([this, c, msg, received] { handle(c, msg, received); });
  Member* m = find(c.get());
  if (m == nullptr) return;  // already detached
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, protocol::JoinMsg>) on_join(*m, v, received);
        else if constexpr (std::is_same_v<T, protocol::WatchMsg>) on_watch(*m, received);
        else if constexpr (std::is_same_v<T, protocol::StartMsg>) on_start(*m, received);
        else if constexpr (std::is_same_v<T, protocol::PlayMsg>) on_play(*m, v, received);
        else if constexpr (std::is_same_v<T, protocol::ChatMsg>) on_chat(*m, v, received);
        else if constexpr (std::is_same_v<T, protocol::ResyncMsg>) on_resync(*m);
        else refuse(*m->client, ErrorCode::BadMessage, "this server does not support this message yet");
      },
      msg);
}

void Room::refuse(Client& c, ErrorCode code, std::string_view message) {
  services_.metrics.refused(code);
  spdlog::info("room {}: refused {}: {}", id_, protocol::error_code_name(code), message);
  c.send(std::make_shared<const std::string>(protocol::error_frame(code, message)));
}

void Room::close_all(CloseReason why) {
  for (auto& m : members_) m.client->close(why);
}

json Room::info_json() const {
  json players = json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    players.push_back(json{{"seat", i}, {"name", seats_[i].name}, {"connected", seats_[i].holder != nullptr}});
  }
  return json{{"room", id_}, {"phase", protocol::phase_name(phase())}, {"players", std::move(players)},
              {"spectators", spectators_}};
}

json Room::record_json() const {
  const int players = game_ ? game_->players() : static_cast<int>(seats_.size());
  json record = protocol::record_json(players, record_moves_, phase() == RoomPhase::Finished);
  if (!result_.is_null()) record["result"] = result_;
  return record;
}

std::size_t Room::memory_bytes() const {
  std::size_t n = sizeof(Room) + (game_ ? sizeof(Game) : 0) + prev_core_.capacity() + events_.memory_bytes();
  for (const auto& c : chat_) n += sizeof(c) + c.name.capacity() + c.text.capacity();
  return n;
}

}  // namespace carc::server
