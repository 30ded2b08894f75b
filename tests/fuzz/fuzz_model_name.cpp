// Fuzz target: MODEL names. Arbitrary bytes through the catalogue's loose
// matching and its suggestions, and resolved as the CLI does (a size, a
// catalogue name or alias, an Ollama tag with a quantisation, a Hugging Face
// id; a path finds no file and the network is off in the empty fake
// environment). The catalogue is parsed once per process, as the CLI's
// sources keep it. The contract: an error is a non-empty message; a model has
// a positive parameter count, active parameters no more than the total, and
// an architecture with every dimension set; at most three suggestions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "sources/environment.hpp"
#include "sources/model_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/models/model_db.hpp"

using willfit::fuzz::check;

namespace {

const willfit::ModelDb& catalogue() {
  const auto& parsed = willfit::app::embedded_model_db();
  check(parsed.ok(), "the embedded catalogue does not parse");
  return *parsed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);

  const auto match = catalogue().find(text);
  if (match) {
    check(match->entry != nullptr, "a catalogue match without an entry", text);
  } else {
    check(!match.error().message.empty(), "empty error message", text);
  }
  check(catalogue().suggest(text).size() <= 3, "more than three suggestions", text);
  (void)willfit::model_name_key(text);
  const willfit::app::FakeEnvironment env;
  const auto model = willfit::app::resolve_model(text, env);
  if (!model) {
    check(!model.error().message.empty(), "empty error message", text);
    return 0;
  }
  check(model->params > 0, "a model without parameters", text);
  check(model->active_params > 0 && model->active_params <= model->params,
        "active parameters out of order", text);
  const auto& a = model->arch;
  check(a.layers >= 1 && a.hidden_size >= 1 && a.heads >= 1 && a.vocab_size >= 1,
        "a model architecture with an empty dimension", text);
  return 0;
}
