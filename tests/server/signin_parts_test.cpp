// Sign-in's small parts (docs/community.md, "Sign-in"): the text forms (form encoding, Basic
// client credentials, a query parameter, a cookie), the routes of its API, and its flags.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

#include "app/config.hpp"
#include "community/oidc_text.hpp"
#include "http/routing.hpp"

namespace carc::server {

namespace {

std::variant<Config, ConfigExit> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "carcassonne-server");
  return parse_config(static_cast<int>(args.size()), args.data());
}

std::string exit_message(const std::variant<Config, ConfigExit>& r) {
  const auto* e = std::get_if<ConfigExit>(&r);
  return e != nullptr ? e->message : "";
}

}  // namespace

TEST_CASE("sign-in text: form encoding, credentials, query parameters, cookies") {
  CHECK(form_encode("a b/c?d=e&f~g_h.i-j") == "a%20b%2Fc%3Fd%3De%26f~g_h.i-j");
  CHECK(form_decode("a%20b+c%2F") == std::optional<std::string>("a b c/"));
  CHECK_FALSE(form_decode("bad%2").has_value());
  CHECK_FALSE(form_decode("bad%zz").has_value());
  CHECK_FALSE(form_decode("%").has_value());
  // RFC 6749 2.3.1: each part form-encoded, then base64 of "id:secret".
  CHECK(basic_credentials("client", "secret") == "Y2xpZW50OnNlY3JldA==");
  CHECK(basic_credentials("a:b", "c d") == "YSUzQWI6YyUyMGQ=");
  CHECK(query_param("/api/signin/callback?code=abc%2Fd&state=s1&iss=https%3A%2F%2Fid", "code") == "abc/d");
  CHECK(query_param("/api/signin/callback?code=abc&state=s1&iss=https%3A%2F%2Fid", "iss") == "https://id");
  CHECK(query_param("/api/signin/callback?xstate=1&state=s2", "state") == "s2");
  CHECK(query_param("/api/signin/callback?code=abc", "state").empty());
  CHECK(query_param("/api/signin/callback", "code").empty());
  CHECK(query_param("/x?state", "state").empty());
  CHECK(query_param("/x?state=%zz", "state").empty());
  CHECK(cookie_value("a=1; carc_signin=xyz; b=2", "carc_signin") == "xyz");
  CHECK(cookie_value("xcarc_signin=no", "carc_signin").empty());
  CHECK(cookie_value("", "carc_signin").empty());
}

TEST_CASE("sign-in routes") {
  using K = Route::Kind;
  for (const char* t : {"/api/me", "/api/signin/start", "/api/signin/callback?code=1&state=2", "/api/invites",
                        "/api/invites/redeem"}) {
    CHECK(route_request(HttpMethod::Get, t, false, Listen::Public).kind == K::SigninApi);
    CHECK(route_request(HttpMethod::Post, t, false, Listen::Public).kind == K::SigninApi);
  }
  CHECK(route_request(HttpMethod::Get, "/api/meme", false, Listen::Public).kind == K::ApiNotFound);
  CHECK(route_request(HttpMethod::Get, "/api/signin", false, Listen::Public).kind == K::ApiNotFound);
  CHECK(route_request(HttpMethod::Get, "/api/me", false, Listen::MetricsOnly).kind == K::NotFound);
}

TEST_CASE("sign-in flags: all three or none, secrets from files, the rated-play gate") {
  auto none = parse({});
  REQUIRE(std::holds_alternative<Config>(none));
  CHECK(std::get<Config>(none).oidc_issuer.empty());
  CHECK(std::get<Config>(none).rated_play == RatedPlay::Open);

  const auto dir = std::filesystem::temp_directory_path() / ("carc-signin-flags-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto secret = (dir / "secret").string();
  const auto admin = (dir / "admin").string();
  std::ofstream(secret) << "s3cret-from-a-file\n";
  std::ofstream(admin) << "an-admin-token-of-length\r\n";
  auto all = parse({"--oidc-issuer", "https://id.example.org/realms/x", "--oidc-client-id", "carc",
                    "--oidc-client-secret-file", secret.c_str(), "--rated-play", "invite", "--admin-token-file", admin.c_str()});
  REQUIRE(std::holds_alternative<Config>(all));
  const Config& c = std::get<Config>(all);
  CHECK(c.oidc_issuer == "https://id.example.org/realms/x");
  CHECK(c.oidc_client_id == "carc");
  CHECK(c.oidc_client_secret == "s3cret-from-a-file");
  CHECK(c.rated_play == RatedPlay::Invite);
  CHECK(c.admin_token == "an-admin-token-of-length");

  CHECK(exit_message(parse({"--oidc-issuer", "https://id.example.org", "--oidc-client-id", "carc"})).find("sign-in needs all of") == 0);
  CHECK(exit_message(parse({"--oidc-issuer", "ftp://id.example.org"})).find("invalid value for --oidc-issuer") == 0);
  CHECK(exit_message(parse({"--rated-play", "signed-in"})).find("--rated-play signed-in needs sign-in") == 0);
  CHECK(exit_message(parse({"--rated-play", "invite"})).find("--rated-play invite needs --admin-token-file") == 0);
  CHECK(exit_message(parse({"--rated-play", "all"})).find("invalid value for --rated-play") == 0);
  std::ofstream(admin) << "short\n";
  CHECK(exit_message(parse({"--admin-token-file", admin.c_str()})).find("invalid value for --admin-token-file") == 0);
  CHECK(exit_message(parse({"--oidc-client-secret-file", (dir / "missing").c_str()})).find("invalid value") == 0);
  std::filesystem::remove_all(dir);
}

}  // namespace carc::server
