// The server-wide budget for frames waiting to be written to slow readers. Each connection
// already caps its own queue (--max-queue, --max-queue-bytes); this bounds the sum, so that
// many clients that stop reading cannot take the server's memory between them: past
// --max-queued-bytes the biggest queues are dropped first, and the connections of one
// client address may hold an eighth of the budget at most (docs/configuration.md).
//
// The hot path touches one atomic: a connection reports each change of its queue's size,
// and only queues past kTracked bytes (a few slow readers, never a healthy client's patches)
// are known by name, under a mutex, to be chosen from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "base/metrics.hpp"

namespace carc::server {

class QueueBudget {
 public:
  // What a connection shows of its queue. Both calls may come from any thread.
  class Queue {
   public:
    virtual ~Queue() = default;
    virtual std::size_t queued_bytes() const = 0;
    virtual void shed() = 0;  // drop this connection: its queue goes with it
    virtual std::weak_ptr<Queue> weak_queue() = 0;
    virtual const std::string& budget_address() const = 0;  // what its per-address share counts
  };

  static constexpr std::size_t kTracked = 16 * 1024;

  QueueBudget(std::size_t budget, Metrics& metrics) : budget_(budget), per_address_(budget / 8), metrics_(metrics) {}

  // A queue went from `before` to `after` bytes (from the connection's own thread).
  void changed(Queue& q, std::size_t before, std::size_t after);
  // The connection is gone (its queue is empty by then).
  void forget(const Queue* q);

  std::size_t budget() const { return budget_; }
  std::size_t per_address() const { return per_address_; }

 private:
  struct Entry {
    std::weak_ptr<Queue> queue;
    std::string address;
  };
  void enforce(const std::string& address);

  const std::size_t budget_;
  const std::size_t per_address_;
  Metrics& metrics_;
  std::mutex mu_;
  std::unordered_map<const Queue*, Entry> tracked_;
};

}  // namespace carc::server
