// Suggestions that must not be made: a second card for a laptop GPU, a
// context too short to chat in, a quantisation Ollama's library does not
// publish for a model named by its tag; and the words for a context the
// model's trained length caps (the suggestion and `max` alike).
#include <gtest/gtest.h>

#include <algorithm>

#include "willfit/planner/planner.hpp"
#include "willfit/planner/suggest.hpp"

namespace willfit {
namespace {

InferenceQuery query(const char* size, const char* precision, Device device) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  q.devices.text = device.name;
  q.devices.devices.push_back(std::move(device));
  return q;
}

Device card(const char* size, bool laptop) {
  Device d = *raw_device(size);
  d.kind = DeviceKind::DiscreteGpu;
  d.name = laptop ? "Test Laptop GPU" : "Test GPU";
  d.laptop = laptop;
  return d;
}

bool any_args(const std::vector<Suggestion>& s, std::string_view prefix) {
  return std::any_of(s.begin(), s.end(),
                     [&](const Suggestion& x) { return x.args.starts_with(prefix); });
}

// A laptop's GPU is soldered to its board: no second card, no other card
// (found asking about Qwen3-14B at Q4_K_M on an RTX 4070 Laptop GPU).
TEST(SuggestLimits, NoSecondOrOtherCardForALaptopGpu) {
  const std::vector<Device> cards{card("24gb", false)};
  SuggestInputs in;
  in.other_devices = [&] { return cards; };
  const InferenceQuery desktop = query("14b", "q4_k_m", card("8gb", false));
  const auto d = suggest_changes(desktop, estimate_inference(desktop), in);
  ASSERT_TRUE(any_args(d, "--device \"2x ")) << "a desktop card gets a second one";
  const InferenceQuery laptop = query("14b", "q4_k_m", card("8gb", true));
  for (const Suggestion& s : suggest_changes(laptop, estimate_inference(laptop), in)) {
    EXPECT_EQ(s.args.find("--device"), std::string::npos) << s.line;
    EXPECT_FALSE(s.new_hardware) << s.line;
  }
}

// A context below 2048 tokens holds a system prompt and hardly one exchange:
// it is no advice (found: Llama-3.1-8B at Q4_K_M on an M1 8GB was offered
// --context 256), whichever capacity leaves only that much.
TEST(SuggestLimits, NoContextShorterThan2048Tokens) {
  int short_only = 0;
  for (Bytes mib = 5000; mib <= 7000; mib += 100) {
    Device d = *raw_device("8gb");
    d.memory_bytes = mib * 1024 * 1024;
    InferenceQuery q = query("8b", "q4_k_m", d);
    q.context = 8192;
    const Estimate e = estimate_inference(q);
    if (e.fits()) {
      continue;
    }
    const std::int64_t longest = max_context(q);
    short_only += longest > 0 && longest < 2048 ? 1 : 0;
    for (const Suggestion& s : suggest_changes(q, e)) {
      const auto at = s.args.find("--context ");
      if (at != std::string::npos) {
        EXPECT_GE(std::stoll(s.args.substr(at + 10)), 2048) << s.line;
      }
    }
  }
  EXPECT_GT(short_only, 0) << "no capacity tried leaves only a short context";
}

// When the model's trained length, not memory, caps the context, the words
// say so: in the suggestion and in `max` (found: Qwen3-8B, 40960 tokens, at
// -c 128k on an RTX 4090 was "the longest that fits").
TEST(SuggestLimits, TheTrainedLengthIsNamedWhereItCapsTheContext) {
  InferenceQuery q = query("8b", "q4_k_m", card("12gb", false));
  q.model.arch.max_context = 8192;
  q.context = 131072;
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  const auto s = suggest_changes(q, e);
  const auto c = std::find_if(s.begin(), s.end(),
                              [](const Suggestion& x) { return x.args == "--context 8192"; });
  ASSERT_NE(c, s.end());
  EXPECT_NE(c->change.find("the model's trained length"), std::string::npos) << c->line;
  EXPECT_EQ(c->change.find("the longest that fits"), std::string::npos) << c->line;

  MaxQuestion m;
  m.query = q;
  m.query.runtime = Runtime::LlamaCpp;
  m.model_given = true;
  const MaxAnswer capped = plan_max(m);
  EXPECT_EQ(capped.context_tokens, 8192);
  EXPECT_TRUE(capped.context_at_trained_length);
  m.query.model.arch.max_context = 1 << 20;
  const MaxAnswer by_memory = plan_max(m);
  EXPECT_LT(by_memory.context_tokens.value_or(0), 1 << 20);
  EXPECT_FALSE(by_memory.context_at_trained_length);
}

// A model named by an Ollama tag runs the library's package: `ollama pull`
// has q4_K_M, q8_0 and fp16 tags, no IQ3_M or IQ2_M (found: llama3.1:8b on an
// M1 8GB was offered --precision iq3_m). The same model by its catalogue
// name on llama.cpp is still offered them.
TEST(SuggestLimits, AnOllamaTagIsOfferedOnlyTheLibrarysQuantisations) {
  InferenceQuery q = query("8b", "q8_0", card("7gb", false));
  q.runtime = Runtime::Ollama;
  q.model.ollama_tag = true;
  q.model.quantizer = GgufQuantizer::Ollama;
  int precisions = 0;
  for (const Suggestion& s : suggest_changes(q, estimate_inference(q))) {
    const auto at = s.args.find("--precision ");
    if (at != std::string::npos) {
      ++precisions;
      EXPECT_EQ(s.args.substr(at + 12, 6), "q4_k_m") << s.line;
    }
  }
  EXPECT_GT(precisions, 0) << "Q4_K_M fits and is in the library";
  InferenceQuery q4 = q;
  q4.precision = *parse_precision("q4_k_m");
  q4.devices.devices.front().memory_bytes = 4 * kGiB;
  EXPECT_FALSE(any_args(suggest_changes(q4, estimate_inference(q4)), "--precision"));
  InferenceQuery gguf = q4;
  gguf.runtime = Runtime::LlamaCpp;
  gguf.model.ollama_tag = false;
  gguf.model.quantizer = GgufQuantizer::LlamaCpp;
  EXPECT_TRUE(any_args(suggest_changes(gguf, estimate_inference(gguf)), "--precision i"));
}

}  // namespace
}  // namespace willfit
