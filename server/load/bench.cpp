#include "bench.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace carc::load {

int Bench::create_room(bool standby) {
  const int index = static_cast<int>(rooms_.size());
  auto room = std::make_unique<Room>();
  room->index = index;
  room->standby = standby;
  room->rng.seed((static_cast<std::uint64_t>(rd_()) << 32) | rd_());
  room->created_at = Clock::now();
  room->seat.assign(static_cast<std::size_t>(opt_.players), -1);
  room->version.assign(static_cast<std::size_t>(opt_.players), 0);
  room->by_seat.assign(static_cast<std::size_t>(opt_.players), nullptr);
  room->conns.resize(static_cast<std::size_t>(opt_.players));
  rooms_.push_back(std::move(room));
  http_request(loop_, opt_.port, "POST", "/api/rooms", [this, index](int status, std::string body) {
    if (stopping_) return;
    if (status != 201) {
      if (errors_++ < 5) std::fprintf(stderr, "POST /api/rooms: %d %s\n", status, body.c_str());
      return;
    }
    rooms_[static_cast<std::size_t>(index)]->id = json::parse(body).at("room").get<std::string>();
    for (int p = 0; p < opt_.players; ++p) to_connect_.emplace_back(index, p);
    pump();
  }, opt_.room_body);
  return index;
}

void Bench::pump() {
  while (connecting_ < opt_.connect_batch && !to_connect_.empty()) {
    const auto [index, p] = to_connect_.back();
    to_connect_.pop_back();
    Room& r = *rooms_[static_cast<std::size_t>(index)];
    auto& c = r.conns[static_cast<std::size_t>(p)];
    c = std::make_unique<WsConn>(loop_, *this, (static_cast<std::uint64_t>(rd_()) << 32) | rd_());
    c->tag = index * 8 + p;
    ++connecting_;
    // 127.1.0.1 onwards, one address per room (the per-address limits count a room's
    // players together, as they would a household's).
    const auto source = opt_.address_per_room ? (127u << 24 | 1u << 16) + 1u + static_cast<std::uint32_t>(index) : 0u;
    c->connect(opt_.port, "/ws/" + r.id, source);
  }
}

void Bench::on_open(WsConn& c) {
  --connecting_;
  pump();
  c.send_text(R"({"type":"join","name":"p)" + std::to_string(player_of(c)) + "\"}");
}

void Bench::on_closed(WsConn& c, std::string_view why) {
  Room& r = room_of(c);
  if (!c.was_open()) {  // it never connected: let the next one try
    --connecting_;
    pump();
  }
  if (!stopping_ && !r.finished) {
    if (disconnects_++ < 5) std::fprintf(stderr, "room %s: connection closed: %.*s\n", r.id.c_str(),
                                         static_cast<int>(why.size()), why.data());
  }
}

void Bench::on_text(WsConn& c, std::string_view text) {
  Room& r = room_of(c);
  const int p = player_of(c);
  if (text.starts_with(R"({"type":"patch")")) {
    const std::int64_t v = frame_version(text);
    r.version[static_cast<std::size_t>(p)] = v;
    if (p == 0) brain(r, text, v);
    if (r.pending != 0 && v >= r.pending && ++r.received == opt_.players) {
      if (playing_) {
        const auto now = Clock::now();
        latency_.push_back(std::chrono::duration<double, std::milli>(now - r.sent_at).count());
        latency_at_.push_back(std::chrono::duration<float>(now - play_start_).count());
      }
      r.pending = 0;
      if (r.finished) return close_room(r);
      if (opt_.interval_ms == 0) move(r);
    }
    return;
  }
  const json msg = json::parse(text);
  const std::string type = msg.value("type", "");
  if (type == "welcome") {
    const int seat = msg["seat"].is_null() ? -1 : msg["seat"].get<int>();
    r.seat[static_cast<std::size_t>(p)] = seat;
    r.version[static_cast<std::size_t>(p)] = msg["version"].get<std::int64_t>();
    if (seat >= 0 && seat < opt_.players) r.by_seat[static_cast<std::size_t>(seat)] = &c;
    if (p == 0) r.brain_version = msg["version"].get<std::int64_t>();
    if (++r.welcomed == opt_.players) {
      // Everybody is seated; the host (seat 0) starts.
      if (r.by_seat[0] != nullptr) r.by_seat[0]->send_text(R"({"type":"start"})");
    }
  } else if (type == "error") {
    if (errors_++ < 5) std::fprintf(stderr, "room %s: error %.*s\n", r.id.c_str(), static_cast<int>(text.size()),
                                    text.data());
    if (r.pending != 0) r.pending = 0;  // a refused move: try another
  }
}

void Bench::brain(Room& r, std::string_view text, std::int64_t v) {
  r.brain_version = v;
  if (playing_) {
    ++patches_;
    patch_bytes_ += text.size();
  }
  const auto change = scan_turn(text, r.turn);
  switch (change) {
    case TurnChange::New: r.has_turn = true; break;
    case TurnChange::Ended: r.has_turn = false; break;
    case TurnChange::None: break;
  }
  if (!r.started && r.has_turn) {
    r.started = true;
    if (playing_) setup_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - r.created_at).count());
    if (!r.standby) play(r);
    else standby_ready(r);
  }
  // The game ends in a patch without a new turn: only those are searched for the phase.
  if (!r.finished && change != TurnChange::New && sets_phase(text, "finished")) finish(r);
}

void Bench::play(Room& r) {
  r.standby = false;
  ++started_rooms_;
  ++in_play_;
  if (opt_.interval_ms > 0) {
    // Spread the rooms over the interval, then one move per interval.
    loop_.at(Clock::now() + std::chrono::milliseconds(r.rng() % static_cast<unsigned>(opt_.interval_ms)),
             [this, index = r.index] { tick(index); });
    return;
  }
  move(r);
}

void Bench::standby_ready(Room& r) {
  if (waiting_ > 0) {
    --waiting_;
    play(r);
  } else {
    ready_.push_back(r.index);
  }
}

void Bench::finish(Room& r) {
  r.finished = true;
  r.has_turn = false;
  if (r.started) --in_play_;
  ++games_;  // its timer, if any, finds it finished
  if (opt_.replace && !stopping_) {
    if (standby_pool() == 0) {
      create_room();
    } else {
      create_room(true);  // refills the pool
      while (!ready_.empty() && !rooms_[static_cast<std::size_t>(ready_.front())]) ready_.pop_front();
      if (ready_.empty()) {
        ++waiting_;  // the next standby room to be ready plays at once
      } else {
        Room& next = *rooms_[static_cast<std::size_t>(ready_.front())];
        ready_.pop_front();
        play(next);
      }
    }
  }
  if (r.pending == 0) close_room(r);  // else once every client has the last patch
}

void Bench::close_room(Room& r) {
  for (auto& c : r.conns) {
    if (c) c->close();
  }
  loop_.later([this, index = static_cast<std::size_t>(r.index)] { rooms_[index].reset(); });
}

void Bench::tick(int index) {
  Room* r = rooms_[static_cast<std::size_t>(index)].get();
  if (r == nullptr || r->finished || stopping_) return;
  move(*r);
  loop_.at(Clock::now() + std::chrono::milliseconds(opt_.interval_ms), [this, index] { tick(index); });
}

void Bench::move(Room& r) {
  if (r.finished || r.pending != 0 || !r.has_turn || r.turn.legal.empty() || stopping_) return;
  if (r.turn.seat < 0 || r.turn.seat >= opt_.players) return;
  WsConn* c = r.by_seat[static_cast<std::size_t>(r.turn.seat)];
  if (c == nullptr) return;
  const Legal& pick = r.turn.legal[r.rng() % r.turn.legal.size()];
  std::string& play = play_;  // reused: a move allocates nothing
  play.clear();
  const auto num = [&](std::int64_t v) {
    std::array<char, 24> digits;
    play.append(digits.data(), std::to_chars(digits.data(), digits.data() + digits.size(), v).ptr);
  };
  play += R"({"type":"play","version":)";
  num(r.brain_version);
  play += R"(,"x":)";
  num(pick.x);
  play += R"(,"y":)";
  num(pick.y);
  play += R"(,"rotation":)";
  num(pick.rotation);
  play += R"(,"meeple":)";
  if (pick.meeple_count > 0 && r.rng() % 3 == 0) {
    play += '"';
    play += pick.meeples[r.rng() % static_cast<unsigned>(pick.meeple_count)].data();
    play += '"';
  } else {
    play += "null";
  }
  play += '}';
  r.pending = r.brain_version + 1;
  r.received = 0;
  r.sent_at = Clock::now();
  if (playing_) ++moves_;
  c->send_text(play);
}

}  // namespace carc::load
