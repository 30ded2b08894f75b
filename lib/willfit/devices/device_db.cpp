// The device database: parsing, merging and finding a device by name.
//
// Parsing. Every entry is checked field by field (type, range, enum), because
// a user's file goes through the same path as the embedded one and a wrong
// type must become one line naming the file and the entry, never an exception
// or a silent zero. Unknown keys are ignored so older binaries read newer
// files. Keys that must be present: id, vendor, name, kind, memory_bytes,
// bandwidth_gb_per_s, source; the rest may be absent (read as unknown).
//
// Finding. People type "RTX 4090", "rtx4090", "nvidia geforce rtx 4090" or
// "4090" for one card, and tools print "NVIDIA A100-SXM4-80GB". A name is
// reduced to a key: lowercase, split into words at punctuation and where
// letters meet digits, vendor and product-line words dropped (nvidia, geforce,
// rtx, gtx, amd, radeon, rx, apple, intel, tesla, ...), the rest joined. Every
// id, name and alias of every device is indexed by its key. A query then goes:
//   1. its key equals a device's key: that device;
//   2. it ends in a memory size ("a100 80gb", "rtx 4090 24gb") and the rest
//      names one device exactly: that device if its memory is that size (a
//      CPU platform without a fixed size takes the size given);
//   3. its words are a subset of the words of some names ("3060" is in
//      "rtx 3060 12gb" and "rtx 3060 ti"); with a size, names matching the
//      rest and the size count too. One candidate: that device. Several: an
//      error that lists them ("ambiguous"); none: "did you mean" the three
//      closest keys by edit distance.
// Product-line words are dropped because no two devices in the data differ
// only by them; the data keeps shared short names ("a100", "rtx 3060") out of
// every entry's aliases, so those reach step 3 and come back ambiguous.
#include "willfit/devices/device_db.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/text.hpp"
#include "willfit/devices/rent.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// Words that say who made a device or which product line it belongs to, not
// which device it is.
constexpr std::array<std::string_view, 15> kNoiseWords = {
    "nvidia", "geforce", "rtx",   "gtx", "tesla",    "amd",      "radeon", "rx",
    "ati",    "apple",   "intel", "gpu", "graphics", "qualcomm", "google",
};

constexpr std::string_view kAmbiguous = "is ambiguous";

// Apple's product names around a chip ("macbook air m2 16gb", "mac studio m2
// ultra"): the device database is by chip and memory, so the product words
// are dropped and the chip words resolve as typed; without a memory size the
// chip's memory choices answer as any ambiguous name does. Which product
// ships which chip is not checked (willfit holds no such table). "pro" alone
// is a chip word (M3 Pro), so only the phrases go, longest first.
constexpr std::array<std::array<std::string_view, 2>, 8> kAppleProductWords = {{
    {"macbook", "air"},
    {"macbook", "pro"},
    {"mac", "mini"},
    {"mac", "studio"},
    {"mac", "pro"},
    {"macbook", ""},
    {"imac", ""},
    {"mac", ""},
}};

void drop_apple_product_words(std::vector<std::string>& tokens) {
  for (std::size_t i = 0; i < tokens.size();) {
    std::size_t drop = 0;
    for (const auto& phrase : kAppleProductWords) {
      if (tokens[i] != phrase[0]) {
        continue;
      }
      if (phrase[1].empty()) {
        drop = 1;
        break;
      }
      if (i + 1 < tokens.size() && tokens[i + 1] == phrase[1]) {
        drop = 2;
        break;
      }
    }
    if (drop == 0) {
      ++i;
      continue;
    }
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                 tokens.begin() + static_cast<std::ptrdiff_t>(i + drop));
  }
}

bool is_noise(std::string_view word) {
  return std::find(kNoiseWords.begin(), kNoiseWords.end(), word) != kNoiseWords.end();
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z');
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    out += w;
  }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// A memory size at the end of a query ("... 80 gb", "... 128gb"), as tokens.
struct SizeSuffix {
  std::vector<std::string> rest;
  double gib = 0;
};

std::optional<SizeSuffix> split_size(const std::vector<std::string>& tokens) {
  if (tokens.size() < 3) {
    return std::nullopt;
  }
  const std::string& unit = tokens.back();
  const std::string& number = tokens[tokens.size() - 2];
  if ((unit != "gb" && unit != "gib" && unit != "g") || !all_digits(number) || number.size() > 5) {
    return std::nullopt;
  }
  SizeSuffix s;
  s.rest.assign(tokens.begin(), tokens.end() - 2);
  s.gib = std::stod(number);
  return s;
}

// Marketed "N GB" is N GiB for GPUs and N x 10^9 for a few accelerators
// (see data/README.md): either matches.
bool memory_is(const Device& d, double gib) {
  const auto bin = static_cast<Bytes>(gib * static_cast<double>(kGiB));
  const auto dec = static_cast<Bytes>(gib * static_cast<double>(kGB));
  return d.memory_bytes == bin || d.memory_bytes == dec;
}

std::string candidate_list(const std::vector<Device>& devices,
                           const std::vector<std::size_t>& indices) {
  constexpr std::size_t kShown = 8;
  std::string out;
  for (std::size_t i = 0; i < indices.size() && i < kShown; ++i) {
    const Device& d = devices[indices[i]];
    out += fmt::format("{}{} ({})", i == 0 ? "" : ", ", d.name, d.id);
  }
  if (indices.size() > kShown) {
    out += fmt::format(" and {} more", indices.size() - kShown);
  }
  return out;
}

// ---- parsing --------------------------------------------------------------

class EntryReader {
 public:
  EntryReader(const Json& entry, std::string where) : entry_(entry), where_(std::move(where)) {}

  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool failed() const { return !error_.empty(); }

  void fail(const std::string& message) {
    if (error_.empty()) {
      error_ = where_ + ": " + message;
    }
  }

  // The value of a key, or nullptr when absent or null. Marks `required`
  // keys that are missing.
  const Json* get(const char* key, bool required) {
    const auto it = entry_.find(key);
    if (it == entry_.end()) {
      if (required) {
        fail(fmt::format("missing key '{}'", key));
      }
      return nullptr;
    }
    if (it->is_null()) {
      if (required) {
        fail(fmt::format("'{}' must not be null", key));
      }
      return nullptr;
    }
    return &*it;
  }

  std::string string(const char* key, bool required) {
    const Json* v = get(key, required);
    if (v == nullptr) {
      return "";
    }
    if (!v->is_string()) {
      fail(fmt::format("'{}' must be a string, not {}", key, v->type_name()));
      return "";
    }
    auto s = v->get<std::string>();
    if (required && trim(s).empty()) {
      fail(fmt::format("'{}' must not be empty", key));
    }
    return s;
  }

  std::optional<double> number(const char* key, bool required, double lo, double hi) {
    const Json* v = get(key, required);
    if (v == nullptr) {
      return std::nullopt;
    }
    if (!v->is_number()) {
      fail(fmt::format("'{}' must be a number, not {}", key, v->type_name()));
      return std::nullopt;
    }
    const auto x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) {
      fail(fmt::format("'{}' is {}, outside {} to {}", key, v->dump(), lo, hi));
      return std::nullopt;
    }
    return x;
  }

  std::optional<std::int64_t> integer(const char* key, bool required, std::int64_t lo,
                                      std::int64_t hi) {
    const Json* v = get(key, required);
    if (v == nullptr) {
      return std::nullopt;
    }
    if (!v->is_number_integer()) {
      fail(fmt::format("'{}' must be a whole number, not {}", key,
                       v->is_number() ? v->dump() : v->type_name()));
      return std::nullopt;
    }
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
      fail(fmt::format("'{}' is {}, outside {} to {}", key, v->dump(), lo, hi));
      return std::nullopt;
    }
    const auto x = v->get<std::int64_t>();
    if (x < lo || x > hi) {
      fail(fmt::format("'{}' is {}, outside {} to {}", key, x, lo, hi));
      return std::nullopt;
    }
    return x;
  }

  const Json& entry() const { return entry_; }

 private:
  const Json& entry_;
  std::string where_;
  std::string error_;
};

std::optional<DeviceKind> kind_from(std::string_view s) {
  for (auto k :
       {DeviceKind::DiscreteGpu, DeviceKind::Unified, DeviceKind::Accelerator, DeviceKind::Cpu}) {
    if (to_string(k) == s) {
      return k;
    }
  }
  return std::nullopt;
}

bool valid_id(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return is_digit(c) || is_alpha(c) || c == '-' || c == '.' || c == '_';
  });
}

void read_interconnect(EntryReader& r, Device& d) {
  const Json* ic = r.get("interconnect", false);
  if (ic == nullptr) {
    return;
  }
  if (!ic->is_object()) {
    r.fail(fmt::format("'interconnect' must be an object, not {}", ic->type_name()));
    return;
  }
  EntryReader sub(*ic, "");
  d.interconnect.bus = sub.string("bus", false);
  d.interconnect.pcie_gen = static_cast<int>(sub.integer("pcie_gen", false, 1, 9).value_or(0));
  d.interconnect.nvlink_gb_per_s = sub.number("nvlink_gb_per_s", false, 0.001, 1e6);
  if (sub.failed()) {
    r.fail("interconnect." + sub.error().substr(2));
  }
}

// NVIDIA writes a compute capability as major.minor with one minor digit
// ("6.1" to "12.1"): the data keeps it as that string, which holds 12.0 apart
// from 12 and 8.1 from 8.10 as a JSON number would not. Stored as major x 10
// + minor. Only an NVIDIA device has one.
void read_compute_capability(EntryReader& r, Device& d) {
  const Json* v = r.get("compute_capability", false);
  if (v == nullptr) {
    return;
  }
  if (!v->is_string()) {
    r.fail(fmt::format("'compute_capability' must be a string such as \"8.9\", not {}",
                       v->is_number() ? "the number " + v->dump() : v->type_name()));
    return;
  }
  const auto s = v->get<std::string>();
  const auto dot = s.find('.');
  const bool shape = dot != std::string::npos && dot >= 1 && dot <= 2 && s.size() == dot + 2 &&
                     all_digits(std::string_view(s).substr(0, dot)) && is_digit(s[dot + 1]) &&
                     s[0] != '0';
  if (!shape) {
    r.fail(fmt::format(
        "'compute_capability' \"{}\" is not major.minor as NVIDIA writes it (\"8.9\", \"12.0\")",
        s));
    return;
  }
  if (d.vendor != "nvidia") {
    r.fail(fmt::format("'compute_capability' is NVIDIA's, and this device's vendor is '{}'",
                       d.vendor));
    return;
  }
  d.compute_capability = std::stoi(s.substr(0, dot)) * 10 + (s[dot + 1] - '0');
}

Expected<Device> read_device(const Json& entry, const std::string& where) {
  if (!entry.is_object()) {
    return make_error(where + ": must be an object, not " + entry.type_name());
  }
  EntryReader r(entry, where);
  Device d;
  d.id = r.string("id", true);
  if (!r.failed() && !valid_id(d.id)) {
    r.fail(fmt::format("id '{}' may hold only a-z, 0-9, '-', '.' and '_'", d.id));
  }
  d.vendor = to_lower(r.string("vendor", true));
  d.name = r.string("name", true);
  if (const Json* aliases = r.get("aliases", false)) {
    if (!aliases->is_array()) {
      r.fail(fmt::format("'aliases' must be an array of strings, not {}", aliases->type_name()));
    } else {
      for (const auto& a : *aliases) {
        if (!a.is_string()) {
          r.fail(fmt::format("'aliases' must hold strings, not {}", a.type_name()));
          break;
        }
        d.aliases.push_back(a.get<std::string>());
      }
    }
  }
  const std::string kind = r.string("kind", true);
  if (!r.failed()) {
    if (auto k = kind_from(kind)) {
      d.kind = *k;
    } else {
      r.fail(fmt::format("kind '{}' is not discrete_gpu, unified, accelerator or cpu", kind));
    }
  }
  if (const Json* laptop = r.get("laptop", false)) {
    if (!laptop->is_boolean()) {
      r.fail(fmt::format("'laptop' must be true or false, not {}", laptop->type_name()));
    } else {
      d.laptop = laptop->get<bool>();
    }
  }
  // Memory: required for everything but a CPU platform, whose size depends
  // on the DIMMs installed (null there).
  const bool cpu = d.kind == DeviceKind::Cpu;
  if (!r.failed()) {
    if (cpu && entry.contains("memory_bytes") && entry["memory_bytes"].is_null()) {
      d.memory_bytes = 0;
    } else {
      d.memory_bytes = r.integer("memory_bytes", true, 1, 64 * kTiB).value_or(0);
    }
  }
  d.memory_marketed = r.string("memory_marketed", false);
  if (d.memory_marketed.empty() && d.memory_bytes > 0) {
    d.memory_marketed = format_iec(d.memory_bytes);  // a user's entry may leave it out
  }
  d.memory_type = r.string("memory_type", false);
  d.bandwidth_gb_per_s = r.number("bandwidth_gb_per_s", true, 0.001, 1e6);
  d.fp32_tflops = r.number("fp32_tflops", false, 0.0001, 1e6);
  d.fp16_tflops_dense = r.number("fp16_tflops_dense", false, 0.0001, 1e6);
  d.bf16_tflops_dense = r.number("bf16_tflops_dense", false, 0.0001, 1e6);
  d.fp8_tflops_dense = r.number("fp8_tflops_dense", false, 0.0001, 1e6);
  d.int8_tops_dense = r.number("int8_tops_dense", false, 0.0001, 1e6);
  d.tdp_w = r.number("tdp_w", false, 0.1, 1e5);
  read_interconnect(r, d);
  if (auto year = r.integer("year", false, 1990, 2100)) {
    d.year = static_cast<int>(*year);
  }
  d.price_usd = r.number("price_usd", false, 0.01, 1e8);
  d.gpu_memory_fraction = r.number("gpu_memory_fraction", false, 0.01, 1.0);
  read_compute_capability(r, d);
  d.notes = r.string("notes", false);
  d.source = r.string("source", true);
  if (r.failed()) {
    return make_error(r.error());
  }
  return d;
}

}  // namespace

// ---- names ----------------------------------------------------------------

std::vector<std::string> device_tokens(std::string_view name) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && !is_noise(word)) {
      out.push_back(word);
    }
    word.clear();
  };
  for (char raw : name) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
    if (!is_digit(c) && !is_alpha(c)) {
      flush();
      continue;
    }
    if (!word.empty() && is_digit(c) != is_digit(word.back())) {
      flush();
    }
    word += c;
  }
  flush();
  drop_apple_product_words(out);
  return out;
}

std::string device_key(std::string_view name) {
  return join(device_tokens(name));
}

// ---- the database ---------------------------------------------------------

DeviceDb::DeviceDb(std::vector<Device> devices, std::string data_version, std::string origin)
    : devices_(std::move(devices)),
      data_version_(std::move(data_version)),
      origin_(std::move(origin)) {
  build_index();
}

void DeviceDb::build_index() {
  keys_.clear();
  token_sets_.clear();
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    const Device& d = devices_[i];
    std::vector<std::string> names = d.aliases;
    names.push_back(d.id);
    names.push_back(d.name);
    for (const auto& n : names) {
      auto tokens = device_tokens(n);
      if (tokens.empty()) {
        continue;
      }
      auto& slot = keys_[join(tokens)];
      if (std::find(slot.begin(), slot.end(), i) == slot.end()) {
        slot.push_back(i);
      }
      std::sort(tokens.begin(), tokens.end());
      token_sets_.emplace_back(i, std::move(tokens));
    }
  }
  // Each word's names (token_sets_ in order, each once), for partial().
  word_sets_.clear();
  for (std::size_t set = 0; set < token_sets_.size(); ++set) {
    const auto& words = token_sets_[set].second;
    for (std::size_t w = 0; w < words.size(); ++w) {
      if (w == 0 || words[w] != words[w - 1]) {  // sorted: repeats are adjacent
        word_sets_[words[w]].push_back(set);
      }
    }
  }
  // The keys "did you mean" compares with, in an order that does not depend
  // on hashing: database order of the first device with the key, then key.
  std::vector<std::pair<std::size_t, const std::string*>> order;
  order.reserve(keys_.size());
  for (const auto& [key, indices] : keys_) {
    order.emplace_back(indices.front(), &key);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : *a.second < *b.second;
  });
  std::vector<std::string> keys;
  keys.reserve(order.size());
  for (const auto& [index, key] : order) {
    keys.push_back(*key);
  }
  suggestion_keys_ = Candidates(std::move(keys));
}

const Device* DeviceDb::by_id(std::string_view id) const {
  for (const auto& d : devices_) {
    if (d.id == id) {
      return &d;
    }
  }
  return nullptr;
}

std::vector<std::size_t> DeviceDb::exact(const std::string& key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? std::vector<std::size_t>{} : it->second;
}

std::vector<std::size_t> DeviceDb::partial(const std::vector<std::string>& tokens) const {
  std::vector<std::string> wanted = tokens;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  // Only the names holding the rarest wanted word can hold them all (and none
  // can when a word is in no name); with no words, every name does.
  const std::vector<std::size_t>* sets = nullptr;
  for (const auto& word : wanted) {
    const auto it = word_sets_.find(word);
    if (it == word_sets_.end()) {
      return {};
    }
    if (sets == nullptr || it->second.size() < sets->size()) {
      sets = &it->second;
    }
  }
  std::vector<std::size_t> out;
  const auto consider = [&](std::size_t set) {
    const auto& [index, have] = token_sets_[set];
    if (std::includes(have.begin(), have.end(), wanted.begin(), wanted.end()) &&
        std::find(out.begin(), out.end(), index) == out.end()) {
      out.push_back(index);
    }
  };
  if (sets == nullptr) {
    for (std::size_t set = 0; set < token_sets_.size(); ++set) {
      consider(set);
    }
  } else {
    for (std::size_t set : *sets) {
      consider(set);
    }
  }
  return out;
}

DeviceDb::Located DeviceDb::locate(std::string_view name) const {
  Located out;
  out.malformed = malformed_device_text(name);
  if (out.malformed) {
    return out;
  }
  const auto tokens = device_tokens(name);
  if (tokens.empty()) {
    out.no_name = true;
    return out;
  }
  out.found = exact(join(tokens));
  const auto size = split_size(tokens);
  if (out.found.empty() && size) {
    const auto rest = exact(join(size->rest));
    if (rest.size() == 1) {
      const Device& d = devices_[rest.front()];
      if (memory_is(d, size->gib)) {
        out.found = rest;
        return out;
      }
      if (d.kind == DeviceKind::Cpu && d.memory_bytes == 0) {
        out.sized = sized_system_memory(d, size->gib);
        return out;
      }
    }
  }
  if (out.found.empty()) {
    out.found = base_products(tokens, partial(tokens));
    if (size) {
      for (std::size_t i : partial(size->rest)) {
        if (memory_is(devices_[i], size->gib) &&
            std::find(out.found.begin(), out.found.end(), i) == out.found.end()) {
          out.found.push_back(i);
        }
      }
    }
  }
  return out;
}

namespace {
// A bare number that names no one device ("24", "80"): a memory size
// without its unit, which find() says so of rather than listing matches.
bool unitless_size(const std::string& shown) {
  return all_digits(shown) && shown.size() <= 4 && std::stoi(shown) <= 1024;
}
}  // namespace

NameMatch DeviceDb::match(std::string_view name) const {
  const Located at = locate(name);
  if (at.sized || at.found.size() == 1) {
    return NameMatch::Found;
  }
  // As find(): a unit-less size is no ambiguous name.
  return at.found.size() > 1 && !unitless_size(trim(name)) ? NameMatch::Ambiguous
                                                           : NameMatch::Unknown;
}

Expected<Device> DeviceDb::find(std::string_view name) const {
  const std::string shown = trim(name);
  Located at = locate(name);
  if (at.malformed) {
    return *at.malformed;
  }
  if (at.no_name) {
    return make_error(
        fmt::format("no device named in '{}': try 'willfit devices' for the list", shown));
  }
  if (at.sized) {
    return std::move(*at.sized);
  }
  if (at.found.size() == 1) {
    return devices_[at.found.front()];
  }
  // A bare number that names no one device ("24", "80") is most likely a
  // memory size without its unit: say so rather than list the Apple parts
  // of that size or offer the nearest names.
  if (unitless_size(shown)) {
    return make_error(fmt::format(
        "device '{}' is a number: a memory size needs a unit, e.g. --device {}gb (GB of "
        "GPU memory); 'willfit devices \"{}\"' lists the devices of that name",
        shown, shown, shown));
  }
  if (at.found.size() > 1) {
    return make_error(
        fmt::format("device '{}' {}: {}; name one of them (memory size, "
                    "form factor) or see: willfit devices \"{}\"",
                    shown, kAmbiguous, candidate_list(devices_, at.found), shown));
  }
  const std::string hint = did_you_mean(suggest(name));
  return make_error(
      fmt::format("unknown device '{}'{}{} ('willfit devices' lists them; a size "
                  "like '24gb' works too)",
                  shown, hint.empty() ? "" : ": ", hint));
}

namespace {

// True when `have` (one name's sorted words) holds the sorted words `typed`
// plus only form-factor words and numbers ("h100" -> "h100 pcie", "H100 NVL
// 94GB", "rtx 3060" -> "rtx 3060 12gb"); any other word makes it another
// product ("rtx 4090" is not the "rtx 4090 d" or the "rtx 4090 laptop", "rtx
// 3060" not the "rtx 3060 ti").
bool form_only_extra(const std::vector<std::string>& have, const std::vector<std::string>& typed) {
  static const std::set<std::string, std::less<>> kFormWords = {
      "pcie", "pci", "sxm", "nvl", "hgx", "dgx", "oam", "gb", "hbm", "hbm3", "hbm3e"};
  if (!std::includes(have.begin(), have.end(), typed.begin(), typed.end())) {
    return false;
  }
  std::vector<std::string> extra;
  std::set_difference(have.begin(), have.end(), typed.begin(), typed.end(),
                      std::back_inserter(extra));
  return !extra.empty() && std::all_of(extra.begin(), extra.end(), [](const std::string& w) {
    return all_digits(w) || kFormWords.contains(w);
  });
}

}  // namespace

std::vector<std::size_t> DeviceDb::base_products(const std::vector<std::string>& tokens,
                                                 std::vector<std::size_t> found) const {
  // Among several parts a name finds, those that are the named product in
  // another size or form ("rtx 3060": the 12GB and the 8GB) are what it
  // names; a product of its own whose name only starts the same way (the RTX
  // 3060 Ti) is left out. When none is such a variant, all stay.
  if (found.size() < 2) {
    return found;
  }
  std::vector<std::string> typed = tokens;
  std::sort(typed.begin(), typed.end());
  typed.erase(std::unique(typed.begin(), typed.end()), typed.end());
  std::vector<std::size_t> base;
  for (const auto& [index, have] : token_sets_) {
    if (std::find(found.begin(), found.end(), index) != found.end() &&
        std::find(base.begin(), base.end(), index) == base.end() && form_only_extra(have, typed)) {
      base.push_back(index);
    }
  }
  if (base.empty()) {
    return found;
  }
  // Keep the order partial() gave.
  std::erase_if(
      found, [&](std::size_t i) { return std::find(base.begin(), base.end(), i) == base.end(); });
  return found;
}

std::vector<const Device*> DeviceDb::variants(std::string_view name,
                                              std::string_view chosen) const {
  // A part is a variant of the one found when one of its names holds the
  // words typed plus only form-factor words and numbers (form_only_extra).
  std::vector<const Device*> out;
  if (malformed_device_text(name)) {
    return out;
  }
  const auto tokens = device_tokens(name);
  std::vector<std::string> typed = tokens;
  std::sort(typed.begin(), typed.end());
  for (std::size_t set = 0; set < token_sets_.size(); ++set) {
    const auto& [index, have] = token_sets_[set];
    const Device& d = devices_[index];
    if (d.id == chosen || std::find(out.begin(), out.end(), &d) != out.end()) {
      continue;
    }
    if (form_only_extra(have, typed)) {
      out.push_back(&d);
    }
  }
  return out;
}

std::vector<std::string> DeviceDb::suggest(std::string_view name) const {
  // The closest keys (sorted once, in build_index), as ids the user can type.
  std::vector<std::string> ids;
  for (const auto& key : closest(device_key(name), suggestion_keys_, 12)) {
    const auto& id = devices_[exact(key).front()].id;
    if (std::find(ids.begin(), ids.end(), id) == ids.end() && ids.size() < 3) {
      ids.push_back(id);
    }
  }
  return ids;
}

std::vector<std::string> DeviceDb::vendors() const {
  std::vector<std::string> out;
  for (const auto& d : devices_) {
    out.push_back(d.vendor);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool is_ambiguous_device_error(const Error& error) {
  // The message quotes the user's text, which may itself say "is ambiguous"
  // (found by fuzz_device: "2is ambiguous\tb"): only find's ambiguous error
  // starts with "device '" ("unknown device '...", "no device named ...").
  return error.message.rfind("device '", 0) == 0 &&
         error.message.find(kAmbiguous) != std::string::npos;
}

std::vector<const Device*> DeviceDb::search(std::string_view query) const {
  const auto tokens = device_tokens(query);
  std::vector<std::size_t> found;
  if (tokens.empty()) {
    // "" lists everything; a vendor or product-line word alone ("nvidia",
    // "geforce") is matched against vendors and names as written.
    const std::string word = to_lower(trim(query));
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      if (word.empty() || devices_[i].vendor == word ||
          to_lower(devices_[i].name).find(word) != std::string::npos) {
        found.push_back(i);
      }
    }
  } else {
    found = partial(tokens);
    for (std::size_t i : exact(join(tokens))) {
      if (std::find(found.begin(), found.end(), i) == found.end()) {
        found.push_back(i);
      }
    }
    std::sort(found.begin(), found.end());
  }
  std::vector<const Device*> out;
  for (std::size_t i : found) {
    out.push_back(&devices_[i]);
  }
  return out;
}

DeviceDb DeviceDb::merged_with(const DeviceDb& overlay) const {
  std::vector<Device> out = devices_;
  for (const auto& d : overlay.devices()) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Device& x) { return x.id == d.id; });
    if (it != out.end()) {
      *it = d;
    } else {
      out.push_back(d);
    }
  }
  return DeviceDb(std::move(out), data_version_, origin_ + " + " + overlay.origin());
}

namespace {

// What every willfit database file shares: one JSON object, an optional
// schema_version (1), an optional data_version, and an array under `list_key`.
struct Document {
  Json doc;
  std::string data_version;
};

Expected<Document> open_document(std::string_view json, const std::string& where,
                                 const char* list_key) {
  Document d;
  try {
    d.doc = Json::parse(json.begin(), json.end());
  } catch (const Json::exception& e) {  // parse errors, and numbers out of range
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    if (const auto pos = what.find("] "); pos != std::string::npos) {
      what = what.substr(pos + 2);
    }
    return make_error(fmt::format("{}: not valid JSON: {}", where, what));
  }
  if (!d.doc.is_object()) {
    return make_error(fmt::format("{}: must be a JSON object with a '{}' array", where, list_key));
  }
  if (const auto it = d.doc.find("schema_version"); it != d.doc.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() != 1) {
      return make_error(fmt::format("{}: schema_version {} is not supported (this willfit reads 1)",
                                    where, it->dump()));
    }
  }
  if (const auto it = d.doc.find("data_version"); it != d.doc.end() && !it->is_null()) {
    if (!it->is_string()) {
      return make_error(fmt::format("{}: 'data_version' must be a string", where));
    }
    d.data_version = it->get<std::string>();
  }
  const auto list = d.doc.find(list_key);
  if (list == d.doc.end() || !list->is_array()) {
    return make_error(fmt::format("{}: missing the '{}' array", where, list_key));
  }
  return d;
}

}  // namespace

Expected<DeviceDb> parse_device_db(std::string_view json, std::string_view origin) {
  const std::string where(origin);
  auto opened = open_document(json, where, "devices");
  if (!opened) {
    return opened.error();
  }
  std::string data_version = std::move(opened->data_version);
  const auto list = opened->doc.find("devices");
  std::vector<Device> devices;
  devices.reserve(list->size());
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    std::string label = fmt::format("{}: devices[{}]", where, i);
    if (entry.is_object()) {
      if (const auto id = entry.find("id"); id != entry.end() && id->is_string()) {
        label += fmt::format(" ('{}')", id->get<std::string>());
      }
    }
    auto device = read_device(entry, label);
    if (!device) {
      return device.error();
    }
    if (!ids.insert(device->id).second) {
      return make_error(fmt::format("{}: duplicate id (an id names one entry)", label));
    }
    devices.push_back(std::move(*device));
  }
  return DeviceDb(std::move(devices), std::move(data_version), where);
}

// The rent table (rent.hpp) shares the database envelope, so it is parsed
// here; its arithmetic is in rent.cpp.
namespace {

constexpr int kMaxGpusPerInstance = 64;

Expected<std::string> text_field(const Json& row, const char* key, const std::string& label) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_string() || it->get<std::string>().empty()) {
    return make_error(fmt::format("{}: '{}' must be a non-empty string", label, key));
  }
  return it->get<std::string>();
}

Expected<RentOffer> read_offer(const Json& row, const std::string& label) {
  if (!row.is_object()) {
    return make_error(fmt::format("{}: must be an object", label));
  }
  RentOffer o;
  for (auto [key, field] : {std::pair{"device", &o.device}, std::pair{"provider", &o.provider},
                            std::pair{"date", &o.date}, std::pair{"source", &o.source}}) {
    auto v = text_field(row, key, label);
    if (!v) {
      return v.error();
    }
    *field = *v;
  }
  const auto gpus = row.find("gpus");
  if (gpus == row.end() || !gpus->is_number_integer() || gpus->get<std::int64_t>() < 1 ||
      gpus->get<std::int64_t>() > kMaxGpusPerInstance) {
    return make_error(
        fmt::format("{}: 'gpus' must be a whole number from 1 to {}", label, kMaxGpusPerInstance));
  }
  o.gpus = static_cast<int>(gpus->get<std::int64_t>());
  const auto price = row.find("usd_per_hour");
  if (price == row.end() || !price->is_number() || !(price->get<double>() > 0)) {
    return make_error(fmt::format("{}: 'usd_per_hour' must be a number above 0", label));
  }
  o.usd_per_hour = price->get<double>();
  return o;
}

}  // namespace

Expected<RentTable> parse_rent_table(std::string_view json, std::string_view origin) {
  const std::string where(origin);
  auto opened = open_document(json, where, "prices");
  if (!opened) {
    return opened.error();
  }
  const auto list = opened->doc.find("prices");
  if (list->empty()) {
    return make_error(fmt::format("{}: the 'prices' array is empty", where));
  }
  std::vector<RentOffer> offers;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto offer = read_offer((*list)[i], fmt::format("{}: prices[{}]", where, i));
    if (!offer) {
      return offer.error();
    }
    offers.push_back(std::move(*offer));
  }
  return RentTable(std::move(offers), std::move(opened->data_version), where);
}

std::string peek_data_version(std::string_view json) {
  constexpr std::string_view kKey = "\"data_version\"";
  const std::string_view head = json.substr(0, 2048);
  auto pos = head.find(kKey);
  if (pos == std::string_view::npos) {
    return "";
  }
  pos = head.find('"', head.find(':', pos + kKey.size()));
  const auto end = head.find('"', pos + 1);
  if (pos == std::string_view::npos || end == std::string_view::npos) {
    return "";
  }
  return std::string(head.substr(pos + 1, end - pos - 1));
}

// ---- finding without parsing everything -----------------------------------
//
// nlohmann's DOM parser reads the 285 KB embedded file at about 30 MB/s, which
// would make every named-device run several times slower than a plain one.
// The scan below only walks the bytes: strings are skipped with a tight loop,
// and only the five fields a lookup needs are decoded. Anything it does not
// expect (an escape other than \" \\ \/ \n \t, a missing key, a bad kind)
// sends the caller to the full parser, which reports the problem properly.

namespace {

struct Stub {
  Device device;  // id, name, aliases, kind, memory_bytes only
  std::size_t begin = 0;
  std::size_t end = 0;
};

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  std::optional<std::vector<Stub>> entries() {
    std::vector<Stub> out;
    if (!eat('{')) {
      return std::nullopt;
    }
    if (eat('}')) {
      return std::nullopt;
    }
    do {
      auto key = str();
      if (!key || !eat(':')) {
        return std::nullopt;
      }
      if (*key == "devices") {
        if (!eat('[')) {
          return std::nullopt;
        }
        if (!eat(']')) {
          do {
            auto stub = entry();
            if (!stub) {
              return std::nullopt;
            }
            out.push_back(std::move(*stub));
          } while (eat(','));
          if (!eat(']')) {
            return std::nullopt;
          }
        }
      } else if (!skip_value()) {
        return std::nullopt;
      }
    } while (eat(','));
    if (!eat('}')) {
      return std::nullopt;
    }
    return out;
  }

 private:
  std::optional<Stub> entry() {
    ws();
    Stub stub;
    stub.begin = i_;
    if (!eat('{')) {
      return std::nullopt;
    }
    bool has_id = false;
    bool has_kind = false;
    do {
      auto key = str();
      if (!key || !eat(':')) {
        return std::nullopt;
      }
      Device& d = stub.device;
      if (*key == "id" || *key == "name" || *key == "kind") {
        auto v = str();
        if (!v) {
          return std::nullopt;
        }
        if (*key == "id") {
          d.id = std::move(*v);
          has_id = true;
        } else if (*key == "name") {
          d.name = std::move(*v);
        } else if (auto k = kind_from(*v)) {
          d.kind = *k;
          has_kind = true;
        } else {
          return std::nullopt;
        }
      } else if (*key == "aliases") {
        if (!eat('[')) {
          return std::nullopt;
        }
        if (!eat(']')) {
          do {
            auto a = str();
            if (!a) {
              return std::nullopt;
            }
            d.aliases.push_back(std::move(*a));
          } while (eat(','));
          if (!eat(']')) {
            return std::nullopt;
          }
        }
      } else if (*key == "memory_bytes") {
        ws();
        const std::size_t start = i_;
        if (!skip_value()) {
          return std::nullopt;
        }
        const std::string_view text = s_.substr(start, i_ - start);
        if (text != "null") {
          Bytes v = 0;
          const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
          if (ec != std::errc() || ptr != text.data() + text.size()) {
            return std::nullopt;
          }
          d.memory_bytes = v;
        }
      } else if (!skip_value()) {
        return std::nullopt;
      }
    } while (eat(','));
    if (!eat('}') || !has_id || !has_kind) {
      return std::nullopt;
    }
    stub.end = i_;
    return stub;
  }

  void ws() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) {
      ++i_;
    }
  }

  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  std::optional<std::string> str() {
    ws();
    if (i_ >= s_.size() || s_[i_] != '"') {
      return std::nullopt;
    }
    ++i_;
    std::string out;
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') {
        return out;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) {
        return std::nullopt;
      }
      const char e = s_[i_++];
      if (e == '"' || e == '\\' || e == '/') {
        out += e;
      } else if (e == 'n') {
        out += '\n';
      } else if (e == 't') {
        out += '\t';
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  bool skip_string() {
    ++i_;  // the opening quote
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') {
        return true;
      }
      if (c == '\\') {
        ++i_;
      }
    }
    return false;
  }

  bool skip_value() {
    ws();
    if (i_ >= s_.size()) {
      return false;
    }
    const char c = s_[i_];
    if (c == '"') {
      return skip_string();
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      while (i_ < s_.size()) {
        const char x = s_[i_];
        if (x == '"') {
          if (!skip_string()) {
            return false;
          }
          continue;
        }
        ++i_;
        if (x == '{' || x == '[') {
          ++depth;
        } else if (x == '}' || x == ']') {
          if (--depth == 0) {
            return true;
          }
        }
      }
      return false;
    }
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
           s_[i_] != '\n' && s_[i_] != '\r' && s_[i_] != '\t') {
      ++i_;
    }
    return i_ > start;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

DeviceScan::DeviceScan(std::string_view json, std::string_view origin)
    : json_(json), origin_(origin) {
  auto stubs = Scanner(json).entries();
  if (!stubs) {
    full_.emplace(parse_device_db(json, origin));
    return;
  }
  std::vector<Device> devices;
  std::set<std::string> ids;
  for (const auto& stub : *stubs) {
    if (!ids.insert(stub.device.id).second) {
      full_.emplace(parse_device_db(json, origin));  // duplicate ids: the full parse says which
      return;
    }
    devices.push_back(stub.device);
    spans_.emplace_back(stub.begin, stub.end);
  }
  index_ = DeviceDb(std::move(devices), "", origin_);
  read_.resize(spans_.size());
}

NameMatch DeviceScan::match(std::string_view name) const {
  if (full_) {
    return *full_ ? (*full_)->match(name) : NameMatch::Unknown;
  }
  return index_.match(name);
}

std::vector<std::string> DeviceScan::variants(std::string_view name,
                                              std::string_view chosen) const {
  std::vector<std::string> out;
  if (full_) {
    if (*full_) {
      for (const Device* d : (*full_)->variants(name, chosen)) {
        out.push_back(d->id);
      }
    }
    return out;
  }
  for (const Device* d : index_.variants(name, chosen)) {
    out.push_back(d->id);
  }
  return out;
}

Expected<Device> DeviceScan::find(std::string_view name) const {
  if (full_) {
    if (!*full_) {
      return full_->error();
    }
    return (*full_)->find(name);
  }
  auto hit = index_.find(name);
  if (!hit) {
    return hit.error();
  }
  const auto& stubs = index_.devices();
  for (std::size_t i = 0; i < stubs.size(); ++i) {
    if (stubs[i].id != hit->id) {
      continue;
    }
    std::optional<Expected<Device>> read;
    {
      const std::lock_guard<std::mutex> lock(read_mutex_);
      read = read_[i];
    }
    if (!read) {
      const auto [begin, end] = spans_[i];
      Json entry;
      try {
        entry = Json::parse(json_.substr(begin, end - begin));
      } catch (const Json::exception&) {
        break;
      }
      read = read_device(entry, fmt::format("{}: devices[{}] ('{}')", origin_, i, hit->id));
      const std::lock_guard<std::mutex> lock(read_mutex_);
      read_[i] = read;
    }
    auto device = std::move(*read);
    if (!device) {
      return device.error();
    }
    if (hit->memory_bytes != stubs[i].memory_bytes) {  // system memory given a size
      device->memory_bytes = hit->memory_bytes;
      device->memory_marketed = hit->memory_marketed;
    }
    return device;
  }
  auto db = parse_device_db(json_, origin_);
  if (!db) {
    return db.error();
  }
  return db->find(name);
}

Expected<Device> find_device_in(std::string_view json, std::string_view origin,
                                std::string_view name) {
  return DeviceScan(json, origin).find(name);
}

// ---- --device values ------------------------------------------------------

std::optional<Error> malformed_device_text(std::string_view text) {
  const std::string lowered = to_lower(trim(text));
  if (lowered.empty()) {
    return std::nullopt;
  }
  // A size: an optional sign, a number (digits, '.', an exponent) or nan /
  // inf, then a unit; a signed or nan/inf one needs no unit.
  std::string_view s = lowered;
  const bool sign = s.front() == '-' || s.front() == '+';
  if (sign) {
    s.remove_prefix(1);
  }
  bool unit = false;
  for (const std::string_view u :
       {"tib", "gib", "mib", "kib", "tb", "gb", "mb", "kb", "t", "g", "m", "k", "b"}) {
    if (s.size() > u.size() && s.ends_with(u)) {
      s.remove_suffix(u.size());
      unit = true;
      break;
    }
  }
  while (!s.empty() && s.back() == ' ') {
    s.remove_suffix(1);
  }
  const bool not_a_number = s == "nan" || s == "inf" || s == "infinity";
  const bool number = !s.empty() && s.find_first_of("0123456789") != std::string_view::npos &&
                      s.find_first_not_of("0123456789.e+-") == std::string_view::npos;
  if ((number && (unit || sign)) || (not_a_number && (unit || sign))) {
    auto bytes = parse_capacity(text);
    if (!bytes) {
      return bytes.error();
    }
    return std::nullopt;
  }
  if (!is_digit(lowered.front()) && !is_alpha(lowered.front())) {
    return Error{
        fmt::format("invalid device '{}': a device name starts with a letter or a digit "
                    "('willfit devices' lists them; a size like '24gb' works too)",
                    trim(text))};
  }
  return std::nullopt;
}

bool is_capacity_text(std::string_view text) {
  const auto bytes = parse_capacity(text);
  if (!bytes) {
    return false;
  }
  const bool has_unit = std::any_of(text.begin(), text.end(), [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
  });
  return has_unit || *bytes >= kMiB;
}

namespace {

// Where a '+' joins two devices. AMD sells a "Ryzen AI Max+ 395": a '+' that
// ends a word of letters and is followed by a space, a digit or the end is
// part of the name; any other '+' separates ("rtx 4090+rtx 3090", "24gb+16gb",
// "m2 max + m3 max").
bool is_device_separator(const std::string& all, std::size_t at) {
  if (at == 0 || all[at - 1] == ' ') {
    return true;
  }
  std::size_t word = at;
  while (word > 0 && all[word - 1] != ' ' && all[word - 1] != '+') {
    --word;
  }
  const bool letters = std::all_of(all.begin() + static_cast<std::ptrdiff_t>(word),
                                   all.begin() + static_cast<std::ptrdiff_t>(at), [](char c) {
                                     return std::isalpha(static_cast<unsigned char>(c)) != 0;
                                   });
  const bool name_end = at + 1 == all.size() || all[at + 1] == ' ' || is_digit(all[at + 1]);
  return !(letters && name_end);
}

// The ways one part of a --device value can be read as a count and a
// device, in the order tried: "2x rtx 3090" / "2 x 24gb" (count first),
// "rtx 3090 x2" / "3090x2" (count last), "h100:8".
struct CountReading {
  std::string count;
  std::string name;
};

std::vector<CountReading> count_readings(const std::string& part) {
  std::vector<CountReading> out;
  std::size_t digits = 0;
  while (digits < part.size() && is_digit(part[digits])) {
    ++digits;
  }
  std::size_t after = digits;
  while (after < part.size() && part[after] == ' ') {
    ++after;
  }
  if (digits > 0 && after + 1 < part.size() && (part[after] == 'x' || part[after] == 'X')) {
    std::string name = trim(part.substr(after + 1));
    if (!name.empty()) {
      out.push_back({part.substr(0, digits), std::move(name)});
    }
  }
  std::size_t first = part.size();
  while (first > 0 && is_digit(part[first - 1])) {
    --first;
  }
  std::size_t before = first;
  while (before > 0 && part[before - 1] == ' ') {
    --before;
  }
  // The 'x' stands apart from the name: after a space, a digit or a size
  // ("4090 x2", "3090x2", "24gbx2"), never the end of a word ("rtx 4090").
  if (first < part.size() && before > 1 && (part[before - 1] == 'x' || part[before - 1] == 'X')) {
    std::string name = trim(part.substr(0, before - 1));
    if (!name.empty() &&
        (part[before - 2] == ' ' || is_digit(part[before - 2]) || is_capacity_text(name))) {
      out.push_back({part.substr(first), std::move(name)});
    }
  }
  return out;
}

bool count_in_range(const std::string& count) {
  return count.size() <= 5 && std::stoll(count) >= 1 && std::stoll(count) <= kMaxDeviceCount;
}

// One part of a --device value (no '+' in it) as a count and a name.
Expected<DeviceSpecPart> parse_device_part(const std::string& part, std::string_view whole,
                                           const DeviceNameCheck& known) {
  const auto match = [&](const std::string& name) {
    if (is_capacity_text(name)) {
      return NameMatch::Found;
    }
    return known ? known(name) : NameMatch::Found;
  };
  if ((known || is_capacity_text(part)) && match(part) != NameMatch::Unknown) {
    return DeviceSpecPart{part, 1};
  }
  std::vector<CountReading> readings = count_readings(part);
  if (const auto colon = part.rfind(':'); colon != std::string::npos) {
    CountReading r{trim(part.substr(colon + 1)), trim(part.substr(0, colon))};
    if (!all_digits(r.count) || r.name.empty()) {
      return make_error(
          fmt::format("invalid device '{}': write a count after ':' as in 'h100:8'", trim(whole)));
    }
    readings.push_back(std::move(r));
  }
  // The first reading whose name is a device; else one whose name is
  // ambiguous, with a count in range (the lookup then says which devices it
  // could be); else any with a count in range ("2x foo": the lookup says
  // 'foo' is unknown); else the part is a name as a whole ("7900 xtz").
  const CountReading* chosen = nullptr;
  for (const auto& r : readings) {
    if (match(r.name) == NameMatch::Found) {
      chosen = &r;
      break;
    }
  }
  for (const auto& r : readings) {
    if (chosen == nullptr && count_in_range(r.count) && match(r.name) == NameMatch::Ambiguous) {
      chosen = &r;
    }
  }
  for (const auto& r : readings) {
    if (chosen == nullptr && count_in_range(r.count)) {
      chosen = &r;
    }
  }
  if (chosen == nullptr) {
    return DeviceSpecPart{part, 1};
  }
  if (!count_in_range(chosen->count)) {
    return make_error(fmt::format("invalid device count {} in '{}': use 1 to {}", chosen->count,
                                  trim(whole), kMaxDeviceCount));
  }
  return DeviceSpecPart{chosen->name, static_cast<int>(std::stoll(chosen->count))};
}

}  // namespace

Expected<std::vector<DeviceSpecPart>> parse_device_spec(std::string_view text,
                                                        const DeviceNameCheck& known) {
  const std::string all = trim(text);
  if (all.find(',') != std::string::npos) {
    return make_error(fmt::format(
        "',' in device '{}': join the devices of one machine with '+' (e.g. 'rtx 4090+rtx "
        "3090'); a comma lists devices to compare in a grid, which only 'willfit MODEL' draws",
        all));
  }
  std::vector<DeviceSpecPart> parts;
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t plus = all.find('+', start);
    while (plus != std::string::npos && !is_device_separator(all, plus)) {
      plus = all.find('+', plus + 1);
    }
    const std::size_t end = std::min(plus, all.size());
    std::string part = trim(std::string_view(all).substr(start, end - start));
    start = end + 1;
    if (part.empty()) {
      return make_error(fmt::format(
          "empty device in '{}': join devices with '+', e.g. 'rtx 4090+rtx 3090'", all));
    }
    auto p = parse_device_part(part, text, known);
    if (!p) {
      return p.error();
    }
    parts.push_back(std::move(*p));
    if (end == all.size()) {
      break;
    }
  }
  return parts;
}

}  // namespace willfit
