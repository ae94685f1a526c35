#include "community/open_games_sync.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json.hpp"
#include "room/room.hpp"

namespace carc::server {

std::string listing_row(const OpenListing& l) {
  nlohmann::json j{{"room", l.room}, {"seated", l.seated}, {"seats", l.seats}, {"expansions", l.expansions.bits()},
                   {"pace", protocol::pace_name(l.pace)}, {"bank", l.bank_seconds}, {"increment", l.increment_seconds},
                   {"host", l.host}, {"host_seat", l.host_seat}, {"opened", l.opened_ms},
                   {"host_player", l.host_player}};
  j["turn"] = l.turn_seconds ? nlohmann::json(*l.turn_seconds) : nlohmann::json(nullptr);
  return protocol::json_text(j);
}

std::optional<OpenListing> listing_of_row(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    OpenListing l;
    l.room = j.at("room").get<std::string>();
    l.seated = j.at("seated").get<int>();
    l.seats = j.at("seats").get<int>();
    l.expansions = ExpansionSet::from_bits(j.at("expansions").get<std::uint8_t>());
    l.pace = j.at("pace").get<std::string>() == protocol::pace_name(protocol::Pace::TurnBased) ? protocol::Pace::TurnBased
                                                                                             : protocol::Pace::Live;
    l.bank_seconds = j.at("bank").get<int>();
    l.increment_seconds = j.at("increment").get<int>();
    l.host = j.at("host").get<std::string>();
    l.host_seat = j.at("host_seat").get<int>();
    l.opened_ms = j.at("opened").get<std::int64_t>();
    l.host_player = j.value("host_player", std::string());  // rows of a node without it: none
    if (j.at("turn").is_number_integer()) l.turn_seconds = j.at("turn").get<int>();
    return l;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

OpenGamesSync::OpenGamesSync(std::unique_ptr<CommunityStore> store, OpenGames& games, std::string node,
                             std::chrono::milliseconds lease)
    : store_(std::move(store)), games_(games), node_(std::move(node)), lease_(lease), thread_([this] { run(); }) {}

OpenGamesSync::~OpenGamesSync() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  // This node's rows go with it, so that the others stop listing them at once.
  if (const Status s = store_->put_open_games(node_, {}, unix_ms()); !s) spdlog::info("open games: {}", s.error());
}

void OpenGamesSync::run() {
  // Rows are read twice a second (a player's list is at most that late); this node's are
  // written when its list changed, and at least every quarter of a lease (their heartbeat).
  const auto read_every = std::chrono::milliseconds(500);
  const auto write_every = std::max(read_every, lease_ / 4);
  std::uint64_t written = ~std::uint64_t{0};
  auto last_write = std::chrono::steady_clock::now() - write_every;
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    const auto version = games_.local_version();
    const auto now = std::chrono::steady_clock::now();
    const bool write = version != written || now - last_write >= write_every;
    round(write);
    if (write) {
      written = version;
      last_write = now;
    }
    lock.lock();
    cv_.wait_for(lock, read_every, [this] { return stopping_; });
  }
}

void OpenGamesSync::round(bool write) {
  const std::int64_t now = unix_ms();
  if (write) {
    std::vector<OpenGameRow> rows;
    for (const auto& l : games_.local()) rows.push_back(OpenGameRow{l.room, node_, listing_row(l), now});
    if (const Status s = store_->put_open_games(node_, rows, now); !s) spdlog::warn("open games: {}", s.error());
  }
  auto rows = store_->open_games(now - lease_.count());
  if (auto* why = std::get_if<std::string>(&rows)) {
    spdlog::warn("open games: {}", *why);
    return;  // the others' rows as last read stay until the store answers again
  }
  std::vector<OpenListing> remote;
  for (const auto& r : std::get<std::vector<OpenGameRow>>(rows)) {
    if (r.node == node_) continue;
    if (auto l = listing_of_row(r.listing)) remote.push_back(std::move(*l));
  }
  games_.set_remote(std::move(remote));
}

}  // namespace carc::server
