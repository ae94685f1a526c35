#include "carc/protocol/messages.hpp"

#include "carc/protocol/json.hpp"

#include "carc/protocol/record.hpp"
#include "expansions/part.hpp"

#include <array>

namespace carc::protocol {

using json = nlohmann::json;

namespace {

constexpr std::array<std::string_view, kErrorCodeCount> kErrorNames = {
    "bad_json",    "bad_message",        "too_large",   "rate_limited", "not_joined",
    "bad_token",   "not_host",           "not_enough_players", "not_started",  "game_over",
    "not_your_turn", "stale_version",    "illegal_placement",  "illegal_meeple", "unavailable",
    "room_full",   "illegal_return",     "hints_off",          "limit_reached",
    "", "", "", "",  // the parts' codes (detail::part_code_name)
};
constexpr std::array<std::string_view, 3> kBotLevelNames = {"easy", "medium", "hard"};
constexpr std::array<std::string_view, 2> kPaceNames = {"live", "turn_based"};
constexpr std::array<std::string_view, 3> kHookFormatNames = {"json", "discord", "ntfy"};

MessageError bad(std::string message) { return {ErrorCode::BadMessage, std::move(message)}; }

// Decodes one code point; returns its length or 0 when invalid (overlongs, surrogates too).
std::size_t utf8_next(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  char32_t min = 0;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029; }

bool is_integer(const json& v) { return v.is_number_integer(); }

std::int64_t as_int(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(u);
  }
  return v.get<std::int64_t>();
}

std::variant<ClientMessage, MessageError> parse_join(const json& j) {
  const auto name = j.find("name");
  const auto token = j.find("token");
  const bool has_name = name != j.end() && !name->is_null();
  const bool has_token = token != j.end() && !token->is_null();
  if (has_token) {
    if (!token->is_string()) return bad("join: \"token\" must be a string");
    return ClientMessage{JoinMsg{std::nullopt, token->get<std::string>()}};
  }
  if (!has_name) return bad("join needs a \"name\" (or a \"token\" to take a seat back)");
  if (!name->is_string()) return bad("join: \"name\" must be a string");
  auto cleaned = clean_name(name->get_ref<const std::string&>());
  if (!cleaned) return bad("a name is 1 to 24 characters, without control characters");
  return ClientMessage{JoinMsg{std::move(*cleaned), std::nullopt}};
}

std::variant<ClientMessage, MessageError> parse_play(const json& j) {
  PlayMsg p;
  for (const auto* key : {"version", "x", "y", "rotation"}) {
    const auto it = j.find(key);
    if (it == j.end()) return bad(std::string("play needs \"") + key + "\"");
    if (!is_integer(*it)) return bad(std::string("play: \"") + key + "\" must be an integer");
  }
  p.version = as_int(j.at("version"));
  p.x = as_int(j.at("x"));
  p.y = as_int(j.at("y"));
  p.rotation = as_int(j.at("rotation"));
  if (const auto m = j.find("meeple"); m != j.end() && !m->is_null()) {
    if (!m->is_string()) return bad("play: \"meeple\" must be a port name or null");
    p.meeple = m->get<std::string>();
  }
  if (const auto f = j.find("figure"); f != j.end() && !f->is_null()) {
    if (!f->is_string()) return bad("play: \"figure\" must be a figure name or null");
    if (!figure_from_name(f->get_ref<const std::string&>())) return bad("play: unknown figure \"" + f->get<std::string>() + "\"");
    if (!p.meeple) return bad("play: a \"figure\" needs a \"meeple\" port");
    p.figure = f->get<std::string>();
  }
  if (const auto r = j.find("return"); r != j.end() && !r->is_null()) {
    const auto rx = r->is_object() ? r->find("x") : r->end();
    const auto ry = r->is_object() ? r->find("y") : r->end();
    if (!r->is_object() || rx == r->end() || ry == r->end() || !is_integer(*rx) || !is_integer(*ry)) {
      return bad("play: \"return\" must be an object with integer \"x\" and \"y\"");
    }
    if (p.meeple) return bad("play: an action (\"return\") or a figure, not both");
    p.action = std::pair<std::int64_t, std::int64_t>{as_int(*rx), as_int(*ry)};
  }
  // The expansions' keys, read as a record's placement reads them (their protocol parts).
  Move m;
  if (p.meeple) m.meeple = Port::C;  // which port is the room's question
  if (p.action) m.action = Cell{};
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part == nullptr || part->read_move == nullptr) continue;
    if (!part->step_type.empty() && j.contains(part->step_type)) {
      return bad("play: a play never carries the steps (\"" + std::string(part->step_type) + "\"); they are messages of their own");
    }
    std::string why;
    if (!part->read_move(j, m, nullptr, &why)) return bad("play: " + why);
  }
  if (m.figure_cell) p.figure_cell = std::pair<std::int64_t, std::int64_t>{m.figure_cell->x, m.figure_cell->y};
  if (m.action_kind != 0 && m.action) {
    p.action_kind = m.action_kind;
    p.action_port = m.action_port;
    p.action = std::pair<std::int64_t, std::int64_t>{m.action->x, m.action->y};
  }
  return ClientMessage{std::move(p)};
}

std::variant<ClientMessage, MessageError> parse_step(const json& j, const std::string& type) {
  const auto v = j.find("version");
  if (v == j.end() || !is_integer(*v)) return bad(type + " needs an integer \"version\"");
  const auto to = j.find("to");
  const auto x = to != j.end() && to->is_object() ? to->find("x") : j.end();
  const auto y = to != j.end() && to->is_object() ? to->find("y") : j.end();
  if (to == j.end() || !to->is_object() || x == to->end() || y == to->end() || !is_integer(*x) || !is_integer(*y)) {
    return bad(type + " needs \"to\": {\"x\", \"y\"} with integers");
  }
  return ClientMessage{StepMsg{as_int(*v), as_int(*x), as_int(*y)}};
}

std::variant<ClientMessage, MessageError> parse_chat(const json& j) {
  const auto t = j.find("text");
  if (t == j.end() || !t->is_string()) return bad("chat needs a \"text\" string");
  const auto& text = t->get_ref<const std::string&>();
  const auto len = utf8_length(text);
  if (!len || *len == 0 || *len > kMaxChatChars) return bad("a chat message is 1 to 280 characters");
  // As in names: no NUL, line breaks or other control characters (everyone sees chat).
  char32_t cp = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto n = utf8_next(text, i, cp);
    if (n == 0 || is_control(cp)) return bad("a chat message may not hold control characters");
    i += n;
  }
  return ClientMessage{ChatMsg{text}};
}

std::variant<ClientMessage, MessageError> parse_seat_msg(const json& j, bool kick) {
  const auto seat = j.find("seat");
  const char* what = kick ? "kick" : "remove_bot";
  if (seat == j.end() || !is_integer(*seat)) return bad(std::string(what) + " needs an integer \"seat\"");
  if (kick) return ClientMessage{KickMsg{as_int(*seat)}};
  return ClientMessage{RemoveBotMsg{as_int(*seat)}};
}

std::variant<ClientMessage, MessageError> parse_add_bot(const json& j) {
  const auto level = j.find("level");
  if (level == j.end() || !level->is_string()) return bad("add_bot needs a \"level\": easy, medium or hard");
  const auto l = bot_level_from_name(level->get_ref<const std::string&>());
  if (!l) return bad("add_bot: the level is easy, medium or hard");
  return ClientMessage{AddBotMsg{*l}};
}

// One clock setting: absent (keep), null (none / wait forever), or an integer in [lo, hi].
std::optional<std::string> clock_setting(const json& j, const char* key, int lo, int hi,
                                         std::optional<std::optional<int>>& out) {
  const auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (it->is_null()) {
    out = std::optional<int>();
    return std::nullopt;
  }
  if (!is_integer(*it) || as_int(*it) < lo || as_int(*it) > hi) {
    return std::string("settings: \"") + key + "\" is null or an integer from " + std::to_string(lo) + " to " +
           std::to_string(hi);
  }
  out = std::optional<int>(static_cast<int>(as_int(*it)));
  return std::nullopt;
}

// An integer setting that cannot be null: absent (keep) or in [lo, hi].
std::optional<std::string> int_setting(const json& j, const char* key, int lo, int hi, std::optional<int>& out) {
  const auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (!is_integer(*it) || as_int(*it) < lo || as_int(*it) > hi) {
    return std::string("settings: \"") + key + "\" is an integer from " + std::to_string(lo) + " to " +
           std::to_string(hi);
  }
  out = static_cast<int>(as_int(*it));
  return std::nullopt;
}

std::optional<std::string> webhook_setting(const json& j, std::optional<std::optional<WebhookSetting>>& out) {
  const auto it = j.find("webhook");
  if (it == j.end()) return std::nullopt;
  if (it->is_null()) {
    out = std::optional<WebhookSetting>();
    return std::nullopt;
  }
  if (!it->is_object()) return "settings: \"webhook\" is null or {\"url\", \"format\"}";
  const auto url = it->find("url");
  if (url == it->end() || !url->is_string()) return "settings: the webhook needs a \"url\" string";
  if (auto why = check_url(url->get_ref<const std::string&>(), kMaxHookUrlBytes)) return "settings: the webhook " + *why;
  WebhookSetting w;
  w.url = url->get<std::string>();
  if (const auto f = it->find("format"); f != it->end()) {
    const auto format = f->is_string() ? hook_format_from_name(f->get_ref<const std::string&>()) : std::nullopt;
    if (!format) return "settings: the webhook's \"format\" is json, discord or ntfy";
    w.format = *format;
  }
  out = std::optional<WebhookSetting>(std::move(w));
  return std::nullopt;
}

std::variant<ClientMessage, MessageError> parse_settings(const json& j) {
  SettingsMsg s;
  if (auto e = clock_setting(j, "turn_seconds", kMinTurnSeconds, kMaxTurnSeconds, s.turn_seconds)) return bad(*e);
  if (auto e = clock_setting(j, "away_seconds", kMinAwaySeconds, kMaxAwaySeconds, s.away_seconds)) return bad(*e);
  if (const auto x = j.find("expansions"); x != j.end()) {
    auto set = parse_room_expansions(&*x);
    if (const auto* why = std::get_if<std::string>(&set)) return bad("settings: " + *why);
    s.expansions = std::get<ExpansionSet>(set);
  }
  if (const auto x = j.find("options"); x != j.end()) {
    auto set = parse_options(&*x);
    if (const auto* why = std::get_if<std::string>(&set)) return bad("settings: " + *why);
    s.options = std::get<OptionSet>(set);
  }
  if (const auto p = j.find("pace"); p != j.end()) {
    if (p->is_string() && p->get_ref<const std::string&>() == kPaceNames[0]) s.pace = Pace::Live;
    else if (p->is_string() && p->get_ref<const std::string&>() == kPaceNames[1]) s.pace = Pace::TurnBased;
    else return bad("settings: \"pace\" is \"live\" or \"turn_based\"");
  }
  if (auto e = int_setting(j, "bank_seconds", kMinBankSeconds, kMaxBankSeconds, s.bank_seconds)) return bad(*e);
  if (auto e = int_setting(j, "increment_seconds", 0, kMaxIncrementSeconds, s.increment_seconds)) return bad(*e);
  if (auto e = webhook_setting(j, s.webhook)) return bad(*e);
  if (const auto h = j.find("hints"); h != j.end()) {
    if (!h->is_boolean()) return bad("settings: \"hints\" is true or false");
    s.hints = h->get<bool>();
  }
  return ClientMessage{s};
}

// Unpadded (or padded) base64url of exactly `bytes` bytes.
bool is_base64url_of(std::string_view s, std::size_t bytes) {
  while (!s.empty() && s.back() == '=') s.remove_suffix(1);
  if (s.size() != (bytes * 4 + 2) / 3) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::variant<ClientMessage, MessageError> parse_push_subscribe(const json& j) {
  const auto sub = j.find("subscription");
  if (sub == j.end() || !sub->is_object()) return bad("push_subscribe needs a \"subscription\" object");
  const auto endpoint = sub->find("endpoint");
  if (endpoint == sub->end() || !endpoint->is_string()) return bad("push_subscribe: the subscription needs an \"endpoint\" string");
  if (auto why = check_url(endpoint->get_ref<const std::string&>(), kMaxPushEndpointBytes)) {
    return bad("push_subscribe: the endpoint " + *why);
  }
  const auto keys = sub->find("keys");
  if (keys == sub->end() || !keys->is_object()) return bad("push_subscribe: the subscription needs \"keys\"");
  const auto p256dh = keys->find("p256dh");
  const auto auth = keys->find("auth");
  if (p256dh == keys->end() || !p256dh->is_string() || !is_base64url_of(p256dh->get_ref<const std::string&>(), 65)) {
    return bad("push_subscribe: \"keys.p256dh\" is the base64url of an uncompressed P-256 public key (65 bytes)");
  }
  if (auth == keys->end() || !auth->is_string() || !is_base64url_of(auth->get_ref<const std::string&>(), 16)) {
    return bad("push_subscribe: \"keys.auth\" is the base64url of 16 bytes");
  }
  return ClientMessage{PushSubscribeMsg{endpoint->get<std::string>(), p256dh->get<std::string>(), auth->get<std::string>()}};
}

}  // namespace

std::string_view bot_level_name(BotLevel l) { return kBotLevelNames[static_cast<std::size_t>(l)]; }

std::optional<BotLevel> bot_level_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kBotLevelNames.size(); ++i) {
    if (kBotLevelNames[i] == s) return static_cast<BotLevel>(i);
  }
  return std::nullopt;
}

std::string_view pace_name(Pace p) { return kPaceNames[static_cast<std::size_t>(p)]; }
std::string_view hook_format_name(HookFormat f) { return kHookFormatNames[static_cast<std::size_t>(f)]; }

std::optional<HookFormat> hook_format_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kHookFormatNames.size(); ++i) {
    if (kHookFormatNames[i] == s) return static_cast<HookFormat>(i);
  }
  return std::nullopt;
}

std::optional<std::string> check_url(std::string_view url, std::size_t max) {
  if (url.size() > max) return "URL is longer than " + std::to_string(max) + " bytes";
  std::string_view rest = url;
  if (rest.starts_with("https://")) rest.remove_prefix(8);
  else if (rest.starts_with("http://")) rest.remove_prefix(7);
  else return std::string("URL must start with https://");
  for (char c : url) {
    if (c <= 0x20 || c >= 0x7f) return std::string("URL may hold printable ASCII only (no spaces)");
  }
  const std::string_view host = rest.substr(0, rest.find_first_of("/?#"));
  if (host.empty() || host.front() == ':' || host.find('@') != std::string_view::npos) {
    return std::string("URL needs a host (and no user name)");
  }
  return std::nullopt;
}

std::string_view error_code_name(ErrorCode c) {
  const auto k = static_cast<int>(c) - static_cast<int>(ErrorCode::PartCode0);
  if (k >= 0) return detail::part_code_name(k);
  return kErrorNames[static_cast<std::size_t>(c)];
}

namespace {
ErrorCode slot_code(int slot) {
  return slot < 0 ? ErrorCode::BadMessage : static_cast<ErrorCode>(static_cast<int>(ErrorCode::PartCode0) + slot);
}
}  // namespace

ErrorCode target_refusal(std::uint8_t kind) { return slot_code(detail::target_code_slot(kind)); }
ErrorCode step_refusal() { return slot_code(detail::step_code_slot()); }

std::optional<std::size_t> utf8_length(std::string_view s) {
  std::size_t n = 0;
  char32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto len = utf8_next(s, i, cp);
    if (len == 0) return std::nullopt;
    i += len;
    ++n;
  }
  return n;
}

std::optional<std::string> clean_name(std::string_view raw) {
  // Trim ASCII and Unicode-agnostic spaces at both ends (tabs etc. are control characters
  // and make the name invalid anyway).
  while (!raw.empty() && raw.front() == ' ') raw.remove_prefix(1);
  while (!raw.empty() && raw.back() == ' ') raw.remove_suffix(1);
  std::size_t n = 0;
  char32_t cp = 0;
  for (std::size_t i = 0; i < raw.size();) {
    const auto len = utf8_next(raw, i, cp);
    if (len == 0 || is_control(cp)) return std::nullopt;
    i += len;
    ++n;
  }
  if (n == 0 || n > kMaxNameChars) return std::nullopt;
  return std::string(raw);
}

std::variant<ClientMessage, MessageError> parse_client_message(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MessageError{ErrorCode::BadJson, "the frame is not valid JSON"};
  if (!j.is_object()) return bad("a message is a JSON object");
  const auto type = j.find("type");
  if (type == j.end() || !type->is_string()) return bad("a message needs a \"type\" string");
  const auto& t = type->get_ref<const std::string&>();
  if (t == "join") return parse_join(j);
  if (t == "watch") return ClientMessage{WatchMsg{}};
  if (t == "start") return ClientMessage{StartMsg{}};
  if (t == "play") return parse_play(j);
  if (t == "chat") return parse_chat(j);
  if (t == "resync") return ClientMessage{ResyncMsg{}};
  if (t == "add_bot") return parse_add_bot(j);
  if (t == "remove_bot") return parse_seat_msg(j, false);
  if (t == "settings") return parse_settings(j);
  if (t == "leave") return ClientMessage{LeaveMsg{}};
  if (t == "kick") return parse_seat_msg(j, true);
  if (t == "rematch") return ClientMessage{RematchMsg{}};
  if (t == "push_subscribe") return parse_push_subscribe(j);
  if (t == "push_unsubscribe") return ClientMessage{PushUnsubscribeMsg{}};
  if (t == "hint") return ClientMessage{HintMsg{}};
  if (t == "open") {
    const auto open = j.find("open");
    if (open == j.end() || !open->is_boolean()) return bad("open: \"open\" must be true or false");
    return ClientMessage{OpenMsg{open->get<bool>()}};
  }
  if (detail::is_step_type(t)) return parse_step(j, t);
  return bad("unknown message type");
}

std::string error_frame(ErrorCode code, std::string_view message) {
  return json_text(json{{"type", "error"}, {"code", error_code_name(code)}, {"message", message}});
}

std::string welcome_frame(std::optional<int> seat, std::optional<std::string_view> token, std::int64_t version,
                          const json& state) {
  json j{{"type", "welcome"}, {"version", version}, {"state", state}};
  j["seat"] = seat ? json(*seat) : json(nullptr);
  j["token"] = token ? json(*token) : json(nullptr);
  return json_text(j);
}

std::string open_frame(bool open) { return open ? R"({"type":"open","open":true})" : R"({"type":"open","open":false})"; }

std::string patch_frame(std::int64_t version, const json& ops) {
  return json_text(json{{"type", "patch"}, {"version", version}, {"ops", ops}});
}

std::string state_frame(std::int64_t version, const json& state) {
  return json_text(json{{"type", "state"}, {"version", version}, {"state", state}});
}

}  // namespace carc::protocol
