// Read-only and full data folders. Tests run as root, who writes into a chmod 555 folder,
// so each case re-runs this binary in a private mount namespace (`unshare -m`) on a small
// tmpfs of its own: the "ns:" cases below do the work there and are no-ops otherwise.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"

namespace fs = std::filesystem;
using carc::server::SqliteStore;
using carc::server::StorageError;
using carc::test::append;
using carc::test::create;
using carc::test::load;
using carc::test::slurp;
using carc::test::namespaces_work;
using carc::test::ns_dir;
using carc::test::run_in_namespace;
using carc::test::TempDir;

namespace {

// Fills the file system of `dir` until it refuses more bytes.
void fill(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  std::array<char, 1024> block{};
  while (::write(fd, block.data(), block.size()) > 0) {
  }
  const int err = errno;
  ::close(fd);
  CHECK(err == ENOSPC);
}

std::string open_failure(const fs::path& dir) {
  try {
    SqliteStore::open(dir);
  } catch (const StorageError& e) {
    return e.what();
  }
  return "";
}

void remount_read_only(const fs::path& dir) {
  const std::string cmd = "mount -o remount,ro '" + dir.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
}

}  // namespace

TEST_CASE("faults: a read-only data folder is a clear start-up error" * doctest::skip(!carc::test::namespaces_work())) {
  CHECK(run_in_namespace("ns: read-only", "1m") == 0);
}

TEST_CASE("faults: a full disk is a clear start-up error" * doctest::skip(!carc::test::namespaces_work())) {
  CHECK(run_in_namespace("ns: full at start-up", "256k") == 0);
}

TEST_CASE("faults: a full disk while running refuses writes and keeps earlier data" * doctest::skip(!carc::test::namespaces_work())) {
  CHECK(run_in_namespace("ns: full while running", "512k") == 0);
}

// ---- inside the namespace ----
TEST_CASE("ns: read-only" * doctest::skip(carc::test::ns_dir() == nullptr)) {
  const fs::path root = ns_dir();
  const fs::path data = root / "data";
  {
    auto s = SqliteStore::open(data);
    REQUIRE(create(*s, "kept"));
  }
  const std::string before = slurp(data / "carcassonne.db");
  remount_read_only(root);

  const std::string msg = open_failure(data);
  INFO(msg);
  CHECK(msg.find("not writable") != std::string::npos);
  CHECK(msg.find("read-only file system") != std::string::npos);
  CHECK(msg.find("--data-dir") != std::string::npos);
  CHECK(slurp(data / "carcassonne.db") == before);

  const std::string fresh = open_failure(root / "fresh");
  INFO(fresh);
  CHECK(fresh.find("cannot create the data folder") != std::string::npos);
  CHECK(fresh.find("Read-only file system") != std::string::npos);
}

TEST_CASE("ns: full at start-up" * doctest::skip(carc::test::ns_dir() == nullptr)) {
  const fs::path root = ns_dir();
  {
    auto s = SqliteStore::open(root / "old");
    REQUIRE(create(*s, "kept"));
  }
  const std::string before = slurp(root / "old" / "carcassonne.db");
  fs::create_directory(root / "new");
  fill(root / "filler");

  const std::string fresh = open_failure(root / "new");
  INFO(fresh);
  CHECK(fresh.find("disk is full") != std::string::npos);
  const std::string old = open_failure(root / "old");
  INFO(old);
  CHECK(old.find("disk is full") != std::string::npos);
  CHECK(slurp(root / "old" / "carcassonne.db") == before);

  fs::remove(root / "filler");
  auto s = SqliteStore::open(root / "old");
  CHECK(load(*s, "kept"));
}

TEST_CASE("ns: full while running" * doctest::skip(carc::test::ns_dir() == nullptr)) {
  const fs::path root = ns_dir();
  auto s = SqliteStore::open(root / "data");
  REQUIRE(create(*s, "r"));
  for (int i = 0; i < 5; ++i) REQUIRE(append(*s, "r", i, "move " + std::to_string(i), i + 4, "playing"));
  fill(root / "filler");

  const std::string big(200 * 1024, 'x');
  const auto refused = append(*s, "r", 5, big, 9, "finished");
  CHECK_FALSE(refused);
  INFO(refused.error());
  CHECK(refused.error().find("full") != std::string::npos);
  // A small write may still fit in the slack of the log file's last block (a 1 KiB page's
  // frame does); within a few, one is refused.
  int fitted = 0;
  while (fitted < 8 && create(*s, "other-" + std::to_string(fitted))) ++fitted;
  CHECK(fitted < 8);
  MESSAGE(fitted << " small create(s) still fitted on the full disk");
  const std::string refused_room = "other-" + std::to_string(fitted);
  // A group commit fails whole: none of its writes is stored.
  carc::server::Batch batch;
  batch.writes.push_back(carc::server::AppendAction{"r", 5, "small", 9, ""});
  batch.writes.push_back(carc::server::AppendAction{"r", 6, big, 9, ""});
  CHECK_FALSE(s->commit(batch).committed());

  auto r = load(*s, "r");
  REQUIRE(r);
  CHECK(r->actions.size() == 5);
  CHECK(r->phase == "playing");
  CHECK(r->version == 8);

  fs::remove(root / "filler");
  CHECK(append(*s, "r", 5, "move 5", 9, "playing"));
  s.reset();
  s = SqliteStore::open(root / "data");
  r = load(*s, "r");
  REQUIRE(r);
  CHECK(r->actions.size() == 6);
  CHECK(r->actions.back().payload == "move 5");
  CHECK(r->version == 9);
  CHECK_FALSE(load(*s, refused_room));
  for (int i = 0; i < fitted; ++i) CHECK(load(*s, "other-" + std::to_string(i)));
}
