#include "pg.hpp"

#include <libpq-fe.h>

#include <cstdlib>

namespace carc::server {

namespace {

std::string one_line(const char* msg) {
  std::string s = msg != nullptr ? msg : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  return s.empty() ? std::string("unknown error") : s;
}

}  // namespace

PgResult::~PgResult() {
  if (r_ != nullptr) PQclear(r_);
}

PgResult& PgResult::operator=(PgResult&& o) noexcept {
  if (this != &o) {
    if (r_ != nullptr) PQclear(r_);
    r_ = o.r_;
    o.r_ = nullptr;
  }
  return *this;
}

bool PgResult::ok() const {
  if (r_ == nullptr) return false;
  const auto s = PQresultStatus(r_);
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

std::string PgResult::error() const {
  if (r_ == nullptr) return "no result (connection lost)";
  if (PQresultStatus(r_) == PGRES_PIPELINE_ABORTED) return "not run: an earlier statement of the transaction failed";
  return one_line(PQresultErrorMessage(r_));
}

int PgResult::rows() const { return r_ != nullptr ? PQntuples(r_) : 0; }

int PgResult::affected() const {
  if (r_ == nullptr) return 0;
  const char* n = PQcmdTuples(r_);
  return n != nullptr && *n != '\0' ? std::atoi(n) : 0;
}

bool PgResult::null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }

std::string PgResult::text(int row, int col) const {
  return std::string(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col)));
}

std::int64_t PgResult::int64(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }

// ---------------------------------------------------------------------------------------
PgConn::PgConn(const std::string& conninfo) {
  c_ = PQconnectdb(conninfo.c_str());
  if (c_ == nullptr) throw PgError("out of memory");
  if (PQstatus(c_) != CONNECTION_OK) {
    const std::string why = one_line(PQerrorMessage(c_));
    PQfinish(c_);
    c_ = nullptr;
    throw PgError(why);
  }
  PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);  // NOTICEs are not ours to print
}

PgConn::~PgConn() {
  if (c_ != nullptr) PQfinish(c_);
}

bool PgConn::healthy() const { return c_ != nullptr && PQstatus(c_) == CONNECTION_OK; }

std::string PgConn::where() const {
  const char* host = PQhost(c_);
  std::string h = host != nullptr ? host : "";
  if (!h.empty() && h.front() == '/') h = "socket " + h;
  return h + ":" + (PQport(c_) != nullptr ? PQport(c_) : "") + "/" + (PQdb(c_) != nullptr ? PQdb(c_) : "");
}

void PgConn::reset() {
  if (PQpipelineStatus(c_) != PQ_PIPELINE_OFF) PQexitPipelineMode(c_);
  PQreset(c_);
  if (PQstatus(c_) != CONNECTION_OK) throw PgError(one_line(PQerrorMessage(c_)));
  prepare_all();
}

void PgConn::prepare(const std::string& name, const std::string& sql) {
  PgResult r(PQprepare(c_, name.c_str(), sql.c_str(), 0, nullptr));
  if (!r.ok()) throw PgError("prepare " + name + ": " + r.error());
  prepared_.emplace_back(name, sql);
}

void PgConn::prepare_all() {
  auto all = std::move(prepared_);
  prepared_.clear();
  for (const auto& [name, sql] : all) prepare(name, sql);
}

PgResult PgConn::exec(const std::string& sql) {
  PgResult r(PQexec(c_, sql.c_str()));
  if (!r.ok()) throw PgError(r.error());
  return r;
}

PgResult PgConn::try_run(const std::string& name, const Params& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  return PgResult(PQexecPrepared(c_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0));
}

PgResult PgConn::run(const std::string& name, const Params& params) {
  PgResult r = try_run(name, params);
  if (!r.ok()) throw PgError(name + ": " + r.error());
  return r;
}

PgConn::Piped PgConn::pipeline(const std::vector<std::pair<std::string, Params>>& statements) {
  Piped out;
  if (PQenterPipelineMode(c_) != 1) {
    out.error = "cannot enter pipeline mode: " + one_line(PQerrorMessage(c_));
    return out;
  }
  for (const auto& [name, params] : statements) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p.c_str());
    if (PQsendQueryPrepared(c_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0) != 1) {
      out.error = one_line(PQerrorMessage(c_));
      break;
    }
  }
  if (out.error.empty() && PQpipelineSync(c_) != 1) out.error = one_line(PQerrorMessage(c_));
  if (!out.error.empty()) {
    // Nothing was synced: nothing commits. The connection is reset before its next use.
    PQexitPipelineMode(c_);
    return out;
  }
  // One result (then a null) per statement, then the sync.
  for (std::size_t i = 0; i < statements.size(); ++i) {
    PgResult r(PQgetResult(c_));
    if (r.get() == nullptr) {
      out.error = "connection lost: " + one_line(PQerrorMessage(c_));
      return out;
    }
    while (PGresult* extra = PQgetResult(c_)) PQclear(extra);
    if (!r.ok() && out.error.empty()) out.error = statements[i].first + ": " + r.error();
    out.results.push_back(std::move(r));
  }
  bool synced = false;
  while (PGresult* r = PQgetResult(c_)) {
    const auto s = PQresultStatus(r);
    if (s == PGRES_PIPELINE_SYNC) synced = true;
    else if (s == PGRES_FATAL_ERROR && out.error.empty()) out.error = "commit: " + one_line(PQresultErrorMessage(r));
    PQclear(r);
    if (synced) break;
  }
  if (!synced && out.error.empty()) out.error = "connection lost: " + one_line(PQerrorMessage(c_));
  PQexitPipelineMode(c_);
  return out;
}

}  // namespace carc::server
