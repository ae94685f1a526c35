// Notifications outside the page (docs/turn-based.md), set up for a server before its rooms are
// restored: the VAPID key (data folder or --vapid-key), the Notifier, and the hooks rooms
// use. Throws std::runtime_error with what to do when the key or --extra-ca cannot be used.
#pragma once

#include "app/config.hpp"

namespace carc::server {

class Server;

void start_notifications(Server& server, const Config& config);

}  // namespace carc::server
