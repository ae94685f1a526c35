#include "durable/action_codec.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <nlohmann/json.hpp>

#include "carc/protocol/move_codec.hpp"
#include "carc/protocol/record.hpp"
#include "base/visit_overload.hpp"

namespace carc::server {

namespace {

constexpr std::string_view kFreedReasons[] = {"left", "kicked", "bot_removed"};

// ---- writing -----------------------------------------------------------------------------
class Writer {
 public:
  explicit Writer(char tag) { out_ += tag; }
  Writer& num(std::int64_t v) {
    char buf[24];
    out_ += ' ';
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  Writer& unum(std::uint64_t v) {
    char buf[24];
    out_ += ' ';
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  Writer& opt(const std::optional<int>& v) { return v ? num(*v) : word("-"); }
  Writer& word(std::string_view w) {
    out_ += ' ';
    out_ += w;
    return *this;
  }
  Writer& str(std::string_view s) {  // length-prefixed: any bytes
    num(static_cast<std::int64_t>(s.size()));
    out_ += ':';
    out_ += s;
    return *this;
  }
  Writer& move(const Move& m) {
    out_ += ' ';
    protocol::append_move_text(out_, m);
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// ---- reading -----------------------------------------------------------------------------
// Reads the space-separated fields of one compact payload; the first problem wins.
class Reader {
 public:
  explicit Reader(std::string_view text) : rest_(text) {}

  std::string_view word() {
    if (!ok_) return {};
    if (rest_.empty() || rest_.front() != ' ') return fail("a field is missing");
    rest_.remove_prefix(1);
    const auto end = std::min(rest_.find(' '), rest_.size());
    std::string_view w = rest_.substr(0, end);
    rest_.remove_prefix(end);
    if (w.empty()) return fail("an empty field");
    return w;
  }
  std::int64_t num(std::int64_t lo = INT64_MIN, std::int64_t hi = INT64_MAX) {
    const std::string_view w = word();
    std::int64_t v = 0;
    if (!ok_) return 0;
    const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec != std::errc() || r.ptr != w.data() + w.size() || v < lo || v > hi) {
      fail("not a number in range: " + std::string(w.substr(0, 24)));
      return 0;
    }
    return v;
  }
  int small(int lo, int hi) { return static_cast<int>(num(lo, hi)); }
  std::uint64_t unum() {
    const std::string_view w = word();
    std::uint64_t v = 0;
    if (!ok_) return 0;
    const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec != std::errc() || r.ptr != w.data() + w.size()) fail("not an unsigned number: " + std::string(w.substr(0, 24)));
    return v;
  }
  std::optional<int> opt(int lo, int hi) {
    if (ok_ && rest_.starts_with(" -") && (rest_.size() == 2 || rest_[2] == ' ')) {
      rest_.remove_prefix(2);
      return std::nullopt;
    }
    return small(lo, hi);
  }
  std::string str() {
    if (!ok_) return {};
    if (rest_.empty() || rest_.front() != ' ') return std::string(fail("a string is missing"));
    rest_.remove_prefix(1);
    std::size_t n = 0;
    const auto r = std::from_chars(rest_.data(), rest_.data() + rest_.size(), n);
    if (r.ec != std::errc() || r.ptr == rest_.data() + rest_.size() || *r.ptr != ':') {
      return std::string(fail("a string without its length"));
    }
    rest_.remove_prefix(static_cast<std::size_t>(r.ptr - rest_.data()) + 1);
    if (n > rest_.size()) return std::string(fail("a string longer than the payload"));
    std::string s(rest_.substr(0, n));
    rest_.remove_prefix(n);
    return s;
  }
  bool at_end() const { return rest_.empty(); }
  // Whether a next field follows and starts with a digit (an optional number, not a word).
  bool next_is_number() const { return ok_ && rest_.size() > 1 && rest_[0] == ' ' && rest_[1] >= '0' && rest_[1] <= '9'; }
  bool ok() const { return ok_; }
  // The reason of the first problem, or of trailing bytes.
  std::optional<std::string> error() const {
    if (!ok_) return why_;
    if (!rest_.empty()) return "unexpected bytes after the action";
    return std::nullopt;
  }
  std::string_view fail(std::string why) {
    if (ok_) why_ = std::move(why);
    ok_ = false;
    return {};
  }

 private:
  std::string_view rest_;
  bool ok_ = true;
  std::string why_;
};

std::variant<DecodedAction, std::string> decode_compact(std::string_view payload) {
  const char tag = payload.front();
  Reader in(payload.substr(1));
  DecodedAction d;
  d.version = in.num(0);
  d.game_version = in.num(0);
  switch (tag) {
    case 'S': {
      SeatTaken s;
      s.seat = in.small(0, kMaxPlayers - 1);
      s.name = in.str();
      s.token_hash = in.str();
      const std::string_view bot = in.word();
      if (in.ok() && bot != "-") {
        s.bot = protocol::bot_level_from_name(bot);
        if (!s.bot) return "unknown bot level \"" + std::string(bot.substr(0, 16)) + "\"";
      }
      while (in.ok() && !in.at_end()) {
        const std::string_view flag = in.word();
        if (flag == "host") s.host = true;
        else if (flag == "key") s.seal_key = std::string(in.word());
        else in.fail("unknown seat flag");
      }
      d.action = std::move(s);
      break;
    }
    case 'F': {
      SeatFreed f{};
      f.seat = in.small(0, kMaxPlayers - 1);
      const std::string_view reason = in.word();
      const auto* it = std::find(std::begin(kFreedReasons), std::end(kFreedReasons), reason);
      if (in.ok() && it == std::end(kFreedReasons)) return "unknown reason \"" + std::string(reason.substr(0, 16)) + "\"";
      f.reason = static_cast<SeatFreed::Reason>(it - std::begin(kFreedReasons));
      d.action = f;
      break;
    }
    case 'T': {
      SettingsChanged c;
      c.turn_seconds = in.opt(0, INT32_MAX);
      c.away_seconds = in.opt(0, INT32_MAX);
      // Optional trailing fields, each written only when it differs from what older rows
      // meant: the expansions (a number), then the pace, the bank and the increment (a
      // word first: turn-based rooms). Each older form reads unchanged.
      if (in.next_is_number()) c.expansions = ExpansionSet::from_bits(static_cast<std::uint8_t>(in.small(0, (1 << kExpansionKinds) - 1)));
      if (!in.at_end()) {
        const std::string_view pace = in.word();
        if (pace == protocol::pace_name(protocol::Pace::TurnBased)) c.pace = protocol::Pace::TurnBased;
        else if (pace != protocol::pace_name(protocol::Pace::Live)) in.fail("unknown pace");
        c.bank_seconds = in.small(0, INT32_MAX);
        c.increment_seconds = in.small(0, INT32_MAX);
      }
      // Then the hints, when the host set them ("hints" or "no_hints"), and the rule options
      // ("options" and their bits), when there are any.
      if (in.ok() && !in.at_end()) {
        std::string_view word = in.word();
        if (word == "hints" || word == "no_hints") {
          c.hints = word == "hints";
          word = in.ok() && !in.at_end() ? in.word() : std::string_view{};
        }
        if (word == "options") c.options = OptionSet::from_bits(static_cast<std::uint8_t>(in.small(1, (1 << kOptionKinds) - 1)));
        else if (!word.empty()) in.fail("unknown hints");
      }
      d.action = c;
      break;
    }
    case 'W': {
      WebhookChanged w;
      const std::string_view format = in.word();
      if (in.ok() && format != "-") {
        const auto f = protocol::hook_format_from_name(format);
        if (!f) return "unknown webhook format";
        w.hook = protocol::WebhookSetting{in.str(), *f};
      }
      d.action = std::move(w);
      break;
    }
    case 'P': {
      PushChanged p;
      p.seat = in.small(0, kMaxPlayers - 1);
      p.endpoint = in.str();
      p.p256dh = in.str();
      p.auth = in.str();
      d.action = std::move(p);
      break;
    }
    case 'G': {
      GameStarted g{};
      g.players = in.small(kMinPlayers, kMaxPlayers);
      g.seed = in.unum();
      g.time_ms = in.num();
      d.action = g;
      break;
    }
    case 'M': {
      MovePlayed m{};
      m.index = in.small(0, INT32_MAX);
      m.seat = in.small(0, kMaxPlayers - 1);
      m.time_ms = in.num();
      const std::string_view text = in.word();
      if (!in.ok()) break;
      std::string why;
      const auto move = protocol::parse_move_text(text, &why);
      if (!move) return why;
      m.move = *move;
      if (!in.at_end()) {
        if (in.word() != "auto") in.fail("unknown move flag");
        m.automatic = true;
      }
      d.action = m;
      break;
    }
    case 'C': {
      ChatPosted c;
      c.id = in.num(0);
      c.seat = in.opt(0, kMaxPlayers - 1);
      c.time_ms = in.num();
      c.name = in.str();
      c.text = in.str();
      d.action = std::move(c);
      break;
    }
    case 'R': {
      RematchCreated r{in.str()};
      while (in.ok() && !in.at_end() && r.seats.size() < static_cast<std::size_t>(kMaxPlayers)) r.seats.push_back(in.str());
      d.action = std::move(r);
      break;
    }
    case 'H': {
      HintGiven h;
      h.seat = in.small(0, kMaxPlayers - 1);
      h.turn = in.small(0, INT32_MAX);
      d.action = h;
      break;
    }
    case 'B': {
      PlayerBound b;
      b.seat = in.small(0, kMaxPlayers - 1);
      b.player = in.str();
      d.action = std::move(b);
      break;
    }
    case 'N': d.action = NeverRated{}; break;
    case 'E': {
      GameSettled e;
      if (in.word() != "round_deadline" && in.ok()) return std::string("unknown reason for a settled game");
      e.seat = in.opt(0, kMaxPlayers - 1).value_or(-1);
      e.time_ms = in.num();
      d.action = e;
      break;
    }
    default: return "unknown action tag '" + std::string(1, tag) + "'";
  }
  if (auto err = in.error()) return *err;
  return d;
}

// ---- the JSON payloads of databases written before the compact format --------------------
std::variant<DecodedAction, std::string> decode_legacy(std::string_view payload) {
  using nlohmann::json;
  json j = json::parse(payload, nullptr, false);
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) return "not a stored action";
  DecodedAction d;
  try {
    const std::string type = j["type"].get<std::string>();
    if (type == "seat") {
      std::optional<protocol::BotLevel> bot;
      if (j.contains("bot")) {
        bot = protocol::bot_level_from_name(j.at("bot").get<std::string>());
        if (!bot) return "unknown bot level";
      }
      d.action = SeatTaken{j.at("seat").get<int>(), j.at("name").get<std::string>(),
                           j.at("token_hash").get<std::string>(), bot, j.value("host", false)};
    } else if (type == "start") {
      d.action = GameStarted{j.at("players").get<int>(), j.at("seed").get<std::uint64_t>(), j.value("time", std::int64_t{0})};
    } else if (type == "move") {
      std::string why;
      const auto move = protocol::parse_move(j.at("move"), &why);
      if (!move) return why;
      d.action = MovePlayed{j.at("index").get<int>(), j.at("seat").get<int>(), *move, j.value("auto", false),
                            j.value("time", std::int64_t{0})};
    } else if (type == "chat") {
      const json& seat = j.at("seat");
      d.action = ChatPosted{j.at("id").get<std::int64_t>(),
                            seat.is_null() ? std::nullopt : std::optional<int>(seat.get<int>()),
                            j.at("name").get<std::string>(), j.at("text").get<std::string>(),
                            j.at("time").get<std::int64_t>()};
    } else if (type == "freed") {
      const int reason = j.at("reason").get<int>();
      if (reason < 0 || reason > 2) return "unknown reason";
      d.action = SeatFreed{j.at("seat").get<int>(), static_cast<SeatFreed::Reason>(reason)};
    } else if (type == "settings") {
      const auto opt = [&](const char* k) {
        return j.at(k).is_null() ? std::optional<int>() : std::optional<int>(j.at(k).get<int>());
      };
      d.action = SettingsChanged{opt("turn_seconds"), opt("away_seconds"),
                                 ExpansionSet::from_bits(static_cast<std::uint8_t>(j.value("expansions", 0) & ((1 << kExpansionKinds) - 1)))};
    } else if (type == "rematch") {
      d.action = RematchCreated{j.at("room").get<std::string>()};
    } else {
      return "unknown type \"" + type + "\"";
    }
    d.version = j.at("v").get<std::int64_t>();
    d.game_version = j.at("gv").get<std::int64_t>();
  } catch (const json::exception& e) {
    return std::string(e.what());
  }
  return d;
}

}  // namespace

std::string encode_action(std::int64_t version, std::int64_t game_version, const RoomAction& action) {
  const auto head = [&](char tag) {
    Writer w(tag);
    w.num(version).num(game_version);
    return w;
  };
  return std::visit(
      Overload{
          [&](const SeatTaken& s) {
            Writer w = head('S');
            w.num(s.seat).str(s.name).str(s.token_hash).word(s.bot ? protocol::bot_level_name(*s.bot) : "-");
            if (s.host) w.word("host");
            if (!s.seal_key.empty()) w.word("key").word(s.seal_key);
            return w.take();
          },
          [&](const SeatFreed& f) {
            return head('F').num(f.seat).word(kFreedReasons[static_cast<std::size_t>(f.reason)]).take();
          },
          [&](const SettingsChanged& c) {
            Writer w = head('T');
            w.opt(c.turn_seconds).opt(c.away_seconds);
            if (!c.expansions.empty()) w.num(c.expansions.bits());  // absent: the base game (older rows)
            const bool plain = c.pace == protocol::Pace::Live && c.bank_seconds == protocol::kDefaultBankSeconds &&
                               c.increment_seconds == protocol::kDefaultIncrementSeconds;
            // The pace part is written in full when the hints or the options follow it.
            if (!plain || c.hints || !c.options.empty()) {
              w.word(protocol::pace_name(c.pace)).num(c.bank_seconds).num(c.increment_seconds);
            }
            if (c.hints) w.word(*c.hints ? "hints" : "no_hints");
            if (!c.options.empty()) w.word("options").num(c.options.bits());
            return w.take();
          },
          [&](const WebhookChanged& c) {
            Writer w = head('W');
            if (c.hook) w.word(protocol::hook_format_name(c.hook->format)).str(c.hook->url);
            else w.word("-");
            return w.take();
          },
          [&](const PushChanged& p) { return head('P').num(p.seat).str(p.endpoint).str(p.p256dh).str(p.auth).take(); },
          [&](const GameStarted& g) { return head('G').num(g.players).unum(g.seed).num(g.time_ms).take(); },
          [&](const MovePlayed& m) {
            Writer w = head('M');
            w.num(m.index).num(m.seat).num(m.time_ms).move(m.move);
            if (m.automatic) w.word("auto");
            return w.take();
          },
          [&](const ChatPosted& c) { return head('C').num(c.id).opt(c.seat).num(c.time_ms).str(c.name).str(c.text).take(); },
          [&](const RematchCreated& r) {
            Writer w = head('R');
            w.str(r.room);
            for (const std::string& seat : r.seats) w.str(seat);
            return w.take();
          },
          [&](const HintGiven& h) { return head('H').num(h.seat).num(h.turn).take(); },
          [&](const PlayerBound& b) { return head('B').num(b.seat).str(b.player).take(); },
          [&](const NeverRated&) { return head('N').take(); },
          [&](const GameSettled& e) {
            return head('E').word("round_deadline").opt(e.seat >= 0 ? std::optional<int>(e.seat) : std::nullopt).num(e.time_ms).take();
          },
      },
      action);
}

std::variant<DecodedAction, std::string> decode_action(std::string_view payload) {
  if (payload.empty()) return std::string("an empty payload");
  if (payload.front() == '{') return decode_legacy(payload);
  return decode_compact(payload);
}

bool is_move_payload(std::string_view payload) {
  if (payload.starts_with("M ")) return true;
  return payload.starts_with("{") && payload.find(R"("type":"move")") != std::string_view::npos;
}

std::variant<RestoredRoom, std::string> decode_room(const StoredRoom& stored) {
  RestoredRoom r;
  r.version = std::max<std::int64_t>(stored.version, 1);
  r.actions.reserve(stored.actions.size());
  for (const StoredAction& a : stored.actions) {
    auto decoded = decode_action(a.payload);
    if (auto* why = std::get_if<std::string>(&decoded)) return "action " + std::to_string(a.seq) + ": " + *why;
    auto& d = std::get<DecodedAction>(decoded);
    r.actions.push_back(std::move(d.action));
    r.version = std::max(r.version, d.version);
    r.game_version = std::max(r.game_version, d.game_version);
  }
  return r;
}

}  // namespace carc::server
