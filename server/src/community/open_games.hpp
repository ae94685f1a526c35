// The open games (docs/community.md, "Open games and quick play"): the lobbies whose host
// listed them, as GET /api/open-games shows them and quick play picks among them, and the
// cap on how many one client address may have open. Rooms tell it their listing from their
// strands (Room::relist); the list is read from HTTP threads: a mutex guards it, held only
// to copy. With several nodes it also holds the other nodes' rows (set_shared).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "room/open_listing.hpp"

namespace carc::server {

class OpenGames {
 public:
  explicit OpenGames(std::size_t per_address = 3) : per_address_(per_address) {}

  // ---- the rooms' side (their strands) ----
  // The gate of RoomLogic::set_open_gate: none and counted when `address` may open `room`,
  // else the refusal's text.
  std::optional<std::string> admit(const std::string& room, const std::string& address);
  // Room::relist: the room's listing (none: not shown); `open` false once the room is no
  // longer open at all (started, closed, gone): its address's count goes down.
  void changed(const std::string& room, const std::optional<OpenListing>& listing, bool open);
  // How many games `address` has open now.
  std::size_t opened_by(const std::string& address) const;
  std::size_t per_address() const { return per_address_; }

  // ---- the readers' side ----
  // This node's listed lobbies, and (several nodes) the other nodes' live rows, oldest first.
  std::vector<OpenListing> list() const;
  // The rows of other nodes, refreshed from shared storage (community/open_games_sync.hpp).
  void set_remote(std::vector<OpenListing> rows);
  // What this node lists now, for its rows in shared storage, and a counter that moves
  // whenever that changes.
  std::vector<OpenListing> local() const;
  std::uint64_t local_version() const;

  // Ratings (docs/community.md): fills listings' `rating` (the host's) before they are
  // shown or matched. Unset until players are rated: every rating stays null.
  using Rater = std::function<void(std::vector<OpenListing>&)>;
  void set_rater(Rater r);
  void rate(std::vector<OpenListing>& l) const;

  // What quick play wants (docs/community.md): the same expansions and pace.
  struct Wish {
    ExpansionSet expansions = {};
    protocol::Pace pace = protocol::Pace::Live;
    std::optional<double> rating = std::nullopt;  // the asking player's, once ratings exist
  };
  // The best fit among `games`: the same expansions and pace only; then the most seats
  // taken; then the closest host rating (when both are known); then the oldest. Pure.
  static std::optional<OpenListing> best(const std::vector<OpenListing>& games, const Wish& wish);
  // {"games": [...]}: GET /api/open-games (at most `max` games).
  static std::string json(const std::vector<OpenListing>& games, std::size_t max = 100);

 private:
  mutable std::mutex mu_;
  std::size_t per_address_;
  std::map<std::string, OpenListing> listed_;  // room -> listing, this node's
  std::map<std::string, std::string> opener_;  // room -> the address that opened it
  std::vector<OpenListing> remote_;
  std::uint64_t version_ = 0;
  Rater rater_;
};

}  // namespace carc::server
