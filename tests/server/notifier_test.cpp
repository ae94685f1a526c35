// Notifications are fair between rooms (docs/turn-based.md, "Never blocking a game"): rooms
// whose webhook fails, however many notices they make, neither fill the notifier nor hold up
// another room's "your turn", which reaches its live receiver at once; a failing receiver
// rests without delaying the others of its own host. The queue's rules alone, with the
// time given: the caps, who gives way, turns, and rests. A tournament's new_table notice in
// each webhook format and as a push payload (docs/tournaments.md#notifications).
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "push/delivery_queue.hpp"
#include "push/notifier.hpp"
#include "push/webpush.hpp"

namespace carc::server {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A webhook receiver on 127.0.0.1: answers each path with its status (201 by default) and
// records when each request came.
class Receiver {
 public:
  explicit Receiver(std::map<std::string, int> statuses = {})
      : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), statuses_(std::move(statuses)) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Receiver() {
    stop_ = true;
    tcp::socket s(io_);
    beast::error_code ec;
    s.connect(acceptor_.local_endpoint(), ec);  // wakes the blocking accept
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }
  // When the first request for `body_part` came, if one did.
  std::optional<Clock::time_point> first(const std::string& body_part) {
    std::lock_guard lock(mu_);
    for (const auto& [at, body] : got_) {
      if (body.find(body_part) != std::string::npos) return at;
    }
    return std::nullopt;
  }
  std::size_t count(const std::string& path) {
    std::lock_guard lock(mu_);
    return paths_[path];
  }

 private:
  void loop() {
    while (!stop_) {
      tcp::socket sock(io_);
      beast::error_code ec;
      acceptor_.accept(sock, ec);
      if (ec || stop_) return;
      beast::flat_buffer buf;
      http::request<http::string_body> req;
      http::read(sock, buf, req, ec);
      if (ec) continue;
      const std::string path(req.target());
      int status = 201;
      {
        std::lock_guard lock(mu_);
        got_.emplace_back(Clock::now(), req.body());
        ++paths_[path];
        if (auto it = statuses_.find(path); it != statuses_.end()) status = it->second;
      }
      http::response<http::string_body> res{static_cast<http::status>(status), 11};
      res.set(http::field::connection, "close");
      res.prepare_payload();
      http::write(sock, res, ec);
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::map<std::string, int> statuses_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<std::pair<Clock::time_point, std::string>> got_;
  std::map<std::string, std::size_t> paths_;
  std::thread thread_;
};

// A port nothing listens on: connections to it are refused at once.
std::string dead_url() {
  asio::io_context io;
  tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const auto port = a.local_endpoint().port();
  a.close();
  return "http://127.0.0.1:" + std::to_string(port) + "/hook";
}

Notice your_turn(const std::string& room, int n, const std::string& url) {
  Notice x;
  x.id = room + "-turn-" + std::to_string(n);
  x.room = room;
  x.seat = 0;
  x.name = "Alice";
  x.hook = protocol::WebhookSetting{url, protocol::HookFormat::Json};
  return x;
}

std::shared_ptr<Notifier> notifier() {
  Notifier::Options o;
  o.allow_private = true;
  o.base_url = "https://carc.test";
  return std::make_shared<Notifier>(o, push::Vapid::generate(), nullptr);
}

// Waits until `receiver` got the notice with id `id`; how long after `since`.
std::optional<Clock::duration> delivered(Receiver& receiver, const std::string& id, Clock::time_point since,
                                         std::chrono::seconds limit) {
  while (Clock::now() < since + limit) {
    if (auto at = receiver.first("\"" + id + "\"")) return *at - since;
    std::this_thread::sleep_for(10ms);
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("notifier: three rooms flooding a dead webhook do not keep a fourth room's notice from its receiver") {
  spdlog::set_level(spdlog::level::err);
  Receiver live;
  const std::string dead = dead_url();
  auto n = notifier();
  // Fast turn-based rooms whose webhook is gone: 400 notices each, every one failing.
  for (int i = 0; i < 400; ++i) {
    n->send({your_turn("flood-room-a", i, dead), your_turn("flood-room-b", i, dead), your_turn("flood-room-c", i, dead)});
  }
  const auto t0 = Clock::now();
  n->send({your_turn("quiet-room-d", 0, live.url("/hook"))});
  const auto took = delivered(live, "quiet-room-d-turn-0", t0, 5s);
  REQUIRE_MESSAGE(took.has_value(), "the fourth room's notice was never delivered");
  MESSAGE("delivered after " << std::chrono::duration_cast<std::chrono::milliseconds>(*took).count() << " ms");
  CHECK(*took < 2s);
  CHECK(n->dropped() > 0);  // the flooding rooms gave up their own oldest notices
  // And again later, while the dead webhook is still being retried.
  std::this_thread::sleep_for(1500ms);
  const auto t1 = Clock::now();
  n->send({your_turn("quiet-room-d", 1, live.url("/hook"))});
  const auto again = delivered(live, "quiet-room-d-turn-1", t1, 5s);
  REQUIRE(again.has_value());
  CHECK(*again < 2s);
}

TEST_CASE("notifier: a failing webhook rests without delaying another room's webhook on the same host") {
  spdlog::set_level(spdlog::level::err);
  Receiver host({{"/failing", 503}});
  auto n = notifier();
  // Three rooms' webhooks on one host answer 503 to every try; 30 notices each.
  for (int i = 0; i < 30; ++i) {
    n->send({your_turn("failing-room-a", i, host.url("/failing")), your_turn("failing-room-b", i, host.url("/failing")),
             your_turn("failing-room-c", i, host.url("/failing"))});
  }
  const auto t0 = Clock::now();
  n->send({your_turn("healthy-room-d", 0, host.url("/fine"))});
  const auto took = delivered(host, "healthy-room-d-turn-0", t0, 10s);
  REQUIRE_MESSAGE(took.has_value(), "the healthy webhook's notice was never delivered");
  MESSAGE("delivered after " << std::chrono::duration_cast<std::chrono::milliseconds>(*took).count() << " ms");
  CHECK(*took < 2s);  // its turn comes after at most one request of each room (200 ms apart)
  // The failing URL is tried one request at a time, resting after each failure (1 s, 2 s):
  // a few tries in these seconds, not one every 200 ms.
  std::this_thread::sleep_for(2s);
  CHECK(host.count("/failing") >= 2);
  CHECK(host.count("/failing") <= 4);
}

TEST_CASE("delivery queue: per-room and total caps, who gives way, turns between rooms, rests per target") {
  using push::DeliveryQueue;
  DeliveryQueue::Limits limits;
  limits.total = 6;
  limits.per_room = 3;
  limits.spacing = 200ms;
  limits.first_rest = 2s;
  DeliveryQueue q(limits);
  auto make = [](const std::string& room, const std::string& target, int n) {
    auto d = std::make_shared<push::Delivery>();
    d->room = room;
    d->origin = "https://h.test";
    d->target = target;
    d->mark = room + "#" + std::to_string(n);
    return d;
  };
  // A room past its own cap gives up its own oldest waiting delivery.
  for (int i = 0; i < 3; ++i) CHECK(q.admit(make("a", "https://h.test/a", i)).empty());
  auto gone = q.admit(make("a", "https://h.test/a", 3));
  REQUIRE(gone.size() == 1);
  CHECK(gone[0]->mark == "a#0");
  CHECK(q.room_size("a") == 3);
  // Past the total, the room holding the most gives way, not the newcomer.
  for (int i = 0; i < 2; ++i) CHECK(q.admit(make("b", "https://h.test/b", i)).empty());
  CHECK(q.admit(make("c", "https://h.test/c", 0)).empty());
  CHECK(q.size() == 6);
  gone = q.admit(make("d", "https://h.test/d", 0));
  REQUIRE(gone.size() == 1);
  CHECK(gone[0]->mark == "a#1");
  CHECK(q.room_size("d") == 1);
  // A newcomer whose room holds as many as the biggest: its own room gives way.
  gone = q.admit(make("b", "https://h.test/b", 2));
  REQUIRE(gone.size() == 1);
  CHECK(gone[0]->room == "b");
  // Turns: a, b, c, d, one each, `spacing` apart.
  auto t = Clock::time_point{} + 1h;
  std::vector<std::string> order;
  for (int i = 0; i < 4; ++i) {
    auto next = q.next("https://h.test", t);
    CHECK(!q.next("https://h.test", t).start);  // the spacing
    REQUIRE(next.start);
    order.push_back(next.start->room);
    if (next.start->room == "a") {
      CHECK(q.failed(next.start, t) == 2s);  // its target rests
      q.again(next.start);
    } else {
      q.answered(next.start);
      q.done(next.start);
    }
    t += 200ms;
  }
  CHECK(order == std::vector<std::string>{"a", "b", "c", "d"});
  // a's target rests for 2 s: b goes on meanwhile.
  auto next = q.next("https://h.test", t);
  REQUIRE(next.start);
  CHECK(next.start->room == "b");
  q.done(next.start);
  t += 200ms;
  next = q.next("https://h.test", t);
  CHECK(!next.start);
  REQUIRE(next.wake);
  CHECK(*next.wake == Clock::time_point{} + 1h + 2s);
  next = q.next("https://h.test", *next.wake);
  REQUIRE(next.start);
  CHECK(next.start->room == "a");
  CHECK(q.failed(next.start, *next.wake) == 4s);  // a second failure in a row: twice as long
  CHECK(q.failed(next.start, *next.wake, 30s) == 30s);  // or what Retry-After asks
  CHECK(q.failed(next.start, *next.wake, 1h) == 60s);   // at most a minute
}

TEST_CASE("notifier: a tournament's new_table notice names the room's link, the seat and the tournament in every format") {
  Notice n;
  n.event = Notice::Event::NewTable;
  n.id = "t-abc-2-1-0-1";
  n.room = "room42";
  n.seat = 1;
  n.name = "Ann";
  n.tournament = "abc";
  n.tournament_name = "Weekly";
  n.round = 2;
  n.hook = protocol::WebhookSetting{"https://hooks.example/x", protocol::HookFormat::Json};
  const auto json_req = Notifier::webhook_request(n, "https://carc.example");
  const auto body = nlohmann::json::parse(json_req.body);
  CHECK(body["event"] == "new_table");
  CHECK(body["url"] == "https://carc.example/r/room42");
  CHECK(body["seat"] == 1);
  CHECK(body["name"] == "Ann");
  CHECK(body["tournament"] == nlohmann::json{{"id", "abc"}, {"name", "Weekly"}, {"round", 2}, {"url", "https://carc.example/t/abc"}});
  n.hook->format = protocol::HookFormat::Discord;
  CHECK(nlohmann::json::parse(Notifier::webhook_request(n, "https://carc.example").body)["content"] ==
        "Round 2 of Weekly: your table is ready, Ann: https://carc.example/r/room42");
  n.hook->format = protocol::HookFormat::Ntfy;
  const auto ntfy = Notifier::webhook_request(n, "https://carc.example");
  CHECK(ntfy.body == "Round 2 of Weekly: your table is ready, Ann: https://carc.example/r/room42");
  bool titled = false;
  for (const auto& [k, v] : ntfy.headers) titled = titled || (k == "Title" && v == "Carcassonne tournament: new round");
  CHECK(titled);
  const auto payload = nlohmann::json::parse(Notifier::push_payload(n, "https://carc.example"));
  CHECK(payload["title"] == "Carcassonne tournament: new round");
  CHECK(payload["tournament"]["round"] == 2);
  CHECK(payload["id"] == "t-abc-2-1-0-1");
}

}  // namespace carc::server
