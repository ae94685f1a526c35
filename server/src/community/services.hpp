// What the community adds beside the rooms (docs/community.md), set up after storage: the
// players' names and, with several nodes, the open games shared through the database.
#pragma once

#include <memory>

namespace carc::server {

class Server;
struct Config;
class PlayerNames;
class OpenGamesSync;
class TournamentService;

struct CommunityServices {
  std::shared_ptr<PlayerNames> names;  // null: the names API answers unavailable
  std::unique_ptr<OpenGamesSync> sync;  // several nodes only
  std::shared_ptr<TournamentService> tournaments;  // null: /api/tournaments answers unavailable (docs/tournaments.md)
  CommunityServices();
  ~CommunityServices();
};

// Opens the community's tables in the server's database (SQLite file, PostgreSQL, or memory
// with --data-dir :memory:); throws StorageError when they cannot be opened.
void start_community(Server& server, const Config& config);

}  // namespace carc::server
