"""Benchmark: the batched closed-form mean-field residual against finite differences of the
decoder, one task and one point at a time (spec §4 naive (b), §6), as a cost curve over the
number of collocation points per task.

    python bench/bsnp_residual.py [--points 2 4 ... 4096] [--tasks 4] [--repeats 3] [--cap 1.5]

The physics term of every training step evaluates r(x) = -(a mu')' - f of the decoder's mean
field at N points of each of B tasks. `model.field_derivatives` + `physics.residual` ("batched")
does it for the whole batch at once; `naive.batched_residual` ("loop") uses nested central
differences of an explicit-sum decoder, one point at a time. At every size where both run they
must agree (relative 1e-4 of the largest residual, float64) before anything is timed; glibc's
fastbins are off (`benchmark.no_fastbins`) so that neither side pays for the other's frees. Writes
results/bench/bsnp_residual.json.

Bound (M = 32 grid nodes, head 48 -> 32 -> 32, float64, one thread): the loop evaluates the
decoder 4 times per point, each a sum over M nodes of the head MLP and one dot with the mean
head: 4 B N M * 2 (48*32 + 32*32 + 32) flops. The batched side runs the head once per node,
2 B M (48*32 + 32*32 + 2*32) flops, then 22 flops per (B, N, M) entry for the kernel and its two
x-derivatives, their sums and the three kernel sums; it must at least write the kernel and its
two derivatives, (B, N, M) float64 each, and read each twice (its sum, its kernel sum):
72 B N M bytes. Each time is set against the machine's one-thread float64 GEMM rate and copy
bandwidth (in the JSON).
The loop runs at about 1/500 of its bound: each of its 4 M head calls per point is three torch
ops on a 48-vector, dispatch-bound (one call is timed and written as head_call_s, ~30 us; the
4 M = 128 calls per point are about half of the loop's ~8 ms per point, the rest being the
scalar conversions and concatenations around them). The batched side reaches 1/5 to 1/3 of its
bound at 1024-4096 points, memory-bound: its 13 elementwise (B, N, M) temporaries, each written and
read, move ~200 B N M bytes, about what its time there allows; below ~256 points its time
flattens at the dispatch of its ~50 torch ops.
"""
import argparse
import time
from typing import Callable

import numpy as np
import torch

from lib.bsnp import model, naive, physics
from lib.companion import benchmark

M, LATENT, CHANNELS, HIDDEN = 32, 16, 32, 32
BOUND = ("loop: 4 B N M * 2 (48*32 + 32*32 + 32) flops (4 decoder evaluations per point, each M "
         "head MLPs and a dot); batched: 2 B M (48*32 + 32*32 + 2*32) + 22 B N M flops and "
         "72 B N M bytes (k, k', k'' (B, N, M) float64, written once, read twice); B tasks, N "
         "points per task, M = 32 nodes; against one thread's float64 GEMM rate and copy "
         "bandwidth")



def bound(tasks: int) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of each side at N points per task."""
    head = 2 * (48 * HIDDEN + HIDDEN * HIDDEN)

    def work(n: int, side: str) -> benchmark.Bound:
        if side == "loop":
            return benchmark.Bound(flops=4 * tasks * n * M * (head + 2 * HIDDEN))
        return benchmark.Bound(flops=tasks * M * (head + 4 * HIDDEN) + 22 * tasks * n * M,
                               bytes=72 * tasks * n * M)
    return work


def head_call_seconds(net: model.BSNP, calls: int = 2000) -> float:
    """Mean wall time of one head MLP call on one 48-vector (the loop's unit of work)."""
    h = torch.randn(CHANNELS + LATENT, dtype=torch.float64)
    with torch.no_grad():
        start = time.perf_counter()
        for _ in range(calls):
            net.head(h)
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, nargs="+", default=[2 ** k for k in range(1, 13)],
                        help="collocation points per task (the axis)")
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=1.5, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes()).double()

    def prepare(n: int) -> dict[str, benchmark.Run]:
        gen = torch.Generator().manual_seed(n)
        g = torch.randn(args.tasks, M, CHANNELS, generator=gen, dtype=torch.float64)
        z = torch.randn(args.tasks, LATENT, generator=gen, dtype=torch.float64)
        x = torch.rand(args.tasks, n, generator=gen, dtype=torch.float64)
        lam = 4 * torch.rand(args.tasks, 2, generator=gen, dtype=torch.float64) - 2

        def batched() -> np.ndarray:
            with torch.no_grad():
                f = net.field_derivatives(g, z, x)
                return physics.residual(f["mu1"], f["mu2"], x, lam).numpy()
        return {"loop": lambda: naive.batched_residual(net, g, z, x.numpy(), lam.numpy()),
                "batched": batched}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= 1e-4 * np.abs(a).max())

    curve = benchmark.curve("points", args.points, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound(args.tasks), label="residual")
    benchmark.write_curves("bsnp_residual", "bsnp mean-field residual: FD loop vs batched "
                           "closed form", BOUND, {"residual": curve}, tasks=args.tasks,
                           grid_nodes=M, head_call_s=head_call_seconds(net))


if __name__ == "__main__":
    main()
