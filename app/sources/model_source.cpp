// Loading the catalogue and reading model files. Files are read header-only:
// a GGUF header is read from the file's start, 1 MiB first, then doubled
// while the parser asks for more (up to the file's size and the parser's
// cap); a safetensors header is its 8-byte length, then that many bytes. So
// the time taken depends on the header, never on the file's size.
#include "sources/model_source.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "sources/embedded_data.hpp"
#include "sources/remote_model.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/safetensors.hpp"

namespace willfit::app {
namespace {

constexpr std::uint64_t kMaxJsonFile = 64ULL << 20;  // catalogues, config.json, indexes
constexpr std::uint64_t kFirstRead = 1ULL << 20;
constexpr std::size_t kMaxShards = 4096;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string join(const std::string& dir, const std::string& name) {
  return (dir.empty() || dir.back() == '/') ? dir + name : dir + "/" + name;
}

std::string parent_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".")
                                    : path.substr(0, std::max<std::size_t>(slash, 1));
}

std::string base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') {
    path.pop_back();
  }
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string stem(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// A whole small file (JSON), refusing anything larger than the cap.
Expected<std::string> read_json_file(const std::string& path, const Environment& env) {
  const auto size = env.file_size(path);
  if (!size) {
    return size.error();
  }
  if (*size > kMaxJsonFile) {
    return make_error(
        fmt::format("'{}' is {} bytes: too large for a JSON file willfit reads", path, *size));
  }
  return env.read_range(path, 0, *size);
}

Expected<GgufFile> read_gguf_header(const std::string& path, const Environment& env) {
  const auto size = env.file_size(path);
  if (!size) {
    return size.error();
  }
  std::uint64_t want = std::min(*size, kFirstRead);
  for (;;) {
    auto bytes = env.read_range(path, 0, want);
    if (!bytes) {
      return bytes.error();
    }
    auto r = read_gguf(*bytes, *size);
    if (!r) {
      return make_error(fmt::format("'{}': {}", path, r.error().message));
    }
    if (r->file) {
      return std::move(*r->file);
    }
    // Double, or jump to the reader's estimate of the header's end (plus a
    // sixteenth) when that is further: one request instead of two when a
    // header is just past a power of two (a remote file pays per request).
    const std::uint64_t next =
        std::min(*size, std::max({r->need, want * 2, r->estimate + r->estimate / 16}));
    if (next <= bytes->size()) {
      return make_error(fmt::format("'{}': the file changed while it was read", path));
    }
    want = next;
  }
}

// A GGUF, or all parts of a split one (llama.cpp's gguf-split names them
// PREFIX-00001-of-0000N.gguf; the first part carries the metadata, every
// part its own tensors, and split.count says how many there are).
Expected<Model> read_gguf_file(const std::string& path, const Environment& env, UnitSystem units) {
  auto f = read_gguf_header(path, env);
  if (!f) {
    return f.error();
  }
  std::string name = stem(base_name(path));
  const GgufValue* count = f->find("split.count");
  const std::int64_t parts =
      (count != nullptr && count->kind == GgufValue::Kind::Integer) ? count->integer : 1;
  if (parts > 1) {
    if (parts > static_cast<std::int64_t>(kMaxShards)) {
      return make_error(
          fmt::format("'{}': split into {} parts, more than willfit reads", path, parts));
    }
    const std::string first = fmt::format("-{:05d}-of-{:05d}.gguf", 1, parts);
    if (!ends_with(path, first)) {
      return make_error(fmt::format("'{}' is one part of a split GGUF: give its first part (...{})",
                                    path, first));
    }
    const std::string prefix = path.substr(0, path.size() - first.size());
    for (std::int64_t k = 2; k <= parts; ++k) {
      auto part = read_gguf_header(prefix + fmt::format("-{:05d}-of-{:05d}.gguf", k, parts), env);
      if (!part) {
        return part.error();
      }
      for (auto& t : part->tensors) {
        f->tensors.push_back(std::move(t));
      }
      f->weight_bytes += part->weight_bytes;
      f->params += part->params;
    }
    name = base_name(prefix);
  }
  auto m = model_from_gguf(*f, name, units);
  if (!m) {
    return make_error(fmt::format("'{}': {}", path, m.error().message));
  }
  if (parts > 1) {
    m->notes.push_back(fmt::format("read the headers of all {} parts of the split GGUF", parts));
  }
  return m;
}

Expected<SafetensorsHeader> read_safetensors_file(const std::string& path, const Environment& env) {
  const auto size = env.file_size(path);
  if (!size) {
    return size.error();
  }
  auto first = env.read_range(path, 0, 8);
  if (!first) {
    return first.error();
  }
  const auto header_size = safetensors_header_size(*first, *size);
  if (!header_size) {
    return make_error(fmt::format("'{}': {}", path, header_size.error().message));
  }
  auto header = env.read_range(path, 0, *header_size);
  if (!header) {
    return header.error();
  }
  auto h = read_safetensors(*header, *size);
  if (!h) {
    return make_error(fmt::format("'{}': {}", path, h.error().message));
  }
  return h;
}

// config.json next to the weights, when there is one.
Expected<std::optional<Model>> sibling_config(const std::string& dir, const std::string& label,
                                              const Environment& env) {
  const std::string path = join(dir, "config.json");
  if (!env.file_size(path)) {
    return std::optional<Model>();
  }
  auto text = read_json_file(path, env);
  if (!text) {
    return text.error();
  }
  auto m = model_from_hf_config(*text, label);
  if (!m) {
    return make_error(fmt::format("'{}': {}", path, m.error().message));
  }
  return std::optional<Model>(std::move(*m));
}

// Safetensors files (one, or the shards of an index) plus an optional config.
Expected<Model> read_checkpoint(const std::string& dir, const std::vector<std::string>& files,
                                const std::string& label, const Environment& env,
                                UnitSystem units) {
  auto config = sibling_config(dir, label, env);
  if (!config) {
    return config.error();
  }
  SafetensorsHeader total;
  for (const auto& f : files) {
    auto h = read_safetensors_file(join(dir, f), env);
    if (!h) {
      return h.error();
    }
    add_shard(total, *h);
  }
  Model m = model_from_safetensors(total, label, config->has_value() ? &**config : nullptr, units);
  if (files.size() > 1) {
    m.notes.push_back(fmt::format("read the headers of {} shards", files.size()));
  }
  return m;
}

Expected<Model> read_index(const std::string& path, const Environment& env, UnitSystem units) {
  auto text = read_json_file(path, env);
  if (!text) {
    return text.error();
  }
  auto index = read_safetensors_index(*text);
  if (!index) {
    return make_error(fmt::format("'{}': {}", path, index.error().message));
  }
  if (index->shards.size() > kMaxShards) {
    return make_error(fmt::format("'{}': {} shards is more than willfit reads ({})", path,
                                  index->shards.size(), kMaxShards));
  }
  const std::string dir = parent_of(path);
  const std::string label = base_name(dir == "." ? std::string("model") : dir);
  const bool all_present =
      std::all_of(index->shards.begin(), index->shards.end(),
                  [&](const auto& s) { return env.file_size(join(dir, s)).ok(); });
  if (all_present && !index->shards.empty()) {
    return read_checkpoint(dir, index->shards, label, env, units);
  }
  // Shards not downloaded: the index's total_size and the config's architecture.
  auto config = sibling_config(dir, label, env);
  if (!config) {
    return config.error();
  }
  if (!config->has_value()) {
    return make_error(fmt::format(
        "'{}': its shards are not there and there is no config.json next to it: cannot tell the "
        "architecture",
        path));
  }
  Model m = std::move(**config);
  if (index->total_size > 0) {
    m.file_weight_bytes = index->total_size;
    // The index lists an encoder's tensors too: the config's tower (the
    // projector term) is taken out of the weights, at the 16 bits (32 for an
    // fp32 checkpoint) a checkpoint stores it in, so it is counted once.
    if (index->encoder_tensors > 0 && m.arch.vision_params > 0) {
      const std::int64_t tower = m.arch.vision_params * (m.precision_hint == "fp32" ? 4 : 2);
      if (tower < index->total_size) {
        m.file_weight_bytes = index->total_size - tower;
        m.notes.push_back(fmt::format(
            "the index lists {} encoder tensors: the tower's {:.2f} B parameters from config.json "
            "are the projector term, not the weights",
            index->encoder_tensors, static_cast<double>(m.arch.vision_params) / 1e9));
      }
    }
    m.weights_source = FactSource::Safetensors;
    // The shards that are there (a partial download, or the few a remote
    // read chose: SafetensorsIndex::sample_shards) show the dtypes.
    SafetensorsHeader seen;
    std::size_t present = 0;
    for (const auto& s : index->shards) {
      if (!env.file_size(join(dir, s))) {
        continue;
      }
      auto h = read_safetensors_file(join(dir, s), env);
      if (!h) {
        return h.error();
      }
      add_shard(seen, *h);
      ++present;
    }
    if (present == 0) {
      m.notes.push_back(fmt::format(
          "weights: {:.2f} GB from the index's total_size ({} shards listed, not present)",
          static_cast<double>(index->total_size) / 1e9, index->shards.size()));
      return m;
    }
    if (m.precision_hint.empty()) {
      m.precision_hint = safetensors_precision(seen);
    }
    std::string mix;
    for (const auto& [dtype, bytes] : seen.bytes_by_dtype) {
      mix += fmt::format("{}{} {:.0f}%", mix.empty() ? "" : ", ", dtype,
                         100.0 * static_cast<double>(bytes) /
                             static_cast<double>(std::max<std::int64_t>(seen.bytes, 1)));
    }
    m.notes.push_back(fmt::format(
        "weights: {:.2f} GB from the index's total_size; dtypes from the headers of {} of its {} "
        "shards ({} of their bytes)",
        static_cast<double>(index->total_size) / 1e9, present, index->shards.size(), mix));
  }
  return m;
}

Expected<Model> read_directory(const std::string& path, const Environment& env, UnitSystem units) {
  auto names = env.list_directory(path);
  if (!names) {
    return names.error();
  }
  std::vector<std::string> ggufs;
  std::vector<std::string> safetensors;
  bool has_index = false;
  bool has_config = false;
  for (const auto& n : *names) {
    const std::string lower = to_lower(n);
    if (ends_with(lower, ".gguf") && lower.find("mmproj") == std::string::npos) {
      ggufs.push_back(n);
    } else if (ends_with(lower, ".safetensors")) {
      safetensors.push_back(n);
    } else if (n == "model.safetensors.index.json") {
      has_index = true;
    } else if (n == "config.json") {
      has_config = true;
    }
  }
  // The parts of one split GGUF count as one file: its first part.
  if (ggufs.size() > 1 && std::all_of(ggufs.begin(), ggufs.end(), [](const std::string& g) {
        return g.find("-of-") != std::string::npos;
      })) {
    const auto first = std::find_if(ggufs.begin(), ggufs.end(), [](const std::string& g) {
      return g.find("-00001-of-") != std::string::npos;
    });
    if (first != ggufs.end()) {
      ggufs = {*first};
    }
  }
  if (ggufs.size() == 1) {
    return read_gguf_file(join(path, ggufs.front()), env, units);
  }
  if (ggufs.size() > 1) {
    return make_error(fmt::format("'{}' holds {} GGUF files ({}, ...): name the one you mean", path,
                                  ggufs.size(), ggufs.front()));
  }
  if (has_index) {
    return read_index(join(path, "model.safetensors.index.json"), env, units);
  }
  const std::string label = base_name(path);
  if (!safetensors.empty()) {
    if (safetensors.size() > kMaxShards) {
      return make_error(fmt::format("'{}' holds more than {} safetensors files", path, kMaxShards));
    }
    return read_checkpoint(path, safetensors, label, env, units);
  }
  if (has_config) {
    auto config = sibling_config(path, label, env);
    if (!config) {
      return config.error();
    }
    return std::move(**config);
  }
  return make_error(
      fmt::format("'{}' holds no .gguf, .safetensors or config.json file to read", path));
}

}  // namespace

Expected<bool> add_mmproj_file(const std::string& path, const Environment& env, Model& model,
                               const std::string& what, const std::string& name, bool any_layout) {
  auto f = read_gguf_header(path, env);
  if (!f) {
    return make_error(what + " " + f.error().message);
  }
  const std::string shown = name.empty() ? base_name(path) : name;
  if (any_layout && f->architecture() != "clip" && f->params > 0) {
    attach_projector(model, projector_tensors_only(*f, shown));
    return true;
  }
  auto p = projector_from_gguf(*f, shown);
  if (!p) {
    return make_error(fmt::format("{} '{}': {}", what, path, p.error().message));
  }
  attach_projector(model, std::move(*p));
  return true;
}

// llama-server loads a projector it finds itself only from -hf's repository
// (common/arg.cpp --mmproj-auto: "useful when using -hf"); with -m FILE it
// loads none unless --mmproj names one. LM Studio keeps a model as a folder,
// PUBLISHER/REPO/ with the model's GGUF and its mmproj-*.gguf beside it, and
// loads the folder's projector with the model (lmstudio-ai/lmstudio-js issue
// 21, lmstudio-bug-tracker issue 625). So a directory counts its mmproj, as
// a hub repository does; a named file only says that one lies beside it.
Expected<bool> mmproj_beside(const std::string& path, const Environment& env, Model& model,
                             bool read_projector) {
  if (model.source != FactSource::Gguf || model.mmproj) {
    return true;
  }
  const bool directory = env.is_directory(path);
  const std::string dir = directory ? path : parent_of(path);
  auto names = env.list_directory(dir);
  if (!names) {
    return true;  // the model was read; a folder that cannot be listed has nothing to add
  }
  const auto mmproj = choose_mmproj(*names);
  if (!mmproj) {
    return true;
  }
  const std::string others =
      mmproj->all.size() > 1 ? fmt::format(" ({}; {} there: {})",
                                           mmproj->f16 ? "the F16 one" : "the first, none is F16",
                                           mmproj->all.size(), fmt::join(mmproj->all, ", "))
                             : "";
  if (!read_projector) {  // --text-only, or --mmproj names the projector
    if (directory) {
      model.notes.push_back(fmt::format(
          "{} in the folder is not read (--text-only, or --mmproj names another)", mmproj->path));
    }
    return true;
  }
  if (!directory) {
    model.notes.push_back(fmt::format(
        "{} lies beside the model and is not counted: llama-server -m loads no projector unless "
        "--mmproj names it; give --mmproj {} to count it, or the folder as MODEL",
        mmproj->path, join(dir, mmproj->path)));
    return true;
  }
  auto added =
      add_mmproj_file(join(dir, mmproj->path), env, model,
                      fmt::format("'{}' holds an mmproj file (--text-only leaves it out):", dir));
  if (!added) {
    return added;
  }
  model.notes.push_back(fmt::format(
      "read {}{} from the folder, as LM Studio and llama-server -hf load a model's projector",
      mmproj->path, others));
  return true;
}

const Expected<ModelDb>& embedded_model_db() {
  static const Expected<ModelDb> db = ModelDb::parse(embedded_models_json(), "embedded");
  return db;
}

Expected<std::shared_ptr<const ModelDb>> load_model_db(const Environment& env,
                                                       const std::string& models_file) {
  std::string path = models_file;
  std::string via = "--models";
  if (path.empty()) {
    path = env.get("WILLFIT_MODELS").value_or("");
    via = "WILLFIT_MODELS";
  }
  auto db = [&]() -> Expected<std::shared_ptr<const ModelDb>> {
    if (path.empty()) {
      const auto& embedded = embedded_model_db();
      if (!embedded) {
        return embedded.error();
      }
      // The embedded catalogue lives as long as the process: shared, not
      // copied, and not owned (the aliasing constructor with no owner).
      return std::shared_ptr<const ModelDb>(std::shared_ptr<const ModelDb>(), &*embedded);
    }
    auto text = read_json_file(path, env);
    if (!text) {
      return make_error("models file (" + via + "): " + text.error().message);
    }
    auto parsed = ModelDb::parse(*text, path);
    if (!parsed) {
      return parsed.error();
    }
    return std::make_shared<const ModelDb>(std::move(*parsed));
  }();
  if (!db) {
    return db;
  }
  // The user's additions.
  std::string user;
  if (const auto xdg = env.get("XDG_CONFIG_HOME"); xdg && !xdg->empty()) {
    user = *xdg + "/willfit/models.json";
  } else if (const auto home = env.get("HOME"); home && !home->empty()) {
    user = *home + "/.config/willfit/models.json";
  }
  if (!user.empty() && env.file_size(user)) {
    auto text = read_json_file(user, env);
    if (!text) {
      return text.error();
    }
    auto extra = ModelDb::parse(*text, user);
    if (!extra) {
      return extra.error();
    }
    auto merged = std::make_shared<ModelDb>(**db);
    merged->merge(std::move(*extra));
    return std::shared_ptr<const ModelDb>(std::move(merged));
  }
  return db;
}

std::string precision_hint_note(const Model& model, const Precision& precision) {
  if (!model.precision_hint_why.empty()) {
    return fmt::format("precision {}: {}", precision.name, model.precision_hint_why);
  }
  switch (model.source) {
    case FactSource::Gguf:
      return fmt::format("precision {}: the GGUF file's type (general.file_type)", precision.name);
    case FactSource::Safetensors:
    case FactSource::Config:
      return fmt::format("precision {}: the checkpoint's dtype or quantization_config",
                         precision.name);
    case FactSource::Catalogue:
    case FactSource::Assumed:
      break;
  }
  return fmt::format("precision {}: from the model name's tag (give --precision to change it)",
                     precision.name);
}

Expected<Model> model_at_precision(const std::string& text, const Model& model,
                                   const Precision& precision) {
  const auto ref = parse_remote_ref(trim(text));
  // A quantisation the name gives: hf.co/ORG/REPO-GGUF:Q4_K_M, or an Ollama
  // tag's suffix (qwen3:8b-q8_0).
  std::string named;
  if (ref && ref->kind == RemoteRef::Kind::Hub) {
    named = ref->quant;
  } else if (ref && ref->kind == RemoteRef::Kind::Ollama) {
    named = split_precision_suffix(ref->name + ":" + ref->tag).precision;
  }
  const auto n = named.empty() ? Expected<Precision>(make_error("")) : parse_precision(named);
  const auto own = model.precision_hint.empty() ? Expected<Precision>(make_error(""))
                                                : parse_precision(model.precision_hint);
  if (!model.file_weight_bytes || !own || own->id == precision.id) {
    if (!n || n->id == precision.id) {
      return model;
    }
    // No file was read: the answer is for the package or file of the type
    // asked for, which suggestions rely on (they add --precision to the
    // command as typed). Said, so the name's own type is not mistaken for it.
    Model asked = model;
    asked.notes.push_back(
        fmt::format("'{}' names {}; --precision {} replaces it: the answer is for {} weights",
                    trim(text), n->name, precision.id, precision.name));
    return asked;
  }
  if (model.weights_source == FactSource::Gguf) {
    std::string other = fmt::format("give a file of {}", precision.name);
    if (ref && ref->kind == RemoteRef::Kind::Hub) {
      RemoteRef wanted = *ref;
      wanted.quant = precision.name;
      other = fmt::format("name that file: {}", wanted.display());
    } else if (model.ollama_tag) {
      other =
          fmt::format("name the tag of {} (the library's tags page lists them)", precision.name);
    }
    return make_error(fmt::format(
        "--precision {}: '{}' is a {} file, and willfit sizes the file's own tensors: drop "
        "--precision, or {}",
        precision.id, trim(text), own->name, other));
  }
  // A checkpoint converted (quantised, cast) to the precision asked for: its
  // parameters at that precision. Its own bytes describe its own dtype.
  Model converted = model;
  converted.file_weight_bytes.reset();
  converted.weight_mix.clear();
  converted.expert_mix.clear();
  converted.batched_mix.clear();
  converted.narrow_mix.clear();
  converted.plain_mix.clear();
  converted.rows_off8_mix.clear();
  converted.rows_off4_mix.clear();
  converted.notes.push_back(fmt::format(
      "weights: the checkpoint is {}; asked for at {}, it is sized as its parameters at {}, as "
      "converting or quantising it would give",
      own->name, precision.name, precision.name));
  return converted;
}

void describe_file_weights(const Model& model, Precision& precision) {
  if (!model.file_weight_bytes || model.params <= 0) {
    return;
  }
  // A safetensors checkpoint's parameters include its encoder, which is the
  // projector term, not the weight bytes (model_from_safetensors).
  const std::int64_t params =
      model.params -
      (model.weights_source == FactSource::Safetensors ? model.arch.vision_params : 0);
  precision.bits_per_weight = 8.0 * static_cast<double>(*model.file_weight_bytes) /
                              static_cast<double>(std::max<std::int64_t>(1, params));
  precision.note = "the estimate uses the file's exact weight bytes, not parameters x bits";
}

bool looks_like_model_path(const std::string& text, const Environment& env) {
  const std::string lower = to_lower(text);
  for (const char* ext : {".gguf", ".safetensors", ".json"}) {
    if (ends_with(lower, ext)) {
      return true;
    }
  }
  for (const char* prefix : {"/", "./", "../", "~/"}) {
    if (lower.rfind(prefix, 0) == 0) {
      return true;
    }
  }
  return text == "." || env.is_directory(text) || env.file_size(text).ok();
}

Expected<Model> model_from_path(const std::string& path, const Environment& env, UnitSystem units) {
  if (env.is_directory(path)) {
    return read_directory(path, env, units);
  }
  const auto size = env.file_size(path);
  if (!size) {
    return size.error();
  }
  const std::string name = to_lower(base_name(path));
  if (ends_with(name, ".gguf")) {
    return read_gguf_file(path, env, units);
  }
  if (ends_with(name, ".index.json")) {
    return read_index(path, env, units);
  }
  if (ends_with(name, ".safetensors")) {
    return read_checkpoint(parent_of(path), {base_name(path)}, stem(base_name(path)), env, units);
  }
  if (ends_with(name, ".json")) {
    auto text = read_json_file(path, env);
    if (!text) {
      return text.error();
    }
    const std::string dir = parent_of(path);
    auto m = model_from_hf_config(*text, base_name(dir == "." ? stem(name) : dir));
    if (!m) {
      return make_error(fmt::format("'{}': {}", path, m.error().message));
    }
    return m;
  }
  // No telling extension: sniff the GGUF magic.
  auto head = env.read_range(path, 0, 4);
  if (head && *head == "GGUF") {
    return read_gguf_file(path, env, units);
  }
  return make_error(
      fmt::format("'{}' is not a model file willfit reads (.gguf, .safetensors, "
                  "model.safetensors.index.json, config.json, or a directory of them)",
                  path));
}

}  // namespace willfit::app
