#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# llama_model.py OUT.gguf — writes a tiny llama-architecture GGUF model with
# random (seeded) f16 weights for tests/integration/71-libs-llama.sh: 2
# layers, 256-wide embeddings, 2 heads of 128 (1 KV head: grouped-query
# attention; head size 128 so ggml's flash-attention tile kernels run), a 384-token SentencePiece-style vocabulary (the 3 specials,
# the 256 byte tokens llama.cpp's SPM vocabulary looks up, and filler).
# The weights are noise: the model's output means nothing; the test only
# needs llama.cpp to load it and dispatch its kernels on the simulated card.
# Uses python3-gguf (Debian's gguf-py, shipped with llama.cpp) and numpy.
import sys

import numpy as np
import gguf

N_VOCAB, N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, N_FF, N_CTX = 384, 256, 2, 2, 1, 512, 512


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: llama_model.py OUT.gguf", file=sys.stderr)
        return 2
    rng = np.random.default_rng(9)
    w = gguf.GGUFWriter(sys.argv[1], "llama")
    w.add_name("rdnacompat-tiny-llama")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    tokens, scores, types = [b"<unk>", b"<s>", b"</s>"], [0.0, 0.0, 0.0], [
        gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    for b in range(256):
        tokens.append(("<0x%02X>" % b).encode())
        scores.append(0.0)
        types.append(gguf.TokenType.BYTE)
    while len(tokens) < N_VOCAB:
        tokens.append(("\u2581w%d" % len(tokens)).encode())
        scores.append(-float(len(tokens)))
        types.append(gguf.TokenType.NORMAL)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)

    def t(name: str, *shape: int, norm: bool = False) -> None:
        if norm:
            w.add_tensor(name, np.ones(shape, dtype=np.float32))
        else:
            a = rng.standard_normal(shape, dtype=np.float32) * 0.02
            w.add_tensor(name, a.astype(np.float16))

    kv = N_EMBD // N_HEAD * N_HEAD_KV
    t("token_embd.weight", N_VOCAB, N_EMBD)
    for i in range(N_LAYER):
        t(f"blk.{i}.attn_norm.weight", N_EMBD, norm=True)
        t(f"blk.{i}.attn_q.weight", N_EMBD, N_EMBD)
        t(f"blk.{i}.attn_k.weight", kv, N_EMBD)
        t(f"blk.{i}.attn_v.weight", kv, N_EMBD)
        t(f"blk.{i}.attn_output.weight", N_EMBD, N_EMBD)
        t(f"blk.{i}.ffn_norm.weight", N_EMBD, norm=True)
        t(f"blk.{i}.ffn_gate.weight", N_FF, N_EMBD)
        t(f"blk.{i}.ffn_up.weight", N_FF, N_EMBD)
        t(f"blk.{i}.ffn_down.weight", N_EMBD, N_FF)
    t("output_norm.weight", N_EMBD, norm=True)
    t("output.weight", N_VOCAB, N_EMBD)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
