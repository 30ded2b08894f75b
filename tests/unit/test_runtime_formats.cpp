// Which weight formats each runtime loads where, and what the answers make
// of it: MLX and transformers on a Mac (NF4, AWQ, GPTQ), a GGUF under MLX,
// the ranking of a large quality loss, `max`'s quantised hint, and the KV
// cache names of other programs. Expected values follow the sources quoted
// in runtime.cpp (mlx_lm's load_model, transformers' quantisation overview)
// and the rules in suggest.cpp, not the output.
#include <gtest/gtest.h>

#include <algorithm>

#include "unit/catalogue_model.hpp"
#include "willfit/core/quality.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/planner/planner.hpp"
#include "willfit/planner/suggest.hpp"
#include "willfit/planner/which.hpp"

namespace willfit {
namespace {

Device db_device(const char* name) {
  auto d = find_device_in(app::embedded_devices_json(), "data/devices.json", name);
  EXPECT_TRUE(d.ok()) << name;
  return d.ok() ? *d : Device{};
}

DeviceSet one(const Device& d) {
  DeviceSet s;
  s.devices.push_back(d);
  s.text = d.id;
  return s;
}

InferenceQuery query(const char* model, const char* precision, const char* device) {
  InferenceQuery q;
  q.model = test::catalogue_model(model);
  q.precision = *parse_precision(precision);
  q.devices = one(db_device(device));
  return q;
}

const Suggestion* find(const std::vector<Suggestion>& s, std::string_view args) {
  auto it = std::find_if(s.begin(), s.end(), [&](const Suggestion& x) { return x.args == args; });
  return it == s.end() ? nullptr : &*it;
}

// mlx_lm's load_model (ml-explore/mlx-lm mlx_lm/utils.py at d78bf58e) reads
// quant_method awq and gptq at 4 bits only and no bitsandbytes checkpoint.
TEST(RuntimeFormats, MlxLoadsFourBitAwqAndGptqNotNf4OrGptq8) {
  for (const char* id : {"awq", "gptq", "int4", "int8", "fp16", "q4_0"}) {
    EXPECT_TRUE(runtime_loads(Runtime::Mlx, *parse_precision(id))) << id;
  }
  for (const char* id : {"nf4", "gptq-int8"}) {
    const Precision p = *parse_precision(id);
    EXPECT_FALSE(runtime_loads(Runtime::Mlx, p)) << id;
    const std::string why = runtime_precision_conflict(Runtime::Mlx, p);
    EXPECT_NE(why.find("mlx_lm/utils.py"), std::string::npos) << why;
  }
  // NF4's way out is MLX's 4-bit, GPTQ 8-bit's its 8-bit.
  EXPECT_NE(runtime_precision_conflict(Runtime::Mlx, *parse_precision("nf4")).find("-p int4"),
            std::string::npos);
  EXPECT_NE(runtime_precision_conflict(Runtime::Mlx, *parse_precision("gptq-int8")).find("-p int8"),
            std::string::npos);
}

// _transform_awq_weights gives each group of 128 (the default group_size) a
// 16-bit scale and a 16-bit bias: 4 + 2 x 16 / 128 = 4.25 bits per weight.
TEST(RuntimeFormats, MlxHoldsAwqWithAScaleAndBiasPerGroupOf128) {
  const DeviceSet mac = one(db_device("m2 max 64gb"));
  for (const char* id : {"awq", "gptq"}) {
    const Precision run = precision_as_run(*parse_precision(id), Runtime::Mlx, mac);
    EXPECT_DOUBLE_EQ(run.bits_per_weight, 4.25) << id;
    EXPECT_EQ(run.scope, WeightScope::LinearOnly) << id;
  }
}

// transformers' quantisation overview (docs/source/en/quantization/overview.md
// at huggingface/transformers 1d883ec0), Metal column: bitsandbytes and AWQ
// unsupported, GPTQModel supported. On an NVIDIA card all three load.
TEST(RuntimeFormats, TransformersOnAMacRefusesNf4AndAwqAndWarnsForGptq) {
  const Device mac = db_device("m2 max 64gb");
  const Device cuda = db_device("rtx 4090");
  for (const char* id : {"nf4", "awq"}) {
    const Precision p = *parse_precision(id);
    EXPECT_NE(runtime_device_conflict(Runtime::Transformers, p, mac), "") << id;
    EXPECT_EQ(runtime_device_conflict(Runtime::Transformers, p, cuda), "") << id;
  }
  const Precision gptq = *parse_precision("gptq");
  EXPECT_EQ(runtime_device_conflict(Runtime::Transformers, gptq, mac), "");
  EXPECT_TRUE(transformers_gptq_on_metal(gptq, Runtime::Transformers, one(mac)));
  EXPECT_FALSE(transformers_gptq_on_metal(gptq, Runtime::Transformers, one(cuda)));
  InferenceQuery q = query("llama-3.1-8b", "gptq", "m2 max 64gb");
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.runtime, Runtime::Transformers);
  EXPECT_TRUE(std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string& w) {
    return w.find("GPTQModel") != std::string::npos;
  }));
  // AWQ on a Mac defaults to MLX, which loads it; NF4 keeps transformers
  // (and is refused there): nothing on a Mac loads it.
  EXPECT_EQ(default_runtime(*parse_precision("awq"), one(mac)), Runtime::Mlx);
  EXPECT_EQ(default_runtime(*parse_precision("awq"), one(cuda)), Runtime::Transformers);
  EXPECT_EQ(default_runtime(*parse_precision("nf4"), one(mac)), Runtime::Transformers);
}

// willfit which: a Mac row only under a runtime that loads the weights there;
// the refusal over many devices names none of them.
TEST(RuntimeFormats, WhichListsAMacOnlyWhereItsRuntimeLoadsTheWeights) {
  const std::vector<Device> devices{db_device("m2 max 64gb"), db_device("rtx 4090")};
  InferenceQuery q = query("llama-3.1-8b", "awq", "rtx 4090");
  WhichOptions options;
  auto rows = which_devices(q, devices, options);
  ASSERT_EQ(rows.size(), 2U);
  for (const WhichRow& r : rows) {
    const bool apple = r.devices.devices.front().vendor == "apple";
    EXPECT_EQ(r.runtime, apple ? Runtime::Mlx : Runtime::Transformers);
  }
  q.precision = *parse_precision("nf4");
  rows = which_devices(q, devices, options);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows.front().devices.devices.front().vendor, "nvidia");
  const std::vector<Device> macs{db_device("m1 8gb"), db_device("m2 max 64gb")};
  const std::string why = which_runtime_conflict(q, macs, options);
  EXPECT_NE(why, "");
  EXPECT_EQ(why.find("Apple M1"), std::string::npos) << why;
  q.runtime = Runtime::Vllm;
  q.precision = *parse_precision("fp16");
  const std::string vllm = which_runtime_conflict(q, macs, options);
  EXPECT_NE(vllm.find("on a Mac it runs on the CPU only"), std::string::npos) << vllm;
}

// A Q4_K_M under MLX is cast to F16 (mlx_from_gguf); the same file under
// llama.cpp and MLX's own 4-bit keep the width asked, and both fit an M1
// 16GB where 16-bit weights of 8 B parameters (16 GB) cannot.
TEST(RuntimeFormats, AGgufCastUnderMlxIsOfferedLlamaCppAndMlxFourBit) {
  InferenceQuery q = query("llama-3.1-8b", "q4_k_m", "m1 16gb");
  q.runtime = Runtime::Mlx;
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  const auto s = suggest_changes(q, e);
  ASSERT_GE(s.size(), 2U);
  EXPECT_EQ(s[0].args, "--runtime llama.cpp");
  EXPECT_EQ(s[1].args, "--precision int4");
  EXPECT_EQ(s[0].verdict, Verdict::Fits);
  // No lower GGUF type when the file asked already runs on llama.cpp.
  EXPECT_EQ(
      std::count_if(s.begin(), s.end(),
                    [](const Suggestion& x) { return x.args.find("iq") != std::string::npos; }),
      0);
}

// A lower precision of a large quality loss (KL divergence >= 0.15) ranks
// after an offload to RAM, which costs speed only.
TEST(RuntimeFormats, ALargeQualityLossRanksAfterAnOffload) {
  InferenceQuery q = query("llama-3.1-70b", "fp16", "rtx 4090");
  const auto s = suggest_changes(q, estimate_inference(q));
  const auto offload = std::find_if(
      s.begin(), s.end(), [](const Suggestion& x) { return x.verdict == Verdict::Offload; });
  const auto large = std::find_if(s.begin(), s.end(), [](const Suggestion& x) {
    return x.verdict == Verdict::Fits && x.kld && *x.kld >= kLargeQualityLossKld;
  });
  ASSERT_NE(offload, s.end());
  ASSERT_NE(large, s.end());
  EXPECT_LT(offload - s.begin(), large - s.begin());
}

// llama3.1:8b under Ollama on an M1 8GB, among the tags its library
// publishes: Q3_K_M (KL divergence 0.102) fits only within the error band,
// Q3_K_S (0.228, a large loss) clears it; both are offered, the better one
// first and said tight.
TEST(RuntimeFormats, ATightBetterQuantisationIsOfferedBesideALargeLoss) {
  InferenceQuery q = query("llama3.1:8b", "q4_k_m", "m1 8gb");
  q.runtime = Runtime::Ollama;
  q.model.ollama_tag = true;  // named by its tag, as the CLI resolves it
  ASSERT_FALSE(q.model.ollama_tag_types.empty());
  const auto s = suggest_changes(q, estimate_inference(q));
  const Suggestion* m = find(s, "--precision q3_k_m");
  const Suggestion* small = find(s, "--precision q3_k_s");
  ASSERT_NE(m, nullptr);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(m->tight);
  EXPECT_FALSE(small->tight);
  EXPECT_LT(m, small);
}

// max's hint names the runtime's own 4-bit precision: MLX's INT4; NF4 for
// transformers, except on a Mac, where it is refused and GPTQ is next.
TEST(RuntimeFormats, MaxHintsAtTheRuntimesOwnFourBit) {
  MaxQuestion question;
  question.query.precision = *parse_precision("fp16");
  question.query.devices = one(db_device("m2 max 64gb"));
  question.query.runtime = Runtime::Mlx;
  auto hint = max_hint(question, plan_max(question));
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->precision.id, "int4");
  EXPECT_FALSE(hint->other_runtime);
  question.query.runtime = Runtime::Transformers;
  hint = max_hint(question, plan_max(question));
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->precision.id, "gptq");
  question.query.devices = one(db_device("rtx 4090"));
  hint = max_hint(question, plan_max(question));
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->precision.id, "nf4");
  question.query.runtime.reset();
  hint = max_hint(question, plan_max(question));
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->precision.id, "q4_k_m");
  EXPECT_TRUE(hint->other_runtime);
}

// vLLM calls its 8-bit cache fp8, others say int8: ggml's 8-bit is q8_0.
TEST(RuntimeFormats, OtherProgramsKvNamesPointToGgmlsTypes) {
  for (const char* name : {"fp8", "FP8_E4M3", "int8"}) {
    const auto kv = parse_kv_type(name);
    ASSERT_FALSE(kv.ok()) << name;
    EXPECT_NE(kv.error().message.find("--kv-type q8_0"), std::string::npos) << name;
  }
  EXPECT_NE(parse_kv_type("fp8").error().message.find("vLLM"), std::string::npos);
  EXPECT_NE(parse_kv_type("int4").error().message.find("--kv-type q4_0"), std::string::npos);
}

}  // namespace
}  // namespace willfit
