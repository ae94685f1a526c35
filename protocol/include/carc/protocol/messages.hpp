// Client -> server messages, parsed once at the edge into typed values, and the writers
// of server -> client messages (docs/protocol.md). Nothing past this header sees raw JSON
// from a client.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "carc/core/options.hpp"
#include "carc/core/tiles.hpp"

namespace carc::protocol {

// Every refusal carries exactly one of these codes; the wire spelling comes from
// error_code_name(), never from the enumerator.
enum class ErrorCode : std::uint8_t {
  BadJson,
  BadMessage,
  TooLarge,
  RateLimited,
  NotJoined,
  BadToken,
  NotHost,
  NotEnoughPlayers,
  NotStarted,
  GameOver,
  NotYourTurn,
  StaleVersion,
  IllegalPlacement,
  IllegalMeeple,
  Unavailable,
  RoomFull,
  IllegalReturn,  // a refused action instead of a figure (RuleError::IllegalReturn)
  HintsOff,       // a hint asked in a room whose hints are off
  LimitReached,   // the room stores no more of this (chat, notification settings)
  // An expansion's refusals of its actions with a target and of its steps; their names
  // come from the expansions' protocol parts (docs/expansions.md), in slot order.
  PartCode0,
  PartCode1,
  PartCode2,
  PartCode3,
};
inline constexpr int kErrorCodeCount = 23;
std::string_view error_code_name(ErrorCode c);

struct JoinMsg {
  // Exactly one of the two is set: a fresh join by name (already trimmed and checked),
  // or taking a seat back by token (any string; a token matching nothing is bad_token).
  std::optional<std::string> name;
  std::optional<std::string> token;
};
struct WatchMsg {};
struct StartMsg {};
// Values are kept as sent: whether x/y/rotation/meeple make a legal turn is the room's
// question (illegal_placement / illegal_meeple), asked after not_your_turn and
// stale_version in the fixed order.
struct PlayMsg {
  std::int64_t version = 0;
  std::int64_t x = 0;
  std::int64_t y = 0;
  std::int64_t rotation = 0;
  std::optional<std::string> meeple;
  std::optional<std::string> figure;  // with a meeple port; absent: a meeple (docs/expansions.md)
  std::optional<std::pair<std::int64_t, std::int64_t>> action;  // "return": {"x", "y"}: the action instead of a figure
  // An expansion's keys (docs/expansions.md): the figure on another tile (Move::figure_cell),
  // an action with a target (kind > 0, with `action` its cell and `action_port` its port).
  std::optional<std::pair<std::int64_t, std::int64_t>> figure_cell;
  std::uint8_t action_kind = 0;
  std::optional<Port> action_port;
};
// A step inside another seat's turn (an expansion's stage of steps: Game::in_stage).
struct StepMsg {
  std::int64_t version = 0;
  std::int64_t x = 0;
  std::int64_t y = 0;
};
// The refusal of an action with a target of `kind`, and of a step the rules forbid.
ErrorCode target_refusal(std::uint8_t kind);
ErrorCode step_refusal();
struct ChatMsg {
  std::string text;
};
struct ResyncMsg {};

// ---- computer players and clocks (host only, in the lobby) ----
enum class BotLevel : std::uint8_t { Easy, Medium, Hard };
std::string_view bot_level_name(BotLevel l);  // "easy", "medium", "hard"
std::optional<BotLevel> bot_level_from_name(std::string_view s);

struct AddBotMsg {
  BotLevel level = BotLevel::Medium;
};
struct RemoveBotMsg {
  std::int64_t seat = 0;
};
// ---- turn-based games and notifications (docs/turn-based.md) ----
enum class Pace : std::uint8_t { Live, TurnBased };
std::string_view pace_name(Pace p);  // "live", "turn_based"
enum class HookFormat : std::uint8_t { Json, Discord, Ntfy };
std::string_view hook_format_name(HookFormat f);  // "json", "discord", "ntfy"
std::optional<HookFormat> hook_format_from_name(std::string_view s);
// A room's webhook: the URL is a secret of the room (never sent to a client).
struct WebhookSetting {
  std::string url;
  HookFormat format = HookFormat::Json;
  bool operator==(const WebhookSetting&) const = default;
};
inline constexpr int kMinBankSeconds = 3600;
inline constexpr int kMaxBankSeconds = 2592000;
inline constexpr int kDefaultBankSeconds = 259200;
inline constexpr int kMaxIncrementSeconds = 604800;
inline constexpr int kDefaultIncrementSeconds = 86400;
inline constexpr std::size_t kMaxHookUrlBytes = 512;
inline constexpr std::size_t kMaxPushEndpointBytes = 1024;
// `https://host[:port][/path]` or `http://...`, printable ASCII, at most `max` bytes; the
// reason when not. Whether plain http or the host's address is allowed is the server's call.
std::optional<std::string> check_url(std::string_view url, std::size_t max);

// Keys left out keep their value: the outer optional is "given", the inner one null.
struct SettingsMsg {
  std::optional<std::optional<int>> turn_seconds;
  std::optional<std::optional<int>> away_seconds;
  std::optional<ExpansionSet> expansions;
  std::optional<Pace> pace;
  std::optional<int> bank_seconds;
  std::optional<int> increment_seconds;
  std::optional<std::optional<WebhookSetting>> webhook;  // given: set, or null to remove
  std::optional<bool> hints;  // true/false sets it; absent keeps it
  std::optional<OptionSet> options;  // the rule options (docs/options.md)
  // Whether any of the lobby-only keys is given (the webhook goes in a message of its own).
  bool lobby_keys_given() const {
    return turn_seconds || away_seconds || expansions || pace || bank_seconds || increment_seconds || hints || options;
  }
};
// A Web Push subscription (the browser's PushSubscription.toJSON()).
struct PushSubscribeMsg {
  std::string endpoint;
  std::string p256dh;  // base64url, an uncompressed P-256 point (65 bytes)
  std::string auth;    // base64url, 16 bytes
};
struct PushUnsubscribeMsg {};
inline constexpr int kMinTurnSeconds = 10;
inline constexpr int kMaxTurnSeconds = 604800;
inline constexpr int kMinAwaySeconds = 5;
inline constexpr int kMaxAwaySeconds = 86400;
inline constexpr int kDefaultAwaySeconds = 60;

// ---- lobby life and rematch ----
struct LeaveMsg {};
struct KickMsg {
  std::int64_t seat = 0;
};
struct RematchMsg {};

// A hint: the player whose turn it is asks what the medium computer player would play.
struct HintMsg {};

// The host lists the lobby among the open games, or takes it off (docs/community.md).
struct OpenMsg {
  bool open = false;
};

using ClientMessage = std::variant<JoinMsg, WatchMsg, StartMsg, PlayMsg, ChatMsg, ResyncMsg, AddBotMsg, RemoveBotMsg,
                                   SettingsMsg, LeaveMsg, KickMsg, RematchMsg, PushSubscribeMsg, PushUnsubscribeMsg,
                                   HintMsg, OpenMsg, StepMsg>;

struct MessageError {
  ErrorCode code;  // BadJson or BadMessage
  std::string message;
};

std::variant<ClientMessage, MessageError> parse_client_message(std::string_view text);

inline constexpr std::size_t kMaxNameChars = 24;
inline constexpr std::size_t kMaxChatChars = 280;

// The name after trimming, if it has 1..24 code points, valid UTF-8, no control characters.
std::optional<std::string> clean_name(std::string_view raw);
// Number of code points, or nullopt if `s` is not valid UTF-8.
std::optional<std::size_t> utf8_length(std::string_view s);

// ---- server -> client (each returns the serialized frame) ----
std::string error_frame(ErrorCode code, std::string_view message);
std::string welcome_frame(std::optional<int> seat, std::optional<std::string_view> token, std::int64_t version,
                          const nlohmann::json& state);
// {"type":"open","open":b}: whether the lobby is listed among the open games.
std::string open_frame(bool open);
std::string patch_frame(std::int64_t version, const nlohmann::json& ops);
std::string state_frame(std::int64_t version, const nlohmann::json& state);

}  // namespace carc::protocol
