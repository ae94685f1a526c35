#include "net/http_answers.hpp"

#include <algorithm>

#include <boost/beast/http.hpp>

#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"

namespace carc::server {

namespace {

constexpr std::string_view kJson = "application/json";

std::string retry_after(double seconds) { return std::to_string(retry_after_seconds(seconds)); }

}  // namespace

Response make_response(http::status status, std::string body, unsigned version, bool keep_alive, std::string_view type) {
  Response res{status, version};
  res.set(http::field::server, "carcassonne");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keep_alive);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

Response json_response(const Request& req, http::status status, std::string body) {
  return make_response(status, std::move(body), req.version(), req.keep_alive(), kJson);
}

Response method_not_allowed(const Request& req, std::string_view allow) {
  auto res = make_response(http::status::method_not_allowed, "method not allowed\n", req.version(), req.keep_alive());
  res.set(http::field::allow, allow);
  return res;
}

Response error_answer(const Request& req, http::status status, std::string_view code, std::string_view message) {
  return json_response(req, status, protocol::json_text(nlohmann::json{{"error", code}, {"message", message}}));
}

std::string bearer_key(const Request& req) {
  std::string_view v = req[http::field::authorization];
  if (!v.starts_with("Bearer ")) return {};
  v.remove_prefix(7);
  return std::string(v);
}

Response rate_limited(const Request& req, double wait, std::string_view what) {
  const std::string seconds = retry_after(wait);
  nlohmann::json body{{"error", "rate_limited"},
                      {"message", "too many " + std::string(what) + " from your address; try again in " + seconds + " s"},
                      {"retry_after", std::stol(seconds)}};
  auto res = json_response(req, http::status::too_many_requests, protocol::json_text(body));
  res.set(http::field::retry_after, seconds);
  return res;
}

void set_security_headers(Response& res, std::string_view host) {
  res.set("Content-Security-Policy", content_security_policy(host));
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
}

std::string forwarded_for(const Request& req) {
  std::string out;
  for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) {
    if (!out.empty()) out += ',';
    out += it->value();
  }
  return out;
}

std::string invite_base(const Config& config, const Request& req, bool via_trusted_proxy) {
  if (!config.base_url.empty()) return config.base_url;
  // Anyone can send these headers: only a proxy we trust sets what links say.
  std::string_view proto = via_trusted_proxy ? first_value(req["X-Forwarded-Proto"]) : std::string_view();
  if (proto != "https" && proto != "http") proto = "http";
  std::string_view host = via_trusted_proxy ? first_value(req["X-Forwarded-Host"]) : std::string_view();
  if (!safe_host(host)) host = req[http::field::host];
  std::string fallback;
  if (!safe_host(host)) {
    fallback = config.bind + ":" + std::to_string(config.port);
    host = fallback;
  }
  return std::string(proto) + "://" + std::string(host);
}

Response tiles_answer(const Request& req, std::string_view query, const std::string& all) {
  // `?expansions=<id>,<id>`: that game's tile set (docs/expansions.md).
  std::string body = all;
  if (const auto q = query.find("expansions="); q != std::string_view::npos) {
    std::string_view raw = query.substr(q + 11);
    raw = raw.substr(0, std::min(raw.find('&'), raw.size()));
    // A comma may come percent-encoded (%2C): decoded here, nothing else is needed.
    std::string decoded;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '%' && i + 2 < raw.size() && (raw.substr(i + 1, 2) == "2C" || raw.substr(i + 1, 2) == "2c")) {
        decoded += ',';
        i += 2;
      } else {
        decoded += raw[i];
      }
    }
    std::string_view list = decoded;
    nlohmann::json ids = nlohmann::json::array();
    while (!list.empty()) {
      const auto comma = std::min(list.find(','), list.size());
      ids.push_back(std::string(list.substr(0, comma)));
      list.remove_prefix(std::min(comma + 1, list.size()));
    }
    auto set = protocol::parse_expansions(&ids);
    if (const auto* why = std::get_if<std::string>(&set)) {
      return json_response(req, http::status::bad_request, protocol::json_text(nlohmann::json{{"error", "bad_request"}, {"message", *why}}));
    }
    body = protocol::json_text(protocol::tiles_json(std::get<ExpansionSet>(set)));
  }
  auto res = json_response(req, http::status::ok, std::move(body));
  res.set(http::field::cache_control, "public, max-age=3600");
  return res;
}

// The browser replays expansion games this way (one rules engine; web-client/js/game/rules.js
// stays the base game's independent test oracle). The answer is `carcassonne replay`'s:
// the result, or {"error", "move"} with 422.
Response replay_answer(const Request& req) {
  const auto record = nlohmann::json::parse(req.body(), nullptr, false);
  if (record.is_discarded()) {
    return json_response(req, http::status::bad_request, R"({"error":"malformed JSON","move":null})");
  }
  auto parsed = protocol::parse_record(record);
  const protocol::RecordError* error = std::get_if<protocol::RecordError>(&parsed);
  std::variant<nlohmann::json, protocol::RecordError> result;
  if (error == nullptr) {
    result = protocol::replay(std::get<protocol::Record>(parsed));
    error = std::get_if<protocol::RecordError>(&result);
  }
  if (error != nullptr) {
    nlohmann::json body{{"error", error->message}, {"move", error->move ? nlohmann::json(*error->move) : nlohmann::json(nullptr)}};
    return json_response(req, http::status::unprocessable_entity, protocol::json_text(body));
  }
  return json_response(req, http::status::ok, protocol::json_text(std::get<nlohmann::json>(result)));
}

std::variant<ExpansionSet, std::string> requested_expansions(const Request& req) {
  if (req.body().empty()) return ExpansionSet{};
  const auto body = nlohmann::json::parse(req.body(), nullptr, false);
  if (!body.is_object()) return std::string("the body must be a JSON object");
  const nlohmann::json* ids = nullptr;
  if (const auto it = body.find("expansions"); it != body.end()) ids = &*it;
  return protocol::parse_room_expansions(ids);
}

std::variant<OptionSet, std::string> requested_options(const Request& req) {
  if (req.body().empty()) return OptionSet{};
  const auto body = nlohmann::json::parse(req.body(), nullptr, false);
  if (!body.is_object()) return std::string("the body must be a JSON object");
  const nlohmann::json* ids = nullptr;
  if (const auto it = body.find("options"); it != body.end()) ids = &*it;
  return protocol::parse_options(ids);
}

}  // namespace carc::server
