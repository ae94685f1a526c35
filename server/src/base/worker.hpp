// One thread that runs blocking side work (the player keys' database, outgoing
// notifications' bookkeeping) in order, off the I/O threads, the strands and the room
// writer. The queue is bounded: past `max_queued` a task is refused (post returns false) and
// the caller answers "unavailable" rather than letting the backlog grow.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace carc::server {

class Worker {
 public:
  explicit Worker(std::string name, std::size_t max_queued = 1024);
  ~Worker();  // runs what is queued, then stops
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  bool post(std::function<void()> task);

 private:
  std::string name_;
  std::size_t max_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace carc::server
