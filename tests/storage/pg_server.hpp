// The test process's throwaway PostgreSQL (docs/cluster.md): started on first use by
// scripts/pg-throwaway.sh in a temp folder, on 127.0.0.1 and a free port, as an
// unprivileged user; stopped and removed when the process exits. Each test takes a fresh
// database of its own.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "helpers.hpp"

#ifndef CARC_SOURCE_DIR
#error "CARC_SOURCE_DIR must name the repository (for scripts/pg-throwaway.sh)"
#endif

namespace carc::test {

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class PgServer {
 public:
  static PgServer& shared() {
    static PgServer server;
    return server;
  }
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;
  ~PgServer() { script("stop"); }

  // postgresql://carc@127.0.0.1:PORT/<a new empty database>
  std::string fresh_database() {
    const std::string name = "carc_t" + std::to_string(++databases_);
    psql("postgres", "CREATE DATABASE " + name);
    return base_ + name;
  }
  // Runs `sql` on database `db` with psql; throws if it fails.
  void psql(const std::string& db, const std::string& sql) const {
    const std::string cmd = "psql -X -q -v ON_ERROR_STOP=1 " + shell_quote(base_ + db) + " -c " + shell_quote(sql) + " >/dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("psql failed: " + sql);
  }
  std::string url_of(const std::string& db) const { return base_ + db; }
  void restart() const { script("restart"); }
  void stop() const { script("stop"); }
  void start() const { script("start"); }

 private:
  PgServer() {
    if (script("start") != 0) throw std::runtime_error("cannot start the throwaway PostgreSQL (see its log above)");
    base_ = slurp(dir_.path() / "port");
    while (!base_.empty() && (base_.back() == '\n' || base_.back() == ' ')) base_.pop_back();
    base_ = "postgresql://carc@127.0.0.1:" + base_ + "/";
  }
  int script(const char* what) const {
    const std::string cmd = "PG_FSYNC=off PG_WATCH_PID=" + std::to_string(::getpid()) + " bash " + shell_quote(std::string(CARC_SOURCE_DIR) + "/scripts/pg-throwaway.sh") + " " +
                            what + " " + shell_quote(dir_.path().string()) + " >/dev/null";
    return std::system(cmd.c_str());
  }

  TempDir dir_;
  std::string base_;
  std::atomic<int> databases_{0};
};

}  // namespace carc::test
