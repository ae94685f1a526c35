// The client-message parser (protocol::parse_client_message) on arbitrary frames: it never
// crashes or throws, answers every frame with a message or a typed error, and is
// deterministic.
#include <string_view>

#include "carc/protocol/messages.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto first = carc::protocol::parse_client_message(text);
  const auto second = carc::protocol::parse_client_message(text);
  FUZZ_CHECK(first.index() == second.index());
  if (const auto* err = std::get_if<carc::protocol::MessageError>(&first)) {
    FUZZ_CHECK(!carc::protocol::error_code_name(err->code).empty());
    FUZZ_CHECK(!err->message.empty());
    // The error frame the server sends back is valid JSON.
    const auto frame = carc::protocol::error_frame(err->code, err->message);
    FUZZ_CHECK(!nlohmann::json::parse(frame, nullptr, false).is_discarded());
  } else {
    FUZZ_CHECK(std::get<carc::protocol::ClientMessage>(first).index() ==
               std::get<carc::protocol::ClientMessage>(second).index());
  }
  return 0;
}
