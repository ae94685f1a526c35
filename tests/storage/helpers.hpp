#pragma once

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

}  // namespace carc::test
