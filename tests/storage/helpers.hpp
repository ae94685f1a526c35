#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "carc/server/storage.hpp"

namespace carc::test {

// A fresh folder under /tmp, removed with its contents at the end of the scope.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "carc-storage-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void spit(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

inline server::StoredRoom sample_room(const std::string& id, std::uint64_t seed = 0xDEADBEEFCAFEF00DULL) {
  server::StoredRoom r;
  r.id = id;
  r.phase = "lobby";
  r.seed = seed;
  r.settings = R"({"seats":5})";
  r.version = 3;
  r.created_ms = 1000;
  r.seats = {{0, "Alice", std::string(64, 'a')}, {1, "Bob", std::string(64, 'b')}};
  return r;
}

inline const char* ns_dir() { return std::getenv("CARC_NS_DIR"); }

inline bool namespaces_work() { return std::system("unshare -m true >/dev/null 2>&1") == 0; }

// Runs the test case `name` of this binary inside a private mount namespace whose
// CARC_NS_DIR is a fresh tmpfs of `size` (tests run as root, who writes into chmod 555
// folders: only a read-only or full file system really refuses). Returns the exit status.
inline int run_in_namespace(const std::string& name, const std::string& size) {
  TempDir mnt;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = "CARC_NS_DIR='" + mnt.path().string() + "' CARC_NS_CASE='" + name +
                          "' unshare -m --propagation private sh -c "
                          "'mount -t tmpfs -o size=" + size +
                          " carc-test \"$CARC_NS_DIR\" && exec \"$0\" --test-case=\"$CARC_NS_CASE\" "
                          "--no-intro --no-version' '" + self + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

}  // namespace carc::test
