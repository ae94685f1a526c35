// The room without sockets: a fake client collects frames, a fake store answers later
// (as a group-committing store would) or fails. Checks that nothing is applied or sent
// before the store says it is durable, that later requests wait in order, and that a
// change that cannot be stored is refused with `unavailable` and changes nothing.
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "bots/bot_pool.hpp"
#include "base/metrics.hpp"
#include "room/room.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

struct FakeClient final : Client {
  std::vector<json> frames;
  void send(std::shared_ptr<const std::string> frame) override { frames.push_back(json::parse(*frame)); }
  void close(CloseReason) override {}
  std::vector<json> of(std::string_view type) const {
    std::vector<json> out;
    for (const auto& f : frames) {
      if (f["type"] == type) out.push_back(f);
    }
    return out;
  }
};

// Holds every action until the test releases it.
struct DeferredStore final : Persistence {
  std::deque<std::function<void(bool)>> pending;
  int stored = 0;
  void room_created(std::string_view, std::int64_t, Done done) override { done(true); }
  void persist_async(std::string_view, std::int64_t, std::int64_t, const RoomAction&,
                     std::function<void(bool)> done) override {
    pending.push_back(std::move(done));
  }
  void room_finished(std::string_view, std::int64_t) override {}
  void room_removed(std::string_view) override {}
  void release(bool ok) {
    auto done = std::move(pending.front());
    pending.pop_front();
    if (ok) ++stored;
    done(ok);
  }
};

struct RoomFixture {
  boost::asio::io_context io;
  Metrics metrics;
  DeferredStore store;
  std::unique_ptr<BotPool> bots;  // computer players: none unless a test makes a pool
  std::shared_ptr<Room> room;
  explicit RoomFixture(bool with_bots = false)
      : bots(with_bots ? std::make_unique<BotPool>(1, metrics) : nullptr),
        room(std::make_shared<Room>(boost::asio::make_strand(io), "room-under-test",
                                    RoomServices{store, metrics, bots.get(), {}, {}, {}, {}, {}, {}})) {}
  std::shared_ptr<FakeClient> a = std::make_shared<FakeClient>();
  std::shared_ptr<FakeClient> b = std::make_shared<FakeClient>();

  void run() {
    io.restart();
    io.poll();
  }
  void send(const std::shared_ptr<FakeClient>& c, const protocol::ClientMessage& m) {
    room->handle(c, m, Room::Clock::now());
    run();
  }
};

}  // namespace

TEST_CASE("a change is applied and broadcast only once it is stored; later requests wait") {
  RoomFixture f;
  f.room->attach(f.a);
  f.room->attach(f.b);
  f.send(f.a, protocol::JoinMsg{"Alice", std::nullopt});
  CHECK(f.a->frames.empty());  // the seat is not taken before it is durable
  f.send(f.b, protocol::JoinMsg{"Bob", std::nullopt});
  f.send(f.a, protocol::ChatMsg{"hello"});
  CHECK(f.store.pending.size() == 1);  // Bob and the chat wait for Alice's seat
  f.store.release(true);
  f.run();
  REQUIRE(f.a->of("welcome").size() == 1);
  CHECK(f.a->of("welcome")[0]["seat"] == 0);
  CHECK(f.store.pending.size() == 1);  // now Bob's seat is being stored
  f.store.release(true);
  f.run();
  CHECK(f.b->of("welcome")[0]["seat"] == 1);
  f.store.release(true);  // the chat
  f.run();
  const auto patches = f.b->of("patch");
  REQUIRE(!patches.empty());
  CHECK(patches.back()["ops"].back()["value"]["text"] == "hello");
  CHECK(f.room->version() == patches.back()["version"]);
  CHECK(f.store.stored == 3);
}

TEST_CASE("a change that cannot be stored is refused with unavailable and changes nothing") {
  RoomFixture f;
  f.room->attach(f.a);
  f.room->attach(f.b);
  f.send(f.a, protocol::JoinMsg{"Alice", std::nullopt});
  f.store.release(true);
  f.run();
  f.send(f.b, protocol::JoinMsg{"Bob", std::nullopt});
  f.store.release(true);
  f.run();
  const auto version = f.room->version();
  const json before = json::parse(f.room->state_text());
  f.send(f.a, protocol::StartMsg{});
  f.store.release(false);
  f.run();
  REQUIRE(!f.a->of("error").empty());
  CHECK(f.a->of("error").back()["code"] == "unavailable");
  CHECK(f.room->version() == version);
  CHECK(json::parse(f.room->state_text()) == before);
  CHECK(f.room->phase() == protocol::RoomPhase::Lobby);
  // The next try goes through.
  f.send(f.a, protocol::StartMsg{});
  f.store.release(true);
  f.run();
  CHECK(f.room->phase() == protocol::RoomPhase::Playing);
  CHECK(f.room->version() == version + 1);
}

TEST_CASE("with the store stalled, a room holds a bounded number of messages and refuses the rest") {
  // Before, every message that arrived while a change was being stored waited in the room,
  // without a cap: a stalled store and a chatty client grew it without bound.
  RoomFixture f;
  f.room->attach(f.a);
  f.room->attach(f.b);
  f.send(f.a, protocol::JoinMsg{"Alice", std::nullopt});
  REQUIRE(f.store.pending.size() == 1);  // the store does not answer
  const std::size_t extra = 40;
  for (std::size_t i = 0; i < kMaxWaitingMessages + extra; ++i) f.send(f.b, protocol::ChatMsg{"hi " + std::to_string(i)});
  const auto refused = f.b->of("error");
  CHECK(refused.size() == extra);  // answered at once, not queued
  for (const auto& e : refused) CHECK(e["code"] == "unavailable");
  // The store comes back: the held messages are handled in order; new ones are queued again.
  f.store.release(true);
  f.run();
  CHECK(f.a->of("welcome").size() == 1);
  const auto after = f.b->of("error").size();
  CHECK(after == extra + kMaxWaitingMessages);  // b never joined: each held chat is refused as not_joined
  CHECK(f.b->of("error").back()["code"] == "not_joined");
  f.send(f.a, protocol::ChatMsg{"back"});
  REQUIRE(f.store.pending.size() == 1);
  f.send(f.b, protocol::ChatMsg{"queued again"});
  CHECK(f.b->of("error").size() == after);  // waits, not refused
}

TEST_CASE("a room does not leave memory while its computer player thinks: the move is not lost") {
  // A turn-based room woken for a deadline has no connection: before, the sweeper could
  // retire it between the question to the bot pool and the answer, which then went to a
  // retired room; the turn was played again when the room was next loaded.
  RoomFixture f(true);
  f.room->attach(f.a);
  f.send(f.a, protocol::JoinMsg{"Alice", std::nullopt});
  f.store.release(true);
  f.run();
  f.send(f.a, protocol::AddBotMsg{protocol::BotLevel::Easy});
  f.store.release(true);
  f.run();
  f.send(f.a, protocol::StartMsg{});
  f.store.release(true);
  f.run();
  REQUIRE(f.room->phase() == protocol::RoomPhase::Playing);
  json state = json::parse(f.room->state_text());
  REQUIRE(state["turn"]["seat"] == 0);
  const json& l = state["turn"]["legal"][0];
  f.send(f.a, protocol::PlayMsg{f.room->version(), l["x"].get<std::int64_t>(), l["y"].get<std::int64_t>(),
                                l["rotation"].get<std::int64_t>(), std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0, std::nullopt});
  f.store.release(true);
  f.run();  // Alice's move applied: the computer player's turn is asked of the pool
  state = json::parse(f.room->state_text());
  REQUIRE(state["turn"]["seat"] == 1);
  const auto placed = state["board"].size();
  f.room->detach(f.a);  // nobody left: idle from now on
  f.run();
  // Long past any time to live, with the answer not yet taken in: the room stays.
  const std::int64_t later = steady_ms() + 3'600'000;
  CHECK_FALSE(f.room->retire_if_idle(later, 1000));
  // The answer comes; the move is stored and applied.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (f.store.pending.empty() && std::chrono::steady_clock::now() < deadline) {
    f.run();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(f.store.pending.size() == 1);
  f.store.release(true);
  f.run();
  state = json::parse(f.room->state_text());
  CHECK(state["board"].size() == placed + 1);
  CHECK(state["turn"]["seat"] == 0);
  // Now it may go.
  CHECK(f.room->retire_if_idle(later, 1000));
}

TEST_CASE("the bot pool paces a level: the host's cap, then a share of it per request waiting") {
  const auto level = [](std::string_view name) { return *bot_level(name, [] { return std::int64_t{0}; }); };
  const BotSpec hard = level("hard"), medium = level("medium"), easy = level("easy");
  REQUIRE(hard.kind == BotKind::Mcts);
  CHECK(BotPool::paced(hard, 0, 0).think_ns == hard.think_ns);  // no cap: the level's own
  CHECK(BotPool::paced(hard, 0, 100'000'000).think_ns == 100'000'000);
  CHECK(BotPool::paced(medium, 0, 1'000'000'000).think_ns == medium.think_ns);  // a cap above the level changes nothing
  CHECK(BotPool::paced(hard, 3, 100'000'000).think_ns == 25'000'000);  // three waiting: a quarter of the cap
  CHECK(BotPool::paced(hard, 3, 0).think_ns == hard.think_ns / 4);
  CHECK(BotPool::paced(hard, BotPool::kGreedyQueueDepth, 0).kind == BotKind::Greedy);
  CHECK(BotPool::paced(easy, 0, 1'000'000).kind == BotKind::Greedy);
  CHECK(BotPool::paced(easy, 0, 1'000'000).think_ns == easy.think_ns);
}

}  // namespace carc::server
