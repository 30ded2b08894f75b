// Models that are not on disk (issue 15): the hub, its CDN and the Ollama
// registry imitated on 127.0.0.1 (fake_hub.hpp), and the local stores in a
// fake HOME. Every case checks the answer, the requests and the bytes.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/fake_hub.hpp"
#include "cli/harness.hpp"
#include "sources/remote_model.hpp"
#include "unit/model_file_writers.hpp"

namespace willfit::test {
namespace {

using Json = nlohmann::json;

constexpr std::uint64_t kTinyBytes = 1107152;  // tiny_llama's weights (test_model_files.cpp)
constexpr std::uint64_t kSparse = 5'000'000'000;

app::FakeEnvironment env_for(const HttpFake& hub) {
  app::FakeEnvironment env;
  env.network = true;
  env.vars = {{"HF_ENDPOINT", hub.base()},
              {"WILLFIT_OLLAMA_REGISTRY", hub.base()},
              {"HOME", "/home/u"},
              {"XDG_CACHE_HOME", "/home/u/.cache"},
              {"WILLFIT_HTTP_TIMEOUT", "3"},
              {"WILLFIT_HTTP_CONNECT_TIMEOUT", "1"},
              {"WILLFIT_HTTP_BACKOFF_MS", "10"}};
  return env;
}

Json answer(const CliResult& r) {
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
  return Json::parse(r.out, nullptr, false);
}

Served gguf(const GgufWriter& w, std::uint64_t size = kSparse) {
  return Served{w.header(), size};
}

std::uint64_t total_bytes(const std::vector<Logged>& log) {
  std::uint64_t n = 0;
  for (const auto& l : log) {
    n += l.bytes;
  }
  return n;
}

// A Llama header whose merge list makes it about `bytes` long.
GgufWriter big_header(std::uint64_t bytes) {
  GgufWriter w = tiny_llama(3);
  std::vector<std::string> merges;
  for (std::uint64_t i = 0; (merges.size() * 20) < bytes; ++i) {
    merges.push_back("merge " + std::to_string(100000 + i % 900000));  // 12 bytes + 8
  }
  w.str_array("tokenizer.ggml.merges", merges);
  return w;
}

// gemma3's SigLIP tower (google/gemma-3-4b-it config.json vision_config:
// image 896, patch 14, width 1152, intermediate 4304, 16 heads), one block.
GgufWriter tiny_mmproj() {
  return clip_mmproj("gemma3", 896, 14, 1152, 4304, 16);
}
constexpr std::uint64_t kMmprojBytes = (14 * 14 * 3 * 1152 + 1152 * 1152 + 2 * 1152 * 4304) * 2;

FakeRepo gguf_repo() {
  FakeRepo r;
  r.files["Tiny-Q4_K_M.gguf"] = gguf(tiny_llama(3));
  r.files["Tiny-Q8_0.gguf"] = gguf(tiny_llama(3));
  r.files["mmproj-Tiny-F16.gguf"] = gguf(tiny_mmproj(), 851'000'000);
  r.files["README.md"] = Served{"hello", 5};
  return r;
}

TEST(Remote, ParsesEveryForm) {
  using K = app::RemoteRef::Kind;
  auto r = app::parse_remote_ref("hf.co/unsloth/Qwen3-8B-GGUF:q8_0");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, K::Hub);
  EXPECT_TRUE(r->hub_gguf);
  EXPECT_EQ(r->repo, "unsloth/Qwen3-8B-GGUF");
  EXPECT_EQ(r->quant, "q8_0");
  r = app::parse_remote_ref("Qwen/Qwen3-8B@refs/pr/1");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->hub_gguf);
  EXPECT_EQ(r->revision, "refs/pr/1");
  r = app::parse_remote_ref("qwen3-coder:30b");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, K::Ollama);
  EXPECT_EQ(r->ns, "library");
  EXPECT_EQ(r->tag, "30b");
  r = app::parse_remote_ref("ollama.com/hhao/qwen2.5-coder-tools");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->ns, "hhao");
  EXPECT_EQ(r->tag, "latest");
  r = app::parse_remote_ref("https://huggingface.co/a/b/blob/main/x.gguf");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->url, "https://huggingface.co/a/b/resolve/main/x.gguf");
  for (const char* bad : {"llama-3.1-8b", "a/b/c", "hf.co/a", "a/b:c:d", "../x/y", "a b/c"}) {
    EXPECT_FALSE(app::parse_remote_ref(bad)) << bad;
  }
}

TEST(Remote, ChoosesTheDefaultQuantisationAndSaysWhere) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  env.vars["HF_TOKEN"] = "hf_good";
  const auto r = run_cli({"hf.co/org/tiny-GGUF", "--json"}, env);
  const Json j = answer(r);
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  EXPECT_EQ(j["model"]["source"], "gguf");  // unchanged key
  const Json& o = j["model"]["origin"];
  EXPECT_EQ(o["kind"], "hf");
  EXPECT_EQ(o["ref"], "hf.co/org/tiny-GGUF");
  EXPECT_EQ(o["revision"], std::string(40, 'a'));
  EXPECT_EQ(o["files"], Json::array({"Tiny-Q4_K_M.gguf", "mmproj-Tiny-F16.gguf"}));
  EXPECT_EQ(o["cached"], false);
  // Model info, the resolve (302) and one 2 MiB range read at the CDN; the
  // same for the mmproj file.
  const auto log = hub.log();
  ASSERT_EQ(log.size(), 5U);
  EXPECT_EQ(o["requests"], 5);
  EXPECT_EQ(log[1].status, 302);
  EXPECT_EQ(log[2].server, "cdn");
  EXPECT_EQ(log[2].range, "bytes=0-2097151");
  EXPECT_EQ(o["bytes_read"], total_bytes(log));
  // The token goes to the hub, never to the CDN.
  EXPECT_EQ(log[0].auth, "Bearer hf_good");
  EXPECT_EQ(log[1].auth, "Bearer hf_good");
  EXPECT_EQ(log[2].auth, "");
  const std::string text = run_cli({"hf.co/org/tiny-GGUF"}, env).out;
  EXPECT_NE(text.find("chose Tiny-Q4_K_M.gguf (Q4_K_M, the default)"), std::string::npos) << text;
}

// A GGUF repository's mmproj file is the model's projector, as llama-server
// -hf loads it: its header is range-read like the model's, its tensors are
// the `projector` term, and --text-only asks nothing for it.
Json projector_term(const Json& j) {
  for (const auto& t : j["memory"]["terms"]) {
    if (t["key"] == "projector") {
      return t;
    }
  }
  return Json();
}

TEST(Remote, AGgufRepositorysMmprojIsReadAsItsProjector) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  const Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "-d", "24gb", "--json"}, env));
  const Json& o = j["model"]["origin"];
  EXPECT_EQ(o["files"], Json::array({"Tiny-Q4_K_M.gguf", "mmproj-Tiny-F16.gguf"}));
  // Model info, then per file the resolve (302) and one 2 MiB range read at the CDN.
  const auto log = hub.log();
  ASSERT_EQ(log.size(), 5U);
  EXPECT_EQ(o["requests"], 5);
  EXPECT_EQ(log[3].status, 302);
  EXPECT_NE(log[3].path.find("mmproj-Tiny-F16.gguf"), std::string::npos) << log[3].path;
  EXPECT_EQ(log[4].server, "cdn");
  EXPECT_EQ(log[4].range, "bytes=0-2097151");
  EXPECT_EQ(o["bytes_read"], total_bytes(log));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);  // the projector is not in the weights
  // llama.cpp: the file's tensors plus clip.cpp's warm-up compute buffer.
  const Json term = projector_term(j);
  ASSERT_TRUE(term.is_object()) << j["memory"]["terms"].dump();
  EXPECT_EQ(term["bytes"], j["memory"]["projector_bytes"]);
  EXPECT_GT(term["bytes"].get<std::uint64_t>(), kMmprojBytes);
  const std::string text = run_cli({"hf.co/org/tiny-GGUF", "-d", "24gb"}, env).out;
  EXPECT_NE(text.find("multimodal projector mmproj-Tiny-F16.gguf"), std::string::npos) << text;
  EXPECT_NE(text.find("file Tiny-Q4_K_M.gguf + mmproj-Tiny-F16.gguf"), std::string::npos) << text;

  // --text-only: no projector term, and no request for the mmproj file.
  HttpFake hub2;
  hub2.repos["org/tiny-GGUF"] = gguf_repo();
  auto env2 = env_for(hub2);
  const Json t =
      answer(run_cli({"hf.co/org/tiny-GGUF", "-d", "24gb", "--text-only", "--json"}, env2));
  EXPECT_EQ(t["model"]["origin"]["files"], Json::array({"Tiny-Q4_K_M.gguf"}));
  EXPECT_EQ(hub2.log().size(), 3U);
  for (const auto& l : hub2.log()) {
    EXPECT_EQ(l.path.find("mmproj"), std::string::npos) << l.path;
  }
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  EXPECT_TRUE(projector_term(t).is_null());
  EXPECT_EQ(t["memory"]["weights_bytes"], j["memory"]["weights_bytes"]);
}

TEST(Remote, OfSeveralMmprojFilesTheF16OneIsReadElseTheFirstAndTheAnswerSaysWhich) {
  HttpFake hub;
  FakeRepo repo = gguf_repo();
  repo.files.erase("mmproj-Tiny-F16.gguf");
  repo.files["mmproj-BF16.gguf"] = gguf(tiny_mmproj());
  repo.files["mmproj-F32.gguf"] = gguf(tiny_mmproj());
  hub.repos["org/two-GGUF"] = repo;
  repo.files["mmproj-F16.gguf"] = gguf(tiny_mmproj());
  hub.repos["org/three-GGUF"] = repo;
  auto env = env_for(hub);
  auto r = run_cli({"hf.co/org/three-GGUF"}, env);
  EXPECT_NE(r.out.find("read mmproj-F16.gguf (the F16 one); the repository has 3 mmproj files: "
                       "mmproj-BF16.gguf, mmproj-F16.gguf, mmproj-F32.gguf"),
            std::string::npos)
      << r.out;
  r = run_cli({"hf.co/org/two-GGUF"}, env);
  EXPECT_NE(r.out.find("read mmproj-BF16.gguf (the first, none is F16)"), std::string::npos)
      << r.out;
  const Json j = answer(run_cli({"hf.co/org/two-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["files"], Json::array({"Tiny-Q4_K_M.gguf", "mmproj-BF16.gguf"}));
}

TEST(Remote, AnMmprojThatIsNoProjectorIsAnErrorThatNamesTextOnly) {
  HttpFake hub;
  FakeRepo repo = gguf_repo();
  repo.files["mmproj-Tiny-F16.gguf"] = gguf(tiny_llama(3));  // a language model's header
  hub.repos["org/odd-GGUF"] = repo;
  auto env = env_for(hub);
  const auto r = run_cli({"hf.co/org/odd-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("hf.co/org/odd-GGUF's mmproj (--text-only leaves it out)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not a multimodal projector"), std::string::npos) << r.err;
  EXPECT_EQ(answer(run_cli({"hf.co/org/odd-GGUF", "--text-only", "--json"},
                           env))["model"]["weights_bytes"],
            kTinyBytes);
}

TEST(Remote, AQuantisationThatIsNotThereListsThoseThatAre) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  const auto r = run_cli({"hf.co/org/tiny-GGUF:Q5_K_S"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("its quantisations: Q4_K_M, Q8_0"), std::string::npos) << r.err;
  EXPECT_EQ(hub.log().size(), 1U);  // the model info only
  const Json j = answer(run_cli({"hf.co/org/tiny-GGUF:q8_0", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["files"], Json::array({"Tiny-Q8_0.gguf", "mmproj-Tiny-F16.gguf"}));
}

// Issue 15's figure: a remote GGUF of 100 GB whose header is 8 MiB.
TEST(Remote, AnEightMiBHeaderOfAHundredGBFileTakesFewRequests) {
  for (const std::uint64_t header :
       {std::uint64_t{8} << 20, (std::uint64_t{8} << 20) + (300 << 10)}) {
    HttpFake hub;
    FakeRepo repo;
    const GgufWriter w = big_header(header - 20000);
    repo.files["Big-Q4_K_M.gguf"] = gguf(w, 100'000'000'000);
    hub.repos["org/big-GGUF"] = repo;
    auto env = env_for(hub);
    const Json j = answer(run_cli({"hf.co/org/big-GGUF", "--json"}, env));
    ASSERT_TRUE(j.is_object());
    const auto log = hub.log();
    std::uint64_t reads = 0;
    std::uint64_t file_bytes = 0;
    for (const auto& l : log) {
      if (l.server == "cdn") {
        ++reads;
        file_bytes += l.bytes;
      }
    }
    const auto size = static_cast<double>(w.header().size());
    RecordProperty("header_bytes", std::to_string(w.header().size()));
    std::printf("header %.2f MiB: %llu range reads, %.2f MiB read (%.2fx), %zu requests in all\n",
                size / 1048576.0, static_cast<unsigned long long>(reads),
                static_cast<double>(file_bytes) / 1048576.0, static_cast<double>(file_bytes) / size,
                log.size());
    EXPECT_LE(reads, 3U);
    EXPECT_LE(static_cast<double>(file_bytes), 1.5 * size);
    EXPECT_EQ(j["model"]["origin"]["requests"], log.size());
    // No byte twice: each range starts where the previous one ended.
    std::uint64_t next = 0;
    for (const auto& l : log) {
      if (l.server == "cdn") {
        EXPECT_EQ(l.range.rfind("bytes=" + std::to_string(next) + "-", 0), 0U) << l.range;
        next += l.bytes;
      }
    }
  }
}

TEST(Remote, AServerThatIgnoresRangeIsCutAfterTheHeader) {
  HttpFake hub;
  hub.ignore_range = true;
  FakeRepo repo;
  repo.files["Big-Q4_K_M.gguf"] = gguf(big_header(3 << 20), 100'000'000'000);
  hub.repos["org/big-GGUF"] = repo;
  auto env = env_for(hub);
  const Json j = answer(run_cli({"hf.co/org/big-GGUF", "--json"}, env));
  ASSERT_TRUE(j.is_object());
  // 2 MiB, then 4 MiB from byte 0 again (the server gives no choice): never the 100 GB.
  // The client keeps 6 MiB; the server may have pushed a socket buffer more before the cut.
  EXPECT_EQ(j["model"]["origin"]["bytes_read"].get<std::uint64_t>() - hub.log()[0].bytes,
            std::uint64_t{6} << 20);
  EXPECT_LT(total_bytes(hub.log()), std::uint64_t{16} << 20);
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
}

TEST(Remote, SplitGgufReadsEveryPartsHeader) {
  HttpFake hub;
  GgufWriter one = tiny_llama(3);
  one.raw("split.count", 2, GgufWriter::enc<std::uint16_t>(3));
  FakeRepo repo;
  repo.files["Q4_K_M/Tiny-Q4_K_M-00001-of-00003.gguf"] = gguf(one);
  std::uint64_t extra = 0;
  for (int k = 2; k <= 3; ++k) {
    GgufWriter part;
    part.raw("split.count", 2, GgufWriter::enc<std::uint16_t>(3));
    extra += part.tensor("blk.9.ffn_up_" + std::to_string(k) + ".weight", {256, 512}, kQ8_0);
    repo.files["Q4_K_M/Tiny-Q4_K_M-0000" + std::to_string(k) + "-of-00003.gguf"] = gguf(part);
  }
  repo.files["Tiny-Q8_0.gguf"] = gguf(tiny_llama(3));
  hub.repos["org/split-GGUF"] = repo;
  auto env = env_for(hub);
  const Json j = answer(run_cli({"hf.co/org/split-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes + extra);
  EXPECT_EQ(j["model"]["origin"]["files"].size(), 3U);
  const auto log = hub.log();
  ASSERT_EQ(log.size(), 7U);  // info + 3 x (resolve + range)
  // Later parts hold small headers: the reader's first 1 MiB, not the first part's 2 MiB.
  EXPECT_EQ(log[4].range, "bytes=0-1048575");
  EXPECT_EQ(log[6].range, "bytes=0-1048575");
}

TEST(Remote, GatedRepositoriesSayWhatToDo) {
  HttpFake hub;
  FakeRepo repo = gguf_repo();
  repo.gated = "manual";
  hub.repos["org/gated-GGUF"] = repo;
  auto env = env_for(hub);
  auto r = run_cli({"hf.co/org/gated-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("is gated (401)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("accept its licence on " + hub.base() + "/org/gated-GGUF"),
            std::string::npos);
  EXPECT_NE(r.err.find("HF_TOKEN"), std::string::npos);
  env.vars["HUGGING_FACE_HUB_TOKEN"] = "hf_wrong";
  r = run_cli({"hf.co/org/gated-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("is gated (403)"), std::string::npos) << r.err;
  // The token file, when no variable is set.
  env.vars.erase("HUGGING_FACE_HUB_TOKEN");
  env.files["/home/u/.cache/huggingface/token"] = "hf_good\n";
  EXPECT_EQ(answer(run_cli({"hf.co/org/gated-GGUF", "--json"}, env))["model"]["weights_bytes"],
            kTinyBytes);
}

TEST(Remote, NotFoundAndNoWeights) {
  HttpFake hub;
  FakeRepo empty;
  empty.files["README.md"] = Served{"hi", 2};
  hub.repos["org/empty"] = empty;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  auto r = run_cli({"org/missing"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("repository not found, or private (401"), std::string::npos) << r.err;
  r = run_cli({"hf.co/org/missing"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_EQ(r.err.find("No such file"), std::string::npos) << r.err;  // no path was meant
  r = run_cli({"org/empty"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("holds no GGUF or safetensors weights"), std::string::npos) << r.err;
  r = run_cli({"hf.co/org/tiny-GGUF@v9"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("revision not found (404)"), std::string::npos) << r.err;
}

TEST(Remote, RateLimitsAndServerErrorsAreRetriedThenReported) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  hub.api_failures = {503, 429};
  const auto start = std::chrono::steady_clock::now();
  const Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(900));       // Retry-After: 1
  EXPECT_EQ(j["model"]["origin"]["requests"], 7);  // 503, 429, info, 2 x (resolve, range)
  hub.api_failures = {429, 429, 429, 429};
  hub.retry_after = "120";
  const auto r = run_cli({"hf.co/org/tiny-GGUF", "--refresh"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("rate-limiting requests (429): retry in 120 s"), std::string::npos) << r.err;
  hub.api_failures = {500, 500, 500, 500, 500};
  const auto r5 = run_cli({"hf.co/org/tiny-GGUF", "--refresh"}, env);
  EXPECT_TRUE(is_clean_error(r5)) << r5.err;
  EXPECT_NE(r5.err.find("the server failed (500)"), std::string::npos) << r5.err;
}

// A read that takes more than a moment shows a progress line (on a terminal's
// stderr: Environment::progress), cleared before the answer; a quick one none.
TEST(Remote, ASlowReadShowsAProgressLineThenClearsIt) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  auto r = run_cli({"hf.co/org/tiny-GGUF", "--json"}, env);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_TRUE(env.progress_lines.empty());  // quick: under the 1 s default
  env.vars["WILLFIT_HTTP_PROGRESS_AFTER"] = "0.05";
  hub.slow_ms = 300;
  r = run_cli({"hf.co/org/tiny-GGUF", "--json", "--refresh"}, env);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_EQ(r.err, "");  // stderr of the answer itself stays empty
  ASSERT_GE(env.progress_lines.size(), 2U);
  EXPECT_NE(env.progress_lines.front().find("willfit: reading 127.0.0.1:"), std::string::npos)
      << env.progress_lines.front();
  EXPECT_NE(env.progress_lines.front().find("MB so far"), std::string::npos);
  EXPECT_EQ(env.progress_lines.back(), "");  // cleared
}

TEST(Remote, SlowTruncatedLoopingAndDownServersAreCleanErrors) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  env.vars["WILLFIT_HTTP_TIMEOUT"] = "0.3";
  hub.slow_ms = 600;
  auto r = run_cli({"hf.co/org/tiny-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("timed out"), std::string::npos) << r.err;
  hub.slow_ms = 0;
  env.vars["WILLFIT_HTTP_TIMEOUT"] = "3";
  hub.truncate_after = 100000;
  r = run_cli({"hf.co/org/tiny-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("a truncated answer (try again)"), std::string::npos) << r.err;
  hub.truncate_after = 0;
  hub.redirect_loop = true;
  r = run_cli({"hf.co/org/tiny-GGUF", "--refresh"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("redirects in a loop"), std::string::npos) << r.err;
  env.vars["HF_ENDPOINT"] = "http://127.0.0.1:1";
  r = run_cli({"hf.co/org/other-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("--offline"), std::string::npos) << r.err;
}

TEST(Remote, MalformedAndOversizedHeadersAreRefused) {
  HttpFake hub;
  FakeRepo repo;
  repo.files["Bad-Q4_K_M.gguf"] = Served{"GGUF\x03\0\0\0garbage", kSparse};
  GgufWriter huge = tiny_llama(3);
  huge.raw("general.description", 8, GgufWriter::enc<std::uint64_t>(std::uint64_t{100} << 20));
  repo.files["Huge-Q8_0.gguf"] = Served{huge.header(), kSparse};
  hub.repos["org/bad-GGUF"] = repo;
  auto env = env_for(hub);
  auto r = run_cli({"hf.co/org/bad-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("GGUF"), std::string::npos) << r.err;
  hub.clear_log();
  r = run_cli({"hf.co/org/bad-GGUF:Q8_0"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("more than 64 MiB"), std::string::npos) << r.err;
  EXPECT_LT(total_bytes(hub.log()), std::uint64_t{65} << 20);
}

std::string llama_config() {
  return R"({"model_type":"llama","hidden_size":256,"intermediate_size":512,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000,
    "max_position_embeddings":4096,"torch_dtype":"bfloat16"})";
}

// The header of a safetensors file (its 8-byte length and the JSON): what a
// sparse shard served by the fake holds.
std::string header_of(const std::string& file) {
  std::uint64_t n = 0;
  std::memcpy(&n, file.data(), 8);
  return file.substr(0, 8 + n);
}

TEST(Remote, SafetensorsRepositoryReadsConfigIndexAndShardHeadersOnce) {
  HttpFake hub;
  FakeRepo repo;
  repo.files["config.json"] = Served{llama_config(), llama_config().size()};
  const std::string a = safetensors_file({{"model.embed_tokens.weight", "BF16", {1000, 256}, 4}});
  const std::string b =
      safetensors_file({{"model.layers.0.mlp.up_proj.weight", "BF16", {512, 256}, 4}});
  const Json index = {
      {"metadata", {{"total_size", 1000 * 256 * 2 + 512 * 256 * 2}}},
      {"weight_map",
       {{"model.embed_tokens.weight", "model-00001-of-00002.safetensors"},
        {"model.layers.0.mlp.up_proj.weight", "model-00002-of-00002.safetensors"}}}};
  repo.files["model.safetensors.index.json"] = Served{index.dump(), index.dump().size()};
  // Sparse shards of 4 GB: only their headers are real.
  repo.files["model-00001-of-00002.safetensors"] = Served{header_of(a), 4'000'000'000};
  repo.files["model-00002-of-00002.safetensors"] = Served{header_of(b), 4'000'000'000};
  repo.files["tokenizer.json"] = Served{"{}", 2};
  hub.repos["org/tiny"] = repo;
  auto env = env_for(hub);
  const auto r = run_cli({"org/tiny", "--json"}, env);
  const Json j = answer(r);
  ASSERT_TRUE(j.is_object()) << r.err;
  EXPECT_EQ(j["model"]["weights_source"], "safetensors");
  EXPECT_EQ(j["model"]["kv_heads"], 2);
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf");
  std::map<std::string, int> reads;
  for (const auto& l : hub.log()) {
    if (l.status == 200 || l.status == 206) {
      ++reads[l.path.substr(l.path.rfind('/') + 1)];
    }
  }
  EXPECT_EQ(reads["config.json"], 1);
  EXPECT_EQ(reads["model.safetensors.index.json"], 1);
  EXPECT_EQ(reads["model-00001-of-00002.safetensors"], 1);
  EXPECT_EQ(reads["model-00002-of-00002.safetensors"], 1);
  EXPECT_EQ(reads.count("tokenizer.json"), 0U);
}

// A repository of many shards whose index gives total_size and whose config
// gives the architecture: the weight bytes come from the index, the dtypes
// from the shards of the embedding, the middle block and lm_head; the other
// headers are not read, and model.origin says how many.
TEST(Remote, ManyShardsReadTheIndexAndASampleOfHeaders) {
  HttpFake hub;
  FakeRepo repo;
  std::string config = llama_config();
  config.replace(config.find("\"num_hidden_layers\":2"), 21, "\"num_hidden_layers\":10");
  repo.files["config.json"] = Served{config, config.size()};
  const auto shard = [](int k) { return fmt::format("model-{:05}-of-00012.safetensors", k); };
  Json weight_map = Json::object();
  std::int64_t total = 0;
  const auto put = [&](int k, const StTensor& t) {
    const std::string file = safetensors_file({t});
    repo.files[shard(k)] = Served{header_of(file), 4'000'000'000};
    weight_map[t.name] = shard(k);
    total += static_cast<std::int64_t>(1000 * 256 * t.bytes_per_element_x2 / 2);
  };
  put(1, {"model.embed_tokens.weight", "BF16", {1000, 256}, 4});
  for (int layer = 0; layer < 10; ++layer) {  // the bulk in FP8
    put(2 + layer,
        {fmt::format("model.layers.{}.mlp.up_proj.weight", layer), "F8_E4M3", {1000, 256}, 2});
  }
  put(12, {"lm_head.weight", "BF16", {1000, 256}, 4});
  const Json index = {{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}};
  repo.files["model.safetensors.index.json"] = Served{index.dump(), index.dump().size()};
  hub.repos["org/sharded"] = repo;
  auto env = env_for(hub);
  const auto r = run_cli({"org/sharded", "--json"}, env);
  const Json j = answer(r);
  ASSERT_TRUE(j.is_object()) << r.err;
  EXPECT_EQ(j["model"]["weights_bytes"], total);
  EXPECT_EQ(j["model"]["layers"], 10);
  const Json& o = j["model"]["origin"];
  EXPECT_EQ(o["files_not_read"], 9);
  EXPECT_EQ(o["files"], Json::array({"config.json", shard(1), shard(6), shard(12),
                                     "model.safetensors.index.json"}));
  std::map<std::string, int> reads;
  for (const auto& l : hub.log()) {
    if (l.status == 200 || l.status == 206) {
      ++reads[l.path.substr(l.path.rfind('/') + 1)];
    }
  }
  reads.erase("main");          // the model info
  EXPECT_EQ(reads.size(), 5U);  // config, index, 3 headers: each once
  for (const auto& [file, n] : reads) {
    EXPECT_EQ(n, 1) << file;
  }
  EXPECT_EQ(reads.count(shard(6)), 1U);  // the middle block (layer 4 of 0-9)
  EXPECT_EQ(o["requests"], 9);           // info, config, index, 3 x (resolve + range)
  const std::string text = run_cli({"org/sharded"}, env).out;
  EXPECT_NE(text.find("dtypes from the headers of 3 of its 12 shards (BF16 80%, F8_E4M3 20%"),
            std::string::npos)
      << text;
}

std::string manifest(const std::string& media, const std::string& digest, std::uint64_t size) {
  return Json{{"schemaVersion", 2},
              {"mediaType", "application/vnd.docker.distribution.manifest.v2+json"},
              {"config",
               {{"mediaType", "application/vnd.docker.container.image.v1+json"},
                {"digest", "sha256:" + std::string(64, 'c')},
                {"size", 10}}},
              {"layers", {{{"mediaType", media}, {"digest", digest}, {"size", size}}}}}
      .dump();
}

TEST(Remote, OllamaRegistryManifestThenBlobHeader) {
  HttpFake hub;
  const std::string digest = "sha256:" + std::string(64, 'd');
  hub.ollama_manifests["library/tinyllama-x/q4"] =
      manifest("application/vnd.ollama.image.model", digest, kSparse);
  hub.ollama_blobs[digest] = gguf(tiny_llama(3));
  hub.ollama_manifests["library/newstyle/latest"] =
      manifest("application/vnd.ollama.image.tensor", digest, 100);
  auto env = env_for(hub);
  const Json j = answer(run_cli({"tinyllama-x:q4", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama");
  EXPECT_EQ(j["model"]["origin"]["revision"], digest);
  EXPECT_EQ(j["model"]["origin"]["requests"], 3);  // manifest, blob (307), range at R2
  auto r = run_cli({"ollama.com/library/newstyle"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("one tensor per layer"), std::string::npos) << r.err;
  r = run_cli({"library/nothere:1b"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("no such model or tag (404)"), std::string::npos) << r.err;
}

// A vision model as Ollama publishes it for its llama.cpp runner (llava,
// llama3.2-vision...): the model layer, then the projector as its own layer
// (application/vnd.ollama.image.projector, server/images.go), beside the
// template and params layers.
std::string vision_manifest(const std::string& model, const std::string& projector,
                            std::uint64_t projector_size) {
  Json m = Json::parse(manifest("application/vnd.ollama.image.model", model, kSparse));
  m["layers"].push_back({{"mediaType", "application/vnd.ollama.image.projector"},
                         {"digest", projector},
                         {"size", projector_size}});
  m["layers"].push_back({{"mediaType", "application/vnd.ollama.image.template"},
                         {"digest", "sha256:" + std::string(64, '7')},
                         {"size", 358}});
  return m.dump();
}

// A projector blob of another layout than clip.cpp's: counted by its tensors.
GgufWriter other_projector() {
  GgufWriter w;
  w.str("general.architecture", "mllama");
  w.tensor("v.patch_embedding.weight", {14, 14, 3, 1280}, kF16);
  w.tensor("v.blk.0.attn_q.weight", {1280, 1280}, kF16);
  return w;
}
constexpr std::int64_t kOtherProjectorBytes = (14 * 14 * 3 * 1280 + 1280 * 1280) * 2;

TEST(Remote, AnOllamaProjectorLayerIsReadAsTheProjector) {
  HttpFake hub;
  const std::string model = "sha256:" + std::string(64, 'd');
  const std::string projector = "sha256:" + std::string(64, 'e');
  hub.ollama_manifests["library/tinyvision/q4"] = vision_manifest(model, projector, 851'000'000);
  hub.ollama_blobs[model] = gguf(tiny_llama(3));
  hub.ollama_blobs[projector] = gguf(tiny_mmproj(), 851'000'000);
  auto env = env_for(hub);
  const Json j = answer(run_cli({"tinyvision:q4", "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);  // the projector is not in the weights
  const Json& o = j["model"]["origin"];
  EXPECT_EQ(o["files"], Json::array({"tinyvision:q4.gguf", "tinyvision:q4.projector.gguf"}));
  // The manifest; the model blob (307) and one range read at R2; the same
  // for the projector blob.
  const auto log = hub.log();
  ASSERT_EQ(log.size(), 5U);
  EXPECT_EQ(o["requests"], 5);
  EXPECT_NE(log[3].path.find(projector), std::string::npos) << log[3].path;
  EXPECT_EQ(log[4].range, "bytes=0-2097151");
  const Json term = projector_term(j);
  ASSERT_TRUE(term.is_object()) << j["memory"]["terms"].dump();
  // Ollama runs llama.cpp's clip.cpp for it: the tensors and its buffer.
  EXPECT_GT(term["bytes"].get<std::int64_t>(), static_cast<std::int64_t>(kMmprojBytes));
  const std::string text = run_cli({"tinyvision:q4"}, env).out;
  EXPECT_NE(text.find("multimodal projector sha256:eeeeeeeeeeee (the manifest's projector layer)"),
            std::string::npos)
      << text;

  // --text-only: the manifest and the model blob only.
  hub.clear_log();
  env.vars["XDG_CACHE_HOME"] = "/home/u/.cache-2";  // nothing cached
  const Json t = answer(run_cli({"tinyvision:q4", "--json", "--text-only"}, env));
  EXPECT_EQ(t["model"]["origin"]["requests"], 3);
  for (const auto& l : hub.log()) {
    EXPECT_EQ(l.path.find(projector), std::string::npos) << l.path;
  }
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  EXPECT_TRUE(projector_term(t).is_null());

  // A projector blob that is not a clip file is counted by its tensors,
  // with no clip.cpp buffer (Ollama's own estimate counts the same).
  hub.ollama_blobs[projector] = gguf(other_projector(), 1'900'000'000);
  env.vars["XDG_CACHE_HOME"] = "/home/u/.cache-3";
  const Json k = answer(run_cli({"tinyvision:q4", "--json"}, env));
  EXPECT_EQ(k["memory"]["projector_bytes"], kOtherProjectorBytes);
}

// --mmproj names the projector: llama-server loads the one given, not the
// repository's, so the repository's is not asked for.
TEST(Remote, AGivenMmprojTakesThePlaceOfTheRepositorys) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  env.files["/home/u/mmproj-own.gguf"] = tiny_mmproj().file();
  const Json j = answer(
      run_cli({"hf.co/org/tiny-GGUF", "--json", "--mmproj", "/home/u/mmproj-own.gguf"}, env));
  EXPECT_EQ(j["model"]["origin"]["files"], Json::array({"Tiny-Q4_K_M.gguf"}));
  EXPECT_TRUE(projector_term(j).is_object()) << j["memory"]["terms"].dump();
  for (const auto& l : hub.log()) {
    EXPECT_EQ(l.path.find("mmproj"), std::string::npos) << l.path;
  }
}

// Ollama's own engine packs the encoder into the model blob (gemma3,
// qwen2.5vl): counted once, in the weights; a projector layer beside it is
// not read, nor counted a second time.
TEST(Remote, AnEncoderInsideTheOllamaBlobIsCountedOnce) {
  HttpFake hub;
  const std::string model = "sha256:" + std::string(64, 'd');
  const std::string projector = "sha256:" + std::string(64, 'e');
  GgufWriter packed = tiny_llama(3);
  const std::uint64_t encoder = packed.tensor("v.blk.0.attn_q.weight", {1152, 1152}, kF16) +
                                packed.tensor("mm.mm_input_projection.weight", {1152, 64}, kF16);
  hub.ollama_manifests["library/packed/q4"] = vision_manifest(model, projector, 851'000'000);
  hub.ollama_manifests["library/packed/alone"] =
      manifest("application/vnd.ollama.image.model", model, kSparse);
  hub.ollama_blobs[model] = gguf(packed);
  hub.ollama_blobs[projector] = gguf(tiny_mmproj(), 851'000'000);
  auto env = env_for(hub);
  for (const char* name : {"packed:alone", "packed:q4"}) {
    hub.clear_log();
    const Json j = answer(run_cli({name, "--json"}, env));
    EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes + encoder) << name;
    EXPECT_EQ(j["memory"]["projector_bytes"], 0) << name;
    for (const auto& l : hub.log()) {
      EXPECT_EQ(l.path.find(projector), std::string::npos) << l.path;
    }
  }
  const std::string text = run_cli({"packed:q4"}, env).out;
  EXPECT_NE(text.find("the file holds its vision/audio encoder too"), std::string::npos) << text;
  EXPECT_NE(text.find("not counted: the model blob holds its encoder already"), std::string::npos)
      << text;
}

// `ollama pull` leaves the projector layer's blob beside the model's.
// `willfit local` lists what the stores hold, as names MODEL takes: library
// tags bare, other namespaces and hosts in full, the hub cache's repos as
// ORG/REPO. Ollama's own verbs (list, ps) point to it.
TEST(Remote, LocalListsTheStoresAndListPointsToIt) {
  app::FakeEnvironment env;
  env.vars = {{"HOME", "/home/u"}, {"OLLAMA_MODELS", "/data/ollama"}, {"HF_HUB_CACHE", "/data/hf"}};
  env.files["/data/ollama/manifests/registry.ollama.ai/library/qwen3/8b"] = "{}";
  env.files["/data/ollama/manifests/registry.ollama.ai/someone/tiny/latest"] = "{}";
  env.files["/data/ollama/manifests/hf.co/unsloth/Qwen3-8B-GGUF/Q4_K_M"] = "{}";
  env.files["/data/hf/models--Qwen--Qwen3-8B/refs/main"] = "0123";
  env.files["/data/hf/datasets--x--y/refs/main"] = "0123";
  const auto r = run_cli({"local"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line : {"Ollama (/data/ollama): 3\n", "  qwen3:8b\n", "  someone/tiny:latest\n",
                           "  hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M\n",
                           "Hugging Face cache (/data/hf): 1\n", "  Qwen/Qwen3-8B\n"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
  EXPECT_EQ(r.out.find("datasets"), std::string::npos) << r.out;
  app::FakeEnvironment empty;
  empty.vars = {{"HOME", "/home/u"}};
  EXPECT_NE(run_cli({"local"}, empty).out.find("Ollama (/home/u/.ollama/models): none"),
            std::string::npos);
  for (const char* verb : {"list", "ps"}) {
    const auto l = run_cli({verb}, env);
    EXPECT_TRUE(is_clean_error(l)) << l.err;
    EXPECT_NE(l.err.find("'willfit local' lists the models on this machine"), std::string::npos)
        << l.err;
  }
}

TEST(Remote, TheOllamaStoresProjectorBlobIsReadOffline) {
  app::FakeEnvironment env;
  env.vars = {{"HOME", "/home/u"}, {"OLLAMA_MODELS", "/data/ollama"}};
  const std::string model(64, 'd');
  const std::string projector(64, 'e');
  env.files["/data/ollama/manifests/registry.ollama.ai/library/tinyvision/q4"] =
      vision_manifest("sha256:" + model, "sha256:" + projector, 851'000'000);
  env.files["/data/ollama/blobs/sha256-" + model] = tiny_llama(3).header();
  env.sizes["/data/ollama/blobs/sha256-" + model] = kSparse;
  env.files["/data/ollama/blobs/sha256-" + projector] = tiny_mmproj().header();
  env.sizes["/data/ollama/blobs/sha256-" + projector] = 851'000'000;
  const Json j = answer(run_cli({"tinyvision:q4", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama_store");
  EXPECT_EQ(j["model"]["origin"]["files"], Json::array({"/data/ollama/blobs/sha256-" + model,
                                                        "/data/ollama/blobs/sha256-" + projector}));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  EXPECT_GT(j["memory"]["projector_bytes"].get<std::int64_t>(),
            static_cast<std::int64_t>(kMmprojBytes));
  const Json t = answer(run_cli({"tinyvision:q4", "--json", "--text-only"}, env));
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  // A pull cut short: the projector's blob is missing. --text-only needs none.
  env.files.erase("/data/ollama/blobs/sha256-" + projector);
  env.sizes.erase("/data/ollama/blobs/sha256-" + projector);
  const auto r = run_cli({"tinyvision:q4"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("projector layer whose blob is missing"), std::string::npos) << r.err;
  EXPECT_EQ(
      answer(run_cli({"tinyvision:q4", "--json", "--text-only"}, env))["memory"]["projector_bytes"],
      0);
}

// The Hugging Face cache holds what llama-server -hf downloaded: the model
// and the repository's mmproj file, read as from the network.
TEST(Remote, TheHubCachesMmprojIsReadWithItsModel) {
  app::FakeEnvironment env;
  env.vars = {{"HOME", "/home/u"}, {"HF_HUB_CACHE", "/data/hf"}};
  const std::string commit(40, 'e');
  const std::string snap = "/data/hf/models--org--tiny-GGUF/snapshots/" + commit;
  env.files["/data/hf/models--org--tiny-GGUF/refs/main"] = commit + "\n";
  env.files[snap + "/Tiny-Q4_K_M.gguf"] = tiny_llama(3).header();
  env.sizes[snap + "/Tiny-Q4_K_M.gguf"] = kSparse;
  env.files[snap + "/mmproj-Tiny-F16.gguf"] = tiny_mmproj().header();
  env.sizes[snap + "/mmproj-Tiny-F16.gguf"] = 851'000'000;
  const Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf_cache");
  EXPECT_EQ(j["model"]["origin"]["files"],
            Json::array({"Tiny-Q4_K_M.gguf", "mmproj-Tiny-F16.gguf"}));
  EXPECT_TRUE(projector_term(j).is_object()) << j["memory"]["terms"].dump();
  const Json t = answer(run_cli({"hf.co/org/tiny-GGUF", "--json", "--text-only"}, env));
  EXPECT_EQ(t["memory"]["projector_bytes"], 0);
  EXPECT_EQ(t["model"]["origin"]["files"], Json::array({"Tiny-Q4_K_M.gguf"}));
}

TEST(Remote, TheCacheAnswersTheSecondTimeAndOffline) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  EXPECT_EQ(answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env))["model"]["origin"]["cached"],
            false);
  hub.clear_log();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"hf.co/org/tiny-GGUF", "--json"},
        std::vector<std::string>{"hf.co/org/tiny-GGUF", "--json", "--offline"}}) {
    const Json j = answer(run_cli(args, env));
    EXPECT_EQ(j["model"]["origin"]["cached"], true);
    EXPECT_EQ(j["model"]["origin"]["requests"], 0);
    EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  }
  EXPECT_TRUE(hub.log().empty());
  // The cache is keyed by commit: the layout is documented in docs/remote.md.
  EXPECT_EQ(env.files.count("/home/u/.cache/willfit/hf/org--tiny-GGUF/refs/main"), 1U);
  EXPECT_EQ(env.files.count("/home/u/.cache/willfit/hf/org--tiny-GGUF/" + std::string(40, 'a') +
                            "/files/Tiny-Q4_K_M.gguf"),
            1U);
  // --refresh asks again; the old bytes at the same commit are reused.
  const Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json", "--refresh"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);
  // HF_HUB_OFFLINE and --offline never touch the network.
  env.vars["HF_HUB_OFFLINE"] = "1";
  auto r = run_cli({"hf.co/org/other-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("offline"), std::string::npos);
  EXPECT_EQ(hub.log().size(), 1U);
}

TEST(Remote, AnOldRefIsAskedAgainAndTheBytesAtTheSameCommitReused) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  const std::string digest = "sha256:" + std::string(64, 'd');
  hub.ollama_manifests["library/tinyllama-x/q4"] =
      manifest("application/vnd.ollama.image.model", digest, kSparse);
  hub.ollama_blobs[digest] = gguf(tiny_llama(3));
  auto env = env_for(hub);
  (void)answer(run_cli({"hf.co/org/tiny-GGUF"}, env));
  (void)answer(run_cli({"tinyllama-x:q4"}, env));
  hub.clear_log();
  env.vars["WILLFIT_CACHE_TTL"] = "0";
  Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);  // the model info; the header from the cache
  j = answer(run_cli({"tinyllama-x:q4", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);  // the manifest; the blob's header from the cache
  EXPECT_EQ(hub.log().size(), 2U);
  // Offline, an old entry still answers.
  j = answer(run_cli({"tinyllama-x:q4", "--json", "--offline"}, env));
  EXPECT_EQ(j["model"]["origin"]["cached"], true);
}

TEST(Remote, LocalStoresComeBeforeTheCatalogueAndTheNetwork) {
  app::FakeEnvironment env;
  env.network = true;
  env.vars = {{"HOME", "/home/u"}, {"HF_ENDPOINT", "http://127.0.0.1:1"}};
  const std::string commit(40, 'e');
  const std::string repo = "/home/u/.cache/huggingface/hub/models--org--tiny-GGUF";
  env.files[repo + "/refs/main"] = commit + "\n";
  env.files[repo + "/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] = tiny_llama(3).header();
  env.sizes[repo + "/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] = kSparse;
  Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf_cache");
  EXPECT_EQ(j["model"]["origin"]["revision"], commit);
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  // Ollama: qwen3:8b is in the catalogue, but the pulled blob is what the user has.
  const std::string models = "/home/u/.ollama/models";
  const std::string digest = "sha256:" + std::string(64, 'f');
  env.files[models + "/manifests/registry.ollama.ai/library/qwen3/8b"] =
      manifest("application/vnd.ollama.image.model", digest, kSparse);
  env.files[models + "/blobs/sha256-" + std::string(64, 'f')] = tiny_llama(3).header();
  env.sizes[models + "/blobs/sha256-" + std::string(64, 'f')] = kSparse;
  j = answer(run_cli({"qwen3:8b", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama_store");
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  // Pulled with Ollama, run with Ollama: the same runtime as the tag not pulled.
  EXPECT_EQ(j["query"]["runtime"], "ollama");
  const std::string text = run_cli({"qwen3:8b"}, env).out;
  EXPECT_NE(text.find("read from Ollama's models directory"), std::string::npos) << text;
  // The address ollama.com shows names the same package.
  j = answer(run_cli({"ollama.com/library/qwen3:8b", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama_store");
  EXPECT_EQ(j["query"]["runtime"], "ollama");
  // The pulled file is Q4_K_M (tiny_llama's file type): another precision is
  // refused, not printed over its bytes.
  const auto r = run_cli({"qwen3:8b", "-p", "q8_0"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.out << r.err;
  EXPECT_NE(r.err.find("is a Q4_K_M file"), std::string::npos) << r.err;
  // A bare name is NAME:latest to Ollama, and to the store.
  env.files[models + "/manifests/registry.ollama.ai/library/tiny/latest"] =
      manifest("application/vnd.ollama.image.model", digest, kSparse);
  j = answer(run_cli({"tiny", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama_store");
  EXPECT_EQ(j["model"]["origin"]["ref"], "tiny:latest");
  // Without the store, the catalogue answers.
  env.files.erase(models + "/manifests/registry.ollama.ai/library/qwen3/8b");
  j = answer(run_cli({"qwen3:8b", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "catalogue");
  EXPECT_EQ(j["query"]["runtime"], "ollama");
}

// The forms of an Ollama library address (the site's ollama.com/library/
// NAME:TAG, library/NAME:TAG, the registry host, the page's URL) are the tag
// `ollama pull` fetches: Qwen3-8B's package is Q4_K_M (the catalogue's
// ollama_tags, from the library's tags page), run by Ollama.
TEST(Remote, OllamaLibraryAddressesAreTheirTags) {
  app::FakeEnvironment env;  // network off: the catalogue answers
  const Json bare = answer(run_cli({"qwen3:8b", "-d", "rtx 4090", "--json"}, env));
  EXPECT_EQ(bare["query"]["precision"], "q4_k_m");
  EXPECT_EQ(bare["query"]["runtime"], "ollama");
  for (const char* name :
       {"ollama.com/library/qwen3:8b", "library/qwen3:8b", "ollama.com/qwen3:8b",
        "registry.ollama.ai/library/qwen3:8b", "https://ollama.com/library/qwen3:8b",
        "www.ollama.com/library/qwen3:8b"}) {
    const Json j = answer(run_cli({name, "-d", "rtx 4090", "--json"}, env));
    EXPECT_EQ(j["query"]["precision"], "q4_k_m") << name;
    EXPECT_EQ(j["query"]["runtime"], "ollama") << name;
    EXPECT_EQ(j["model"]["name"], bare["model"]["name"]) << name;
    EXPECT_EQ(j["result"]["required_bytes"], bare["result"]["required_bytes"]) << name;
  }
}

// A quantisation the name gives (no file read) and another --precision: the
// option answers, as suggestions that add --precision to the command rely on,
// and the answer says the name's type was replaced.
TEST(Remote, APrecisionReplacingTheNamesIsSaid) {
  app::FakeEnvironment env;  // network off: the catalogue answers
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"qwen3:8b-q8_0", "-p", "q4_k_m", "--json"},
        std::vector<std::string>{"hf.co/unsloth/Qwen3-8B-GGUF:Q8_0", "-p", "q4_k_m", "--json"}}) {
    const Json j = answer(run_cli(args, env));
    EXPECT_EQ(j["query"]["precision"], "q4_k_m") << args[0];
    EXPECT_NE(j["assumptions"].dump().find("names Q8_0; --precision q4_k_m replaces it"),
              std::string::npos)
        << j["assumptions"].dump();
  }
  // The same quantisation, or a name without one, needs no such line.
  Json j = answer(run_cli({"qwen3:8b-q8_0", "-p", "q8_0", "--json"}, env));
  EXPECT_EQ(j["assumptions"].dump().find("replaces it"), std::string::npos);
  j = answer(run_cli({"qwen3:8b", "-p", "q8_0", "--json"}, env));
  EXPECT_EQ(j["query"]["precision"], "q8_0");
  EXPECT_EQ(j["assumptions"].dump().find("replaces it"), std::string::npos);
}

TEST(Remote, TheFakeEnvironmentNeverReachesTheNetwork) {
  app::FakeEnvironment env;  // network off, as in every other test
  env.vars["HF_ENDPOINT"] = "http://127.0.0.1:1";
  const auto r = run_cli({"org/repo"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("offline"), std::string::npos) << r.err;
}

TEST(Remote, AUrlIsOneFile) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  const auto url = hub.base() + "/org/tiny-GGUF/resolve/main/Tiny-Q8_0.gguf";
  const Json j = answer(run_cli({url, "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "url");
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  EXPECT_EQ(j["model"]["origin"]["requests"], 2);  // the 302 and the range read
  // A gated file's URL on the hub gets the hub's token, and the CDN never sees it.
  FakeRepo gated = gguf_repo();
  gated.gated = "manual";
  hub.repos["org/gated-GGUF"] = gated;
  const auto gated_url = hub.base() + "/org/gated-GGUF/resolve/main/Tiny-Q8_0.gguf";
  EXPECT_TRUE(is_clean_error(run_cli({gated_url}, env)));
  env.vars["HF_TOKEN"] = "hf_good";
  hub.clear_log();
  EXPECT_EQ(answer(run_cli({gated_url, "--json"}, env))["model"]["weights_bytes"], kTinyBytes);
  for (const auto& l : hub.log()) {
    EXPECT_EQ(l.auth.empty(), l.server == "cdn") << l.server << " " << l.path;
  }
}

// A URL is cached as a branch name is: trusted for WILLFIT_CACHE_TTL without a
// request (and with --offline), then asked again with If-None-Match; its bytes
// are kept under its ETag (else Last-Modified, else its size).
TEST(Remote, AUrlIsCachedByItsETagAndAskedAgainAfterTheTtl) {
  HttpFake hub;
  hub.plain["tiny.gguf"] = Served{tiny_llama(3).header(), kSparse, "\"v1\"", ""};
  auto env = env_for(hub);
  const std::string url = hub.base() + "/files/tiny.gguf";
  Json j = answer(run_cli({url, "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);  // one range read
  EXPECT_EQ(j["model"]["origin"]["cached"], false);
  ASSERT_EQ(hub.log().size(), 1U);
  EXPECT_EQ(hub.log()[0].range, "bytes=0-2097151");
  hub.clear_log();
  // Fresh: no request, online or offline, and the same answer.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{url, "--json"},
        std::vector<std::string>{url, "--json", "--offline"}}) {
    j = answer(run_cli(args, env));
    EXPECT_EQ(j["model"]["origin"]["requests"], 0);
    EXPECT_EQ(j["model"]["origin"]["cached"], true);
    EXPECT_EQ(j["model"]["origin"]["kind"], "url");
    EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  }
  EXPECT_TRUE(hub.log().empty());
  // --refresh ignores the cache: the whole first read again, no If-None-Match.
  j = answer(run_cli({url, "--json", "--refresh"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);
  EXPECT_EQ(total_bytes(hub.log()), std::uint64_t{2} << 20);
  hub.clear_log();
  // Past the TTL: one request, answered 304 (no body), the cached bytes reused.
  env.vars["WILLFIT_CACHE_TTL"] = "0";
  j = answer(run_cli({url, "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["requests"], 1);
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  ASSERT_EQ(hub.log().size(), 1U);
  EXPECT_EQ(hub.log()[0].status, 304);
  EXPECT_EQ(total_bytes(hub.log()), 0U);
  hub.clear_log();
  // The file changed (a new ETag): read again, and the new answer.
  GgufWriter bigger = tiny_llama(3);
  const std::uint64_t extra = bigger.tensor("blk.9.ffn_up_x.weight", {256, 512}, kQ8_0);
  hub.plain["tiny.gguf"] = Served{bigger.header(), kSparse, "\"v2\"", ""};
  j = answer(run_cli({url, "--json"}, env));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes + extra);
  EXPECT_EQ(hub.log().at(0).status, 206);
  // Offline, a URL never read is a clean error.
  const auto r = run_cli({hub.base() + "/files/other.gguf", "--offline"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("offline"), std::string::npos) << r.err;
}

// Without an ETag, Last-Modified (else the size alone) says whether the bytes
// read before still hold: a header read in two requests is asked again in one.
TEST(Remote, AUrlWithoutAnETagFallsBackToLastModifiedThenSize) {
  for (const std::string modified : {"Tue, 01 Dec 2026 00:00:00 GMT", ""}) {
    HttpFake hub;
    const GgufWriter w = big_header(3 << 20);
    hub.plain["big.gguf"] = Served{w.header(), kSparse, "", modified};
    auto env = env_for(hub);
    const std::string url = hub.base() + "/files/big.gguf";
    Json j = answer(run_cli({url, "--json"}, env));
    EXPECT_EQ(j["model"]["origin"]["requests"], 2);  // 2 MiB, then the rest
    hub.clear_log();
    EXPECT_EQ(answer(run_cli({url, "--json"}, env))["model"]["origin"]["requests"], 0);
    env.vars["WILLFIT_CACHE_TTL"] = "0";
    j = answer(run_cli({url, "--json"}, env));
    EXPECT_EQ(j["model"]["origin"]["requests"], 1) << modified;  // the rest comes from the cache
    EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
    EXPECT_EQ(total_bytes(hub.log()), std::uint64_t{2} << 20);
  }
}

TEST(Remote, ReadsTheTreesPagesAndLinkHeaders) {
  EXPECT_EQ(
      app::link_next(R"(<https://h/a?cursor=1>; rel="prev", <https://h/a?cursor=3>; rel="next")"),
      "https://h/a?cursor=3");
  EXPECT_EQ(app::link_next(R"(<https://h/a?cursor=1>; rel="prev")"), "");
  EXPECT_EQ(app::link_next("garbage <"), "");
  const auto tree = app::parse_hub_tree(
      R"([{"type":"directory","path":"d"},{"type":"file","path":"d/x.gguf","size":134,
          "lfs":{"size":5000000000}},{"type":"file","path":"../y","size":1}])");
  ASSERT_TRUE(tree);
  ASSERT_EQ(tree->size(), 1U);
  EXPECT_EQ(tree->front().path, "d/x.gguf");
  EXPECT_EQ(tree->front().size, 5000000000U);  // the LFS size, not the pointer's
  EXPECT_FALSE(app::parse_hub_tree("{}"));
}

// The model info's file list may be cut short for a large repository: from
// 1000 files on, the tree is listed, following Link: rel="next", up to 100
// pages; the list is cached with the rest.
TEST(Remote, ALargeRepositoryIsListedThroughTheTreesPages) {
  HttpFake hub;
  FakeRepo repo = gguf_repo();
  for (int i = 0; i < 1500; ++i) {
    repo.files[fmt::format("A/file-{:04}.txt", i)] = Served{"x", 1};  // sorted before Tiny-*
  }
  hub.repos["org/large-GGUF"] = repo;
  hub.siblings_limit = 1000;  // the GGUF files are past the cut
  auto env = env_for(hub);
  env.vars["HF_TOKEN"] = "hf_good";
  Json j = answer(run_cli({"hf.co/org/large-GGUF", "--json"}, env));
  const Json files = Json::array({"Tiny-Q4_K_M.gguf", "mmproj-Tiny-F16.gguf"});
  EXPECT_EQ(j["model"]["origin"]["files"], files);
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  auto log = hub.log();
  ASSERT_EQ(log.size(), 7U);  // info, 2 tree pages, 2 x (resolve, range)
  EXPECT_EQ(j["model"]["origin"]["requests"], 7);
  EXPECT_NE(log[1].path.find("/tree/"), std::string::npos);
  EXPECT_NE(log[2].path.find("/tree/"), std::string::npos);
  EXPECT_EQ(log[2].auth, "Bearer hf_good");
  hub.clear_log();
  j = answer(run_cli({"hf.co/org/large-GGUF", "--json", "--offline"}, env));
  EXPECT_EQ(j["model"]["origin"]["files"], files);
  EXPECT_TRUE(hub.log().empty());
  // A list longer than 100 pages is refused, after 100 requests for it.
  hub.tree_page = 10;
  const auto r = run_cli({"hf.co/org/large-GGUF", "--refresh"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("runs past 100 pages"), std::string::npos) << r.err;
  EXPECT_EQ(hub.log().size(), 101U);
}

// Audit of issue 15 (remote2): the cases no other test proved.
TEST(Remote, A206ForAnotherRangeIsRefused) {
  HttpFake hub;
  FakeRepo repo;
  repo.files["Big-Q4_K_M.gguf"] = gguf(big_header(3 << 20), 100'000'000'000);
  hub.repos["org/big-GGUF"] = repo;
  hub.wrong_content_range = true;  // the second read (from 2 MiB) claims to start at 0
  auto env = env_for(hub);
  const auto r = run_cli({"hf.co/org/big-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("answered a different byte range"), std::string::npos) << r.err;
}

TEST(Remote, AGgufRepositoryGivenAsOrgRepoIsReadAsHfCo) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  const Json j = answer(run_cli({"org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf");
  EXPECT_EQ(j["model"]["origin"]["files"],
            Json::array({"Tiny-Q4_K_M.gguf", "mmproj-Tiny-F16.gguf"}));
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
}

TEST(Remote, TheStoreVariablesMoveTheStores) {
  app::FakeEnvironment env;
  env.vars = {{"HOME", "/home/u"}, {"HF_HUB_CACHE", "/data/hf"}, {"OLLAMA_MODELS", "/data/ollama"}};
  const std::string commit(40, 'e');
  env.files["/data/hf/models--org--tiny-GGUF/refs/main"] = commit + "\n";
  env.files["/data/hf/models--org--tiny-GGUF/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] =
      tiny_llama(3).header();
  env.sizes["/data/hf/models--org--tiny-GGUF/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] = kSparse;
  Json j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf_cache");
  // HF_HOME/hub when HF_HUB_CACHE is not set.
  env.vars.erase("HF_HUB_CACHE");
  env.vars["HF_HOME"] = "/data";
  env.files["/data/hub/models--org--tiny-GGUF/refs/main"] = commit + "\n";
  env.files["/data/hub/models--org--tiny-GGUF/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] =
      tiny_llama(3).header();
  env.sizes["/data/hub/models--org--tiny-GGUF/snapshots/" + commit + "/Tiny-Q4_K_M.gguf"] = kSparse;
  j = answer(run_cli({"hf.co/org/tiny-GGUF", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf_cache");
  const std::string digest(64, 'f');
  env.files["/data/ollama/manifests/registry.ollama.ai/library/tinyllama-x/q4"] =
      manifest("application/vnd.ollama.image.model", "sha256:" + digest, kSparse);
  env.files["/data/ollama/blobs/sha256-" + digest] = tiny_llama(3).header();
  env.sizes["/data/ollama/blobs/sha256-" + digest] = kSparse;
  j = answer(run_cli({"tinyllama-x:q4", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama_store");
}

// Proxies come from libcurl's own variables (the process environment): a
// proxy that is down fails the read; no_proxy for the host bypasses it.
// A host name that cannot be resolved. A label longer than 63 bytes is refused by the
// resolver library itself (RFC 1035, 2.3.4) before any query is sent, and .invalid can
// never resolve (RFC 6761, 6.4), so the test does not depend on this machine's DNS.
TEST(Remote, AHostThatDoesNotResolveIsACleanError) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  env.vars["WILLFIT_HTTP_TIMEOUT"] = "5";
  const std::string host = std::string(64, 'a') + ".invalid";
  env.vars["HF_ENDPOINT"] = "http://" + host;
  auto r = run_cli({"hf.co/org/tiny-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("cannot resolve the host name " + host), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--offline"), std::string::npos) << r.err;
  EXPECT_TRUE(hub.log().empty());
  // The same name as a plain URL, and as the Ollama registry.
  r = run_cli({"http://" + host + "/model.gguf"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("cannot resolve the host name " + host), std::string::npos) << r.err;
  env.vars["WILLFIT_OLLAMA_REGISTRY"] = "http://" + host;
  r = run_cli({"tinyllama-x:q4"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("cannot resolve the host name " + host), std::string::npos) << r.err;
  EXPECT_TRUE(hub.log().empty());
}

// A GGUF repository named without :QUANT is the file Ollama and llama.cpp
// -hf take from it: "By default, the Q4_K_M quantization scheme is used"
// (huggingface/hub-docs docs/hub/ollama.md), run by llama.cpp. When the
// catalogue knows the model, its entry answers at that precision without
// the network, in each way of naming the repository.
TEST(Remote, AGgufRepositoryTheCatalogueKnowsIsItsQ4KMFileOnLlamaCpp) {
  app::FakeEnvironment env;  // network off: the catalogue answers
  for (const char* name :
       {"hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "hf.co/unsloth/Qwen3-8B-GGUF",
        "huggingface.co/unsloth/Qwen3-8B-GGUF", "https://huggingface.co/unsloth/Qwen3-8B-GGUF",
        "unsloth/Qwen3-8B-GGUF"}) {
    const Json j = answer(run_cli({name, "-d", "rtx 4060", "--json"}, env));
    EXPECT_EQ(j["query"]["precision"], "q4_k_m") << name;
    EXPECT_EQ(j["query"]["runtime"], "llama.cpp") << name;
    EXPECT_EQ(j["model"]["origin"]["kind"], "catalogue") << name;
  }
  const std::string text = run_cli({"hf.co/unsloth/Qwen3-8B-GGUF", "-d", "rtx 4060"}, env).out;
  EXPECT_NE(text.find("at Q4_K_M on GeForce RTX 4060 with llama.cpp"), std::string::npos) << text;
  EXPECT_NE(text.find("as llama.cpp -hf and Ollama choose"), std::string::npos) << text;
  // :QUANT and --precision still choose.
  Json j = answer(run_cli({"hf.co/unsloth/Qwen3-8B-GGUF:Q8_0", "--json"}, env));
  EXPECT_EQ(j["query"]["precision"], "q8_0");
  j = answer(run_cli({"hf.co/unsloth/Qwen3-8B-GGUF", "-p", "q6_k", "--json"}, env));
  EXPECT_EQ(j["query"]["precision"], "q6_k");
  // A repository whose name is not a GGUF repository's keeps the published precision.
  j = answer(run_cli({"Qwen/Qwen3-8B", "-d", "rtx 4060", "--json"}, env));
  EXPECT_EQ(j["query"]["precision"], "bf16");
  // A quantisation the catalogue cannot read is the repository's to answer:
  // the network, which is off here.
  const auto r = run_cli({"hf.co/unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("offline"), std::string::npos) << r.err;
}

TEST(Remote, ARepositoryPageUrlIsTheRepository) {
  const auto r = app::parse_remote_ref("https://huggingface.co/unsloth/Qwen3-8B-GGUF");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, app::RemoteRef::Kind::Hub);
  EXPECT_FALSE(r->hub_gguf);  // as ORG/REPO: safetensors, else the default GGUF file
  EXPECT_EQ(r->repo, "unsloth/Qwen3-8B-GGUF");
  const auto page = app::parse_remote_ref("https://hf.co/org/tiny-GGUF/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->display(), "org/tiny-GGUF");
  // Read from the hub (HF_ENDPOINT) as org/tiny-GGUF is: its Q4_K_M file.
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  const Json j =
      answer(run_cli({"https://huggingface.co/org/tiny-GGUF", "--text-only", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "hf");
  EXPECT_EQ(j["model"]["origin"]["files"][0], "Tiny-Q4_K_M.gguf");
}

// NAME:latest is read as Ollama's tag before any catalogue id: a tag the
// catalogue does not record is asked of the registry.
TEST(Remote, NameLatestTheCatalogueDoesNotRecordIsAskedOfTheRegistry) {
  HttpFake hub;
  const std::string digest = "sha256:" + std::string(64, 'd');
  hub.ollama_manifests["library/deepseek-v3/latest"] =
      manifest("application/vnd.ollama.image.model", digest, kSparse);
  hub.ollama_blobs[digest] = gguf(tiny_llama(3));
  auto env = env_for(hub);
  Json j = answer(run_cli({"deepseek-v3:latest", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "ollama");
  EXPECT_EQ(j["model"]["weights_bytes"], kTinyBytes);
  // One it records is the catalogue's: deepseek-r1:latest is the 8B.
  j = answer(run_cli({"deepseek-r1:latest", "--json"}, env));
  EXPECT_EQ(j["model"]["origin"]["kind"], "catalogue");
  EXPECT_EQ(j["model"]["origin"]["ref"], "deepseek-r1-0528-qwen3-8b");
}

// ollama.com/NS/NAME:TAG is an Ollama name: its error names Ollama's
// registry, never a Hugging Face id.
TEST(Remote, AnOllamaNamesErrorNamesOllamasRegistry) {
  HttpFake hub;
  auto env = env_for(hub);
  const auto r = run_cli({"ollama.com/someuser/foo:7b", "-d", "8gb"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("Ollama's registry"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(404)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Hugging Face"), std::string::npos) << r.err;
}

TEST(Remote, ProxiesComeFromLibcurlsVariables) {
  HttpFake hub;
  hub.repos["org/tiny-GGUF"] = gguf_repo();
  auto env = env_for(hub);
  ::setenv("http_proxy", "http://127.0.0.1:1", 1);
  auto r = run_cli({"hf.co/org/tiny-GGUF"}, env);
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_TRUE(hub.log().empty());  // nothing reached the hub
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  r = run_cli({"hf.co/org/tiny-GGUF"}, env);
  ::unsetenv("http_proxy");
  ::unsetenv("no_proxy");
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_FALSE(hub.log().empty());
}

}  // namespace
}  // namespace willfit::test
