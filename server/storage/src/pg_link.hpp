// One PostgreSQL connection of the store, its mutex and its reconnect pacing (internal to
// carc_storage: pg_store.cpp, pg_cluster.cpp and pg_analysis.cpp).
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "carc/server/pg_store.hpp"
#include "pg.hpp"

namespace carc::server {

struct PgStore::Link {
  std::mutex mu;
  std::unique_ptr<PgConn> conn;
  std::chrono::steady_clock::time_point next_reconnect{};
  std::string last_error;
};

}  // namespace carc::server
