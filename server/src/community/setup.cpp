#include "community/setup.hpp"

#include <spdlog/spdlog.h>

#include "app/config.hpp"
#include "app/turn_based_services.hpp"
#include "community/oidc.hpp"
#include "net/server.hpp"

namespace carc::server {

void start_signin(Server& server, const Config& config) {
  if (config.oidc_issuer.empty()) return;
  OidcOptions o;
  o.issuer = config.oidc_issuer;
  o.client_id = config.oidc_client_id;
  o.client_secret = config.oidc_client_secret;
  o.extra_ca = config.extra_ca;
  server.turn_based().oidc = std::make_shared<OidcClient>(std::move(o));
  spdlog::info("sign-in: OpenID Connect provider {} (client {}); rated play: {}", config.oidc_issuer, config.oidc_client_id,
               to_string(config.rated_play));
  if (config.base_url.empty()) {
    spdlog::warn("sign-in: without --base-url the redirect URI follows each request's Host header; register {}/api/signin/callback",
                 "<your public origin>");
  }
}

}  // namespace carc::server
