// The device database: parsing a devices JSON document (data/devices.json or
// a user's file) into Devices, merging a user file over it, and finding a
// device by the name people type. Pure: the caller passes bytes and a label
// for error messages; nothing here opens a file.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/text.hpp"
#include "willfit/devices/device.hpp"

namespace willfit {

// The key a device name is compared by: lowercase, vendor and product-line
// words dropped, spaces, dashes and punctuation removed, so "NVIDIA GeForce
// RTX 4090", "rtx4090", "RTX-4090" and "4090" all give "4090".
std::string device_key(std::string_view name);

// The words of a name after the same normalisation, split where letters meet
// digits ("a100 40gb" -> a, 100, 40, gb): used to find partial matches.
std::vector<std::string> device_tokens(std::string_view name);

// How a piece of a --device value reads against the device database: no
// device, several (ambiguous), or one.
enum class NameMatch { Unknown, Ambiguous, Found };

class DeviceDb {
 public:
  DeviceDb() = default;
  DeviceDb(std::vector<Device> devices, std::string data_version, std::string origin);

  [[nodiscard]] const std::vector<Device>& devices() const { return devices_; }
  [[nodiscard]] const std::string& data_version() const { return data_version_; }
  [[nodiscard]] const std::string& origin() const { return origin_; }

  // The device with this id, or nullptr.
  [[nodiscard]] const Device* by_id(std::string_view id) const;

  // Finds one device by name, id or alias (see device_db.cpp for the rules).
  // Errors: ambiguous (lists the candidates) or unknown ("did you mean ...?").
  [[nodiscard]] Expected<Device> find(std::string_view name) const;

  // What find would answer, without writing the error (no "did you mean"
  // scan): parse_device_spec asks this of every piece of a --device value.
  [[nodiscard]] NameMatch match(std::string_view name) const;

  // The other parts a name that found `chosen` also names, differing only in
  // form factor or memory size ("h100": the PCIe card and the NVL beside the
  // SXM5 the name answers): the answer states them, so the part assumed is
  // never a silent choice. Empty for a name that tells the parts apart.
  [[nodiscard]] std::vector<const Device*> variants(std::string_view name,
                                                    std::string_view chosen) const;
  // Every device whose name, id or alias holds all the words of `query`
  // (after normalisation), in database order; every device for "".
  [[nodiscard]] std::vector<const Device*> search(std::string_view query) const;

  // Up to three ids close to `name`, for "did you mean ...?".
  [[nodiscard]] std::vector<std::string> suggest(std::string_view name) const;

  // The vendors of the devices, sorted, each once ("amd", "apple", ...).
  [[nodiscard]] std::vector<std::string> vendors() const;

  // Entries of `overlay` replace entries with the same id; new ids are added.
  [[nodiscard]] DeviceDb merged_with(const DeviceDb& overlay) const;

 private:
  // What a name finds: no name at all, the matching devices, or a system-RAM
  // entry given the size the name asked for.
  struct Located {
    bool no_name = false;
    std::optional<Error> malformed;  // malformed_device_text's answer
    std::vector<std::size_t> found;
    std::optional<Device> sized;
  };
  [[nodiscard]] Located locate(std::string_view name) const;
  void build_index();
  [[nodiscard]] std::vector<std::size_t> exact(const std::string& key) const;
  [[nodiscard]] std::vector<std::size_t> partial(const std::vector<std::string>& tokens) const;
  [[nodiscard]] std::vector<std::size_t> base_products(const std::vector<std::string>& tokens,
                                                       std::vector<std::size_t> found) const;

  std::vector<Device> devices_;
  std::string data_version_;
  std::string origin_;
  // key -> device indices (more than one only if two entries share a name).
  std::unordered_map<std::string, std::vector<std::size_t>> keys_;
  // (device index, tokens of one of its names), for partial matches.
  std::vector<std::pair<std::size_t, std::vector<std::string>>> token_sets_;
  // word -> the token_sets_ holding it (ascending), for partial().
  std::unordered_map<std::string, std::vector<std::size_t>> word_sets_;
  // Every key once, in database order, for suggest().
  Candidates suggestion_keys_;
};

// Parses a devices document. `origin` names it in errors ("data/devices.json",
// a user's path). Every entry is validated; the first problem is returned as
// one line naming the origin and the entry.
Expected<DeviceDb> parse_device_db(std::string_view json, std::string_view origin);

// Finds one device in a devices document without building all of it: a quick
// scan reads each entry's id, name, aliases, kind and memory, the lookup runs
// on those, and only the entry found is parsed and validated. Same answers and
// errors as parse_device_db(json, origin)->find(name), except that entries not
// found are not validated: use it for data validated elsewhere (the embedded
// copy, which a unit test checks). Falls back to the full parse when the scan
// meets anything unusual.
Expected<Device> find_device_in(std::string_view json, std::string_view origin,
                                std::string_view name);

// find_device_in's scan, kept for many lookups: the document is scanned once
// (id, name, aliases, kind and memory of each entry) and each find parses
// only the entry it finds, once: a later find of the same entry copies it.
// Thread-safe. `json` must outlive the scan (the embedded copy, compiled in,
// does).
class DeviceScan {
 public:
  DeviceScan(std::string_view json, std::string_view origin);
  // As parse_device_db(json, origin)->find(name) and ->match(name).
  [[nodiscard]] Expected<Device> find(std::string_view name) const;
  [[nodiscard]] NameMatch match(std::string_view name) const;
  // As DeviceDb::variants, as ids (find reads each).
  [[nodiscard]] std::vector<std::string> variants(std::string_view name,
                                                  std::string_view chosen) const;

 private:
  std::string_view json_;
  std::string origin_;
  DeviceDb index_;                                          // the scanned stubs, in document order
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // each stub's bytes in json_
  // Each entry as read from its span, once found (index as spans_).
  mutable std::vector<std::optional<Expected<Device>>> read_;
  mutable std::mutex read_mutex_;
  // Set when the scan met anything unusual: the full parse, done once.
  std::optional<Expected<DeviceDb>> full_;
};

// The document's "data_version" read from its first few hundred bytes without
// parsing the whole file ("" when not there): --version runs on every start.
std::string peek_data_version(std::string_view json);

// One part of a --device value: a name or a capacity, and how many of it.
struct DeviceSpecPart {
  std::string name;  // "rtx 3090", "24gb"
  int count = 1;
};

// True for DeviceDb::find's (and find_device_in's) "ambiguous" error, as
// opposed to "unknown device".
bool is_ambiguous_device_error(const Error& error);

using DeviceNameCheck = std::function<NameMatch(std::string_view)>;

// Splits a --device value: "2x rtx 3090", "rtx 3090 x2", "3090x2",
// "rtx 4090+rtx 3090", "h100:8", "2x 24gb". A count is "N x" or "Nx" before
// the name, "x N" or "xN" after it, or ":N"; counts are 1 to kMaxDeviceCount.
// Numbers are also parts of names ("7900 xtx", "7900xtx"), so with `known`
// (the caller's database lookup) a part that names a device is a name first,
// and a count is read only where what remains is a device or a size. Without
// `known` (syntax only) the first count form found is the count. A '+' that
// ends a word of letters ("ryzen ai max+ 395") belongs to the name. A ',' is an
// error that says to use '+': commas separate the columns of a grid.
inline constexpr int kMaxDeviceCount = 1024;
Expected<std::vector<DeviceSpecPart>> parse_device_spec(std::string_view text,
                                                        const DeviceNameCheck& known = {});

// Why a --device piece is neither a device nor a size, before any lookup: it
// reads as a memory size that is not a valid one ("-24gb", "0gb", "nan gb",
// "1e999gb": parse_capacity's error), or it starts with a character no name
// starts with ("-rtx 4090", "=24gb"). The name matcher drops punctuation, so
// without this "-24gb" would be looked up as the devices of 24 GB and "-rtx
// 4090" found as the RTX 4090. nullopt for anything else.
std::optional<Error> malformed_device_text(std::string_view text);

// True when a --device part is a bare capacity ("8gb", "24GiB") rather than a
// device name. A bare number below 1 MiB is a name ("4090", "3060").
bool is_capacity_text(std::string_view text);

}  // namespace willfit
