// Compares what llama.cpp logged (run_llama.mjs output) with willfit's terms
// for the same file and configuration, and with the peer estimator's figures.
// Prints every row's errors, the medians, and a side-by-side table; exits 1
// when a gate fails (tests/live/README.md), 2 when the input is unusable.
//
// Usage: node compare.mjs WILLFIT_BINARY measured.jsonl
// Gates (issue 19): KV cache (with a hybrid's recurrent state) within 0.5 %, or
// within the log's rounding (0.01 MiB) for a buffer too small for 0.5 % to be
// read from two decimals, compute buffer within 5 % on every row; weights: willfit's tensor bytes equal the file's, and llama.cpp's mapped
// buffer equals them within the log's rounding (0.01 MiB per buffer line);
// the recurrent state equals llama.cpp's RS buffer within the same rounding.
import fs from "node:fs";
import { execFileSync } from "node:child_process";

const [binary, measuredPath] = process.argv.slice(2);
if (!binary || !measuredPath) {
  console.error("usage: node compare.mjs WILLFIT_BINARY measured.jsonl");
  process.exit(2);
}
const rows = fs
  .readFileSync(measuredPath, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
if (rows.length === 0) {
  console.error("compare: no measured rows");
  process.exit(2);
}

const MiB = 1024 * 1024;
const KV_GATE = 0.5;
const COMPUTE_GATE = 5.0;
const pct = (est, meas) => (meas === 0 ? (est === 0 ? 0 : Infinity) : (100 * (est - meas)) / meas);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => (Number.isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(2) : String(x));
const mib = (b) => (b / MiB).toFixed(1);

// The CPU kind, as llama.cpp's CPU backend picks its repack layouts and, on
// a CPU with AMX-INT8 and AVX-512 VNNI (its AMX build), its AMX buffer
// (willfit --cpu-features amx; detect_parse.cpp reads the same flags).
const cpuFlags = (() => {
  try {
    const m = /^flags\s*:(.*)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"));
    return new Set((m ? m[1] : "").trim().split(/\s+/));
  } catch {
    return new Set();
  }
})();
const amx = cpuFlags.has("amx_int8") && cpuFlags.has("avx512_vnni");
const cpuFeatures = amx
  ? "amx"
  : cpuFlags.has("avx512f")
    ? "avx512"
    : cpuFlags.has("avx2")
      ? "avx2"
      : process.arch === "arm64"
        ? "neon"
        : "none";

function willfit(row) {
  const args = [
    row.file,
    // A system-RAM device: willfit's CPU-only answer (every term in RAM).
    "--device", "ddr5-5600-dual 1024gb",
    "--context", String(row.context),
    "--ubatch", String(row.n_ubatch),
    "--flash-attn", row.flash ? "on" : "off",
    "--kv-type", row.kv,
    "--cpu-features", cpuFeatures,
    "--json",
  ];
  let out;
  try {
    out = execFileSync(binary, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    // exit 1 (does not fit) still prints the answer
    if (err.status === 1 && err.stdout) {
      out = err.stdout;
    } else {
      throw new Error(`willfit ${args.join(" ")}: ${err.stderr || err.message}`);
    }
  }
  const j = JSON.parse(out);
  const term = (key) => j.memory.terms.find((t) => t.key === key)?.bytes ?? 0;
  // On a CPU-only run willfit's compute term holds the graph and the logits
  // output buffer (both in system RAM).
  return {
    // The file's pages behind the repacked copy are not in the weights term
    // (read once at load, then dropped): add them back to compare with the file.
    weights: term("weights") + term("token_embeddings") + (j.memory.file_pages_dropped_bytes ?? 0),
    kv: term("kv_cache"),
    // the recurrent layers' state inside the KV term (hybrid models)
    recurrent: j.memory.recurrent_state_bytes ?? 0,
    compute: term("compute") + term("output_buffer"),
    host: j.memory.host_bytes,
    repack: term("cpu_repack"),
    amx: term("cpu_amx"),
  };
}

const failures = [];
const skipped = [];
const err = { kv: [], compute: [], ctx_willfit: [], ctx_peer: [], ctx_ref: [], peer_kv_free: [] };
const table = [];
console.log(
  "| model | type | ctx | fa | kv | llama.cpp KV (+ recurrent or compressor state) MiB | willfit KV % | llama.cpp compute + output MiB | willfit compute % | " +
    "context total MiB | willfit % | peer % | peer no-alloc (reference) % |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) {
  const name = `${row.model} ${row.type} ctx=${row.context} fa=${row.flash ? "on" : "off"} kv=${row.kv}`;
  if (row.skipped) {
    // run_llama.mjs did not create a context this machine has no memory for.
    skipped.push(`${name}: ${row.skipped}`);
    continue;
  }
  if (row.error) {
    // llama.cpp refuses a quantised V cache without flash attention: not a row.
    if (/V cache quantization requires flash_attn|quantized V cache/i.test(row.error) || (!row.flash && row.kv !== "f16")) {
      continue;
    }
    failures.push(`${name}: llama.cpp failed: ${row.error}`);
    continue;
  }
  const w = willfit(row);
  const mapped = Object.values(row.model_buffers).reduce((a, b) => a + b, 0);
  const nbuf = Object.keys(row.model_buffers).length;
  if (w.weights !== row.tensor_bytes) {
    failures.push(`${name}: willfit weights ${w.weights} != file tensor bytes ${row.tensor_bytes}`);
  }
  // With AMX the mapping spans the file only up to the last tensor left in
  // it, so it is shorter than the file's tensors.
  if (!amx && Math.abs((row.model_buffers.CPU_Mapped ?? mapped) - row.tensor_bytes) > 0.01 * MiB * nbuf) {
    failures.push(`${name}: llama.cpp mapped ${row.model_buffers.CPU_Mapped} != tensor bytes ${row.tensor_bytes}`);
  }
  const repack = row.model_buffers.CPU_REPACK ?? 0;
  if (Math.abs(w.repack - repack) > 0.01 * MiB) {
    failures.push(`${name}: willfit CPU repack ${w.repack} != llama.cpp CPU_REPACK ${repack} (${cpuFeatures})`);
  }
  const amxBuffer = row.model_buffers.AMX ?? 0;
  if (Math.abs(w.amx - amxBuffer) > 0.01 * MiB) {
    failures.push(`${name}: willfit AMX ${w.amx} != llama.cpp AMX ${amxBuffer}`);
  }
  // llama.cpp keeps a hybrid model's recurrent state (R and S rows per
  // sequence) in a buffer of its own; willfit's KV term holds both.
  const rs = row.rs_bytes ?? 0;
  // DeepSeek-V4's compressor state: buffers of their own beside its KV
  // buffers; willfit's KV term holds it (compressed_kv_bytes).
  const memory = row.kv_bytes + rs + (row.dsv4_state_bytes ?? 0);
  if (Math.abs(w.recurrent - rs) > 0.01 * MiB) {
    failures.push(`${name}: willfit recurrent state ${w.recurrent} != llama.cpp RS buffer ${rs}`);
  }
  const ekv = pct(w.kv, memory);
  if (w.host !== 0) {
    failures.push(`${name}: willfit puts ${w.host} bytes on a host besides the CPU's own RAM`);
  }
  const measuredCompute = row.compute_bytes + row.output_bytes;
  const ecomp = pct(w.compute, measuredCompute);
  const measuredCtx = memory + measuredCompute;
  const ew = pct(w.kv + w.compute, measuredCtx);
  const ep = row.peer_context?.cpuRam != null ? pct(row.peer_context.cpuRam, measuredCtx) : NaN;
  const er = row.peer_v2_context?.cpuRam != null ? pct(row.peer_v2_context.cpuRam, measuredCtx) : NaN;
  err.kv.push(Math.abs(ekv));
  err.compute.push(Math.abs(ecomp));
  err.ctx_willfit.push(Math.abs(ew));
  if (Number.isFinite(ep)) err.ctx_peer.push(Math.abs(ep));
  if (Number.isFinite(er)) err.ctx_ref.push(Math.abs(er));
  // A buffer logged as 0.66 MiB is known to +-0.005 MiB (0.75 %).
  const kvRounded = Math.abs(w.kv - memory) <= 0.01 * MiB;
  if (Math.abs(ekv) > KV_GATE && !kvRounded) failures.push(`${name}: KV ${fmt(ekv)} % (gate ${KV_GATE} %)`);
  if (Math.abs(ecomp) > COMPUTE_GATE) failures.push(`${name}: compute ${fmt(ecomp)} % (gate ${COMPUTE_GATE} %)`);
  console.log(
    `| ${row.model} | ${row.type} | ${row.context} | ${row.flash ? "on" : "off"} | ${row.kv} | ${mib(memory)} | ${fmt(ekv)} | ` +
      `${mib(measuredCompute)} | ${fmt(ecomp)} | ${mib(measuredCtx)} | ${fmt(ew)} | ${fmt(ep)} | ${fmt(er)} |`,
  );
  table.push(row);
}
console.log("");
console.log(`rows: ${table.length}`);
console.log("| absolute error, median (max) | willfit | peer (GgufInsights) | peer no-alloc: llama.cpp sizing itself |");
console.log("|---|---|---|---|");
const mm = (xs) => (xs.length ? `${median(xs).toFixed(2)} % (${Math.max(...xs).toFixed(2)} %)` : "-");
console.log(`| KV cache | ${mm(err.kv)} | - | - |`);
console.log(`| compute + output buffers | ${mm(err.compute)} | - | - |`);
console.log(`| context total (KV + compute + output) | ${mm(err.ctx_willfit)} | ${mm(err.ctx_peer)} | ${mm(err.ctx_ref)} |`);
if (skipped.length) {
  console.log("");
  console.log(`skipped: ${skipped.length} row(s) not run (the reason after each)`);
  for (const s of skipped) console.log(`  ${s}`);
}
if (failures.length) {
  console.log("");
  console.log(`FAILED: ${failures.length} gate(s)`);
  for (const f of failures) console.log(`  ${f}`);
  process.exit(1);
}
console.log("all gates passed");
