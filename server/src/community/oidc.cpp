#include "community/oidc.hpp"

#include <openssl/sha.h>
#include <pthread.h>

#include <cjose/base64.h>

#include <chrono>
#include <deque>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "base/guard.hpp"
#include "base/random.hpp"
#include "community/oidc_text.hpp"
#include "push/http_client.hpp"
#include "push/targets.hpp"

namespace carc::server {

namespace {

using nlohmann::json;
namespace asio = boost::asio;

constexpr std::int64_t kDiscoveryTtlMs = 3600 * 1000;  // the provider's endpoints, cached
constexpr std::int64_t kJwksRefetchMs = 30 * 1000;      // an unknown key id fetches the set again, at most this often
constexpr std::int64_t kPendingTtlMs = 10 * 60 * 1000;  // a sign-in must come back within this
constexpr std::size_t kMaxPending = 10000;              // beyond: the oldest is forgotten

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string pkce_challenge(const std::string& verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  char* out = nullptr;
  std::size_t len = 0;
  cjose_err err;
  if (!cjose_base64url_encode(digest, sizeof digest, &out, &len, &err)) return {};
  std::string s(out, len);
  free(out);
  return s;
}

std::string string_field(const json& j, const char* name) {
  const auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

struct OidcClient::Impl : std::enable_shared_from_this<OidcClient::Impl> {
  struct Discovery {
    std::string authorization, token, jwks;
    std::int64_t fetched_ms = 0;
  };
  struct Pending {
    std::string key_hash, nonce, verifier, browser, redirect_uri;
    std::int64_t created_ms = 0;
  };

  OidcOptions options;
  std::optional<push::Url> issuer_url;
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
  push::HttpClient client;
  // Only on the client's thread:
  std::optional<Discovery> discovery;
  bool discovering = false;
  std::vector<std::function<void(std::string)>> waiting;  // for the discovery document
  std::string jwks;
  std::int64_t jwks_fetched_ms = 0;
  std::unordered_map<std::string, Pending> pending;  // by state
  std::deque<std::string> pending_order;
  std::thread thread;

  explicit Impl(OidcOptions o)
      : options(std::move(o)), issuer_url(push::parse_url(options.issuer)), client(io, false, options.extra_ca, options.timeout_s) {}

  // The issuer's own host (and port) may be private; every other host is checked as usual.
  push::OutRequest request(std::string url, std::string method) const {
    push::OutRequest r;
    const auto u = push::parse_url(url);
    r.trusted = u && issuer_url && u->host == issuer_url->host && u->port == issuer_url->port && u->https == issuer_url->https;
    r.url = std::move(url);
    r.method = std::move(method);
    r.headers.emplace_back("Accept", "application/json");
    return r;
  }

  void with_discovery(std::function<void(std::string)> then) {
    if (discovery && now_ms() - discovery->fetched_ms < kDiscoveryTtlMs) return then({});
    waiting.push_back(std::move(then));
    if (discovering) return;
    discovering = true;
    std::string base = options.issuer;
    while (base.ends_with('/')) base.pop_back();
    client.post(request(base + "/.well-known/openid-configuration", "GET"), [self = shared_from_this()](push::OutResponse r) {
      self->discovered(std::move(r));
    });
  }

  void discovered(push::OutResponse r) {
    discovering = false;
    std::string why;
    if (r.status != 200) {
      why = r.status == 0 ? r.error : "the discovery document answered HTTP " + std::to_string(r.status);
    } else {
      const json doc = json::parse(r.body, nullptr, false);
      Discovery d{string_field(doc, "authorization_endpoint"), string_field(doc, "token_endpoint"), string_field(doc, "jwks_uri"), now_ms()};
      if (!doc.is_object()) why = "the discovery document is not JSON";
      else if (string_field(doc, "issuer") != options.issuer) why = "the discovery document names another issuer: " + string_field(doc, "issuer").substr(0, 200);
      else if (!push::parse_url(d.authorization) || !push::parse_url(d.token) || !push::parse_url(d.jwks)) why = "the discovery document lacks an endpoint";
      else discovery = std::move(d);
    }
    if (!why.empty()) {
      spdlog::warn("sign-in: {} ({})", why, options.issuer);
      if (discovery) why.clear();  // the one we had still serves
    }
    auto waiters = std::move(waiting);
    waiting.clear();
    for (auto& w : waiters) w(why);
  }

  void begin(std::string key_hash, std::string redirect_uri, std::function<void(Started)> done) {
    with_discovery([self = shared_from_this(), key_hash = std::move(key_hash), redirect_uri = std::move(redirect_uri),
                    done = std::move(done)](std::string why) mutable {
      if (!why.empty()) return done(Started{"provider_unavailable", "the sign-in provider cannot be reached: " + why, {}, {}});
      self->forget_old();
      Pending p{std::move(key_hash), random_id(16), random_id(32), random_id(24), redirect_uri, now_ms()};
      const std::string state = random_id(24);
      std::string url = self->discovery->authorization;
      url += url.find('?') == std::string::npos ? '?' : '&';
      url += "response_type=code&scope=openid%20profile&client_id=" + form_encode(self->options.client_id) +
             "&redirect_uri=" + form_encode(redirect_uri) + "&state=" + state + "&nonce=" + p.nonce +
             "&code_challenge=" + pkce_challenge(p.verifier) + "&code_challenge_method=S256";
      Started s{{}, {}, std::move(url), p.browser};
      self->pending.emplace(state, std::move(p));
      self->pending_order.push_back(state);
      done(std::move(s));
    });
  }

  void forget_old() {
    const std::int64_t now = now_ms();
    while (!pending_order.empty()) {
      auto it = pending.find(pending_order.front());
      const bool stale = it == pending.end() || now - it->second.created_ms > kPendingTtlMs || pending.size() >= kMaxPending;
      if (!stale) break;
      if (it != pending.end()) pending.erase(it);
      pending_order.pop_front();
    }
  }

  void finish(Callback cb, std::function<void(Finished)> done) {
    auto fail = [&done](std::string code, std::string message) {
      spdlog::info("sign-in refused: {}: {}", code, message);
      done(Finished{std::move(code), std::move(message), {}, {}});
    };
    forget_old();
    const auto it = cb.state.empty() ? pending.end() : pending.find(cb.state);
    if (it == pending.end()) return fail("wrong_state", "this sign-in is unknown or expired (state); start again");
    Pending p = std::move(it->second);
    pending.erase(it);  // once, whatever comes of it
    if (!constant_time_equal(cb.browser, p.browser)) {
      return fail("wrong_browser", "this sign-in was started in another browser");
    }
    if (!cb.error.empty()) return fail("provider_refused", "the provider answered: " + cb.error.substr(0, 100));
    if (!cb.iss.empty() && cb.iss != options.issuer) {
      return fail("wrong_issuer", "the answer comes from another issuer: " + cb.iss.substr(0, 200));
    }
    if (cb.code.empty() || !discovery) return fail("bad_request", "the provider's answer has no code");
    push::OutRequest req = request(discovery->token, "POST");
    req.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    req.headers.emplace_back("Authorization", "Basic " + basic_credentials(options.client_id, options.client_secret));
    req.body = "grant_type=authorization_code&code=" + form_encode(cb.code) + "&redirect_uri=" + form_encode(p.redirect_uri) +
               "&code_verifier=" + p.verifier;
    client.post(std::move(req), [self = shared_from_this(), p = std::move(p), done = std::move(done)](push::OutResponse r) mutable {
      self->exchanged(std::move(p), std::move(r), std::move(done));
    });
  }

  void exchanged(Pending p, push::OutResponse r, std::function<void(Finished)> done) {
    const json body = json::parse(r.body, nullptr, false);
    if (r.status != 200) {
      std::string why = r.status == 0 ? r.error : "HTTP " + std::to_string(r.status) + " " + string_field(body, "error");
      spdlog::info("sign-in refused: token_refused: {}", why);
      return done(Finished{"token_refused", "the provider refused the code: " + why, {}, {}});
    }
    std::string id_token = string_field(body, "id_token");
    if (id_token.empty()) return done(Finished{"bad_token", "the provider's answer has no ID token", {}, {}});
    const auto kid = id_token_kid(id_token);
    const bool refetch = jwks.empty() || (kid && !jwks_has_kid(jwks, *kid) && now_ms() - jwks_fetched_ms > kJwksRefetchMs);
    auto check = [self = shared_from_this(), p = std::move(p), id_token, done = std::move(done)]() {
      const IdTokenCheck c{self->options.issuer, self->options.client_id, p.nonce, now_ms() / 1000, 60};
      auto v = verify_id_token(id_token, self->jwks, c);
      if (auto* e = std::get_if<IdTokenError>(&v)) {
        spdlog::info("sign-in refused: {}: {}", e->code, e->message);
        return done(Finished{e->code, e->message, {}, {}});
      }
      done(Finished{{}, {}, p.key_hash, std::move(std::get<IdTokenClaims>(v))});
    };
    if (!refetch) return check();
    client.post(request(discovery->jwks, "GET"), [self = shared_from_this(), check = std::move(check)](push::OutResponse jr) {
      if (jr.status == 200) {
        self->jwks = std::move(jr.body);
        self->jwks_fetched_ms = now_ms();
      } else {
        spdlog::warn("sign-in: the provider's key set: {}", jr.status == 0 ? jr.error : "HTTP " + std::to_string(jr.status));
      }
      check();
    });
  }
};

OidcClient::OidcClient(OidcOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {
  impl_->thread = std::thread([impl = impl_.get()] {
    ::pthread_setname_np(::pthread_self(), "carc-oidc");
    run_guarded(impl->io, "sign-in");
  });
}

OidcClient::~OidcClient() {
  impl_->work.reset();
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

const std::string& OidcClient::issuer() const { return impl_->options.issuer; }

void OidcClient::begin(std::string key_hash, std::string redirect_uri, std::function<void(Started)> done) {
  asio::post(impl_->io, [impl = impl_, key_hash = std::move(key_hash), redirect_uri = std::move(redirect_uri), done = std::move(done)]() mutable {
    impl->begin(std::move(key_hash), std::move(redirect_uri), std::move(done));
  });
}

void OidcClient::finish(Callback cb, std::function<void(Finished)> done) {
  asio::post(impl_->io, [impl = impl_, cb = std::move(cb), done = std::move(done)]() mutable { impl->finish(std::move(cb), std::move(done)); });
}

}  // namespace carc::server
