#include "community/open_games.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"

namespace carc::server {

std::optional<std::string> OpenGames::admit(const std::string& room, const std::string& address) {
  std::lock_guard lock(mu_);
  if (!address.empty()) {
    std::size_t n = 0;
    for (const auto& [r, a] : opener_) n += (a == address && r != room) ? 1 : 0;
    if (n >= per_address_) {
      return "this address has " + std::to_string(n) + " open games already (at most " + std::to_string(per_address_) +
             "): close one, or start it, first";
    }
  }
  opener_[room] = address;
  return std::nullopt;
}

void OpenGames::changed(const std::string& room, const std::optional<OpenListing>& listing, bool open) {
  std::lock_guard lock(mu_);
  if (!open) opener_.erase(room);
  if (listing) listed_[room] = *listing;
  else listed_.erase(room);
  ++version_;
}

std::size_t OpenGames::opened_by(const std::string& address) const {
  std::lock_guard lock(mu_);
  if (address.empty()) return 0;
  return static_cast<std::size_t>(std::count_if(opener_.begin(), opener_.end(), [&](const auto& p) { return p.second == address; }));
}

std::vector<OpenListing> OpenGames::list() const {
  std::vector<OpenListing> out;
  {
    std::lock_guard lock(mu_);
    for (const auto& [room, l] : listed_) out.push_back(l);
    for (const auto& l : remote_) {
      if (!listed_.contains(l.room)) out.push_back(l);  // a room that just moved here: ours wins
    }
  }
  std::sort(out.begin(), out.end(), [](const OpenListing& a, const OpenListing& b) {
    return a.opened_ms != b.opened_ms ? a.opened_ms < b.opened_ms : a.room < b.room;
  });
  rate(out);
  return out;
}

void OpenGames::set_remote(std::vector<OpenListing> rows) {
  std::lock_guard lock(mu_);
  remote_ = std::move(rows);
}

std::vector<OpenListing> OpenGames::local() const {
  std::lock_guard lock(mu_);
  std::vector<OpenListing> out;
  for (const auto& [room, l] : listed_) out.push_back(l);
  return out;
}

std::uint64_t OpenGames::local_version() const {
  std::lock_guard lock(mu_);
  return version_;
}

void OpenGames::set_rater(Rater r) {
  std::lock_guard lock(mu_);
  rater_ = std::move(r);
}

void OpenGames::rate(std::vector<OpenListing>& l) const {
  Rater r;
  {
    std::lock_guard lock(mu_);
    r = rater_;
  }
  if (r) r(l);
}

std::optional<OpenListing> OpenGames::best(const std::vector<OpenListing>& games, const Wish& wish) {
  const OpenListing* pick = nullptr;
  auto distance = [&](const OpenListing& l) {
    return (wish.rating && l.rating) ? std::abs(*wish.rating - *l.rating) : 0.0;
  };
  for (const auto& g : games) {
    if (g.expansions != wish.expansions || g.pace != wish.pace || g.seated >= g.seats) continue;
    if (pick == nullptr) {
      pick = &g;
      continue;
    }
    if (g.seated != pick->seated) {
      if (g.seated > pick->seated) pick = &g;
      continue;
    }
    if (distance(g) != distance(*pick)) {
      if (distance(g) < distance(*pick)) pick = &g;
      continue;
    }
    if (g.opened_ms < pick->opened_ms || (g.opened_ms == pick->opened_ms && g.room < pick->room)) pick = &g;
  }
  if (pick == nullptr) return std::nullopt;
  return *pick;
}

std::string OpenGames::json(const std::vector<OpenListing>& games, std::size_t max) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& g : games) {
    if (list.size() >= max) break;
    const bool tb = g.pace == protocol::Pace::TurnBased;
    list.push_back({{"room", g.room},
                    {"seats_taken", g.seated},
                    {"seats_free", g.seats - g.seated},
                    {"seats", g.seats},
                    {"expansions", protocol::expansions_json(g.expansions)},
                    {"pace", protocol::pace_name(g.pace)},
                    {"turn_seconds", (!tb && g.turn_seconds) ? nlohmann::json(*g.turn_seconds) : nlohmann::json(nullptr)},
                    {"bank_seconds", tb ? nlohmann::json(g.bank_seconds) : nlohmann::json(nullptr)},
                    {"increment_seconds", tb ? nlohmann::json(g.increment_seconds) : nlohmann::json(nullptr)},
                    {"host", g.host},
                    {"opened", g.opened_ms},
                    {"rating", g.rating ? nlohmann::json(*g.rating) : nlohmann::json(nullptr)}});
  }
  return protocol::json_text(nlohmann::json{{"games", std::move(list)}});
}

}  // namespace carc::server
