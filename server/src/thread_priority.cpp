#include "thread_priority.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace carc::server {

namespace {

// The niceness the process started with, read once before any thread changed its own
// (a thread starts with its creator's niceness, so each thread sets its own outright).
int base_niceness() {
  static const int base = [] {
    errno = 0;
    const int n = ::getpriority(PRIO_PROCESS, 0);
    return errno == 0 ? n : 0;
  }();
  return base;
}
const int kReadAtStart = base_niceness();

// Steps below the storage writer. Measured in the paced scenario of issue 9 (the writer
// and the I/O thread on one core): see docs/hot-path.md.
constexpr int kBehindStorage = 5;

}  // namespace

void set_thread_role(ThreadRole role) {
  (void)kReadAtStart;
  const int offset = role == ThreadRole::Storage ? 0 : kBehindStorage;
  const int nice = std::clamp(base_niceness() + offset, -20, 19);
  // PRIO_PROCESS with a thread id sets that thread alone (Linux).
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  if (::getpriority(PRIO_PROCESS, tid) == nice && errno == 0) return;
  (void)::setpriority(PRIO_PROCESS, tid, nice);  // raising it back may need a privilege: best effort
}

}  // namespace carc::server
