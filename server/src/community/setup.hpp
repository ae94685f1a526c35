// Sign-in's start (docs/community.md): the OpenID Connect client when --oidc-issuer is set.
#pragma once

namespace carc::server {

class Server;
struct Config;

void start_signin(Server& server, const Config& config);

}  // namespace carc::server
