"""Benchmark: the batched one-step coordinate-check kernel (`coord.one_step`: bmm forward over an
ensemble of initialisations, hand-rolled Adam) against `naive.one_step_loop` (one network at a
time, one input row at a time, torch.optim.Adam), as a cost curve over width.

    python bench/completep_rl_one_step.py [--widths 8 16 ... 256] [--members 2] [--points 32]

Both sides must give the same Delta f and Delta h/h (relative 1e-9, float64) before anything is
timed. Writes results/bench/completep_rl_one_step.json.

Bound (L = 2, d_in = 4, B points, E members, width N, float64, one thread): a forward pass is
2 E B (4 N + 2 N^2 + N) flops; a step is three forward-sized passes (forward, backward twice the
work) plus the Adam update's ~10 flops per parameter, E (4 N + 2 N^2 + 2 N); the loop does the
same arithmetic one row-vector at a time.
"""
import argparse
from typing import Callable

import numpy as np

from lib.companion import benchmark
from lib.completep_rl import coord, naive

DEPTH, D_IN = 2, 4
BOUND = ("2 E B (4 N + 2 N^2 + N) flops per forward, x 4 (two forwards, a backward of twice "
         "the work) + 10 E (4 N + 2 N^2 + 2 N) for Adam; float64, against one thread's GEMM rate")


def bound(members: int, points: int) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of either side at width n."""
    def work(n: int, side: str) -> benchmark.Bound:
        fwd = 2 * members * points * (D_IN * n + DEPTH * n * n + n)
        return benchmark.Bound(flops=4 * fwd + 10 * members * (D_IN * n + DEPTH * n * n + 2 * n))
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[8, 16, 32, 64, 128, 256])
    parser.add_argument("--members", type=int, default=2)
    parser.add_argument("--points", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    import torch
    torch.set_num_threads(1)
    x, y = coord.batch(args.points, D_IN, 0)

    def prepare(n: int) -> dict[str, benchmark.Run]:
        call = (n, DEPTH, x, y, 1e-3, 1e-8, args.members, 0, "adam_fixed_lr")
        return {"loop": lambda: naive.one_step_loop("ntk", *call),
                "batched": lambda: coord.one_step("ntk", *call)}

    def agree(a: dict, b: dict) -> bool:
        return all(np.allclose(a[k], b[k], rtol=1e-9, atol=0) for k in ("df", "dh"))

    curve = benchmark.curve("width", args.widths, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound(args.members, args.points),
                            label="one_step")
    benchmark.write_curves("completep_rl_one_step", "completep_rl one Adam step: per-row loop "
                           "with torch.optim.Adam vs batched ensemble", BOUND, {"one_step": curve},
                           members=args.members, points=args.points, depth=DEPTH)


if __name__ == "__main__":
    main()
