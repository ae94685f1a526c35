// Players' display names (docs/community.md, "Names"): a player (a player key's public id)
// takes a name, may change it once a day, and every name it took stays in its history. The
// names pass the checks of seat and chat names (protocol::clean_name). The rows are read and
// written on this class's worker thread, never on an I/O thread or a strand.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/worker.hpp"
#include "carc/server/community_store.hpp"

namespace carc::server {

class PlayerNames {
 public:
  // A change at most once a day: the name is what others know a player by.
  static constexpr std::int64_t kChangeGapMs = 24LL * 3600 * 1000;
  static constexpr std::size_t kHistoryShown = 50;

  enum class Outcome { Ok, Unchanged, TooSoon, Unavailable };
  struct Answer {
    Outcome outcome = Outcome::Unavailable;
    std::vector<NameEntry> names;  // newest first, the current name first
    std::int64_t next_change_ms = 0;  // when the player may change it again (0: now)
  };

  explicit PlayerNames(std::unique_ptr<CommunityStore> store);

  // `name` is already checked. Every `done` runs on the worker thread.
  void set(std::string player, std::string name, std::int64_t now_ms, std::function<void(Answer)> done);
  void history(std::string player, std::function<void(Answer)> done);

 private:
  std::unique_ptr<CommunityStore> store_;
  Worker worker_;  // last: stops first
};

}  // namespace carc::server
