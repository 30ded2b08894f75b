// Reading the start of a remote file, once. Each file keeps the prefix read
// so far; a read past it asks for the missing bytes only, and at least twice
// what is held (and `first_read` the first time), so a header of H bytes
// costs about log2(H / first_read) + 1 requests and never more than 2H
// bytes, and no byte is fetched twice. The reader's own hint (gguf.hpp:
// GgufRead::estimate) can ask for more in one step.
//
// Defences (shared/reference/remote-notes.md 7.4):
// - 206 must come with a Content-Range starting where we asked.
// - 200 means the server ignored Range and sends the file from byte 0: the
//   transfer is cut at the bytes wanted (HttpRequest::max_body), never the
//   whole file; the bytes kept are the new prefix.
// - A body shorter than asked, with no more to come, is a truncated header.
// - After a redirect to another host (a CDN), later ranges go straight to
//   where the redirect pointed, without the token; a 403/410 there (an
//   expired signed URL) goes back to the original URL once.
#include "sources/remote_files.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace willfit::app {
namespace {

std::string dir_prefix(const std::string& path) {
  return path.empty() || path.back() == '/' ? path : path + "/";
}

// "bytes A-B/T" -> A, or -1.
long long content_range_start(const std::string& value) {
  const auto space = value.find(' ');
  if (space == std::string::npos) {
    return -1;
  }
  try {
    return std::stoll(value.substr(space + 1));
  } catch (...) {
    return -1;
  }
}

}  // namespace

RemoteEnvironment::RemoteEnvironment(const Environment& base, HttpClient* http)
    : ForwardingEnvironment(base), http_(http) {}

void RemoteEnvironment::add_file(const std::string& path, RemoteFile file, std::string prefix) {
  Entry e;
  e.loaded = !prefix.empty();
  e.prefix = std::move(prefix);
  e.original_url = file.url;
  e.file = std::move(file);
  files_[path] = std::move(e);
}

std::vector<std::string> RemoteEnvironment::files_read() const {
  std::vector<std::string> out;
  for (const auto& [path, e] : files_) {
    if (e.touched) {
      out.push_back(path);
    }
  }
  return out;
}

Expected<std::string> RemoteEnvironment::read_file(const std::string& path,
                                                   std::uint64_t limit) const {
  if (files_.count(path) != 0) {
    return read_range(path, 0, limit);
  }
  return base_.read_file(path, limit);
}

Expected<std::uint64_t> RemoteEnvironment::file_size(const std::string& path) const {
  if (const auto it = files_.find(path); it != files_.end()) {
    return it->second.file.size;
  }
  if (is_directory(path)) {
    return make_error("'" + path + "' is a directory");
  }
  return base_.file_size(path);
}

bool RemoteEnvironment::is_directory(const std::string& path) const {
  const std::string prefix = dir_prefix(path);
  const auto it = files_.lower_bound(prefix);
  if (it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
    return true;
  }
  return base_.is_directory(path);
}

Expected<std::vector<std::string>> RemoteEnvironment::list_directory(
    const std::string& path) const {
  const std::string prefix = dir_prefix(path);
  std::set<std::string> names;
  for (auto it = files_.lower_bound(prefix);
       it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    const std::string rest = it->first.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  }
  if (names.empty()) {
    return base_.list_directory(path);
  }
  return std::vector<std::string>(names.begin(), names.end());
}

Expected<std::string> RemoteEnvironment::read_range(const std::string& path, std::uint64_t offset,
                                                    std::uint64_t length) const {
  const auto it = files_.find(path);
  if (it == files_.end()) {
    return base_.read_range(path, offset, length);
  }
  Entry& e = it->second;
  if (!e.loaded) {
    e.loaded = true;
    const auto cached_size = e.file.cache_path.empty() ? Expected<std::uint64_t>(make_error("none"))
                                                       : base_.file_size(e.file.cache_path);
    if (cached_size && *cached_size <= std::min(kMaxRemoteRead, e.file.size)) {
      if (auto cached = base_.read_file(e.file.cache_path, *cached_size)) {
        e.prefix = std::move(*cached);
        cached_bytes_ += e.prefix.size();
      }
    }
  }
  if (offset >= e.file.size) {
    return std::string();
  }
  const std::uint64_t end = std::min(e.file.size, offset + length);
  if (auto grown = grow(e, end); !grown) {
    return grown.error();
  }
  e.touched = true;
  return e.prefix.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(end - offset));
}

Expected<bool> RemoteEnvironment::grow(Entry& e, std::uint64_t end) const {
  const std::uint64_t have = e.prefix.size();
  if (end <= have) {
    return true;
  }
  const std::string& url = e.original_url;
  if (end > kMaxRemoteRead) {
    return make_error(fmt::format(
        "{}: the header needs more than {} MiB, more than willfit reads from a remote file", url,
        kMaxRemoteRead >> 20));
  }
  if (http_ == nullptr) {
    return make_error(fmt::format(
        "offline, and the cache holds only the first {} bytes of {}: run without --offline", have,
        url));
  }
  const std::uint64_t want =
      std::min({e.file.size, kMaxRemoteRead, std::max({end, 2 * have, e.file.first_read})});
  bool retried = false;
  for (;;) {
    HttpRequest req;
    req.url = e.file.url;
    // The token goes to the host it was meant for, never to a CDN.
    req.headers = url_authority(e.file.url) == url_authority(e.original_url)
                      ? e.file.headers
                      : std::vector<std::string>{};
    req.range = std::make_pair(have, want - have);
    req.max_body = want;  // a 200 (Range ignored) sends from byte 0: keep `want`, cut the rest
    auto r = http_->get(req);
    if (!r) {
      return r.error();
    }
    if ((r->status == 403 || r->status == 410) && e.file.url != e.original_url && !retried) {
      e.file.url = e.original_url;  // the signed URL expired: resolve again
      retried = true;
      continue;
    }
    if (r->status == 206) {
      if (content_range_start(r->header("content-range")) != static_cast<long long>(have)) {
        return make_error(fmt::format("{}: the server answered a different byte range ({})", url,
                                      r->header("content-range")));
      }
      e.prefix += r->body.substr(0, static_cast<std::size_t>(want - have));
    } else if (r->status == 200) {
      if (r->body.size() > e.prefix.size()) {
        e.prefix = r->body.substr(0, static_cast<std::size_t>(want));
      }
    } else if (e.file.describe) {
      return e.file.describe(*r);
    } else {
      return make_error(fmt::format("{}: HTTP {}", url, r->status));
    }
    fetched_bytes_ += r->body.size();
    if (e.prefix.size() < end) {
      return make_error(fmt::format(
          "{}: the server sent {} bytes where {} were asked for: a truncated answer (try again)",
          url, e.prefix.size() - std::min<std::uint64_t>(have, e.prefix.size()), want - have));
    }
    // Range-read where the redirect pointed from now on (one resolve per file).
    if (r->effective_url != e.file.url && !r->effective_url.empty()) {
      e.file.url = r->effective_url;
    }
    break;
  }
  if (!e.file.cache_path.empty()) {
    (void)base_.write_file(e.file.cache_path,
                           e.prefix);  // a cache that cannot be written is no error
  }
  return true;
}

}  // namespace willfit::app
