"""Benchmark: LRNN forward pass by Hillis-Steele scan against the sequential loop (spec §5, §7.1),
a cost curve over the sequence length T per family.

    python bench/linear_rnns_scan_forward.py [--T 16 32 64 128 256 512 1024 2048] [--batch 32]
        [--d 32] [--repeats 3] [--cap 1] [--families diag_pos diag_neg pd deltanet]

One curve per recurrent LRNN family (`models.SeqModel`, one layer, float32, no grad, one
thread): `sequential` (reference: `parallel=False`, the loop over t; for DeltaNet the rank-one
loop S <- S - beta k (k^T S) + beta k v^T) against `scan` (kernel: `parallel=True`, the doubling
scan of `models.affine_scan`, ceil(log2 T) rounds). At every T both must agree to atol 1e-3 (the
old check) before either is timed. On CPU the ratio measures Python-loop overhead against the
scan's extra arithmetic (O(T log T) combines), not circuit depth (spec §9.12).

Bound per forward pass (B = batch, d = width, r = ceil(log2 T), C = r T - 2^r + 1 combines):
flops of the linear layers, 2 B T (8 d^2 + 2 d) for the MLP and head plus per family
2 B T (3 d^2) (diag), 2 B T (8 d + 8 n^2 + 3 d n) with n = 16 (pd), 2 B T (4 d^2 + 2 d) (deltanet,
two heads of dk = dv = 16); plus the recurrence: sequential 2 B T n (diag, n = d),
B T (2 n^2 + n) (pd), 8 B T H dk dv (deltanet); scan 3 B n C (diag), B (2 n^3 + 2 n^2 + n) C (pd),
B H [(2 dk^3 + 2 dk^2 dv + dk dv) C + T (2 dk^2 + 3 dk dv)] (deltanet: pairs, combines, readout),
and for the scan the bytes of rewriting every (A_t, b_t) each round, 8 r B T (|A| + |b|) in
float32. Norms and activations (O(B T d)) are not counted. Against the one-thread float32 GEMM
rate and copy bandwidth. At d = 32 the linear layers dominate the count, and
both diagonal sides run within 5-8x of it. The pd and DeltaNet loops run at 1/18-1/45 of it:
each step is a handful of tiny aten ops (~9 for pd, ~35 for DeltaNet) of a few us each; the
JSON's `dispatch` counts each side's aten ops at T = 256 (TorchDispatchMode) and multiplies them
by a measured tiny op (`tiny_op_s`), about 40% of the DeltaNet loop's time. The pd and DeltaNet
scans run at 1/7-1/18 of it: their (B, T, n, n) pairs are rewritten every round, and the
batched 16 x 16 products run well below the GEMM rate.
Writes results/bench/linear_rnns_scan_forward.json.
"""
from __future__ import annotations

import argparse

import torch

from lib.companion import benchmark
from lib.linear_rnns import models

FAMILIES = ("diag_pos", "diag_neg", "pd", "deltanet")
AGREE = 1e-3           # float32 scan vs loop (the old check); observed <= 1.1e-5 at T = 2048
N_PD, K_PD = 16, 8     # PDLRNN defaults: state size, dictionary size
HEADS = 2              # DPLRMixer default
OPS_T = 256            # where the aten ops are counted


def combines(T: int) -> int:
    """Hillis-Steele combines: sum over the rounds s = 1, 2, 4, ... < T of (T - s)."""
    r = (T - 1).bit_length()
    return r * T - (2 ** r - 1)


def work(family: str, side: str, T: int, B: int, d: int) -> benchmark.Bound:
    """Flops (and, for the scan, bytes) of one forward pass; see the module docstring."""
    linear = 2 * B * T * (8 * d * d + 2 * d)                       # MLP d -> 2d -> d, head d -> 2
    C, r = combines(T), (T - 1).bit_length()
    if family in ("diag_pos", "diag_neg"):
        n = d
        linear += 2 * B * T * 3 * d * d                            # gate, inp, out
        rec = 2 * B * T * n if side == "sequential" else 3 * B * n * C
        state = B * (n + n)                                        # |A| + |b| per position
    elif family == "pd":
        n = N_PD
        linear += 2 * B * T * (K_PD * d + K_PD * n * n + 3 * d * n)   # mix, dictionary, D/inp/out
        rec = B * T * (2 * n * n + n) if side == "sequential" else \
            B * (2 * n ** 3 + 2 * n * n + n) * C
        state = B * (n * n + n)
    else:
        dk = dv = d // HEADS
        Z = B * HEADS
        linear += 2 * B * T * (4 * d * d + d * HEADS)              # qkv, out, beta
        rec = 8 * Z * T * dk * dv if side == "sequential" else \
            Z * ((2 * dk ** 3 + 2 * dk * dk * dv + dk * dv) * C + T * (2 * dk * dk + 3 * dk * dv))
        state = Z * (dk * dk + dk * dv)
    traffic = 0 if side == "sequential" else 8 * r * T * state     # read + write, 4 bytes each
    return benchmark.Bound(flops=linear + rec, bytes=traffic, dtype="float32")




def no_grad_ops(run: benchmark.Run) -> int:
    with torch.no_grad():
        return benchmark.aten_ops(run)


def sides(model: models.SeqModel, T: int, batch: int) -> dict[str, benchmark.Run]:
    x = torch.randint(1, 5, (batch, T), generator=torch.Generator().manual_seed(T))

    def forward(parallel: bool) -> benchmark.Run:
        def run():
            with torch.no_grad():
                return model(x, parallel=parallel)
        return run
    return {"sequential": forward(False), "scan": forward(True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--T", type=int, nargs="+", default=[16, 32, 64, 128, 256, 512, 1024, 2048])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--d", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=1.0, help="seconds; a side past it stops")
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    tiny = benchmark.tiny_op_s()
    curves, dispatch = {}, {}
    for fam in args.families:
        model = models.SeqModel(fam, vocab=5, in_features=None, n_classes=2, d=args.d).eval()
        curves[fam] = benchmark.curve(
            "T", args.T, lambda T: sides(model, T, args.batch),
            lambda ref, out: torch.allclose(ref, out, atol=AGREE), repeats=args.repeats,
            cap_s=args.cap, label=fam, bound=lambda T, side: work(fam, side, T, args.batch, args.d))
        ops = {k: no_grad_ops(run) for k, run in sides(model, OPS_T, args.batch).items()}
        dispatch[fam] = {"T": OPS_T, "aten_ops": ops,
                         "dispatch_floor_s": {k: n * tiny for k, n in ops.items()}}
    bound = ("flops of one forward pass: linear layers 2 B T (8 d^2 + 2 d) plus the mixer's "
             "(diag 6 d^2, pd 2 (8 d + 8 n^2 + 3 d n), deltanet 2 (4 d^2 + 2 d) per position and "
             "sequence) and the recurrence (sequential: diag 2 n, pd 2 n^2 + n, deltanet "
             "8 H dk dv per position; scan: diag 3 n, pd 2 n^3 + 2 n^2 + n, deltanet H (2 dk^3 + "
             "2 dk^2 dv + dk dv) per combine, r T - 2^r + 1 combines, r = ceil(log2 T)); the scan "
             "also moves 8 r B T (|A| + |b|) bytes (every pair rewritten each round, float32); "
             f"B = {args.batch}, d = {args.d}, n = d (diag) or {N_PD} (pd), H = {HEADS}, dk = dv "
             f"= {args.d // HEADS}; against the one-thread float64 GEMM rate and copy bandwidth")
    benchmark.write_curves("linear_rnns_scan_forward", "linear_rnns.models.affine_scan "
                           "(LRNN forward, scan vs sequential)", bound, curves,
                           batch=args.batch, d=args.d, dtype="float32", tiny_op_s=tiny,
                           dispatch=dispatch)


if __name__ == "__main__":
    main()
