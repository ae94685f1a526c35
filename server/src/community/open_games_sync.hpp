// Open games on several nodes (docs/community.md): each node writes the rows of the lobbies it
// lists to shared storage (its rows exactly, again every quarter of a lease, at once when its
// list changes) and reads the other nodes' rows written within the last lease, so a player on
// any node sees every open game; the rows of a node that died stop being fresh and drop out
// of every list a lease later (its rooms, taken over by other nodes, are listed by them once
// their hosts are back). Its own thread: storage never blocks an I/O thread or a strand.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "carc/server/community_store.hpp"
#include "community/open_games.hpp"

namespace carc::server {

// A listing as a row's text, and back (none: a row this node cannot read).
std::string listing_row(const OpenListing& l);
std::optional<OpenListing> listing_of_row(const std::string& text);

class OpenGamesSync {
 public:
  OpenGamesSync(std::unique_ptr<CommunityStore> store, OpenGames& games, std::string node, std::chrono::milliseconds lease);
  ~OpenGamesSync();  // stops the thread
  OpenGamesSync(const OpenGamesSync&) = delete;
  OpenGamesSync& operator=(const OpenGamesSync&) = delete;

 private:
  void run();
  void round(bool write);

  std::unique_ptr<CommunityStore> store_;
  OpenGames& games_;
  std::string node_;
  std::chrono::milliseconds lease_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace carc::server
