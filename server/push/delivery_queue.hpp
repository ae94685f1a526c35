// The notifier's deliveries between their notice and their answer (docs/turn-based.md,
// "Never blocking a game"): every room gets its share, and a receiver that fails slows only
// the notices meant for it. Pure bookkeeping: time is given, nothing is sent from here; the
// notifier's thread is its only caller.
//
// - Each room has its own queue of at most `per_room` deliveries (waiting, being sent, or
//   waiting to be tried again); past it, the room's oldest waiting delivery gives way.
// - All rooms together hold at most `total`. Past it, the room holding the most gives up its
//   oldest waiting delivery, unless the newcomer's room holds as many (the newcomer goes).
// - Per origin (scheme://host:port) one request may start every `spacing`, and the rooms
//   waiting for that origin take turns (round robin), one request each.
// - Per target (the URL itself) one request at a time. After a failure the target rests
//   (first_rest, doubled after each further failure in a row, at most max_rest, or longer
//   when the receiver asks with Retry-After): only the deliveries to that target wait; the
//   other targets of the same origin, and every other room, go on.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "push/http_client.hpp"
#include "room/notice.hpp"

namespace carc::server::push {

struct Delivery {
  std::string room;
  std::string origin;  // what the spacing counts
  std::string target;  // what rests after a failure: the URL
  std::string mark;    // its id in the delivery log ("<notice id>#hook" / "#push")
  int attempts = 0;
  std::uint64_t seq = 0;       // admission order (set by the queue): the oldest gives way first
  OutRequest request;          // a webhook's request (a push is encrypted for each attempt)
  std::optional<Notice> push;  // a push: its notice (for 404/410 and the encryption)
};

class DeliveryQueue {
 public:
  using Clock = std::chrono::steady_clock;
  using Ptr = std::shared_ptr<Delivery>;
  struct Limits {
    std::size_t total = 1000;
    std::size_t per_room = 100;
    Clock::duration spacing = std::chrono::milliseconds(200);
    Clock::duration first_rest = std::chrono::seconds(1);
    Clock::duration max_rest = std::chrono::seconds(60);
  };
  explicit DeliveryQueue(Limits limits) : limits_(limits) {}

  // Takes `d` on. Returns the deliveries that gave way (never to be sent), `d` itself
  // included when it is the one that goes.
  std::vector<Ptr> admit(Ptr d);

  // What `origin` does at `now`: a delivery to start (its target is busy until finished()
  // or retry()), else when to ask again (none: nothing waits, or only for a request to end).
  struct Next {
    Ptr start;
    std::optional<Clock::time_point> wake;
  };
  Next next(const std::string& origin, Clock::time_point now);

  // The target of `d` answered (it is alive): it rests no more.
  void answered(const Ptr& d);
  // The target of `d` failed (no answer, 429, 5xx): it rests, at least `asked` (a
  // Retry-After, at most max_rest). Returns how long.
  Clock::duration failed(const Ptr& d, Clock::time_point now, Clock::duration asked = {});
  // After its request: `d` goes back to the front of its room's queue (to be tried again
  // once its target has rested), or leaves the queue (delivered, refused, given up).
  void again(const Ptr& d);
  void done(const Ptr& d);

  std::size_t size() const { return total_; }
  std::size_t room_size(const std::string& room) const;

 private:
  struct Target {
    bool busy = false;
    int failures = 0;  // in a row
    Clock::time_point rest_until{};
    std::size_t deliveries = 0;  // of this target in the queue (forgotten at 0)
  };
  struct Lane {  // one origin
    Clock::time_point next_slot{};
    std::deque<std::string> turns;  // rooms waiting here, in the order they take their turn
    std::unordered_map<std::string, std::deque<Ptr>> waiting;  // per room, oldest first
  };
  struct Room {
    std::size_t deliveries = 0;
    std::vector<std::string> origins;  // the lanes where it has deliveries waiting
  };

  void wait(const Ptr& d, bool front);
  // Drops the oldest waiting delivery of `room`; false if none of its deliveries waits.
  bool give_way(const std::string& room, std::vector<Ptr>& dropped);
  void forget(const Ptr& d);

  Limits limits_;
  std::size_t total_ = 0;
  std::uint64_t admitted_ = 0;
  std::unordered_map<std::string, Lane> lanes_;
  std::unordered_map<std::string, Target> targets_;
  std::unordered_map<std::string, Room> rooms_;
};

}  // namespace carc::server::push
