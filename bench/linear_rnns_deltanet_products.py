"""Benchmark: DeltaNet's 694-step Householder program per matrix on product streams (spec §4.6),
each step applied as a dense 19 x 19 object matrix (h <- H h) vs as the rank-one update
h - beta k <k, h>, a cost curve over the product length N.

    python bench/linear_rnns_deltanet_products.py [--lengths 1 2 4 8 16 32 64 128 256]
        [--streams 1] [--repeats 3] [--cap 3] [--seed 0]

Inputs as notebook 06's `deltanet.products_exact` (S1's audit): `--streams` streams of random
3 x 3 matrices over {-1, 0, 1}, one 19-dim state per stream (vec(P), outputs, tmp), P <- P M;
length N runs the first N matrices of each stream. Unlike the notebook, the matrices are drawn
non-singular: a product of singular ones reaches 0 within ~30 factors, and the rank-one side
skips its update on a zero inner product, so long products would time an empty state.
Sides, each returning every stream's product:
- `dense_matrices` (reference): `dplr.apply_dense`, every step as a dense 19 x 19 matrix of
  exact Fractions; each distinct step's matrix is built once, untimed, and so are the programs;
- `rank_one` (kernel): `dplr.apply`, every step as h - beta k <k, h> on its <= 2 non-zeros;
- `direct_product`: `product_checks.direct_product`, the product in Python ints without DeltaNet.
At every N all live sides must give the same products. The dense side takes ~1 s per matrix
(694 steps of 361 Fraction multiply-adds), so the cap stops it after the first lengths; the
direct product keeps checking the rank-one kernel beyond.

Bound per run, s streams of N matrices: dense 694 N s steps of 2 x 19^2 flops and 19^2 x 8 bytes
(the matrix's object pointers); rank_one 2 x 1036 N s flops (the inner products <k, h>, 1036
key entries per program; the update, skipped when the product is 0, is not counted);
direct_product 54 N s flops (3 x 3 times 3 x 3); against the one-thread float64 GEMM rate and
copy bandwidth. All three sides are 10^4-10^5x off it: every operation is an exact Python
object operation (a Fraction multiply-add allocates and normalises by a gcd); the JSON's
`object_muladd_s` is one, measured, and `object_floor_s_per_matrix` the dense side's 694 x 361
and the rank-one side's 1036 of them per matrix, the same order as each side's measured time
per matrix (the rank-one side slows as the products' integers grow, ~100 bits at N = 256).
Writes results/bench/linear_rnns_deltanet_products.json.
"""
from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction
from functools import cache

import numpy as np

from lib.companion import benchmark
from lib.linear_rnns import dplr, product_checks

STATE = 19                                                         # 2 n^2 + 1 for n = 3


def start_state(n: int = 3) -> list:
    """vec(I) in coordinates 0..n^2-1, then n^2 + 1 zeros (outputs and tmp)."""
    return [1 if i // n == i % n else 0 for i in range(n * n)] + [0] * (n * n + 1)


@cache
def dense_step(s: dplr.Step) -> np.ndarray:
    return dplr.dense(s, STATE)


def dense_run(streams: list[list[list[np.ndarray]]]) -> list:
    out = []
    for progs in streams:
        h = np.array(start_state(), dtype=object)
        for prog in progs:
            h = dplr.apply_dense(prog, h)
        out.append(h[:9].tolist())
    return out


def rank_one_run(streams: list[list[list[dplr.Step]]]) -> list:
    out = []
    for progs in streams:
        h = start_state()
        for prog in progs:
            h = dplr.apply(prog, h)
        out.append(h[:9].tolist())
    return out


def direct_run(mats: list[list[np.ndarray]]) -> list:
    return [product_checks.direct_product(ms).reshape(-1).tolist() for ms in mats]


def sides(mats: list[list[np.ndarray]], programs: list[list[list[dplr.Step]]],
          N: int) -> dict[str, benchmark.Run]:
    """The three runs on the first N matrices of every stream (dense matrices built here)."""
    progs = [p[:N] for p in programs]
    dense = [[[dense_step(s) for s in prog] for prog in p] for p in progs]
    head = [ms[:N] for ms in mats]
    return {"dense_matrices": lambda: dense_run(dense), "rank_one": lambda: rank_one_run(progs),
            "direct_product": lambda: direct_run(head)}


def work(side: str, N: int, streams: int, key_entries: int, steps: int) -> benchmark.Bound:
    if side == "dense_matrices":
        return benchmark.Bound(flops=2 * STATE ** 2 * steps * N * streams,
                               bytes=8 * STATE ** 2 * steps * N * streams)
    if side == "rank_one":
        return benchmark.Bound(flops=2 * key_entries * N * streams)
    return benchmark.Bound(flops=54 * N * streams)


def nonsingular(n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """n random 3 x 3 matrices over {-1, 0, 1} with non-zero determinant, as Python ints."""
    out: list[np.ndarray] = []
    while len(out) < n:
        M = rng.integers(-1, 2, (3, 3))
        if round(np.linalg.det(M)) != 0:                           # |det| <= 4: exact in float
            out.append(M.astype(object))
    return out


def object_muladd_s() -> float:
    """One exact Fraction multiply-add, the unit of both DeltaNet sides."""
    a, b, c = Fraction(2, 3), Fraction(-1, 2), Fraction(5)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(10000):
            a * b + c
        times.append((time.perf_counter() - start) / 10000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64, 128, 256])
    ap.add_argument("--streams", type=int, default=1, help="products per length")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cap", type=float, default=3.0, help="seconds; a side past it stops")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    mats = [nonsingular(max(args.lengths), rng) for _ in range(args.streams)]
    programs = [[dplr.matrix_program(dplr.right_multiply_embedding(M)) for M in ms] for ms in mats]
    steps, key_entries = len(programs[0][0]), sum(len(s.idx) for s in programs[0][0])
    curve = benchmark.curve(
        "N", args.lengths, lambda N: sides(mats, programs, N), lambda ref, out: ref == out,
        repeats=args.repeats, cap_s=args.cap, label="products",
        bound=lambda N, side: work(side, N, args.streams, key_entries, steps))
    muladd = object_muladd_s()
    bound = (f"per run of s = {args.streams} streams of N matrices: dense_matrices {steps} N s "
             f"steps of 2 x {STATE}^2 flops and {STATE}^2 x 8 bytes (object pointers); rank_one "
             f"2 x {key_entries} N s flops (the inner products <k, h>); direct_product 54 N s "
             "flops; against the one-thread float64 GEMM rate and copy bandwidth")
    benchmark.write_curves(
        "linear_rnns_deltanet_products",
        "linear_rnns.dplr.apply (DeltaNet Householder steps as rank-one updates)", bound,
        {"products": curve}, streams=args.streams, householder_steps_per_matrix=steps,
        key_entries_per_matrix=key_entries, object_muladd_s=muladd,
        object_floor_s_per_matrix={"dense_matrices": steps * STATE ** 2 * muladd,
                                   "rank_one": key_entries * muladd},
        distinct_steps=dense_step.cache_info().currsize, seed=args.seed)
    return curve


if __name__ == "__main__":
    main()
