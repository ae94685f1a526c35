#include "pg_schema.hpp"

#include <array>
#include <cstdint>

#include "carc/server/pg_store.hpp"
#include "pg.hpp"

namespace carc::server::pg_schema {
namespace {

// Forward migrations: step i brings a database from schema i to i + 1, each in the
// transaction that holds the migration lock (several nodes may start at once). Never edit
// a step that has shipped; append one and bump PgStore::kSchemaVersion.
constexpr std::array<const char*, PgStore::kSchemaVersion> kMigrations = {
    // 0 -> 1: nodes with their leases, rooms with their owner and epoch, the action log
    "CREATE TABLE nodes("
    "  id TEXT PRIMARY KEY,"
    "  lease_until TIMESTAMPTZ NOT NULL,"
    "  advertise TEXT NOT NULL DEFAULT '',"
    "  started_at TIMESTAMPTZ NOT NULL DEFAULT now());"
    "CREATE TABLE rooms("
    "  id TEXT PRIMARY KEY,"
    "  phase TEXT NOT NULL,"
    "  version BIGINT NOT NULL,"
    "  created_ms BIGINT NOT NULL,"
    "  updated_ms BIGINT NOT NULL,"
    "  quarantined TEXT,"
    "  owner TEXT,"
    "  epoch BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX rooms_by_phase ON rooms(phase, updated_ms);"
    "CREATE INDEX rooms_by_owner ON rooms(owner);"
    "CREATE TABLE actions("
    "  room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,"
    "  seq BIGINT NOT NULL,"
    "  payload TEXT NOT NULL,"
    "  PRIMARY KEY(room, seq));",
    // 1 -> 2: a node routed a room that another node holds asks for it (handoff)
    "ALTER TABLE rooms ADD COLUMN wanted_by TEXT;",
    // 2 -> 3 (analyses; renumber freely when merging another step before it): the
    // analysis of a finished game, one row a room, gone with its room.
    "CREATE TABLE analyses("
    "  room TEXT PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,"
    "  status TEXT NOT NULL,"
    "  record TEXT NOT NULL,"
    "  moves TEXT NOT NULL,"
    "  updated_ms BIGINT NOT NULL);",
    // 3 -> 4 (turn-based games): turn-based rooms' wake-ups, player keys with their sealed seats,
    // and the notices sent. Servers before this step made these tables outside the
    // migrations, hence "IF NOT EXISTS".
    "CREATE TABLE IF NOT EXISTS wakes(room TEXT PRIMARY KEY, due_ms BIGINT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS wakes_by_due ON wakes(due_ms);"
    "CREATE TABLE IF NOT EXISTS player_keys(hash TEXT PRIMARY KEY, created_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS key_seats(key_hash TEXT NOT NULL, room TEXT NOT NULL, seat INT NOT NULL,"
    "  sealed TEXT NOT NULL, added_ms BIGINT NOT NULL, PRIMARY KEY(key_hash, room));"
    "CREATE TABLE IF NOT EXISTS notices_sent(id TEXT PRIMARY KEY, sent_ms BIGINT NOT NULL);",
    // 4 -> 5: a room released for the node that asked for it waits for that node until then
    // (no other node may claim it meanwhile)
    "ALTER TABLE rooms ADD COLUMN wanted_until TIMESTAMPTZ;",
};

constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7236518112)";

}  // namespace

// This node's lease is running, by the database's clock ($N is the node id).
std::string live(const std::string& node_param) {
  return "EXISTS(SELECT 1 FROM nodes WHERE id = " + node_param + " AND lease_until > clock_timestamp())";
}
// The room's owner (rooms.owner) has no running lease.
const char* const kOwnerGone =
    "NOT EXISTS(SELECT 1 FROM nodes n WHERE n.id = rooms.owner AND n.lease_until > clock_timestamp())";
// The node that asked for the room (rooms.wanted_by) has a running lease.
const char* const kWanterLive =
    "EXISTS(SELECT 1 FROM nodes n WHERE n.id = rooms.wanted_by AND n.lease_until > clock_timestamp())";

// Node $1 may claim the room: it has no owner and is not waiting for another live node
// that asked for it (a handoff's release keeps the room for the asker until wanted_until);
// or it is $1's own (a claim whose answer $1 never took) and no other live node asks for
// it (an owner that just sent its clients away must not take the room back before it is
// released); or its owner's lease ran out.
std::string claimable(const std::string& me) {
  const std::string no_other_asker = "wanted_by IS NULL OR wanted_by = " + me + " OR NOT " + kWanterLive;
  const std::string kept_for_nobody = no_other_asker + " OR wanted_until IS NULL OR wanted_until <= clock_timestamp()";
  return "((owner IS NULL AND (" + kept_for_nobody + ")) OR (owner = " + me + " AND (" + no_other_asker + ")) OR (owner IS NOT NULL AND " +
         kOwnerGone + "))";
}

void prepare_statements(PgConn& c) {
  const std::string me = "$1";  // every fenced statement takes the node id first
  c.prepare("create",
            "INSERT INTO rooms(id, phase, version, created_ms, updated_ms, owner, epoch) "
            "SELECT $2::text, 'lobby', 1, $3::bigint, $4::bigint, $1::text, 1 WHERE " + live(me) + " ON CONFLICT(id) DO NOTHING");
  c.prepare("create_unowned",
            "INSERT INTO rooms(id, phase, version, created_ms, updated_ms, owner, epoch) "
            "SELECT $2::text, 'lobby', 1, $3::bigint, $4::bigint, NULL, 0 WHERE " + live(me) + " ON CONFLICT(id) DO NOTHING");
  // The fence: owner, epoch and this node's lease in the same statement as the insert.
  c.prepare("append",
            "WITH r AS (UPDATE rooms SET version = GREATEST(version, $5::bigint), "
            "phase = COALESCE(NULLIF($6::text, ''), phase), updated_ms = $7::bigint "
            "WHERE id = $2 AND owner = $1 AND epoch = $8::bigint AND " + live(me) + " RETURNING id) "
            "INSERT INTO actions(room, seq, payload) SELECT id, $3::bigint, $4::text FROM r");
  c.prepare("phase", "UPDATE rooms SET phase = $3, updated_ms = $4 WHERE id = $2 AND owner = $1 AND epoch = $5 AND " +
                         live(me));
  c.prepare("remove",
            "DELETE FROM rooms WHERE id = $2 AND phase <> 'finished' AND quarantined IS NULL AND owner = $1 AND epoch = $3 AND " +
                live(me));
  c.prepare("bump", "UPDATE rooms SET version = $3, updated_ms = $4 WHERE id = $2 AND version < $3 AND owner = $1 AND epoch = $5 AND " +
                        live(me));
  c.prepare("claim",
            "UPDATE rooms SET owner = $1, epoch = epoch + 1, wanted_by = NULL, wanted_until = NULL WHERE id = $2 AND quarantined IS NULL AND " +
                live(me) + " AND " + claimable(me) + " RETURNING epoch");
  c.prepare("claim_all",
            "UPDATE rooms SET owner = $1, epoch = epoch + 1, wanted_by = NULL, wanted_until = NULL WHERE quarantined IS NULL AND phase <> 'finished' AND " + live(me) +
                " AND " + claimable(me) + " RETURNING id, epoch");
  // Who has the room, when $1 could not claim it: its owner, quarantined, the owner live,
  // the node that asked for it, and whether the room waits for that node.
  c.prepare("holder",
            std::string("SELECT COALESCE(owner, ''), quarantined IS NOT NULL, "
                        "EXISTS(SELECT 1 FROM nodes n WHERE n.id = rooms.owner AND n.lease_until > clock_timestamp()), "
                        "COALESCE(wanted_by, ''), ") +
                kWanterLive + " AND (owner IS NOT NULL OR wanted_until > clock_timestamp()) FROM rooms WHERE id = $1");
  c.prepare("room", "SELECT id, phase, version, created_ms, updated_ms, COALESCE(quarantined, '') FROM rooms WHERE id = $1");
  c.prepare("log", "SELECT seq, payload FROM actions WHERE room = $1 ORDER BY seq");
  c.prepare("quarantine", "UPDATE rooms SET quarantined = $2 WHERE id = $1");
  c.prepare("register",
            "INSERT INTO nodes(id, lease_until, advertise) VALUES($1, clock_timestamp() + $2::bigint * interval '1 millisecond', $3) "
            "ON CONFLICT(id) DO UPDATE SET lease_until = EXCLUDED.lease_until, advertise = EXCLUDED.advertise, "
            "started_at = now()");
  c.prepare("renew",
            "UPDATE nodes SET lease_until = clock_timestamp() + $2::bigint * interval '1 millisecond' "
            "WHERE id = $1 AND lease_until > clock_timestamp()");
  c.prepare("wanted", "SELECT id, epoch FROM rooms WHERE owner = $1 AND wanted_by IS NOT NULL AND wanted_by <> $1");
  c.prepare("handoff", "UPDATE rooms SET wanted_by = $1, wanted_until = NULL WHERE id = $2 AND owner IS NOT NULL AND owner <> $1");
  c.prepare("release_all", "UPDATE rooms SET owner = NULL, wanted_by = NULL, wanted_until = NULL WHERE owner = $1");
  c.prepare("unregister", "DELETE FROM nodes WHERE id = $1");
  c.prepare("analysis_save",
            "INSERT INTO analyses(room, status, record, moves, updated_ms) SELECT $1, $2, $3, $4, $5::bigint "
            "WHERE EXISTS(SELECT 1 FROM rooms WHERE id = $1) ON CONFLICT(room) DO UPDATE SET status = EXCLUDED.status, "
            "record = EXCLUDED.record, moves = EXCLUDED.moves, updated_ms = EXCLUDED.updated_ms RETURNING room");
  c.prepare("analysis_load", "SELECT room, status, record, moves FROM analyses WHERE room = $1");
  c.prepare("analyses_open", "SELECT room, status, record, moves FROM analyses WHERE status <> 'done' ORDER BY updated_ms, room");
  // The node that asked for the room (if any) has it to itself for $4 ms.
  c.prepare("release",
            "UPDATE rooms SET owner = NULL, wanted_until = CASE WHEN wanted_by IS NULL OR wanted_by = $1 THEN NULL "
            "ELSE clock_timestamp() + $4::bigint * interval '1 millisecond' END, "
            "wanted_by = NULLIF(wanted_by, $1) WHERE id = $2 AND owner = $1 AND epoch = $3");
}

void migrate(PgConn& c, const std::string& where) {
  c.exec("BEGIN");
  try {
    c.exec(kMigrationLock);
    PgResult meta = c.exec("SELECT to_regclass('carc_meta') IS NOT NULL, to_regclass('rooms') IS NOT NULL");
    const bool has_meta = meta.text(0, 0) == "t";
    const bool has_rooms = meta.text(0, 1) == "t";
    std::int64_t have = 0;
    if (has_meta) {
      PgResult v = c.exec("SELECT value FROM carc_meta WHERE key = 'schema_version'");
      if (v.rows() != 1) {
        throw StorageError("the database " + where +
                           " has a carc_meta table without a schema version (damaged?). It was left untouched: "
                           "restore a backup, or point --db at another database");
      }
      have = v.int64(0, 0);
    } else if (has_rooms) {
      throw StorageError("the database " + where +
                         " has a table \"rooms\" that is not ours (no carc_meta). It was left untouched: "
                         "point --db at an empty database of its own");
    }
    if (have > PgStore::kSchemaVersion) {
      throw StorageError("the database " + where + " has schema version " + std::to_string(have) +
                         ", newer than this server understands (" + std::to_string(PgStore::kSchemaVersion) +
                         "). It was left untouched: run a newer server");
    }
    if (!has_meta) c.exec("CREATE TABLE carc_meta(key TEXT PRIMARY KEY, value BIGINT NOT NULL)");
    for (std::int64_t v = have; v < PgStore::kSchemaVersion; ++v) c.exec(kMigrations[static_cast<std::size_t>(v)]);
    c.exec("INSERT INTO carc_meta(key, value) VALUES('schema_version', " + std::to_string(PgStore::kSchemaVersion) +
           ") ON CONFLICT(key) DO UPDATE SET value = EXCLUDED.value");
    c.exec("COMMIT");
  } catch (...) {
    try {
      c.exec("ROLLBACK");
    } catch (...) {
    }
    throw;
  }
}

}  // namespace carc::server::pg_schema
