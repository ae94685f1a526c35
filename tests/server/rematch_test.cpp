// Rematches against the real server (docs/protocol.md): a rematch
// spends the asker's room-creation budget like POST /api/rooms, and is refused with
// rate_limited when none is left; and the data folder (a copy of the database) holds no
// rematch seat's token and no way to compute it, while the players, present or coming
// back after a restart, get theirs.
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "carc/core/game.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

std::string sha256_hex(const std::string& s) {
  unsigned char out[32];
  unsigned int n = 0;
  EVP_Digest(s.data(), s.size(), out, &n, EVP_sha256(), nullptr);
  static constexpr char k[] = "0123456789abcdef";
  std::string hex;
  for (unsigned i = 0; i < n; ++i) {
    hex += k[out[i] >> 4];
    hex += k[out[i] & 15];
  }
  return hex;
}

// Every byte of every file in the server's data folder (the database and its journal).
std::string data_folder(const ServerProcess& server) {
  std::string all;
  for (const auto& e : std::filesystem::recursive_directory_iterator(server.data_dir())) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    all += s.str();
  }
  return all;
}

// Plays a game with one human and one computer player to its end.
void play_solo_to_end(Table& t) {
  Peer& alice = *t.players[0];
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  t.start();
  Rng rng(11);
  for (int moves = 0; !t.finished(); ++moves) {
    if (alice.state()["turn"]["seat"] == 0) {
      t.play_random(rng);
    } else {
      alice.expect("patch", 10s);
      t.sync();
    }
    REQUIRE(moves < 300);
  }
}

}  // namespace

TEST_CASE("rematch: it spends the address's room-creation budget; with none left it is refused, and nothing changes") {
  // One room per address, then one every 100 minutes: the table's room takes it.
  ServerProcess server({"--room-burst", "1", "--room-rate", "0.01"});
  Table t(server, 1);
  play_solo_to_end(t);
  Peer& alice = *t.players[0];
  const auto version = alice.version();
  for (int i = 0; i < 2; ++i) {
    alice.send({{"type", "rematch"}});
    CHECK(alice.expect_error() == "rate_limited");
  }
  REQUIRE(!alice.errors.empty());
  CHECK(alice.errors.back()["message"].get<std::string>().find("new games") != std::string::npos);
  alice.send({{"type", "resync"}});
  alice.expect("state");
  CHECK(alice.state()["rematch"].is_null());
  CHECK(alice.version() == version);
  for (const auto& f : alice.frames()) CHECK(json::parse(f)["type"] != "rematch");
  const std::string metrics = http(server.port(), "GET", "/metrics").body;
  CHECK(metrics.find("carc_rooms_created_total 1\n") != std::string::npos);
  // The same budget as POST /api/rooms.
  CHECK(http(server.port(), "POST", "/api/rooms", "{}").status == 429);
}

TEST_CASE("rematch: the data folder holds no rematch seat's token, nor a way to compute it; the players get theirs") {
  ServerProcess server;
  Table t(server, 2);
  Rng rng(3);
  t.start();
  for (int moves = 0; !t.finished(); ++moves) {
    t.play_random(rng);
    REQUIRE(moves < 200);
  }
  // Bob is away when Alice asks.
  const std::string bob_token = t.players[1]->token();
  t.players[1]->close();
  Peer& alice = *t.players[0];
  alice.send({{"type", "rematch"}});
  const json to_alice = alice.expect("rematch");
  const std::string next = to_alice["room"];
  const std::string alice_new = to_alice["token"];
  // What a copy of the database holds: the old seats' hashes, never the new token.
  std::string db = data_folder(server);
  CHECK(db.find(sha256_hex(alice.token())) != std::string::npos);
  CHECK(db.find(alice_new) == std::string::npos);
  // The tokens computed from the stored hashes, as rematches used to make them, open nothing.
  for (const std::string& old : {alice.token(), bob_token}) {
    Peer thief(server.port(), next);
    thief.send({{"type", "join"}, {"token", sha256_hex("rematch:" + sha256_hex(old) + ":" + next)}});
    CHECK(thief.expect_error() == "bad_token");
  }
  // After a crash, Bob comes back from the old link and gets his seat; Alice's still works.
  server.crash_and_restart();
  Peer bob(server.port(), t.room);
  bob.join_token(bob_token);
  const json to_bob = bob.expect("rematch");
  CHECK(to_bob["room"] == next);
  const std::string bob_new = to_bob["token"];
  CHECK(bob_new != alice_new);
  db = data_folder(server);
  CHECK(db.find(alice_new) == std::string::npos);
  CHECK(db.find(bob_new) == std::string::npos);
  Peer bob2(server.port(), next);
  CHECK(bob2.join_token(bob_new)["seat"] == 0);  // rotated: Bob starts the rematch
  Peer alice2(server.port(), next);
  CHECK(alice2.join_token(alice_new)["seat"] == 1);
}

}  // namespace carc::test
