// The backends the storage suite runs on (docs/cluster.md: the same suite on both). Each test
// asks for fresh ones and runs its body once per backend.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "carc/server/pg_store.hpp"
#include "carc/server/room_store.hpp"
#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"
#include "pg_server.hpp"

namespace carc::test {

using Clock = std::function<std::int64_t()>;

class TestBackend {
 public:
  virtual ~TestBackend() = default;
  virtual std::string name() const = 0;
  // Opens the backend's database: empty the first time, the same data again later (as
  // after a restart). `clock` (unix ms) stamps the rooms' updated_ms.
  virtual std::unique_ptr<server::RoomStore> open(Clock clock = {}) = 0;
};

class SqliteBackend final : public TestBackend {
 public:
  std::string name() const override { return "sqlite"; }
  std::unique_ptr<server::RoomStore> open(Clock clock) override {
    server::SqliteStore::Options o;
    o.clock = std::move(clock);
    return server::SqliteStore::open(dir_.path() / "data", o);
  }

 private:
  TempDir dir_;
};

// A fresh database on the test process's throwaway PostgreSQL (pg_server.hpp). Every open
// is the same node restarting (one node id), so it claims back the rooms it held.
class PgBackend final : public TestBackend {
 public:
  std::string name() const override { return "postgresql"; }
  std::unique_ptr<server::RoomStore> open(Clock clock) override {
    server::PgStore::Options o;
    o.node_id = "test-node";
    o.clock = std::move(clock);
    return server::PgStore::open(url_, o);
  }
  const std::string& url() const { return url_; }

 private:
  std::string url_ = PgServer::shared().fresh_database();
};

// One fresh database per backend.
inline std::vector<std::unique_ptr<TestBackend>> fresh_backends() {
  std::vector<std::unique_ptr<TestBackend>> out;
  out.push_back(std::make_unique<SqliteBackend>());
  out.push_back(std::make_unique<PgBackend>());
  return out;
}

}  // namespace carc::test
