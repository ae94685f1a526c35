// The frames waiting for one WebSocket connection (net/ws_session.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace carc::server {

// The frames waiting for one connection, oldest first: a vector and the index of its
// front. An idle connection holds no allocation for it (a std::deque takes 576 bytes as
// soon as it exists, and a server holds thousands of idle connections).
class FrameQueue {
 public:
  bool empty() const { return head_ == frames_.size(); }
  std::size_t size() const { return frames_.size() - head_; }
  std::shared_ptr<const std::string> take_front() {
    auto f = std::move(frames_[head_++]);
    if (head_ == frames_.size()) clear();
    return f;
  }
  void push_back(std::shared_ptr<const std::string> frame) {
    if (head_ >= 32 && head_ * 2 >= frames_.size()) {  // a client that never catches up
      frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    frames_.push_back(std::move(frame));
  }
  void clear() {
    frames_.clear();
    head_ = 0;
  }

 private:
  std::vector<std::shared_ptr<const std::string>> frames_;
  std::size_t head_ = 0;
};

}  // namespace carc::server
