// The room fuzz target: reading every frame into the clients' copies, and what must hold.
#include "room_fuzz_harness.hpp"

#include <cstdio>

#include "carc/protocol/record.hpp"

namespace room_fuzz {

// Reads every client's new frames into its copy of the state.
void Harness::read_frames() {
  for (auto& t : clients_) {
    for (const auto& frame : t.client->inbox) read_frame(t, *frame, parsed(frame));
    t.client->inbox.clear();
  }
  FUZZ_CHECK(logic_->version() >= last_room_version_);
  last_room_version_ = logic_->version();
}

// A frame the room shares between its clients is parsed once.
const json& Harness::parsed(const std::shared_ptr<const std::string>& frame) {
  if (frame != last_frame_) {
    last_frame_ = frame;
    last_parsed_ = json::parse(*frame, nullptr, false);
  }
  return last_parsed_;
}

void Harness::read_frame(Tracked& t, const std::string& text, const json& f) {
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

void Harness::check_clients() {
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

void Harness::check_restore() {
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

}  // namespace room_fuzz
