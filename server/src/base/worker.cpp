#include "base/worker.hpp"

#include <pthread.h>

#include "base/guard.hpp"

namespace carc::server {

Worker::Worker(std::string name, std::size_t max_queued) : name_(std::move(name)), max_(max_queued) {
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), name_.substr(0, 15).c_str());
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      auto task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      guarded(name_, task);
      lock.lock();
    }
  });
}

Worker::~Worker() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool Worker::post(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || queue_.size() >= max_) return false;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

}  // namespace carc::server
