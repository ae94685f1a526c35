#include "push/delivery_queue.hpp"

#include <algorithm>

namespace carc::server::push {

std::size_t DeliveryQueue::room_size(const std::string& room) const {
  const auto it = rooms_.find(room);
  return it == rooms_.end() ? 0 : it->second.deliveries;
}

std::vector<DeliveryQueue::Ptr> DeliveryQueue::admit(Ptr d) {
  std::vector<Ptr> dropped;
  d->seq = ++admitted_;
  const std::size_t mine = room_size(d->room);
  // Who gives way: past the room's cap, the room itself; past the total, the room holding
  // the most (the newcomer's own when it holds as many as any other).
  std::optional<std::string> victim;
  if (mine >= limits_.per_room) {
    victim = d->room;
  } else if (total_ >= limits_.total) {
    victim = d->room;
    std::size_t most = mine;
    for (const auto& [id, r] : rooms_) {
      if (r.deliveries > most) {
        most = r.deliveries;
        victim = id;
      }
    }
  }
  if (victim && !give_way(*victim, dropped)) {
    dropped.push_back(d);
    return dropped;
  }
  ++total_;
  ++rooms_[d->room].deliveries;
  ++targets_[d->target].deliveries;
  wait(d, false);
  return dropped;
}

void DeliveryQueue::wait(const Ptr& d, bool front) {
  Lane& lane = lanes_[d->origin];
  auto& q = lane.waiting[d->room];
  if (q.empty()) {
    lane.turns.push_back(d->room);
    auto& origins = rooms_[d->room].origins;
    if (std::find(origins.begin(), origins.end(), d->origin) == origins.end()) origins.push_back(d->origin);
  }
  if (front) q.push_front(d);
  else q.push_back(d);
}

bool DeliveryQueue::give_way(const std::string& room, std::vector<Ptr>& dropped) {
  const auto rit = rooms_.find(room);
  if (rit == rooms_.end()) return false;
  std::string origin;
  std::size_t index = 0;
  std::uint64_t oldest = 0;
  for (const std::string& o : rit->second.origins) {
    const auto& q = lanes_.at(o).waiting.at(room);
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (oldest == 0 || q[i]->seq < oldest) {
        oldest = q[i]->seq;
        origin = o;
        index = i;
      }
    }
  }
  if (oldest == 0) return false;
  Lane& lane = lanes_.at(origin);
  auto& q = lane.waiting.at(room);
  Ptr d = q[index];
  q.erase(q.begin() + static_cast<std::ptrdiff_t>(index));
  if (q.empty()) {
    lane.waiting.erase(room);
    lane.turns.erase(std::find(lane.turns.begin(), lane.turns.end(), room));
    auto& origins = rit->second.origins;
    origins.erase(std::find(origins.begin(), origins.end(), origin));
  }
  forget(d);
  dropped.push_back(std::move(d));
  return true;
}

DeliveryQueue::Next DeliveryQueue::next(const std::string& origin, Clock::time_point now) {
  const auto lit = lanes_.find(origin);
  if (lit == lanes_.end()) return {};
  Lane& lane = lit->second;
  if (lane.turns.empty()) {
    if (lane.next_slot <= now) lanes_.erase(lit);  // nothing waits, and the spacing is over
    return {};
  }
  if (now < lane.next_slot) return {nullptr, lane.next_slot};
  std::optional<Clock::time_point> wake;
  // Each room in turn, once: its first delivery whose target is free and rested starts.
  for (std::size_t n = lane.turns.size(); n > 0; --n) {
    std::string room = std::move(lane.turns.front());
    lane.turns.pop_front();
    auto& q = lane.waiting.at(room);
    const auto it = std::find_if(q.begin(), q.end(), [&](const Ptr& d) {
      const Target& t = targets_.at(d->target);
      return !t.busy && t.rest_until <= now;
    });
    if (it == q.end()) {
      // Resting targets say when to look again; a busy one wakes the lane when it ends.
      for (const Ptr& d : q) {
        const Target& t = targets_.at(d->target);
        if (!t.busy) wake = wake ? std::min(*wake, t.rest_until) : t.rest_until;
      }
      lane.turns.push_back(std::move(room));
      continue;
    }
    Ptr d = *it;
    q.erase(it);
    if (q.empty()) {
      lane.waiting.erase(room);
      auto& origins = rooms_.at(room).origins;
      origins.erase(std::find(origins.begin(), origins.end(), origin));
    } else {
      lane.turns.push_back(std::move(room));
    }
    targets_.at(d->target).busy = true;
    lane.next_slot = now + limits_.spacing;
    return {std::move(d), std::nullopt};
  }
  return {nullptr, wake};
}

void DeliveryQueue::answered(const Ptr& d) {
  Target& t = targets_.at(d->target);
  t.failures = 0;
  t.rest_until = {};
}

DeliveryQueue::Clock::duration DeliveryQueue::failed(const Ptr& d, Clock::time_point now, Clock::duration asked) {
  Target& t = targets_.at(d->target);
  ++t.failures;
  Clock::duration rest = limits_.first_rest;
  for (int i = 1; i < t.failures && rest < limits_.max_rest; ++i) rest *= 2;
  rest = std::max(std::min(rest, limits_.max_rest), std::min(asked, limits_.max_rest));
  t.rest_until = now + rest;
  return rest;
}

void DeliveryQueue::again(const Ptr& d) {
  targets_.at(d->target).busy = false;
  wait(d, true);
}

void DeliveryQueue::done(const Ptr& d) {
  targets_.at(d->target).busy = false;
  forget(d);
}

void DeliveryQueue::forget(const Ptr& d) {
  --total_;
  if (const auto r = rooms_.find(d->room); r != rooms_.end() && --r->second.deliveries == 0) rooms_.erase(r);
  if (const auto t = targets_.find(d->target); t != targets_.end() && --t->second.deliveries == 0 && !t->second.busy) {
    targets_.erase(t);
  }
}

}  // namespace carc::server::push
