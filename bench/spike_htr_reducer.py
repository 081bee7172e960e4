"""Benchmark: the CTC-guided length reducer (spec §1.5) and the spiking mixer it shortens (§1.2),
each against its line-by-line reference, as cost curves over the sequence length.

    python bench/spike_htr_reducer.py [--L 32 64 ... 1024] [--batch 32] [--r 0.4] [--tau 0.9]
                                      [--ratios 1 0.75 ... 0.125] [--longer 64 128] [--gain 4]
                                      [--repeats 7] [--mixer-repeats 25] [--cap 2.0]

Three curves, batch B = 32 lines, T = 2 steps, the default recognizer (d = 64, 2 blocks):
- "topr", over the encoder length L: `reducer.select_topr` (one stable sort of the (B, L) blank
  probabilities, a sort of the kept indices) against `naive.topr_naive` line by line on Python
  lists (the `tolist` included), keep ratio r = 0.4 (NB03's; 60 % dropped). The blank
  probabilities are synthetic and blank-dominated (78 % of positions near 1, as the spec's
  prototype measured) and rounded to multiples of 1/64, so that ties test the stable order.
  Indices must be identical.
- "merge", over L: `reducer.merge_blank_runs` (a cumulative sum of run starts, two scatter-adds
  over the (T B, L, d) features) against `naive.merge_blank_runs_naive` (a walk over each line's
  positions, each group's mean in float64), tau_b = 0.9 (NB03's merge_tau). The valid masks must
  be identical and the means agree to L u max|z| (u = 2^-24: a float32 sum of n <= L rows in
  order is within n u max|z| of the exact mean; the reference rounds once).
- "mixer", over the kept length L': `Recognizer.mix` of a spiking recognizer (all T B sequences in
  each op, LIF over the leading T axis) against `naive.mix_naive` (one line and one step at a time,
  membrane potentials carried from step to step), on the same random weights with the q, k, v and
  MLP-up weights scaled by --gain = 4 so that about 18 % of those neurons fire (the trained SNN of
  NB02 fires 4-11 %), z ~ N(0, 1). At these weights the attention neurons fire only at L' = 128,
  1-3 % (their input, (Q K^T) V / 64 of 0/1 spikes, grows with L'; NB02's first-block attention
  never fires either). The sizes are the kept lengths ceil(r L) at L = 32 of NB03's ratios (and
  r = 1/8), then 64 and 128 (the paper-like L = 64 and beyond). Before anything is timed at a size,
  every group of neurons (each block's q, k, v, attention, MLP), caught by forward hooks on the
  fast side, must spike bit-equal to the reference's, and the outputs agree to 1e-5 of their
  largest magnitude (each block's two linears are sums of d and 2d float32 terms that another BLAS
  blocking may round differently, ~2d u = 8e-6 relative; measured: bit-equal).

Beside the mixer curve, `relative` sets the mixer's time at each L' against its time at L = 32
next to `reducer.relative_cost(32, L', d)`, the closed-form multiply-add ratio: what dropping
positions saves in time, against what it saves in arithmetic. `dispatch` gives the aten ops one
fast mixer call dispatches and the time of one tiny op (`benchmark.aten_ops`, `tiny_op_s`): their
product is the floor the mixer's time cannot go below whatever L'.

Bound (one thread): topr reads the (B, L) float32 probabilities and writes (B, ceil(r L)) int64
indices; merge reads the (T B, L, d) float32 features and writes the (T B, L*, d) means;
these are bytes against the machine's copy bandwidth. The mixer does 2 T B mixer_macs(L', d, 2)
float32 flops (`reducer.mixer_macs`: 8 L' d^2 + 2 L'^2 d multiply-adds per block and sequence)
against one thread's float32 GEMM rate; the reference does the same arithmetic.
Writes results/bench/spike_htr_reducer.json.

Measured on the development machine (2 cores, one thread; five runs). topr: the loop over lines
is 5-7 times slower at every L (both linear in L; the sort runs at ~1 % of the copy bound).
merge: the walk is 47 times slower at L = 32 and 85-125 times from L = 128 (one small-tensor
mean per group and step); the scatter-adds reach 7-14 % of the copy bound. mixer: the loop over
lines and steps is 10 times slower at L' = 4, 3.1-4 at L' = 32 and 1.3-1.7 at L' = 128, where its
(L', d) products are large enough to run near the batched ones' rate (mix: 11 % of the GEMM bound
at L' = 4, 20-36 % from L' = 13). Against L = 32 the mixer's time falls less than its
arithmetic: 0.50-0.67 at r = 0.5 (relative cost 0.47), 0.27-0.41 at r = 0.2 (0.20) and
0.20-0.37 at r = 1/8 (0.11); a fixed cost per op of a few microseconds (its 320 aten ops alone
take ~0.5 ms of the ~3 ms at L' = 4) sets a floor: on this CPU the time ratio stays within ~0.2
of the relative cost from r = 0.5 up, and is 1.4-3 times the relative cost from r = 0.2 down.
"""
import argparse
import math

import torch

from lib.companion import benchmark
from lib.spike_htr import model, naive, reducer

U32 = 2.0 ** -24                                    # float32 unit roundoff
NB03_RATIOS = [1.0, 0.75, 0.5, 0.4, 0.3, 0.25, 0.2]  # params.yaml spike_htr.length_reducer.ratios
BLANK_SHARE = 0.78                                   # spec §2 P3 [PROTO]: 78 % of positions blank
GROUPS = {"fire_qkv": ("q", "k", "v"), "fire_attn": ("attn",), "fire_mlp": ("mlp",)}
BOUND = ("topr: 4 B L bytes read (float32 blank probabilities) + 8 B ceil(r L) written (int64 "
         "indices); merge: 4 T B L d read (float32 features) + 4 T B L* d written (the means); "
         "bytes against one thread's copy bandwidth. mixer: 2 T B mixer_macs(L', d, blocks) "
         "float32 flops (8 L' d^2 + 2 L'^2 d multiply-adds per block and sequence) against one "
         "thread's float32 GEMM rate, the same for the reference")


def blank_probs(B: int, L: int, gen: torch.Generator) -> torch.Tensor:
    """Synthetic blank probabilities (B, L): a share BLANK_SHARE of positions near 1, the rest
    near 0 (logits N(4, 2^2) and N(-2, 2^2)), rounded to multiples of 1/64 (ties)."""
    blank = torch.rand(B, L, generator=gen) < BLANK_SHARE
    logit = torch.where(blank, 4.0, -2.0) + 2.0 * torch.randn(B, L, generator=gen)
    return torch.round(torch.sigmoid(logit) * 64) / 64


def topr_curve(args: argparse.Namespace) -> dict:
    """select_topr against topr_naive line by line, over L."""
    def prepare(L: int) -> dict[str, benchmark.Run]:
        blank = blank_probs(args.batch, L, torch.Generator().manual_seed(L))
        return {"naive": lambda: [naive.topr_naive(row, args.r) for row in blank.tolist()],
                "select_topr": lambda: reducer.select_topr(blank, args.r)}

    def agree(a: list[list[int]], b: torch.Tensor) -> bool:
        return torch.equal(torch.tensor(a, dtype=b.dtype), b)

    def work(L: int, side: str) -> benchmark.Bound:
        k = reducer.kept_length(L, args.r)
        return benchmark.Bound(bytes=4 * args.batch * L + 8 * args.batch * k, dtype="float32")
    return benchmark.curve("L", args.L, prepare, agree, repeats=args.repeats, cap_s=args.cap,
                           bound=work, label="topr")


def merge_curve(args: argparse.Namespace, arch: model.Arch) -> dict:
    """merge_blank_runs against merge_blank_runs_naive, over L."""
    N = arch.T * args.batch
    merged: dict[int, int] = {}                      # L -> L*, the longest merged line
    tol = {}                                         # the tolerance at the size being checked

    def prepare(L: int) -> dict[str, benchmark.Run]:
        gen = torch.Generator().manual_seed(L)
        blank = blank_probs(args.batch, L, gen)
        z = torch.randn(N, L, arch.d, generator=gen)              # (T B, L, d)
        merged[L] = reducer.merge_blank_runs(z, blank, args.tau)[0].shape[1]
        tol["means"] = L * U32 * float(z.abs().max())
        return {"naive": lambda: naive.merge_blank_runs_naive(z, blank, args.tau),
                "merge_blank_runs": lambda: reducer.merge_blank_runs(z, blank, args.tau)}

    def agree(a: tuple, b: tuple) -> bool:
        return (a[0].shape == b[0].shape and torch.equal(a[1], b[1])
                and bool((a[0] - b[0]).abs().max() <= tol["means"]))

    def work(L: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(bytes=4 * N * arch.d * (L + merged[L]), dtype="float32")
    return benchmark.curve("L", args.L, prepare, agree, repeats=args.repeats, cap_s=args.cap,
                           bound=work, label="merge")


def fast_spikes(net: model.Recognizer, z: torch.Tensor) -> dict[str, torch.Tensor]:
    """The spikes of net.mix(z) under the reference's names ("blocks.<i>.<q|k|v|attn|mlp>"),
    caught by forward hooks on the blocks' Fire modules: for the check only, never timed."""
    caught: dict[str, torch.Tensor] = {}
    hooks = []
    for i, block in enumerate(net.blocks):
        for attr, names in GROUPS.items():
            calls = iter(names)                      # fire_qkv runs on q, then k, then v

            def catch(module, inputs, output, i=i, calls=calls):
                caught[f"blocks.{i}.{next(calls)}"] = output
            hooks.append(getattr(block, attr).register_forward_hook(catch))
    try:
        with torch.no_grad():
            net.mix(z)
    finally:
        for hook in hooks:
            hook.remove()
    return caught


def spiking_net(arch: model.Arch, gain: float) -> model.Recognizer:
    """A spiking recognizer, seed 0, its blocks' q, k, v and MLP-up weights scaled by gain."""
    torch.manual_seed(0)
    net = model.Recognizer(arch).eval()
    with torch.no_grad():
        for block in net.blocks:
            block.qkv.weight.mul_(gain)
            block.up.weight.mul_(gain)
    return net


def mixer_curve(args: argparse.Namespace, net: model.Recognizer, kept: list[int],
                fired: dict) -> dict:
    """Recognizer.mix against mix_naive over L', spikes checked bit-equal first."""
    arch = net.arch
    N = arch.T * args.batch

    def prepare(Lk: int) -> dict[str, benchmark.Run]:
        z = torch.randn(N, Lk, arch.d, generator=torch.Generator().manual_seed(Lk))
        got, ref = fast_spikes(net, z), {}
        with torch.no_grad():
            naive.mix_naive(net, z, spikes=ref)
        if got.keys() != ref.keys() or not all(torch.equal(got[k], ref[k]) for k in ref):
            bad = sorted(k for k in ref if k not in got or not torch.equal(got[k], ref[k]))
            raise SystemExit(f"mixer L' = {Lk}: spikes differ in {bad}: not timing a wrong "
                             "kernel")
        fired[Lk] = {k: float(s.mean()) for k, s in ref.items()}

        @torch.no_grad()
        def loop():
            return naive.mix_naive(net, z)

        @torch.no_grad()
        def mix():
            return net.mix(z)
        return {"naive": loop, "mix": mix}

    def agree(a: torch.Tensor, b: torch.Tensor) -> bool:
        scale = max(1.0, float(a.abs().max()))
        return bool(torch.isfinite(b).all()) and bool((a - b).abs().max() <= 1e-5 * scale)

    def work(Lk: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=2 * N * reducer.mixer_macs(Lk, arch.d, arch.blocks),
                               dtype="float32")
    return benchmark.curve("L'", kept, prepare, agree, repeats=args.mixer_repeats, cap_s=args.cap,
                           bound=work, label="mixer")


def relative(curve: dict, L: int, d: int, ratios: dict[int, float]) -> list[dict]:
    """Each side's time at L' over its time at L, beside the closed-form relative cost."""
    rows = []
    base = {k: s["median_s"][s["sizes"].index(L)] for k, s in curve["sides"].items()}
    for i, Lk in enumerate(curve["sides"]["mix"]["sizes"]):
        row = {"kept": Lk, "r": ratios.get(Lk), "relative_cost": reducer.relative_cost(L, Lk, d)}
        for name, side in curve["sides"].items():
            if Lk in side["sizes"]:
                row[f"{name}_time_ratio"] = side["median_s"][side["sizes"].index(Lk)] / base[name]
        rows.append(row)
        print(f"mixer L' = {Lk:4d} (r = {row['r']}): relative cost {row['relative_cost']:.3f}, "
              f"time mix {row.get('mix_time_ratio', math.nan):.3f}, "
              f"naive {row.get('naive_time_ratio', math.nan):.3f} (of L = {L})")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--L", type=int, nargs="+", default=[32 * 2 ** k for k in range(6)],
                        help="encoder lengths of the topr and merge curves")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--r", type=float, default=0.4, help="top-r keep ratio")
    parser.add_argument("--tau", type=float, default=0.9, help="merge threshold tau_b")
    parser.add_argument("--ratios", type=float, nargs="+", default=NB03_RATIOS + [0.125],
                        help="keep ratios whose kept lengths at L = 32 the mixer curve runs")
    parser.add_argument("--longer", type=int, nargs="+", default=[64, 128],
                        help="mixer lengths beyond L = 32")
    parser.add_argument("--gain", type=float, default=4.0, help="scale of q, k, v and MLP-up "
                        "weights (firing)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--mixer-repeats", type=int, default=25, help="repeats of the mixer "
                        "curve (10-60 ms runs, whose ratios to L = 32 are the point)")
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    arch = model.Arch()                                   # spec §1.2 default, spiking, T = 2
    L = arch.length
    ratios = {reducer.kept_length(L, r): r for r in sorted(args.ratios)}
    kept = sorted(set(ratios) | {L} | set(args.longer))
    net = spiking_net(arch, args.gain)
    fired: dict[int, dict] = {}
    curves = {"topr": topr_curve(args), "merge": merge_curve(args, arch),
              "mixer": mixer_curve(args, net, kept, fired)}
    rows = relative(curves["mixer"], L, arch.d, ratios)
    z = torch.randn(arch.T * args.batch, min(kept), arch.d)
    with torch.no_grad():
        ops = benchmark.aten_ops(lambda: net.mix(z))
    tiny = benchmark.tiny_op_s()
    print(f"mixer: {ops} aten ops per call x {tiny * 1e6:.2f} us = {ops * tiny * 1e3:.2f} ms floor")
    benchmark.write_curves(
        "spike_htr_reducer", "spike_htr length reducer (top-r selection, blank-run merging) and "
        "spiking mixer: line-by-line references vs batched", BOUND, curves,
        batch=args.batch, r=args.r, tau=args.tau, gain=args.gain, T=arch.T, d=arch.d,
        blocks=arch.blocks, base_length=L, relative=rows, fired=fired,
        dispatch={"mixer_aten_ops": ops, "tiny_op_s": tiny, "floor_s": ops * tiny})


if __name__ == "__main__":
    main()
