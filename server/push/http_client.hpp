// Outgoing HTTP(S) requests: notifications' POSTs, and sign-in's calls to the host's OpenID
// provider (docs/community.md). Beast over TCP or TLS (OpenSSL, the system's CA store plus
// --extra-ca), every step under one timeout. The addresses a name resolves to are checked
// like the URL itself (targets.hpp), unless the request is `trusted`.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

namespace boost::asio::ssl {
class context;
}

namespace carc::server::push {

struct OutRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string method = "POST";  // or "GET"
  // The caller vouches for the host (the issuer the admin configured, which may well be on
  // a private or loopback address): private addresses and plain http are allowed for it.
  bool trusted = false;
};

struct OutResponse {
  int status = 0;           // 0: no answer (see error)
  std::string error;        // why there was no answer
  int retry_after_s = -1;   // Retry-After in seconds, when given
  std::string body;         // at most 256 KiB
};

class HttpClient {
 public:
  // Throws std::runtime_error when `extra_ca` cannot be read.
  HttpClient(boost::asio::io_context& io, bool allow_private, const std::string& extra_ca, int timeout_s = 10);
  ~HttpClient();
  // `done` runs on the io_context's thread.
  void post(OutRequest request, std::function<void(OutResponse)> done);

 private:
  boost::asio::io_context& io_;
  bool allow_private_;
  int timeout_s_;
  std::unique_ptr<boost::asio::ssl::context> tls_;
};

}  // namespace carc::server::push
