// Nothing that one request, one frame or one storage answer throws may end the process: an
// exception that escapes a handler ends that piece of work (the caller answers 500 or closes
// that one connection), is logged, and is counted (/metrics: carc_internal_errors_total).
// Every thread of the server runs its work through one of these.
#pragma once

#include <cstdint>
#include <exception>
#include <string_view>
#include <utility>

namespace carc::server {

// Exceptions caught by a guard since the process started.
std::uint64_t internal_errors();

// Logs (at most once a second, with the count of those not logged) and counts one.
void note_internal_error(std::string_view where, std::exception_ptr e) noexcept;

// Runs f; true when it returned, false when it threw (then noted).
template <class F>
bool guarded(std::string_view where, F&& f) noexcept {
  try {
    std::forward<F>(f)();
    return true;
  } catch (...) {
    note_internal_error(where, std::current_exception());
    return false;
  }
}

// An event loop (an io_context) run until it stops: a handler that throws is noted and the
// loop goes on with the next one.
template <class Loop>
void run_guarded(Loop& loop, std::string_view where) noexcept {
  for (;;) {
    if (guarded(where, [&] { loop.run(); })) return;
  }
}

}  // namespace carc::server
