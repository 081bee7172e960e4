"""Benchmark: batched per-point Jacobian + LM step against autograd per sample (spec §4, §6).

    python bench/tinn_lm_step.py [--rows 600] [--repeats 3]

TINN at the default size (413 parameters) on Burgers. The fast kernel builds the whole Jacobian
with one backward pass into per-point weight copies and solves the damped normal equations by
Cholesky; the reference loops one autograd backward per residual row, then solves the same
system densely (numpy.linalg.solve). Both steps must agree (relative 1e-9) before timing.
The torch.func route (vmap of jacrev with nested grad) is timed alongside for information.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.tinn import lm, models, naive, residuals

NU = 0.01 / np.pi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=600, help="collocation points")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = models.make_tinn([1, 8, 8, 5], [1, 10, 10, 1])
    theta = model.init(0) + 0.1 * torch.as_tensor(
        np.random.default_rng(1).standard_normal(model.size))
    pts = residuals.sample_points(np.random.default_rng(0), args.rows, args.rows // 10,
                                  args.rows // 20)
    mu = 1e-3

    def per_sample():
        r, jac = naive.jacobian_loop(model, theta, pts, NU, 2.0, 1.0)
        return naive.lm_step_dense(jac.numpy(), r.numpy(), mu)

    def batched():
        r, jac = residuals.residual_and_jacobian(model, theta, pts, NU, 2.0, 1.0)
        return lm.lm_step(jac, r, mu).numpy()

    def agree(a, b):
        return bool(np.linalg.norm(a - b) <= 1e-9 * np.linalg.norm(a))

    out = benchmark.compare("tinn_lm_step", "tinn Jacobian + LM step, autograd per sample vs "
                            "batched", {"per_sample": per_sample, "batched": batched}, agree,
                            args.repeats, rows=pts.rows, params=model.size)
    func = benchmark.median_times(
        {"torch_func": lambda: naive.jacobian_func(model, theta, pts.xr, pts.tr, NU)}, 1)
    print(out)
    print(f"torch.func vmap(jacrev) Jacobian of the {args.rows} PDE rows only: "
          f"{func['torch_func']:.3f} s")


if __name__ == "__main__":
    main()
