// A room member for tests of RoomLogic alone: it keeps every frame the room sends it, parsed,
// and the last version it saw; each seat's token is a fixed string.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "room/room_logic.hpp"

namespace carc::server::test {

struct RecordingClient final : Client {
  std::vector<nlohmann::json> frames;
  std::int64_t version = 0;
  void send(std::shared_ptr<const std::string> frame) override {
    frames.push_back(nlohmann::json::parse(*frame));
    if (frames.back().contains("version")) version = frames.back()["version"];
  }
  void close(CloseReason) override {}
  // The code of the last frame if it is an error.
  std::optional<std::string> last_error() const {
    if (frames.empty() || frames.back()["type"] != "error") return std::nullopt;
    return frames.back()["code"].get<std::string>();
  }
};

// The clock's start in the room tests that drive time themselves (milliseconds).
inline constexpr std::int64_t kT0 = 1'700'000'000'000;

inline std::string seat_token(int seat) { return "seat-token-" + std::to_string(seat); }

}  // namespace carc::server::test
