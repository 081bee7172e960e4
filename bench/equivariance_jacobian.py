"""Benchmark: batched analytic Jacobian-rank fibre dimensions against per-draw torch autograd,
over the hidden width and over the number of sample points.

    python bench/equivariance_jacobian.py [--widths 4 8 16 32 64] [--points 25 50 ... 1600]
        [--draws 8] [--repeats 3] [--cap 3.0]

ReLU networks 4-w-w-2 (spec §2.2; the notebooks use w = 8). `naive` is
`naive.fibre_dimensions`: torch.autograd.functional.jacobian per parameter draw, which
back-propagates once per output row, then svdvals; `fast` is `dimension.fibre_dimensions`:
the identity back-propagated through the layers for all draws and points at once (numpy), then
one batched SVD. Both must give the same fibre dimensions at every size before anything is
timed. Curve `width`: w over --widths at 200 points; curve `points`: N over --points at w = 8.

The bound. With P parameters, N points and o = 2 outputs the Jacobian is (N o, P) per draw:
the fast side must write it (8 N o P bytes) and spends about 2 N S (forward) + 3 N o S
(backward and outer products) flops on it, S = sum of d_in d_out over the layers; the SVD of
an (m, k) matrix, m >= k, costs about 4 m k^2 - 4/3 k^3 flops (singular values only). The naive
side does the same SVD but N o backward passes over all N points: about 4 N^2 o S flops. Its
time still grows about as N, not N^2, at these sizes: each backward pass costs ~0.3 ms of graph
traversal and dispatch against a few microseconds of arithmetic (at w = 8, N = 800), so what
the ratio measures is N o passes of overhead against one vectorised pass.
Writes results/bench/equivariance_jacobian.json.
"""
from __future__ import annotations

import argparse

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from lib.companion import benchmark
from lib.equivariance import dimension, naive

OUT = 2


def architecture(w: int) -> list[int]:
    return [4, w, w, OUT]


def svd_flops(m: int, k: int) -> float:
    """Singular values of an (m, k) matrix (Golub-Van Loan, bidiagonalisation dominates)."""
    m, k = max(m, k), min(m, k)
    return 4 * m * k * k - 4 * k ** 3 / 3


def work(widths: list[int], points: int, draws: int, side: str) -> benchmark.Bound:
    """Flops and Jacobian bytes of one run (module docstring)."""
    S = sum(a * b for a, b in zip(widths[:-1], widths[1:]))
    P = dimension.count_params(widths)
    rows = points * OUT
    jac = 2 * points * S + 3 * rows * S if side == "fast" else 4 * points * rows * S
    return benchmark.Bound(flops=draws * (jac + svd_flops(rows, P)), bytes=draws * 8 * rows * P)


def prepare_for(draws: int, make) -> callable:
    """prepare(size) for one axis; `make(size)` gives (widths, points) at that size."""
    def prepare(size: int) -> dict:
        widths, points = make(size)
        rng = np.random.default_rng(0)
        P = dimension.random_params(widths, draws, rng)
        X = 4.0 * rng.normal(size=(points, widths[0]))
        return {"naive": lambda: naive.fibre_dimensions(widths, "relu", P, X),
                "fast": lambda: dimension.fibre_dimensions(widths, "relu", P, X)}
    return prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    parser.add_argument("--points", type=int, nargs="+",
                        default=[25, 50, 100, 200, 400, 800, 1600])
    parser.add_argument("--draws", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=3.0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    def agree(a, b) -> bool:
        return a.tolist() == b.tolist()

    with threadpool_limits(1):
        curves = {
            "width": benchmark.curve(
                "width", args.widths, prepare_for(args.draws, lambda w: (architecture(w), 200)),
                agree, repeats=args.repeats, cap_s=args.cap, label="width",
                bound=lambda w, side: work(architecture(w), 200, args.draws, side)),
            "points": benchmark.curve(
                "points", args.points, prepare_for(args.draws, lambda n: (architecture(8), n)),
                agree, repeats=args.repeats, cap_s=args.cap, label="points",
                bound=lambda n, side: work(architecture(8), n, args.draws, side))}
    benchmark.write_curves(
        "equivariance_jacobian", "equivariance Jacobian-rank fibre dimension, ReLU 4-w-w-2",
        "Jacobian assembly (fast ~ (2 + 3 o) N S flops, naive ~ 4 N^2 o S: one backward per "
        "output row) plus the SVD (4 m k^2 - 4/3 k^3), and the Jacobian written once (8 N o P "
        "bytes), per draw, at this machine's one-thread GEMM rate and copy bandwidth", curves,
        draws=args.draws, activation="relu", width_curve_points=200, points_curve_width=8)


if __name__ == "__main__":
    main()
