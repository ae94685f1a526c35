#include "community/services.hpp"

#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "carc/server/sqlite_store.hpp"
#include "community/open_games_sync.hpp"
#include "community/player_names.hpp"
#include "net/server.hpp"

namespace carc::server {

CommunityServices::CommunityServices() = default;
CommunityServices::~CommunityServices() = default;

void start_community(Server& server, const Config& config) {
  CommunityServices& c = server.community();
  if (!config.db_url.empty()) {
    c.names = std::make_shared<PlayerNames>(CommunityStore::postgres(config.db_url));
    const std::string node = config.node_id.empty() ? "node-" + random_id(6) : config.node_id;
    c.sync = std::make_unique<OpenGamesSync>(CommunityStore::postgres(config.db_url), server.open_games(), node,
                                             std::chrono::milliseconds(config.lease_ms));
    spdlog::info("open games: shared through the database as node {}", node);
    return;
  }
  const bool memory = config.data_dir.filename() == ":memory:";
  c.names = std::make_shared<PlayerNames>(memory ? CommunityStore::memory()
                                                 : CommunityStore::sqlite(config.data_dir / SqliteStore::kFileName));
}

}  // namespace carc::server
