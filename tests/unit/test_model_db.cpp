#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sources/embedded_data.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

const ModelDb& catalogue() {
  static const ModelDb db = [] {
    auto d = ModelDb::parse(app::embedded_models_json(), "embedded");
    EXPECT_TRUE(d.ok()) << d.error().message;
    return d.ok() ? *d : ModelDb{};
  }();
  return db;
}

const Model& model(const std::string& name) {
  auto m = catalogue().find(name);
  EXPECT_TRUE(m.ok()) << name << ": " << (m.ok() ? "" : m.error().message);
  static const Model none;
  return m.ok() ? m->entry->model : none;
}

// Every entry of the embedded catalogue has sane fields. Its parameter count
// against the architecture's recount, within 1 %, is checked in one place:
// CatalogueArchitecture.EveryParamCountMatchesItsArchitecture
// (test_catalogue_arch.cpp), with the entries it cannot match and why.
TEST(Catalogue, EveryEntryIsSane) {
  const auto& entries = catalogue().entries();
  ASSERT_GE(entries.size(), 75U);
  for (const auto& e : entries) {
    const Model& m = e.model;
    const Architecture& a = m.arch;
    SCOPED_TRACE(m.id);
    EXPECT_FALSE(e.source.empty());
    EXPECT_FALSE(m.family.empty());
    EXPECT_FALSE(e.aliases.empty());
    EXPECT_TRUE(e.modality == "text" || e.modality == "vision-language" ||
                e.modality == "encoder" || e.modality == "speech");
    EXPECT_GT(a.max_context, 0);
    // (Mamba alone has no MLP: its blocks are the mixer)
    EXPECT_TRUE(a.intermediate_size > 0 || purely_recurrent(a));
    EXPECT_LE(a.kv_heads, a.heads);
    if (a.attention.kind != AttentionKind::Mla) {
      EXPECT_EQ(a.heads % a.kv_heads, 0);
    } else {
      EXPECT_GT(a.attention.kv_lora_rank, 0);
      EXPECT_GT(a.attention.qk_rope_head_dim, 0);
    }
    if (a.attention.kind == AttentionKind::Sliding) {
      EXPECT_GT(a.attention.sliding_window, 0);
      EXPECT_LT(a.attention.sliding_window, a.max_context);
    }
    if (m.is_moe()) {
      EXPECT_LT(m.active_params, m.params);
      EXPECT_LE(a.moe->experts_per_token, a.moe->experts);
    } else {
      EXPECT_EQ(m.active_params, m.params);
    }
    // A speech model's other parts (encoders, code predictor, codec) are
    // counted as its projector where it publishes them.
    if (e.modality != "speech") {
      EXPECT_EQ(e.modality == "vision-language", a.vision_params > 0);
    }
  }
}

// weight_layout sizes each class of blocks llama.cpp's recipe treats alike
// once and copies it; sizing every block on its own must give the same bytes,
// for every catalogue architecture (dense, MoE, MLA, GPT-2 style) under every
// file type.
TEST(Catalogue, RecipeLayoutsSharedByClassEqualLayerByLayer) {
  int compared = 0;
  for (const CatalogueEntry& entry : catalogue().entries()) {
    for (const Precision& p : all_precisions()) {
      if (!has_gguf_recipe(p)) {
        continue;
      }
      const WeightLayout shared = weight_layout(entry.model, p);
      const WeightLayout each = detail::weight_layout_each_layer(entry.model, p);
      ASSERT_EQ(shared.layers.size(), each.layers.size()) << entry.model.id << " " << p.id;
      for (std::size_t i = 0; i < each.layers.size(); ++i) {
        ASSERT_EQ(shared.layers[i].bytes, each.layers[i].bytes)
            << entry.model.id << " " << p.id << " " << i;
        ASSERT_EQ(shared.layers[i].expert_bytes, each.layers[i].expert_bytes)
            << entry.model.id << " " << p.id << " " << i;
      }
      EXPECT_EQ(shared.total(), each.total()) << entry.model.id << " " << p.id;
      compared += shared.recipe ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 500);  // every entry under the ~30 file types
}

TEST(Catalogue, NamesBelongToOneModelAfterNormalisation) {
  std::map<std::string, std::string> owner;
  for (const auto& e : catalogue().entries()) {
    std::set<std::string> keys{model_name_key(e.model.id), model_name_key(e.model.name)};
    for (const auto& a : e.aliases) {
      // NAME:latest is matched exactly; its loose key (the family's name)
      // yields to an entry whose own name it is (ModelDb::reindex).
      if (!to_lower(a).ends_with(":latest")) {
        keys.insert(model_name_key(a));
      }
    }
    for (const auto& k : keys) {
      const auto [it, fresh] = owner.emplace(k, e.model.id);
      EXPECT_TRUE(fresh || it->second == e.model.id)
          << "'" << k << "' names both " << it->second << " and " << e.model.id;
    }
  }
}

TEST(Catalogue, CoversTheFamiliesTheIssueNames) {
  for (const char* id : {"llama-2-7b",
                         "llama-3-8b",
                         "llama-3.1-8b",
                         "llama-3.2-3b",
                         "llama-3.3-70b",
                         "mistral-7b-v0.3",
                         "mistral-nemo-12b",
                         "mistral-small-24b",
                         "mixtral-8x7b",
                         "mixtral-8x22b",
                         "qwen2.5-0.5b",
                         "qwen2.5-72b",
                         "qwen3-8b",
                         "qwen3-30b-a3b",
                         "qwen3-235b-a22b",
                         "gemma-2-9b",
                         "gemma-3-27b",
                         "phi-3-mini-4k",
                         "phi-3.5-mini",
                         "phi-4",
                         "deepseek-v3",
                         "deepseek-r1-distill-qwen-7b",
                         "gpt-oss-20b",
                         "gpt-oss-120b",
                         "falcon-7b",
                         "gpt-2",
                         "bert-base-uncased",
                         "qwen2.5-vl-7b",
                         "llama-3.2-11b-vision"}) {
    EXPECT_EQ(model(id).id, id);
  }
}

// The bare name deepseek-r1 is Ollama's deepseek-r1:latest (the 0528 Qwen3
// 8B); the 671B model is the id's entry by its Hugging Face name and tag.
TEST(Catalogue, DeepSeekR1IsThereByItsHubNameAndTag) {
  EXPECT_EQ(model("deepseek-ai/DeepSeek-R1").id, "deepseek-r1");
  EXPECT_EQ(model("deepseek-r1:671b").id, "deepseek-r1");
  // Its loose spellings stay the 671B's: deepseek-r1:latest's key yields.
  EXPECT_EQ(model("DeepSeek_R1").id, "deepseek-r1");
  EXPECT_EQ(model("unsloth/DeepSeek-R1-GGUF").id, "deepseek-r1");
  // A latest tag's key still finds its model where no name holds it.
  EXPECT_EQ(model("Llama 3.1").id, "llama-3.1-8b");
}

TEST(NameMatching, LooseSpellingsFindTheSameModel) {
  for (const char* name :
       {"llama-3.1-8b", "Llama-3.1-8B", "LLAMA_3.1_8B", "llama3.1:8b", "llama 3.1 8b",
        "llama-3.1-8b-instruct", "Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct",
        "meta-llama/Meta-Llama-3.1-8B-Instruct", "Meta-Llama-3.1-8B-Instruct-GGUF"}) {
    EXPECT_EQ(model(name).id, "llama-3.1-8b") << name;
  }
  EXPECT_EQ(model("Mixtral-8x7B-Instruct").id, "mixtral-8x7b");
  EXPECT_EQ(model("mistralai/Mixtral-8x7B-Instruct-v0.1").id, "mixtral-8x7b");
  EXPECT_EQ(model("qwen2.5:7b").id, "qwen2.5-7b");
  EXPECT_EQ(model("Qwen/Qwen2.5-7B-Instruct").id, "qwen2.5-7b");
  EXPECT_EQ(model("gemma-2-9b-it").id, "gemma-2-9b");
  EXPECT_EQ(model("gemma3:27b").id, "gemma-3-27b");
  EXPECT_EQ(model("deepseek-r1:7b").id, "deepseek-r1-distill-qwen-7b");
  EXPECT_EQ(model("gpt-oss:20b").id, "gpt-oss-20b");
  EXPECT_EQ(model("Llama-2-7b-chat-hf").id, "llama-2-7b");
  EXPECT_EQ(model("mistral:7b").id, "mistral-7b-v0.3");
  // Ollama's qwen3.5 and gemma4 library tags; the MoE tags drop the active
  // size ("qwen3.5:35b", "gemma4:26b").
  EXPECT_EQ(model("qwen3.5:9b").id, "qwen3.5-9b");
  EXPECT_EQ(model("qwen3.5:27b").id, "qwen3.5-27b");
  EXPECT_EQ(model("qwen3.5:35b").id, "qwen3.5-35b-a3b");
  EXPECT_EQ(model("qwen3.5:122b").id, "qwen3.5-122b-a10b");
  EXPECT_EQ(model("Qwen/Qwen3.5-2B").id, "qwen3.5-2b");
  EXPECT_EQ(model("gemma4:26b").id, "gemma-4-26b-a4b");
  EXPECT_EQ(model("gemma4:31b").id, "gemma-4-31b");
  EXPECT_EQ(model("gemma4:e2b").id, "gemma-4-e2b");
  EXPECT_EQ(model("gemma4:e4b").id, "gemma-4-e4b");
  EXPECT_EQ(model("qwen3.6:35b").id, "qwen3.6-35b-a3b");
  EXPECT_EQ(model("qwen3.8:27b").id, "qwen3.8-27b");
  // Ollama names GLM-4.7-Flash without a size tag; its quantisation tags parse.
  EXPECT_EQ(model("zai-org/GLM-4.7-Flash").id, "glm-4.7-flash");
  EXPECT_EQ(catalogue().find("glm-4.7-flash:q8_0")->precision_hint, "q8_0");
  EXPECT_EQ(model("olmo-3:7b").id, "olmo-3-7b");
  EXPECT_EQ(model("allenai/Olmo-3-1125-32B").id, "olmo-3-32b");
}

TEST(NameMatching, OllamaTagsWithAQuantisationSetThePrecision) {
  auto m = catalogue().find("qwen2.5:7b-instruct-q4_K_M");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->entry->model.id, "qwen2.5-7b");
  EXPECT_EQ(m->precision_hint, "q4_k_m");
  auto l = catalogue().find("llama3.1:8b-instruct-fp16");
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->precision_hint, "fp16");
  auto g = catalogue().find("Llama-3.1-8B-Instruct-Q8_0");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->precision_hint, "q8_0");
  EXPECT_EQ(catalogue().find("llama3.1:8b")->precision_hint, "");
}

// An Ollama tag names a package of Ollama's library: it does not loosely
// match an entry whose aliases name none. Ollama's qwen:7b is Qwen1.5-7B,
// not the Qwen-1 checkpoint (qwen1-7b) whose hub id Qwen/Qwen-7B spells the
// same once normalised; MPT has no package at all. The hub ids still match.
TEST(NameMatching, OllamaTagsMatchOnlyEntriesOllamaServes) {
  EXPECT_FALSE(catalogue().find("qwen:7b").ok());
  EXPECT_FALSE(catalogue().find("qwen:14b").ok());
  EXPECT_FALSE(catalogue().find("mpt:7b").ok());
  EXPECT_EQ(model("Qwen/Qwen-7B-Chat").id, "qwen1-7b");
  EXPECT_EQ(model("Qwen-7B").id, "qwen1-7b");
  EXPECT_EQ(model("mpt-7b").id, "mpt-7b");
  EXPECT_EQ(model("qwen2.5:7b-instruct").id, "qwen2.5-7b");
}

TEST(NameMatching, UnknownNamesGetSuggestions) {
  auto m = catalogue().find("llama3.9:8b");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("unknown model 'llama3.9:8b'"), std::string::npos);
  EXPECT_NE(m.error().message.find("did you mean 'llama3.1:8b'"), std::string::npos);
  const auto s = catalogue().suggest("qwen3:31b");
  ASSERT_FALSE(s.empty());
  EXPECT_LE(s.size(), 3U);
}

TEST(NameMatching, KeysAndPrecisionSplitting) {
  EXPECT_EQ(model_name_key("meta-llama/Llama-3.1-8B-Instruct"), "llama-3-1-8-b");
  EXPECT_EQ(model_name_key("llama3.1:8b"), "llama-3-1-8-b");
  EXPECT_NE(model_name_key("qwen2.5-7b"), model_name_key("qwen2-57b"));
  EXPECT_EQ(split_precision_suffix("qwen2.5:7b-instruct-q4_K_M").precision, "q4_k_m");
  EXPECT_EQ(split_precision_suffix("qwen2.5:7b-instruct-q4_K_M").name, "qwen2.5:7b-instruct");
  EXPECT_EQ(split_precision_suffix("qwen2.5:7b").precision, "");
  EXPECT_EQ(split_precision_suffix("mistral-7b-v0.3").precision, "");
  EXPECT_EQ(split_precision_suffix("gpt-oss-20b").precision, "");
}

TEST(Search, FindsByLoosePart) {
  const auto qwen3 = catalogue().search("qwen3");
  EXPECT_GE(qwen3.size(), 8U);
  for (const auto* e : qwen3) {
    EXPECT_NE(e->model.id.find("qwen3"), std::string::npos) << e->model.id;
  }
  EXPECT_EQ(catalogue().search("").size(), catalogue().entries().size());
  EXPECT_TRUE(catalogue().search("zzzz").empty());
}

TEST(UserEntries, AddAndReplace) {
  ModelDb db = catalogue();
  auto extra = ModelDb::parse(R"({"models":[
      {"id":"my-model-3b","params":3000000000,"layers":28,"hidden_size":3072,"heads":24,
       "kv_heads":8,"vocab_size":128256,"aliases":["mine:3b"]},
      {"id":"llama-3.1-8b","name":"My Llama","params":8030000000,"layers":32,"hidden_size":4096,
       "intermediate_size":14336,"heads":32,"kv_heads":8,"vocab_size":128256}]})",
                              "/home/u/.config/willfit/models.json");
  ASSERT_TRUE(extra.ok()) << extra.error().message;
  const auto before = db.entries().size();
  db.merge(std::move(*extra));
  EXPECT_EQ(db.entries().size(), before + 1);
  EXPECT_EQ(db.find("mine:3b")->entry->model.id, "my-model-3b");
  EXPECT_EQ(db.find("my-model-3b")->entry->model.arch.head_dim, 128);  // 3072 / 24
  EXPECT_EQ(db.find("llama3.1:8b")->entry->model.name, "My Llama");
  EXPECT_EQ(db.find("mine:3b")->entry->origin, "/home/u/.config/willfit/models.json");
}

TEST(UserEntries, MistakesAreNamedInOneLine) {
  struct Case {
    const char* json;
    const char* expect;
  };
  for (
      const Case& c : std::initializer_list<Case>{
          {"{", "not valid JSON"},
          {R"({"schema_version":2,"models":[]})", "schema_version 2"},
          {R"({"data":[]})", "missing the 'models' array"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2}])",
           "model 1 ('x'): missing 'vocab_size'"},
          {R"([{"id":"x","params":1000000,"layers":"2","hidden_size":64,"heads":2,"vocab_size":10}])",
           "'layers' must be a whole number"},
          {R"([{"id":"x","params":1000000,"layers":-2,"hidden_size":64,"heads":2,"vocab_size":10}])",
           "'layers' must be between"},
          {R"([{"id":"x","params":1e30,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10}])",
           "'params' must be a whole number"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"kv_heads":4,"vocab_size":10}])",
           "'kv_heads' must be between 1 and 2"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"weird"}}])",
           "attention 'kind'"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10,"moe":{"experts":8,"experts_per_token":9}}])",
           "'experts_per_token' must be between 1 and 8"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10},
                {"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10}])",
           "appears twice"},
          {"[3]", "model 1 must be an object"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RRA"}}])",
           "'layer_mixers' must be one letter A, R or F for each of the 4 layers"},
          {R"([{"id":"x","params":1000000,"layers":3,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"recurrent_layers":2,"layer_mixers":"RFA"}}])",
           "'layer_mixers' has 1 layers R, 'recurrent_layers' says 2"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RARA"}}])",
           "'layer_mixers' has 2 layers A, 'attention_layers' says 1"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"delta_net_k_heads":2,"delta_net_v_heads":4}}])",
           "'delta_net_k_heads', 'delta_net_v_heads', 'delta_net_head_dim' and 'delta_net_conv' go "
           "together"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"delta_net_k_heads":3,"delta_net_v_heads":4,"delta_net_head_dim":8,"delta_net_conv":4}}])",
           "value heads a multiple of the key heads"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"sliding","sliding_window":8,"sinks":1}}])",
           "'sinks' must be true or false"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"full","parallel_block":true}}])",
           "'parallel_block' names the block (gpt-neox, gpt-j, cohere, plamo, falcon or phi-2), "
           "not true or "
           "false"},
          {R"([{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"full","parallel_block":"neox"}}])",
           "'parallel_block' must be gpt-neox, gpt-j, cohere, plamo, falcon or phi-2, not 'neox'"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"mamba1_inner":128,"mamba1_state":16,"mamba1_conv":4,"mamba1_dt_rank":48}}])",
           "'mamba1_inner' needs a mamba1_dt_rank that divides it"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"mamba1_inner":128,"mamba2_inner":128}}])",
           "one Mamba mixer or the other"},
          {R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"mamba2_heads":4,"mamba2_state":16}}])",
           "'mamba2_heads' needs the mixer's inner width ('mamba2_inner')"},
      }) {
    auto db = ModelDb::parse(c.json, "user.json");
    ASSERT_FALSE(db.ok()) << c.json;
    EXPECT_EQ(db.error().message.rfind("user.json: ", 0), 0U) << db.error().message;
    EXPECT_NE(db.error().message.find(c.expect), std::string::npos) << db.error().message;
    EXPECT_EQ(db.error().message.find('\n'), std::string::npos);
  }
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  EXPECT_NE(ModelDb::parse(deep, "user.json").error().message.find("nested"), std::string::npos);
}

// A key under the wrong kind, block or model was dropped without a word; each
// is now its own refusal, and the DFlash mistakes no longer share one line.
TEST(UserEntries, KeysOfAnotherKindAreRefusedByName) {
  const std::string base =
      R"("id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10)";
  const auto entry = [&](const std::string& more) { return "[{" + base + more + "}]"; };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {entry(R"(,"attention":{"kind":"full","rwkv":6})"),
       "attention key 'rwkv' is read for kind 'hybrid', not for 'full'"},
      {entry(R"(,"attention":{"kind":"sliding","sliding_window":8,"rwkv_token_shift_count":2})"),
       "attention key 'rwkv_token_shift_count' is read for kind 'hybrid', not for 'sliding'"},
      {entry(R"(,"attention":{"kind":"full","mla_unscaled_head":true})"),
       "attention key 'mla_unscaled_head' is read for kind 'mla', not for 'full'"},
      {entry(R"(,"attention":{"kind":"full","windw":8})"),
       "attention key 'windw' is not read for kind 'full' (misspelt"},
      {entry(R"(,"attention":{"kind":"hybrid","attention_layers":1,"rwkv_time_mix_extra":32})"),
       "attention 'rwkv_time_mix_extra' needs 'rwkv' (6) beside it"},
      {entry(R"(,"attention":{"kind":"full","mamba2_heads":4})"),
       "attention key 'mamba2_heads' is read for kind 'hybrid', not for 'full'"},
      {entry(R"(,"moe":{"experts":8,"experts_per_token":2,"expert_per_group":2})"),
       "'moe' has no key 'expert_per_group'"},
      {entry(R"(,"experts_per_group":2,"group_expert_width":16)"),
       "'experts_per_group' belongs inside 'moe', not beside it (and the model has no such "
       "block)"},
      {entry(R"(,"rwkv":6,"attention":{"kind":"full"})"),
       "'rwkv' belongs inside 'attention', not beside it"},
      {entry(R"(,"family":"bert","tied_embeddings":false,"head_rows":4)"),
       "'head_rows' sizes an output head, and 'bert' has none (an encoder)"},
      {entry(R"(,"draft_own_head":true)"),
       "'draft_own_head' needs 'dflash_target_layers' (only a DFlash draft has it)"},
      {entry(R"(,"dflash_conv_kernel":4)"),
       "'dflash_conv_kernel' needs 'dflash_target_layers' (only a DFlash draft has it)"},
      {entry(R"(,"dflash_target_layers":2,"dflash_conv_kernel":4)"),
       "DFlash2's 'dflash_conv_kernel', 'dflash_conv_group', 'dflash_selector_rank' and "
       "'dflash_selector_top_k' go together: give all four or none"},
      {entry(
           R"(,"dflash_target_layers":2,"dflash_conv_kernel":4,"dflash_conv_group":5,"dflash_selector_rank":8,"dflash_selector_top_k":4)"),
       "'dflash_conv_group' 5 must divide 'hidden_size' 64"},
      {entry(R"(,"dflash_target_layers":2,"draft_vocab":8)"),
       "'draft_vocab' (the rows of a reduced head) needs 'draft_own_head' true"},
  };
  for (const auto& [json, expect] : cases) {
    auto db = ModelDb::parse(json, "user.json");
    ASSERT_FALSE(db.ok()) << json;
    EXPECT_NE(db.error().message.find(expect), std::string::npos) << db.error().message;
    EXPECT_EQ(db.error().message.find('\n'), std::string::npos);
  }
  // null is "not given", under any kind (the embedded file writes them).
  EXPECT_TRUE(
      ModelDb::parse(entry(R"(,"attention":{"kind":"full","rwkv":null})"), "user.json").ok());
}

// A parallel block is named by its family (they differ in norms and in the
// order of the adds): each name reaches the model.
TEST(UserEntries, ParallelBlockIsNamed) {
  const std::pair<const char*, ParallelBlock> kinds[] = {
      {"gpt-neox", ParallelBlock::NeoX}, {"gpt-j", ParallelBlock::GptJ},
      {"cohere", ParallelBlock::Cohere}, {"plamo", ParallelBlock::Plamo},
      {"falcon", ParallelBlock::Falcon}, {"phi-2", ParallelBlock::Phi2}};
  for (const auto& [name, kind] : kinds) {
    auto db = ModelDb::parse(
        fmt::format(R"([{{"id":"x","params":1000000,"layers":2,"hidden_size":64,"heads":2,
        "vocab_size":10,"attention":{{"kind":"full","parallel_block":"{}"}}}}])",
                    name),
        "user.json");
    ASSERT_TRUE(db.ok()) << db.error().message;
    EXPECT_EQ(db->find("x")->entry->model.arch.attention.parallel_block, kind) << name;
  }
}

// A hybrid's mixers as a GGUF file gives them (gguf.cpp): the layer order,
// LFM2's short convolution, Qwen3-Next's delta net; they reach the model.
TEST(UserEntries, HybridMixersAreRead) {
  auto db = ModelDb::parse(R"([{"id":"x","params":1000000,"layers":4,"hidden_size":64,"heads":2,
      "vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RRRA",
      "delta_net_k_heads":2,"delta_net_v_heads":4,"delta_net_head_dim":16,"delta_net_conv":4}},
      {"id":"y","params":1000000,"layers":3,"hidden_size":64,"heads":2,"vocab_size":10,
      "attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RAR","short_conv_cache":2}}])",
                           "user.json");
  ASSERT_TRUE(db.ok()) << db.error().message;
  const Attention& x = db->find("x")->entry->model.arch.attention;
  EXPECT_EQ(x.layer_mixers, "RRRA");
  EXPECT_EQ(x.delta_net_k_heads, 2);
  EXPECT_EQ(x.delta_net_v_heads, 4);
  EXPECT_EQ(x.delta_net_head_dim, 16);
  EXPECT_EQ(x.delta_net_conv, 4);
  const Attention& y = db->find("y")->entry->model.arch.attention;
  EXPECT_EQ(y.layer_mixers, "RAR");
  EXPECT_EQ(y.short_conv_cache, 2);
}

// Granite 4 H's Mamba-2 (mamba2_*) and Jamba's Mamba-1 (mamba1_*: a
// time-step rank, no groups) reach the model as a GGUF's ssm.* keys do.
TEST(UserEntries, MambaMixersAreRead) {
  auto db = ModelDb::parse(R"([{"id":"g","params":1000000,"layers":4,"hidden_size":64,"heads":2,
      "vocab_size":10,"attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RARR",
      "mamba2_inner":128,"mamba2_heads":2,"mamba2_groups":1,"mamba2_state":16,"mamba2_conv":4}},
      {"id":"j","params":1000000,"layers":4,"hidden_size":64,"heads":2,"vocab_size":10,
      "attention":{"kind":"hybrid","attention_layers":1,"layer_mixers":"RRAR","mamba1_inner":128,
      "mamba1_state":16,"mamba1_conv":4,"mamba1_dt_rank":4}}])",
                           "user.json");
  ASSERT_TRUE(db.ok()) << db.error().message;
  const Attention& g = db->find("g")->entry->model.arch.attention;
  EXPECT_EQ(g.mamba, 2);
  EXPECT_EQ(g.ssm_inner, 128);
  EXPECT_EQ(g.ssm_heads, 2);
  EXPECT_EQ(g.ssm_groups, 1);
  EXPECT_EQ(g.ssm_state, 16);
  EXPECT_EQ(g.ssm_conv, 4);
  const Attention& j = db->find("j")->entry->model.arch.attention;
  EXPECT_EQ(j.mamba, 1);
  EXPECT_EQ(j.layer_mixers, "RRAR");
  EXPECT_EQ(j.ssm_inner, 128);
  EXPECT_EQ(j.ssm_heads, 4);
  EXPECT_EQ(j.ssm_groups, 0);
  EXPECT_EQ(j.ssm_state, 16);
  EXPECT_EQ(j.ssm_conv, 4);
}

// The estimate sees the catalogue's architecture.
InferenceQuery at(const std::string& name, std::int64_t context) {
  InferenceQuery q;
  q.model = model(name);
  q.precision = *parse_precision("fp16");
  q.context = context;
  return q;
}

TEST(CatalogueEstimate, SlidingWindowsShrinkGemma3Cache) {
  // Gemma-3-27B: 52 of 62 layers see only 1024 tokens, so at 32k its cache is
  // a fraction of the same shape with full attention on every layer.
  InferenceQuery q = at("gemma-3-27b", 32768);
  q.runtime = Runtime::LlamaCpp;
  const Estimate windowed = estimate_inference(q);
  // Global layers: 62 / 6 = 10 of them hold all 32768 cells:
  // 10 x 16 KV heads x 128 x 2 bytes x 2 (K, V) x 32768 = 2.5 GiB. llama.cpp's
  // SWA cache keeps the window plus one micro-batch (1024 + 512) on the rest.
  EXPECT_EQ(windowed.memory.kv_cache, std::int64_t{10} * 16 * 128 * 2 * 2 * 32768 +
                                          std::int64_t{52} * 16 * 128 * 2 * 2 * 1536);
  // transformers' sliding layers keep the window alone.
  q.runtime = Runtime::Transformers;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, std::int64_t{10} * 16 * 128 * 2 * 2 * 32768 +
                                                       std::int64_t{52} * 16 * 128 * 2 * 2 * 1024);
  q.runtime = Runtime::LlamaCpp;
  q.model.arch.attention.kind = AttentionKind::Full;
  const Estimate full = estimate_inference(q);
  EXPECT_LT(windowed.memory.kv_cache * 4, full.memory.kv_cache);
}

TEST(CatalogueEstimate, DeepSeekV3CachesOneLatentPerLayer) {
  // 61 layers x (512 + 64) x 2 bytes = 68.6 KiB per token (inference-estimators.md
  // section 0.3, MLA).
  const Estimate e = estimate_inference(at("deepseek-v3", 4096));
  EXPECT_EQ(e.memory.kv_cache, std::int64_t{61} * 576 * 2 * 4096);
}

TEST(CatalogueEstimate, GlmFlashCachesOneLatentPerLayer) {
  // GLM-4.7-Flash is MLA too: a public port's work log sizes its latent cache
  // at 1.15 KB per token and layer in bf16 (576 values;
  // a public Markdown work log of a GLM-4.7-Flash port to tt-metal (branch
  // ttmodelmanager/glm47-flash-probe, models/autoports/zai_org_glm_4_7_flash)), over 47 layers,
  // where 20 full heads of 256 would take 20.5 KB.
  const Estimate e = estimate_inference(at("glm-4.7-flash", 4096));
  EXPECT_EQ(e.memory.kv_cache, std::int64_t{47} * 1152 * 4096);
}

TEST(CatalogueEstimate, MixtralKeepsEveryExpertInMemory) {
  const Estimate e = estimate_inference(at("mixtral-8x7b", 4096));
  EXPECT_EQ(e.memory.weights, std::int64_t{46702792704} * 2);  // all 46.7 B at 2 bytes
  EXPECT_EQ(model("mixtral-8x7b").active_params, 13000000000);
}

TEST(CatalogueEstimate, TiedEmbeddingsAndVisionTowersCount) {
  EXPECT_TRUE(model("gemma-3-27b").arch.tied_embeddings);
  EXPECT_GT(model("gemma-3-27b").arch.vision_params, 400'000'000);
  const Estimate e = estimate_inference(at("gemma-3-27b", 4096));
  // The vision tower is its own term (the projector), in BF16 like the rest.
  EXPECT_EQ(e.memory.projector, model("gemma-3-27b").arch.vision_params * 2);
  EXPECT_EQ(e.memory.weights + e.memory.projector, std::int64_t{27432062576} * 2);
  InferenceQuery text = at("gemma-3-27b", 4096);
  text.text_only = true;
  const Estimate t = estimate_inference(text);
  EXPECT_EQ(t.memory.projector, 0);
  EXPECT_EQ(t.memory.weights, e.memory.weights);
  EXPECT_EQ(t.memory.total(),
            e.memory.total() - e.memory.projector - (e.memory.margin - t.memory.margin));
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// Issue 16: a named model's default precision is the one it is published in,
// read from the entry; every embedded entry names it, with a source.
TEST(PublishedPrecision, EveryEntryNamesAParseablePrecisionWithASource) {
  for (const auto& e : catalogue().entries()) {
    ASSERT_FALSE(e.published_precision.empty()) << e.model.id;
    EXPECT_TRUE(parse_precision(e.published_precision).ok()) << e.model.id;
    EXPECT_FALSE(e.published_precision_source.empty()) << e.model.id;
  }
}

Model resolved(const std::string& name) {
  auto m = catalogue().find(name);
  EXPECT_TRUE(m.ok()) << name;
  return m.ok() ? model_from_match(*m) : Model{};
}

TEST(PublishedPrecision, NamesDefaultToHowTheModelIsPublished) {
  EXPECT_EQ(resolved("gpt-oss-20b").precision_hint, "mxfp4");
  EXPECT_EQ(resolved("openai/gpt-oss-120b").precision_hint, "mxfp4");
  EXPECT_EQ(resolved("deepseek-ai/DeepSeek-R1").precision_hint, "fp8");
  EXPECT_EQ(resolved("meta-llama/Llama-3.1-8B-Instruct").precision_hint, "bf16");
  EXPECT_EQ(resolved("llama-2-7b").precision_hint, "fp16");
  EXPECT_FALSE(resolved("llama-3.1-8b").ollama_tag);
  EXPECT_NE(resolved("deepseek-v3").precision_hint_why.find("quantization_config"),
            std::string::npos);
}

TEST(PublishedPrecision, OllamaTagsAreWhatOllamaPullFetches) {
  const Model m = resolved("llama3.1:8b");
  EXPECT_TRUE(m.ollama_tag);
  EXPECT_EQ(m.precision_hint, "q4_k_m");
  EXPECT_EQ(resolved("qwen2.5:7b-instruct-q8_0").precision_hint, "q8_0");
  EXPECT_TRUE(resolved("qwen2.5:7b-instruct-q8_0").ollama_tag);
  EXPECT_EQ(resolved("gpt-oss:20b").precision_hint, "mxfp4");  // Ollama ships it in MXFP4
  EXPECT_EQ(resolved("deepseek-r1:671b").precision_hint, "q4_k_m");
}

// The embedding models of Ollama's library, by the names `ollama pull` takes:
// each finds its entry, an encoder with no KV cache, at the precision of the
// package the tag pulls (16 bits).
TEST(PublishedPrecision, OllamaEmbeddingTagsFindTheirEntries) {
  const std::pair<const char*, const char*> tags[] = {
      {"nomic-embed-text", "nomic-embed-text-v1.5"},
      {"mxbai-embed-large:335m", "mxbai-embed-large-v1"},
      {"all-minilm:22m", "all-minilm-l6-v2"},
      {"all-minilm:33m", "all-minilm-l12-v2"},
      {"snowflake-arctic-embed:137m", "snowflake-arctic-embed-m-long"},
      {"bge-m3", "bge-m3"},
      {"embeddinggemma", "embeddinggemma-300m"},
      {"granite-embedding:278m", "granite-embedding-278m"},
  };
  for (const auto& [tag, id] : tags) {
    auto m = catalogue().find(tag);
    ASSERT_TRUE(m.ok()) << tag;
    EXPECT_EQ(m->entry->model.id, id) << tag;
    EXPECT_EQ(m->entry->modality, "encoder") << tag;
    EXPECT_TRUE(m->entry->model.arch.attention.no_kv_cache) << tag;
  }
  EXPECT_EQ(resolved("mxbai-embed-large:335m").precision_hint, "f16");
  EXPECT_EQ(resolved("all-minilm:22m").precision_hint, "f16");
  EXPECT_EQ(resolved("embeddinggemma:300m").precision_hint, "f16");  // its BF16 package
}

// Ollama reads a name without a tag as name:latest ("ollama pull llama3.1"),
// and the library's latest tag is one size of the family (public `ollama
// list` transcripts: llama3.1:latest has llama3.1:8b's ID 46e0c10c039e,
// qwen3:latest qwen3:8b's 500a1f067a9f): a bare name is that tag, run by
// Ollama at what its package holds; the catalogue's own ids stay as they are.
TEST(PublishedPrecision, ABareOllamaNameIsItsLatestTag) {
  const std::pair<const char*, const char*> names[] = {
      {"llama3.1", "llama-3.1-8b"},
      {"llama3.2", "llama-3.2-3b"},
      {"qwen3", "qwen3-8b"},
      {"gpt-oss", "gpt-oss-20b"},
      {"nomic-embed-text", "nomic-embed-text-v1.5"},
      {"LLAMA3.1:latest", "llama-3.1-8b"},
  };
  for (const auto& [name, id] : names) {
    auto m = catalogue().find(name);
    ASSERT_TRUE(m.ok()) << name;
    EXPECT_EQ(m->entry->model.id, id) << name;
    EXPECT_TRUE(m->ollama_tag) << name;
  }
  EXPECT_EQ(resolved("llama3.1").precision_hint, "q4_k_m");
  EXPECT_EQ(resolved("gpt-oss").precision_hint, "mxfp4");
  EXPECT_EQ(resolved("nomic-embed-text").precision_hint, "f16");
  // A catalogue id or a Hugging Face name is not an Ollama tag.
  for (const char* name : {"llama-3.1-8b", "meta-llama/Llama-3.1-8B-Instruct"}) {
    auto m = catalogue().find(name);
    ASSERT_TRUE(m.ok()) << name;
    EXPECT_FALSE(m->ollama_tag) << name;
  }
  // A family without a known latest tag is still unknown, with suggestions.
  EXPECT_FALSE(catalogue().find("qwen3.5").ok());
}

// NAME:latest is the size Ollama's library makes the default, and nothing
// else: since the 0528 update deepseek-r1:latest and deepseek-r1:8b are
// DeepSeek-R1-0528-Qwen3-8B (public `ollama list` transcripts give both the
// ID 6995872bfe4c, 5.2 GB, architecture qwen3), not the catalogue's
// deepseek-r1 (671B) that the loose key would reach once "latest" is dropped.
TEST(PublishedPrecision, NameLatestIsOllamasTagBeforeACatalogueId) {
  const std::pair<const char*, const char*> names[] = {
      {"deepseek-r1", "deepseek-r1-0528-qwen3-8b"},
      {"deepseek-r1:latest", "deepseek-r1-0528-qwen3-8b"},
      {"deepseek-r1:8b", "deepseek-r1-0528-qwen3-8b"},
      {"mistral-small3.2", "mistral-small-3.2-24b"},
      {"mistral-small3.2:latest", "mistral-small-3.2-24b"},
      {"qwen2.5-coder", "qwen2.5-coder-7b"},
      {"deepseek-r1:671b", "deepseek-r1"},
  };
  for (const auto& [name, id] : names) {
    auto m = catalogue().find(name);
    ASSERT_TRUE(m.ok()) << name;
    EXPECT_EQ(m->entry->model.id, id) << name;
    EXPECT_TRUE(m->ollama_tag) << name;
  }
  // The Llama distill is the library's 8b-llama-distill tag now.
  auto llama = catalogue().find("deepseek-r1:8b-llama-distill-q4_K_M");
  ASSERT_TRUE(llama.ok());
  EXPECT_EQ(llama->entry->model.id, "deepseek-r1-distill-llama-8b");
  EXPECT_EQ(llama->precision_hint, "q4_k_m");
  // A latest tag the catalogue does not record is the registry's to answer.
  EXPECT_FALSE(catalogue().find("qwen3-coder:latest").ok());
  EXPECT_FALSE(catalogue().find("deepseek-v3:latest").ok());
  // The catalogue id itself stays the 671B model.
  EXPECT_EQ(catalogue().find("deepseek-ai/DeepSeek-R1")->entry->model.id, "deepseek-r1");
}

TEST(PublishedPrecision, AUserEntryWithABadPrecisionIsOneError) {
  auto bad = ModelDb::parse(
      R"({"models": [{"id": "x", "params": 1000, "layers": 1, "hidden_size": 8, "heads": 1,
          "vocab_size": 10, "published_precision": "fp7", "published_precision_source": "s"}]})",
      "mine.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("published_precision"), std::string::npos);
  EXPECT_NE(bad.error().message.find("mine.json"), std::string::npos);
  auto plain = ModelDb::parse(
      R"({"models": [{"id": "x", "params": 1000, "layers": 1, "hidden_size": 8, "heads": 1,
          "vocab_size": 10}]})",
      "mine.json");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(model_from_match(*plain->find("x")).precision_hint, "");  // fp16, as before
}

// `ollama_tags` (data/README.md): the quantisations Ollama's library
// publishes as tags of their own, from its tags pages. Each listed tag is a
// name of its entry, with the tag's type as the precision, so what a
// suggestion names resolves to the model it was estimated for.
TEST(OllamaTags, EveryListedTagFindsItsEntryAtItsType) {
  int tags = 0;
  for (const auto& e : catalogue().entries()) {
    for (const std::string& type : e.model.ollama_tag_types) {
      const auto p = parse_precision(type);
      ASSERT_TRUE(p.ok()) << e.model.id << ": " << type;
      const auto tag = ollama_tag_for(e.model, p->id);
      ASSERT_TRUE(tag.has_value()) << e.model.id << ": " << type;
      const auto m = catalogue().find(*tag);
      ASSERT_TRUE(m.ok()) << *tag << ": " << m.error().message;
      EXPECT_EQ(m->entry->model.id, e.model.id) << *tag;
      EXPECT_TRUE(m->ollama_tag) << *tag;
      EXPECT_EQ(model_from_match(*m).precision_hint, p->id) << *tag;
      ++tags;
    }
  }
  EXPECT_GT(tags, 500);
}

// The lists as the library's tags pages give them (yuma-shintani/ollama-
// model-library docs/model.json at commit 98f4e823): Llama 3.1 8B from q2_K
// to q8_0 and fp16, Qwen3 8B only q4_K_M, q8_0 and fp16, gpt-oss only MXFP4.
TEST(OllamaTags, TheLibrarysListsForOldAndNewFamilies) {
  const Model& llama = model("llama3.1:8b");
  EXPECT_EQ(ollama_tag_for(llama, "q3_k_m"), "llama3.1:8b-instruct-q3_K_M");
  EXPECT_EQ(ollama_tag_for(llama, "q2_k"), "llama3.1:8b-instruct-q2_K");
  EXPECT_EQ(ollama_tag_for(llama, "fp16"), "llama3.1:8b-instruct-fp16");
  EXPECT_EQ(ollama_tag_for(llama, "iq3_m"), std::nullopt);
  // llama3.1:70b has no q4_1 tag (its 8b has).
  EXPECT_EQ(ollama_tag_for(model("llama3.1:70b"), "q4_1"), std::nullopt);
  EXPECT_EQ(ollama_tag_for(model("llama3.1:8b"), "q4_1"), "llama3.1:8b-instruct-q4_1");
  const Model& qwen3 = model("qwen3:8b");
  EXPECT_EQ(qwen3.ollama_tag_types, (std::vector<std::string>{"q4_K_M", "q8_0", "fp16"}));
  EXPECT_EQ(ollama_tag_for(qwen3, "q8_0"), "qwen3:8b-q8_0");
  EXPECT_EQ(ollama_tag_for(qwen3, "q3_k_m"), std::nullopt);
  EXPECT_EQ(ollama_tag_for(model("gpt-oss:20b"), "mxfp4"), "gpt-oss:20b");
  EXPECT_EQ(ollama_tag_for(model("gpt-oss:20b"), "q4_k_m"), std::nullopt);
  EXPECT_EQ(model("phi3:3.8b-mini-4k-instruct-q3_K_M").id, "phi-3-mini-4k");
  EXPECT_EQ(model("mistral:7b-instruct-v0.3-q3_K_M").id, "mistral-7b-v0.3");
  for (const auto& e : catalogue().entries()) {
    if (!e.model.ollama_tag_types.empty()) {
      EXPECT_FALSE(e.model.ollama_tag_pattern.empty()) << e.model.id;
    }
  }
}

// A tag of a type the library's page does not list (qwen3's page: q4_K_M,
// q8_0 and fp16) is no package `ollama pull` fetches: it is answered as the
// user's own quantisation, and the answer names the tags that exist. A
// listed tag carries no such note.
TEST(OllamaTags, AnUnpublishedTagIsAnsweredAndSaysSo) {
  const auto says = [](const char* name) {
    const Model m = resolved(name);
    return std::any_of(m.notes.begin(), m.notes.end(), [](const std::string& n) {
      return n.starts_with("Ollama's library publishes no");
    });
  };
  const Model q3 = resolved("qwen3:8b-q3_K_M");
  EXPECT_EQ(q3.precision_hint, "q3_k_m");
  EXPECT_TRUE(says("qwen3:8b-q3_K_M"));
  EXPECT_TRUE(says("llama3.1:8b-instruct-iq4_xs"));
  EXPECT_FALSE(says("qwen3:8b-q8_0"));
  EXPECT_FALSE(says("llama3.1:8b-instruct-q3_K_M"));
  EXPECT_FALSE(says("qwen3:8b"));
}

// Older library uploads default to Q4_0, not Q4_K_M (ollama/ollama issue
// 643; issue 1543: Q4_K_M only from 2024-12): the default tags' sizes are the
// q4_0 tags' (llama2:7b 3.8 GB as llama2:7b-chat-q4_0, against 4.1 GB for
// -q4_K_M; llama3:8b 4.7 GB against 4.9 GB; llama3.2:1b 1.3 GB as its q8_0
// tag: Jeffser/Alpaca src/available_models.json at 6394569b and cffd20e1).
// llama3.1:8b moved to Q4_K_M (4.9 GB at cffd20e1), qwen2.5 was Q4_K_M.
TEST(OllamaTags, OldLibraryUploadsPullQ4_0) {
  for (const char* tag : {"llama2:7b", "llama2:latest", "llama2:13b", "llama2:70b", "llama3:8b",
                          "llama3:latest", "llama3:70b", "mistral:7b", "codellama:7b", "gemma2:9b",
                          "phi3:3.8b", "qwen2:7b", "mistral-nemo:12b"}) {
    EXPECT_EQ(resolved(tag).precision_hint, "q4_0") << tag;
  }
  EXPECT_EQ(resolved("llama3.2:1b").precision_hint, "q8_0");
  for (const char* tag : {"llama3.1:8b", "llama3.2:3b", "qwen2.5:7b", "qwen3:8b"}) {
    EXPECT_EQ(resolved(tag).precision_hint, "q4_k_m") << tag;
  }
  // A tag naming its type still wins, and a non-Ollama name of the entry
  // keeps the published precision.
  EXPECT_EQ(resolved("llama2:7b-chat-q4_K_M").precision_hint, "q4_k_m");
  EXPECT_EQ(resolved("llama-2-7b").precision_hint, "fp16");
}

// A bare library name is its :latest tag (Ollama reads a name without a tag
// so); the catalogue knows the latest tag of these families (the size whose
// tag has the latest tag's size: Jeffser/Alpaca src/available_models.json at
// 6394569b, mixtral:latest 26 GB as mixtral:8x7b, mistral-nemo:latest 7.1 GB
// as :12b, gemma2:latest 5.4 GB as :9b), so they answer offline.
TEST(OllamaTags, BareLibraryNamesAreTheirLatestTag) {
  for (const auto& [name, id] : std::initializer_list<std::pair<const char*, const char*>>{
           {"mixtral", "mixtral-8x7b"},
           {"mistral-nemo", "mistral-nemo-12b"},
           {"gemma2", "gemma-2-9b"},
           {"phi3", "phi-3-mini-4k"},
           {"mistral", "mistral-7b-v0.3"},
           {"qwq", "qwq-32b"}}) {
    const auto m = catalogue().find(name);
    ASSERT_TRUE(m.ok()) << name << ": " << m.error().message;
    EXPECT_EQ(m->entry->model.id, id) << name;
  }
}

// The note of the tag form is the same function's: `-p q5_k_m` on qwen3:8b
// gets it too (report.cpp), and a listed type gets none.
TEST(OllamaTags, TheUnpublishedNoteNamesTheTags) {
  const Model q = resolved("qwen3:8b");
  EXPECT_EQ(ollama_unpublished_note(q, "q5_k_m", "Q5_K_M"),
            "Ollama's library publishes no Q5_K_M tag of this model, so 'ollama pull' will not "
            "find it (answered as a model you quantised yourself, e.g. 'ollama create "
            "--quantize'); its tags: qwen3:8b-q4_K_M, qwen3:8b-q8_0, qwen3:8b-fp16");
  EXPECT_EQ(ollama_unpublished_note(q, "q8_0", "Q8_0"), "");
  EXPECT_EQ(ollama_unpublished_note(resolved("falcon:7b"), "q5_k_m", "Q5_K_M"), "");
}

TEST(OllamaTags, BadListsAreRefusedByName) {
  struct Case {
    const char* tags;
    const char* expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {R"({"pattern": "x:1b-{q}", "types": ["q7_K"], "source": "s"})", "type 'q7_K'"},
           {R"({"pattern": "x:1b-{q}", "types": ["q4_K_M", "Q4_K_M"], "source": "s"})",
            "listed twice"},
           {R"({"pattern": "x:1b-{q}", "types": [], "source": "s"})", "'types' must be"},
           {R"({"pattern": "x:1b-{q}", "types": "q4_K_M", "source": "s"})", "'types' must be"},
           {R"({"pattern": "x:1b-{q}", "types": [4], "source": "s"})", "type '4'"},
           {R"({"pattern": "x:1b-{q}", "types": ["nf4"], "source": "s"})", "type 'nf4'"},
           {R"({"pattern": "x:1b-{q}", "types": ["q4_K_M"]})", "missing 'source'"},
           {R"({"pattern": "y:1b-{q}", "types": ["q4_K_M"], "source": "s"})", "names 'y'"},
           {R"({"pattern": "x-1b-{q}", "types": ["q4_K_M"], "source": "s"})", "not an Ollama tag"},
           {R"({"pattern": "x:1b-{q}-{q}", "types": ["q4_K_M"], "source": "s"})", "once"},
           {R"({"pattern": "x:1b", "types": ["q4_K_M", "q8_0"], "source": "s"})", "one type"},
           {R"({"pattern": "x:1b-{q}", "types": ["q4_K_M"], "source": "s", "size": 1})",
            "unknown key 'size'"},
           {R"("x:1b-{q}")", "'ollama_tags' must be an object"},
       }) {
    const std::string json = fmt::format(
        R"({{"models": [{{"id": "x", "aliases": ["x:1b"], "params": 1000, "layers": 1,
            "hidden_size": 8, "heads": 1, "vocab_size": 10, "ollama_tags": {}}}]}})",
        c.tags);
    auto bad = ModelDb::parse(json, "mine.json");
    ASSERT_FALSE(bad.ok()) << c.tags;
    EXPECT_NE(bad.error().message.find(c.expect), std::string::npos)
        << c.tags << " -> " << bad.error().message;
    EXPECT_NE(bad.error().message.find("mine.json: model 1 ('x')"), std::string::npos)
        << bad.error().message;
    EXPECT_EQ(bad.error().message.find('\n'), std::string::npos);
  }
  auto good = ModelDb::parse(
      R"({"models": [{"id": "x", "aliases": ["x:1b"], "params": 1000, "layers": 1,
          "hidden_size": 8, "heads": 1, "vocab_size": 10,
          "ollama_tags": {"pattern": "x:1b-chat-{q}", "types": ["q3_K_M"], "source": "s"}}]})",
      "mine.json");
  ASSERT_TRUE(good.ok()) << good.error().message;
  const auto m = good->find("x:1b-chat-q3_K_M");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->entry->model.id, "x");
  EXPECT_EQ(m->precision_hint, "q3_k_m");
}

}  // namespace
}  // namespace willfit
