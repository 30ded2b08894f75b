// Loads GGUF files in a real llama.cpp (node-llama-cpp's prebuilt CPU
// backend), creates one context per configuration, and writes one JSON line
// per context: the buffers llama.cpp logged, and the peer estimator's figures
// (node-llama-cpp's GgufInsights) for the same file and configuration.
//
// Usage: node run_llama.mjs CONFIG.json > measured.jsonl
//   CONFIG: {"files":[{"file":..,"model":..,"type":..,"tensor_bytes":N}],
//            "runs":[{"context":N,"flash":bool,"kv":"f16"|"q8_0"}]}
// node-llama-cpp is resolved from WILLFIT_LIVE_PREFIX (the folder
// scripts/install-deps.sh installs it into); ESM resolves packages from the
// importing file's folder, so the import goes through an absolute path.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const prefix = process.env.WILLFIT_LIVE_PREFIX;
if (!prefix) {
  console.error("run_llama: WILLFIT_LIVE_PREFIX is not set (scripts/install-deps.sh prints it)");
  process.exit(2);
}
const entry = path.join(prefix, "node_modules", "node-llama-cpp", "dist", "index.js");
if (!fs.existsSync(entry)) {
  console.error(`run_llama: node-llama-cpp is not installed under ${prefix}: run scripts/install-deps.sh`);
  process.exit(2);
}
const nlc = await import(pathToFileURL(entry).href);
const { getLlama, LlamaLogLevel, readGgufFileInfo, GgufInsights, GgmlType } = nlc;

const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const MiB = 1024 * 1024;

// Resident memory of this process (VmRSS), to see what llama.cpp itself holds
// before any model: the process after loading its libraries less before.
function rss() {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) * 1024 : null;
}
const rssBefore = rss();

// The log lines of the current load or context (llama.cpp prints at debug level).
let lines = [];
const llama = await getLlama({
  gpu: false,
  build: "never",
  logLevel: LlamaLogLevel.debug,
  logger: (_level, message) => {
    lines.push(message);
    // WILLFIT_LIVE_LOG=FILE keeps every log line (a GGML_SCHED_DEBUG=2 dump of
    // the graph's nodes goes through this logger too).
    if (process.env.WILLFIT_LIVE_LOG) {
      fs.appendFileSync(process.env.WILLFIT_LIVE_LOG, message);
    }
  },
});

const rssLlama = rss();

// Sums every "<name> ... buffer size = X MiB" line whose text matches `re`.
function buffers(re) {
  const out = {};
  for (const text of lines.join("\n").split("\n")) {
    const m = re.exec(text);
    if (m) {
      out[m[1]] = (out[m[1]] ?? 0) + Math.round(parseFloat(m[2]) * MiB);
    }
  }
  return out;
}
function logged(re) {
  for (const text of lines.join("\n").split("\n")) {
    const m = re.exec(text);
    if (m) {
      return m[1];
    }
  }
  return null;
}
// The logger is called from llama.cpp's thread through a queue: let the lines
// of a step arrive before reading them.
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
// What the kernel says it can still give (free memory and reclaimable cache).
// MemAvailable plus SwapFree: llama.cpp's repacked weights are anonymous
// memory, which the kernel may swap out once loaded (WILLFIT_LIVE_ALL runs).
function memAvailable() {
  const info = fs.readFileSync("/proc/meminfo", "utf8");
  const m = /MemAvailable:\s+(\d+) kB/.exec(info);
  const swap = /SwapFree:\s+(\d+) kB/.exec(info);
  return m ? (Number(m[1]) + (swap ? Number(swap[1]) : 0)) * 1024 : null;
}

for (const f of config.files) {
  lines = [];
  // f.mmap false loads as llama.cpp --no-mmap (weights read into memory).
  let model;
  try {
    model = await llama.loadModel({ modelPath: f.file, gpuLayers: 0, useMmap: f.mmap ?? true });
  } catch (err) {
    // llama.cpp's own reason is in its log, not in the exception.
    await settle();
    console.error(lines.join("\n").split("\n").slice(-15).join("\n"));
    throw err;
  }
  await settle();
  const modelBuffers = buffers(/load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB/);
  const info = await readGgufFileInfo(f.file);
  const insights = await GgufInsights.from(info, llama);
  const peerModel = insights.estimateModelResourceRequirements({ gpuLayers: 0 });
  let fileUbatch = 512;
  for (const run of config.runs) {
    lines = [];
    const kvType = run.kv === "q8_0" ? GgmlType.Q8_0 : GgmlType.F16;
    const row = {
      model: f.model,
      type: f.type,
      file: f.file,
      tensor_bytes: f.tensor_bytes,
      context: run.context,
      flash: run.flash,
      kv: run.kv,
      model_buffers: modelBuffers,
      // llama.cpp's own libraries and CPU backend, before any model
      process_rss_llama_bytes: rssLlama - rssBefore,
    };
    // A file whose architecture llama.cpp aborts on with flash attention
    // (make_gguf's flash_aborts: plm.cpp's 2-D V fails an assertion in
    // ggml_set_rows and takes the process down) is not run with it, nor
    // sized by the peer's no-allocation mode (llama.cpp building that graph).
    if (f.flash_aborts && run.flash) {
      row.skipped = "llama.cpp 80fb11ac aborts on this architecture with flash attention";
      console.error(`run_llama: skipped ${f.model} ${f.type} ctx=${run.context} fa=on: ${row.skipped}`);
      process.stdout.write(JSON.stringify(row) + "\n");
      continue;
    }
    // The peer, in the same run: its closed-form estimate and its no-allocation
    // mode (llama.cpp sizing its own buffers: a reference, not an estimator).
    const peerOpts = {
      contextSize: run.context,
      modelGpuLayers: 0,
      batchSize: fileUbatch,
      sequences: 1,
      flashAttention: run.flash,
      kvCacheKeyType: kvType,
      kvCacheValueType: kvType,
    };
    try {
      row.peer_v2_context = await insights.estimateContextResourceRequirementsV2(peerOpts);
    } catch (err) {
      row.peer_v2_context = { error: String(err?.message ?? err) };
    }
    // A context that needs more memory than this machine has left is skipped,
    // and says so, rather than letting the kernel kill the process: llama.cpp's
    // own sizing (the no-allocation figure above) against MemAvailable plus
    // SwapFree, less 512 MiB. The mapped file is page cache and counts as
    // available.
    const need = row.peer_v2_context?.cpuRam;
    const avail = memAvailable();
    if (need != null && avail != null && need > avail - 512 * MiB) {
      row.skipped = `needs ${Math.round(need / MiB)} MiB, ${Math.round(avail / MiB)} MiB available`;
      console.error(`run_llama: skipped ${f.model} ${f.type} ctx=${run.context}: ${row.skipped}`);
      process.stdout.write(JSON.stringify(row) + "\n");
      continue;
    }
    try {
      const context = await model.createContext({
        contextSize: run.context,
        flashAttention: run.flash,
        experimentalKvCacheKeyType: kvType,
        experimentalKvCacheValueType: kvType,
        ignoreMemorySafetyChecks: true,
      });
      await settle();
      row.n_ctx = Number(logged(/llama_context: n_ctx\s+=\s+(\d+)/));
      row.n_ubatch = Number(logged(/llama_context: n_ubatch\s+=\s+(\d+)/));
      row.n_batch = Number(logged(/llama_context: n_batch\s+=\s+(\d+)/));
      row.kv_bytes = sum(buffers(/llama_kv_cache:\s+(\S+) KV buffer size =\s+([\d.]+) MiB/));
      // Hybrid and recurrent models: llama_memory_recurrent's R and S tensors
      // (one row per sequence in each recurrent layer), a buffer of their own.
      row.rs_bytes = sum(buffers(/llama_memory_recurrent:\s+(\S+) RS buffer size =\s+([\d.]+) MiB/));
      // DeepSeek-V4 (llama-kv-cache-dsv4.cpp llama_dsv4_comp_state): the
      // compressors' running state (csa, hca, lid), F32 buffers beside the
      // KV buffers, logged one line each.
      row.dsv4_state_bytes = sum(
        buffers(/llama_dsv4_comp_state:\s+(\S+) DSV4 \S+ state buffer size =\s+([\d.]+) MiB/),
      );
      row.n_seq_max = Number(logged(/llama_context: n_seq_max\s+=\s+(\d+)/));
      row.compute_bytes = sum(buffers(/sched_reserve:\s+(\S+) compute buffer size =\s+([\d.]+) MiB/));
      row.output_bytes = sum(buffers(/(\S+)\s+output buffer size =\s+([\d.]+) MiB/));
      await context.dispose();
    } catch (err) {
      row.error = String(err?.message ?? err);
    }
    // The peer sizes the micro-batch the runtime used (513 for sliding-window
    // models): ask again when it differs from the first guess.
    if (row.n_ubatch && row.n_ubatch !== peerOpts.batchSize) {
      peerOpts.batchSize = row.n_ubatch;
      fileUbatch = row.n_ubatch;
      try {
        row.peer_v2_context = await insights.estimateContextResourceRequirementsV2(peerOpts);
      } catch (err) {
        row.peer_v2_context = { error: String(err?.message ?? err) };
      }
    }
    try {
      row.peer_context = insights.estimateContextResourceRequirements(peerOpts);
    } catch (err) {
      row.peer_context = { error: String(err?.message ?? err) };
    }
    await settle();
    row.peer_model = peerModel;
    process.stdout.write(JSON.stringify(row) + "\n");
  }
  await model.dispose();
}
await llama.dispose();
