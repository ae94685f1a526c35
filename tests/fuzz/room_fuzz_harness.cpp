// The room fuzz target: driving the room, answering its effects, crashing it.
#include "room_fuzz_harness.hpp"

#include <cstdio>
#include <cstdlib>

namespace room_fuzz {

void Harness::run() {
  while (!in_.empty()) {
    reap_closed();
    step(in_.byte());
    check_clients();
  }
  // Everything outstanding answered, then the stored log must rebuild the room.
  if (store_) answer_store(true);
  check_clients();
  check_restore();
  if (std::getenv("CARC_FUZZ_TRACE") != nullptr) {
    std::fprintf(stderr, "room: phase %s, version %lld, %zu actions stored, %zu clients, %d crashes, record %s\n",
                 std::string(protocol::phase_name(logic_->phase())).c_str(), static_cast<long long>(logic_->version()),
                 log_.size(), clients_.size(), crashes_, logic_->record_json().substr(0, 120).c_str());
  }
}

Metrics& Harness::metrics() {
  static Metrics m;
  return m;
}

void Harness::step(std::uint8_t op) {
  const int policy = (op >> 4) & 3;
  store_policy_ = policy == 2 ? StorePolicy::Fail : policy == 3 ? StorePolicy::Hold : StorePolicy::Ok;
  think_hold_ = (op & 0x40) != 0;
  switch (op % 16) {
    case 0: return attach();
    case 1: return detach(pick_client());
    case 2: return send_raw(pick_client());
    case 3: return join_by_name(pick_client());
    case 4: return join_by_token(pick_client());
    case 5: return send_text(pick_client(), R"({"type":"watch"})");
    case 6: return send_text(pick_client(), R"({"type":"start"})");
    case 7: return play_legal(pick_client());
    case 8: return play_anything(pick_client());
    case 9: return chat(pick_client());
    case 10: return lobby(pick_client());
    case 11: return store_ ? answer_store(in_.byte() % 4 != 0) : void();
    case 12: return answer_think();
    case 13: return answer_rematch();
    case 14: return advance_time();
    case 15: return crash();
  }
}

Tracked* Harness::pick_client() {
  if (clients_.empty()) return nullptr;
  return &clients_[in_.byte() % clients_.size()];
}

int Harness::count_errors(Tracked& t) {
  read_frames();
  return t.errors;
}

// Answers the effects, as the strand adapter (Room) would, until none is left to answer now.
void Harness::carry_out() {
  for (int rounds = 0; rounds < 1000; ++rounds) {
    read_frames();
    Effects fx = std::move(fx_);
    fx_.clear();
    if (fx.version_bump) {
      FUZZ_CHECK(*fx.version_bump == logic_->version());
      stored_version_ = std::max(stored_version_, *fx.version_bump);
    }
    if (fx.think) {
      FUZZ_CHECK(fx.think->game != nullptr);
      FUZZ_CHECK(fx.think->seat == fx.think->game->current_seat());
      thinking_.push_back(std::move(*fx.think));
    }
    if (fx.rematch) {
      FUZZ_CHECK(!rematch_asked_);  // asked once until answered
      FUZZ_CHECK(logic_->phase() == protocol::RoomPhase::Finished);
      rematch_asked_ = true;
    }
    if (fx.store) {
      FUZZ_CHECK(!store_);  // one change at a time
      FUZZ_CHECK(fx.store->version == logic_->version() + 1);
      FUZZ_CHECK(fx.store->game_version <= fx.store->version);
      store_ = std::move(fx.store);
    }
    if (store_ && store_policy_ != StorePolicy::Hold) {
      const bool ok = store_policy_ == StorePolicy::Ok;
      store_policy_ = StorePolicy::Ok;  // what follows from it is stored
      answer_store(ok, false);
      continue;
    }
    if (!thinking_.empty() && !think_hold_ && !store_) {
      BotRequest r = std::move(thinking_.back());
      thinking_.pop_back();
      answer_bot(std::move(r), 0);
      continue;
    }
    break;
  }
  read_frames();
}

void Harness::answer_store(bool ok, bool carry) {
  Effects::Store s = std::move(*store_);
  store_.reset();
  if (ok) {
    log_.push_back(s.action);
    FUZZ_CHECK(s.version >= stored_version_);  // stored versions never go back
    stored_version_ = std::max(stored_version_, s.version);
    stored_game_version_ = s.game_version;
  }
  logic_->stored(ok, now_, fx_);
  if (carry) carry_out();
}

void Harness::answer_think() {
  if (thinking_.empty()) return;
  const std::size_t i = in_.byte() % thinking_.size();
  BotRequest r = thinking_[i];
  thinking_.erase(thinking_.begin() + static_cast<std::ptrdiff_t>(i));
  answer_bot(r, in_.byte());
}

void Harness::answer_bot(BotRequest r, std::uint8_t how) {
  const std::uint64_t ticket = how % 8 == 6 ? r.ticket + 1 + in_.byte() % 3 : r.ticket;
  if (how % 8 == 7) {
    command([&] { logic_->bot_failed(ticket, now_, fx_); });
    return;
  }
  const Game& g = *r.game;
  Move move = Move::discard(static_cast<Tile>(0));
  std::vector<LegalMove> legal;
  g.legal_moves(legal);
  const auto held = g.held(r.seat);
  if (how % 8 < 5 && held) {
    if (legal.empty()) {
      move = Move::discard(*held);
    } else {
      const LegalMove& lm = legal[in_.byte() % legal.size()];
      std::optional<Port> meeple;
      if (lm.meeples.size > 0 && how & 0x80) meeple = lm.meeples.ports[in_.byte() % lm.meeples.size];
      move = Move::place(*held, lm.placement.cell, lm.placement.rotation, meeple);
    }
  } else {
    // Garbage: any tile, anywhere near the board, any rotation and port.
    const Tile t = static_cast<Tile>(in_.byte() % kTileKinds);
    const Cell c{static_cast<std::int8_t>(in_.byte()) / 4, static_cast<std::int8_t>(in_.byte()) / 4};
    const std::uint8_t rp = in_.byte();
    std::optional<Port> meeple;
    if (rp % 14 < 13) meeple = static_cast<Port>(rp % 13);
    move = rp & 0x80 ? Move::discard(t) : Move::place(t, c, Rotation::quarters(rp % 4), meeple);
  }
  command([&] { logic_->bot_moved(ticket, move, now_, fx_); });
}

void Harness::answer_rematch() {
  if (!rematch_asked_) return;
  rematch_asked_ = false;
  const bool ok = in_.byte() % 4 != 0;
  const std::string room = ok ? "rematch-" + std::to_string(++rematches_) : std::string();
  command([&] { logic_->rematch_created(room, now_, fx_); });
}

void Harness::advance_time() {
  static constexpr std::array<std::int64_t, 8> kSteps = {0, 1'000, 5'000, 11'000, 61'000, 900'000, 86'400'000,
                                                         8 * 86'400'000LL};
  const std::uint8_t b = in_.byte();
  if (b & 0x80) {
    // To the room's own wake-up time, as the strand's timer would.
    if (const auto at = logic_->next_wake(); at && *at > now_) now_ = *at;
  } else {
    now_ += kSteps[b % kSteps.size()];
  }
  command([&] { logic_->wake(now_, fx_); });
}

// The process dies: connections go, a change being stored is either durable or not,
// computer players' and rematch answers are lost. The room comes back from storage.
void Harness::crash() {
  if (store_) {
    if (in_.byte() & 1) {
      log_.push_back(store_->action);
      stored_version_ = std::max(stored_version_, store_->version);
      stored_game_version_ = store_->game_version;
    }
    store_.reset();
  }
  ++crashes_;
  thinking_.clear();
  rematch_asked_ = false;
  fx_.clear();
  clients_.clear();
  logic_ = restore();
  FUZZ_CHECK(logic_->version() > max_seen_version_);
  last_room_version_ = logic_->version();
  command([&] { logic_->wake(now_, fx_); });  // Room::start()
}

std::unique_ptr<RoomLogic> Harness::restore() {
  RestoredRoom r{log_, stored_version_, stored_game_version_};
  auto restored = RoomLogic::restore("fuzz-room", metrics(), r, now_);
  if (auto* why = std::get_if<std::string>(&restored)) {
    std::fprintf(stderr, "restore failed: %s\n", why->c_str());
    FUZZ_CHECK(!"the stored log rebuilds the room");
  }
  return std::move(std::get<std::unique_ptr<RoomLogic>>(restored));
}

}  // namespace room_fuzz
