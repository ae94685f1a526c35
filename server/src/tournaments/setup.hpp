// The tournaments beside the rooms (docs/tournaments.md): their store in the server's
// database, the rooms they make, the results they take, and the ticker that moves rounds on.
#pragma once

namespace carc::server {

class Server;
struct Config;

// Before the rooms are restored: restored finished rooms hand their results to it too.
// Throws StorageError when the tables cannot be opened.
void start_tournaments(Server& server, const Config& config);

}  // namespace carc::server
