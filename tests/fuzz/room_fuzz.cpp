// The server's handling of a sequence of arbitrary client frames against one room: the
// room's state machine (RoomLogic) driven directly, without sockets or strands. A few fake
// clients attach, send frames (raw bytes, or well-formed messages built from the input,
// legal plays picked from their own copy of the state among them), detach; the input
// decides when storage answers and whether it fails, what a computer player answers
// (a legal move, garbage, a failure, a stale ticket), when the clock wakes the room, and
// when the server crashes and the room is rebuilt from what was stored.
//
// What must hold whatever the input:
// - every frame a client gets is a JSON object of a known type; error codes are known;
// - a client's copy of the state, built from its welcome/state and the patches after it
//   (each exactly one version on), equals the server's state after every command;
// - versions never go back, for the room and for any client; at most one change is being
//   stored at a time, and while one is, commands wait (no frame, no change);
// - a refused request changes nothing;
// - a legal play from the state's own `turn.legal`, sent by the player whose turn it is
//   with a fresh version, is accepted;
// - the stored actions always rebuild the room (restore), to the same game record, past
//   every version a client saw; the record is a valid carcassonne-record/1.
//
// The room's randomness (seat tokens, game seeds) comes from getrandom(2), wrapped at link
// time (-Wl,--wrap=getrandom) by a generator reset for every input, so a crash replays.
#include <sys/types.h>

#include <algorithm>
#include <cstdlib>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/record.hpp"
#include "fuzz_check.hpp"
#include "metrics.hpp"
#include "room_logic.hpp"

using namespace carc;
using namespace carc::server;
using nlohmann::json;

namespace {

std::uint64_t g_random = 1;

}  // namespace

extern "C" ssize_t __wrap_getrandom(void* buf, std::size_t n, unsigned int) {
  auto* p = static_cast<unsigned char*>(buf);
  for (std::size_t i = 0; i < n; ++i) {
    g_random = g_random * 6364136223846793005ULL + 1442695040888963407ULL;  // an LCG: only determinism matters
    p[i] = static_cast<unsigned char>(g_random >> 56);
  }
  return static_cast<ssize_t>(n);
}

namespace {

struct Input {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::string bytes(std::size_t count) {
    count = std::min(count, n);
    std::string s(reinterpret_cast<const char*>(p), count);
    p += count;
    n -= count;
    return s;
  }
};

// A key of a frame, or null when it is missing (a const json has no operator[] for that).
const json& field(const json& f, const char* key) {
  static const json null;
  if (!f.is_object()) return null;
  const auto it = f.find(key);
  return it == f.end() ? null : *it;
}

bool known_error_code(const json& code) {
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

constexpr std::size_t kMaxClients = 6;
constexpr std::int64_t kStartMs = 1'700'000'000'000;

// What answering a command's effects does by default (the input can hold each instead).
enum class StorePolicy : std::uint8_t { Ok, Fail, Hold };

class Harness {
 public:
  explicit Harness(Input& in) : in_(in), logic_(std::make_unique<RoomLogic>("fuzz-room", metrics())) {}

  void run() {
    while (!in_.empty()) {
      reap_closed();
      step(in_.byte());
      check_clients();
    }
    // Everything outstanding answered, then the stored log must rebuild the room.
    if (store_) answer_store(true);
    check_clients();
    check_restore();
    if (std::getenv("CARC_FUZZ_TRACE") != nullptr) {
      std::fprintf(stderr, "room: phase %s, version %lld, %zu actions stored, %zu clients, %d crashes, record %s\n",
                   std::string(protocol::phase_name(logic_->phase())).c_str(), static_cast<long long>(logic_->version()),
                   log_.size(), clients_.size(), crashes_, logic_->record_json().substr(0, 120).c_str());
    }
  }

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

  static Metrics& metrics() {
    static Metrics m;
    return m;
  }

  // ---- driving ----

  void step(std::uint8_t op) {
    const int policy = (op >> 4) & 3;
    store_policy_ = policy == 2 ? StorePolicy::Fail : policy == 3 ? StorePolicy::Hold : StorePolicy::Ok;
    think_hold_ = (op & 0x40) != 0;
    switch (op % 16) {
      case 0: return attach();
      case 1: return detach(pick_client());
      case 2: return send_raw(pick_client());
      case 3: return join_by_name(pick_client());
      case 4: return join_by_token(pick_client());
      case 5: return send_text(pick_client(), R"({"type":"watch"})");
      case 6: return send_text(pick_client(), R"({"type":"start"})");
      case 7: return play_legal(pick_client());
      case 8: return play_anything(pick_client());
      case 9: return chat(pick_client());
      case 10: return lobby(pick_client());
      case 11: return store_ ? answer_store(in_.byte() % 4 != 0) : void();
      case 12: return answer_think();
      case 13: return answer_rematch();
      case 14: return advance_time();
      case 15: return crash();
    }
  }

  Tracked* pick_client() {
    if (clients_.empty()) return nullptr;
    return &clients_[in_.byte() % clients_.size()];
  }

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

  int count_errors(Tracked& t) {
    read_frames();
    return t.errors;
  }

  // Answers the effects, as the strand adapter (Room) would, until none is left to answer now.
  void carry_out() {
    for (int rounds = 0; rounds < 1000; ++rounds) {
      read_frames();
      Effects fx = std::move(fx_);
      fx_.clear();
      if (fx.version_bump) {
        FUZZ_CHECK(*fx.version_bump == logic_->version());
        stored_version_ = std::max(stored_version_, *fx.version_bump);
      }
      if (fx.think) {
        FUZZ_CHECK(fx.think->game != nullptr);
        FUZZ_CHECK(fx.think->seat == fx.think->game->current_seat());
        thinking_.push_back(std::move(*fx.think));
      }
      if (fx.rematch) {
        FUZZ_CHECK(!rematch_asked_);  // asked once until answered
        FUZZ_CHECK(logic_->phase() == protocol::RoomPhase::Finished);
        rematch_asked_ = true;
      }
      if (fx.store) {
        FUZZ_CHECK(!store_);  // one change at a time
        FUZZ_CHECK(fx.store->version == logic_->version() + 1);
        FUZZ_CHECK(fx.store->game_version <= fx.store->version);
        store_ = std::move(fx.store);
      }
      if (store_ && store_policy_ != StorePolicy::Hold) {
        const bool ok = store_policy_ == StorePolicy::Ok;
        store_policy_ = StorePolicy::Ok;  // what follows from it is stored
        answer_store(ok, false);
        continue;
      }
      if (!thinking_.empty() && !think_hold_ && !store_) {
        BotRequest r = std::move(thinking_.back());
        thinking_.pop_back();
        answer_bot(std::move(r), 0);
        continue;
      }
      break;
    }
    read_frames();
  }

  void answer_store(bool ok, bool carry = true) {
    Effects::Store s = std::move(*store_);
    store_.reset();
    if (ok) {
      log_.push_back(s.action);
      FUZZ_CHECK(s.version >= stored_version_);  // stored versions never go back
      stored_version_ = std::max(stored_version_, s.version);
      stored_game_version_ = s.game_version;
    }
    logic_->stored(ok, now_, fx_);
    if (carry) carry_out();
  }

  void answer_think() {
    if (thinking_.empty()) return;
    const std::size_t i = in_.byte() % thinking_.size();
    BotRequest r = thinking_[i];
    thinking_.erase(thinking_.begin() + static_cast<std::ptrdiff_t>(i));
    answer_bot(r, in_.byte());
  }

  void answer_bot(BotRequest r, std::uint8_t how) {
    const std::uint64_t ticket = how % 8 == 6 ? r.ticket + 1 + in_.byte() % 3 : r.ticket;
    if (how % 8 == 7) {
      command([&] { logic_->bot_failed(ticket, now_, fx_); });
      return;
    }
    const Game& g = *r.game;
    Move move = Move::discard(static_cast<Tile>(0));
    std::vector<LegalMove> legal;
    g.legal_moves(legal);
    const auto held = g.held(r.seat);
    if (how % 8 < 5 && held) {
      if (legal.empty()) {
        move = Move::discard(*held);
      } else {
        const LegalMove& lm = legal[in_.byte() % legal.size()];
        std::optional<Port> meeple;
        if (lm.meeples.size > 0 && how & 0x80) meeple = lm.meeples.ports[in_.byte() % lm.meeples.size];
        move = Move::place(*held, lm.placement.cell, lm.placement.rotation, meeple);
      }
    } else {
      // Garbage: any tile, anywhere near the board, any rotation and port.
      const Tile t = static_cast<Tile>(in_.byte() % kTileKinds);
      const Cell c{static_cast<std::int8_t>(in_.byte()) / 4, static_cast<std::int8_t>(in_.byte()) / 4};
      const std::uint8_t rp = in_.byte();
      std::optional<Port> meeple;
      if (rp % 14 < 13) meeple = static_cast<Port>(rp % 13);
      move = rp & 0x80 ? Move::discard(t) : Move::place(t, c, Rotation::quarters(rp % 4), meeple);
    }
    command([&] { logic_->bot_moved(ticket, move, now_, fx_); });
  }

  void answer_rematch() {
    if (!rematch_asked_) return;
    rematch_asked_ = false;
    const bool ok = in_.byte() % 4 != 0;
    const std::string room = ok ? "rematch-" + std::to_string(++rematches_) : std::string();
    command([&] { logic_->rematch_created(room, now_, fx_); });
  }

  void advance_time() {
    static constexpr std::array<std::int64_t, 8> kSteps = {0, 1'000, 5'000, 11'000, 61'000, 900'000, 86'400'000,
                                                           8 * 86'400'000LL};
    const std::uint8_t b = in_.byte();
    if (b & 0x80) {
      // To the room's own wake-up time, as the strand's timer would.
      if (const auto at = logic_->next_wake(); at && *at > now_) now_ = *at;
    } else {
      now_ += kSteps[b % kSteps.size()];
    }
    command([&] { logic_->wake(now_, fx_); });
  }

  // The process dies: connections go, a change being stored is either durable or not,
  // computer players' and rematch answers are lost. The room comes back from storage.
  void crash() {
    if (store_) {
      if (in_.byte() & 1) {
        log_.push_back(store_->action);
        stored_version_ = std::max(stored_version_, store_->version);
        stored_game_version_ = store_->game_version;
      }
      store_.reset();
    }
    ++crashes_;
    thinking_.clear();
    rematch_asked_ = false;
    fx_.clear();
    clients_.clear();
    logic_ = restore();
    FUZZ_CHECK(logic_->version() > max_seen_version_);
    last_room_version_ = logic_->version();
    command([&] { logic_->wake(now_, fx_); });  // Room::start()
  }

  std::unique_ptr<RoomLogic> restore() {
    RestoredRoom r{log_, stored_version_, stored_game_version_};
    auto restored = RoomLogic::restore("fuzz-room", metrics(), r, now_);
    if (auto* why = std::get_if<std::string>(&restored)) {
      std::fprintf(stderr, "restore failed: %s\n", why->c_str());
      FUZZ_CHECK(!"the stored log rebuilds the room");
    }
    return std::move(std::get<std::unique_ptr<RoomLogic>>(restored));
  }

  // ---- clients ----

  void attach() {
    if (clients_.size() >= kMaxClients) return;
    Tracked t;
    t.client = std::make_shared<FakeClient>();
    clients_.push_back(std::move(t));
    logic_->attach(clients_.back().client);
    FUZZ_CHECK(clients_.back().client->inbox.empty());
  }

  void detach(Tracked* t) {
    if (t == nullptr) return;
    const ClientPtr c = t->client;
    clients_.erase(clients_.begin() + (t - clients_.data()));
    command([&] { logic_->detach(c, now_, fx_); });
  }

  // A replaced connection is closed; its session then detaches it.
  void reap_closed() {
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      if (clients_[i].client->closed) {
        detach(&clients_[i]);
        return reap_closed();
      }
    }
  }

  void send_text(Tracked* t, const std::string& text) {
    if (t == nullptr || t->client->closed) return;
    auto parsed = protocol::parse_client_message(text);
    if (const auto* err = std::get_if<protocol::MessageError>(&parsed)) {
      FUZZ_CHECK(err->code == protocol::ErrorCode::BadJson || err->code == protocol::ErrorCode::BadMessage);
      return;  // the session answers it; the room never sees it
    }
    const auto& msg = std::get<protocol::ClientMessage>(parsed);
    const ClientPtr c = t->client;
    const std::size_t index = static_cast<std::size_t>(t - clients_.data());
    command([&] { logic_->handle(c, msg, now_, SteadyClock::time_point(std::chrono::seconds(1)), fx_); },
            &clients_[index]);
  }

  void send(Tracked* t, const json& msg) { send_text(t, msg.dump(-1, ' ', false, json::error_handler_t::replace)); }

  void send_raw(Tracked* t) { send_text(t, in_.bytes(in_.byte())); }

  void join_by_name(Tracked* t) {
    static const std::array<std::string, 7> kNames = {"Alice", "Bob", "  Carol  ", "", "abcdefghijklmnopqrstuvwxyz",
                                                      "\x01tab", "Zoë"};
    const std::uint8_t b = in_.byte();
    const std::string name = b < 200 ? kNames[b % kNames.size()] : in_.bytes(b % 32);
    send(t, json{{"type", "join"}, {"name", name}});
  }

  void join_by_token(Tracked* t) {
    const std::uint8_t b = in_.byte();
    std::string token;
    if (b % 4 == 0 && t != nullptr && t->token) token = *t->token;
    else if (b % 4 != 3 && !tokens_.empty()) token = tokens_[in_.byte() % tokens_.size()];
    else token = in_.bytes(in_.byte() % 40);
    send(t, json{{"type", "join"}, {"token", token}});
  }

  // The move a browser would send: one of the state's own legal placements.
  void play_legal(Tracked* t) {
    if (t == nullptr || !t->state) return;
    const json& turn = field(*t->state, "turn");
    const std::uint8_t b = in_.byte();
    if (!turn.is_object() || !field(turn, "legal").is_array() || field(turn, "legal").empty()) {
      return send(t, json{{"type", "play"}, {"version", t->version}, {"x", 0}, {"y", 0}, {"rotation", 0}, {"meeple", nullptr}});
    }
    const json& options = field(turn, "legal");
    const json& opt = options[in_.byte() % options.size()];
    json meeple = nullptr;
    if ((b & 3) != 0 && field(opt, "meeples").is_array() && !field(opt, "meeples").empty()) {
      meeple = field(opt, "meeples")[in_.byte() % field(opt, "meeples").size()];
    }
    json figure = nullptr;
    if (field(opt, "figures").is_object()) {
      // Expansions: one more byte picks a meeple (k = 0) or a special figure where the
      // state offers one, so a seed's length per play does not depend on the state.
      const std::uint8_t f = in_.byte();
      const json& figures = field(opt, "figures");
      std::size_t k = (f >> 1) % (figures.size() + 1);
      if ((f & 1) && k == 0 && field(opt, "meeples").is_array() && !field(opt, "meeples").empty()) {
        meeple = field(opt, "meeples")[0];
      }
      for (auto it = figures.begin(); (f & 1) && k > 0 && it != figures.end(); ++it) {
        if (--k == 0 && it->is_array() && !it->empty()) {
          meeple = (*it)[0];
          figure = it.key();
        }
      }
    }
    const bool stale = (b & 0x0c) == 0x0c;
    const std::int64_t version = stale ? t->version - 1 - (b >> 4) : t->version;
    const bool should_pass = !stale && !store_ && t->seat && field(turn, "seat") == *t->seat && !t->client->closed &&
                             field(*t->state, "phase") == "playing";
    const std::size_t index = static_cast<std::size_t>(t - clients_.data());
    const int errors = t->errors;
    const auto policy = store_policy_;
    store_policy_ = StorePolicy::Hold;  // look at the store before answering it
    json play{{"type", "play"}, {"version", version}, {"x", field(opt, "x")}, {"y", field(opt, "y")},
              {"rotation", field(opt, "rotation")}, {"meeple", meeple}};
    if (!figure.is_null()) play["figure"] = figure;
    send(t, play);
    if (should_pass) {
      FUZZ_CHECK(clients_[index].errors == errors);  // a legal play from the state is accepted
      FUZZ_CHECK(store_ && std::holds_alternative<MovePlayed>(store_->action));
    }
    store_policy_ = policy;
    if (store_ && policy != StorePolicy::Hold) {
      answer_store(policy == StorePolicy::Ok);
    }
  }

  void play_anything(Tracked* t) {
    static const std::array<json, 6> kRotations = {0, 90, 180, 270, 45, -90};
    static const std::array<std::string, 6> kPorts = {"N", "SR", "EL", "C", "X", ""};
    const auto x = static_cast<std::int8_t>(in_.byte());
    const auto y = static_cast<std::int8_t>(in_.byte());
    const std::uint8_t r = in_.byte();
    const std::uint8_t v = in_.byte();
    json meeple = r & 0x80 ? json(nullptr) : json(kPorts[(r >> 3) % kPorts.size()]);
    const std::int64_t version = t == nullptr ? 0 : t->version + (v % 5) - 2;
    send(t, json{{"type", "play"}, {"version", version}, {"x", x / 8}, {"y", y / 8},
                 {"rotation", kRotations[r % kRotations.size()]}, {"meeple", meeple}});
  }

  void chat(Tracked* t) {
    const std::uint8_t b = in_.byte();
    send(t, json{{"type", "chat"}, {"text", b == 255 ? std::string(300, 'x') : in_.bytes(b % 48)}});
  }

  void lobby(Tracked* t) {
    static const std::array<json, 6> kTurn = {nullptr, 10, 9, 30, 604800, 604801};
    static const std::array<json, 6> kAway = {nullptr, 5, 4, 60, 86400, "x"};
    const std::uint8_t b = in_.byte();
    const std::uint8_t a = in_.byte();
    switch (b % 8) {
      case 0: return send(t, json{{"type", "add_bot"}, {"level", std::array{"easy", "medium", "hard", "bogus"}[a % 4]}});
      case 1: return send(t, json{{"type", "remove_bot"}, {"seat", static_cast<int>(a % 7) - 1}});
      case 2: {
        json m{{"type", "settings"}};
        if (a & 1) m["turn_seconds"] = kTurn[(a >> 1) % kTurn.size()];
        if (a & 0x10) m["away_seconds"] = kAway[(a >> 5) % kAway.size()];
        if (b & 0x08) {  // a set of the four expansions (issue 33: inns' six seats, builders)
          json ids = json::array();
          for (int e = 0; e < kExpansionKinds; ++e) {
            if ((b >> (4 + e)) & 1) ids.push_back(std::string(expansion_name(static_cast<Expansion>(e))));
          }
          m["expansions"] = ids;
        }
        return send(t, m);
      }
      case 3: return send_text(t, R"({"type":"leave"})");
      case 4: return send(t, json{{"type", "kick"}, {"seat", static_cast<int>(a % 7) - 1}});
      case 5: return send_text(t, R"({"type":"rematch"})");
      default: return send_text(t, R"({"type":"resync"})");
    }
  }

  // ---- checking ----

  // Reads every client's new frames into its copy of the state.
  void read_frames() {
    for (auto& t : clients_) {
      for (const auto& frame : t.client->inbox) read_frame(t, *frame, parsed(frame));
      t.client->inbox.clear();
    }
    FUZZ_CHECK(logic_->version() >= last_room_version_);
    last_room_version_ = logic_->version();
  }

  // A frame the room shares between its clients is parsed once.
  const json& parsed(const std::shared_ptr<const std::string>& frame) {
    if (frame != last_frame_) {
      last_frame_ = frame;
      last_parsed_ = json::parse(*frame, nullptr, false);
    }
    return last_parsed_;
  }

  void read_frame(Tracked& t, const std::string& text, const json& f) {
    FUZZ_CHECK(!f.is_discarded() && f.is_object() && field(f, "type").is_string());
    const std::string type = field(f, "type");
    if (type == "error") {
      FUZZ_CHECK(known_error_code(field(f, "code")) && field(f, "message").is_string());
      ++t.errors;
    } else if (type == "welcome" || type == "state") {
      FUZZ_CHECK(field(f, "version").is_number_integer() && field(f, "state").is_object() && field(f, "server_time") == now_);
      const std::int64_t v = field(f, "version");
      FUZZ_CHECK(v >= t.version);
      t.version = v;
      t.state = field(f, "state");
      t.checked = -1;
      if (type == "welcome") {
        FUZZ_CHECK(field(f, "seat").is_null() || field(f, "seat").is_number_integer());
        if (field(f, "seat").is_null()) {
          t.seat.reset();
        } else {
          t.seat = field(f, "seat").get<int>();
          FUZZ_CHECK(*t.seat >= 0 && *t.seat < static_cast<int>((*t.state)["players"].size()));
          FUZZ_CHECK(field(f, "token").is_string());
          t.token = field(f, "token").get<std::string>();
          if (std::find(tokens_.begin(), tokens_.end(), *t.token) == tokens_.end()) tokens_.push_back(*t.token);
        }
      }
    } else if (type == "patch") {
      FUZZ_CHECK(field(f, "version").is_number_integer() && field(f, "ops").is_array());
      const std::int64_t v = field(f, "version");
      if (t.state) {
        FUZZ_CHECK(v == t.version + 1);  // no gap, no repeat
        try {
          t.state->patch_inplace(field(f, "ops"));
        } catch (const json::exception& e) {
          std::fprintf(stderr, "patch does not apply: %s\n%s\n", e.what(), text.c_str());
          FUZZ_CHECK(!"a patch applies to the version before it");
        }
      }
      FUZZ_CHECK(v > t.version);
      t.version = v;
    } else if (type == "rematch") {
      FUZZ_CHECK(field(f, "room").is_string() && field(f, "token").is_string());
    } else {
      FUZZ_CHECK(!"a known frame type");
    }
    max_seen_version_ = std::max(max_seen_version_, t.version);
  }

  void check_clients() {
    read_frames();
    std::optional<json> server;
    for (auto& t : clients_) {
      if (!t.state || t.client->closed) continue;
      if (t.checked == t.version && t.version == logic_->version()) continue;  // nothing new on either side
      if (!server) {
        const std::string text = logic_->state_text(now_);
        server = json::parse(text, nullptr, false);
        FUZZ_CHECK(!server->is_discarded());
      }
      FUZZ_CHECK(t.version == logic_->version());
      if (*t.state != *server) {
        std::fprintf(stderr, "client copy differs at version %lld:\n%s\nserver:\n%s\n", static_cast<long long>(t.version),
                     t.state->dump().c_str(), server->dump().c_str());
        FUZZ_CHECK(!"every client's state equals the server's");
      }
      t.checked = t.version;
    }
  }

  void check_restore() {
    const json record = json::parse(logic_->record_json(), nullptr, false);
    FUZZ_CHECK(!record.is_discarded());
    // A lobby's "record" may have fewer than 2 players: no game to replay yet.
    if (logic_->phase() != protocol::RoomPhase::Lobby) {
      const auto parsed = protocol::parse_record(record);
      if (const auto* err = std::get_if<protocol::RecordError>(&parsed)) {
        std::fprintf(stderr, "record refused: %s\n%s\n", err->message.c_str(), record.dump().c_str());
        FUZZ_CHECK(!"the room's record parses");
      }
      const auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
      if (const auto* err = std::get_if<protocol::RecordError>(&replayed)) {
        std::fprintf(stderr, "record does not replay: %s\n%s\n", err->message.c_str(), record.dump().c_str());
        FUZZ_CHECK(!"the room's record replays");
      }
    }
    FUZZ_CHECK(!json::parse(logic_->info_json(), nullptr, false).is_discarded());

    const auto restored = restore();
    FUZZ_CHECK(restored->version() > max_seen_version_);
    FUZZ_CHECK(restored->phase() == logic_->phase());
    FUZZ_CHECK(restored->seated() == logic_->seated());
    FUZZ_CHECK(restored->record_json() == logic_->record_json());
    FUZZ_CHECK(!json::parse(restored->state_text(now_), nullptr, false).is_discarded());
  }
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  g_random = 1;
  Input in{data, size};
  Harness(in).run();
  return 0;
}
