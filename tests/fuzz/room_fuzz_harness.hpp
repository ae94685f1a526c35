// The room fuzz target's harness (room_fuzz.cpp says what it checks): the input it reads,
// the fake clients it attaches, and the Harness that drives one RoomLogic. Its members are
// defined by what they do: room_fuzz_harness.cpp (driving, answering effects, crashes),
// room_fuzz_clients.cpp (what clients send), room_fuzz_checks.cpp (what must hold).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "base/metrics.hpp"
#include "room/room_logic.hpp"

namespace room_fuzz {

using namespace carc;
using namespace carc::server;
using nlohmann::json;

using carc_fuzz::Input;

// A key of a frame, or null when it is missing (a const json has no operator[] for that).
inline const json& field(const json& f, const char* key) {
  static const json null;
  if (!f.is_object()) return null;
  const auto it = f.find(key);
  return it == f.end() ? null : *it;
}

inline bool known_error_code(const json& code) {
  if (!code.is_string()) return false;
  for (int i = 0; i < protocol::kErrorCodeCount; ++i) {
    if (code.get<std::string>() == protocol::error_code_name(static_cast<protocol::ErrorCode>(i))) return true;
  }
  return false;
}

// A connection as the room sees it, and as a browser would keep the state.
struct FakeClient final : Client {
  std::vector<std::shared_ptr<const std::string>> inbox;  // frames since the fuzz target last read them
  bool closed = false;
  void send(std::shared_ptr<const std::string> frame) override {
    FUZZ_CHECK(frame != nullptr);
    inbox.push_back(std::move(frame));
  }
  void close(CloseReason) override { closed = true; }
};

struct Tracked {
  std::shared_ptr<FakeClient> client;
  std::optional<json> state;  // the client's copy, once welcomed
  std::int64_t version = 0;   // of that copy; never goes back
  std::int64_t checked = -1;  // the version last found equal to the server's
  std::optional<int> seat;
  std::optional<std::string> token;
  int errors = 0;  // error frames read so far
};

inline constexpr std::size_t kMaxClients = 6;
inline constexpr std::int64_t kStartMs = 1'700'000'000'000;

// What answering a command's effects does by default (the input can hold each instead).
enum class StorePolicy : std::uint8_t { Ok, Fail, Hold };
class Harness {
 public:
  explicit Harness(Input& in) : in_(in), logic_(std::make_unique<RoomLogic>("fuzz-room", metrics())) {}

  void run();

 private:
  struct Thinking {
    BotRequest request;
  };

  Input& in_;
  std::unique_ptr<RoomLogic> logic_;
  std::vector<Tracked> clients_;
  std::vector<std::string> tokens_;  // every seat token ever welcomed (rejoins, stolen tokens)
  std::int64_t now_ = kStartMs;
  Effects fx_;

  std::optional<Effects::Store> store_;  // being stored
  StorePolicy store_policy_ = StorePolicy::Ok;
  bool think_hold_ = false;
  std::vector<BotRequest> thinking_;  // asked, not answered (stale ones too)
  bool rematch_asked_ = false;
  int rematches_ = 0;
  int crashes_ = 0;
  std::shared_ptr<const std::string> last_frame_;
  json last_parsed_;

  // The stored room: what a restart would read back.
  std::vector<RoomAction> log_;
  std::int64_t stored_version_ = 1;
  std::int64_t stored_game_version_ = 1;
  std::int64_t max_seen_version_ = 1;  // by any client
  std::int64_t last_room_version_ = 1;

  static Metrics& metrics();

  // ---- driving ----

  void step(std::uint8_t op);
  Tracked* pick_client();

  // Runs one command on the room, then answers what it asked for (by the policies), and
  // checks the rules that hold around a single command.
  template <class F>
  void command(F&& f, Tracked* sender = nullptr) {
    const std::int64_t before = logic_->version();
    const bool was_storing = store_.has_value();
    const int errors_before = sender ? count_errors(*sender) : 0;
    f();
    if (was_storing) {
      // Waits for the change being stored: nothing happens yet.
      FUZZ_CHECK(logic_->version() == before);
      FUZZ_CHECK(!fx_.store && !fx_.think && !fx_.rematch && !fx_.version_bump);
      for (auto& c : clients_) FUZZ_CHECK(c.client->inbox.empty());
      return;
    }
    if (sender != nullptr) {
      read_frames();
      if (sender->errors > errors_before) {
        // A refused request changes nothing.
        FUZZ_CHECK(logic_->version() == before);
        FUZZ_CHECK(!fx_.store && !fx_.version_bump && !fx_.think && !fx_.rematch);
      }
    }
    carry_out();
  }

  int count_errors(Tracked& t);
  void carry_out();
  void answer_store(bool ok, bool carry = true);
  void answer_think();
  void answer_bot(BotRequest r, std::uint8_t how);
  void answer_rematch();
  void advance_time();
  void crash();
  std::unique_ptr<RoomLogic> restore();

  // ---- clients ----

  void attach();
  void detach(Tracked* t);
  void reap_closed();
  void send_text(Tracked* t, const std::string& text);
  void send(Tracked* t, const json& msg) { send_text(t, msg.dump(-1, ' ', false, json::error_handler_t::replace)); }
  void send_raw(Tracked* t) { send_text(t, in_.bytes(in_.byte())); }

  void join_by_name(Tracked* t);
  void join_by_token(Tracked* t);
  void play_legal(Tracked* t);
  void play_anything(Tracked* t);
  void chat(Tracked* t);
  void lobby(Tracked* t);

  // ---- checking ----

  void read_frames();
  const json& parsed(const std::shared_ptr<const std::string>& frame);
  void read_frame(Tracked& t, const std::string& text, const json& f);
  void check_clients();
  void check_restore();
};

}  // namespace room_fuzz
