// A Game without its grid and without the unused capacity of its arrays
// (carc/core/packed_game.hpp). The small state (every member before the arrays) is copied
// as bytes, so a new scalar member of Game is packed without a change here; the layout
// checks below fail the build when an array is added, removed or moved.
#include "carc/core/packed_game.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace carc {

namespace {

constexpr std::size_t round_up(std::size_t n, std::size_t align) { return (n + align - 1) / align * align; }

// `next` (of alignment `align`) starts right after an array at `prev` of `size` bytes.
constexpr bool follows(std::size_t prev, std::size_t size, std::size_t next, std::size_t align) {
  return next == round_up(prev + size, align);
}

}  // namespace

PackedGame::PackedGame(const Game& g) {
  static_assert(std::is_standard_layout_v<Game>);
  // Game's layout: the small state, then frontier_want_, frontier_, bag_, placed_, nodes_ and grid_, the
  // grid last (game.hpp). A member among the arrays would be lost: these checks catch it.
  static_assert(follows(offsetof(Game, frontier_want_), sizeof(Game::frontier_want_), offsetof(Game, frontier_),
                        alignof(Game::FrontierCell)));
  static_assert(follows(offsetof(Game, frontier_), sizeof(Game::frontier_), offsetof(Game, bag_), alignof(Tile)));
  static_assert(follows(offsetof(Game, bag_), sizeof(Game::bag_), offsetof(Game, placed_), alignof(Game::Placed)));
  static_assert(follows(offsetof(Game, placed_), sizeof(Game::placed_), offsetof(Game, nodes_), alignof(Game::Node)));
  static_assert(follows(offsetof(Game, nodes_), sizeof(Game::nodes_), offsetof(Game, grid_), alignof(std::uint16_t)));
  static_assert(follows(offsetof(Game, grid_), sizeof(Game::grid_), sizeof(Game), alignof(Game)));
  const std::size_t head = offsetof(Game, frontier_want_);
  const std::size_t wants = g.frontier_count_ * sizeof(std::uint16_t);
  const std::size_t frontier = g.frontier_count_ * sizeof(Game::FrontierCell);
  const std::size_t bag = g.rules_ != nullptr ? static_cast<std::size_t>(g.rules_->bag_size) : 0;
  const std::size_t placed = g.placed_count_ * sizeof(Game::Placed);
  const std::size_t nodes = g.node_count_ * sizeof(Game::Node);
  size_ = head + wants + frontier + bag + placed + nodes;
  bytes_ = std::make_unique_for_overwrite<std::uint8_t[]>(size_);
  std::uint8_t* at = bytes_.get();
  const auto put = [&at](const void* from, std::size_t n) {
    std::memcpy(at, from, n);
    at += n;
  };
  put(&g, head);
  put(g.frontier_want_.data(), wants);
  put(g.frontier_.data(), frontier);
  put(g.bag_.data(), bag);
  put(g.placed_.data(), placed);
  put(g.nodes_.data(), nodes);
}

PackedGame::PackedGame(const PackedGame& o)
    : bytes_(std::make_unique_for_overwrite<std::uint8_t[]>(o.size_)), size_(o.size_) {
  std::memcpy(bytes_.get(), o.bytes_.get(), size_);
}

PackedGame& PackedGame::operator=(const PackedGame& o) {
  if (this != &o) *this = PackedGame(o);
  return *this;
}

void PackedGame::unpack(Game& out) const {
  const std::uint8_t* at = bytes_.get();
  const auto take = [&at](void* to, std::size_t n) {
    std::memcpy(to, at, n);
    at += n;
  };
  take(static_cast<void*>(&out), offsetof(Game, frontier_want_));
  take(out.frontier_want_.data(), out.frontier_count_ * sizeof(std::uint16_t));
  take(out.frontier_.data(), out.frontier_count_ * sizeof(Game::FrontierCell));
  take(out.bag_.data(), out.rules_ != nullptr ? static_cast<std::size_t>(out.rules_->bag_size) : 0);
  take(out.placed_.data(), out.placed_count_ * sizeof(Game::Placed));
  take(out.nodes_.data(), out.node_count_ * sizeof(Game::Node));
  // The grid: a placed tile's cell holds its index + 1, a frontier cell kFrontierBase + its
  // place in the frontier, every other cell 0 (game.hpp).
  std::fill(out.grid_.begin(), out.grid_.begin() + out.grid_mask_ + 1, std::uint16_t{0});
  for (int i = 0; i < out.placed_count_; ++i) {
    const Game::Placed& p = out.placed_[static_cast<std::size_t>(i)];
    out.grid_[static_cast<std::size_t>(out.grid_index(Cell{p.x, p.y}))] = static_cast<std::uint16_t>(i + 1);
  }
  for (int i = 0; i < out.frontier_count_; ++i) {
    const Game::FrontierCell& f = out.frontier_[static_cast<std::size_t>(i)];
    out.grid_[static_cast<std::size_t>(out.grid_index(Cell{f.x, f.y}))] =
        static_cast<std::uint16_t>(Game::kFrontierBase + i);
  }
}

Game PackedGame::unpack() const {
  Game g;
  unpack(g);
  return g;
}

}  // namespace carc
