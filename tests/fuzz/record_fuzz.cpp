// The game-record parser and replay on arbitrary JSON: never a crash or an exception; a
// record either fails with a message or replays, and a replayed record written out again
// replays to the same result.
#include <string_view>

#include "carc/protocol/record.hpp"
#include "fuzz_check.hpp"

using carc::protocol::Record;
using carc::protocol::RecordError;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  const auto parsed = carc::protocol::parse_record(j);
  if (const auto* err = std::get_if<RecordError>(&parsed)) {
    FUZZ_CHECK(!err->message.empty());
    return 0;
  }
  const auto& record = std::get<Record>(parsed);
  FUZZ_CHECK(record.players >= 2 && record.players <= carc::ruleset(record.expansions, record.options).max_players);
  const auto result = carc::protocol::replay(record);
  if (const auto* err = std::get_if<RecordError>(&result)) {
    FUZZ_CHECK(!err->message.empty());
    FUZZ_CHECK(!err->move || (*err->move >= 0 && *err->move < static_cast<int>(record.moves.size())));
    return 0;
  }
  const auto& out = std::get<nlohmann::json>(result);
  FUZZ_CHECK(out.is_object());
  (void)out.dump();  // the result serializes (valid UTF-8 and all)

  // Written out and read back, the record is the same game.
  const auto again = carc::protocol::parse_record(carc::protocol::record_json(record.players, record.moves, record.final, record.expansions, record.options));
  FUZZ_CHECK(std::holds_alternative<Record>(again));
  const auto replayed = carc::protocol::replay(std::get<Record>(again));
  FUZZ_CHECK(std::holds_alternative<nlohmann::json>(replayed));
  FUZZ_CHECK(std::get<nlohmann::json>(replayed) == out);
  return 0;
}
