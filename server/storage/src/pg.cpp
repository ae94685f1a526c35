#include "pg.hpp"

#include <libpq-fe.h>

#include <poll.h>

#include <algorithm>
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
PgConn::PgConn(const std::string& url, PgConnOptions options) : options_(options) {
  // Ours first: what the URL or conninfo names (expanded from dbname, after them) wins.
  const std::string connect = std::to_string(options_.connect_timeout_s);
  const std::string io = std::to_string(options_.io_timeout_ms);
  const std::string statement = "-c statement_timeout=" + io;
  const char* keys[] = {"connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval",
                        "keepalives_count", "tcp_user_timeout", "options", "dbname", nullptr};
  const char* values[] = {connect.c_str(), "1", "5", "2", "3", io.c_str(), statement.c_str(), url.c_str(), nullptr};
  c_ = PQconnectdbParams(keys, values, 1);
  if (c_ == nullptr) throw PgError("out of memory");
  if (PQstatus(c_) != CONNECTION_OK) {
    const std::string why = one_line(PQerrorMessage(c_));
    PQfinish(c_);
    c_ = nullptr;
    throw PgError(why);
  }
  connected();
}

PgConn::~PgConn() {
  if (c_ != nullptr) PQfinish(c_);
}

void PgConn::connected() {
  PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);  // NOTICEs are not ours to print
  PQsetnonblocking(c_, 1);
  timed_out_ = false;
}

bool PgConn::healthy() const { return c_ != nullptr && !timed_out_ && PQstatus(c_) == CONNECTION_OK; }

std::string PgConn::where() const {
  const char* host = PQhost(c_);
  std::string h = host != nullptr ? host : "";
  if (!h.empty() && h.front() == '/') h = "socket " + h;
  return h + ":" + (PQport(c_) != nullptr ? PQport(c_) : "") + "/" + (PQdb(c_) != nullptr ? PQdb(c_) : "");
}

void PgConn::reset() {
  if (PQpipelineStatus(c_) != PQ_PIPELINE_OFF) PQexitPipelineMode(c_);
  PQreset(c_);  // blocking, bounded by connect_timeout
  if (PQstatus(c_) != CONNECTION_OK) throw PgError(one_line(PQerrorMessage(c_)));
  connected();
  prepare_all();
}

bool PgConn::await(std::chrono::steady_clock::time_point deadline, std::string* why) {
  const int sock = PQsocket(c_);
  for (;;) {
    const int flushed = PQflush(c_);  // 0: all sent, 1: more to send
    if (flushed < 0 || PQconsumeInput(c_) == 0) {
      *why = "connection lost: " + one_line(PQerrorMessage(c_));
      return false;
    }
    if (flushed == 0 && PQisBusy(c_) == 0) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || sock < 0) {
      // Half-open (a server or a network that stopped answering): give the connection up.
      timed_out_ = true;
      *why = "no answer from PostgreSQL within " + std::to_string(options_.io_timeout_ms) + " ms (connection given up)";
      return false;
    }
    pollfd p{sock, static_cast<short>(POLLIN | (flushed == 1 ? POLLOUT : 0)), 0};
    ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count() + 1, 1000)));
  }
}

PgResult PgConn::last_result(std::chrono::steady_clock::time_point deadline) {
  PgResult out;
  for (;;) {
    std::string why;
    if (!await(deadline, &why)) throw PgError(why);
    PGresult* r = PQgetResult(c_);
    if (r == nullptr) break;
    // The first failure, else the last result (a script of several statements).
    if (out.get() == nullptr || out.ok()) out = PgResult(r);
    else PQclear(r);
  }
  return out;
}

namespace {
std::chrono::steady_clock::time_point after_ms(int ms) { return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms); }
}  // namespace

void PgConn::prepare(const std::string& name, const std::string& sql) {
  if (PQsendPrepare(c_, name.c_str(), sql.c_str(), 0, nullptr) != 1) throw PgError("prepare " + name + ": " + one_line(PQerrorMessage(c_)));
  PgResult r = last_result(after_ms(options_.io_timeout_ms));
  if (!r.ok()) throw PgError("prepare " + name + ": " + r.error());
  prepared_.emplace_back(name, sql);
}

void PgConn::prepare_all() {
  auto all = std::move(prepared_);
  prepared_.clear();
  for (const auto& [name, sql] : all) prepare(name, sql);
}

PgResult PgConn::exec(const std::string& sql) {
  if (PQsendQuery(c_, sql.c_str()) != 1) throw PgError(one_line(PQerrorMessage(c_)));
  PgResult r = last_result(after_ms(options_.io_timeout_ms));
  if (!r.ok()) throw PgError(r.error());
  return r;
}

PgResult PgConn::try_run(const std::string& name, const Params& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  if (PQsendQueryPrepared(c_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0) != 1) {
    throw PgError(name + ": " + one_line(PQerrorMessage(c_)));
  }
  return last_result(after_ms(options_.io_timeout_ms));
}

PgResult PgConn::query(const std::string& sql, const Params& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  if (PQsendQueryParams(c_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0) != 1) {
    throw PgError(one_line(PQerrorMessage(c_)));
  }
  return last_result(after_ms(options_.io_timeout_ms));
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
    timed_out_ = true;
    return out;
  }
  // One result (then a null) per statement, then the sync; each within the deadline.
  const auto deadline = after_ms(options_.io_timeout_ms);
  std::string why;
  const auto next = [&]() -> PGresult* {
    if (!await(deadline, &why)) return nullptr;
    return PQgetResult(c_);
  };
  for (std::size_t i = 0; i < statements.size(); ++i) {
    PgResult r(next());
    if (r.get() == nullptr) {
      out.error = why.empty() ? "connection lost: " + one_line(PQerrorMessage(c_)) : why;
      return out;
    }
    while (PGresult* extra = next()) PQclear(extra);
    if (!why.empty()) {
      out.error = why;
      return out;
    }
    if (!r.ok() && out.error.empty()) out.error = statements[i].first + ": " + r.error();
    out.results.push_back(std::move(r));
  }
  bool synced = false;
  while (PGresult* r = next()) {
    const auto s = PQresultStatus(r);
    if (s == PGRES_PIPELINE_SYNC) synced = true;
    else if (s == PGRES_FATAL_ERROR && out.error.empty()) out.error = "commit: " + one_line(PQresultErrorMessage(r));
    PQclear(r);
    if (synced) break;
  }
  if (!synced && out.error.empty()) out.error = why.empty() ? "connection lost: " + one_line(PQerrorMessage(c_)) : why;
  if (synced) PQexitPipelineMode(c_);
  else timed_out_ = true;  // out of step with the server: reconnect before the next use
  return out;
}

}  // namespace carc::server
