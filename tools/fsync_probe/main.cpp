// How long this disk takes to make a small write durable, measured the way the server's
// commits use it: N pages written in place into a file that is already allocated (as the
// SQLite write-ahead log is once it has started over) and one fdatasync, at a fixed rate.
// The paced benchmark's p99 cannot be lower than what this prints, because a move's patch
// goes out only once its commit is on disk.
//
//   carc-fsync-probe [--dir D] [--rate PER_S] [--seconds S] [--pages N]
//
// Defaults: the current folder, 250 commits a second, 20 s, 4 pages of 4 KiB. The file it
// writes (carc-fsync-probe.bin, 4 MiB) is removed at the end.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

int usage() {
  std::fprintf(stderr, "usage: carc-fsync-probe [--dir D] [--rate PER_S] [--seconds S] [--pages N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir = ".";
  int rate = 250, seconds = 20, pages = 4;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (i + 1 >= argc) return usage();
    const char* v = argv[++i];
    if (a == "--dir") dir = v;
    else if (a == "--rate") rate = std::atoi(v);
    else if (a == "--seconds") seconds = std::atoi(v);
    else if (a == "--pages") pages = std::atoi(v);
    else return usage();
  }
  if (rate < 1 || rate > 100000 || seconds < 1 || pages < 1 || pages > 256) return usage();

  constexpr long kPage = 4096, kSpan = 1024;  // pages: the file is overwritten in a loop
  const std::filesystem::path file = dir / "carc-fsync-probe.bin";
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::fprintf(stderr, "cannot create %s: %s\n", file.c_str(), std::strerror(errno));
    return 1;
  }
  std::vector<char> page(kPage, 'x');
  for (long p = 0; p < kSpan; ++p) {
    if (::pwrite(fd, page.data(), page.size(), p * kPage) != kPage) {
      std::fprintf(stderr, "cannot write %s: %s\n", file.c_str(), std::strerror(errno));
      return 1;
    }
  }
  ::fsync(fd);

  using Clock = std::chrono::steady_clock;
  std::vector<double> ms;
  long at = 0;
  bool failed = false;
  const auto period = std::chrono::nanoseconds(1'000'000'000 / rate);
  auto next = Clock::now();
  const auto end = next + std::chrono::seconds(seconds);
  while (!failed && Clock::now() < end) {
    std::this_thread::sleep_until(next);
    next += period;
    const auto t0 = Clock::now();
    for (int p = 0; p < pages; ++p, ++at) {
      page[0] = static_cast<char>(at);
      failed |= ::pwrite(fd, page.data(), page.size(), (at % kSpan) * kPage) != kPage;
    }
    failed |= ::fdatasync(fd) != 0;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  ::close(fd);
  std::filesystem::remove(file);
  if (failed || ms.empty()) {
    std::fprintf(stderr, "a write or fdatasync failed: %s\n", std::strerror(errno));
    return 1;
  }
  std::sort(ms.begin(), ms.end());
  const auto q = [&](double f) { return ms[static_cast<std::size_t>(f * static_cast<double>(ms.size() - 1))]; };
  std::printf("%zu syncs of %d pages at %d/s in %s: p50 %.2f ms, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f\n",
              ms.size(), pages, rate, dir.c_str(), q(0.5), q(0.9), q(0.99), q(0.999), ms.back());
  return 0;
}
