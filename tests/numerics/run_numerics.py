#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# run_numerics.py — numerics and timing of rdnacompat's fallback kernels
# (shim/fallback/*.hip, compiled by nvcc through fb_port.h as the extension
# tests/numerics/fb_ext.cu) on an NVIDIA GPU, against a float64 reference of
# the same math computed by PyTorch on that GPU, and timing against PyTorch's
# scaled_dot_product_attention on the same card.  Needs CUDA, nvcc, PyTorch.
#
# Tensors are laid out as ggml lays them out (Q f32 [B,H,L,DKQ], K/V f16
# [B,Hkv,S,D], mask f16 [B,1,Lpad,S], dst f32 [B,L,H,DV]) and the grid and
# block are ggml's launch_fattn for the tile kernel: (ceil(L/ncols1), P,
# H/ncols2*B) x (32, nwarps); P > 1 writes partials + (max, sum) which the
# combine kernel reduces with grid (L, H, B) x (DV).
#
# Error metric per case: max_i |out_i - ref_i| / max_i |ref_i| (max-norm
# relative error).  Limits: tile vs reference 1e-3, combine vs a float64
# combine of the same partials 1e-6.  Exit status 1 if any case fails.
#
# usage: python3 tests/numerics/run_numerics.py [--out DIR] [--quick]
import argparse
import json
import math
import os
import sys
import time

import torch
from torch.utils.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))
TOL_TILE = 1e-3
TOL_COMBINE = 1e-6
DEV = "cuda"


def build_ext():
    bdir = os.environ.get("RDC_NUMERICS_BUILD", "/tmp/rdc_fb_ext")
    os.makedirs(bdir, exist_ok=True)
    t0 = time.time()
    ext = load(name="rdc_fb_ext", sources=[os.path.join(HERE, "fb_ext.cu")],
               extra_cuda_cflags=["-O3", "-std=c++17"], build_directory=bdir, verbose=False)
    print("extension built in %.1f s" % (time.time() - t0), flush=True)
    return ext


def alibi_slopes(H, max_bias):
    """ggml's get_alibi_slope, in float64 from the float32 m0/m1 it is given."""
    n_head_log2 = 1 << int(math.floor(math.log2(H)))
    m0 = float(torch.tensor(2.0 ** (-max_bias / n_head_log2), dtype=torch.float32))
    m1 = float(torch.tensor(2.0 ** (-(max_bias / 2.0) / n_head_log2), dtype=torch.float32))
    out = []
    for h in range(H):
        if max_bias <= 0:
            out.append(1.0)
        elif h < n_head_log2:
            out.append(m0 ** (h + 1))
        else:
            out.append(m1 ** (2 * (h - n_head_log2) + 1))
    return out, n_head_log2, m0, m1


class Case:
    def __init__(self, name, B=1, H=8, Hkv=None, L=1, S=256, DKQ=128, DV=None, mask="none",
                 softcap=0.0, max_bias=0.0, sinks=False, P=1, ncols1=None, ncols2=1, nwarps=4,
                 kvmax=False, kpad=0, vview=False, seed=0, gz=None, expect_nan=False):
        self.name, self.B, self.H = name, B, H
        self.Hkv = Hkv or H
        self.L, self.S, self.DKQ = L, S, DKQ
        self.DV = DV or DKQ
        self.mask, self.softcap, self.max_bias, self.sinks = mask, softcap, max_bias, sinks
        self.P, self.ncols2, self.nwarps = P, ncols2, nwarps
        self.ncols1 = ncols1 or max(1, 2 // ncols2)
        self.kvmax, self.kpad, self.vview, self.seed = kvmax, kpad, vview, seed
        # gz: a gridDim.z that contradicts ne02*ne03/ncols2 (a launch contract the
        # fallback cannot recover); expect_nan: every output must then be NaN,
        # over memory that starts as finite stale values.
        self.gz, self.expect_nan = gz, expect_nan


def make_inputs(c):
    g = torch.Generator(device=DEV).manual_seed(1234 + c.seed)
    B, H, Hkv, L, S = c.B, c.H, c.Hkv, c.L, c.S
    Q = torch.randn(B, H, L, c.DKQ, device=DEV, generator=g, dtype=torch.float32) * 1.5
    kw = c.DKQ + c.kpad
    Kst = torch.randn(B, Hkv, S, kw, device=DEV, generator=g, dtype=torch.float32).half()
    if c.vview:
        Vst = Kst
    else:
        Vst = torch.randn(B, Hkv, S, c.DV, device=DEV, generator=g, dtype=torch.float32).half()
    Lpad = (L + 15) // 16 * 16
    mask = None
    if c.mask != "none":
        m = torch.zeros(B, 1, Lpad, S, device=DEV, dtype=torch.float32)
        if c.mask == "causal":
            r = torch.arange(Lpad, device=DEV).view(1, 1, Lpad, 1)
            k = torch.arange(S, device=DEV).view(1, 1, 1, S)
            m = m.masked_fill(k > (S - L) + r, float("-inf"))
        elif c.mask == "random":
            m = -2.0 * torch.rand(B, 1, Lpad, S, device=DEV, generator=g)
            drop = torch.rand(B, 1, Lpad, S, device=DEV, generator=g) < 0.1
            drop[..., 0] = False
            m = m.masked_fill(drop, float("-inf"))
        elif c.mask == "pad":
            valid = max(1, S - S // 5)
            k = torch.arange(S, device=DEV).view(1, 1, 1, S)
            m = m.masked_fill(k >= valid, float("-inf"))
        mask = m.half().contiguous()
    sinks = (torch.randn(H, device=DEV, generator=g) * 2.0).float() if c.sinks else None
    return Q, Kst, Vst, mask, sinks, Lpad


def kvmax_table(c, ntiles_x):
    """Per (sequence, Q-row tile) KV limits, as ggml's flash_attn_mask_to_KV_max
    would index them; chosen to cut the KV range differently per tile."""
    vals = []
    for b in range(c.B):
        for t in range(ntiles_x):
            vals.append(min(c.S, 256 * (1 + (t + b) % max(1, c.S // 256 - 1))))
    return torch.tensor(vals, device=DEV, dtype=torch.int32)


def reference(c, Q, K, V, mask, sinks, kvm, ntiles_x):
    B, H, Hkv, L, S = c.B, c.H, c.Hkv, c.L, c.S
    rep = H // Hkv
    q = Q.double()
    k = K[..., :c.DKQ].double().repeat_interleave(rep, dim=1)
    v = V[..., :c.DV].double().repeat_interleave(rep, dim=1)
    s = (q @ k.transpose(-1, -2)) / math.sqrt(c.DKQ)
    if c.softcap:
        s = c.softcap * torch.tanh(s / c.softcap)
    slopes, _, _, _ = alibi_slopes(H, c.max_bias)
    if mask is not None:
        sl = torch.tensor(slopes, device=DEV, dtype=torch.float64).view(1, H, 1, 1)
        s = s + sl * mask[:, :, :L, :].double()
    if kvm is not None:
        lim = kvm.view(B, ntiles_x).long()
        rows = torch.arange(L, device=DEV) // c.ncols1
        lim_r = lim[:, rows].view(B, 1, L, 1)
        kk = torch.arange(S, device=DEV).view(1, 1, 1, S)
        s = s.masked_fill(kk >= lim_r, float("-inf"))
    mx = s.amax(dim=-1, keepdim=True)
    if sinks is not None:
        sk = sinks.double().view(1, H, 1, 1)
        mx = torch.maximum(mx, sk)
    p = torch.exp(s - mx)
    den = p.sum(-1, keepdim=True)
    if sinks is not None:
        den = den + torch.exp(sk - mx)
    return (p @ v) / den  # [B, H, L, DV]


def launch(ext, c, Q, Kst, Vst, mask, sinks, kvm, Lpad):
    B, H, Hkv, L, S = c.B, c.H, c.Hkv, c.L, c.S
    scale = 1.0 / math.sqrt(c.DKQ)
    if c.softcap:
        scale /= c.softcap
    _, n_head_log2, m0, m1 = alibi_slopes(H, c.max_bias)
    kw = c.DKQ + c.kpad
    nb11, nb12, nb13 = kw * 2, S * kw * 2, Hkv * S * kw * 2
    if c.vview:
        nb21, nb22, nb23 = nb11, nb12, nb13
    else:
        nb21, nb22, nb23 = c.DV * 2, S * c.DV * 2, Hkv * S * c.DV * 2
    if mask is not None:
        ne31, ne32, ne33 = Lpad, 1, B
        nb31, nb32, nb33 = S * 2, Lpad * S * 2, Lpad * S * 2
    else:
        ne31 = ne32 = ne33 = nb31 = nb32 = nb33 = 0
    iv = [c.DKQ, L, H, B, c.DKQ * 4, L * c.DKQ * 4, H * L * c.DKQ * 4,
          c.DKQ, S, Hkv, B, nb11, nb12, nb13, nb21, nb22, nb23,
          ne31, ne32, ne33, nb31, nb32, nb33, n_head_log2]
    fv = [scale, c.max_bias, m0, m1, c.softcap]
    gx = (L + c.ncols1 - 1) // c.ncols1
    gz = c.gz or (H // c.ncols2) * B
    lau = [gx, c.P, gz, 32, c.nwarps, 1]
    fill = 7.0 if c.expect_nan else float("nan")  # stale memory must not survive
    if c.expect_nan:
        parts = torch.full((B, L, H, c.P, c.DV), fill, device=DEV, dtype=torch.float32)
        meta = torch.full((B, L, H, c.P, 2), fill, device=DEV, dtype=torch.float32)
        ext.tile(c.DV, Q, Kst, Vst, mask, sinks, kvm, parts, meta if c.P > 1 else None, iv, fv, lau)
        return parts, (parts if c.P > 1 else None), (meta if c.P > 1 else None)
    if c.P > 1:
        parts = torch.full((B, L, H, c.P, c.DV), float("nan"), device=DEV, dtype=torch.float32)
        meta = torch.full((B, L, H, c.P, 2), float("nan"), device=DEV, dtype=torch.float32)
        ext.tile(c.DV, Q, Kst, Vst, mask, sinks, kvm, parts, meta, iv, fv, lau)
        dst = torch.full((B, L, H, c.DV), float("nan"), device=DEV, dtype=torch.float32)
        ext.combine(parts, meta, dst, c.P, L, H, B, c.DV)
        return dst, parts, meta
    dst = torch.full((B, L, H, c.DV), float("nan"), device=DEV, dtype=torch.float32)
    ext.tile(c.DV, Q, Kst, Vst, mask, sinks, kvm, dst, None, iv, fv, lau)
    return dst, None, None


def rel_err(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return float((out - ref).abs().max() / ref.abs().max().clamp_min(1e-300))


def run_case(ext, c):
    Q, Kst, Vst, mask, sinks, Lpad = make_inputs(c)
    gx = (c.L + c.ncols1 - 1) // c.ncols1
    kvm = kvmax_table(c, gx) if c.kvmax else None
    Kk, Vk = Kst, Vst
    if kvm is not None:
        # keys no tile may read: poison them, a read shows up as NaN
        top = int(kvm.max())
        if top < c.S:
            Kk = Kst.clone()
            Kk[:, :, top:, :] = float("nan")
            if c.vview:
                Vk = Kk
            else:
                Vk = Vst.clone()
                Vk[:, :, top:, :] = float("nan")
    dst, parts, meta = launch(ext, c, Q, Kk, Vk, mask, sinks, kvm, Lpad)
    torch.cuda.synchronize()
    if c.expect_nan:
        allnan = bool(torch.isnan(dst).all()) and (meta is None or bool(torch.isnan(meta).all()))
        return {"case": c.name, "B": c.B, "H": c.H, "Hkv": c.Hkv, "L": c.L, "S": c.S, "DKQ": c.DKQ,
                "DV": c.DV, "P": c.P, "gz": c.gz, "expect_nan": True,
                "finite_left": int((~torch.isnan(dst)).sum()), "err_tile": None, "err_combine": None,
                "ok": allnan}
    ref = reference(c, Q, Kst, Vst, mask, sinks, kvm, gx)
    e = rel_err(dst.permute(0, 2, 1, 3), ref)
    ec = None
    if parts is not None:
        m = meta[..., 0].double()
        M = m.amax(-1, keepdim=True)
        w = torch.exp(m - M)
        cref = (w.unsqueeze(-1) * parts.double()).sum(-2) / (w * meta[..., 1].double()).sum(-1, keepdim=True)
        ec = rel_err(dst, cref)
    ok = e < TOL_TILE and (ec is None or ec < TOL_COMBINE)
    return {"case": c.name, "B": c.B, "H": c.H, "Hkv": c.Hkv, "L": c.L, "S": c.S, "DKQ": c.DKQ,
            "DV": c.DV, "mask": c.mask, "softcap": c.softcap, "max_bias": c.max_bias,
            "sinks": c.sinks, "P": c.P, "ncols1": c.ncols1, "ncols2": c.ncols2,
            "threads": 32 * c.nwarps, "kvmax": c.kvmax, "kpad": c.kpad, "vview": c.vview,
            "err_tile": e, "err_combine": ec, "ok": ok}


def cases(quick):
    cs = []
    for D in (64, 128, 256):
        nw = 4 if D <= 128 else 8
        for S in (1, 7, 256, 1000, 4096, 8192):
            cs.append(Case("d%d-decode-S%d" % (D, S), H=8, L=1, S=S, DKQ=D, nwarps=nw, ncols1=2))
        cs.append(Case("d%d-prefill-causal" % D, H=4, L=64, S=1024, DKQ=D, mask="causal", ncols1=32,
                       nwarps=8))
        cs.append(Case("d%d-mask-random" % D, H=4, L=16, S=777, DKQ=D, mask="random", ncols1=16,
                       nwarps=nw))
        cs.append(Case("d%d-softcap30" % D, H=4, L=8, S=2048, DKQ=D, mask="causal", softcap=30.0,
                       ncols1=8, nwarps=nw))
        cs.append(Case("d%d-alibi8" % D, H=12, L=16, S=1000, DKQ=D, mask="random", max_bias=8.0,
                       ncols1=16, nwarps=nw))
        cs.append(Case("d%d-sinks" % D, H=8, L=4, S=512, DKQ=D, mask="pad", sinks=True, ncols1=4,
                       nwarps=nw))
        cs.append(Case("d%d-sinks-split4" % D, H=8, L=4, S=512, DKQ=D, mask="pad", sinks=True, P=4,
                       ncols1=4, nwarps=nw))
        cs.append(Case("d%d-gqa4-split8-S8192" % D, H=32, Hkv=8, L=1, S=8192, DKQ=D, mask="pad",
                       P=8, ncols1=1, ncols2=4, nwarps=nw))
        cs.append(Case("d%d-split13-S4096" % D, H=4, L=3, S=4096, DKQ=D, mask="causal", P=13,
                       ncols1=4, nwarps=nw))
        cs.append(Case("d%d-kvmax-tiles" % D, B=2, H=4, L=10, S=1024, DKQ=D, mask="causal",
                       kvmax=True, ncols1=4, nwarps=nw))
        cs.append(Case("d%d-kvmax-split3" % D, B=2, H=4, L=5, S=1024, DKQ=D, mask="random",
                       kvmax=True, P=3, ncols1=4, nwarps=nw))
        cs.append(Case("d%d-unaligned-K" % D, H=4, L=8, S=300, DKQ=D, mask="random", kpad=1, ncols1=8,
                       nwarps=nw))
    cs.append(Case("d64-split8-S100-empty", H=4, L=2, S=100, DKQ=64, mask="random", P=8, ncols1=2,
                   nwarps=4))
    cs.append(Case("d40-basic", H=4, L=8, S=500, DKQ=40, mask="random", ncols1=8, nwarps=4))
    cs.append(Case("d80-softcap50-split2", H=4, L=2, S=1500, DKQ=80, mask="causal", softcap=50.0,
                   P=2, ncols1=2, nwarps=4))
    cs.append(Case("d576v512-mla-gqa16", H=16, Hkv=1, L=2, S=1024, DKQ=576, DV=512, mask="causal",
                   vview=True, ncols1=1, ncols2=16, nwarps=8, P=2))
    cs.append(Case("d128-512threads", H=8, L=64, S=2048, DKQ=128, mask="causal", ncols1=64,
                   nwarps=16))
    # DV 72, 96, 112 (rows of tables/kernels.tsv the first run did not cover).
    for D in (72, 96, 112):
        cs.append(Case("d%d-mask-random" % D, H=4, L=8, S=600, DKQ=D, mask="random", ncols1=8, nwarps=4))
        cs.append(Case("d%d-split3" % D, H=4, L=2, S=900, DKQ=D, mask="causal", P=3, ncols1=2, nwarps=4))
    # A launch whose gridDim.z contradicts ne02*ne03/ncols2 (8 heads, gz 3):
    # every output NaN, over finite stale memory (audit 2026-12-03 M4).
    cs.append(Case("d128-inconsistent-gz-nan", H=8, L=4, S=256, DKQ=128, mask="random", ncols1=4,
                   nwarps=4, gz=3, expect_nan=True))
    cs.append(Case("d128-inconsistent-gz-split2-nan", H=8, L=4, S=256, DKQ=128, mask="random", ncols1=4,
                   nwarps=4, gz=3, P=2, expect_nan=True))
    if quick:
        cs = cs[::7]
    return cs


def time_ms(fn, iters=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    return ts[len(ts) // 2]


def bench(ext):
    import torch.nn.functional as F
    shapes = [
        Case("decode d128 gqa4 S=8192", H=32, Hkv=8, L=1, S=8192, DKQ=128, mask="pad", P=16, ncols1=1,
             ncols2=4, nwarps=4),
        Case("prefill d128 gqa4 L=S=512", H=32, Hkv=8, L=512, S=512, DKQ=128, mask="causal", ncols1=16,
             ncols2=4, nwarps=8),
        Case("prefill d64 L=S=1024", H=16, L=1024, S=1024, DKQ=64, mask="causal", ncols1=64, nwarps=4),
        Case("decode d256 gqa2 S=4096", H=16, Hkv=8, L=1, S=4096, DKQ=256, mask="pad", P=8, ncols1=2,
             ncols2=2, nwarps=4),
    ]
    rows = []
    for c in shapes:
        Q, Kst, Vst, mask, sinks, Lpad = make_inputs(c)
        t_fb = time_ms(lambda: launch(ext, c, Q, Kst, Vst, mask, sinks, None, Lpad))
        q16 = Q.half()
        rep = c.H // c.Hkv
        k16 = Kst.repeat_interleave(rep, dim=1)
        v16 = Vst.repeat_interleave(rep, dim=1)
        am = mask[:, :, :c.L, :] if mask is not None else None
        t_sdpa = time_ms(lambda: F.scaled_dot_product_attention(q16, k16, v16, attn_mask=am))
        rows.append({"shape": c.name, "fallback_ms": t_fb, "sdpa_ms": t_sdpa, "ratio": t_fb / t_sdpa})
        print("bench %-30s fallback %8.3f ms  sdpa %8.3f ms  x%.1f" % (c.name, t_fb, t_sdpa, t_fb / t_sdpa),
              flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-bench", action="store_true")
    a = ap.parse_args()
    card = torch.cuda.get_device_name(0)
    print("device:", card, "torch", torch.__version__, "cuda", torch.version.cuda, flush=True)
    ext = build_ext()
    res = []
    for c in cases(a.quick):
        r = run_case(ext, c)
        res.append(r)
        if r.get("expect_nan"):
            print("%-28s every output NaN: %s (%d finite left)  %s" % (
                r["case"], r["ok"], r["finite_left"], "ok" if r["ok"] else "FAIL"), flush=True)
            continue
        print("%-28s tile %.3e  combine %s  %s" % (
            r["case"], r["err_tile"], "-" if r["err_combine"] is None else "%.3e" % r["err_combine"],
            "ok" if r["ok"] else "FAIL"), flush=True)
    b = [] if a.no_bench else bench(ext)
    out = {"device": card, "torch": torch.__version__, "cuda": torch.version.cuda, "cases": res,
           "bench": b}
    with open(os.path.join(a.out, "numerics.json"), "w") as f:
        json.dump(out, f, indent=1)
    nfail = sum(1 for r in res if not r["ok"])
    print("%d cases, %d failed" % (len(res), nfail), flush=True)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
