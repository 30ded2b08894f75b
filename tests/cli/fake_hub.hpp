// An in-process imitation of the Hugging Face hub, its CDN and the Ollama
// registry on 127.0.0.1 (cpp-httplib), for tests/cli/test_remote.cpp. It
// follows the documented behaviour (shared/reference/remote-notes.md 2, 3):
// model info at /api/models/REPO/revision/REV, /REPO/resolve/REV/PATH with a
// 302 for large files to a CDN on another host name and port, X-Repo-Commit,
// X-Linked-Size and ETag headers, X-Error-Code on 401/403/404, Range answered
// with 206 + Content-Range, and the Ollama v2 manifest and blob endpoints.
// Faults are switched on per test. Every request is logged.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace willfit::test {

// File bytes: `content`, then zeros up to `size` (sparse: a 100 GB file costs
// nothing until read).
struct Served {
  Served() = default;
  Served(std::string c, std::uint64_t n, std::string tag = {}, std::string modified = {})
      : content(std::move(c)), size(n), etag(std::move(tag)), last_modified(std::move(modified)) {}
  std::string content;
  std::uint64_t size = 0;
  std::string etag;           // sent as ETag when set; If-None-Match with it answers 304
  std::string last_modified;  // sent as Last-Modified when set
};

struct Logged {
  std::string server;  // "hub" or "cdn"
  std::string path;
  std::string range;
  std::string auth;
  int status = 0;
  std::uint64_t bytes = 0;  // body bytes the handler served
};

struct FakeRepo {
  std::string commit = std::string(40, 'a');
  std::map<std::string, Served> files;
  std::string gated;  // "" or "manual": resolves need the token
};

class HttpFake {
 public:
  // Faults.
  bool ignore_range = false;         // answer 200 and the whole file to a Range request
  std::uint64_t truncate_after = 0;  // drop the connection after this many body bytes (0: never)
  int slow_ms = 0;                   // wait before answering
  bool redirect_loop = false;        // resolve redirects to itself
  bool wrong_content_range = false;  // a 206 whose Content-Range says it starts at byte 0
  std::deque<int> api_failures;      // statuses the API answers first (then success)
  std::string retry_after = "1";     // with a 429
  std::string valid_token = "hf_good";
  std::size_t siblings_limit = 0;  // model info lists at most this many files (0: all)
  std::size_t tree_page = 1000;    // files per page of the tree

  std::map<std::string, FakeRepo> repos;                // "org/repo"
  std::map<std::string, std::string> ollama_manifests;  // "ns/name/tag" -> JSON
  std::map<std::string, Served> ollama_blobs;           // "sha256:..." -> bytes
  std::map<std::string, Served> plain;                  // /files/NAME on the hub's host

  HttpFake() {
    hub_.set_keep_alive_max_count(100);
    cdn_.set_keep_alive_max_count(100);
    hub_port_ = hub_.bind_to_any_port("127.0.0.1");
    cdn_port_ = cdn_.bind_to_any_port("127.0.0.1");
    if (hub_port_ < 0 || cdn_port_ < 0) {
      throw std::runtime_error("the fake hub could not bind a port on 127.0.0.1");
    }
    routes();
    hub_thread_ = std::thread([this] { hub_.listen_after_bind(); });
    cdn_thread_ = std::thread([this] { cdn_.listen_after_bind(); });
    // httplib's stop() does nothing until listen_after_bind() has marked the
    // server running, so a test that ends quickly would leave the destructor
    // joining a thread still blocked in accept: wait for both here.
    while (!hub_.is_running() || !cdn_.is_running()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ~HttpFake() {
    hub_.stop();
    cdn_.stop();
    hub_thread_.join();
    cdn_thread_.join();
  }
  HttpFake(const HttpFake&) = delete;
  HttpFake& operator=(const HttpFake&) = delete;

  [[nodiscard]] std::string base() const { return "http://127.0.0.1:" + std::to_string(hub_port_); }

  std::vector<Logged> log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }
  void clear_log() {
    std::lock_guard<std::mutex> lock(mu_);
    log_.clear();
  }

 private:
  std::size_t record(const std::string& server, const httplib::Request& req, int status,
                     std::uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back({server, req.path, req.get_header_value("Range"),
                    req.get_header_value("Authorization"), status, bytes});
    return log_.size() - 1;
  }

  // Serves `f` honouring Range (unless ignore_range). httplib 0.11 would
  // slice the body again on its own, so its parsed ranges are cleared and the
  // header is read here.
  void serve(const std::string& server, const httplib::Request& req, httplib::Response& res,
             const Served& f) {
    const std::string range = req.get_header_value("Range");
    const_cast<httplib::Request&>(req).ranges.clear();
    if (!f.etag.empty()) {
      res.set_header("ETag", f.etag);
      if (req.get_header_value("If-None-Match") == f.etag) {
        res.status = 304;
        record(server, req, 304, 0);
        return;
      }
    }
    if (!f.last_modified.empty()) {
      res.set_header("Last-Modified", f.last_modified);
    }
    std::uint64_t first = 0;
    std::uint64_t last = f.size - 1;
    if (!range.empty() && !ignore_range) {
      const auto dash = range.find('-');
      first = std::stoull(range.substr(6, dash - 6));
      if (dash + 1 < range.size()) {
        last = std::min<std::uint64_t>(last, std::stoull(range.substr(dash + 1)));
      }
      if (first >= f.size) {
        res.status = 416;
        record(server, req, 416, 0);
        return;
      }
      res.status = 206;
      res.set_header("Content-Range", "bytes " + std::to_string(wrong_content_range ? 0 : first) +
                                          "-" + std::to_string(last) + "/" +
                                          std::to_string(f.size));
    } else {
      res.status = 200;
    }
    res.set_header("Accept-Ranges", "bytes");
    const std::uint64_t length = last - first + 1;
    const std::string* content = &f.content;
    const std::uint64_t cut = truncate_after;
    auto sent = std::make_shared<std::atomic<std::uint64_t>>(0);
    const std::size_t index = record(server, req, res.status, 0);
    res.set_content_provider(static_cast<std::size_t>(length), "application/octet-stream",
                             [this, content, first, cut, sent, index](
                                 std::size_t offset, std::size_t want, httplib::DataSink& sink) {
                               const std::size_t n = std::min<std::size_t>(want, 1 << 16);
                               if (cut > 0 && offset >= cut) {
                                 return false;  // the connection breaks
                               }
                               std::string chunk(n, '\0');
                               const std::uint64_t at = first + offset;
                               if (at < content->size()) {
                                 const auto k = std::min<std::uint64_t>(n, content->size() - at);
                                 chunk.replace(0, static_cast<std::size_t>(k),
                                               content->substr(at, k));
                               }
                               const bool ok = sink.write(chunk.data(), chunk.size());
                               *sent += n;
                               std::lock_guard<std::mutex> lock(mu_);
                               log_[index].bytes = *sent;
                               return ok;
                             });
  }

  void routes() {
    hub_.Get(R"(/api/models/([^/]+/[^/]+)/revision/(.+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               wait();
               {
                 std::lock_guard<std::mutex> lock(mu_);
                 if (!api_failures.empty()) {
                   res.status = api_failures.front();
                   api_failures.pop_front();
                   if (res.status == 429) {
                     res.set_header("Retry-After", retry_after);
                   }
                   log_.push_back(
                       {"hub", req.path, "", req.get_header_value("Authorization"), res.status, 0});
                   return;
                 }
               }
               const auto it = repos.find(req.matches[1]);
               if (it == repos.end()) {
                 res.status = 401;  // the hub cannot tell missing from private
                 res.set_header("X-Error-Code", "RepoNotFound");
                 record("hub", req, 401, 0);
                 return;
               }
               const std::string rev = req.matches[2];
               if (rev != "main" && rev != it->second.commit) {
                 res.status = 404;
                 res.set_header("X-Error-Code", "RevisionNotFound");
                 record("hub", req, 404, 0);
                 return;
               }
               nlohmann::json j;
               j["id"] = it->first;
               j["sha"] = it->second.commit;
               j["gated"] = it->second.gated.empty() ? nlohmann::json(false)
                                                     : nlohmann::json(it->second.gated);
               j["siblings"] = nlohmann::json::array();
               for (const auto& [path, f] : it->second.files) {
                 if (siblings_limit > 0 && j["siblings"].size() == siblings_limit) {
                   break;  // the hub may cut the list short for large repositories
                 }
                 nlohmann::json s = {{"rfilename", path}, {"size", f.size}};
                 if (f.size > (1 << 20)) {
                   s["lfs"] = {{"size", f.size}, {"sha256", std::string(64, 'b')}};
                 }
                 j["siblings"].push_back(s);
               }
               res.set_content(j.dump(), "application/json");
               record("hub", req, 200, res.body.size());
             });
    // The tree, paginated as the hub does: Link: <URL>; rel="next" (cursor).
    hub_.Get(R"(/api/models/([^/]+/[^/]+)/tree/([^/]+))", [this](const httplib::Request& req,
                                                                 httplib::Response& res) {
      const auto it = repos.find(req.matches[1]);
      if (it == repos.end()) {
        res.status = 404;
        record("hub", req, 404, 0);
        return;
      }
      const std::size_t from =
          req.has_param("cursor") ? std::stoul(req.get_param_value("cursor")) : 0;
      nlohmann::json page = nlohmann::json::array();
      std::size_t i = 0;
      for (const auto& [path, f] : it->second.files) {
        if (i++ >= from && page.size() < tree_page) {
          nlohmann::json e = {{"type", "file"}, {"path", path}, {"size", f.size}, {"oid", "x"}};
          if (f.size > (1 << 20)) {
            e["lfs"] = {{"oid", std::string(64, 'b')}, {"size", f.size}};
          }
          page.push_back(e);
        }
      }
      if (from + tree_page < it->second.files.size()) {
        res.set_header("Link", "<" + base() + "/api/models/" + it->first + "/tree/" +
                                   std::string(req.matches[2]) + "?recursive=true&cursor=" +
                                   std::to_string(from + tree_page) + ">; rel=\"next\"");
      }
      res.set_content(page.dump(), "application/json");
      record("hub", req, 200, res.body.size());
    });
    hub_.Get(R"(/([^/]+/[^/]+)/resolve/([^/]+)/(.+))", [this](const httplib::Request& req,
                                                              httplib::Response& res) {
      wait();
      const auto it = repos.find(req.matches[1]);
      const std::string path = req.matches[3];
      if (it == repos.end() || it->second.files.count(path) == 0) {
        res.status = 404;
        res.set_header("X-Error-Code", "EntryNotFound");
        record("hub", req, 404, 0);
        return;
      }
      const std::string auth = req.get_header_value("Authorization");
      if (!it->second.gated.empty() && auth != "Bearer " + valid_token) {
        res.status = auth.empty() ? 401 : 403;
        res.set_header("X-Error-Code", "GatedRepo");
        record("hub", req, res.status, 0);
        return;
      }
      const Served& f = it->second.files.at(path);
      res.set_header("X-Repo-Commit", it->second.commit);
      res.set_header("ETag", "\"" + std::string(64, 'b') + "\"");
      if (redirect_loop) {
        res.status = 302;
        res.set_header("Location", req.path);
        record("hub", req, 302, 0);
        return;
      }
      if (f.size > (1 << 20)) {
        // LFS: to the CDN, on another host name and port.
        res.status = 302;
        res.set_header("X-Linked-Size", std::to_string(f.size));
        res.set_header("Location", "http://localhost:" + std::to_string(cdn_port_) + "/repos/" +
                                       it->first + "/" + path + "?X-Amz-Expires=3600");
        record("hub", req, 302, 0);
        return;
      }
      serve("hub", req, res, f);
    });
    cdn_.Get(R"(/repos/([^/]+/[^/]+)/(.+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               wait();
               const auto it = repos.find(req.matches[1]);
               if (it == repos.end() || it->second.files.count(req.matches[2]) == 0) {
                 res.status = 404;
                 record("cdn", req, 404, 0);
                 return;
               }
               serve("cdn", req, res, it->second.files.at(req.matches[2]));
             });
    hub_.Get(R"(/v2/([^/]+)/([^/]+)/manifests/([^/]+))", [this](const httplib::Request& req,
                                                                httplib::Response& res) {
      wait();
      const std::string key = std::string(req.matches[1]) + "/" + std::string(req.matches[2]) +
                              "/" + std::string(req.matches[3]);
      const auto it = ollama_manifests.find(key);
      if (it == ollama_manifests.end()) {
        res.status = 404;
        record("hub", req, 404, 0);
        return;
      }
      res.set_content(it->second, "application/vnd.docker.distribution.manifest.v2+json");
      record("hub", req, 200, res.body.size());
    });
    hub_.Get(R"(/v2/([^/]+)/([^/]+)/blobs/(sha256:[0-9a-f]+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               const std::string digest = req.matches[3];
               if (ollama_blobs.count(digest) == 0) {
                 res.status = 404;
                 record("hub", req, 404, 0);
                 return;
               }
               res.status = 307;  // to R2
               res.set_header("Location",
                              "http://localhost:" + std::to_string(cdn_port_) + "/blobs/" + digest);
               record("hub", req, 307, 0);
             });
    hub_.Get(R"(/files/(.+))", [this](const httplib::Request& req, httplib::Response& res) {
      wait();
      const auto it = plain.find(req.matches[1]);
      if (it == plain.end()) {
        res.status = 404;
        record("hub", req, 404, 0);
        return;
      }
      serve("hub", req, res, it->second);
    });
    cdn_.Get(R"(/blobs/(sha256:[0-9a-f]+))",
             [this](const httplib::Request& req, httplib::Response& res) {
               serve("cdn", req, res, ollama_blobs.at(req.matches[1]));
             });
  }

  void wait() const {
    if (slow_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
    }
  }

  httplib::Server hub_;
  httplib::Server cdn_;
  int hub_port_ = 0;
  int cdn_port_ = 0;
  std::thread hub_thread_;
  std::thread cdn_thread_;
  std::mutex mu_;
  std::vector<Logged> log_;
};

}  // namespace willfit::test
