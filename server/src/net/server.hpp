// The server process: one io_context with N threads, HTTP and WebSocket on one port.
// This header stays free of Beast; see net.hpp for the internals.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "app/config.hpp"
#include "durable/persistence.hpp"

namespace carc::server {

class RoomRegistry;
class Metrics;
class Analyser;

class Server {
 public:
  // Without a Persistence, rooms live in memory only.
  explicit Server(Config config, std::unique_ptr<Persistence> persistence = nullptr);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the port (throws std::runtime_error with a clear message); returns the bound port.
  std::uint16_t listen();
  // Serves until SIGINT/SIGTERM or stop(), then closes WebSockets with "going away".
  void run();
  void stop();

  RoomRegistry& rooms();
  Metrics& metrics();
  struct TurnBasedServices& turn_based();  // player keys, notifications: set up before listen()
  Analyser& analyser();  // analyses of finished games (analyser.hpp)
  // The community (docs/community.md): the open games' directory, names, the shared list.
  class OpenGames& open_games();
  struct CommunityServices& community();  // set up before listen() (community/services.hpp)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `--probe URL`: 0 if GET URL answers 200 within 5 s, else 1.
int probe(const std::string& url);

}  // namespace carc::server
