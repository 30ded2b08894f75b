// Fuzz target: the hub's model-info answer and file-tree pages (issue 15), untrusted JSON from
// the network, then the GGUF variant choice made from its file list. Odd
// types, missing fields and hostile paths are errors or skipped, never crashes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "sources/remote_model.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string json(reinterpret_cast<const char*>(data), size);
  // The same bytes as a page of the tree, and as a Link header.
  if (const auto tree = willfit::app::parse_hub_tree(json)) {
    for (const auto& f : *tree) {
      check(!f.path.empty() && f.path.find("..") == std::string::npos && f.path.front() != '/',
            "a tree path that escapes the repository");
    }
  }
  (void)willfit::app::link_next(json);
  const auto info = willfit::app::parse_hub_info(json);
  if (!info) {
    check(!info.error().message.empty(), "empty error message");
    return 0;
  }
  std::vector<std::string> paths;
  for (const auto& f : info->files) {
    check(!f.path.empty() && f.path.find("..") == std::string::npos && f.path.front() != '/',
          "a path that escapes the repository");
    paths.push_back(f.path);
  }
  const auto variants = willfit::app::gguf_variants(paths);
  const auto chosen = willfit::app::choose_gguf(variants, "", "repo");
  check(chosen.ok() == !variants.empty(), "a variant chosen from none, or none from some");
  if (chosen) {
    check(!chosen->files.empty(), "a variant without files");
  }
  return 0;
}
