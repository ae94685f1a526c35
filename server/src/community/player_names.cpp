#include "community/player_names.hpp"

#include <spdlog/spdlog.h>

namespace carc::server {

PlayerNames::PlayerNames(std::unique_ptr<CommunityStore> store) : store_(std::move(store)), worker_("carc-names", 1024) {}

namespace {

std::int64_t next_change(const std::vector<NameEntry>& names) {
  return names.empty() ? 0 : names.front().since_ms + PlayerNames::kChangeGapMs;
}

}  // namespace

void PlayerNames::set(std::string player, std::string name, std::int64_t now_ms, std::function<void(Answer)> done) {
  if (!worker_.post([this, player = std::move(player), name = std::move(name), now_ms, done] {
        Answer a;
        auto before = store_->names(player, kHistoryShown);
        if (auto* why = std::get_if<std::string>(&before)) {
          spdlog::warn("player names: {}", *why);
          return done(a);
        }
        a.names = std::move(std::get<std::vector<NameEntry>>(before));
        a.next_change_ms = next_change(a.names);
        if (!a.names.empty() && a.names.front().name == name) {
          a.outcome = Outcome::Unchanged;  // the same name again costs no change
          return done(std::move(a));
        }
        const auto added = store_->add_name(player, name, now_ms, kChangeGapMs);
        if (auto* why = std::get_if<std::string>(&added)) {
          spdlog::warn("player names: {}", *why);
          return done(Answer{});
        }
        if (!std::get<bool>(added)) {
          a.outcome = Outcome::TooSoon;
          return done(std::move(a));
        }
        a.outcome = Outcome::Ok;
        a.names.insert(a.names.begin(), NameEntry{name, now_ms});
        if (a.names.size() > kHistoryShown) a.names.pop_back();
        a.next_change_ms = next_change(a.names);
        done(std::move(a));
      })) {
    done(Answer{});
  }
}

void PlayerNames::history(std::string player, std::function<void(Answer)> done) {
  if (!worker_.post([this, player = std::move(player), done] {
        Answer a;
        auto names = store_->names(player, kHistoryShown);
        if (auto* why = std::get_if<std::string>(&names)) {
          spdlog::warn("player names: {}", *why);
          return done(a);
        }
        a.outcome = Outcome::Ok;
        a.names = std::move(std::get<std::vector<NameEntry>>(names));
        a.next_change_ms = next_change(a.names);
        done(std::move(a));
      })) {
    done(Answer{});
  }
}

}  // namespace carc::server
