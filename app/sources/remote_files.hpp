// Remote files seen as local ones: an Environment that answers file_size,
// read_range and list_directory for virtual paths ("hf.co/ORG/REPO/x.gguf")
// with HTTP Range requests, and forwards everything else to the real
// environment. So the model-file readers (model_source.cpp: GGUF with its
// split parts, safetensors, indexes, config.json) read remote models with
// the same code as local ones. Must not know about the hub or Ollama.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sources/environment.hpp"
#include "sources/http.hpp"

namespace willfit::app {

struct RemoteFile {
  std::string url;
  std::uint64_t size = 0;
  std::vector<std::string> headers;       // sent to url's host only (a token)
  std::uint64_t first_read = 1ULL << 20;  // the least the first request asks for
  std::string cache_path;                 // where the bytes read are kept ("": not kept)
  // Words an HTTP error status (gated, not found...); null: a plain message.
  std::function<Error(const HttpResponse&)> describe;
};

// The most bytes read from one remote file: headers past this are refused
// (a GGUF's is a few MiB; the reader's own cap is 256 MiB).
inline constexpr std::uint64_t kMaxRemoteRead = 64ULL << 20;

class RemoteEnvironment final : public ForwardingEnvironment {
 public:
  // `http` may be null: offline, only cached bytes are served.
  RemoteEnvironment(const Environment& base, HttpClient* http);

  // `prefix`: the file's first bytes when already read (the first answer
  // of a URL, which told its size).
  void add_file(const std::string& path, RemoteFile file, std::string prefix = {});

  // What reading cost so far: files read, bytes served from the cache.
  [[nodiscard]] std::vector<std::string> files_read() const;
  [[nodiscard]] std::uint64_t cached_bytes() const { return cached_bytes_; }
  [[nodiscard]] std::uint64_t fetched_bytes() const { return fetched_bytes_; }

  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override;
  [[nodiscard]] Expected<std::uint64_t> file_size(const std::string& path) const override;
  [[nodiscard]] Expected<std::string> read_range(const std::string& path, std::uint64_t offset,
                                                 std::uint64_t length) const override;
  [[nodiscard]] bool is_directory(const std::string& path) const override;
  [[nodiscard]] Expected<std::vector<std::string>> list_directory(
      const std::string& path) const override;

 private:
  struct Entry {
    RemoteFile file;
    std::string original_url;
    std::string prefix;  // bytes [0, prefix.size()) of the file, read once
    bool loaded = false;
    bool touched = false;
  };
  Expected<bool> grow(Entry& e, std::uint64_t end) const;
  HttpClient* http_;
  mutable std::map<std::string, Entry> files_;
  mutable std::uint64_t cached_bytes_ = 0;
  mutable std::uint64_t fetched_bytes_ = 0;
};

}  // namespace willfit::app
