// `willfit local`: the models already on this machine, in the stores a model
// name is read from first (docs/remote.md): Ollama's models directory
// (manifests/HOST/NS/NAME/TAG) and the Hugging Face cache (models--ORG--REPO).
// Each line is a name willfit takes as MODEL. It reads directory names only.
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "sources/stores.hpp"

namespace willfit::app {
namespace {

constexpr const char* kOllamaRegistry = "registry.ollama.ai";

std::vector<std::string> directories(const Environment& env, const std::string& dir) {
  std::vector<std::string> out;
  if (auto names = env.list_directory(dir)) {
    for (const std::string& n : *names) {
      if (env.is_directory(dir + "/" + n)) {
        out.push_back(n);
      }
    }
  }
  return out;
}

// Ollama's tags as `ollama list` names them: NAME:TAG for the library
// (registry.ollama.ai/library), NS/NAME:TAG for a user's namespace, and
// HOST/NS/NAME:TAG elsewhere (hf.co/ORG/REPO:QUANT).
std::vector<std::string> ollama_tags(const Environment& env, const std::string& root) {
  std::vector<std::string> out;
  const std::string manifests = root + "/manifests";
  for (const std::string& host : directories(env, manifests)) {
    for (const std::string& ns : directories(env, manifests + "/" + host)) {
      for (const std::string& name : directories(env, manifests + "/" + host + "/" + ns)) {
        const std::string dir = manifests + "/" + host + "/" + ns + "/" + name;
        auto tags = env.list_directory(dir);
        if (!tags) {
          continue;
        }
        for (const std::string& tag : *tags) {
          if (env.is_directory(dir + "/" + tag)) {
            continue;
          }
          const std::string prefix =
              host == kOllamaRegistry ? (ns == "library" ? "" : ns + "/") : host + "/" + ns + "/";
          out.push_back(fmt::format("{}{}:{}", prefix, name, tag));
        }
      }
    }
  }
  return out;
}

// The Hugging Face cache's model repositories, as ORG/REPO.
std::vector<std::string> hf_repos(const Environment& env, const std::string& root) {
  std::vector<std::string> out;
  for (const std::string& n : directories(env, root)) {
    if (n.rfind("models--", 0) != 0) {
      continue;
    }
    const std::string rest = n.substr(8);
    const auto sep = rest.find("--");
    if (sep == std::string::npos || sep == 0 || sep + 2 >= rest.size()) {
      continue;
    }
    out.push_back(rest.substr(0, sep) + "/" + rest.substr(sep + 2));
  }
  return out;
}

void print_store(std::ostream& out, const std::string& title, const std::string& root,
                 const std::vector<std::string>& names, const char* where_set) {
  if (root.empty()) {
    out << fmt::format("{}: no location known ({})\n", title, where_set);
    return;
  }
  out << fmt::format("{} ({}): {}\n", title, root,
                     names.empty() ? "none" : fmt::format("{}", names.size()));
  for (const std::string& n : names) {
    out << "  " << n << '\n';
  }
}

}  // namespace

int run_local(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{
      "List the models already on this machine that willfit reads without the network: "
      "Ollama's models directory and the Hugging Face cache. Each name works as MODEL.",
      "willfit local"};
  app.footer(
      "Examples:\n  willfit local\n  willfit qwen3:8b -d 8gb     # a tag listed here is read "
      "from its blob\n\nWhere: OLLAMA_MODELS, else ~/.ollama/models; HF_HUB_CACHE, else "
      "HF_HOME/hub, else ~/.cache/huggingface/hub.");
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  const std::string ollama = ollama_models_dir(ctx.env);
  const std::string hf = hf_hub_cache(ctx.env);
  print_store(ctx.out, "Ollama", ollama,
              ollama.empty() ? std::vector<std::string>{} : ollama_tags(ctx.env, ollama),
              "set OLLAMA_MODELS or HOME");
  print_store(ctx.out, "Hugging Face cache", hf,
              hf.empty() ? std::vector<std::string>{} : hf_repos(ctx.env, hf),
              "set HF_HUB_CACHE, HF_HOME or HOME");
  return 0;
}

}  // namespace willfit::app
