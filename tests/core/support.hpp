// Helpers that let a test read like a game: a table where moves are made one after another,
// with the tiles the test chooses (a record-driven Game), and small record files.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/record.hpp"

namespace carc::test {

// The expansion sets the tests play most.
inline const ExpansionSet kPrincessOnly = ExpansionSet{}.with(Expansion::Princess);
inline const ExpansionSet kFour =
    ExpansionSet{}.with(Expansion::River).with(Expansion::Abbot).with(Expansion::Inns).with(Expansion::Traders);
inline const ExpansionSet kAllFive = kFour.with(Expansion::Princess);

inline Tile tile(char letter) {
  const auto t = tile_from_name(std::string_view(&letter, 1));
  REQUIRE_MESSAGE(t.has_value(), "no tile " << letter);
  return *t;
}

inline std::optional<Port> port(const char* name) {
  if (name == nullptr) return std::nullopt;
  const auto p = port_from_name(name);
  REQUIRE_MESSAGE(p.has_value(), "no port " << name);
  return p;
}

inline std::optional<Rotation> rotation(int degrees) { return Rotation::from_degrees(degrees); }

inline Move place(char letter, int x, int y, int degrees, const char* meeple = nullptr) {
  return Move::place(tile(letter), Cell{x, y}, *rotation(degrees), port(meeple));
}

inline std::string error_name(const std::optional<RuleError>& e) {
  return e ? std::string(rule_error_name(*e)) : std::string("ok");
}

// A game played from the start tile with tiles chosen by the test (what a record does).
class Table {
 public:
  explicit Table(int players) : game_(Game::replay(players)) {}

  // The current seat places `letter`; the move must be legal.
  Table& play(char letter, int x, int y, int degrees, const char* meeple = nullptr) {
    const Seat seat = game_.current_seat();
    const auto e = game_.play(place(letter, x, y, degrees, meeple), &events_);
    INFO("move ", moves_, " (seat ", seat, "): ", letter, " at (", x, ",", y, ") rot ", degrees,
         " meeple ", (meeple != nullptr ? meeple : "-"));
    REQUIRE(error_name(e) == "ok");
    ++moves_;
    return *this;
  }
  Table& discard(char letter) {
    const auto e = game_.play(Move::discard(tile(letter)), &events_);
    INFO("move ", moves_, ": discard ", letter);
    REQUIRE(error_name(e) == "ok");
    ++moves_;
    return *this;
  }
  // The move is refused with this error name, and the game is unchanged.
  void refuses(const Move& m, std::string_view expected) {
    const int before_moves = game_.moves_played();
    const auto s = scores();
    const auto e = game_.play(m, &events_);
    CHECK(error_name(e) == expected);
    CHECK(game_.moves_played() == before_moves);
    CHECK(scores() == s);
  }
  void refuses(char letter, int x, int y, int degrees, const char* meeple, std::string_view expected) {
    refuses(place(letter, x, y, degrees, meeple), expected);
  }

  std::vector<int> scores() const {
    std::vector<int> out;
    for (int s = 0; s < game_.players(); ++s) out.push_back(game_.score(s));
    return out;
  }
  std::vector<int> supply() const {
    std::vector<int> out;
    for (int s = 0; s < game_.players(); ++s) out.push_back(game_.meeples(s));
    return out;
  }
  // End-of-game scoring; returns the final scores.
  std::vector<int> finish() {
    game_.finish(&events_);
    return scores();
  }
  int legal_count(char letter) const {
    std::vector<Placement> ps;
    game_.legal_placements(tile(letter), ps);
    return static_cast<int>(ps.size());
  }
  // Feature-scored events (optionally only those of one kind).
  std::vector<FeatureScored> scored(std::optional<Kind> kind = std::nullopt) const {
    std::vector<FeatureScored> out;
    for (const Event& e : events_) {
      if (const auto* s = std::get_if<FeatureScored>(&e); s != nullptr && (!kind || s->kind == *kind)) out.push_back(*s);
    }
    return out;
  }

  Game& game() { return game_; }
  const Game& game() const { return game_; }
  const std::vector<Event>& events() const { return events_; }
  void clear_events() { events_.clear(); }

 private:
  Game game_;
  std::vector<Event> events_;
  int moves_ = 0;
};

// ---- records ----

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string data_path(const std::string& name) { return std::string(CARC_TEST_DATA_DIR) + "/" + name; }

// Parses and replays a record; either the result JSON or the error.
inline std::variant<nlohmann::json, protocol::RecordError> replay_json(const nlohmann::json& j) {
  auto parsed = protocol::parse_record(j);
  if (auto* e = std::get_if<protocol::RecordError>(&parsed)) return *e;
  return protocol::replay(std::get<protocol::Record>(parsed));
}
inline std::variant<nlohmann::json, protocol::RecordError> replay_text(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return protocol::RecordError{"malformed JSON", std::nullopt};
  return replay_json(j);
}
inline nlohmann::json replay_ok(const std::string& file) {
  auto r = replay_text(read_text(data_path(file)));
  if (auto* e = std::get_if<protocol::RecordError>(&r)) {
    FAIL("record " << file << " refused at move " << (e->move ? *e->move : -1) << ": " << e->message);
  }
  return std::get<nlohmann::json>(r);
}
inline protocol::RecordError replay_error(const std::string& file) {
  auto r = replay_text(read_text(data_path(file)));
  REQUIRE_MESSAGE(std::holds_alternative<protocol::RecordError>(r), "record " << file << " was accepted");
  return std::get<protocol::RecordError>(r);
}

}  // namespace carc::test
