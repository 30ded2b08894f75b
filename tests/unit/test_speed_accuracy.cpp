// Speed against the world: measured llama.cpp tokens/s (tests/data/
// speed_measured.csv, rows copied from shared/validation/speed.csv with their
// sources) against willfit's estimates, with the devices' bandwidth and FLOPS
// read from data/devices.json.
//
// The efficiencies in speed.cpp are DERIVED here: for every calibration row,
// achieved = measured / (the same estimate at 100 % efficiency), and the
// constant per device class is the median ("other": the median of every
// calibration row). The test prints the medians and fails when speed.cpp's
// constants drift from them. Errors are then reported on ALL rows (and on the
// held-out "check" rows alone); the median error must stay within 25 % for
// decode and 35 % for prefill.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// RFC 4180 CSV: quoted fields may hold commas and doubled quotes.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c == '\n') {
      fields.push_back(field);
      field.clear();
      records.push_back(fields);
      fields.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t r = 1; r < records.size(); ++r) {
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < records[0].size() && i < records[r].size(); ++i) {
      row[records[0][i]] = records[r][i];
    }
    rows.push_back(row);
  }
  return rows;
}

double num(const std::map<std::string, std::string>& row, const std::string& key, double def = 0) {
  const auto it = row.find(key);
  return (it == row.end() || it->second.empty()) ? def : std::stod(it->second);
}

std::optional<double> opt(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number()) {
    return j[key].get<double>();
  }
  return std::nullopt;
}

Device device_from_json(const nlohmann::json& j) {
  Device d;
  d.id = j.value("id", "");
  d.vendor = j.value("vendor", "");
  d.name = j.value("name", "");
  const std::string kind = j.value("kind", "");
  d.kind = kind == "unified" ? DeviceKind::Unified
           : kind == "cpu"   ? DeviceKind::Cpu
                             : DeviceKind::DiscreteGpu;
  d.memory_type = j["memory_type"].is_string() ? j["memory_type"].get<std::string>() : "";
  d.bandwidth_gb_per_s = opt(j, "bandwidth_gb_per_s");
  d.fp16_tflops_dense = opt(j, "fp16_tflops_dense");
  d.bf16_tflops_dense = opt(j, "bf16_tflops_dense");
  d.fp32_tflops = opt(j, "fp32_tflops");
  d.memory_bytes = static_cast<Bytes>(opt(j, "memory_bytes").value_or(0.0));
  if (j.contains("interconnect") && j["interconnect"]["pcie_gen"].is_number()) {
    d.interconnect.pcie_gen = j["interconnect"]["pcie_gen"].get<int>();
  }
  if (j.contains("interconnect") && j["interconnect"]["bus"].is_string()) {
    d.interconnect.bus = j["interconnect"]["bus"].get<std::string>();  // the dies of an Apple chip
  }
  d.interconnect.nvlink_gb_per_s =
      j.contains("interconnect") ? opt(j["interconnect"], "nvlink_gb_per_s") : std::nullopt;
  return d;
}

double median(std::vector<double> v) {
  if (v.empty()) {
    return 0;
  }
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0
                   : v[static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1];
}

struct Case {
  std::string id;
  std::string split;
  bool decode = true;
  double measured = 0;
  SpeedClass cls = SpeedClass::Other;
  bool single_tier = true;
  bool moe = false;
  double dense_nodes = 0;       // graph nodes of a dense decode step of this model
  Bytes flat_weight_bytes = 0;  // MoE: bytes read by the active-parameter ratio alone
  std::string model;
  std::string device;
  SpeedQuery query;  // with the class efficiencies
};

// The query a row describes: its model on its device (and, for -ngl rows,
// the rest of the layers in system RAM), at the context the test runs.
Case make_case(const std::map<std::string, std::string>& row,
               const std::map<std::string, Device>& devices, const ModelDb& db) {
  Case c;
  c.id = row.at("case_id");
  c.split = row.at("split");
  const std::string test = row.at("test");
  c.decode = test != "pp512";
  c.measured = num(row, "tokens_per_s");
  c.model = row.at("model");
  c.device = row.at("device_id").empty() ? "CPU" : row.at("device_id");
  c.dense_nodes = num(row, "layers") * kDenseLayerNodes + kTokenNodes;
  Model m;
  m.name = row.at("model");
  m.params = static_cast<std::int64_t>(num(row, "params"));
  m.active_params = static_cast<std::int64_t>(num(row, "active_params"));
  m.arch.layers = static_cast<int>(num(row, "layers"));
  m.arch.hidden_size = static_cast<std::int64_t>(num(row, "hidden_size"));
  m.arch.heads = static_cast<int>(num(row, "heads"));
  m.arch.kv_heads = static_cast<int>(num(row, "kv_heads"));
  m.arch.head_dim = static_cast<int>(num(row, "head_dim"));
  m.arch.vocab_size = static_cast<std::int64_t>(num(row, "vocab_size"));
  m.arch.tied_embeddings = num(row, "tied") != 0;
  c.moe = m.active_params < m.params;
  if (num(row, "experts") > 0) {
    Moe moe;
    moe.experts = static_cast<int>(num(row, "experts"));
    moe.experts_per_token = static_cast<int>(num(row, "experts_per_token"));
    moe.shared_experts = static_cast<int>(num(row, "shared_experts"));
    m.arch.moe = moe;
  }
  const auto weights = static_cast<Bytes>(num(row, "file_bytes"));
  // tg128: the cache holds 0..127 tokens, 64 on average; pp512: a 512-token prompt.
  const std::int64_t context = c.decode ? 64 : 512;
  // MoE rows name their catalogue model and file type: the bytes a token
  // reads are then counted tensor class by class (experts k of E).
  const auto model_id = row.find("model_id");
  if (model_id != row.end() && !model_id->second.empty()) {
    const int layers = m.arch.layers;
    m = db.find(model_id->second)->entry->model;
    m.file_weight_bytes = weights;
    EXPECT_EQ(m.arch.layers, layers) << c.id;
  }
  const Bytes kv = c.decode ? kv_read_bytes(m.arch, context, kv_f16(), kv_f16()) : 0;
  c.flat_weight_bytes = token_costs(m, weights, kv).weight_bytes;
  const TokenCosts costs = model_id != row.end() && !model_id->second.empty()
                               ? token_costs(m, *parse_precision(row.at("precision")), weights, kv)
                               : token_costs(m, weights, kv);
  Device d;
  if (row.at("device_id").empty()) {
    d.kind = DeviceKind::Cpu;
    d.name = "CPU";
    d.bandwidth_gb_per_s = num(row, "bandwidth_gb_per_s");
  } else {
    d = devices.at(row.at("device_id"));
  }
  c.cls = speed_class(d);
  const double gpu_share = num(row, "gpu_share", 1.0);
  c.query.flops_per_weight_byte = costs.flops_per_weight_byte;
  c.query.attention_flops_per_position = costs.attention_flops_per_position;
  c.query.context = context;
  if (gpu_share > 0) {
    c.query.tiers.push_back(device_tier(d, costs, gpu_share));
  }
  if (gpu_share < 1) {
    Device ram;
    ram.kind = DeviceKind::Cpu;
    ram.name = "system RAM";
    ram.bandwidth_gb_per_s = num(row, "host_bandwidth_gb_per_s");
    c.query.tiers.push_back(device_tier(ram, costs, 1.0 - gpu_share));
    c.single_tier = false;
  }
  return c;
}

double rate(const SpeedQuery& q, bool decode) {
  const SpeedEstimate e = estimate_speed(q);
  return decode ? e.decode_tokens_per_s_at_context : e.prefill_tokens_per_s.value_or(0.0);
}

// The same query with every efficiency at 1 and no node time: the datasheet bound.
double ideal_rate(SpeedQuery q, bool decode) {
  for (auto& t : q.tiers) {
    t.bandwidth_efficiency = 1.0;
    t.compute_efficiency = 1.0;
    t.graph_nodes_s = 0;
  }
  return rate(q, decode);
}

std::map<std::string, Device> load_devices() {
  const auto db = nlohmann::json::parse(read_text(std::string(WILLFIT_DATA_DIR) + "/devices.json"));
  std::map<std::string, Device> devices;
  for (const auto& j : db["devices"]) {
    devices[j["id"].get<std::string>()] = device_from_json(j);
  }
  return devices;
}

std::vector<Case> load_cases() {
  const std::map<std::string, Device> devices = load_devices();
  const auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  std::vector<Case> cases;
  for (const auto& row :
       read_csv(read_text(std::string(WILLFIT_TEST_DATA_DIR) + "/speed_measured.csv"))) {
    cases.push_back(make_case(row, devices, *db));
  }
  return cases;
}

constexpr SpeedClass kClasses[] = {SpeedClass::Nvidia,     SpeedClass::Amd, SpeedClass::Apple,
                                   SpeedClass::AppleUltra, SpeedClass::Hbm, SpeedClass::Cpu,
                                   SpeedClass::Intel};

TEST(SpeedAccuracy, ConstantsAreTheMediansOfTheCalibrationRows) {
  const std::vector<Case> cases = load_cases();
  ASSERT_GT(cases.size(), 200U);
  for (const bool decode : {true, false}) {
    std::map<SpeedClass, std::vector<double>> achieved;
    std::vector<double> all;
    for (const Case& c : cases) {
      if (c.split != "calibrate" || c.decode != decode || !c.single_tier) {
        continue;
      }
      const double a = c.measured / ideal_rate(c.query, decode);
      achieved[c.cls].push_back(a);
      all.push_back(a);
    }
    std::printf("%s efficiency, median of calibration rows:\n", decode ? "bandwidth" : "compute");
    for (const SpeedClass cls : kClasses) {
      if (achieved[cls].empty()) {
        continue;  // no CPU prefill rows: speed.cpp uses "other"'s figure
      }
      const double derived = median(achieved[cls]);
      const double constant = decode ? efficiency(cls).bandwidth : efficiency(cls).compute;
      std::printf("  %-7s n=%-3zu median %.3f  (speed.cpp: %.2f)\n",
                  std::string(to_string(cls)).c_str(), achieved[cls].size(), derived, constant);
      EXPECT_NEAR(constant, derived, 0.006) << to_string(cls);
    }
    const double other =
        decode ? efficiency(SpeedClass::Other).bandwidth : efficiency(SpeedClass::Other).compute;
    std::printf("  %-7s n=%-3zu median %.3f  (speed.cpp: %.2f; every calibration row)\n", "other",
                all.size(), median(all), other);
    EXPECT_NEAR(other, median(all), 0.006);
  }
}

TEST(SpeedAccuracy, MedianErrorWithinTwentyFivePercentDecodeThirtyFivePrefill) {
  const std::vector<Case> cases = load_cases();
  std::vector<double> decode_all;
  std::vector<double> prefill_all;
  std::vector<double> decode_check;
  std::vector<double> prefill_check;
  std::vector<double> moe_decode;
  std::vector<double> moe_prefill;
  std::vector<double> offload;
  std::printf("%-7s %-9s %-6s %10s %10s %7s\n", "case", "split", "test", "measured", "estimate",
              "error");
  for (const Case& c : cases) {
    const double estimate = rate(c.query, c.decode);
    ASSERT_GT(estimate, 0) << c.id;
    const double error = std::abs(estimate / c.measured - 1.0);
    std::printf("%-7s %-9s %-6s %10.2f %10.2f %6.1f%%\n", c.id.c_str(), c.split.c_str(),
                c.decode ? "decode" : "prefill", c.measured, estimate, 100 * error);
    (c.decode ? decode_all : prefill_all).push_back(error);
    if (c.split == "check") {
      (c.decode ? decode_check : prefill_check).push_back(error);
    }
    if (!c.single_tier) {
      offload.push_back(error);
    }
    if (c.moe) {
      (c.decode ? moe_decode : moe_prefill).push_back(error);
    }
  }
  std::printf("median error, all rows:   decode %.1f %% (n=%zu), prefill %.1f %% (n=%zu)\n",
              100 * median(decode_all), decode_all.size(), 100 * median(prefill_all),
              prefill_all.size());
  std::printf("median error, check rows: decode %.1f %% (n=%zu), prefill %.1f %% (n=%zu)\n",
              100 * median(decode_check), decode_check.size(), 100 * median(prefill_check),
              prefill_check.size());
  std::printf("median error, -ngl offload rows (decode): %.1f %% (n=%zu)\n", 100 * median(offload),
              offload.size());
  std::printf("median error, MoE rows: decode %.1f %%, prefill %.1f %%\n", 100 * median(moe_decode),
              100 * median(moe_prefill));
  EXPECT_LE(median(decode_all), 0.25);
  EXPECT_LE(median(prefill_all), 0.35);
  EXPECT_LE(median(decode_check), 0.25);
  EXPECT_LE(median(prefill_check), 0.35);
  EXPECT_LE(median(offload), 0.25);

  // The error band printed with every estimate: the 80th percentile of all
  // errors, rounded up to a multiple of 5 %.
  std::vector<double> every = decode_all;
  every.insert(every.end(), prefill_all.begin(), prefill_all.end());
  const double p80 = 100 * percentile(every, 0.8);
  const SpeedEstimate any = estimate_speed(cases.front().query);
  std::printf("80th percentile error %.1f %%; error band %d %%\n", p80, any.error_band_pct);
  EXPECT_EQ(any.error_band_pct, static_cast<int>(std::ceil(p80 / 5.0)) * 5);
}

// The per-node time of each class, derived from the dense calibration rows:
// the time a Llama-2-7B token takes beyond its bytes at the datasheet
// bandwidth, over the nodes of its dense graph (speed-notes section 4's
// "fixed cost per token", spread over the nodes), the median per class
// ("other": every GPU row). A CPU runs the graph on the cores that read the
// memory, with no launch between nodes: its excess is bandwidth, not nodes,
// and it is left out (node_time_s(Cpu) is 0).
TEST(SpeedAccuracy, NodeTimesAreTheMediansOfTheDenseRows) {
  const std::vector<Case> cases = load_cases();
  std::map<SpeedClass, std::vector<double>> per_node;
  std::vector<double> all;
  for (const Case& c : cases) {
    if (c.split != "calibrate" || !c.decode || !c.single_tier || c.moe ||
        c.cls == SpeedClass::Cpu) {
      continue;
    }
    const double excess = 1.0 / c.measured - 1.0 / ideal_rate(c.query, true);
    per_node[c.cls].push_back(excess / c.dense_nodes);
    all.push_back(excess / c.dense_nodes);
  }
  std::printf("time per graph node beyond the bytes, median of dense calibration rows:\n");
  for (const SpeedClass cls : kClasses) {
    if (per_node[cls].empty()) {
      continue;
    }
    const double derived = median(per_node[cls]);
    std::printf("  %-7s n=%-3zu median %.2f us  (speed.cpp: %.2f us)\n",
                std::string(to_string(cls)).c_str(), per_node[cls].size(), derived * 1e6,
                node_time_s(cls) * 1e6);
    EXPECT_NEAR(node_time_s(cls), derived, 0.006e-6) << to_string(cls);
  }
  std::printf("  %-7s n=%-3zu median %.2f us  (speed.cpp: %.2f us; every GPU row)\n", "other",
              all.size(), median(all) * 1e6, node_time_s(SpeedClass::Other) * 1e6);
  EXPECT_NEAR(node_time_s(SpeedClass::Other), median(all), 0.006e-6);
  EXPECT_EQ(node_time_s(SpeedClass::Cpu), 0.0);
}

// Intel Arc has a class of its own, derived from its one calibration row (the
// B580). The held-out A770 row (SP0268, 52.56 tokens/s, Llama-2-7B Q4_0 under
// Vulkan) was answered at "other"'s figures, the median of every device; the
// class must bring it closer, and the B580's own row within 5 %.
TEST(SpeedAccuracy, IntelArcRowsAtTheirOwnClass) {
  const std::vector<Case> cases = load_cases();
  int seen = 0;
  for (const Case& c : cases) {
    if (c.cls != SpeedClass::Intel || !c.decode) {
      continue;
    }
    ++seen;
    SpeedQuery as_other = c.query;
    for (SpeedTier& t : as_other.tiers) {
      t.bandwidth_efficiency = efficiency(SpeedClass::Other).bandwidth;
      t.graph_nodes_s = 0;  // "other" is not run as serial nodes
    }
    const double own = std::abs(rate(c.query, true) / c.measured - 1.0);
    const double other = std::abs(rate(as_other, true) / c.measured - 1.0);
    std::printf("%s %s: measured %.2f, error %.1f %% at the Intel class, %.1f %% at other's\n",
                c.id.c_str(), c.device.c_str(), c.measured, 100 * own, 100 * other);
    EXPECT_LT(own, other) << c.id;
    if (c.split == "calibrate") {
      EXPECT_LT(own, 0.05) << c.id;
    }
  }
  EXPECT_EQ(seen, 2);
}

// The Ultra chips (two Max dies joined by UltraFusion) have a class of their
// own, derived from their llama-bench calibration rows in speed_measured.csv.
// Held out: published Ollama decode rates (tests/data/speed_apple_ollama.csv,
// geerlingguy/ai-benchmarks), answered as `willfit MODEL -d DEVICE` answers
// them. Found by review: at the one-die Apple figures the Ultra rows were
// answered 1.4-2.3x fast (llama3.2:3b on an M1 Ultra: 298 tokens/s against
// 127.6). Each Ultra row must be closer at its own class than at the Apple
// class; the M4 row (one die) within the error band. Known miss, kept: the
// 3B model stays 45-100 % fast on the Ultras (a fixed time per token that
// the 7B calibration rows fold into e_bw weighs more on a 2 GB model, and
// Ollama adds its own); the 14B rows fall within 2-44 %.
TEST(SpeedAccuracy, AppleUltraRowsAtTheirOwnClass) {
  const std::map<std::string, Device> devices = load_devices();
  const auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  int ultra = 0;
  for (const auto& row :
       read_csv(read_text(std::string(WILLFIT_TEST_DATA_DIR) + "/speed_apple_ollama.csv"))) {
    InferenceQuery q;
    q.model = db->find(row.at("model_id"))->entry->model;
    q.precision = *parse_precision(row.at("precision"));
    q.devices.devices = {devices.at(row.at("device_id"))};
    q.devices.text = row.at("device_id");
    q.runtime = Runtime::LlamaCpp;
    const Estimate e = estimate_inference(q);
    const auto sq = speed_query_for(q, e, SpeedSettings{});
    ASSERT_TRUE(sq.ok()) << row.at("case_id");
    SpeedQuery as_apple = *sq;
    for (SpeedTier& t : as_apple.tiers) {
      t.bandwidth_efficiency = efficiency(SpeedClass::Apple).bandwidth;
      t.fixed_s = 0;
    }
    const double measured = num(row, "tokens_per_s");
    const SpeedEstimate own = estimate_speed(*sq);
    const double own_error = own.decode_tokens_per_s / measured - 1.0;
    const double apple_error = estimate_speed(as_apple).decode_tokens_per_s / measured - 1.0;
    const SpeedClass cls = speed_class(q.devices.devices.front());
    std::printf(
        "%s %-30s %-15s measured %7.2f, estimate %7.2f (%+.1f %%) at %s; %+.1f %% at apple\n",
        row.at("case_id").c_str(), row.at("model_id").c_str(), row.at("device_id").c_str(),
        measured, own.decode_tokens_per_s, 100 * own_error, std::string(to_string(cls)).c_str(),
        100 * apple_error);
    if (cls == SpeedClass::AppleUltra) {
      ++ultra;
      EXPECT_LT(std::abs(own_error), std::abs(apple_error)) << row.at("case_id");
    } else {
      EXPECT_LE(std::abs(own_error) * 100, own.error_band_pct) << row.at("case_id");
    }
  }
  EXPECT_EQ(ultra, 6);
}

// Mixture-of-experts decode (tg128, the whole model on one device) against
// published llama.cpp runs: Mixtral, gpt-oss-20b/120b, Qwen3-30B-A3B on
// GeForce, RTX PRO, Radeon, Apple, Strix Halo and DGX Spark rows. Three
// estimates: "ratio", the file's bytes x active / total parameters at the
// class's bandwidth efficiency (willfit before this test); "classes", the
// bytes tensor class by class (experts k of E, the rest whole, at their own
// types); "floor", the model as it runs: the larger of those bytes at the
// class's efficiency and the bytes at the datasheet bandwidth plus every graph
// node (routing's included) x the class's node time. No constant comes from
// these rows (efficiencies and node times are derived from dense rows). Each
// step must earn its place: the median error drops, and ends within the 25 %
// the dense rows are held to. The 1.8 TB/s cards (RTX 5090, RTX PRO 6000),
// 28-49 % fast under "bytes at the efficiency plus routing nodes", are where
// the floor binds: few bytes per node on the fastest memory.
TEST(SpeedAccuracy, MoeDecodeRowsWithRoutingNodes) {
  const std::vector<Case> cases = load_cases();
  std::vector<double> before;
  std::vector<double> after;
  std::vector<double> flat_errors;
  std::printf("%-7s %-13s %-22s %8s %8s %7s %8s %7s %8s %7s\n", "case", "model", "device",
              "measured", "ratio", "error", "classes", "error", "floor", "error");
  for (const Case& c : cases) {
    if (!c.moe || !c.decode || !c.single_tier) {
      continue;
    }
    SpeedQuery bytes_only = c.query;
    for (SpeedTier& t : bytes_only.tiers) {
      t.graph_nodes_s = 0;
      t.fixed_s = 0;
    }
    SpeedQuery flat = bytes_only;
    flat.tiers.front().weight_bytes = c.flat_weight_bytes;
    const double f = rate(flat, true);
    const double b = rate(bytes_only, true);
    const double a = rate(c.query, true);
    const double ef = std::abs(f / c.measured - 1.0);
    const double eb = std::abs(b / c.measured - 1.0);
    const double ea = std::abs(a / c.measured - 1.0);
    std::printf("%-7s %-13s %-22s %8.2f %8.2f %6.1f%% %8.2f %6.1f%% %8.2f %6.1f%%\n", c.id.c_str(),
                c.model.substr(0, 13).c_str(), c.device.substr(0, 22).c_str(), c.measured, f,
                100 * ef, b, 100 * eb, a, 100 * ea);
    flat_errors.push_back(ef);
    before.push_back(eb);
    after.push_back(ea);
  }
  ASSERT_GE(after.size(), 15U);
  std::printf(
      "MoE decode rows: n=%zu, median error: active-parameter ratio %.1f %%, bytes by tensor "
      "class %.1f %%, with the node floor %.1f %%\n",
      after.size(), 100 * median(flat_errors), 100 * median(before), 100 * median(after));
  EXPECT_LT(median(before), median(flat_errors));
  EXPECT_LT(median(after), median(before));
  EXPECT_LE(median(after), 0.25);
}

// vLLM on one and several A100 80GB (tests/data/speed_vllm.csv, Qwen2.5's
// published speed benchmark): the fit question with --runtime vllm, as a user
// asks it. A generation of `context` tokens from an empty cache takes the mean
// of the per-token times at an empty and a full cache.
struct VllmRow {
  std::string id;
  InferenceQuery query;
  double measured = 0;
};

std::vector<VllmRow> vllm_rows() {
  const std::map<std::string, Device> devices = load_devices();
  const auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  std::vector<VllmRow> out;
  for (const auto& row :
       read_csv(read_text(std::string(WILLFIT_TEST_DATA_DIR) + "/speed_vllm.csv"))) {
    VllmRow r;
    r.id = row.at("case_id");
    r.query.model = db->find(row.at("model_id"))->entry->model;
    r.query.precision = *parse_precision(row.at("precision"));
    r.query.runtime = Runtime::Vllm;
    r.query.context = 2048;
    r.query.devices.devices.assign(static_cast<std::size_t>(num(row, "devices")),
                                   devices.at(row.at("device_id")));
    r.measured = num(row, "tokens_per_s");
    out.push_back(std::move(r));
  }
  return out;
}

double generation_rate(const SpeedEstimate& s) {
  return 2.0 / (1.0 / s.decode_tokens_per_s + 1.0 / s.decode_tokens_per_s_at_context);
}

// vLLM's engine efficiency is DERIVED from its one-GPU rows: a one-GPU vLLM
// estimate is bytes / (e x BW) and nothing else, so the efficiency the row
// achieved is e x measured / estimate; kTensorParallelBandwidthEfficiency
// must be their median. Every row (the 2- and 4-GPU ones too) then stays
// within 15 %.
TEST(SpeedAccuracy, VllmEngineRows) {
  const auto rows = vllm_rows();
  ASSERT_EQ(rows.size(), 5U);
  std::vector<double> errors;
  std::vector<double> achieved;
  for (const auto& r : rows) {
    const Estimate e = estimate_inference(r.query);
    ASSERT_TRUE(e.fits()) << r.id;
    const SpeedEstimate s = estimate_speed(r.query, e, {});
    ASSERT_TRUE(s.estimable) << r.id << ": " << s.reason;
    EXPECT_EQ(s.tensor_parallel, static_cast<int>(r.query.devices.devices.size()));
    const double estimate = generation_rate(s);
    const double error = std::abs(estimate / r.measured - 1.0);
    std::printf("%s  %s x%zu  measured %.2f  estimate %.2f  error %.1f %%\n", r.id.c_str(),
                r.query.model.name.c_str(), r.query.devices.devices.size(), r.measured, estimate,
                100 * error);
    if (r.query.devices.devices.size() == 1) {
      achieved.push_back(kTensorParallelBandwidthEfficiency * r.measured / estimate);
    }
    errors.push_back(error);
    EXPECT_LT(error, 0.15) << r.id;
  }
  ASSERT_EQ(achieved.size(), 3U);
  std::printf("vLLM rows: median error %.1f %%; one-GPU efficiency median %.3f (speed.hpp %.2f)\n",
              100 * median(errors), median(achieved), kTensorParallelBandwidthEfficiency);
  EXPECT_NEAR(kTensorParallelBandwidthEfficiency, median(achieved), 0.006);
}

// NCCL's cost model against its own tuner's arithmetic at a few points
// (src/graph/tuning.cc @b6475625: ring, one node) and against published
// small-message all-reduce runs: NCCL 2.20 on 2 H100 about 6 us
// (NVIDIA/nccl#1259), vLLM's custom all-reduce on 2/4/8 H100 at 4 KB
// 8.8 / 8.5 / 9.3 us (sgl-project/sglang#2904). The model may be at most a
// factor 2 off those runs.
TEST(SpeedAccuracy, AllReduceLatencyFromNcclsModel) {
  // 16 KB over 8 NVLink GPUs (450 GB/s each way): LL, 6.6 + 14 x 0.6 us plus
  // 16384 / (450e9 x 8 / 14 / 4) s.
  EXPECT_NEAR(collective_s(Collective::AllReduce, 8, true, 450, 16384),
              15.0e-6 + 16384 / (450e9 * 8 / 14 / 4), 1e-9);
  // Over PCIe 4.0 (32 GB/s each way): 1.0 us a step.
  EXPECT_NEAR(collective_s(Collective::AllReduce, 2, false, 32, 0), 8.6e-6, 1e-9);
  // 8 MB (a prefill micro-batch of a 70B): Simple wins, at the full bus bandwidth.
  const double big = 8.0 * 1024 * 1024;
  EXPECT_NEAR(collective_s(Collective::AllReduce, 4, true, 300, big),
              (8.4 + 6 * 3.4) * 1e-6 + big / (300e9 * 4 / 6), 1e-9);
  EXPECT_EQ(collective_s(Collective::AllReduce, 1, true, 450, 16384), 0.0);
  const struct {
    int devices;
    double measured_us;
  } published[] = {{2, 6.0}, {2, 8.8}, {4, 8.5}, {8, 9.3}};
  for (const auto& p : published) {
    const double model_us = 1e6 * collective_s(Collective::AllReduce, p.devices, true, 450, 4096);
    std::printf("all-reduce 4 KB on %d H100: model %.1f us, published %.1f us\n", p.devices,
                model_us, p.measured_us);
    EXPECT_LT(model_us, 2.0 * p.measured_us);
    EXPECT_GT(model_us, 0.5 * p.measured_us);
  }
}

// Several-GPU decode against every published tensor-parallel run we have
// (tests/data/speed_tensor_parallel.csv, plus the 2- and 4-GPU rows of
// speed_vllm.csv checked above), asked as a user asks it (--runtime vllm,
// the model from the catalogue, the devices from data/devices.json). The
// generation's mean time per token is the time at its mean cache depth.
// No constant comes from these rows. "check" rows (engines that capture the
// step in CUDA graphs and all-reduce twice a layer): median error within the
// 25 % of the one-device rows, each within the doubled band (50 %). "bound"
// rows run a slower mechanism than the model's (eager-mode vLLM of November
// 2023; llama.cpp's row split, which synchronises after every split matrix
// multiplication): the estimate must be faster than each (printed).
TEST(SpeedAccuracy, TensorParallelRows) {
  const std::map<std::string, Device> devices = load_devices();
  const auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  const auto rows =
      read_csv(read_text(std::string(WILLFIT_TEST_DATA_DIR) + "/speed_tensor_parallel.csv"));
  ASSERT_GE(rows.size(), 6U);
  std::vector<double> graph_errors;
  for (const auto& row : rows) {
    InferenceQuery q;
    q.model = db->find(row.at("model_id"))->entry->model;
    q.precision = *parse_precision(row.at("precision"));
    const bool vllm = row.at("runtime") == "vllm";
    q.runtime = vllm ? Runtime::Vllm : Runtime::LlamaCpp;
    const double prompt = num(row, "prompt_tokens");
    const double generated = num(row, "generated_tokens");
    q.context = static_cast<std::int64_t>(prompt + generated);
    q.devices.devices.assign(static_cast<std::size_t>(num(row, "devices")),
                             devices.at(row.at("device_id")));
    const Estimate e = estimate_inference(q);
    ASSERT_TRUE(e.fits()) << row.at("case_id");
    SpeedSettings settings;
    settings.split = SplitMode::Tensor;  // vLLM is tensor parallel anyway; llama.cpp asks it
    const SpeedEstimate s = estimate_speed(q, e, settings);
    ASSERT_TRUE(s.estimable) << row.at("case_id") << ": " << s.reason;
    ASSERT_EQ(s.tensor_parallel, static_cast<int>(q.devices.devices.size()));
    const double fill = (prompt + generated / 2.0) / (prompt + generated);
    const double t_empty = 1.0 / s.decode_tokens_per_s;
    const double t_full = 1.0 / s.decode_tokens_per_s_at_context;
    const double estimate = 1.0 / (t_empty + fill * (t_full - t_empty));
    const double measured = num(row, "tokens_per_s");
    const double error = estimate / measured - 1.0;
    const bool check = row.at("use") == "check";
    std::printf("%s  %-15s %zu x %-15s %-28s measured %6.2f  estimate %6.2f  error %+6.1f %%%s\n",
                row.at("case_id").c_str(), row.at("model_id").c_str(), q.devices.devices.size(),
                row.at("device_id").c_str(), row.at("engine").substr(0, 28).c_str(), measured,
                estimate, 100 * error, check ? "" : "  (a bound)");
    if (check) {
      graph_errors.push_back(std::abs(error));
      EXPECT_LT(std::abs(error), 0.50) << row.at("case_id");
    } else {
      EXPECT_GT(estimate, measured) << row.at("case_id");
    }
  }
  ASSERT_GE(graph_errors.size(), 3U);
  std::printf("tensor-parallel check rows: n=%zu, median error %.1f %%, worst %.1f %%\n",
              graph_errors.size(), 100 * median(graph_errors),
              100 * *std::max_element(graph_errors.begin(), graph_errors.end()));
  EXPECT_LE(median(graph_errors), 0.25);
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// Prefill with a mixture of experts' experts in system RAM (llama.cpp's
// --n-cpu-moe / --cpu-moe) against published runs (tests/data/
// speed_moe_offload.csv, each row with its source). No constant is set from
// these rows: the estimate is the mechanism of speed.cpp's essay (the GPU
// computes a large micro-batch, the experts its tokens touch copied over the
// card's PCIe link first), at the link's datasheet rate. A copy does not beat
// the link, so the estimate should not be slower than a run; it may be faster
// (pageable host memory, a PCIe slot narrower than the card's own lanes). The
// band asserted: from 0.8x to 2.5x the measured rate. Before this model the
// estimate was the host's active bytes per micro-batch: 10-30x the runs.
TEST(SpeedAccuracy, MoeExpertsInRamPrefillRows) {
  const auto models = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(models);
  const auto devices = parse_device_db(app::embedded_devices_json(), "embedded");
  ASSERT_TRUE(devices);
  int checked = 0;
  std::printf("%-7s %-6s %-12s %10s %10s %7s\n", "case", "use", "device", "measured", "estimate",
              "ratio");
  for (const auto& row :
       read_csv(read_text(std::string(WILLFIT_TEST_DATA_DIR) + "/speed_moe_offload.csv"))) {
    InferenceQuery q;
    const auto found = models->find(row.at("model_id"));
    ASSERT_TRUE(found && found->entry) << row.at("case_id");
    q.model = found->entry->model;
    q.precision = *parse_precision(row.at("precision"));
    const auto device = devices->find(row.at("device_id"));
    ASSERT_TRUE(device) << row.at("case_id");
    q.devices.devices = {*device};
    q.devices.text = row.at("device_id");
    q.runtime = Runtime::LlamaCpp;
    q.ram = 128 * kGiB;
    q.context = static_cast<std::int64_t>(num(row, "prompt_tokens"));
    q.ubatch = static_cast<std::int64_t>(num(row, "ubatch"));
    q.text_only = true;
    q.n_cpu_moe = static_cast<int>(num(row, "cpu_moe_blocks"));
    const Estimate e = estimate_inference(q);
    ASSERT_TRUE(e.offload) << row.at("case_id");
    ASSERT_EQ(e.offload->cpu_moe_layers, q.model.arch.layers) << row.at("case_id");
    const SpeedEstimate s = estimate_speed(q, e, SpeedSettings{});
    ASSERT_TRUE(s.prefill_tokens_per_s) << row.at("case_id");
    const double ratio = *s.prefill_tokens_per_s / num(row, "tokens_per_s");
    std::printf("%-7s %-6s %-12s %10.1f %10.1f %6.2fx\n", row.at("case_id").c_str(),
                row.at("use").c_str(), row.at("device_id").c_str(), num(row, "tokens_per_s"),
                *s.prefill_tokens_per_s, ratio);
    if (row.at("use") == "check") {
      EXPECT_GE(ratio, 0.8) << row.at("case_id");
      EXPECT_LE(ratio, 2.5) << row.at("case_id");
      ++checked;
    }
  }
  EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace willfit
