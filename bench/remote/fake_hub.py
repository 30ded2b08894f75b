#!/usr/bin/env python3
"""A minimal imitation of the Hugging Face hub for measuring willfit by hand
(bench/remote/figures.sh): model info, /resolve/ with Range (206 +
Content-Range). It serves one GGUF repository, org/tiny-GGUF, whose file is
written here (Llama layout, a vocabulary of VOCAB tokens) and padded with
zeros to 100 GB without storing them. Listens on 127.0.0.1 only."""
import json
import struct
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VOCAB = int(sys.argv[2]) if len(sys.argv) > 2 else 400000
SIZE = 100_000_000_000


def s(text):
    b = text.encode()
    return struct.pack("<Q", len(b)) + b


def kv_u32(key, v):
    return s(key) + struct.pack("<I", 4) + struct.pack("<I", v)


def kv_str(key, v):
    return s(key) + struct.pack("<I", 8) + s(v)


def gguf():
    kvs = [kv_str("general.architecture", "llama"), kv_str("general.name", "Tiny"),
           kv_u32("general.file_type", 15), kv_u32("llama.block_count", 2),
           kv_u32("llama.context_length", 4096), kv_u32("llama.embedding_length", 256),
           kv_u32("llama.feed_forward_length", 512), kv_u32("llama.attention.head_count", 4),
           kv_u32("llama.attention.head_count_kv", 2)]
    toks = b"".join(s("tok%07d" % i) for i in range(VOCAB))
    kvs.append(s("tokenizer.ggml.tokens") + struct.pack("<I", 9) + struct.pack("<I", 8) +
               struct.pack("<Q", VOCAB) + toks)
    tensors = []
    offset = 0
    # name, shape, ggml type (12 = Q4_K: 144 bytes per 256 values; 0 = F32)
    specs = [("token_embd.weight", [256, VOCAB], 12), ("output_norm.weight", [256], 0)]
    for b in range(2):
        specs += [(f"blk.{b}.attn_q.weight", [256, 256], 12), (f"blk.{b}.attn_k.weight", [256, 128], 12),
                  (f"blk.{b}.attn_v.weight", [256, 128], 12), (f"blk.{b}.attn_output.weight", [256, 256], 12),
                  (f"blk.{b}.ffn_gate.weight", [256, 512], 12), (f"blk.{b}.ffn_up.weight", [256, 512], 12),
                  (f"blk.{b}.ffn_down.weight", [512, 256], 12), (f"blk.{b}.attn_norm.weight", [256], 0)]
    for name, shape, t in specs:
        n = 1
        for d in shape:
            n *= d
        size = n * 4 if t == 0 else n // 256 * 144
        tensors.append(s(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
                       + struct.pack("<I", t) + struct.pack("<Q", offset))
        offset += (size + 31) // 32 * 32
    return b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs) + b"".join(tensors)


HEADER = gguf()
FILE = "Tiny-Q4_K_M.gguf"
COMMIT = "c" * 40
LOG = []


class Hub(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/api/models/org/tiny-GGUF/revision/"):
            body = json.dumps({"sha": COMMIT, "siblings": [{"rfilename": FILE, "size": SIZE}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            LOG.append(len(body))
            return
        if self.path == f"/org/tiny-GGUF/resolve/{COMMIT}/{FILE}":
            first, last = 0, SIZE - 1
            rng = self.headers.get("Range")
            if rng:
                a, b = rng[6:].split("-")
                first, last = int(a), min(int(b), SIZE - 1)
            body = HEADER[first:last + 1]
            body += b"\0" * (last + 1 - first - len(body))
            self.send_response(206 if rng else 200)
            self.send_header("Content-Range", f"bytes {first}-{last}/{SIZE}")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Repo-Commit", COMMIT)
            self.end_headers()
            self.wfile.write(body)
            LOG.append(len(body))
            return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hub)
    print(f"header {len(HEADER)} bytes", flush=True)
    server.serve_forever()
