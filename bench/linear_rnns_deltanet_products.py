"""Benchmark: DeltaNet's 694-step Householder program per matrix on product streams, each step
applied as a dense 19 x 19 object matrix (h <- H h) vs as the rank-one update h - beta k <k, h>.

Same inputs as notebook 06's `deltanet.products_exact` at the default profile (S1's audit): 15
streams per length 1, 2, 3, 5, 8 (75 products) of 3 x 3 matrices over {-1, 0, 1}, one 19-dim
state per stream, P <- P M. The programs are built once, outside the timing, and the dense
reference builds each distinct step's matrix once (also untimed), so only the application is
timed. Checks that both agree with each other and with the direct product, then writes
results/bench/linear_rnns_deltanet_products.json with both medians and their ratio. The dense
reference takes minutes per run (about 200k steps of 361 Fraction products each), hence one
repeat by default.

    python bench/linear_rnns_deltanet_products.py [--streams 15] [--repeats 1]
"""
from __future__ import annotations

import argparse

import numpy as np

from lib.companion import benchmark
from lib.linear_rnns import checks, dplr

LENGTHS = (1, 2, 3, 5, 8)                                          # S1 audit


def start_state(n: int = 3) -> list:
    """vec(I) in coordinates 0..n^2-1, then n^2 + 1 zeros (outputs and tmp)."""
    return [1 if i // n == i % n else 0 for i in range(n * n)] + [0] * (n * n + 1)


def dense_run(streams, dense_of) -> list:
    out = []
    for progs in streams:
        h = np.array(start_state(), dtype=object)
        for prog in progs:
            h = dplr.apply_dense([dense_of[s] for s in prog], h)
        out.append(h[:9].tolist())
    return out


def rank_one_run(streams) -> list:
    out = []
    for progs in streams:
        h = start_state()
        for prog in progs:
            h = dplr.apply(prog, h)
        out.append(h[:9].tolist())
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--streams", type=int, default=15, help="streams per length")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    mats = [list(rng.integers(-1, 2, (N, 3, 3)).astype(object))
            for N in LENGTHS for _ in range(args.streams)]
    streams = [[dplr.matrix_program(dplr.right_multiply_embedding(M)) for M in ms] for ms in mats]
    dense_of = {s: dplr.dense(s, 19) for progs in streams for prog in progs for s in prog}
    ref = [checks.direct_product(ms).reshape(-1).tolist() for ms in mats]
    steps = sum(len(prog) for progs in streams for prog in progs)
    runs = {"dense_matrices": lambda: dense_run(streams, dense_of),
            "rank_one": lambda: rank_one_run(streams)}
    kernel = "linear_rnns.dplr.apply (DeltaNet Householder steps as rank-one updates)"
    return benchmark.compare("linear_rnns_deltanet_products", kernel, runs,
                             lambda slow, fast: slow == fast == ref, args.repeats,
                             products=len(mats), lengths=list(LENGTHS), householder_steps=steps,
                             distinct_steps=len(dense_of))


if __name__ == "__main__":
    main()
