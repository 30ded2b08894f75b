// Fuzz target: MODEL names. Arbitrary bytes through the catalogue's loose
// matching and its suggestions (the catalogue parsed once), and resolved as
// the CLI does (a size, a catalogue name or alias, an Ollama tag with a
// quantisation, a Hugging Face id; a path finds no file in the empty fake
// environment). That parses the catalogue each time (30 ms a run under the
// sanitizers), so only inputs up to 64 bytes whose first byte is a multiple
// of 8 take it. The
// contract: an error is a non-empty message; a model has a positive parameter
// count, active parameters no more than the total, and an architecture with
// every dimension set; at most three suggestions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sources/embedded_data.hpp"
#include "sources/environment.hpp"
#include "fuzz_check.hpp"
#include "sources/resolve.hpp"
#include "willfit/models/model_db.hpp"

using willfit::fuzz::check;

namespace {

const willfit::ModelDb& catalogue() {
  static const willfit::ModelDb db = [] {
    auto parsed = willfit::ModelDb::parse(willfit::app::embedded_models_json(), "embedded");
    check(parsed.ok(), "the embedded catalogue does not parse");
    return *parsed;
  }();
  return db;
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
  if (size == 0 || size > 64 || data[0] % 8 != 0) {
    return 0;
  }

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
