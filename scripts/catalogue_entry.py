#!/usr/bin/env python3
"""Rebuild a data/models.json entry from a model's config.json (and check it against a GGUF).

The maintainer has the files (this script reads nothing from the network):

    scripts/catalogue_entry.py config.json --id llama-4-scout-17b-16e \
        --name Llama-4-Scout-17B-16E --family llama-4 --params 108641793536 \
        --active 17170000000 --alias llama4:scout --alias meta-llama/llama-4-scout-17b-16e-instruct \
        --source "meta-llama/Llama-4-Scout-17B-16E-Instruct config.json (rev abc123); params: model card"
        [--gguf Llama-4-Scout-Q4_K_M.gguf] [--willfit build/dev/willfit]

It maps config.json keys to catalogue fields (the same spellings lib/willfit/models/hf_config.cpp
reads, LFM2's original keys and its MLP-width rule included) and prints the entry as JSON. It
computes no parameter count: the parameter counts are the published
ones the maintainer gives, and the catalogue-consistency test (tests/unit/test_catalogue_arch.cpp)
checks them against the count from the architecture. With --gguf, willfit estimates the config,
the GGUF and the new entry at the same precision and context, and the script prints the three
KV caches side by side: they must agree.
"""
import argparse
import json
import subprocess
import sys
import tempfile


def first(d, *keys, default=None):
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return default


def text_keys(doc):
    t = dict(doc)
    for nested in ("text_config", "llm_config", "language_config"):
        if isinstance(doc.get(nested), dict):
            t.update(doc[nested])
    if str(doc.get("model_type", "")).lower() == "qwen3_tts" and isinstance(doc.get("talker_config"), dict):
        # Qwen3-TTS: llama.cpp's text model is the talker (conversion/qwen3tts.py); its table is the
        # text rows then the codec rows, its head the codec rows alone (hf_config.cpp).
        t.update({k: v for k, v in doc["talker_config"].items() if k != "code_predictor_config"})
        t["model_type"] = "qwen3_tts"
    return t


def speech_and_draft_fields(doc, t, e):
    """The fields of Qwen3-TTS's talker, a DFlash draft and WavTokenizer's decoder, as
    lib/willfit/models/hf_config.cpp reads their configs (data/README.md documents them)."""
    mtype = str(t.get("model_type", "")).lower()
    archs = [str(a) for a in doc.get("architectures") or []]
    if mtype == "qwen3_tts" and t.get("text_vocab_size") and t.get("vocab_size"):
        e["vocab_size"] = t["vocab_size"] + t["text_vocab_size"]
        e["head_rows"] = t["vocab_size"]
        e["tied_embeddings"] = False
    dc = t.get("dflash_config") if isinstance(t.get("dflash_config"), dict) else {}
    if dc or any(a in ("DFlashDraftModel", "DFlash2DraftModel") for a in archs):
        ids = first(dc, "target_layer_ids", default=None) or first(t, "target_layer_ids", "aux_hidden_state_layer_ids")
        if not ids:
            sys.exit("a DFlash config without dflash_config.target_layer_ids: llama.cpp refuses such a draft")
        e["dflash_target_layers"] = len(ids)
        e["dflash_block_size"] = first(dc, "block_size", default=first(t, "block_size", default=16))
        if "conv_kernel_size" in dc:  # DFlash2
            e["dflash_conv_kernel"] = dc["conv_kernel_size"]
            e["dflash_conv_group"] = dc.get("conv_group_size")
            e["dflash_selector_rank"] = dc.get("selector_rank")
            e["dflash_selector_top_k"] = dc.get("selector_top_k")
        draft_vocab = t.get("draft_vocab_size")
        if draft_vocab and draft_vocab < e["vocab_size"]:
            e["draft_own_head"] = True
            e["draft_vocab"] = draft_vocab
        e["tied_embeddings"] = False
        print("note: a DFlash draft's token embeddings and head are the target's unless the checkpoint has"
              " its own: set draft_own_embeddings / draft_own_head from its tensor list", file=sys.stderr)
    if archs[:1] == ["WavTokenizerDec"]:
        posnet, convnext = doc.get("posnet") or {}, doc.get("convnext") or {}
        e.update({"layers": convnext.get("n_layer"), "hidden_size": convnext.get("n_embd"),
                  "intermediate_size": t.get("n_ff"), "mlp_gated": False, "heads": 1, "kv_heads": 1,
                  "head_dim": posnet.get("n_embd"), "tied_embeddings": False,
                  "vocoder_features": t.get("n_embd_features"), "posnet_layers": posnet.get("n_layer"),
                  "posnet_width": posnet.get("n_embd"), "vocoder_out": t.get("hidden_size")})


def precision_of(doc):
    q = doc.get("quantization_config")
    if isinstance(q, dict):
        method = str(q.get("quant_method", "")).lower()
        return {"fp8": "fp8", "fbgemm_fp8": "fp8", "mxfp4": "mxfp4", "gptq": "gptq", "awq": "awq"}.get(
            method, method or "unknown")
    dtype = first(doc, "torch_dtype", "dtype", default="")
    return {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(dtype, dtype or "unknown")


def mixer_fields(t, mtype, layers, types):
    """A hybrid's layer order and mixer shape, the fields the compute-buffer replay reads
    (data/README.md: layer_mixers, short_conv_cache, delta_net_*, mamba2_*), as a GGUF of the
    model carries them: 'A' a layer with a KV cache, 'R' a recurrent one, 'F' an MLP-only block
    (Nemotron-H)."""
    out = {}
    attends = None
    pattern = t.get("hybrid_override_pattern", "")
    if pattern and len(pattern) == layers:  # Nemotron-H: '*' attends, 'M' Mamba-2, the rest MLP only
        out["layer_mixers"] = "".join("A" if c == "*" else "R" if c == "M" else "F" for c in pattern)
    elif types:  # the same rule as the recurrent count in entry_from_config
        attends = [not ("linear" in x or "mamba" in x or x == "conv") for x in types]
    elif t.get("attn_layer_period"):  # Jamba
        period, offset = t["attn_layer_period"], t.get("attn_layer_offset", 0)
        attends = [i % period == offset % period for i in range(layers)]
    elif mtype.startswith("lfm2") and t.get("full_attn_idxs"):
        attends = [i in set(t["full_attn_idxs"]) for i in range(layers)]
    elif t.get("full_attention_interval"):  # Qwen3-Next: (i + 1) % interval == 0 attends
        attends = [(i + 1) % t["full_attention_interval"] == 0 for i in range(layers)]
    if attends is not None and len(attends) == layers and mtype != "falcon_h1":
        out["layer_mixers"] = "".join("A" if x else "R" for x in attends)
    if mtype.startswith("lfm2") and t.get("conv_L_cache"):
        out["short_conv_cache"] = t["conv_L_cache"] - 1
    # Qwen3-Next's gated delta net; llama.cpp's qwen3next graph has one head size for keys
    # and values (ssm.state_size), so the fields are left out when the config's differ.
    # Qwen3.5 reads the same keys but builds another graph (gguf.cpp), so only qwen3_next.
    if mtype == "qwen3_next" and t.get("linear_key_head_dim") == t.get("linear_value_head_dim"):
        out.update({"delta_net_k_heads": t["linear_num_key_heads"],
                    "delta_net_v_heads": t["linear_num_value_heads"],
                    "delta_net_head_dim": t["linear_key_head_dim"],
                    "delta_net_conv": t["linear_conv_kernel_dim"]})
    # The Mamba-2 mixer of Falcon-H1 (beside every attention) and of Nemotron-H's 'R' blocks,
    # read as hf_config.cpp reads it; Nemotron-H's MoE blocks ('E') keep the closed form.
    heads = first(t, "mamba_n_heads", "mamba_num_heads")
    head_dim = first(t, "mamba_d_head", "mamba_head_dim")
    if (mtype == "falcon_h1" or (mtype == "nemotron_h" and "E" not in pattern)) and heads and head_dim:
        out.update({"mamba2_inner": first(t, "mamba_d_ssm", default=heads * head_dim),
                    "mamba2_heads": heads,
                    "mamba2_groups": first(t, "mamba_n_groups", "n_groups", "mamba_num_groups", default=1),
                    "mamba2_state": first(t, "mamba_d_state", "ssm_state_size", "mamba_state_dim", "state_size"),
                    "mamba2_conv": first(t, "mamba_d_conv", "conv_kernel")})
    return out


def entry_from_config(doc, args):
    t = text_keys(doc)
    mtype = str(t.get("model_type", "")).lower()
    layers = first(t, "num_hidden_layers", "n_layer", "num_layers")
    hidden = first(t, "hidden_size", "n_embd", "d_model")
    heads = first(t, "num_attention_heads", "n_head")
    kv = first(t, "num_key_value_heads", default=heads)
    ffn = first(t, "intermediate_size", "block_ff_dim", default=0)  # block_ff_dim: LFM2's original configs
    if isinstance(ffn, list):
        ffn = sum(ffn) // len(ffn)
    if mtype.startswith("lfm2") and t.get("block_auto_adjust_ff_dim"):
        # LFM2 states the MLP before SwiGLU's 2/3 rule (Lfm2MLP): 2/3, times the
        # multiplier, rounded up to block_multiple_of, as hf_config.cpp reads it.
        multiple = t.get("block_multiple_of", 256)
        ff = int(t.get("block_ffn_dim_multiplier", 1.0) * (2 * ffn // 3))
        ffn = multiple * ((ff + multiple - 1) // multiple)
    config_ffn = ffn  # Granite 4: the routed experts' width
    if mtype == "granitemoehybrid" and t.get("shared_intermediate_size"):
        ffn = t["shared_intermediate_size"]
    e = {
        "id": args.id,
        "name": args.name or args.id,
        "family": args.family or mtype,
        "aliases": [a.lower() for a in args.alias],
        "params": args.params,
        "active_params": args.active,
        "layers": layers,
        "hidden_size": hidden,
        "intermediate_size": ffn,
        "mlp_gated": mtype not in ("nemotron_h", "nemotron", "gpt2", "falcon", "phi", "starcoder2", "pockettts"),
        "heads": heads,
        "kv_heads": kv,
        "head_dim": first(t, "head_dim", "attention_head_dim", default=hidden // heads),
        "vocab_size": t["vocab_size"],
        # LFM2 ties by default and its original configs say tie_embedding (Lfm2Config).
        "tied_embeddings": bool(first(t, "tie_word_embeddings", default=first(
            doc, "tie_word_embeddings", "tie_embedding", default=mtype.startswith("lfm2") or mtype == "pockettts"))),
        "max_context": first(t, "max_position_embeddings"),
    }
    att = {"kind": "full"}
    types = [str(x).lower() for x in first(t, "layer_types", "layers_block_type", default=[]) or []]
    recurrent = sum(1 for x in types if "linear" in x or "mamba" in x or x == "conv")
    if not types and mtype.startswith("qwen3_5"):  # Qwen3_5TextConfig: every interval-th layer attends
        recurrent = layers - layers // t.get("full_attention_interval", 4)
    if not types and mtype.startswith("lfm2") and t.get("full_attn_idxs"):  # the rest are convolutions
        recurrent = layers - len({i for i in t["full_attn_idxs"] if 0 <= i < layers})
    if t.get("attn_layer_period"):  # Jamba: attention where i % period == offset
        period, offset = t["attn_layer_period"], t.get("attn_layer_offset", 0)
        recurrent = sum(1 for i in range(layers) if i % period != offset % period)
    pattern = t.get("hybrid_override_pattern", "")
    if pattern:
        recurrent = pattern.count("M")
        e["mlp_layers"] = sum(1 for c in pattern if c in "-E")
    if "kv_lora_rank" in t and t["kv_lora_rank"]:
        att = {"kind": "mla", "kv_lora_rank": t["kv_lora_rank"], "qk_rope_head_dim": t.get("qk_rope_head_dim"),
               "q_lora_rank": t.get("q_lora_rank") or 0, "qk_nope_head_dim": t.get("qk_nope_head_dim"),
               "v_head_dim": t.get("v_head_dim")}
        e["head_dim"] = t.get("qk_nope_head_dim", 0) + t.get("qk_rope_head_dim", 0)
        if t.get("index_head_dim"):
            att["index_head_dim"] = t["index_head_dim"]
            att["index_heads"] = t.get("index_n_heads", 0)
    elif recurrent or mtype == "falcon_h1":
        att = {"kind": "hybrid",
               "attention_layers": layers if mtype == "falcon_h1" else (pattern.count("*") if pattern else layers - recurrent),
               "recurrent_layers": layers if mtype == "falcon_h1" else recurrent}
        print("note: copy recurrent_params and recurrent_state_floats into the entry from the"
              " 'Assumptions' of `willfit config.json`, which prints both", file=sys.stderr)
        att.update(mixer_fields(t, mtype, layers, types))
    elif t.get("attention_chunk_size"):
        nr = t.get("no_rope_layers") or []
        glob = sum(1 for x in nr if x == 0)
        att = {"kind": "chunked", "sliding_window": t["attention_chunk_size"],
               "sliding_pattern": round(len(nr) / glob) if glob else 4}
    elif t.get("sliding_window") and t.get("use_sliding_window", True):
        windowed = sum(1 for x in types if "sliding" in x)
        sp = round(layers / (layers - windowed)) if types and windowed < layers else first(t, "sliding_window_pattern", default=0)
        att = {"kind": "sliding", "sliding_window": t["sliding_window"], "sliding_pattern": sp}
    if att["kind"] == "sliding" and t.get("global_head_dim"):  # Gemma 4's global layers
        att["global_head_dim"] = t["global_head_dim"]
        att["global_kv_heads"] = t.get("num_global_key_value_heads") or 0
        att["global_k_eq_v"] = bool(t.get("attention_k_eq_v", False))
    if t.get("attn_output_gate", mtype.startswith("qwen3_5")):  # Qwen3.5's gated attention
        att["gated_attention"] = True
    if t.get("num_kv_shared_layers"):
        att["kv_shared_layers"] = t["num_kv_shared_layers"]
    e["attention"] = att
    experts = first(t, "num_local_experts", "num_experts", "n_routed_experts", default=0)
    if experts and experts > 1:
        moe_ffn = first(t, "moe_intermediate_size", default=config_ffn)
        if t.get("intermediate_size_mlp"):
            moe_ffn, e["intermediate_size"] = ffn, t["intermediate_size_mlp"]
        shared = first(t, "n_shared_experts", "num_shared_experts", default=0)
        shared_ffn = first(t, "shared_expert_intermediate_size", "shared_intermediate_size")
        if not shared and shared_ffn:
            shared = max(1, round(shared_ffn / moe_ffn))
        if not shared and mtype.startswith("llama4"):
            shared = 1
        if not shared and mtype.startswith("gemma4") and config_ffn:  # the dense MLP beside the experts
            shared = max(1, round(config_ffn / moe_ffn))
        e["moe"] = {"experts": experts, "experts_per_token": first(t, "num_experts_per_tok", "top_k_experts", default=2),
                    "shared_experts": shared, "expert_intermediate_size": moe_ffn,
                    "first_dense_layers": first(t, "first_k_dense_replace", default=0),
                    "layer_step": first(t, "interleave_moe_layer_step", "expert_layer_period", "decoder_sparse_step", default=1)}
    else:
        e["moe"] = None
    if first(t, "num_nextn_predict_layers", "mtp_num_hidden_layers"):
        e["mtp_layers"] = first(t, "num_nextn_predict_layers", "mtp_num_hidden_layers")
    if t.get("hidden_size_per_layer_input"):
        e["per_layer_width"] = t["hidden_size_per_layer_input"]
        e["per_layer_vocab"] = t.get("vocab_size_per_layer_input", t["vocab_size"])
    if t.get("model_type") in ("gemma3n", "gemma3n_text"):
        # Gemma3nTextConfig's defaults when the keys are absent.
        e["altup_inputs"] = t.get("altup_num_inputs", 4)
        e["laurel_rank"] = t.get("laurel_rank", 64)
    if t.get("use_double_wide_mlp") and t.get("num_kv_shared_layers"):
        # Gemma 4 E2B: the KV-sharing layers' MLP is twice as wide.
        e["double_wide_mlp_layers"] = t["num_kv_shared_layers"]
    speech_and_draft_fields(doc, t, e)
    family_fields(doc, t, mtype, e)
    e["vision_params"] = args.vision_params
    e["modality"] = "vision-language" if args.vision_params else (
        "encoder" if e.get("vocoder_features") else "text")
    e["source"] = args.source
    e["published_precision"] = args.precision or precision_of(doc)
    e["published_precision_source"] = args.precision_source or f"{args.source.split(';')[0]}: torch_dtype / quantization_config"
    return e


def family_fields(doc, t, mtype, e):
    """The fields a family's own block needs (data/README.md), as hf_config.cpp sets them."""
    att = e["attention"]
    if mtype == "granite_switch":  # Granite Switch: embedded LoRA adapters, the switch's slot
        e["fused_qkv"] = True
        if t.get("num_adapters"):
            e["adapters"] = t["num_adapters"]
            e["adapter_rank"] = t.get("max_lora_rank")
            if e["layers"] > 1:
                e["layers"] -= 1  # num_hidden_layers counts the switch's slot; the converter drops it
    if mtype == "plamo3":  # PLaMo 3: fused QKV with Q/K norms, post norms, window_size
        e.update({"fused_qkv": True, "fused_gate_up": True, "fused_qkv_norm": True,
                  "sandwich_norms": True})
        if t.get("window_size"):
            e["attention"] = att = {"kind": "sliding", "sliding_window": t["window_size"],
                                    "sliding_pattern": t.get("sliding_window_pattern", 8)}
    if mtype == "plm":  # PLM: per-head MLA without MiniCPM3's scales, squared-ReLU up/down MLP
        e["mlp_gated"] = False
        att["mla_unscaled_head"] = True
    if mtype in ("muse_glimmer", "muse_glimmer_text"):  # gated attention output, no RoPE on global layers
        att["output_gate"] = True
        att["nope_global"] = True
    if "GroveMoeForCausalLM" in (doc.get("architectures") or []) and e.get("moe"):
        # GroveMoE's adjugate experts, as llama.cpp's converter hardcodes them
        e["moe"]["experts_per_group"] = 2
        e["moe"]["group_expert_width"] = t.get("head_dim") or 128
    if mtype in ("rwkv6", "rwkv6qwen2"):
        # RWKV-6: every layer recurrent; the LoRA ranks conversion/rwkv.py writes
        hidden = e["hidden_size"]
        head = t.get("head_size", 64) if mtype == "rwkv6" else hidden // e["heads"]
        if mtype == "rwkv6":
            e["heads"] = e["kv_heads"] = hidden // head
            if not t.get("intermediate_size"):
                e["intermediate_size"] = int(hidden * 3.5) // 32 * 32
        e["head_dim"] = head
        e["max_context"] = 1 << 20  # "RWKV isn't context limited"
        big = hidden >= 4096 if mtype == "rwkv6qwen2" else hidden == 4096
        e["attention"] = {
            "kind": "hybrid", "attention_layers": 0, "recurrent_layers": e["layers"],
            "layer_mixers": "R" * e["layers"], "rwkv": 6,
            "rwkv_token_shift_count": 2 if mtype == "rwkv6" else 1,
            "rwkv_time_mix_extra": t.get("lora_rank_tokenshift") or (64 if big else 32),
            "rwkv_time_decay_extra": t.get("lora_rank_decay") or (128 if big else 64)}
        print("note: copy recurrent_params and recurrent_state_floats into the entry from the"
              " 'Assumptions' of `willfit config.json`, which prints both", file=sys.stderr)


def willfit_kv(willfit, model, extra):
    out = subprocess.run([willfit, model, "--json", "--context", "32768", "--precision", "q4_k_m"] + extra,
                         capture_output=True, text=True)
    if out.returncode == 2:
        sys.exit(f"willfit failed on {model}: {out.stderr.strip()}")
    return json.loads(out.stdout)["memory"]["kv_cache_bytes"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config")
    p.add_argument("--id", required=True)
    p.add_argument("--name")
    p.add_argument("--family")
    p.add_argument("--alias", action="append", default=[])
    p.add_argument("--params", type=int, required=True, help="published total (card or safetensors header)")
    p.add_argument("--active", type=int, help="published active parameters (MoE)")
    p.add_argument("--vision-params", type=int, default=None)
    p.add_argument("--source", required=True, help="where every number came from (repo, revision)")
    p.add_argument("--precision")
    p.add_argument("--precision-source")
    p.add_argument("--gguf", help="a GGUF of the same model: compare the three paths")
    p.add_argument("--willfit", default="build/dev/willfit")
    args = p.parse_args()
    with open(args.config) as f:
        doc = json.load(f)
    entry = entry_from_config(doc, args)
    print(json.dumps(entry, indent=2))
    if args.gguf:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as cat:
            json.dump({"schema_version": 1, "models": [entry]}, cat)
        kv = {
            "config.json": willfit_kv(args.willfit, args.config, []),
            "gguf": willfit_kv(args.willfit, args.gguf, []),
            "catalogue": willfit_kv(args.willfit, args.id, ["--models", cat.name]),
        }
        for k, v in kv.items():
            print(f"{k:12} KV cache at 32768 tokens: {v} bytes", file=sys.stderr)
        if len(set(kv.values())) != 1:
            sys.exit("the three paths disagree: fix the entry (or the reader) before adding it")


if __name__ == "__main__":
    main()
