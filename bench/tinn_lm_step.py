"""Benchmark: batched per-point Jacobian + LM step against autograd per sample (spec §4, §6), as a
cost curve over the number of collocation points, with the torch.func route as a third side.

    python bench/tinn_lm_step.py [--points 20 40 ... 5120] [--repeats 3] [--cap 2.0]

TINN at the default size (P = 413 parameters) on Burgers, with N collocation points, N // 10
initial and N // 20 boundary points on each side: R = 1.2 N residual rows. "per_sample"
(`naive.jacobian_loop` + `naive.lm_step_dense`): one autograd backward per residual row, then
the damped normal equations by numpy.linalg.solve. "batched" (`residuals.residual_and_jacobian`
+ `lm.lm_step`): one backward pass into per-row copies of theta, then Cholesky. "torch_func":
the PDE rows by `naive.jacobian_func` (vmap of jacrev of nested torch.func.grad), the initial and
boundary rows by vmap of jacrev of u, scaled as the residual is, then `lm.lm_step`. At every size
the live sides' steps must agree with the first (relative 1e-9, float64) before anything is
timed; glibc's fastbins are off (`benchmark.no_fastbins`) so that no side pays for another's frees.
Writes results/bench/tinn_lm_step.json.

Bound (float64, one thread; F = 830 flops, one forward of the per-point TINN, a backward counted
at twice its forward): a PDE row costs ~9 F for u, u_x, u_t, u_xx and ~18 F more for its
Jacobian row, an initial or boundary row 3 F; the LM step adds J^T J, 2 R P^2 flops (most of the
work from a few hundred rows on), the solve, P^3 / 3 (Cholesky) or 2 P^3 / 3 (LU), and J^T r,
2 R P. per_sample builds the residual graph once (~9 F per PDE row) and then walks all of it once
per row: R (18 F N + 2 F (R - N)) flops, quadratic in N. Bytes, all sides: the (R, P) Jacobian
written and read a few times, 32 R P. Against the machine's one-thread float64 GEMM rate and
copy bandwidth. per_sample runs at ~1/100 of its bound: each of its R backward passes walks the
~420 nodes of the whole graph (graph_nodes in the JSON) one by one, ~20 us a node at 384 rows,
so per-node dispatch on thin tensors, not the arithmetic, sets its time (its exponent climbs
towards 2). batched reaches ~1/10 of its bound and torch_func ~1/30, both linear in N.
"""
import argparse
from typing import Callable

import numpy as np
import torch
from torch.func import jacrev, vmap

from lib.companion import benchmark
from lib.tinn import lm, models, naive, residuals

NU = 0.01 / np.pi
LAM_IC, LAM_BC, MU = 2.0, 1.0, 1e-3
F = 830              # flops of one forward of the per-point TINN [1, 8, 8, 5] x [1, 10, 10, 1]
BOUND = ("R = N + N // 10 + 2 (N // 20) rows, P = 413, F = 830 (one per-point forward); batched "
         "and torch_func: 27 F per PDE row + 3 F per initial/boundary row + 2 R P^2 (J^T J) + "
         "P^3 / 3 + 2 R P flops; per_sample: 9 F N + R (18 F N + 2 F (R - N)) + 2 R P^2 + "
         "2 P^3 / 3 + 2 R P flops (one backward over the whole graph per row); 32 R P bytes "
         "for all; against one thread's float64 GEMM rate and copy bandwidth")



def points(n: int) -> residuals.Points:
    """N collocation, N // 10 initial and N // 20 boundary points (the old benchmark's mix)."""
    return residuals.sample_points(np.random.default_rng(n), n, n // 10, n // 20)


def bound(params: int) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of each side at N collocation points."""
    def work(n: int, side: str) -> benchmark.Bound:
        rows = points(n).rows
        edge = rows - n
        solve = 2 * rows * params ** 2 + 2 * rows * params
        if side == "per_sample":
            flops = 9 * F * n + rows * (18 * F * n + 2 * F * edge) + solve + 2 * params ** 3 / 3
        else:
            flops = 27 * F * n + 3 * F * edge + solve + params ** 3 / 3
        return benchmark.Bound(flops=flops, bytes=32 * rows * params)
    return work


def func_jacobian(model: models.Model, theta: torch.Tensor, pts: residuals.Points
                  ) -> torch.Tensor:
    """The (R, P) Jacobian of the stacked residual by torch.func, scaled as `residuals.residual`
    scales its groups."""
    def u_rows(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        def u(th, a, b):
            return model.u(th, a.reshape(1), b.reshape(1))[0]
        return vmap(jacrev(u), in_dims=(None, 0, 0))(theta, x, t)

    nr, n0, nb = pts.xr.numel(), pts.x0.numel(), pts.tb.numel()
    pde = naive.jacobian_func(model, theta, pts.xr, pts.tr, NU) / np.sqrt(nr)
    ic = u_rows(pts.x0, torch.zeros_like(pts.x0)) * (LAM_IC / np.sqrt(n0))
    xb = torch.cat([-torch.ones_like(pts.tb), torch.ones_like(pts.tb)])
    bc = u_rows(xb, torch.cat([pts.tb, pts.tb])) * (LAM_BC / np.sqrt(2 * nb))
    return torch.cat([pde, ic, bc])


def graph_nodes(model: models.Model, theta: torch.Tensor, pts: residuals.Points) -> int:
    """Autograd nodes of the residual graph that per_sample walks once per row."""
    r = residuals.residual(model, theta.detach().clone().requires_grad_(), pts, NU, LAM_IC,
                           LAM_BC)
    seen, stack = set(), [r.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, nargs="+", default=[20 * 2 ** k for k in range(9)],
                        help="collocation points N, at least 20 (the axis)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    if min(args.points) < 20:
        parser.error(f"--points {min(args.points)}: at least 20, for one boundary point a side")
    torch.set_num_threads(1)
    model = models.make_tinn([1, 8, 8, 5], [1, 10, 10, 1])
    theta = model.init(0) + 0.1 * torch.as_tensor(
        np.random.default_rng(1).standard_normal(model.size))

    def prepare(n: int) -> dict[str, benchmark.Run]:
        pts = points(n)

        def per_sample() -> np.ndarray:
            r, jac = naive.jacobian_loop(model, theta, pts, NU, LAM_IC, LAM_BC)
            return naive.lm_step_dense(jac.numpy(), r.numpy(), MU)

        def batched() -> np.ndarray:
            r, jac = residuals.residual_and_jacobian(model, theta, pts, NU, LAM_IC, LAM_BC)
            return lm.lm_step(jac, r, MU).numpy()

        def torch_func() -> np.ndarray:
            r = residuals.residual(model, theta.detach(), pts, NU, LAM_IC, LAM_BC).detach()
            return lm.lm_step(func_jacobian(model, theta.detach(), pts), r, MU).numpy()
        return {"per_sample": per_sample, "batched": batched, "torch_func": torch_func}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.linalg.norm(a - b) <= 1e-9 * np.linalg.norm(a))

    curve = benchmark.curve("points", args.points, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound(model.size), label="lm_step")
    benchmark.write_curves("tinn_lm_step", "tinn Jacobian + LM step: autograd per sample, "
                           "batched per-row copies, torch.func", BOUND, {"lm_step": curve},
                           params=model.size,
                           rows={n: points(n).rows for n in args.points},
                           graph_nodes=graph_nodes(model, theta, points(min(args.points))))


if __name__ == "__main__":
    main()
