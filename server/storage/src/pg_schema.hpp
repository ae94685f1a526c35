// The PostgreSQL store's schema (internal to carc_storage): its forward migrations and
// its prepared statements, each write fenced on owner, epoch and a running lease.
#pragma once

#include <string>

namespace carc::server {

class PgConn;

namespace pg_schema {

// This node's lease is running, by the database's clock (`node_param`: "$N", the node id).
std::string live(const std::string& node_param);
// The room's owner (rooms.owner) has no running lease.
extern const char* const kOwnerGone;
// Brings the database to PgStore::kSchemaVersion under an advisory lock; throws StorageError
// (a database it refuses, left untouched) or PgError.
void migrate(PgConn& c, const std::string& where);
// Prepares every statement the store runs on `c` (again after each reconnect).
void prepare_statements(PgConn& c);

}  // namespace pg_schema
}  // namespace carc::server
