"""Benchmark: batched analytic Jacobian-rank fibre dimensions against per-draw torch autograd.

    python bench/equivariance_jacobian.py [--draws 20] [--points 500] [--repeats 3]

Checks that both give the same fibre dimensions (ReLU, spec §2.2 architecture 4-8-8-2) before
timing anything, then writes results/bench/equivariance_jacobian.json with both medians and
their ratio.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.equivariance import dimension, naive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--points", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    widths = [4, 8, 8, 2]
    rng = np.random.default_rng(0)
    P = dimension.random_params(widths, args.draws, rng)
    X = 4.0 * rng.normal(size=(args.points, widths[0]))
    runs = {"naive": lambda: naive.fibre_dimensions(widths, "relu", P, X),
            "fast": lambda: dimension.fibre_dimensions(widths, "relu", P, X)}
    benchmark.compare("equivariance_jacobian",
                      "equivariance Jacobian-rank fibre dimension, ReLU 4-8-8-2",
                      runs, lambda a, b: a.tolist() == b.tolist(), args.repeats,
                      draws=args.draws, points=args.points)

if __name__ == "__main__":
    main()
