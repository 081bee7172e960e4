"""Benchmark: the batched closed-form mean-field residual against finite differences of the
decoder, one task and one point at a time (spec §4 naive (b), §6).

    python bench/bsnp_residual.py [--tasks 16] [--points 32] [--repeats 3]

The physics term of every training step evaluates r(x) = -(a mu')' - f of the decoder's mean
field at n_r points of each task. `model.field_derivatives` + `physics.residual` does it for the
whole batch at once; `naive.batched_residual` uses nested central differences of an explicit-sum
decoder. Checks that the two agree (relative 1e-4, float64) before timing; writes
results/bench/bsnp_residual.json.
"""
import argparse

import numpy as np
import torch

from lib.bsnp import model, naive, physics
from lib.companion import benchmark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=16)
    parser.add_argument("--points", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes()).double()
    gen = torch.Generator().manual_seed(1)
    g = torch.randn(args.tasks, 32, 32, generator=gen, dtype=torch.float64)
    z = torch.randn(args.tasks, 16, generator=gen, dtype=torch.float64)
    x = torch.rand(args.tasks, args.points, generator=gen, dtype=torch.float64)
    lam = 4 * torch.rand(args.tasks, 2, generator=gen, dtype=torch.float64) - 2

    def fast() -> np.ndarray:
        with torch.no_grad():
            f = net.field_derivatives(g, z, x)
            return physics.residual(f["mu1"], f["mu2"], x, lam).numpy()

    runs = {"loop": lambda: naive.batched_residual(net, g, z, x.numpy(), lam.numpy()),
            "batched": fast}
    benchmark.compare("bsnp_residual", "bsnp mean-field residual: FD loop vs batched closed form",
                      runs, lambda a, b: np.abs(a - b).max() <= 1e-4 * np.abs(a).max(),
                      args.repeats, tasks=args.tasks, points=args.points)


if __name__ == "__main__":
    main()
