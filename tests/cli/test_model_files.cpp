// The CLI on model names and model files: catalogue overrides, GGUF,
// safetensors, indexes, config.json and directories, in a fake environment
// (and once on the real file system).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"
#include "unit/model_file_writers.hpp"

namespace willfit::test {
namespace {

using Json = nlohmann::json;

Json json_of(const CliResult& r) {
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
  return Json::parse(r.out, nullptr, false);
}

const char* kUserModel = R"({"models":[{"id":"my-model-3b","params":3000000000,"layers":28,
  "hidden_size":3072,"intermediate_size":8192,"heads":24,"kv_heads":8,"vocab_size":128256,
  "aliases":["mine:3b"],"source":"my own notes"}]})";

TEST(ModelFiles, GgufPathGivesExactWeightsAndItsFileType) {
  app::FakeEnvironment env;
  env.files["models/tiny.gguf"] = tiny_llama(3).file();
  const Json j = json_of(run_cli({"models/tiny.gguf", "-d", "8gb", "--json"}, env));
  EXPECT_EQ(j["model"]["source"], "gguf");
  EXPECT_EQ(j["model"]["weights_source"], "gguf");
  EXPECT_EQ(j["model"]["name"], "Tiny Llama Test");
  EXPECT_EQ(j["model"]["weights_bytes"], 1107152);
  EXPECT_EQ(j["query"]["precision"], "q4_k_m");
  EXPECT_EQ(j["model"]["weight_mix"][0]["type"], "Q4_K");
  EXPECT_EQ(j["model"]["weight_mix"][0]["bytes"], 623232);
  EXPECT_EQ(j["model"]["layers"], 2);
}

// --mmproj FILE: a projector GGUF written here (gemma3's SigLIP tower, one
// block) loaded beside the model: its own line, a `projector` term, and
// --text-only leaves it out.
TEST(ModelFiles, MmprojFileIsTheProjectorTermAndTextOnlyDropsIt) {
  app::FakeEnvironment env;
  env.files["models/tiny.gguf"] = tiny_llama(3).file();
  env.files["models/mmproj-F16.gguf"] = clip_mmproj("gemma3", 896, 14, 1152, 4304, 16).file();
  const std::int64_t tensors = (14 * 14 * 3 * 1152 + 1152 * 1152 + 2 * 1152 * 4304) * 2;
  const std::vector<std::string> base{"models/tiny.gguf", "-d", "24gb", "--mmproj",
                                      "models/mmproj-F16.gguf"};
  auto args = base;
  args.push_back("--json");
  const Json j = json_of(run_cli(args, env));
  Json term;
  for (const auto& t : j["memory"]["terms"]) {
    if (t["key"] == "projector") {
      term = t;
    }
  }
  ASSERT_TRUE(term.is_object()) << j["memory"]["terms"].dump();
  EXPECT_EQ(term["bytes"], j["memory"]["projector_bytes"]);
  // llama.cpp: the tensors plus clip.cpp's compute buffer for the warm-up image.
  EXPECT_GT(term["bytes"].get<std::int64_t>(), tensors);
  EXPECT_EQ(j["model"]["weights_bytes"], 1107152);
  const std::string text = run_cli(base, env).out;
  EXPECT_NE(text.find("projector"), std::string::npos) << text;
  EXPECT_NE(text.find("multimodal projector mmproj-F16.gguf"), std::string::npos) << text;

  args.push_back("--text-only");
  const Json t = json_of(run_cli(args, env));
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  for (const auto& x : t["memory"]["terms"]) {
    EXPECT_NE(x["key"], "projector");
  }
  EXPECT_LT(t["memory"]["total_bytes"].get<std::int64_t>(),
            j["memory"]["total_bytes"].get<std::int64_t>() - tensors);

  const auto missing =
      run_cli({"models/tiny.gguf", "-d", "24gb", "--mmproj", "models/nothing.gguf"}, env);
  EXPECT_TRUE(is_clean_error(missing)) << missing.err;
  EXPECT_NE(missing.err.find("No such file"), std::string::npos) << missing.err;
  const auto not_clip =
      run_cli({"models/tiny.gguf", "-d", "24gb", "--mmproj", "models/tiny.gguf"}, env);
  EXPECT_TRUE(is_clean_error(not_clip)) << not_clip.err;
  EXPECT_NE(not_clip.err.find("not a multimodal projector"), std::string::npos) << not_clip.err;
}

// A folder holding a GGUF and its mmproj file (LM Studio's PUBLISHER/REPO/
// layout; what llama-server -hf downloads): the projector is counted, as
// LM Studio loads it; --text-only leaves it out. Naming the file itself
// only says the mmproj is there: llama-server -m loads none unless --mmproj.
TEST(ModelFiles, AFoldersMmprojIsItsProjectorAndANamedFileOnlySaysSo) {
  app::FakeEnvironment env;
  env.files["lms/org/Tiny-GGUF/Tiny-Q4_K_M.gguf"] = tiny_llama(3).file();
  env.files["lms/org/Tiny-GGUF/mmproj-Tiny-BF16.gguf"] =
      clip_mmproj("gemma3", 896, 14, 1152, 4304, 16).file();
  env.files["lms/org/Tiny-GGUF/mmproj-Tiny-F16.gguf"] =
      clip_mmproj("gemma3", 896, 14, 1152, 4304, 16).file();
  const std::int64_t tensors = (14 * 14 * 3 * 1152 + 1152 * 1152 + 2 * 1152 * 4304) * 2;
  const Json j = json_of(run_cli({"lms/org/Tiny-GGUF", "-d", "24gb", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], 1107152);
  EXPECT_GT(j["memory"]["projector_bytes"].get<std::int64_t>(), tensors);
  EXPECT_EQ(j["model"]["origin"]["files"],
            Json::array({"lms/org/Tiny-GGUF", "lms/org/Tiny-GGUF/mmproj-Tiny-F16.gguf"}));
  const std::string text = run_cli({"lms/org/Tiny-GGUF", "-d", "24gb"}, env).out;
  EXPECT_NE(text.find("read mmproj-Tiny-F16.gguf (the F16 one; 2 there: mmproj-Tiny-BF16.gguf, "
                      "mmproj-Tiny-F16.gguf) from the folder"),
            std::string::npos)
      << text;
  const Json t =
      json_of(run_cli({"lms/org/Tiny-GGUF", "-d", "24gb", "--json", "--text-only"}, env));
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  EXPECT_NE(run_cli({"lms/org/Tiny-GGUF", "-d", "24gb", "--text-only"}, env)
                .out.find("mmproj-Tiny-F16.gguf in the folder is not read (--text-only"),
            std::string::npos);

  const auto file = run_cli({"lms/org/Tiny-GGUF/Tiny-Q4_K_M.gguf", "-d", "24gb", "--json"}, env);
  EXPECT_EQ(json_of(file)["memory"]["projector_bytes"], 0);
  const std::string said = run_cli({"lms/org/Tiny-GGUF/Tiny-Q4_K_M.gguf", "-d", "24gb"}, env).out;
  EXPECT_NE(said.find("mmproj-Tiny-F16.gguf lies beside the model and is not counted"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("--mmproj lms/org/Tiny-GGUF/mmproj-Tiny-F16.gguf"), std::string::npos)
      << said;
  EXPECT_EQ(run_cli({"lms/org/Tiny-GGUF/Tiny-Q4_K_M.gguf", "-d", "24gb", "--text-only"}, env)
                .out.find("lies beside"),
            std::string::npos);

  // A folder's mmproj file that is no projector is bad input, not an answer.
  env.files["lms/org/Tiny-GGUF/mmproj-Tiny-F16.gguf"] = tiny_llama(3).file();
  const auto bad = run_cli({"lms/org/Tiny-GGUF", "-d", "24gb"}, env);
  EXPECT_TRUE(is_clean_error(bad)) << bad.err;
  EXPECT_NE(bad.err.find("not a multimodal projector"), std::string::npos) << bad.err;
}

TEST(ModelFiles, AGiantSparseGgufIsReadByItsHeaderOnly) {
  // 50 GB file: a real header, then (as far as the reader can tell) zeros.
  GgufWriter w = tiny_llama(3);
  std::uint64_t big = 0;
  for (int i = 0; i < 20; ++i) {
    big += w.tensor("blk.9.big" + std::to_string(i) + ".weight", {16384, 65536}, kF16);
  }
  app::FakeEnvironment env;
  env.files["big.gguf"] = w.header();
  env.sizes["big.gguf"] = 50'000'000'000;
  const Json j = json_of(run_cli({"big.gguf", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], 1107152 + big);
  EXPECT_LT(env.bytes_read, std::uint64_t{4} << 20);
}

TEST(ModelFiles, SplitGgufReadsEveryPart) {
  GgufWriter one = tiny_llama(3);
  one.raw("split.count", 2, GgufWriter::enc<std::uint16_t>(2));  // uint16, as gguf-split writes
  GgufWriter two;
  two.raw("split.count", 2, GgufWriter::enc<std::uint16_t>(2));
  const std::uint64_t extra = two.tensor("blk.2.ffn_up.weight", {256, 512}, kQ8_0);
  app::FakeEnvironment env;
  env.files["split/tiny-00001-of-00002.gguf"] = one.file();
  env.files["split/tiny-00002-of-00002.gguf"] = two.file();
  for (const char* path : {"split/tiny-00001-of-00002.gguf", "split"}) {
    const Json j = json_of(run_cli({path, "--json"}, env));
    EXPECT_EQ(j["model"]["weights_bytes"], 1107152 + extra) << path;
    EXPECT_EQ(j["model"]["name"], "Tiny Llama Test");
  }
  EXPECT_TRUE(is_clean_error(run_cli({"split/tiny-00002-of-00002.gguf"}, env)));
  env.files.erase("split/tiny-00002-of-00002.gguf");
  EXPECT_TRUE(is_clean_error(run_cli({"split/tiny-00001-of-00002.gguf"}, env)));
}

// A GGUF file holds its own tensors: --precision of its own type names them,
// and any other is refused rather than printed over the file's bytes (the
// headline said Q8_0 of a Q4_K_M file's weights).
TEST(ModelFiles, APrecisionOtherThanAGgufFilesOwnIsRefused) {
  app::FakeEnvironment env;
  env.files["tiny.gguf"] = tiny_llama(3).file();  // general.file_type 15: Q4_K_M
  const Json j = json_of(run_cli({"tiny.gguf", "-p", "q4_k_m", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], 1107152);
  EXPECT_EQ(j["query"]["precision"], "q4_k_m");
  EXPECT_NE(j["assumptions"].dump().find("does not change them"), std::string::npos);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"tiny.gguf", "-p", "fp16"},
        std::vector<std::string>{"tiny.gguf", "-p", "q8_0", "-d", "8gb"},
        std::vector<std::string>{"tiny.gguf", "-p", "q4_k_m,q8_0", "-d", "8gb"},
        std::vector<std::string>{"max", "tiny.gguf", "-p", "q8_0", "-d", "8gb"},
        std::vector<std::string>{"which", "tiny.gguf", "-p", "q8_0"}}) {
    const CliResult r = run_cli(args, env);
    EXPECT_TRUE(is_clean_error(r)) << args[2] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("is a Q4_K_M file"), std::string::npos) << r.err;
  }
}

std::string llama_config() {
  return R"({"model_type":"llama","hidden_size":256,"intermediate_size":512,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000,
    "max_position_embeddings":4096,"torch_dtype":"bfloat16"})";
}

std::vector<StTensor> shard(int first_layer) {
  std::vector<StTensor> t;
  if (first_layer == 0) {
    t.push_back({"model.embed_tokens.weight", "BF16", {1000, 256}, 4});
  }
  t.push_back({"model.layers." + std::to_string(first_layer) + ".mlp.up_proj.weight",
               "BF16",
               {512, 256},
               4});
  return t;
}

TEST(ModelFiles, DirectoryWithConfigAndSafetensors) {
  app::FakeEnvironment env;
  env.files["ckpt/config.json"] = llama_config();
  env.files["ckpt/model.safetensors"] = safetensors_file(shard(0));
  env.files["ckpt/README.md"] = "hello";
  const Json j = json_of(run_cli({"ckpt", "--json"}, env));
  EXPECT_EQ(j["model"]["source"], "config");
  EXPECT_EQ(j["model"]["weights_source"], "safetensors");
  EXPECT_EQ(j["model"]["params"], 1000 * 256 + 512 * 256);
  EXPECT_EQ(j["model"]["weights_bytes"], (1000 * 256 + 512 * 256) * 2);
  EXPECT_EQ(j["query"]["precision"], "bf16");
  EXPECT_EQ(j["model"]["kv_heads"], 2);
}

// A safetensors checkpoint asked for at another precision is the model
// converted to it: the architecture's parameters at that precision, as the
// same config.json alone gives, not the checkpoint's BF16 bytes.
TEST(ModelFiles, ACheckpointAskedForAtAnotherPrecisionIsConverted) {
  app::FakeEnvironment env;
  env.files["ckpt/config.json"] = llama_config();
  env.files["ckpt/model.safetensors"] = safetensors_file(shard(0));
  env.files["hf/config.json"] = llama_config();
  Json j = json_of(run_cli({"ckpt", "-p", "bf16", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], (1000 * 256 + 512 * 256) * 2);
  j = json_of(run_cli({"ckpt", "-p", "q8_0", "--json"}, env));
  const Json config = json_of(run_cli({"hf/config.json", "-p", "q8_0", "--json"}, env));
  EXPECT_EQ(j["query"]["precision"], "q8_0");
  EXPECT_EQ(j["model"]["weights_bytes"], config["model"]["weights_bytes"]);
  EXPECT_NE(j["model"]["weights_bytes"], (1000 * 256 + 512 * 256) * 2);
  EXPECT_NE(j["assumptions"].dump().find("the checkpoint is BF16"), std::string::npos)
      << j["assumptions"].dump();
}

TEST(ModelFiles, ShardedIndexReadsEveryShardHeader) {
  app::FakeEnvironment env;
  env.files["m/config.json"] = llama_config();
  env.files["m/model-00001-of-00002.safetensors"] = safetensors_file(shard(0));
  env.files["m/model-00002-of-00002.safetensors"] = safetensors_file(shard(1));
  env.files["m/model.safetensors.index.json"] = R"({"metadata":{"total_size":775168},"weight_map":{
    "model.embed_tokens.weight":"model-00001-of-00002.safetensors",
    "model.layers.0.mlp.up_proj.weight":"model-00001-of-00002.safetensors",
    "model.layers.1.mlp.up_proj.weight":"model-00002-of-00002.safetensors"}})";
  for (const char* path : {"m/model.safetensors.index.json", "m"}) {
    const Json j = json_of(run_cli({path, "--json"}, env));
    EXPECT_EQ(j["model"]["weights_bytes"], (1000 * 256 + 2 * 512 * 256) * 2) << path;
    EXPECT_EQ(j["model"]["params"], 1000 * 256 + 2 * 512 * 256) << path;
  }
}

TEST(ModelFiles, IndexWithoutShardsUsesTotalSizeAndTheConfig) {
  app::FakeEnvironment env;
  env.files["m/config.json"] = llama_config();
  env.files["m/model.safetensors.index.json"] =
      R"({"metadata":{"total_size":16060522496},"weight_map":{"a":"model-00001-of-00004.safetensors"}})";
  const Json j = json_of(run_cli({"m/model.safetensors.index.json", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], 16060522496);
  EXPECT_EQ(j["model"]["source"], "config");
  env.files.erase("m/config.json");
  const CliResult r = run_cli({"m/model.safetensors.index.json"}, env);
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("no config.json"), std::string::npos);
}

TEST(ModelFiles, ConfigJsonAlone) {
  app::FakeEnvironment env;
  env.files["hf/config.json"] = llama_config();
  const Json j = json_of(run_cli({"hf/config.json", "--json"}, env));
  EXPECT_EQ(j["model"]["source"], "config");
  EXPECT_EQ(j["model"]["weights_source"], nullptr);
  EXPECT_EQ(j["query"]["precision"], "bf16");
}

TEST(ModelFiles, BadFilesAreOneLineErrors) {
  app::FakeEnvironment env;
  GgufWriter hostile;
  hostile.override_counts(std::uint64_t{1} << 60, 0);
  env.files["hostile.gguf"] = hostile.file();
  env.files["cut.gguf"] = tiny_llama(3).file().substr(0, 5000);
  env.files["notes.txt"] = "hello";
  env.files["empty/readme"] = "";
  env.files["bad.safetensors"] = raw_safetensors("{", 0);
  env.files["x/config.json"] = "[]";
  for (const char* path : {"hostile.gguf", "cut.gguf", "notes.txt", "empty", "missing.gguf",
                           "bad.safetensors", "x/config.json", "./nothing-here"}) {
    const CliResult r = run_cli({path}, env);
    EXPECT_TRUE(is_clean_error(r)) << path << ": " << r.err;
  }
  EXPECT_NE(run_cli({"hostile.gguf"}, env).err.find("'hostile.gguf': malformed GGUF: tensor count"),
            std::string::npos);
}

// A GGUF naming gptj: llama.cpp (80fb11ac) builds no graph for it, so the
// answer is a refusal in one line, nothing on stdout (tests/unit/test_arch_gptj.cpp).
TEST(ModelFiles, GptjGgufIsRefusedInOneLine) {
  app::FakeEnvironment env;
  GgufWriter w;
  w.str("general.architecture", "gptj");
  w.u32("gptj.context_length", 2048);
  w.u32("gptj.embedding_length", 256);
  w.u32("gptj.block_count", 1);
  w.u32("gptj.attention.head_count", 4);
  w.tensor("token_embd.weight", {256, 512}, kF16);
  env.files["gpt-j.gguf"] = w.file();
  const CliResult r = run_cli({"gpt-j.gguf", "-d", "24gb"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("builds no graph"), std::string::npos) << r.err;
}

TEST(Catalogue, ModelsFlagAndVariableReplaceTheBundledCatalogue) {
  app::FakeEnvironment env;
  env.files["cat.json"] = kUserModel;
  EXPECT_EQ(run_cli({"mine:3b", "--models", "cat.json"}, env).code, 0);
  EXPECT_TRUE(is_clean_error(run_cli({"llama-3.1-8b", "--models", "cat.json"}, env)));
  env.vars["WILLFIT_MODELS"] = "cat.json";
  EXPECT_EQ(run_cli({"my-model-3b"}, env).code, 0);
  EXPECT_TRUE(is_clean_error(run_cli({"llama-3.1-8b"}, env)));
  env.vars["WILLFIT_MODELS"] = "nope.json";
  const CliResult r = run_cli({"llama-3.1-8b"}, env);
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("nope.json"), std::string::npos);
}

TEST(Catalogue, UserFileAddsModels) {
  app::FakeEnvironment env;
  env.vars["XDG_CONFIG_HOME"] = "/xdg";
  env.files["/xdg/willfit/models.json"] = kUserModel;
  EXPECT_EQ(run_cli({"mine:3b"}, env).code, 0);
  EXPECT_EQ(run_cli({"llama-3.1-8b"}, env).code, 0);
  const Json j = json_of(run_cli({"models", "my-model", "--json"}, env));
  ASSERT_EQ(j["models"].size(), 1U);
  EXPECT_EQ(j["models"][0]["origin"], "/xdg/willfit/models.json");

  app::FakeEnvironment home;
  home.vars["HOME"] = "/home/u";
  home.files["/home/u/.config/willfit/models.json"] = kUserModel;
  EXPECT_EQ(run_cli({"mine:3b"}, home).code, 0);
  home.files["/home/u/.config/willfit/models.json"] = R"({"models":[{"id":"broken"}]})";
  const CliResult r = run_cli({"llama-3.1-8b"}, home);
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("/home/u/.config/willfit/models.json: model 1 ('broken'): missing"),
            std::string::npos);
}

TEST(Catalogue, ANamedCatalogueIsReadEvenForSizesAndFiles) {
  // A catalogue the user names (WILLFIT_MODELS, --models) is read on every
  // run: broken, it is an error even when no name is looked up (issue 17).
  app::FakeEnvironment env;
  env.vars["WILLFIT_MODELS"] = "broken.json";
  env.files["broken.json"] = "{";
  env.files["tiny.gguf"] = tiny_llama(3).file();
  EXPECT_TRUE(is_clean_error(run_cli({"7b"}, env)));
  EXPECT_TRUE(is_clean_error(run_cli({"tiny.gguf"}, env)));
  EXPECT_TRUE(is_clean_error(run_cli({"llama-3.1-8b"}, env)));
  // Without it, sizes and files answer.
  env.vars.erase("WILLFIT_MODELS");
  EXPECT_EQ(run_cli({"7b"}, env).code, 0);
  EXPECT_EQ(run_cli({"tiny.gguf"}, env).code, 0);
}

TEST(ModelsCommand, ListsFiltersAndSuggests) {
  const Json all = json_of(run_cli({"models", "--json"}));
  EXPECT_GE(all["models"].size(), 75U);
  const CliResult text = run_cli({"models", "gemma3"});
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("gemma-3-27b"), std::string::npos);
  EXPECT_EQ(text.out.find("llama"), std::string::npos);
  const CliResult none = run_cli({"models", "gemma5"});
  EXPECT_TRUE(is_clean_error(none));
  EXPECT_NE(none.err.find("did you mean"), std::string::npos);
}

// The same on the real file system, through SystemEnvironment.
TEST(ModelFiles, RealFilesAndDirectories) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("willfit-test-" + std::to_string(::getpid()));
  fs::create_directories(dir / "ckpt");
  std::ofstream(dir / "tiny.gguf", std::ios::binary) << tiny_llama(2).file();
  std::ofstream(dir / "ckpt" / "config.json", std::ios::binary) << llama_config();
  std::ofstream(dir / "ckpt" / "model.safetensors", std::ios::binary) << safetensors_file(shard(0));
  app::SystemEnvironment env;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(app::run({(dir / "tiny.gguf").string(), "--json"}, out, err, env), 0) << err.str();
  EXPECT_EQ(Json::parse(out.str())["model"]["weights_bytes"], 1107152);
  out.str("");
  EXPECT_EQ(app::run({(dir / "ckpt").string(), "--json"}, out, err, env), 0) << err.str();
  EXPECT_EQ(Json::parse(out.str())["model"]["weights_source"], "safetensors");
  fs::remove_all(dir);
}

// Golden text output for a GGUF file (a fixture the test writes): the same
// rules as tests/golden, kept apart because the golden runner has no files.
TEST(ModelFiles, GoldenTextForAGgufFile) {
  app::FakeEnvironment env;
  env.files["tiny-llama-q4_k_m.gguf"] = tiny_llama(3).file();
  const CliResult r = run_cli({"tiny-llama-q4_k_m.gguf", "-d", "8gb"}, env);
  const std::string path = std::string(WILLFIT_GOLDEN_DIR) + "/files/tiny_gguf.out";
  if (std::getenv("WILLFIT_UPDATE_GOLDEN") != nullptr) {  // NOLINT
    std::ofstream(path, std::ios::binary) << r.out;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, expected.str());
}

}  // namespace
}  // namespace willfit::test
