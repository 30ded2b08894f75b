#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "willfit/core/quality.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/planner/planner.hpp"
#include "willfit/planner/report.hpp"
#include "willfit/planner/suggest.hpp"

#include "unit/catalogue_model.hpp"

namespace willfit {
namespace {

InferenceQuery query(const char* size, const char* precision, const char* device) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  if (device != nullptr) {
    q.devices.devices.push_back(*raw_device(device));
    q.devices.text = device;
  }
  return q;
}

const Suggestion* find(const std::vector<Suggestion>& s, std::string_view args_prefix) {
  auto it = std::find_if(s.begin(), s.end(),
                         [&](const Suggestion& x) { return x.args.starts_with(args_prefix); });
  return it == s.end() ? nullptr : &*it;
}

// A 30B model at BF16 on a Mac of `size` (a bare capacity made Apple silicon).
InferenceQuery on_a_mac(const char* size, const char* name, const char* text) {
  InferenceQuery q = query("30b", "bf16", nullptr);
  Device mac = *raw_device(size);
  mac.vendor = "apple";
  mac.kind = DeviceKind::Unified;
  mac.name = name;
  q.devices.devices.push_back(mac);
  q.devices.text = text;
  return q;
}

// Unified memory (issue 16): a lower precision with part on the CPU, in the
// same memory, keeps more than one that fits on the GPU side alone, and
// ranks before it by published quality (KL divergence); it holds beyond the
// estimate's error (not tight); a discrete GPU gets no such suggestion.
TEST(Suggest, OnUnifiedMemoryABetterPrecisionWithPartOnTheCpuRanksFirst) {
  const InferenceQuery q = on_a_mac("18gb", "Apple M3 Pro 18GB", "m3 pro 18gb");
  const auto s = suggest_changes(q, estimate_inference(q));
  const auto same =
      std::find_if(s.begin(), s.end(), [](const Suggestion& x) { return x.same_memory_offload; });
  ASSERT_NE(same, s.end());
  EXPECT_EQ(same->verdict, Verdict::Offload);
  ASSERT_TRUE(same->kld.has_value());
  InferenceQuery alt = q;
  alt.precision = *parse_precision(same->args.substr(std::string("--precision ").size()));
  const Estimate after = estimate_inference(alt);
  EXPECT_EQ(after.verdict, Verdict::Offload);
  EXPECT_FALSE(after.tight);
  int fitting = 0;
  for (auto it = s.begin(); it != s.end(); ++it) {
    if (it->verdict == Verdict::Fits && it->kld) {
      EXPECT_LT(*same->kld, *it->kld) << it->args;
      EXPECT_LT(same - s.begin(), it - s.begin()) << it->args;
      ++fitting;
    }
  }
  EXPECT_GT(fitting, 0);  // a 2-bit type fits on the GPU side alone
  InferenceQuery gpu = query("30b", "bf16", "18gb");
  for (const Suggestion& x : suggest_changes(gpu, estimate_inference(gpu))) {
    EXPECT_FALSE(x.same_memory_offload) << x.args;
  }
}

// A model that already fits with offload on a Mac, clear of the error band,
// is offered no lower precision that offloads too: it would lose quality for
// the same verdict (found: gpt-oss-20b on an M2 16GB was offered IQ3_M,
// needing 12.6 GiB against its own 12.2).
TEST(Suggest, AnOffloadThatHoldsIsOfferedNoLowerPrecisionThatOffloadsToo) {
  InferenceQuery q;
  q.model = test::catalogue_model("gpt-oss-20b");
  q.precision = *parse_precision("mxfp4");
  q.runtime = Runtime::LlamaCpp;
  q.devices.devices.push_back(
      *find_device_in(app::embedded_devices_json(), "data/devices.json", "m2 16gb"));
  q.devices.text = "m2 16gb";
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::Offload);
  ASSERT_FALSE(e.tight);
  for (const Suggestion& x : suggest_changes(q, e)) {
    EXPECT_FALSE(x.same_memory_offload) << x.args;
    if (x.args.starts_with("--precision") && x.args.find("--ram") == std::string::npos) {
      EXPECT_EQ(x.verdict, Verdict::Fits) << x.args;
    }
  }
}

// A shorter context is the longest that fits clear of the estimate's error
// band when one at the floor or above does: the edge of what fits is within
// the band by construction (found: a 9.5 GB card at Q8_0 and 16384 tokens
// was offered --context 5632, "tight", where 2560 fits clear).
TEST(Suggest, AShorterContextIsTheLongestThatFitsClearOfTheBand) {
  InferenceQuery q = query("8b", "q8_0", "9.5gb");
  q.context = 16384;
  q.context_is_default = false;
  const auto s = suggest_changes(q, estimate_inference(q));
  const Suggestion* c = find(s, "--context");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->tight) << c->line;
  InferenceQuery longer = q;
  longer.context = std::stoll(c->args.substr(std::string("--context ").size())) + 1024;
  const Estimate e = estimate_inference(longer);
  EXPECT_TRUE(!e.fits() || e.tight) << "a longer context clears the band too";
}

// On Apple silicon a lower precision is a GGUF on llama.cpp: bitsandbytes,
// GPTQ, AWQ and FP8 have no Metal kernels, so NF4 would be advice that cannot
// run (found asking about Qwen3-30B-A3B at BF16 on an M3 Max 36 GB).
TEST(Suggest, OnAppleSiliconALowerPrecisionIsAGgufOnLlamaCpp) {
  const InferenceQuery q = on_a_mac("36gb", "Apple M3 Max 36GB", "m3 max 36gb");
  const auto s = suggest_changes(q, estimate_inference(q));
  const Suggestion* p = find(s, "--precision");
  ASSERT_NE(p, nullptr);
  // BF16 already runs under llama.cpp on a Mac (default_runtime): the GGUF
  // needs no --runtime; asked under transformers, the suggestion names it.
  EXPECT_EQ(p->args.find("--runtime"), std::string::npos) << p->args;
  EXPECT_TRUE(p->args.starts_with("--precision q") || p->args.starts_with("--precision iq"))
      << p->args;
  InferenceQuery pt = q;
  pt.runtime = Runtime::Transformers;
  const auto under_pt = suggest_changes(pt, estimate_inference(pt));
  const Suggestion* t_p = find(under_pt, "--precision");
  ASSERT_NE(t_p, nullptr);
  EXPECT_NE(t_p->args.find("--runtime llama.cpp"), std::string::npos) << t_p->args;
  EXPECT_EQ(find(s, "--precision nf4"), nullptr);
  EXPECT_EQ(find(s, "--precision gptq"), nullptr);
  // The same question on a CUDA card of the same size offers transformers'
  // formats too, beside the GGUF on llama.cpp.
  InferenceQuery cuda = query("30b", "bf16", "36gb");
  const auto t = suggest_changes(cuda, estimate_inference(cuda));
  const auto own = std::find_if(t.begin(), t.end(), [](const Suggestion& x) {
    return x.args.starts_with("--precision") && x.args.find("--runtime") == std::string::npos;
  });
  ASSERT_NE(own, t.end());
}

// A BF16 model on a CUDA card defaults to transformers, but most people run a
// published model on one card as a GGUF under llama.cpp: when the runtime was
// not asked for, both are offered, the one that keeps more bits per weight
// first (Q4_K_M's 4.9 before NF4's 4.5). Asked for transformers, only its
// own formats.
TEST(Suggest, ABf16ModelIsOfferedAGgufOnLlamaCppBesideTransformersFormats) {
  int both = 0;
  for (const char* size : {"8b", "14b", "24b", "32b", "70b"}) {
    for (const char* device : {"8gb", "12gb", "16gb", "24gb", "48gb"}) {
      const InferenceQuery q = query(size, "bf16", device);
      const Estimate e = estimate_inference(q);
      const auto s = suggest_changes(q, e);
      const Suggestion* gguf = find(s, "--precision");
      std::vector<const Suggestion*> precisions;
      for (const Suggestion& x : s) {
        if (x.args.starts_with("--precision") && x.verdict == Verdict::Fits && !x.new_hardware) {
          precisions.push_back(&x);
        }
      }
      if (precisions.size() < 2 || gguf == nullptr || !gguf->other_runtime) {
        continue;
      }
      ++both;
      EXPECT_NE(gguf->args.find("--runtime llama.cpp"), std::string::npos) << gguf->args;
      EXPECT_GE(gguf->precision_bits, precisions[1]->precision_bits)
          << size << " on " << device << ": " << gguf->args << " before " << precisions[1]->args;
      EXPECT_FALSE(gguf->tight) << gguf->args;
      InferenceQuery asked = q;
      asked.runtime = Runtime::Transformers;
      for (const Suggestion& x : suggest_changes(asked, estimate_inference(asked))) {
        if (x.args.starts_with("--precision")) {
          EXPECT_EQ(x.args.find("--runtime"), std::string::npos) << x.args;
        }
      }
    }
  }
  EXPECT_GT(both, 3);
  // 32 B at BF16 on 24 GB: Q4_K_M on llama.cpp, then a transformers format.
  const InferenceQuery q = query("32b", "bf16", "24gb");
  const auto s = suggest_changes(q, estimate_inference(q));
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s[0].args, "--precision q4_k_m --runtime llama.cpp") << s[0].line;
  EXPECT_EQ(s[1].args.find("--runtime"), std::string::npos) << s[1].line;
}

// A lower precision that fits only within the estimate's error band may not
// load: the best one that clears the band is offered, a tight one only when
// none clears, and then its line says so.
TEST(Suggest, ALowerPrecisionClearsTheErrorBandWhenOneCan) {
  const InferenceQuery q = query("13b", "q4_k_m", "8gb");
  const auto s = suggest_changes(q, estimate_inference(q));
  const Suggestion* p = find(s, "--precision ");
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->tight) << p->line;
  EXPECT_EQ(p->line.find("tight"), std::string::npos) << p->line;
  // Every better type below Q4_K_M either does not fit or fits only tight.
  for (const Precision& c : precision_candidates(Runtime::LlamaCpp)) {
    if (c.bits_per_weight >= q.precision.bits_per_weight) {
      continue;
    }
    if ("--precision " + c.id == p->args) {
      break;
    }
    InferenceQuery alt = q;
    alt.precision = c;
    const Estimate e = estimate_inference(alt);
    EXPECT_TRUE(!e.fits() || e.tight) << c.id;
  }
}

// -ngl 0 asked for, RAM unknown: the GPU side fits, the RAM is what is
// unknown. A suggestion is pasted after the user's command, which keeps
// -ngl 0: a second card or other hardware would be estimated without it and
// does not help with it; --ram does, with the plan the user asked for.
TEST(Suggest, TheUsersGpuLayersStayInEverySuggestion) {
  InferenceQuery q = query("8b", "q4_k_m", "8gb");
  q.gpu_layers = 0;
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::NoFit);
  std::vector<Device> cards{*raw_device("12gb")};
  cards[0].kind = DeviceKind::DiscreteGpu;
  const auto s = suggest_changes(q, e, SuggestInputs{{}, {}, [&] { return cards; }});
  ASSERT_FALSE(s.empty());
  for (const Suggestion& x : s) {
    EXPECT_FALSE(x.new_hardware) << x.line;
    EXPECT_EQ(x.args.find("--device"), std::string::npos) << x.line;
  }
  const Suggestion* ram = find(s, "--ram");
  ASSERT_NE(ram, nullptr);
  EXPECT_EQ(ram->verdict, Verdict::Offload);
  EXPECT_NE(ram->line.find("-ngl 0"), std::string::npos) << ram->line;
}

TEST(Suggest, NoneWhenItFitsOrNoDeviceIsGiven) {
  const InferenceQuery fits = query("7b", "q4_k_m", "24gb");
  EXPECT_TRUE(suggest_changes(fits, estimate_inference(fits)).empty());
  const InferenceQuery none = query("70b", "fp16", nullptr);
  EXPECT_TRUE(suggest_changes(none, estimate_inference(none)).empty());
}

TEST(Suggest, TheFamilyIsLookedUpOnlyWhenItDoesNotFit) {
  int calls = 0;
  const auto family = [&] {
    ++calls;
    return std::vector<Model>{};
  };
  (void)make_fit_report(query("7b", "q4_k_m", "24gb"), {}, family);
  EXPECT_EQ(calls, 0);
  (void)make_fit_report(query("70b", "fp16", "24gb"), {}, family);
  EXPECT_EQ(calls, 1);
}

// 13 B at Q8_0 on an 8 GiB card (the course's example): a lower precision
// helps, and it is the highest-quality one that fits: the next wider one
// does not.
TEST(Suggest, LowerPrecisionIsTheWidestThatFits) {
  const InferenceQuery q = query("13b", "q8_0", "8gb");
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  const auto s = suggest_changes(q, e);
  const Suggestion* p = find(s, "--precision ");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->verdict, Verdict::Fits);
  // In quality order (precision_candidates): every better one does not fit
  // clear of the error band.
  const auto order = precision_candidates(Runtime::LlamaCpp);
  const auto chosen = std::find_if(order.begin(), order.end(),
                                   [&](const Precision& c) { return c.id == p->args.substr(12); });
  ASSERT_NE(chosen, order.end());
  ASSERT_NE(chosen, order.begin());  // q8_0 cannot fit 13 GB of weights in 8 GiB
  for (auto it = order.begin(); it != chosen; ++it) {
    InferenceQuery wider = q;
    wider.precision = *it;
    const Estimate w = estimate_inference(wider);
    EXPECT_TRUE(it->bits_per_weight >= q.precision.bits_per_weight || !w.fits() || w.tight)
        << it->id;
  }
}

// Every change that claims to fit, re-run, fits, and its total is below
// the usable memory; on the user's own card, changes that fit whole rank
// before an offload, and hardware to buy (a second card) after both.
TEST(Suggest, EachChangeIsCheckedAndFitsComeFirst) {
  InferenceQuery q = query("13b", "q8_0", "8gb");
  const Estimate e = estimate_inference(q);
  const auto s = suggest_changes(q, e);
  ASSERT_GE(s.size(), 3U);
  bool seen_offload = false;
  bool seen_hardware = false;
  for (const auto& x : s) {
    EXPECT_FALSE(x.line.empty());
    EXPECT_TRUE(x.new_hardware || !seen_hardware) << x.line;
    seen_hardware = seen_hardware || x.new_hardware;
    if (x.verdict == Verdict::Fits) {
      EXPECT_TRUE(!seen_offload || x.new_hardware) << x.line;
      const Bytes usable = x.args.starts_with("--device") ? 2 * e.usable : e.usable;
      EXPECT_LE(x.total_bytes, usable) << x.line;
    } else {
      EXPECT_EQ(x.verdict, Verdict::Offload);
      seen_offload = true;
    }
  }
  // Without --ram the offload is suggested with the RAM it needs and the
  // speed it leaves (an 8 GiB raw capacity has no bandwidth: no speed).
  const Suggestion* off = find(s, "--ram ");
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->verdict, Verdict::Offload);
  EXPECT_FALSE(off->decode_tokens_per_s.has_value());
  // A second 8 GiB card holds 13 B at Q8_0 (about 14 GB of weights).
  const Suggestion* gpu = find(s, "--device ");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->args, "--device \"2x 8gb\"");
  EXPECT_TRUE(gpu->new_hardware);
  EXPECT_LT(off - s.data(), gpu - s.data()) << "the user's own RAM before a card to buy";
  InferenceQuery two = q;
  two.devices.devices.push_back(q.devices.devices.front());
  EXPECT_TRUE(estimate_inference(two).fits());
}

// A checkpoint runtime (transformers) cannot hold 70 B at BF16 on 24 GB; the
// user said how much RAM they have: Q4_K_M on llama.cpp with layers in that
// RAM is offered when it holds the rest, keeping their --ram (not a size of
// willfit's own), and not offered when it does not.
TEST(Suggest, TheUsersRamHoldsAQ4KmOffloadOnLlamaCpp) {
  InferenceQuery q = query("70b", "bf16", "24gb");
  q.runtime = Runtime::Transformers;
  q.ram = 64 * kGiB;
  const auto s = suggest_changes(q, estimate_inference(q));
  const Suggestion* off = find(s, "--precision q4_k_m --runtime llama.cpp");
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->args, "--precision q4_k_m --runtime llama.cpp");
  EXPECT_EQ(off->verdict, Verdict::Offload);
  InferenceQuery alt = q;
  alt.runtime = Runtime::LlamaCpp;
  alt.precision = *parse_precision("q4_k_m");
  const Estimate after = estimate_inference(alt);
  EXPECT_EQ(after.verdict, Verdict::Offload);
  ASSERT_TRUE(after.offload.has_value());
  EXPECT_LE(after.offload->host_bytes, 64 * kGiB);
  // 8 GiB of RAM cannot hold the ~17 GiB the GPU leaves over.
  q.ram = 8 * kGiB;
  const auto none = suggest_changes(q, estimate_inference(q));
  const Suggestion* small = find(none, "--precision q4_k_m --runtime llama.cpp");
  EXPECT_TRUE(small == nullptr || small->verdict != Verdict::Offload) << small->line;
}

TEST(Suggest, ShorterContextIsTheLongestThatFits) {
  InferenceQuery q = query("8b", "q4_k_m", "8gb");
  q.context = 32768;
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  const auto s = suggest_changes(q, e);
  const Suggestion* c = find(s, "--context ");
  ASSERT_NE(c, nullptr);
  const std::int64_t n = std::stoll(c->args.substr(10));
  EXPECT_LT(n, q.context);
  InferenceQuery longer = q;
  longer.context = n + 256;
  // The longest that fits clear of the error band: a longer one does not
  // fit, or only within the band.
  const Estimate more = estimate_inference(longer);
  EXPECT_TRUE(!more.fits() || more.tight);
  // A quantised KV cache is the gentler change and ranks first.
  ASSERT_NE(find(s, "--kv-type "), nullptr);
  EXPECT_LT(find(s, "--kv-type ") - s.data(), c - s.data());
}

// A precision of a large quality loss (KL divergence from 0.15 on, the
// llama.cpp scoreboard) ranks after a shorter context that fits. Found:
// Llama-3.1-8B Q4_K_M on an RTX 4060 at 32768 tokens offered IQ1_S (KLD
// 2.255) before --context 15616; at 65536 tokens, IQ2_XXS before 32768.
TEST(Suggest, ALargeQualityLossRanksAfterAShorterContext) {
  using Case = std::tuple<int, const char*, FlashAttention>;
  for (const auto& [context, kv, fa] :
       {Case{32768, "q4_0", FlashAttention::Off}, Case{65536, "q8_0", FlashAttention::Auto}}) {
    InferenceQuery q;
    q.model = test::catalogue_model("llama-3.1-8b");
    q.precision = *parse_precision("q4_k_m");
    q.devices.devices.push_back(
        *find_device_in(app::embedded_devices_json(), "data/devices.json", "rtx 4060"));
    q.devices.text = "rtx 4060";
    q.context = context;
    q.kv_type = *parse_kv_type(kv);
    q.flash_attention = fa;
    const Estimate e = estimate_inference(q);
    ASSERT_FALSE(e.fits());
    const auto s = suggest_changes(q, e);
    const Suggestion* shorter = find(s, "--context ");
    ASSERT_NE(shorter, nullptr) << context;
    ASSERT_EQ(shorter->verdict, Verdict::Fits);
    int large = 0;
    for (const Suggestion& x : s) {
      if (x.kld && *x.kld >= kLargeQualityLossKld) {
        EXPECT_GT(&x - s.data(), shorter - s.data()) << context << " " << x.args;
        ++large;
      }
    }
    EXPECT_GT(large, 0) << context;  // the case is the one found
  }
}

// A multimodal model whose projector is what does not fit is offered
// --text-only among the changes on the user's own device, before a lower
// precision (it costs no quality on text). Found: Llama-3.2-11B-Vision
// Q4_K_M on an RTX 4060 was offered IQ3_M, offload and a second card.
TEST(Suggest, TextOnlyWhenDroppingTheProjectorFits) {
  InferenceQuery q;
  q.model = test::catalogue_model("llama-3.2-11b-vision");
  q.precision = *parse_precision("q4_k_m");
  q.devices.devices.push_back(
      *find_device_in(app::embedded_devices_json(), "data/devices.json", "rtx 4060"));
  q.devices.text = "rtx 4060";
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  ASSERT_GT(e.memory.projector, 0);
  const auto s = suggest_changes(q, e);
  const Suggestion* t = find(s, "--text-only");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->verdict, Verdict::Fits);
  EXPECT_NE(t->tradeoff.find("image"), std::string::npos);
  const Suggestion* p = find(s, "--precision ");
  ASSERT_NE(p, nullptr);
  EXPECT_LT(t - s.data(), p - s.data());
  // Already text-only: nothing to offer.
  InferenceQuery text = q;
  text.text_only = true;
  EXPECT_EQ(estimate_inference(text).memory.projector, 0);
  // Ollama passes --mmproj whenever the package has a projector
  // (llm/llama_server.go appendMMProjArgs): not a change its user can make.
  InferenceQuery ollama = q;
  ollama.runtime = Runtime::Ollama;
  const Estimate under_ollama = estimate_inference(ollama);
  ASSERT_GT(under_ollama.memory.projector, 0);
  EXPECT_EQ(find(suggest_changes(ollama, under_ollama), "--text-only"), nullptr);
}

TEST(Suggest, TheLargestSmallerFamilyMemberThatFits) {
  const InferenceQuery q = query("70b", "q4_k_m", "24gb");
  const Estimate e = estimate_inference(q);
  std::vector<Model> family;
  for (const char* size : {"40b", "34b", "13b"}) {
    Model m = *model_from_size(*parse_model_size(size));
    m.family = "test";
    family.push_back(m);
  }
  const auto s = suggest_changes(q, e, SuggestInputs{[&] { return family; }, {}, {}});
  const Suggestion* m = find(s, "34b");
  ASSERT_NE(m, nullptr);  // 40 B at Q4_K_M (about 24 GB of weights) is too much
  EXPECT_EQ(find(s, "40b"), nullptr);
  InferenceQuery forty = q;
  forty.model = family.front();
  EXPECT_FALSE(estimate_inference(forty).fits());
  EXPECT_EQ(m->verdict, Verdict::Fits);
  // The name carries the precision and runtime it was checked at, so that
  // pasting it does not answer at the smaller model's own default (a
  // catalogue id at its published BF16 under PyTorch).
  EXPECT_EQ(m->args, fmt::format("{} --precision q4_k_m --runtime llama.cpp", family[1].id));
}

// A smaller model is a size step: one with at most a tenth fewer
// parameters is a revision of the same size (Mistral-7B-v0.1's 7,241,732,096
// beside v0.3's 7,248,023,552 in the catalogue), not offered even where
// it fits, while a tenth fewer is.
TEST(Suggest, ASmallerModelHasATenthFewerParameters) {
  const InferenceQuery q = query("8b", "fp16", "17gb");
  const Estimate e = estimate_inference(q);
  ASSERT_FALSE(e.fits());
  for (const auto& [size, offered] :
       std::vector<std::pair<const char*, bool>>{{"7.3b", false}, {"7.1b", true}}) {
    Model m = *model_from_size(*parse_model_size(size));
    m.family = "test";
    InferenceQuery alone = q;
    alone.model = m;
    ASSERT_TRUE(estimate_inference(alone).fits()) << size;  // each fits: the share decides
    const std::vector<Model> family{m};
    const auto s = suggest_changes(q, e, SuggestInputs{[&] { return family; }, {}, {}});
    EXPECT_EQ(find(s, m.id) != nullptr, offered) << size;
  }
}

TEST(Suggest, NothingHelpsATrillionParametersOnOneGigabyte) {
  const InferenceQuery q = query("1t", "fp16", "1gb");
  const Estimate e = estimate_inference(q);
  EXPECT_TRUE(suggest_changes(q, e).empty());
  const FitReport r = make_fit_report(q);
  EXPECT_TRUE(r.suggestions.empty());
  EXPECT_NE(r.hint.find("more memory is needed"), std::string::npos);
  EXPECT_NE(r.hint.find("(--ram)"), std::string::npos) << r.hint;
  // With --ram given the offload was weighed already: the hint does not ask
  // for it again.
  InferenceQuery with_ram = q;
  with_ram.ram = 512 * kGiB;
  const FitReport told = make_fit_report(with_ram);
  EXPECT_EQ(told.hint.find("(--ram)"), std::string::npos) << told.hint;
  EXPECT_NE(told.hint.find("more system RAM than --ram gives"), std::string::npos) << told.hint;
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// Issue 16, "two 48 GB cards": with the device database passed in, 70B at
// FP16 on 24 GB is also offered other hardware: one or two of a card that
// holds it clear of the error band at FP16, and (cheaper) at Q8_0. Same-GPU
// fits rank first, then the offload, then the hardware.
TEST(SuggestOtherHardware, SeventyBAtFp16On24GbIsOfferedCardsThatHoldIt) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size("70b"));
  q.precision = *parse_precision("fp16");
  q.devices.devices.push_back(*raw_device("24gb"));
  q.devices.text = "24gb";
  const Estimate e = estimate_inference(q);
  std::vector<Device> cards;
  for (const char* spec : {"48gb", "80gb", "12gb"}) {
    Device d = *raw_device(spec);
    d.kind = DeviceKind::DiscreteGpu;
    d.id = std::string("card-") + spec;
    d.name = std::string("Card ") + spec;
    cards.push_back(d);
  }
  cards[0].price_usd = 4000;  // 48 GB: priced, so it ranks by price
  const auto s = suggest_changes(q, e, SuggestInputs{{}, {}, [&] { return cards; }});
  std::vector<std::size_t> hardware;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i].new_hardware) {
      hardware.push_back(i);
      EXPECT_EQ(s[i].verdict, Verdict::Fits);
    }
  }
  ASSERT_EQ(hardware.size(), 2u);
  // FP16 (134 GiB) needs two 80 GB cards (no price); Q8_0 (73 GiB) two 48 GB ones.
  EXPECT_NE(s[hardware[0]].args.find("--device \"2x card-80gb\""), std::string::npos)
      << s[hardware[0]].args;
  EXPECT_NE(s[hardware[1]].args.find("--precision q8_0"), std::string::npos);
  EXPECT_NE(s[hardware[1]].args.find("2x card-48gb"), std::string::npos) << s[hardware[1]].args;
  EXPECT_NE(s[hardware[1]].tradeoff.find("$8000"), std::string::npos) << s[hardware[1]].tradeoff;
  ASSERT_FALSE(s.empty());
  // A GGUF on the user's own 24 GB fits; at 2 bits, a large quality loss, it
  // ranks after the offload to RAM (speed only).
  EXPECT_TRUE(std::any_of(s.begin(), s.end(), [](const Suggestion& x) {
    return x.verdict == Verdict::Fits && !x.new_hardware && x.kld.has_value();
  }));
  EXPECT_FALSE(s.front().new_hardware);
  // Hardware to buy ranks after every change on the user's own card, the
  // offload to their RAM included (docs/usage.md, "To make it fit").
  EXPECT_EQ(hardware.front(), s.size() - hardware.size());
  EXPECT_TRUE(std::any_of(s.begin(), s.end(), [](const Suggestion& x) {
    return x.verdict == Verdict::Offload && !x.new_hardware;
  }));
  for (const std::size_t i : hardware) {
    EXPECT_EQ(s[i].line.find("12gb"), std::string::npos);
  }
}

// Kimi K2 (1 T parameters, published at FP8) on an RTX 4090 with 512 GiB of
// RAM: Q4_K_M with the experts in RAM needs more than that RAM, but a lower
// GGUF type does not; the best such type (in published quality order, clear
// of the error band) is offered with offload, says its quality loss, and is
// what the estimator says when asked directly.
TEST(SuggestOffload, ALowerGgufTypeWithExpertsInRamWhenQ4KmDoesNotHold) {
  InferenceQuery q;
  q.model = test::catalogue_model("kimi-k2");
  q.precision = *parse_precision("fp8");
  q.devices.devices.push_back(*raw_device("24gb"));
  q.devices.text = "24gb";
  q.ram = 512 * kGiB;
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::NoFit);
  InferenceQuery q4 = q;
  q4.runtime = Runtime::LlamaCpp;
  q4.precision = *parse_precision("q4_k_m");
  ASSERT_NE(estimate_inference(q4).verdict, Verdict::Offload);  // Q4_K_M does not hold
  const auto s = suggest_changes(q, e);
  const auto off = std::find_if(s.begin(), s.end(), [](const Suggestion& x) {
    return x.verdict == Verdict::Offload && x.args.starts_with("--precision ");
  });
  ASSERT_NE(off, s.end());
  const std::string id = off->args.substr(12, off->args.find(' ', 12) - 12);
  EXPECT_EQ(off->args, "--precision " + id + " --runtime llama.cpp");
  InferenceQuery alt = q4;
  alt.precision = *parse_precision(id);
  const Estimate after = estimate_inference(alt);
  EXPECT_EQ(after.verdict, Verdict::Offload);
  EXPECT_FALSE(after.tight);
  EXPECT_EQ(off->total_bytes, after.required);
  ASSERT_TRUE(after.offload.has_value());
  EXPECT_GT(after.offload->cpu_moe_layers, 0);  // the experts in RAM
  EXPECT_NE(off->line.find("KL divergence"), std::string::npos) << off->line;
  EXPECT_NE(off->tradeoff.find("quality loss"), std::string::npos) << off->tradeoff;
  // No type of better published quality (from Q4_K_M down) holds clear.
  const auto q4_kld = quant_kld("q4_k_m");
  for (const Precision& c : precision_candidates(Runtime::LlamaCpp)) {
    if (c.id == id) {
      break;
    }
    if (!quant_kld(c.id) || *quant_kld(c.id) < *q4_kld || c.id.starts_with("iq1") ||
        c.id.starts_with("iq2") || c.id.starts_with("iq3")) {
      continue;
    }
    InferenceQuery better = q4;
    better.precision = c;
    const Estimate b = estimate_inference(better);
    EXPECT_TRUE(b.verdict != Verdict::Offload || b.tight) << c.id;
  }
  // With less RAM, a 2-bit K-quant: a large quality loss, and said so.
  q.ram = 384 * kGiB;
  const auto less = suggest_changes(q, estimate_inference(q));
  const auto two = std::find_if(less.begin(), less.end(), [](const Suggestion& x) {
    return x.verdict == Verdict::Offload && x.args.starts_with("--precision q2_k");
  });
  ASSERT_NE(two, less.end());
  EXPECT_NE(two->tradeoff.find("a large quality loss"), std::string::npos) << two->tradeoff;
}

// A card as the device database gives it: a vendor, a kind, a price.
Device card(const char* id, const char* size, const char* vendor, DeviceKind kind, double price) {
  Device d = *raw_device(size);
  d.id = id;
  d.name = id;
  d.vendor = vendor;
  d.kind = kind;
  d.price_usd = price;
  return d;
}

// transformers (PyTorch) runs on the PyTorch build of the user's back end:
// a CUDA user is not offered a TPU (torch_xla) or an AMD card (a ROCm
// build), however cheap; Q8_0 on llama.cpp (which builds for ROCm too) may
// name the AMD card, never the TPU. An AMD user under transformers is
// offered the AMD card.
TEST(SuggestOtherHardware, OnlyCardsTheRuntimeRunsOn) {
  const std::vector<Device> cards{
      card("tpu", "192gb", "google", DeviceKind::Accelerator, 100),
      card("instinct", "192gb", "amd", DeviceKind::DiscreteGpu, 200),
      card("geforce", "192gb", "nvidia", DeviceKind::DiscreteGpu, 5000),
  };
  InferenceQuery q = query("70b", "bf16", "24gb");
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.runtime, Runtime::Transformers);
  const auto s = suggest_changes(q, e, SuggestInputs{{}, {}, [&] { return cards; }});
  const Suggestion* same = find(s, "--device ");
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->args, "--device \"geforce\"");
  const Suggestion* q8 = find(s, "--precision q8_0 --runtime llama.cpp --device");
  ASSERT_NE(q8, nullptr);
  EXPECT_NE(q8->args.find("instinct"), std::string::npos) << q8->args;
  for (const Suggestion& x : s) {
    EXPECT_EQ(x.args.find("tpu"), std::string::npos) << x.line;
  }
  // The same question from an AMD card.
  q.devices.devices.front().vendor = "amd";
  const auto amd =
      suggest_changes(q, estimate_inference(q), SuggestInputs{{}, {}, [&] { return cards; }});
  const Suggestion* own = find(amd, "--device ");
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->args, "--device \"instinct\"");
}

// Ollama ships a Vulkan build, on by default (ollama/ollama @fb307609:
// envconfig OLLAMA_VULKAN, docs/gpu.mdx "Vulkan GPU Support", Intel's driver
// instructions there): an Intel Arc card is hardware an Ollama user can add.
TEST(SuggestOtherHardware, OllamaRunsOnIntelThroughVulkan) {
  const std::vector<Device> cards{
      card("arc", "512gb", "intel", DeviceKind::DiscreteGpu, 100),
      card("geforce", "512gb", "nvidia", DeviceKind::DiscreteGpu, 5000),
  };
  InferenceQuery ollama = query("405b", "q8_0", "24gb");
  ollama.runtime = Runtime::Ollama;
  const SuggestInputs inputs{{}, {}, [&] { return cards; }};
  const std::vector<Suggestion> offered =
      suggest_changes(ollama, estimate_inference(ollama), inputs);
  const auto arc = std::find_if(offered.begin(), offered.end(),
                                [](const Suggestion& x) { return x.args == "--device \"arc\""; });
  EXPECT_NE(arc, offered.end()) << "the Arc card, the cheapest, is offered under Ollama";
}

// Ollama's default context grows with the GPU memory it finds (4096 under 23
// GiB, 32768 under 47, else the model's trained 131072 for Llama 3.1). Found
// by review: llama3.1:70b on an RTX 4060 (answered at 4096) was offered two
// Radeon PRO W7900 at 82.6 GiB, sized at 131072 tokens. Hardware suggested
// keeps the answer's context and says so: two RTX 3090 (24 GiB each, the
// card pairs of r/LocalLLaMA's 70B builds) hold 70B Q4_K_M at 4096 tokens.
TEST(SuggestOtherHardware, OllamaKeepsTheContextTheAnswerUsed) {
  const auto db = [](const char* name) {
    return *find_device_in(app::embedded_devices_json(), "data/devices.json", name);
  };
  InferenceQuery q;
  q.model = test::catalogue_model("llama-3.1-70b");
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::Ollama;
  q.context_is_default = true;
  q.devices.devices.push_back(db("rtx 4060"));
  q.devices.text = "rtx 4060";
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.context, 4096);
  const std::vector<Device> cards{db("rtx 3090"), db("radeon pro w7900")};
  const auto s = suggest_changes(q, e, SuggestInputs{{}, {}, [&] { return cards; }});
  const Suggestion* hw = find(s, "--device ");
  ASSERT_NE(hw, nullptr);
  EXPECT_EQ(hw->args, "--device \"2x rtx-3090\" --context 4096");
  EXPECT_LT(hw->total_bytes, 48 * kGiB);
}

}  // namespace
}  // namespace willfit
