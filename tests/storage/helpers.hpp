#pragma once

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <optional>
#include <stdexcept>

#include "carc/server/room_store.hpp"

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

inline std::int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// ---- writes in the store's own terms ----
inline server::Status create(server::RoomStore& s, const std::string& room, std::int64_t created_ms = 1000) {
  return s.apply(server::CreateRoom{room, created_ms});
}
inline server::Status append(server::RoomStore& s, const std::string& room, std::int64_t seq, std::string payload,
                             std::int64_t version, std::string phase = "") {
  return s.apply(server::AppendAction{room, seq, std::move(payload), version, std::move(phase)});
}
inline server::Status set_phase(server::RoomStore& s, const std::string& room, const std::string& phase) {
  return s.apply(server::SetPhase{room, phase});
}
inline server::Status bump(server::RoomStore& s, const std::string& room, std::int64_t version) {
  server::Batch b;
  b.versions.push_back({room, version});
  const auto r = s.commit(b);
  return r.committed() ? server::Status::ok() : server::Status::failed(r.error);
}
inline std::optional<server::StoredRoom> load(server::RoomStore& s, const std::string& room) {
  auto r = s.load_room(room);
  if (!r.error.empty()) throw std::runtime_error(r.error);
  return std::move(r.room);
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
