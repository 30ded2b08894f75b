// HTTP GET over libcurl for remote model headers: one easy handle reused for
// every request (keep-alive, one TLS session), Range requests, timeouts,
// bounded bodies and a few retries on 429/5xx. It counts requests and bytes
// so answers can say what they cost. Must not be used by lib/.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"

namespace willfit::app {

struct HttpSettings {
  long connect_timeout_ms = 10000;  // WILLFIT_HTTP_CONNECT_TIMEOUT (seconds, may be fractional)
  long timeout_ms = 60000;          // WILLFIT_HTTP_TIMEOUT: one whole request
  int retries = 3;                  // on 429, 5xx (not 501) and broken transfers
  long backoff_ms = 500;            // doubled per retry; WILLFIT_HTTP_BACKOFF_MS
  long max_retry_wait_ms = 20000;   // a Retry-After longer than this is an error, not a wait
  std::string user_agent = "willfit/0.1";
  // A progress line (Environment::progress) once a request has run this long;
  // WILLFIT_HTTP_PROGRESS_AFTER (seconds). Null: no progress line.
  const Environment* progress = nullptr;
  long progress_after_ms = 1000;

  // The defaults, overridden by the WILLFIT_HTTP_* variables.
  static HttpSettings from(const Environment& env);
};

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  // Bytes [first, first + length) when set: sent as Range.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
  std::uint64_t max_body = 16ULL << 20;  // the transfer is cut past this many body bytes
  bool follow_redirects = true;
};

struct HttpResponse {
  long status = 0;
  // Headers of every hop (lower-case names), the first hop first: the hub
  // puts X-Repo-Commit and X-Linked-Size on its redirect, the CDN the bytes.
  std::vector<std::map<std::string, std::string>> hops;
  std::string body;
  std::string effective_url;  // after redirects
  bool cut = false;           // the body was longer than max_body and was cut there

  // The header from the last hop that has it, or "".
  [[nodiscard]] std::string header(const std::string& lower_name) const;
};

class HttpClient {
 public:
  explicit HttpClient(HttpSettings settings);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // One GET, retried on 429 / 5xx / a broken transfer. An HTTP error status
  // is a response, not an Error: callers word it (gated, not found...).
  // Errors are transport failures: DNS, refused, timeout, redirect loop.
  Expected<HttpResponse> get(const HttpRequest& request);

  [[nodiscard]] std::uint64_t requests() const { return requests_; }  // HTTP exchanges, hops too
  [[nodiscard]] std::uint64_t bytes() const { return bytes_; }        // body bytes received

 private:
  Expected<HttpResponse> once(const HttpRequest& request);
  HttpSettings settings_;
  void* curl_ = nullptr;
  bool broken_ = false;  // the last transfer broke mid-body (worth another try)
  std::uint64_t requests_ = 0;
  std::uint64_t bytes_ = 0;
};

// "host:port" of a URL ("" when it has none), lower-case.
std::string url_authority(const std::string& url);

}  // namespace willfit::app
