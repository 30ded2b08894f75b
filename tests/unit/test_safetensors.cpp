#include <gtest/gtest.h>

#include "unit/model_file_writers.hpp"
#include "willfit/models/safetensors.hpp"

namespace willfit {
namespace {

using test::StTensor;

Expected<SafetensorsHeader> read(const std::string& file) {
  auto size = safetensors_header_size(file.substr(0, 8), file.size());
  if (!size) {
    return size.error();
  }
  return read_safetensors(file.substr(0, *size), file.size());
}

// safetensors dtype widths: BF16 2 bytes, F32 4, F8_E4M3 1 (safetensors README).
TEST(Safetensors, CountsParametersAndBytesExactly) {
  const std::string file = test::safetensors_file({
      {"model.embed_tokens.weight", "BF16", {1000, 64}, 4},
      {"model.layers.0.self_attn.q_proj.weight", "BF16", {64, 64}, 4},
      {"model.layers.1.mlp.down_proj.weight", "BF16", {64, 128}, 4},
      {"model.norm.weight", "F32", {64}, 8},
      {"lm_head.weight", "BF16", {1000, 64}, 4},
  });
  auto h = read(file);
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->tensors, 5);
  EXPECT_EQ(h->params, 64000 + 4096 + 8192 + 64 + 64000);
  EXPECT_EQ(h->bytes, (64000 + 4096 + 8192 + 64000) * 2 + 64 * 4);
  EXPECT_EQ(h->bytes_by_dtype.at("F32"), 256);
  EXPECT_EQ(h->layers, 2);
  EXPECT_TRUE(h->has_lm_head);
  EXPECT_EQ(h->embedding_rows, 1000);
  EXPECT_EQ(h->embedding_cols, 64);
  EXPECT_EQ(safetensors_precision(*h), "bf16");
}

TEST(Safetensors, PackedGptqWeightsCountWhatTheyHold) {
  // GPTQ 4-bit: qweight int32 [in/8, out] holds 8 weights per value; zeros,
  // scales and group indexes are bookkeeping, not parameters.
  const std::string file = test::safetensors_file({
      {"model.layers.0.mlp.up_proj.qweight", "I32", {8, 64}, 8},
      {"model.layers.0.mlp.up_proj.qzeros", "I32", {1, 8}, 8},
      {"model.layers.0.mlp.up_proj.scales", "F16", {1, 64}, 4},
      {"model.layers.0.mlp.up_proj.g_idx", "I32", {64}, 8},
  });
  auto h = read(file);
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->params, 64 * 64);
  EXPECT_TRUE(h->quantized_packed);
  EXPECT_EQ(h->bytes, 8 * 64 * 4 + 8 * 4 + 64 * 2 + 64 * 4);
}

TEST(Safetensors, WithoutConfigTheShapeComesFromTensorsAndSize) {
  const std::string file = test::safetensors_file({
      {"model.embed_tokens.weight", "F16", {32000, 256}, 4},
      {"model.layers.0.self_attn.q_proj.weight", "F16", {256, 256}, 4},
      {"model.layers.1.self_attn.q_proj.weight", "F16", {256, 256}, 4},
      {"model.layers.2.self_attn.q_proj.weight", "F16", {256, 256}, 4},
  });
  const Model m = model_from_safetensors(*read(file), "ckpt", nullptr);
  EXPECT_EQ(m.source, FactSource::Safetensors);
  EXPECT_EQ(m.weights_source, FactSource::Safetensors);
  EXPECT_EQ(m.arch.layers, 3);
  EXPECT_EQ(m.arch.hidden_size, 256);
  EXPECT_EQ(m.arch.vocab_size, 32000);
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(m.file_weight_bytes, (32000 * 256 + 3 * 65536) * 2);
  EXPECT_EQ(m.precision_hint, "fp16");
}

TEST(Safetensors, HostileHeadersAreRefused) {
  // Header length beyond the file.
  std::string f;
  test::put<std::uint64_t>(f, 1'000'000);
  f += "{}";
  EXPECT_NE(safetensors_header_size(f.substr(0, 8), f.size()).error().message.find("does not fit"),
            std::string::npos);
  // Header length 2^63.
  std::string huge;
  test::put<std::uint64_t>(huge, std::uint64_t{1} << 63);
  EXPECT_FALSE(safetensors_header_size(huge, 1 << 20).ok());
  // Shorter than 8 bytes.
  EXPECT_FALSE(safetensors_header_size("abc", 3).ok());
  // Offsets that do not match the shape.
  EXPECT_NE(
      read(test::raw_safetensors(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,12]}})", 16))
          .error()
          .message.find("needs 16 bytes"),
      std::string::npos);
  // Data past the end of the file (truncated download).
  EXPECT_NE(
      read(test::raw_safetensors(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", 8))
          .error()
          .message.find("outside the file"),
      std::string::npos);
  // A shape whose product overflows.
  EXPECT_NE(
      read(
          test::raw_safetensors(
              R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,16]}})",
              16))
          .error()
          .message.find("larger than the file"),
      std::string::npos);
  // Negative dimensions, unknown dtypes, missing keys, not JSON, not an object.
  EXPECT_FALSE(
      read(test::raw_safetensors(R"({"a":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}})", 16))
          .ok());
  EXPECT_NE(
      read(test::raw_safetensors(R"({"a":{"dtype":"Q9","shape":[4],"data_offsets":[0,16]}})", 16))
          .error()
          .message.find("unknown dtype 'Q9'"),
      std::string::npos);
  EXPECT_FALSE(read(test::raw_safetensors(R"({"a":{"dtype":"F32"}})", 0)).ok());
  EXPECT_FALSE(read(test::raw_safetensors(R"({"a":)", 0)).ok());
  EXPECT_FALSE(read(test::raw_safetensors(R"([1,2])", 0)).ok());
  // Deep nesting is refused before parsing.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(read(test::raw_safetensors(deep, 0)).error().message.find("nested"), std::string::npos);
}

TEST(Safetensors, TruncatedFilesAreErrors) {
  const std::string file =
      test::safetensors_file({{"model.embed_tokens.weight", "BF16", {100, 64}, 4}});
  for (std::size_t n = 0; n < file.size(); n += 7) {
    const std::string cut = file.substr(0, n);
    auto size = safetensors_header_size(cut.substr(0, std::min<std::size_t>(8, n)), n);
    if (size && *size <= n) {
      EXPECT_FALSE(read_safetensors(cut.substr(0, *size), n).ok()) << n;
    }
  }
}

TEST(SafetensorsIndex, ListsShardsAndTotalSize) {
  auto i = read_safetensors_index(R"({"metadata":{"total_size":16060522496},
    "weight_map":{"a":"model-00002-of-00002.safetensors","b":"model-00001-of-00002.safetensors",
                  "c":"model-00001-of-00002.safetensors"}})");
  ASSERT_TRUE(i.ok()) << i.error().message;
  EXPECT_EQ(i->total_size, 16060522496);
  EXPECT_EQ(i->tensors, 3);
  ASSERT_EQ(i->shards.size(), 2U);
  EXPECT_EQ(i->shards[0], "model-00001-of-00002.safetensors");
}

TEST(SafetensorsIndex, RefusesPathsAndJunk) {
  EXPECT_NE(read_safetensors_index(R"({"weight_map":{"a":"../../etc/passwd"}})")
                .error()
                .message.find("plain file name"),
            std::string::npos);
  EXPECT_FALSE(read_safetensors_index(R"({"weight_map":{"a":3}})").ok());
  EXPECT_FALSE(read_safetensors_index(R"({"metadata":{}})").ok());
  EXPECT_FALSE(read_safetensors_index("not json").ok());
}

}  // namespace
}  // namespace willfit
