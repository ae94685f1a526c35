// Durable games end to end (docs/durability.md): the real carcassonne-server, real WebSockets,
// SIGKILL and restarts on the same data folder.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "carc/server/sqlite_store.hpp"
#include "durability_helpers.hpp"
#include "helpers.hpp"
#include "state_match.hpp"

namespace fs = std::filesystem;
using namespace carc::test;

TEST_CASE("durability: SIGKILL with rooms in every phase, restart, reconnect, finish") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  Table empty_lobby, lobby, fresh, mid, done;
  std::map<std::string, std::pair<json, std::int64_t>> before;  // room -> (durable state, version)
  {
    ServerProcess server(data, tmp.path() / "run1.log");
    REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
    const auto port = server.port();
    empty_lobby.room = create_room(port);
    lobby = seat_players(port, 1);
    fresh = seat_players(port, 2);
    start(fresh);
    mid = seat_players(port, 3);
    start(mid);
    play(mid, 25);
    mid.host().send({{"type", "chat"}, {"text", "still here after a crash?"}});
    mid.host().expect("patch");
    mid.sync_with(mid.host());
    done = seat_players(port, 2);
    start(done);
    play(done, -1);
    REQUIRE(done.phase() == "finished");
    for (Table* t : {&lobby, &fresh, &mid, &done}) before[t->room] = {durable_part(t->state()), t->host().version};
    CHECK(WTERMSIG(server.kill(SIGKILL)) == SIGKILL);
  }

  ServerProcess server(data, tmp.path() / "run2.log");
  REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
  const auto port = server.port();

  const auto info = http_request(port, http::verb::get, "/api/rooms/" + empty_lobby.room);
  CHECK(info.status == 200);
  CHECK(info.json_body()["phase"] == "lobby");

  for (Table* t : {&lobby, &fresh, &mid, &done}) {
    CAPTURE(t->room);
    reconnect(*t, port);
    CHECK(durable_part(t->state()) == before[t->room].first);
    CHECK(t->host().version >= before[t->room].second);  // versions never go back
  }
  CHECK(mid.state()["chat"].back()["text"] == "still here after a crash?");

  // A play decided on a version from before the last move is still stale.
  WsClient& m = mover(mid);
  json stale = choose_play(m.state, 1, mid.rng);
  m.send(stale);
  CHECK(m.expect("error")["code"] == "stale_version");

  // The lobby goes on: a newcomer joins, the host starts.
  join(lobby, port, "Late");
  CHECK(lobby.players.back()->seat == 1);
  start(lobby);
  for (Table* t : {&lobby, &fresh, &mid}) {
    play(*t, -1);
    check_against_replay(*t, port);
  }
  check_against_replay(done, port);
}

TEST_CASE("durability: a crash after the durable write and before the broadcast loses nothing") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  Table t;
  json before;
  int placed_before = 0;
  {
    ServerProcess server(data, tmp.path() / "run1.log", {{"CARC_CRASH_AFTER_PERSIST", "5"}}, {}, CARC_SERVER_TEST_BIN);
    REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
    t = seat_players(server.port(), 2);
    start(t);
    play(t, 4);
    before = t.state();
    placed_before = static_cast<int>(before["board"].size());
    WsClient& m = mover(t);
    m.send(choose_play(m.state, m.version, t.rng));
    CHECK_THROWS(m.read());  // the server died before broadcasting the move
    const auto status = server.wait_exit(std::chrono::seconds(5));
    REQUIRE(status);
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 86);
  }
  ServerProcess server(data, tmp.path() / "run2.log");
  REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
  reconnect(t, server.port());
  CHECK(static_cast<int>(t.state()["board"].size()) == placed_before + 1);  // the move was kept
  CHECK(t.state()["turn"]["number"].get<int>() > before["turn"]["number"].get<int>());
  play(t, -1);
  check_against_replay(t, server.port());
}

TEST_CASE("durability: a corrupt database stops the start with a clear error and stays untouched") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  fs::create_directories(data);
  std::string garbage = "this is not a database\n";
  for (int i = 0; i < 2000; ++i) garbage += static_cast<char>('a' + i % 26);
  spit(data / "carcassonne.db", garbage);
  ServerProcess server(data, tmp.path() / "run.log");
  const auto status = server.wait_exit(std::chrono::seconds(10));
  REQUIRE(status);
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) != 0);
  CHECK(server.log_text().find("not a SQLite database") != std::string::npos);
  CHECK(slurp(data / "carcassonne.db") == garbage);
}

TEST_CASE("durability: a read-only data folder stops the start with a clear error" * doctest::skip(!carc::test::namespaces_work())) {
  CHECK(run_in_namespace("ns: server read-only", "1m") == 0);
}

TEST_CASE("durability: a full disk while running refuses changes as unavailable, then recovers" * doctest::skip(!carc::test::namespaces_work())) {
  CHECK(run_in_namespace("ns: server full while running", "2m") == 0);
}

// ---- inside the namespace ----
TEST_CASE("ns: server read-only" * doctest::skip(carc::test::ns_dir() == nullptr)) {
  const fs::path root = ns_dir();
  fs::create_directories(root / "data");
  REQUIRE(std::system(("mount -o remount,ro '" + root.string() + "'").c_str()) == 0);
  ServerProcess server(root / "data", "/tmp/carc-ns-server-ro.log");
  const auto status = server.wait_exit(std::chrono::seconds(10));
  REQUIRE(status);
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) != 0);
  const std::string log = server.log_text();
  INFO(log);
  CHECK(log.find("read-only file system") != std::string::npos);
  fs::remove("/tmp/carc-ns-server-ro.log");
}

TEST_CASE("ns: server full while running" * doctest::skip(carc::test::ns_dir() == nullptr)) {
  const fs::path root = ns_dir();
  ServerProcess server(root / "data", "/tmp/carc-ns-server-full.log");
  REQUIRE(server.wait_ready());
  Table t = seat_players(server.port(), 2);
  start(t);
  play(t, 3);

  {  // fill the disk
    std::ofstream filler(root / "filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) filler.flush();
  }
  // The log's last block may still hold a move or two (SQLite writes it in pieces smaller
  // than the file system's blocks), so the disk refuses a change within a few moves, not
  // necessarily the first: each accepted one is played on, the first refused one checked.
  bool refused = false;
  for (int attempt = 0; attempt < 20 && !refused && t.phase() == "playing"; ++attempt) {
    const json before = t.state();
    const std::int64_t version = t.host().version;
    WsClient& m = mover(t);
    m.send(choose_play(m.state, m.version, t.rng));
    json f;
    do {
      f = m.read();
    } while (f.value("type", "") != "error" && !(f.value("type", "") == "patch" && m.version > version));
    if (f.value("type", "") == "patch") {
      t.sync_with(m);
      continue;
    }
    refused = true;
    CHECK(f["code"] == "unavailable");
    m.send({{"type", "resync"}});
    m.expect("state");
    CHECK(m.version == version);  // nothing was applied
    CHECK(m.state == before);
  }
  CHECK(refused);

  fs::remove(root / "filler");
  play(t, -1);
  check_against_replay(t, server.port());
  server.kill(SIGKILL);
  ServerProcess again(root / "data", "/tmp/carc-ns-server-full.log");
  REQUIRE(again.wait_ready());
  reconnect(t, again.port());
  CHECK(t.phase() == "finished");
  fs::remove("/tmp/carc-ns-server-full.log");
}

TEST_CASE("durability: a room whose log no longer replays is quarantined, reported, and kept") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  Table broken, fine;
  {
    ServerProcess server(data, tmp.path() / "run1.log");
    REQUIRE(server.wait_ready());
    broken = seat_players(server.port(), 2);
    start(broken);
    play(broken, 6);
    fine = seat_players(server.port(), 2);
    start(fine);
    play(fine, 3);
    server.kill(SIGKILL);
  }
  // As after a rules change: the first stored move of one room is no longer legal. A move
  // is stored as "M v gv index seat time <tile>,<x>,<y>,..." (server/src/durable/action_codec.hpp).
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((data / "carcassonne.db").c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT seq, payload FROM actions WHERE room = ?1 AND payload LIKE 'M %' ORDER BY seq LIMIT 1",
                               -1, &st, nullptr) == SQLITE_OK);
    sqlite3_bind_text(st, 1, broken.room.c_str(), -1, SQLITE_TRANSIENT);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    const std::int64_t seq = sqlite3_column_int64(st, 0);
    std::string payload = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    const auto comma = payload.find(',');  // after the tile letter: x up to the next comma
    REQUIRE(comma != std::string::npos);
    payload.replace(comma + 1, payload.find(',', comma + 1) - comma - 1, "60");
    REQUIRE(sqlite3_prepare_v2(db, "UPDATE actions SET payload = ?3 WHERE room = ?1 AND seq = ?2", -1, &st, nullptr) ==
            SQLITE_OK);
    sqlite3_bind_text(st, 1, broken.room.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, seq);
    sqlite3_bind_text(st, 3, payload.c_str(), -1, SQLITE_TRANSIENT);
    REQUIRE(sqlite3_step(st) == SQLITE_DONE);
    sqlite3_finalize(st);
    CHECK(sqlite3_changes(db) == 1);
    sqlite3_close(db);
  }
  {
    ServerProcess server(data, tmp.path() / "run2.log");
    REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
    const std::string log = server.log_text();
    CHECK(log.find("room " + broken.room + ": its stored log no longer replays") != std::string::npos);
    CHECK(log.find("quarantined") != std::string::npos);
    CHECK(http_request(server.port(), http::verb::get, "/api/rooms/" + broken.room).status == 404);
    reconnect(fine, server.port());
    play(fine, -1);
    check_against_replay(fine, server.port());
    server.kill(SIGTERM);
  }
  auto storage = carc::server::SqliteStore::open(data);
  const auto q = storage->quarantined();
  REQUIRE(q.size() == 1);
  CHECK(q[0].first == broken.room);
  CHECK(q[0].second.find("illegal_placement") != std::string::npos);
  const auto kept = storage->load_room(broken.room).room;
  REQUIRE(kept);
  CHECK(kept->actions.size() >= 2 + 1 + 6);  // seats, start and every move are still there
}

TEST_CASE("durability: a finished game stays readable after it leaves memory") {
  TempDir tmp;
  ServerProcess server(tmp.path() / "data", tmp.path() / "run.log", {}, {"--room-ttl", "1"});
  REQUIRE(server.wait_ready());
  Table t = seat_players(server.port(), 2);
  start(t);
  play(t, -1);
  for (auto& p : t.players) p->close();
  const json result = t.state()["result"];
  // The sweeper drops the room from memory after 1 s without connections.
  for (int i = 0; i < 100 && server.log_text().find("room " + t.room + ": expired") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(server.log_text().find("room " + t.room + ": expired") != std::string::npos);
  check_against_replay(t, server.port());
  const auto info = http_request(server.port(), http::verb::get, "/api/rooms/" + t.room);
  CHECK(info.json_body()["phase"] == "finished");
}

TEST_CASE("durability: /metrics shows the storage writer and the write-ahead log") {
  TempDir tmp;
  ServerProcess server(tmp.path() / "data", tmp.path() / "run.log");
  REQUIRE(server.wait_ready());
  Table t = seat_players(server.port(), 2);
  start(t);
  play(t, 4);
  const std::string m = http_request(server.port(), http::verb::get, "/metrics").body;
  const auto value = [&](const std::string& name) -> long long {
    const auto at = m.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stoll(m.substr(at + name.size() + 2));
  };
  CHECK(value("carc_storage_commits_total") > 0);
  CHECK(value("carc_storage_wal_bytes") > 0);  // the moves are in the log
  CHECK(value("carc_storage_checkpoints_total") >= 0);
  CHECK(value("carc_storage_checkpoint_failures_total") == 0);
  CHECK(value("carc_storage_queued_writes") >= 0);
  CHECK(value("carc_storage_overflows_total") == 0);
}

TEST_CASE("durability: a database written before the compact action format restores and plays on") {
  // tests/storage/data/schema2-json-actions.*: made by the server at main 9c47ad5 (JSON
  // payloads, schema 2), with the tokens and states its clients had.
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  fs::create_directories(data);
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((data / "carcassonne.db").c_str(), &db) == SQLITE_OK);
    const std::string sql = slurp(CARC_TEST_DATA "/schema2-json-actions.sql") +
                            "UPDATE rooms SET updated_ms = " + std::to_string(carc::test::unix_now_ms()) + ";";
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);  // fresh: not purged
    sqlite3_close(db);
  }
  const json fixture = json::parse(slurp(CARC_TEST_DATA "/schema2-json-actions.json"));
  ServerProcess server(data, tmp.path() / "run.log");
  REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
  CHECK(server.log_text().find("restored 2 room(s)") != std::string::npos);  // the finished game is read on demand

  Table t;
  t.room = fixture["playing"]["room"].get<std::string>();
  int seat = 0;
  for (const auto& token : fixture["playing"]["tokens"]) {
    t.players.push_back(std::make_unique<WsClient>(server.port(), t.room));
    t.players.back()->token = token.get<std::string>();
    t.players.back()->seat = seat++;
  }
  reconnect(t, server.port());
  CHECK(first_difference(durable_part(fixture["playing"]["state"]), durable_part(t.state())) == "");
  CHECK(t.host().version > fixture["playing"]["version"].get<std::int64_t>());
  play(t, -1);  // new moves are stored in the compact format after the old ones
  check_against_replay(t, server.port());

  Table done;
  done.room = fixture["finished"]["room"].get<std::string>();
  const auto record = http_request(server.port(), http::verb::get, "/api/rooms/" + done.room + "/record");
  REQUIRE(record.status == 200);
  CHECK(record.json_body()["result"]["final_scores"] == fixture["finished"]["result"]["final_scores"]);

  Table lobby;
  lobby.room = fixture["lobby"]["room"].get<std::string>();
  lobby.players.push_back(std::make_unique<WsClient>(server.port(), lobby.room));
  lobby.players.back()->token = fixture["lobby"]["tokens"][0].get<std::string>();
  lobby.players.back()->seat = 0;
  reconnect(lobby, server.port());
  join(lobby, server.port(), "Newcomer");
  start(lobby);
  play(lobby, -1);
  check_against_replay(lobby, server.port());
  server.kill(SIGKILL);

  // Both formats in one log, read back after another restart.
  ServerProcess again(data, tmp.path() / "run2.log");
  REQUIRE_MESSAGE(again.wait_ready(), again.log_text());
  check_against_replay(t, again.port());
  check_against_replay(lobby, again.port());
}
