// The room fuzz target: what its fake clients send (raw bytes, joins, plays, chat, the lobby).
#include "room_fuzz_harness.hpp"

namespace room_fuzz {

void Harness::attach() {
  if (clients_.size() >= kMaxClients) return;
  Tracked t;
  t.client = std::make_shared<FakeClient>();
  clients_.push_back(std::move(t));
  logic_->attach(clients_.back().client);
  FUZZ_CHECK(clients_.back().client->inbox.empty());
}

void Harness::detach(Tracked* t) {
  if (t == nullptr) return;
  const ClientPtr c = t->client;
  clients_.erase(clients_.begin() + (t - clients_.data()));
  command([&] { logic_->detach(c, now_, fx_); });
}

// A replaced connection is closed; its session then detaches it.
void Harness::reap_closed() {
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    if (clients_[i].client->closed) {
      detach(&clients_[i]);
      return reap_closed();
    }
  }
}

void Harness::send_text(Tracked* t, const std::string& text) {
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

void Harness::join_by_name(Tracked* t) {
  static const std::array<std::string, 7> kNames = {"Alice", "Bob", "  Carol  ", "", "abcdefghijklmnopqrstuvwxyz",
                                                    "\x01tab", "Zoë"};
  const std::uint8_t b = in_.byte();
  const std::string name = b < 200 ? kNames[b % kNames.size()] : in_.bytes(b % 32);
  send(t, json{{"type", "join"}, {"name", name}});
}

void Harness::join_by_token(Tracked* t) {
  const std::uint8_t b = in_.byte();
  std::string token;
  if (b % 4 == 0 && t != nullptr && t->token) token = *t->token;
  else if (b % 4 != 3 && !tokens_.empty()) token = tokens_[in_.byte() % tokens_.size()];
  else token = in_.bytes(in_.byte() % 40);
  send(t, json{{"type", "join"}, {"token", token}});
}

// The move a browser would send: one of the state's own legal placements.
void Harness::play_legal(Tracked* t) {
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

void Harness::play_anything(Tracked* t) {
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

void Harness::chat(Tracked* t) {
  const std::uint8_t b = in_.byte();
  send(t, json{{"type", "chat"}, {"text", b == 255 ? std::string(300, 'x') : in_.bytes(b % 48)}});
}

void Harness::lobby(Tracked* t) {
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
      if (b & 0x08) {  // a set of the four expansions (inns' six seats, builders)
        json ids = json::array();
        for (int e = 0; e < kExpansionKinds; ++e) {
          if ((b >> (4 + e)) & 1) ids.push_back(std::string(expansion_name(static_cast<Expansion>(e))));
        }
        m["expansions"] = ids;
        // With them, a set of the rule options (docs/options.md), now and then one repeated.
        json options = json::array();
        for (int o = 0; o < kOptionKinds; ++o) {
          if ((a >> (2 + o)) & 1) options.push_back(std::string(option_name(static_cast<Option>(o))));
        }
        if ((a & 0x40) != 0 && !options.empty()) options.push_back(options[0]);
        m["options"] = options;
      }
      return send(t, m);
    }
    case 3: return send_text(t, R"({"type":"leave"})");
    case 4: return send(t, json{{"type", "kick"}, {"seat", static_cast<int>(a % 7) - 1}});
    case 5: return send_text(t, R"({"type":"rematch"})");
    default: return send_text(t, R"({"type":"resync"})");
  }
}

}  // namespace room_fuzz
