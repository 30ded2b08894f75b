// Reading a model that is not on disk (issue 15): Hugging Face repositories,
// Ollama models and URLs, header-only, through a RemoteEnvironment so the
// file readers are the local ones.
//
// Hugging Face (remote-notes 2): one model-info request
// (GET /api/models/REPO/revision/REV?blobs=true) gives the commit and every
// file with its size; then each file needed is range-read at
// /REPO/resolve/COMMIT/PATH, which redirects large files to a CDN: the first
// read follows it, later reads go straight there (remote_files.cpp). Pinning
// the commit makes every read of one answer come from one revision.
// Tokens: HF_TOKEN, then HUGGING_FACE_HUB_TOKEN, then the file HF_TOKEN_PATH
// (default HF_HOME/token), as huggingface_hub does (utils/_auth.py); sent
// to the HF_ENDPOINT host only.
//
// Ollama (remote-notes 3): GET /v2/NS/NAME/manifests/TAG (the docker v2
// manifest), the application/vnd.ollama.image.model layer's digest and size,
// then range reads of /v2/NS/NAME/blobs/DIGEST (a redirect to R2); the same
// for a vision model's application/vnd.ollama.image.projector layer.
//
// The cache, under $XDG_CACHE_HOME/willfit (default ~/.cache/willfit), keyed
// by what does not change, not by URL:
//   hf/ORG--REPO/refs/REV              "COMMIT UNIX-TIME": what REV meant when asked
//   hf/ORG--REPO/COMMIT/info.json      the model-info answer at that commit
//   hf/ORG--REPO/COMMIT/files/PATH     the bytes read from the start of PATH
//   ollama/manifests/HOST/NS/NAME/TAG  "UNIX-TIME\n" + the manifest
//   ollama/blobs/sha256-HEX            the bytes read from the start of the blob
//   url/FNV(URL)                       the URL's validator, size and when it was asked
//   url/bytes/FNV(VALIDATOR, SIZE)     the bytes read from the start of that file
// A ref or manifest younger than WILLFIT_CACHE_TTL seconds (default 86400)
// is used without asking; an older one is asked again (one request) and the
// file bytes are reused when the commit or digest did not move. --refresh
// asks again whatever the age; --offline never asks. A URL follows the same
// rule: trusted for the TTL, then asked again (If-None-Match) and its bytes
// reused when its ETag (else Last-Modified, else size) did not move.
#include <ctime>

#include <fmt/format.h>

#include "sources/model_source.hpp"
#include "sources/remote_files.hpp"
#include "sources/remote_model.hpp"
#include "sources/stores.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/safetensors.hpp"

namespace willfit::app {
namespace {

constexpr std::uint64_t kGgufFirstRead = 2ULL << 20;  // @huggingface/gguf reads 2 MB first
// Later parts of a split GGUF hold small headers: the reader's own first
// read (1 MiB, model_source.cpp) decides. A safetensors header is read in
// one request when under 256 KiB (huggingface_hub reads 100,000 bytes).
constexpr std::uint64_t kShardFirstRead = 256ULL << 10;
constexpr std::uint64_t kMaxJson = 64ULL << 20;
// A model info listing this many files may be cut short: the tree is listed
// instead (huggingface_hub _snapshot_download.py, LARGE_REPO_THRESHOLD).
constexpr std::size_t kSiblingsTrusted = 1000;
constexpr int kMaxTreePages = 100;
constexpr const char* kIndex = "model.safetensors.index.json";
// A repository of more shards than this reads only a sample's headers
// (shard_sample): one request each, plus a resolve each on the hub.
constexpr std::size_t kMaxShardHeaders = 8;  // pages of the tree followed, at most

struct Settings {
  bool offline = false;
  bool refresh = false;
  std::string cache;  // "" = no cache
  long long ttl = 86400;
};

bool truthy(const std::optional<std::string>& v) {
  if (!v) {
    return false;
  }
  const std::string s = to_lower(trim(*v));
  return s == "1" || s == "on" || s == "yes" || s == "true";
}

Settings settings_from(const Environment& env) {
  Settings s;
  s.offline = truthy(env.get("WILLFIT_OFFLINE")) || truthy(env.get("HF_HUB_OFFLINE")) ||
              !env.network_allowed();
  s.refresh = truthy(env.get("WILLFIT_REFRESH"));
  if (const auto x = env.get("XDG_CACHE_HOME"); x && !x->empty()) {
    s.cache = *x + "/willfit";
  } else if (const auto h = env.get("HOME"); h && !h->empty()) {
    s.cache = *h + "/.cache/willfit";
  }
  if (const auto t = env.get("WILLFIT_CACHE_TTL"); t && !t->empty()) {
    s.ttl = std::atoll(t->c_str());
  }
  return s;
}

std::string percent_encode(const std::string& s, bool keep_slash) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.' || c == '~' ||
        (keep_slash && c == '/')) {
      out += c;
    } else {
      out += fmt::format("%{:02X}", u);
    }
  }
  return out;
}

std::string strip_slash(std::string s) {
  while (!s.empty() && s.back() == '/') {
    s.pop_back();
  }
  return s;
}

std::optional<std::string> hf_token(const Environment& env) {
  for (const char* name : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"}) {
    if (const auto v = env.get(name); v && !trim(*v).empty()) {
      return trim(*v);
    }
  }
  std::string path;
  if (const auto p = env.get("HF_TOKEN_PATH"); p && !p->empty()) {
    path = *p;
  } else if (const auto h = env.get("HF_HOME"); h && !h->empty()) {
    path = *h + "/token";
  } else if (const auto x = env.get("XDG_CACHE_HOME"); x && !x->empty()) {
    path = *x + "/huggingface/token";
  } else if (const auto home = env.get("HOME"); home && !home->empty()) {
    path = *home + "/.cache/huggingface/token";
  }
  if (!path.empty() && env.file_size(path)) {
    if (auto t = env.read_file(path, 4096); t && !trim(*t).empty()) {
      return trim(*t);
    }
  }
  return std::nullopt;
}

// FNV-1a, 64 bits, as hex: a file name for a URL or a validator.
std::string fnv1a_hex(const std::string& s) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const char c : s) {
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

long long now() {
  return static_cast<long long>(std::time(nullptr));
}

// "retry in 55 s" from Retry-After or the hub's RateLimit header (t=).
std::string retry_hint(const HttpResponse& r) {
  std::string after = r.header("retry-after");
  if (after.empty()) {
    const std::string limit = r.header("ratelimit");
    if (const auto t = limit.find("t="); t != std::string::npos) {
      after = limit.substr(t + 2, limit.find_first_of(";, ", t + 2) - t - 2);
    }
  }
  if (!after.empty() && std::all_of(after.begin(), after.end(), ::isdigit) && after.size() < 7) {
    return fmt::format("retry in {} s", after);
  }
  return "retry in a minute";
}

// The hub's answers by status and X-Error-Code (huggingface_hub
// utils/_http.py hf_raise_for_status; remote-notes 2.3).
Error hub_error(const HttpResponse& r, const std::string& shown, const std::string& page,
                bool token_sent) {
  const std::string code = r.header("x-error-code");
  const std::string token_word =
      "willfit reads HF_TOKEN, then HUGGING_FACE_HUB_TOKEN, then HF_HOME/token";
  if ((r.status == 401 || r.status == 403) && code == "GatedRepo") {
    return make_error(fmt::format(
        "{} is gated ({}): accept its licence on {} and {}; {}", shown, r.status, page,
        token_sent ? "make sure that account's token is the one set (it was sent and refused)"
                   : "set a token (none was sent)",
        token_word));
  }
  if (r.status == 401) {
    return make_error(
        fmt::format("{}: repository not found, or private (401{}): check the name; for a private "
                    "repository {}",
                    shown, token_sent ? ", with the token sent" : ", no token sent", token_word));
  }
  if (r.status == 403) {
    return make_error(
        fmt::format("{}: access refused (403): the token may lack read access to it "
                    "(fine-grained tokens need it); {}",
                    shown, token_word));
  }
  if (r.status == 404) {
    if (code == "RevisionNotFound") {
      return make_error(fmt::format("{}: revision not found (404)", shown));
    }
    if (code == "EntryNotFound") {
      return make_error(fmt::format("{}: file not found in the repository (404)", shown));
    }
    return make_error(fmt::format("{}: not found (404): check the name on {}", shown, page));
  }
  if (r.status == 429) {
    return make_error(fmt::format(
        "{}: the hub is rate-limiting requests (429): {}; --offline answers from the cache", shown,
        retry_hint(r)));
  }
  if (r.status >= 500) {
    return make_error(fmt::format("{}: the server failed ({}) after {} tries; try again later",
                                  shown, r.status, HttpSettings{}.retries + 1));
  }
  return make_error(fmt::format("{}: unexpected HTTP {} from {}", shown, r.status,
                                url_authority(r.effective_url)));
}

class Reader {
 public:
  Reader(const Environment& env, UnitSystem units, bool read_projector)
      : env_(env), units_(units), read_projector_(read_projector), settings_(settings_from(env)) {
    if (!settings_.offline) {
      http_ = std::make_unique<HttpClient>(HttpSettings::from(env));
    }
    remote_ = std::make_unique<RemoteEnvironment>(env, http_.get());
  }

  Expected<Model> read(const RemoteRef& ref) {
    auto m = [&]() -> Expected<Model> {
      switch (ref.kind) {
        case RemoteRef::Kind::Hub:
          return hub(ref);
        case RemoteRef::Kind::Ollama:
          return ollama(ref);
        case RemoteRef::Kind::Url:
          return url(ref);
      }
      return make_error("unknown reference");
    }();
    if (!m) {
      return m;
    }
    origin_.requests = http_ ? static_cast<std::int64_t>(http_->requests()) : 0;
    origin_.bytes_read = http_ ? static_cast<std::int64_t>(http_->bytes()) : 0;
    origin_.cached = origin_.requests == 0;
    for (const auto& f : remote_->files_read()) {
      origin_.files.push_back(f.substr(vdir_.size() + 1));
    }
    m->origin = origin_;
    // A package of Ollama's registry is what `ollama pull` fetches and
    // `ollama run` runs: Ollama's runtime and defaults, as for a catalogue tag.
    m->ollama_tag = ref.kind == RemoteRef::Kind::Ollama;
    m->notes.push_back(fmt::format(
        "read from {}{}{}, {}", origin_.ref,
        origin_.files.empty() ? "" : ", file " + fmt::format("{}", fmt::join(origin_.files, " + ")),
        origin_.revision.empty()
            ? ""
            : fmt::format(", {} {}", ref.kind == RemoteRef::Kind::Ollama ? "blob" : "commit",
                          origin_.revision.substr(0, ref.kind == RemoteRef::Kind::Ollama ? 19 : 7)),
        origin_.cached ? "from willfit's cache, no request"
                       : fmt::format("{} requests, {:.1f} MB", origin_.requests,
                                     static_cast<double>(origin_.bytes_read) / 1e6)));
    for (const auto& n : extra_notes_) {
      m->notes.push_back(n);
    }
    return m;
  }

 private:
  // A small cached text: the cache file's content, or nullopt.
  std::optional<std::string> cache_get(const std::string& rel) const {
    if (settings_.cache.empty() || settings_.refresh) {
      return std::nullopt;
    }
    const std::string path = settings_.cache + "/" + rel;
    const auto size = env_.file_size(path);
    if (!size || *size > kMaxJson) {
      return std::nullopt;
    }
    auto t = env_.read_file(path, *size);  // exactly its size: read_file allocates the limit
    return t ? std::optional<std::string>(std::move(*t)) : std::nullopt;
  }
  void cache_put(const std::string& rel, const std::string& content) const {
    if (!settings_.cache.empty()) {
      (void)env_.write_file(settings_.cache + "/" + rel, content);
    }
  }
  std::string cache_file(const std::string& rel) const {
    return settings_.cache.empty() ? "" : settings_.cache + "/" + rel;
  }
  bool fresh(long long when) const {
    return settings_.offline || (!settings_.refresh && now() - when < settings_.ttl);
  }

  Error offline_miss(const std::string& shown) const {
    return make_error(fmt::format(
        "offline (--offline or HF_HUB_OFFLINE): {} is neither in willfit's cache ({}) nor in the "
        "local stores; run once without --offline",
        shown, settings_.cache.empty() ? "none" : settings_.cache));
  }

  // One answer of the hub's API (JSON, at most kMaxJson bytes), or the
  // error its status means.
  Expected<HttpResponse> hub_json(const std::string& url, const std::vector<std::string>& auth,
                                  const std::string& shown, const std::string& page,
                                  bool token_sent) {
    HttpRequest req;
    req.url = url;
    req.headers = auth;
    req.headers.emplace_back("Accept: application/json");
    req.max_body = kMaxJson;
    auto r = http_->get(req);
    if (!r) {
      return r.error();
    }
    if (r->status != 200) {
      return hub_error(*r, shown, page, token_sent);
    }
    if (r->cut) {
      return make_error(
          fmt::format("{}: the hub's answer is larger than {} MiB", shown, kMaxJson >> 20));
    }
    return r;
  }

  // Every file of a large repository. The model info's siblings may be cut
  // short for large repositories: huggingface_hub's snapshot_download trusts
  // them only under 1000 files and lists the tree otherwise (PR #3565,
  // _snapshot_download.py). The tree comes in pages linked by
  // `Link: <URL>; rel="next"` (utils/_pagination.py), followed here up to
  // kMaxTreePages; the list is cached at the commit (tree.json).
  Expected<std::vector<HubFile>> tree_files(const std::string& endpoint, const std::string& repo,
                                            const std::string& commit,
                                            const std::vector<std::string>& auth,
                                            const std::string& commit_key, const std::string& shown,
                                            const std::string& page, bool token_sent) {
    const std::string rel = commit_key + "/tree.json";
    if (auto cached = cache_get(rel)) {
      if (auto files = parse_hub_tree(*cached)) {
        return files;
      }
    }
    if (!http_) {
      return offline_miss(shown);
    }
    const auto scheme_end = endpoint.find("//");
    const std::string origin = endpoint.substr(
        0, endpoint.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 2));
    const std::vector<std::string> no_auth;
    std::vector<HubFile> all;
    std::string url =
        fmt::format("{}/api/models/{}/tree/{}?recursive=true", endpoint, repo, commit);
    for (int pages = 0; !url.empty(); ++pages) {
      if (pages == kMaxTreePages) {
        return make_error(fmt::format("{}: the hub's file list runs past {} pages ({} files)",
                                      shown, kMaxTreePages, all.size()));
      }
      auto r = hub_json(url, url_authority(url) == url_authority(endpoint) ? auth : no_auth, shown,
                        page, token_sent);  // the token never goes to another host
      if (!r) {
        return r.error();
      }
      auto files = parse_hub_tree(r->body);
      if (!files) {
        return make_error(fmt::format("{}: {}", shown, files.error().message));
      }
      all.insert(all.end(), files->begin(), files->end());
      url = link_next(r->header("link"));
      if (!url.empty() && url.front() == '/') {
        url = origin + url;
      }
    }
    cache_put(rel, hub_tree_json(all));
    return all;
  }

  // A repository of many shards: when its index gives metadata.total_size
  // (the exact tensor bytes) and config.json the architecture, the headers
  // of every shard add nothing but their dtypes, which the few shards of
  // SafetensorsIndex::sample_shards show (remote-notes 9: "index.json
  // total_size gives the exact weight bytes in one small GET"). Up to
  // kMaxShardHeaders shards are all read (exact parameter counts). nullopt:
  // read every shard.
  std::optional<std::vector<std::string>> shard_sample(
      const std::vector<std::string>& checkpoint, std::map<std::string, std::uint64_t>& sizes) {
    const auto shards = std::count_if(checkpoint.begin(), checkpoint.end(), [](const auto& p) {
      return p != "config.json" && p != kIndex;
    });
    if (shards <= static_cast<long>(kMaxShardHeaders) || sizes.count("config.json") == 0 ||
        sizes.count(kIndex) == 0) {
      return std::nullopt;
    }
    auto text = remote_->read_file(vdir_ + "/" + kIndex, sizes[kIndex]);
    if (!text) {
      return std::nullopt;  // the reader reports it
    }
    const auto index = read_safetensors_index(*text);
    if (!index || index->total_size <= 0 || index->sample_shards.empty()) {
      return std::nullopt;
    }
    origin_.files_not_read =
        static_cast<std::int64_t>(index->shards.size() - index->sample_shards.size());
    return index->sample_shards;
  }

  Expected<Model> hub(const RemoteRef& ref) {
    std::string endpoint = "https://huggingface.co";
    if (const auto e = env_.get("HF_ENDPOINT"); e && !e->empty()) {
      endpoint = strip_slash(*e);
    }
    const std::string shown = ref.display();
    const std::string page = endpoint + "/" + ref.repo;
    const auto token = hf_token(env_);
    std::vector<std::string> auth;
    if (token) {
      auth.push_back("Authorization: Bearer " + *token);
    }
    const auto slash = ref.repo.find('/');
    const std::string key = "hf/" + ref.repo.substr(0, slash) + "--" + ref.repo.substr(slash + 1);
    const std::string ref_key = key + "/refs/" + percent_encode(ref.revision, false);

    std::optional<std::string> info_text;
    std::string commit;
    bool from_cache = false;
    if (auto cached = cache_get(ref_key)) {
      const auto space = cached->find(' ');
      commit = trim(cached->substr(0, space));
      const long long when = space == std::string::npos ? 0 : std::atoll(cached->c_str() + space);
      if (fresh(when)) {
        info_text = cache_get(key + "/" + commit + "/info.json");
        from_cache = info_text.has_value();
      }
    }
    if (!info_text) {
      if (!http_) {
        return offline_miss(shown);
      }
      auto r = hub_json(fmt::format("{}/api/models/{}/revision/{}?blobs=true", endpoint, ref.repo,
                                    percent_encode(ref.revision, false)),
                        auth, shown, page, token.has_value());
      if (!r) {
        return r.error();
      }
      info_text = std::move(r->body);
    }
    auto info = parse_hub_info(*info_text);
    if (!info) {
      return make_error(fmt::format("{}: {}", shown, info.error().message));
    }
    if (info->commit.size() != 40) {
      return make_error(fmt::format("{}: the hub's answer names no commit", shown));
    }
    if (!from_cache) {
      cache_put(key + "/" + info->commit + "/info.json", *info_text);
      cache_put(ref_key, fmt::format("{} {}\n", info->commit, now()));
    }
    if (info->files.size() >= kSiblingsTrusted) {
      auto files = tree_files(endpoint, ref.repo, info->commit, auth, key + "/" + info->commit,
                              shown, page, token.has_value());
      if (!files) {
        return files.error();
      }
      info->files = std::move(*files);
    }
    origin_.kind = "hf";
    origin_.ref = shown;
    origin_.revision = info->commit;
    vdir_ = "hf.co/" + ref.repo;

    std::vector<std::string> paths;
    std::map<std::string, std::uint64_t> sizes;
    for (const auto& f : info->files) {
      paths.push_back(f.path);
      sizes[f.path] = f.size;
    }
    const auto add = [&](const std::string& path, std::uint64_t first_read) {
      RemoteFile rf;
      rf.url = fmt::format("{}/{}/resolve/{}/{}", endpoint, ref.repo, info->commit,
                           percent_encode(path, true));
      rf.size = sizes[path];
      rf.headers = auth;
      rf.first_read = first_read;
      rf.cache_path = cache_file(key + "/" + info->commit + "/files/" + path);
      const std::string file_shown = shown + " " + path;
      const bool sent = token.has_value();
      rf.describe = [file_shown, page, sent](const HttpResponse& r) {
        return hub_error(r, file_shown, page, sent);
      };
      remote_->add_file(vdir_ + "/" + path, std::move(rf));
    };
    const auto top_level = [](const std::string& p) { return p.find('/') == std::string::npos; };
    std::vector<std::string> checkpoint;
    for (const auto& p : paths) {
      if (top_level(p) && (p == "config.json" || p == "model.safetensors.index.json" ||
                           (p.size() > 12 && p.compare(p.size() - 12, 12, ".safetensors") == 0))) {
        checkpoint.push_back(p);
      }
    }
    const bool has_weights = std::any_of(checkpoint.begin(), checkpoint.end(),
                                         [](const auto& p) { return p != "config.json"; });
    const auto variants = gguf_variants(paths);
    if (!ref.hub_gguf && has_weights) {
      for (const auto& p : checkpoint) {
        if (sizes[p] == 0) {
          return make_error(fmt::format("{}: the hub gave no size for {}", shown, p));
        }
      }
      for (const auto& p : {std::string("config.json"), std::string(kIndex)}) {
        if (sizes.count(p) != 0) {
          add(p, sizes[p]);  // read whole
        }
      }
      auto read = checkpoint;
      if (auto sample = shard_sample(checkpoint, sizes)) {
        read = std::move(*sample);
      }
      for (const auto& p : read) {
        if (p != "config.json" && p != kIndex) {
          add(p, kShardFirstRead);  // a header in one request when under 256 KiB
        }
      }
      return model_from_path(vdir_, *remote_, units_);
    }
    if (variants.empty()) {
      if (!ref.hub_gguf && !checkpoint.empty()) {
        add("config.json", sizes["config.json"]);
        return model_from_path(vdir_ + "/config.json", *remote_, units_);
      }
      return make_error(
          fmt::format("{} holds no GGUF or safetensors weights ({} files at commit {})", shown,
                      paths.size(), info->commit.substr(0, 7)));
    }
    auto variant = choose_gguf(variants, ref.quant, shown);
    if (!variant) {
      return variant.error();
    }
    for (std::size_t i = 0; i < variant->files.size(); ++i) {
      add(variant->files[i], i == 0 ? kGgufFirstRead : 0);
    }
    if (variants.size() > 1) {
      std::vector<std::string> labels;
      for (const auto& v : variants) {
        labels.push_back(v.label);
      }
      extra_notes_.push_back(fmt::format(
          "chose {} ({}{}); the repository has {}", variant->files.front(), variant->label,
          ref.quant.empty() ? ", the default" : "", fmt::join(labels, ", ")));
    }
    auto model = model_from_path(vdir_ + "/" + variant->files.front(), *remote_, units_);
    // llama-server -hf loads the repository's mmproj file with the model
    // unless --no-mmproj (llama.cpp common/arg.cpp, --mmproj-auto): so does
    // willfit, unless --text-only, and then without a request for it.
    if (model && read_projector_) {
      if (const auto mmproj = choose_mmproj(paths)) {
        add(mmproj->path, kGgufFirstRead);
        if (auto added = add_mmproj_file(vdir_ + "/" + mmproj->path, *remote_, *model,
                                         shown + "'s mmproj (--text-only leaves it out):");
            !added) {
          return added.error();
        }
        if (mmproj->all.size() > 1) {
          extra_notes_.push_back(fmt::format("read {} ({}); the repository has {} mmproj files: {}",
                                             mmproj->path,
                                             mmproj->f16 ? "the F16 one" : "the first, none is F16",
                                             mmproj->all.size(), fmt::join(mmproj->all, ", ")));
        }
      }
    }
    return model;
  }

  Expected<Model> ollama(const RemoteRef& ref) {
    std::string base = "https://registry.ollama.ai";
    if (const auto e = env_.get("WILLFIT_OLLAMA_REGISTRY"); e && !e->empty()) {
      base = strip_slash(*e);
    } else if (!ref.host.empty()) {
      base = "https://" + ref.host;
    }
    const std::string shown = ref.display();
    const std::string key =
        fmt::format("ollama/manifests/{}/{}/{}/{}", url_authority(base), ref.ns, ref.name, ref.tag);
    std::optional<std::string> manifest;
    if (auto cached = cache_get(key)) {
      const auto nl = cached->find('\n');
      if (nl != std::string::npos && fresh(std::atoll(cached->c_str()))) {
        manifest = cached->substr(nl + 1);
      }
    }
    const bool from_cache = manifest.has_value();
    if (!manifest) {
      if (!http_) {
        return offline_miss(shown);
      }
      HttpRequest req;
      req.url = fmt::format("{}/v2/{}/{}/manifests/{}", base, ref.ns, ref.name, ref.tag);
      req.headers = {"Accept: application/vnd.docker.distribution.manifest.v2+json"};
      req.max_body = 1 << 20;
      auto r = http_->get(req);
      if (!r) {
        return r.error();
      }
      if (r->status == 404 || r->status == 401) {
        return make_error(
            fmt::format("{}: the Ollama registry has no such model or tag ({}): check the name on "
                        "ollama.com/library",
                        shown, r->status));
      }
      if (r->status == 429) {
        return make_error(fmt::format("{}: the Ollama registry is rate-limiting requests (429): {}",
                                      shown, retry_hint(*r)));
      }
      if (r->status != 200) {
        return make_error(
            fmt::format("{}: the Ollama registry answered HTTP {}", shown, r->status));
      }
      manifest = r->body;
    }
    auto layers = parse_ollama_manifest(*manifest);
    if (!layers) {
      return make_error(fmt::format("{}: {}", shown, layers.error().message));
    }
    auto layer = ollama_model_layer(*layers, shown);
    if (!layer) {
      return layer.error();
    }
    if (!from_cache) {
      cache_put(key, fmt::format("{}\n{}", now(), *manifest));
    }
    origin_.kind = "ollama";
    origin_.ref = shown;
    origin_.revision = layer->digest;
    vdir_ = "ollama";
    // A blob of the manifest, range-read under a virtual path ending in `suffix`.
    const auto add_blob = [&](const OllamaLayer& l, const char* what, const std::string& suffix) {
      RemoteFile rf;
      rf.url = fmt::format("{}/v2/{}/{}/blobs/{}", base, ref.ns, ref.name, l.digest);
      rf.size = l.size;
      rf.first_read = kGgufFirstRead;
      rf.cache_path = cache_file("ollama/blobs/sha256-" + l.digest.substr(7));
      rf.describe = [shown, what](const HttpResponse& r) {
        return make_error(fmt::format("{}: reading the {} blob: HTTP {}", shown, what, r.status));
      };
      const std::string path = vdir_ + "/" + ref.name + ":" + ref.tag + suffix;
      remote_->add_file(path, std::move(rf));
      return path;
    };
    auto model = model_from_path(add_blob(*layer, "model", ".gguf"), *remote_, units_);
    // The projector layer, read by Range as the model blob is; with
    // --text-only, or when the model blob holds its encoder, no request.
    const auto projector =
        model ? ollama_projector_layer(*layers, *model, shown, read_projector_) : std::nullopt;
    if (projector) {
      if (auto added =
              add_mmproj_file(add_blob(*projector, "projector", ".projector.gguf"), *remote_,
                              *model, shown + "'s projector layer (--text-only leaves it out):",
                              ollama_projector_name(*projector), true);
          !added) {
        return added.error();
      }
    }
    return model;
  }

  // A URL's cache entry (docs/remote.md, "The cache"): what the URL served
  // when last asked, and when. The bytes are kept under the validator, not
  // the URL: two URLs of one file (the hub's and the CDN's) share them.
  struct UrlEntry {
    long long when = 0;
    std::string validator;  // "etag:...", "last-modified:..." or "size-only"
    std::string etag;       // sent back as If-None-Match ("" when none)
    std::uint64_t size = 0;
    std::string commit;  // X-Repo-Commit, when a hub served it
  };
  static std::string url_entry_key(const std::string& url) { return "url/" + fnv1a_hex(url); }
  static std::string url_bytes_key(const UrlEntry& e) {
    return "url/bytes/" + fnv1a_hex(fmt::format("{}\n{}", e.validator, e.size));
  }
  std::optional<UrlEntry> url_entry(const std::string& url) const {
    const auto text = cache_get(url_entry_key(url));
    if (!text) {
      return std::nullopt;
    }
    // Lines: UNIX-TIME, validator, ETag, size, commit, URL (checked: a hash
    // collision is a miss, never another file's bytes).
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at <= text->size() && lines.size() < 6) {
      const auto nl = text->find('\n', at);
      lines.push_back(text->substr(at, nl == std::string::npos ? std::string::npos : nl - at));
      if (nl == std::string::npos) {
        break;
      }
      at = nl + 1;
    }
    if (lines.size() < 6 || lines[5] != url || lines[1].empty()) {
      return std::nullopt;
    }
    UrlEntry e;
    e.when = std::atoll(lines[0].c_str());
    e.validator = lines[1];
    e.etag = lines[2];
    e.size = std::strtoull(lines[3].c_str(), nullptr, 10);
    e.commit = lines[4];
    return e.size > 0 ? std::optional<UrlEntry>(e) : std::nullopt;
  }
  void put_url_entry(const std::string& url, const UrlEntry& e) const {
    cache_put(url_entry_key(url), fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n", e.when, e.validator,
                                              e.etag, e.size, e.commit, url));
  }

  // A URL is cached like a branch name: trusted for WILLFIT_CACHE_TTL seconds
  // without a request (always with --offline); then asked again, with
  // If-None-Match, and the bytes read before are reused when the validator
  // (ETag, else Last-Modified, else the size alone) did not change.
  Expected<Model> url(const RemoteRef& ref) {
    std::string path_part = ref.url.substr(0, ref.url.find_first_of("?#"));
    const std::string name = path_part.substr(path_part.rfind('/') + 1);
    const std::string lower = to_lower(name);
    const bool json = lower.size() > 5 && lower.compare(lower.size() - 5, 5, ".json") == 0;
    const std::string path = "url/" + (name.empty() ? std::string("model") : name);
    origin_.kind = "url";
    origin_.ref = ref.url;
    vdir_ = "url";
    // A hub URL gets the hub's token (a gated file); any other host none.
    const std::string host = url_authority(ref.url);
    const auto endpoint = env_.get("HF_ENDPOINT");
    const bool hub_host = host == "hf.co" || host == "huggingface.co" ||
                          (endpoint && !endpoint->empty() && host == url_authority(*endpoint));
    const auto token = hub_host ? hf_token(env_) : std::nullopt;
    std::vector<std::string> auth;
    if (token) {
      auth.push_back("Authorization: Bearer " + *token);
    }

    const auto entry = url_entry(ref.url);
    std::optional<std::string> cached_bytes;
    if (entry) {
      cached_bytes = cache_get(url_bytes_key(*entry));
    }
    if (entry && cached_bytes && !cached_bytes->empty() && fresh(entry->when)) {
      origin_.revision = entry->commit;
      RemoteFile rf;
      rf.url = ref.url;
      rf.size = entry->size;
      rf.headers = auth;
      rf.cache_path = cache_file(url_bytes_key(*entry));
      remote_->add_file(path, std::move(rf), std::move(*cached_bytes));
      return model_from_path(path, *remote_, units_);
    }
    if (!http_) {
      return offline_miss(ref.url);
    }
    HttpRequest req;
    req.url = ref.url;
    req.headers = auth;
    if (entry && cached_bytes && !entry->etag.empty()) {
      req.headers.push_back("If-None-Match: " + entry->etag);
    }
    const std::uint64_t first = json ? kMaxJson : kGgufFirstRead;
    req.range = std::make_pair(std::uint64_t{0}, first);
    req.max_body = first;
    auto r = http_->get(req);
    if (!r) {
      return r.error();
    }
    UrlEntry now_entry;
    now_entry.when = now();
    now_entry.commit = trim(r->header("x-repo-commit"));
    std::string prefix;
    if (r->status == 304 && entry && cached_bytes) {  // unchanged since the cached read
      now_entry.validator = entry->validator;
      now_entry.etag = entry->etag;
      now_entry.size = entry->size;
      now_entry.commit = entry->commit;
      prefix = std::move(*cached_bytes);
    } else if (r->status == 206 || r->status == 200) {
      if (r->status == 206) {
        const std::string cr = r->header("content-range");
        const auto slash = cr.rfind('/');
        if (slash == std::string::npos || cr.compare(slash + 1, std::string::npos, "*") == 0) {
          return make_error(
              fmt::format("{}: the server sent no file size (Content-Range)", ref.url));
        }
        now_entry.size = std::strtoull(cr.c_str() + slash + 1, nullptr, 10);
      } else {
        now_entry.size = r->cut ? std::strtoull(r->header("content-length").c_str(), nullptr, 10)
                                : r->body.size();
        now_entry.size = std::max<std::uint64_t>(now_entry.size, r->body.size());
      }
      // The validator of the server that sent the bytes (the last hop's), as
      // HTTP caches key them (RFC 9111 4.3): ETag, else Last-Modified.
      const auto& last = r->hops.empty() ? std::map<std::string, std::string>{} : r->hops.back();
      const auto etag = last.find("etag");
      const auto modified = last.find("last-modified");
      if (etag != last.end() && !etag->second.empty()) {
        now_entry.etag = etag->second;
        now_entry.validator = "etag:" + etag->second;
      } else if (const std::string linked = r->header("x-linked-etag"); !linked.empty()) {
        now_entry.validator = "etag:" + linked;  // the hub's content hash, on its redirect
      } else if (modified != last.end() && !modified->second.empty()) {
        now_entry.validator = "last-modified:" + modified->second;
      } else {
        now_entry.validator = "size-only";
      }
      prefix = std::move(r->body);
      if (entry && cached_bytes && entry->validator == now_entry.validator &&
          entry->size == now_entry.size && cached_bytes->size() > prefix.size()) {
        prefix = std::move(*cached_bytes);  // same file: what was read before is still good
      }
    } else {
      return hub_error(*r, ref.url, ref.url, token.has_value());
    }
    origin_.revision = now_entry.commit;
    put_url_entry(ref.url, now_entry);
    RemoteFile rf;
    rf.url = r->status == 304 ? ref.url : r->effective_url;
    rf.size = now_entry.size;
    if (token && url_authority(rf.url) == host) {
      rf.headers = auth;
    }
    rf.cache_path = cache_file(url_bytes_key(now_entry));
    if (!rf.cache_path.empty()) {
      (void)env_.write_file(rf.cache_path, prefix);
    }
    remote_->add_file(path, std::move(rf), std::move(prefix));
    return model_from_path(path, *remote_, units_);
  }

  const Environment& env_;
  UnitSystem units_;
  bool read_projector_ = true;  // false: --text-only, a repository's mmproj is not read
  Settings settings_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<RemoteEnvironment> remote_;
  ModelOrigin origin_;
  std::string vdir_;
  std::vector<std::string> extra_notes_;
};

}  // namespace

std::optional<Expected<Model>> model_from_remote(const std::string& text, const Environment& env,
                                                 UnitSystem units, bool read_projector) {
  const auto ref = parse_remote_ref(text);
  if (!ref) {
    return std::nullopt;
  }
  Reader reader(env, units, read_projector);
  return reader.read(*ref);
}

}  // namespace willfit::app
