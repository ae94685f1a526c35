// For the tests that start a server on a port they picked: whether that server, and not
// another test's, holds the port.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace carc::test {

// Whether process `pid` holds the socket listening on 127.0.0.1:`port` (/proc/net/tcp names
// the listening socket's inode, /proc/PID/fd the process's sockets). Another test's server
// can take a port between free_port() and our server's bind: ours then exits, while the
// other one answers /healthz on that port as if it were ours.
inline bool listens_on(pid_t pid, int port) {
  std::vector<std::string> inodes;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      char local[64] = {}, remote[64] = {}, state[8] = {};
      unsigned long inode = 0;
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (std::sscanf(line.c_str(), " %*s %63s %63s %7s %*s %*s %*s %*s %*s %lu", local, remote, state, &inode) != 4) continue;
      const char* colon = std::strrchr(local, ':');
      if (colon == nullptr || std::string(state) != "0A") continue;  // 0A: listening
      if (std::strtol(colon + 1, nullptr, 16) == port) inodes.push_back("socket:[" + std::to_string(inode) + "]");
    }
  }
  if (inodes.empty()) return false;
  const std::filesystem::path fds = "/proc/" + std::to_string(pid) + "/fd";
  std::error_code ec;
  for (const auto& fd : std::filesystem::directory_iterator(fds, ec)) {
    std::error_code link_ec;
    const std::string target = std::filesystem::read_symlink(fd.path(), link_ec).string();
    for (const auto& inode : inodes) {
      if (target == inode) return true;
    }
  }
  return false;
}

}  // namespace carc::test
