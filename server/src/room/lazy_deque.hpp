// A queue that holds no memory while it is empty. libstdc++'s std::deque allocates its map
// and a first block of elements (about 600 bytes) as soon as it exists, and every room has
// its chat and its waiting commands, empty most of the time (docs/hot-path.md#memory).
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace carc::server {

template <class T>
class LazyDeque {
  std::unique_ptr<std::deque<T>> items_;

 public:
  bool empty() const { return !items_ || items_->empty(); }
  std::size_t size() const { return items_ ? items_->size() : 0; }
  T& front() { return items_->front(); }
  T& back() { return items_->back(); }
  void push_back(T item) {
    if (!items_) items_ = std::make_unique<std::deque<T>>();
    items_->push_back(std::move(item));
  }
  // The last element out gives the memory back.
  void pop_front() {
    items_->pop_front();
    if (items_->empty()) items_.reset();
  }
  void clear() { items_.reset(); }
  // The elements as a std::deque (an empty one when there are none).
  const std::deque<T>& items() const {
    static const std::deque<T> none;
    return items_ ? *items_ : none;
  }
  auto begin() const { return items().begin(); }
  auto end() const { return items().end(); }
};

}  // namespace carc::server
