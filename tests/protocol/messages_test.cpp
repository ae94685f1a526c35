#include <doctest/doctest.h>

#include "carc/protocol/messages.hpp"

using namespace carc::protocol;

namespace {

ErrorCode code_of(std::string_view text) {
  auto r = parse_client_message(text);
  REQUIRE(std::holds_alternative<MessageError>(r));
  return std::get<MessageError>(r).code;
}

template <typename T>
T parsed(std::string_view text) {
  auto r = parse_client_message(text);
  REQUIRE(std::holds_alternative<ClientMessage>(r));
  REQUIRE(std::holds_alternative<T>(std::get<ClientMessage>(r)));
  return std::get<T>(std::get<ClientMessage>(r));
}

}  // namespace

TEST_CASE("client messages are parsed once into typed values") {
  CHECK(parsed<JoinMsg>(R"({"type":"join","name":"  Alice "})").name == "Alice");
  CHECK(parsed<JoinMsg>(R"({"type":"join","token":"abc"})").token == "abc");
  parsed<WatchMsg>(R"({"type":"watch"})");
  parsed<StartMsg>(R"({"type":"start","extra":1})");
  parsed<ResyncMsg>(R"({"type":"resync"})");
  const auto p = parsed<PlayMsg>(R"({"type":"play","version":7,"x":-1,"y":2,"rotation":90,"meeple":"NL"})");
  CHECK(p.version == 7);
  CHECK(p.x == -1);
  CHECK(p.y == 2);
  CHECK(p.rotation == 90);
  CHECK(p.meeple == "NL");
  CHECK(!parsed<PlayMsg>(R"({"type":"play","version":7,"x":1,"y":2,"rotation":0})").meeple);
  CHECK(parsed<ChatMsg>(R"({"type":"chat","text":"hi"})").text == "hi");
}

TEST_CASE("refusals: bad_json and bad_message") {
  CHECK(code_of("{") == ErrorCode::BadJson);
  CHECK(code_of("") == ErrorCode::BadJson);
  CHECK(code_of("[]") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"nope"})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":1})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"join"})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"join","name":""})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"join","name":"aaaaaaaaaaaaaaaaaaaaaaaaa"})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"join","name":"a\u0007"})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"play","version":"1","x":1,"y":2,"rotation":0})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"play","version":1,"x":1.5,"y":2,"rotation":0})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"play","version":1,"x":1,"y":2,"rotation":0,"meeple":3})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"chat","text":""})") == ErrorCode::BadMessage);
  CHECK(code_of(R"({"type":"chat","text":)" + ("\"" + std::string(281, 'x') + "\"}")) == ErrorCode::BadMessage);
}

TEST_CASE("names and chat count code points") {
  CHECK(utf8_length("héllo") == 5u);
  CHECK(!utf8_length("\xff"));
  CHECK(!utf8_length("\xed\xa0\x80"));  // a surrogate
  CHECK(clean_name("ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ").has_value());
  CHECK(!clean_name("ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ"));
  CHECK(error_code_name(ErrorCode::StaleVersion) == "stale_version");
  CHECK(error_code_name(ErrorCode::Unavailable) == "unavailable");
}

TEST_CASE("settings: the rule options (docs/options.md); unknown, repeated or malformed ids are bad_message") {
  const auto both = parsed<SettingsMsg>(R"({"type":"settings","options":["small_city","no_fields"]})");
  REQUIRE(both.options.has_value());
  CHECK(*both.options == carc::OptionSet{}.with(carc::Option::NoFields).with(carc::Option::SmallCity));
  CHECK(both.lobby_keys_given());
  CHECK(parsed<SettingsMsg>(R"({"type":"settings","options":[]})").options == carc::OptionSet{});
  CHECK(parsed<SettingsMsg>(R"({"type":"settings","options":null})").options == carc::OptionSet{});
  CHECK_FALSE(parsed<SettingsMsg>(R"({"type":"settings","turn_seconds":60})").options.has_value());
  for (const char* bad : {R"({"type":"settings","options":["tiny_city"]})", R"({"type":"settings","options":["no_fields","no_fields"]})",
                          R"({"type":"settings","options":"no_fields"})", R"({"type":"settings","options":[1]})"}) {
    CAPTURE(bad);
    CHECK(code_of(bad) == ErrorCode::BadMessage);
  }
}
