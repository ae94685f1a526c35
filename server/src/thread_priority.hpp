// Which of the server's threads the kernel runs first when they share a core.
//
// Every move waits for the storage writer's commit before its patch goes out, so when the
// I/O threads keep a core busy (a burst of games ending and new rooms being set up) the
// writer must not queue behind them: a commit that waits for the CPU holds every move of
// its batch back. The I/O threads and the computer players therefore run a few steps of
// niceness below the writer (docs/hot-path.md, "The writer first"). Lowering one's own
// priority needs no privilege, so this works as any user and in any container.
#pragma once

namespace carc::server {

enum class ThreadRole {
  Storage,  // the storage writer: what every move waits for
  Io,       // the I/O threads: sockets, rooms
  Bots,     // the computer players' pool: as the I/O threads, so bots and humans keep their balance
};

// Sets the calling thread's niceness for its role, relative to the process's at start-up
// (a server started with `nice` keeps its place among other processes). Best effort: a
// failure changes nothing and is not an error.
void set_thread_role(ThreadRole role);

}  // namespace carc::server
