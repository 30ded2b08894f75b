// Small writers for the model file formats, so tests build their own
// fixtures (nothing is downloaded). They follow the published layouts
// (ggml docs/gguf.md; the safetensors README) independently of the readers,
// and expose the raw pieces so tests can also build hostile files.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace willfit::test {

// Appends little-endian scalars.
template <class T>
void put(std::string& out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out.append(buf, sizeof(T));
}

inline void put_string(std::string& out, const std::string& s) {
  put<std::uint64_t>(out, s.size());
  out += s;
}

// ggml block layouts used by the fixtures (values per block, bytes per block),
// from ggml.c's type traits.
struct TestType {
  std::uint32_t id;
  std::uint64_t block_values;
  std::uint64_t block_bytes;
};
inline constexpr TestType kF32{0, 1, 4};
inline constexpr TestType kF16{1, 1, 2};
inline constexpr TestType kQ8_0{8, 32, 34};
inline constexpr TestType kQ4_K{12, 256, 144};
inline constexpr TestType kQ6_K{14, 256, 210};

class GgufWriter {
 public:
  explicit GgufWriter(std::uint32_t version = 3) : version_(version) {}

  // Metadata, raw: key, type, encoded value.
  void raw(const std::string& key, std::uint32_t type, const std::string& value) {
    put_string(kv_, key);
    put<std::uint32_t>(kv_, type);
    kv_ += value;
    ++kv_count_;
  }
  void u32(const std::string& key, std::uint32_t v) { raw(key, 4, enc(v)); }
  void u64(const std::string& key, std::uint64_t v) { raw(key, 10, enc(v)); }
  void f32(const std::string& key, float v) { raw(key, 6, enc(v)); }
  void boolean(const std::string& key, bool v) { raw(key, 7, enc<std::uint8_t>(v ? 1 : 0)); }
  void str(const std::string& key, const std::string& v) {
    std::string s;
    put_string(s, v);
    raw(key, 8, s);
  }
  void u32_array(const std::string& key, const std::vector<std::uint32_t>& v) {
    std::string s;
    put<std::uint32_t>(s, 4);
    put<std::uint64_t>(s, v.size());
    for (auto x : v) {
      put(s, x);
    }
    raw(key, 9, s);
  }
  void u64_array(const std::string& key, const std::vector<std::uint64_t>& v) {
    std::string s;
    put<std::uint32_t>(s, 10);
    put<std::uint64_t>(s, v.size());
    for (auto x : v) {
      put(s, x);
    }
    raw(key, 9, s);
  }
  void bool_array(const std::string& key, const std::vector<bool>& v) {
    std::string s;
    put<std::uint32_t>(s, 7);
    put<std::uint64_t>(s, v.size());
    for (const bool x : v) {
      put<std::uint8_t>(s, x ? 1 : 0);
    }
    raw(key, 9, s);
  }
  void str_array(const std::string& key, const std::vector<std::string>& v) {
    std::string s;
    put<std::uint32_t>(s, 8);
    put<std::uint64_t>(s, v.size());
    for (const auto& x : v) {
      put_string(s, x);
    }
    raw(key, 9, s);
  }

  // A tensor with the next free offset (aligned to 32); returns its bytes.
  std::uint64_t tensor(const std::string& name, const std::vector<std::uint64_t>& shape,
                       TestType type) {
    std::uint64_t n = 1;
    for (auto d : shape) {
      n *= d;
    }
    const std::uint64_t bytes = n / type.block_values * type.block_bytes;
    put_string(tensors_, name);
    put<std::uint32_t>(tensors_, static_cast<std::uint32_t>(shape.size()));
    for (auto d : shape) {
      put<std::uint64_t>(tensors_, d);
    }
    put<std::uint32_t>(tensors_, type.id);
    put<std::uint64_t>(tensors_, data_size_);
    data_size_ += (bytes + 31) / 32 * 32;
    ++tensor_count_;
    return bytes;
  }

  // Appends raw bytes to the tensor table (hostile files).
  void raw_tensor_bytes(const std::string& bytes, std::uint64_t count_delta) {
    tensors_ += bytes;
    tensor_count_ += count_delta;
  }

  void override_counts(std::uint64_t tensors, std::uint64_t kvs) {
    forced_tensors_ = tensors;
    forced_kvs_ = kvs;
  }

  // The header only (no alignment padding, no data).
  [[nodiscard]] std::string header() const {
    std::string out = "GGUF";
    put<std::uint32_t>(out, version_);
    put<std::uint64_t>(out, forced_tensors_ ? forced_tensors_ : tensor_count_);
    put<std::uint64_t>(out, forced_kvs_ ? forced_kvs_ : kv_count_);
    out += kv_;
    out += tensors_;
    return out;
  }

  // The whole file: header, padding to 32, zeroed tensor data.
  [[nodiscard]] std::string file() const {
    std::string out = header();
    out.resize((out.size() + 31) / 32 * 32, '\0');
    out.resize(out.size() + data_size_, '\0');
    return out;
  }

  [[nodiscard]] std::uint64_t data_size() const { return data_size_; }

  template <class T>
  static std::string enc(T v) {
    std::string s;
    put(s, v);
    return s;
  }

 private:
  std::uint32_t version_;
  std::string kv_;
  std::string tensors_;
  std::uint64_t kv_count_ = 0;
  std::uint64_t tensor_count_ = 0;
  std::uint64_t forced_tensors_ = 0;
  std::uint64_t forced_kvs_ = 0;
  std::uint64_t data_size_ = 0;
};

// A small Llama-style GGUF: 2 blocks, width 256, 4 heads (2 KV heads) of 64,
// MLP 512, a 1000-token vocabulary, Q4_K with Q6_K for V, down and output
// (the Q4_K_M recipe), F32 norms. `expected_bytes`/`expected_params` receive
// the totals computed here from the block layouts.
inline GgufWriter tiny_llama(std::uint32_t version, std::uint64_t* expected_bytes = nullptr,
                             std::uint64_t* expected_params = nullptr, bool tied = false) {
  GgufWriter w(version);
  w.str("general.architecture", "llama");
  w.str("general.name", "Tiny Llama Test");
  w.u32("general.file_type", 15);  // Q4_K_M
  w.u32("llama.block_count", 2);
  w.u32("llama.context_length", 4096);
  w.u32("llama.embedding_length", 256);
  w.u32("llama.feed_forward_length", 512);
  w.u32("llama.attention.head_count", 4);
  w.u32("llama.attention.head_count_kv", 2);
  w.f32("llama.rope.freq_base", 500000.0F);
  std::vector<std::string> tokens;
  for (int i = 0; i < 1000; ++i) {
    tokens.push_back("tok" + std::to_string(i));
  }
  w.str_array("tokenizer.ggml.tokens", tokens);
  std::uint64_t bytes = 0;
  std::uint64_t params = 0;
  auto add = [&](const std::string& name, std::vector<std::uint64_t> shape, TestType t) {
    bytes += w.tensor(name, shape, t);
    std::uint64_t n = 1;
    for (auto d : shape) {
      n *= d;
    }
    params += n;
  };
  add("token_embd.weight", {256, 1000}, kQ4_K);
  add("output_norm.weight", {256}, kF32);
  if (!tied) {
    add("output.weight", {256, 1000}, kQ6_K);
  }
  for (int b = 0; b < 2; ++b) {
    const std::string p = "blk." + std::to_string(b) + ".";
    add(p + "attn_norm.weight", {256}, kF32);
    add(p + "attn_q.weight", {256, 256}, kQ4_K);
    add(p + "attn_k.weight", {256, 128}, kQ4_K);
    add(p + "attn_v.weight", {256, 128}, kQ6_K);
    add(p + "attn_output.weight", {256, 256}, kQ4_K);
    add(p + "ffn_norm.weight", {256}, kF32);
    add(p + "ffn_gate.weight", {256, 512}, kQ4_K);
    add(p + "ffn_up.weight", {256, 512}, kQ4_K);
    add(p + "ffn_down.weight", {512, 256}, kQ6_K);
  }
  if (expected_bytes != nullptr) {
    *expected_bytes = bytes;
  }
  if (expected_params != nullptr) {
    *expected_params = params;
  }
  return w;
}

// A llama.cpp multimodal projector (mmproj) GGUF: general.architecture
// "clip" and the keys convert_hf_to_gguf.py --mmproj writes for a vision
// tower (gguf-py constants: clip.vision.*), with one block's tensors in F16.
inline GgufWriter clip_mmproj(const std::string& type, std::uint32_t image, std::uint32_t patch,
                              std::uint32_t width, std::uint32_t ffn, std::uint32_t heads) {
  GgufWriter w;
  w.str("general.architecture", "clip");
  w.boolean("clip.has_vision_encoder", true);
  w.str("clip.projector_type", type);
  w.u32("clip.vision.image_size", image);
  w.u32("clip.vision.patch_size", patch);
  w.u32("clip.vision.embedding_length", width);
  w.u32("clip.vision.feed_forward_length", ffn);
  w.u32("clip.vision.attention.head_count", heads);
  w.u32("clip.vision.block_count", 1);
  w.tensor("v.patch_embd.weight", {patch, patch, 3, width}, kF16);
  w.tensor("v.blk.0.attn_q.weight", {width, width}, kF16);
  w.tensor("v.blk.0.ffn_up.weight", {width, ffn}, kF16);
  w.tensor("v.blk.0.ffn_down.weight", {ffn, width}, kF16);
  return w;
}

// A safetensors file: tensors laid out in order, zeroed data.
struct StTensor {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes_per_element_x2;  // twice the width, so F4 (0.5 byte) fits
};

inline std::string safetensors_file(const std::vector<StTensor>& tensors,
                                    const nlohmann::json& extra = nlohmann::json::object()) {
  nlohmann::json h = extra;
  h["__metadata__"] = {{"format", "pt"}};
  std::uint64_t offset = 0;
  for (const auto& t : tensors) {
    std::uint64_t n = 1;
    for (auto d : t.shape) {
      n *= d;
    }
    const std::uint64_t bytes = (n * t.bytes_per_element_x2 + 1) / 2;
    h[t.name] = {
        {"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  const std::string text = h.dump();
  std::string out;
  put<std::uint64_t>(out, text.size());
  out += text;
  out.resize(out.size() + offset, '\0');
  return out;
}

// A Gemma 4 text model (gemma4): the shape of conversion/gemma.py's keys.
struct Gemma4Shape {
  int layers;
  int hidden;
  int ffn;
  int heads;
  int kv_heads;
  int global_kv_heads;
  int experts;  // 0: dense
  int experts_used;
  int expert_ffn;
  int period = 6;      // every period-th layer global (layer_types)
  int window = 1024;   // sliding_window
  int kv_shared = 0;   // num_kv_shared_layers (E2B, E4B)
  int per_layer = 0;   // hidden_size_per_layer_input (E2B, E4B)
  bool k_eq_v = true;  // attention_k_eq_v
  // use_double_wide_mlp (E2B): feed_forward_length per layer, 2 x ffn on the
  // last kv_shared layers.
  bool double_wide = false;
};

// A Gemma 4 GGUF header as conversion/gemma.py writes it (llama.cpp 80fb11ac):
// global layers every period-th, of 512-wide heads and their own KV heads,
// the windowed ones of 256 in a window; the first global layer has K, and no
// V with attention_k_eq_v.
inline GgufWriter gemma4_gguf(const Gemma4Shape& s) {
  GgufWriter w;
  w.str("general.architecture", "gemma4");
  w.u32("gemma4.block_count", static_cast<std::uint32_t>(s.layers));
  w.u32("gemma4.context_length", 262144);
  w.u32("gemma4.embedding_length", static_cast<std::uint32_t>(s.hidden));
  if (s.double_wide) {
    std::vector<std::uint32_t> ffn;
    for (int i = 0; i < s.layers; ++i) {
      ffn.push_back(static_cast<std::uint32_t>(i >= s.layers - s.kv_shared ? 2 * s.ffn : s.ffn));
    }
    w.u32_array("gemma4.feed_forward_length", ffn);
  } else {
    w.u32("gemma4.feed_forward_length", static_cast<std::uint32_t>(s.ffn));
  }
  w.u32("gemma4.attention.head_count", static_cast<std::uint32_t>(s.heads));
  std::vector<std::uint32_t> kv;
  std::string flags;  // a GGUF bool array: element type 7, count, one byte each
  const auto put = [&flags](const void* p, std::size_t n) {
    flags.append(static_cast<const char*>(p), n);
  };
  const std::uint32_t bool_type = 7;
  const auto count = static_cast<std::uint64_t>(s.layers);
  put(&bool_type, 4);
  put(&count, 8);
  for (int i = 0; i < s.layers; ++i) {
    const bool global = (i + 1) % s.period == 0;
    kv.push_back(static_cast<std::uint32_t>(global ? s.global_kv_heads : s.kv_heads));
    flags.push_back(global ? '\0' : '\1');
  }
  w.u32_array("gemma4.attention.head_count_kv", kv);
  w.raw("gemma4.attention.sliding_window_pattern", 9, flags);
  w.u32("gemma4.attention.key_length", 512);
  w.u32("gemma4.attention.value_length", 512);
  w.u32("gemma4.attention.key_length_swa", 256);
  w.u32("gemma4.attention.value_length_swa", 256);
  w.u32("gemma4.attention.sliding_window", static_cast<std::uint32_t>(s.window));
  w.u32("gemma4.attention.shared_kv_layers", static_cast<std::uint32_t>(s.kv_shared));
  w.u32("gemma4.embedding_length_per_layer_input", static_cast<std::uint32_t>(s.per_layer));
  w.u32("gemma4.vocab_size", 262144);
  if (s.experts > 0) {
    w.u32("gemma4.expert_count", static_cast<std::uint32_t>(s.experts));
    w.u32("gemma4.expert_used_count", static_cast<std::uint32_t>(s.experts_used));
    w.u32("gemma4.expert_feed_forward_length", static_cast<std::uint32_t>(s.expert_ffn));
  }
  w.tensor("token_embd.weight", {static_cast<std::uint64_t>(s.hidden), 256}, kQ8_0);
  const std::string first_global = "blk." + std::to_string(s.period - 1) + ".";
  w.tensor(first_global + "attn_k.weight", {static_cast<std::uint64_t>(s.hidden), 256}, kQ8_0);
  if (!s.k_eq_v) {
    w.tensor(first_global + "attn_v.weight", {static_cast<std::uint64_t>(s.hidden), 256}, kQ8_0);
  }
  return w;
}

// A kimi-linear or kimi-k3 GGUF header as llama.cpp's converters write it
// (conversion/kimi_linear.py, kimi_k3.py at 80fb11ac): head_count_kv per
// layer, 1 on the MLA layers (every fourth and the last; MLA served as MQA)
// and 0 on the KDA ones; kda.head_dim 128, ssm.conv_kernel 4; the MLA widths
// (kv_lora_rank 512, key_length = kv_lora_rank + rope, key_length_mla 192,
// value_length_mla 128, rope.dimension_count 64); the experts with their
// bias (exp_probs_b), the first layer dense. The defaults are
// Kimi-Linear-48B-A3B's.
struct KimiShape {
  std::string arch = "kimi-linear";
  int layers = 27;
  std::uint32_t hidden = 2304;
  std::uint32_t ffn = 9216;
  std::uint32_t heads = 32;
  std::uint32_t experts = 256;
  std::uint32_t experts_used = 8;
  std::uint32_t expert_ffn = 1024;
  std::uint32_t shared_experts = 1;
};

inline GgufWriter kimi_gguf(const KimiShape& s = {}) {
  GgufWriter w;
  const std::string& a = s.arch;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(s.layers));
  w.u32(a + ".embedding_length", s.hidden);
  w.u32(a + ".feed_forward_length", s.ffn);
  w.u32(a + ".attention.head_count", s.heads);
  std::vector<std::uint32_t> kv;
  for (int i = 0; i < s.layers; ++i) {
    kv.push_back((i + 1) % 4 == 0 || i == s.layers - 1 ? 1 : 0);
  }
  w.u32_array(a + ".attention.head_count_kv", kv);
  w.u32(a + ".attention.kv_lora_rank", 512);
  w.u32(a + ".attention.key_length", 576);
  w.u32(a + ".attention.key_length_mla", 192);
  w.u32(a + ".attention.value_length_mla", 128);
  w.u32(a + ".rope.dimension_count", 64);
  w.u32(a + ".ssm.conv_kernel", 4);
  w.u32(a + ".kda.head_dim", 128);
  w.u32(a + ".expert_count", s.experts);
  w.u32(a + ".expert_used_count", s.experts_used);
  w.u32(a + ".expert_feed_forward_length", s.expert_ffn);
  w.u32(a + ".expert_shared_count", s.shared_experts);
  w.u32(a + ".leading_dense_block_count", 1);
  w.u32(a + ".vocab_size", 163840);
  w.u32(a + ".context_length", 1048576);
  w.tensor("token_embd.weight", {s.hidden, 256}, kQ8_0);
  w.tensor("output.weight", {s.hidden, 256}, kQ8_0);
  w.tensor("blk.1.exp_probs_b.bias", {s.experts}, kF32);
  return w;
}

inline std::string raw_safetensors(const std::string& header_json, std::uint64_t data_bytes) {
  std::string out;
  put<std::uint64_t>(out, header_json.size());
  out += header_json;
  out.resize(out.size() + data_bytes, '\0');
  return out;
}

}  // namespace willfit::test
