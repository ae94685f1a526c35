// Player keys end to end (docs/turn-based.md, "your games" on every device): the real server, its
// HTTP API, and the SQLite file it writes. A key is only ever sent in a header; the database
// keeps its hash and the seat tokens sealed; a revoked key stops working; bad input changes
// nothing.
#include <doctest/doctest.h>
#include <openssl/sha.h>
#include <sqlite3.h>

#include <string>

#include "harness.hpp"
#include "helpers.hpp"

using namespace carc::test;

namespace {

std::string sha256_hex(const std::string& s) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(s.data()), s.size(), d);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : d) out += {kHex[b >> 4], kHex[b & 15]};
  return out;
}

// Every text cell of a table in the server's SQLite file.
std::string dump_table(const std::filesystem::path& db, const std::string& table) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  std::string out;
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, ("SELECT * FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const auto* t = sqlite3_column_text(st, c);
      out += t != nullptr ? reinterpret_cast<const char*>(t) : "";
      out += '|';
    }
    out += '\n';
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

}  // namespace

TEST_CASE("player keys: make, attach a seat, list it on another device, survive a restart, revoke") {
  TempDir dir;
  const auto data = dir.path() / "data";
  std::string key, room, token;
  {
    ServerProcess server(data, dir.path() / "server.log");
    REQUIRE(server.wait_ready());
    const auto made = keyed_request(server.port(), http::verb::post, "/api/keys");
    REQUIRE(made.status == 201);
    key = made.json_body()["key"].get<std::string>();
    CHECK(key.size() == 43);  // 256 bits
    room = http_request(server.port(), http::verb::post, "/api/rooms", "{}").json_body()["room"].get<std::string>();
    WsClient alice(server.port(), room);
    alice.send({{"type", "join"}, {"name", "Alice"}});
    alice.expect("welcome");
    token = alice.token;

    // Bad input: each refused with a clear error, nothing attached.
    const std::string seat_body = json{{"room", room}, {"token", token}}.dump();
    const auto unknown = keyed_request(server.port(), http::verb::post, "/api/keys/seats", std::string(43, 'A'), seat_body);
    CHECK(unknown.status == 401);
    CHECK(unknown.json_body()["error"] == "unknown_key");
    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/seats", "short", seat_body).status == 401);
    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/seats", "", seat_body).status == 401);
    const auto bad_token =
        keyed_request(server.port(), http::verb::post, "/api/keys/seats", key, json{{"room", room}, {"token", "nope"}}.dump());
    CHECK(bad_token.status == 403);
    CHECK(bad_token.json_body()["error"] == "bad_token");
    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/seats", key,
               json{{"room", "NoSuchRoom123"}, {"token", token}}.dump()).status == 404);
    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/seats", key, "{not json").status == 400);
    CHECK(keyed_request(server.port(), http::verb::get, "/api/keys/games", key).json_body()["games"].empty());

    const auto attached = keyed_request(server.port(), http::verb::post, "/api/keys/seats", key, seat_body);
    REQUIRE(attached.status == 200);
    CHECK(attached.json_body()["seat"] == 0);

    // The transfer link carries the key in the fragment; the QR code is drawn by libqrencode.
    const auto transfer = keyed_request(server.port(), http::verb::post, "/api/keys/transfer", key);
    REQUIRE(transfer.status == 200);
    const json t = transfer.json_body();
    CHECK(t["link"].get<std::string>().ends_with("/#key=" + key));
    CHECK(t["svg"].get<std::string>().starts_with("<svg"));
    CHECK(t["svg"].get<std::string>().find("h1v1h-1z") != std::string::npos);

    // Room info carries what the list needs.
    const json info = http_request(server.port(), http::verb::get, "/api/rooms/" + room).json_body();
    CHECK(info["pace"] == "live");
    CHECK(info["turn"].is_null());
    server.kill(SIGTERM);
    CHECK(server.log_text().find(key) == std::string::npos);
    CHECK(server.log_text().find(token) == std::string::npos);
  }
  // At rest: the key's hash only, and the token sealed.
  const auto db = data / "carcassonne.db";
  const std::string keys = dump_table(db, "player_keys");
  const std::string seats = dump_table(db, "key_seats");
  CHECK(keys.find(key) == std::string::npos);
  CHECK(keys.find(sha256_hex(key)) != std::string::npos);
  CHECK(seats.find(token) == std::string::npos);
  CHECK(seats.find(room) != std::string::npos);
  {
    // Another device, after a restart: the key alone gives the seat back.
    ServerProcess server(data, dir.path() / "server.log");
    REQUIRE(server.wait_ready());
    const auto games = keyed_request(server.port(), http::verb::get, "/api/keys/games", key);
    REQUIRE(games.status == 200);
    const json list = games.json_body()["games"];
    REQUIRE(list.size() == 1);
    CHECK(list[0]["room"] == room);
    CHECK(list[0]["seat"] == 0);
    CHECK(list[0]["token"] == token);
    WsClient phone(server.port(), room);
    phone.send({{"type", "join"}, {"token", list[0]["token"]}});
    phone.expect("welcome");
    CHECK(phone.seat == 0);

    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/revoke", key).status == 200);
    CHECK(keyed_request(server.port(), http::verb::get, "/api/keys/games", key).status == 401);
    CHECK(keyed_request(server.port(), http::verb::post, "/api/keys/revoke", key).status == 401);
  }
}
