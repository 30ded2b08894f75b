// Training suggestions on the user's own hardware: combinations that fit on
// the GPUs named (LoRA with checkpointing, states offloaded to host RAM with
// the --ram they need) come before buying more GPUs, and no more GPUs are
// offered for a laptop's GPU. Each promise is the estimate of the query the
// suggestion's flags make.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "willfit/training/training.hpp"

namespace willfit {
namespace {

// Llama-3.1-8B's shape (its config.json: 32 layers, hidden 4096, MLP 14336,
// 32 heads, 8 KV heads, vocabulary 128256).
TrainingQuery llama_8b_like(double params) {
  TrainingQuery q;
  q.model.name = "test";
  q.model.params = static_cast<std::int64_t>(params);
  q.model.active_params = q.model.params;
  q.model.arch.layers = 32;
  q.model.arch.hidden_size = 4096;
  q.model.arch.intermediate_size = 14336;
  q.model.arch.heads = 32;
  q.model.arch.kv_heads = 8;
  q.model.arch.head_dim = 128;
  q.model.arch.vocab_size = 128256;
  q.model.source = FactSource::Catalogue;
  return q;
}

// Llama-3.1-70B's shape (80 layers, hidden 8192, MLP 28672, 64 heads, 8 KV heads).
TrainingQuery llama_70b_like() {
  TrainingQuery q = llama_8b_like(70.6e9);
  q.model.arch.layers = 80;
  q.model.arch.hidden_size = 8192;
  q.model.arch.intermediate_size = 28672;
  q.model.arch.heads = 64;
  return q;
}

TrainingQuery on(TrainingQuery q, const char* capacity, int count, bool laptop = false) {
  Device d = *raw_device(capacity);
  d.kind = DeviceKind::DiscreteGpu;
  d.laptop = laptop;
  for (int i = 0; i < count; ++i) {
    q.devices.devices.push_back(d);
  }
  q.devices.text = capacity;
  q.gpus = count;
  return q;
}

bool more_gpus(const TrainingSuggestion& s) {
  return std::any_of(s.args.begin(), s.args.end(), [](const std::string& a) {
    return a == "--gpus" || a == "--nodes" || a == "--device";
  });
}

// The query a suggestion's flags make of `q`, as the CLI reads them.
TrainingQuery applied(TrainingQuery q, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string v = i + 1 < args.size() ? args[i + 1] : "";
    if (a == "--method") {
      q.method = *parse_train_method(v);
      if (q.checkpointing_defaulted && q.method == TrainMethod::Qlora) {
        q.checkpointing = Checkpointing::Full;
      }
    } else if (a == "--checkpointing") {
      q.checkpointing = *parse_checkpointing(v);
      q.checkpointing_defaulted = false;
    } else if (a == "--optimizer") {
      q.optimizer = *parse_optimizer(v);
    } else if (a == "--zero") {
      q.zero = std::stoi(v);
    } else if (a == "--offload-optimizer") {
      q.offload_optimizer = true;
    } else if (a == "--offload-params") {
      q.offload_params = true;
    } else if (a == "--ram") {
      q.ram = std::stoll(v) * kGiB;  // "64gb": GiB, as the CLI reads sizes
    }
  }
  return q;
}

// Full fine-tuning of an 8 B model on one 24 GB card: LoRA with full
// checkpointing fits there (20.1 GiB for Llama-3.1-8B on an RTX 4090), and
// is offered before QLoRA (it keeps more) and before 24 GPUs.
TEST(TrainingOwnHardware, LoraWithCheckpointingBeforeMoreGpus) {
  TrainingQuery q = on(llama_8b_like(8030261248.0), "24gb", 1);
  q.checkpointing_defaulted = true;
  const TrainingEstimate e = make_training_report(q);
  ASSERT_FALSE(e.suggestions.empty());
  const auto lora = std::find_if(e.suggestions.begin(), e.suggestions.end(), [](const auto& s) {
    return s.args == std::vector<std::string>{"--method", "lora", "--checkpointing", "full"};
  });
  ASSERT_NE(lora, e.suggestions.end());
  EXPECT_EQ(lora->verdict, Verdict::Fits);
  const TrainingEstimate after = estimate_training(applied(q, lora->args));
  EXPECT_EQ(after.required, lora->total_bytes);
  EXPECT_EQ(after.verdict, Verdict::Fits);
  EXPECT_EQ(lora, e.suggestions.begin()) << e.suggestions.front().change;
  bool seen_more = false;
  for (const auto& s : e.suggestions) {
    seen_more = seen_more || more_gpus(s);
    if (s.verdict != Verdict::NoFit && !more_gpus(s)) {
      EXPECT_FALSE(seen_more) << "own hardware after more GPUs: " << s.change;
    }
  }
}

// QLoRA of a 70 B model on two 24 GB cards: with ZeRO-3 and the parameters
// in host RAM it fits there (with --ram 128gb the CLI says 10.3 GiB per GPU
// and 55.6 GiB of host RAM under FSDP), so that comes before a third card;
// the suggestion names the --ram it needs, and keeps its promise with it.
TEST(TrainingOwnHardware, OffloadToHostRamBeforeAThirdCard) {
  TrainingQuery q = on(llama_70b_like(), "24gb", 2);
  q.method = TrainMethod::Qlora;
  q.checkpointing = Checkpointing::Full;
  q.checkpointing_defaulted = true;
  const TrainingEstimate e = make_training_report(q);
  ASSERT_FALSE(e.suggestions.empty());
  const TrainingSuggestion& first = e.suggestions.front();
  EXPECT_FALSE(more_gpus(first)) << first.change;
  EXPECT_EQ(first.verdict, Verdict::Offload) << first.change;
  const auto ram = std::find(first.args.begin(), first.args.end(), "--ram");
  ASSERT_NE(ram, first.args.end()) << first.change;
  const TrainingEstimate after = estimate_training(applied(q, first.args));
  EXPECT_EQ(after.verdict, Verdict::Offload);
  EXPECT_EQ(after.required, first.total_bytes);
  EXPECT_EQ(after.host_bytes, first.host_bytes);
  EXPECT_LE(after.host_bytes, *applied(q, first.args).ram);
  // With too little --ram given, the offload is not offered as fitting.
  q.ram = 16 * kGiB;
  for (const auto& s : make_training_report(q).suggestions) {
    if (s.verdict != Verdict::NoFit) {
      EXPECT_EQ(std::count(s.args.begin(), s.args.end(), "--offload-params"), 0) << s.change;
    }
  }
}

// A laptop's GPU is soldered to its board: no more GPUs or nodes of it.
TEST(TrainingOwnHardware, NoMoreGpusForALaptopGpu) {
  const TrainingQuery desktop = on(llama_8b_like(8030261248.0), "8gb", 1);
  const TrainingEstimate d = make_training_report(desktop);
  EXPECT_TRUE(std::any_of(d.suggestions.begin(), d.suggestions.end(), more_gpus));
  const TrainingQuery laptop = on(llama_8b_like(8030261248.0), "8gb", 1, true);
  for (const auto& s : make_training_report(laptop).suggestions) {
    EXPECT_FALSE(more_gpus(s)) << s.change;
  }
}

// On unified memory host RAM is the memory already counted: no offload to
// it is offered (found: full fine-tuning of Llama-3.1-8B on an M2 Max 64GB
// was offered ZeRO-Offload with --ram 192gb).
TEST(TrainingOwnHardware, NoOffloadOnUnifiedMemory) {
  TrainingQuery q = llama_8b_like(8030261248.0);
  Device mac = *raw_device("64gb");
  mac.kind = DeviceKind::Unified;
  mac.vendor = "apple";
  q.devices.devices.push_back(mac);
  q.devices.text = "64gb";
  const TrainingEstimate e = make_training_report(q);
  ASSERT_FALSE(e.suggestions.empty());
  for (const auto& s : e.suggestions) {
    EXPECT_EQ(std::count(s.args.begin(), s.args.end(), "--offload-optimizer"), 0) << s.change;
    EXPECT_EQ(std::count(s.args.begin(), s.args.end(), "--offload-params"), 0) << s.change;
    EXPECT_FALSE(more_gpus(s)) << s.change;
  }
}

}  // namespace
}  // namespace willfit
