// libcurl behind HttpClient. Choices, with their reasons:
// - One easy handle for the whole run: libcurl keeps the connection (and the
//   TLS session) alive between requests to the same host, so four range
//   reads cost one handshake (gguf-parser opens a connection per request;
//   shared/reference/remote-notes.md 1.2).
// - Redirects are followed by libcurl (at most 5: more is a loop). A custom
//   Authorization header is not sent to another host after a redirect unless
//   CURLOPT_UNRESTRICTED_AUTH is set, which we never set: the token stays
//   with the hub (curl docs, CURLOPT_HTTPHEADER; remote-notes 7.2).
// - No Accept-Encoding: a compressed answer loses Content-Range and makes a
//   CDN ignore Range (remote-notes 2.1).
// - A body longer than max_body is cut by returning 0 from the write
//   callback: a server that ignores Range and answers 200 with 40 GB costs
//   max_body bytes, not 40 GB.
// - Retries: 429 and 5xx except 501 (huggingface_hub's list), honouring an
//   integer Retry-After; transfers that break mid-body. Not a refused
//   connection, DNS failure or timeout: those are reported at once.
#include "sources/http.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <curl/curl.h>
#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit::app {
namespace {

struct Transfer {
  HttpResponse* response;
  std::uint64_t max_body;
};

// What a progress line needs: where the request goes, when it started, and
// whether a line is on the screen (then it is cleared at the end).
struct Progress {
  const Environment* env = nullptr;
  long after_ms = 0;
  std::string what;  // "host/.../file"
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last{};
  bool shown = false;
};

// The host and the last part of the path: enough to say what is being read.
std::string short_url(const std::string& url) {
  std::string path = url.substr(0, url.find('?'));
  const auto slash = path.rfind('/');
  const std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
  return url_authority(url) + "/.../" + last;
}

// libcurl's transfer callback (CURLOPT_XFERINFOFUNCTION): after the first
// `after_ms`, a line at most every 200 ms with the bytes received so far.
int on_progress(void* user, curl_off_t, curl_off_t now, curl_off_t, curl_off_t) {
  auto* p = static_cast<Progress*>(user);
  const auto t = std::chrono::steady_clock::now();
  const auto since = [&](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - from).count();
  };
  if (since(p->start) < p->after_ms || (p->shown && since(p->last) < 200)) {
    return 0;
  }
  p->env->progress(fmt::format("willfit: reading {}: {:.1f} MB so far, {:.0f} s", p->what,
                               static_cast<double>(now) / 1e6,
                               static_cast<double>(since(p->start)) / 1000.0));
  p->shown = true;
  p->last = t;
  return 0;
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t len = size * n;
  const std::uint64_t room =
      t->max_body - std::min<std::uint64_t>(t->max_body, t->response->body.size());
  if (len > room) {
    t->response->body.append(data, static_cast<std::size_t>(room));
    t->response->cut = true;
    return 0;  // abort: we have what we asked for
  }
  t->response->body.append(data, len);
  return len;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* r = static_cast<HttpResponse*>(user);
  const std::size_t len = size * n;
  std::string line(data, len);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    line.pop_back();
  }
  if (line.rfind("HTTP/", 0) == 0) {
    r->hops.emplace_back();
    return len;
  }
  const auto colon = line.find(':');
  if (colon != std::string::npos && !r->hops.empty()) {
    r->hops.back()[to_lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
  }
  return len;
}

long seconds_to_ms(const std::optional<std::string>& text, long fallback) {
  if (!text || text->empty()) {
    return fallback;
  }
  char* end = nullptr;
  const double s = std::strtod(text->c_str(), &end);
  if (end == text->c_str() || *end != '\0' || !(s > 0) || s > 3600) {
    return fallback;
  }
  return static_cast<long>(s * 1000);
}

bool retryable_status(long status) {
  return status == 429 || (status >= 500 && status <= 599 && status != 501);
}

}  // namespace

HttpSettings HttpSettings::from(const Environment& env) {
  HttpSettings s;
  s.connect_timeout_ms =
      seconds_to_ms(env.get("WILLFIT_HTTP_CONNECT_TIMEOUT"), s.connect_timeout_ms);
  s.timeout_ms = seconds_to_ms(env.get("WILLFIT_HTTP_TIMEOUT"), s.timeout_ms);
  if (const auto b = env.get("WILLFIT_HTTP_BACKOFF_MS"); b && !b->empty()) {
    s.backoff_ms = std::clamp(std::atol(b->c_str()), 0L, 60000L);
  }
  s.progress = &env;
  s.progress_after_ms = seconds_to_ms(env.get("WILLFIT_HTTP_PROGRESS_AFTER"), s.progress_after_ms);
  return s;
}

std::string HttpResponse::header(const std::string& lower_name) const {
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    if (const auto h = it->find(lower_name); h != it->end()) {
      return h->second;
    }
  }
  return "";
}

std::string url_authority(const std::string& url) {
  const auto scheme = url.find("://");
  const std::size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const auto end = url.find_first_of("/?#", start);
  std::string a = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (const auto at = a.rfind('@'); at != std::string::npos) {
    a = a.substr(at + 1);
  }
  return to_lower(a);
}

HttpClient::HttpClient(HttpSettings settings) : settings_(std::move(settings)) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  curl_ = curl_easy_init();
}

HttpClient::~HttpClient() {
  if (curl_ != nullptr) {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
  }
}

Expected<HttpResponse> HttpClient::once(const HttpRequest& request) {
  CURL* c = static_cast<CURL*>(curl_);
  if (c == nullptr) {
    return make_error("cannot start libcurl");
  }
  curl_easy_reset(c);  // keeps the connection cache
  HttpResponse r;
  Transfer t{&r, request.max_body};
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, settings_.connect_timeout_ms);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, settings_.timeout_ms);
  curl_easy_setopt(c, CURLOPT_USERAGENT, settings_.user_agent.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &r);
  std::string range;
  if (request.range) {
    const auto [first, length] = *request.range;
    range = fmt::format("{}-{}", first, first + std::max<std::uint64_t>(length, 1) - 1);
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
  }
  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) {
    headers = curl_slist_append(headers, h.c_str());
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  Progress progress{settings_.progress, settings_.progress_after_ms, short_url(request.url)};
  if (progress.env != nullptr) {
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &progress);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  }
  const CURLcode code = curl_easy_perform(c);
  curl_slist_free_all(headers);
  if (progress.shown) {
    progress.env->progress("");  // the answer or the error follows on a clean line
  }
  long redirects = 0;
  curl_easy_getinfo(c, CURLINFO_REDIRECT_COUNT, &redirects);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  char* effective = nullptr;
  curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &effective);
  r.effective_url = effective != nullptr ? effective : request.url;
  requests_ += static_cast<std::uint64_t>(std::max(1L, redirects + 1));
  bytes_ += r.body.size();
  broken_ = code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING ||
            code == CURLE_SEND_ERROR;
  if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && r.cut)) {
    return r;
  }
  const std::string what = error[0] != '\0' ? error : curl_easy_strerror(code);
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return make_error(
          fmt::format("cannot resolve the host name {} ({}): is the network up? "
                      "--offline answers from the cache and local stores",
                      url_authority(request.url), what));
    case CURLE_COULDNT_CONNECT:
      return make_error(
          fmt::format("cannot connect to {} ({}): is the network up? --offline "
                      "answers from the cache and local stores",
                      url_authority(request.url), what));
    case CURLE_OPERATION_TIMEDOUT:
      return make_error(fmt::format(
          "{} timed out ({}); WILLFIT_HTTP_TIMEOUT sets the limit in seconds", request.url, what));
    case CURLE_TOO_MANY_REDIRECTS:
      return make_error(fmt::format("{} redirects in a loop (more than 5 redirects)", request.url));
    case CURLE_PARTIAL_FILE:
      return make_error(fmt::format(
          "{}: the server closed the connection mid-answer ({}), {} tries: a truncated answer "
          "(try again)",
          request.url, what, settings_.retries + 1));
    default:
      return make_error(fmt::format("reading {} failed: {}", request.url, what));
  }
}

Expected<HttpResponse> HttpClient::get(const HttpRequest& request) {
  long wait = settings_.backoff_ms;
  for (int attempt = 0;; ++attempt) {
    auto r = once(request);
    const bool again = (!r && broken_) || (r && retryable_status(r->status));
    if (!again || attempt >= settings_.retries) {
      return r;
    }
    long pause = wait;
    if (r) {
      const std::string after = r->header("retry-after");
      if (!after.empty()) {
        const long ms = seconds_to_ms(after, -1);
        if (ms < 0 || ms > settings_.max_retry_wait_ms) {
          return r;  // the caller says when to come back
        }
        pause = ms;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(pause));
    wait *= 2;
  }
}

}  // namespace willfit::app
