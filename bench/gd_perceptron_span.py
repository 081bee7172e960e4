"""Benchmark: the two-layer quadratic GP on data set A, run in the span of the data against the
full-dimensional run, as d grows; and the span run's cost per step as the seeds grow.

    python bench/gd_perceptron_span.py [--d-exps 4 6 ... 20] [--seeds 50] [--steps 200]
        [--seed-exps 0 2 ... 14] [--repeats 3] [--cap 2.0]

Curve `d`: at each d = 2^k, `full` runs `--steps` iterations of the GP (what
`dynamics.iterations` does per step: margins, the separation check, `dynamics.step`; c = 0.1,
m = 2) from W0 (R, 2, d); `span` runs the same steps from W0's in-plane coordinates in
r = rank B = 2 dims; `span_with_basis` pays for the basis as well (`span.reduce`: a QR of B^T,
O(n^2 d)), once per d. W0 has a random component
orthogonal to span{b_i}, which the full run must carry along without effect. Both must give
the same final margins (relative 1e-9, float64) wherever both run; the full run stops once a
point passes the cap. Curve `seeds`: the span run alone at d = 1024 over R seeds, which shows
what one step costs when there is almost no arithmetic in it.

The bound. One GP step does per seed, with m = 2 neurons and n = 2 points, 2mn k (project)
+ 2mn k (combine) + 9mn + 2mk flops for k = d (full) or r (span), and must at least read
theta and write it back (16 mk bytes) and read B (8 nk, shared by the seeds). At r = 2 that
is 90 flops per seed, ~70 ns for 50 seeds at one core's GEMM rate, against a measured step of
0.1-0.2 ms: the span step is bound by torch's per-op dispatch, not by arithmetic (the seeds
curve is flat until R ~ 10^3, where the arithmetic starts to count). The JSON's `dispatch` entry
counts the aten ops one iteration dispatches (`benchmark.aten_ops`: 50, down from 71 before the
margins of the separation check were reused and the output signs made once) and times one tiny
op of the same size, so ops x that time is the dispatch floor the span side is compared with.
Writes results/bench/gd_perceptron_span.json.
"""
from __future__ import annotations

import argparse
import statistics
from functools import cache

import torch

from lib.companion import benchmark
from lib.gd_perceptron import datasets, dynamics, models, span, speedup

M, N, C = 2, 2, 0.1


def one_iteration(model, B: torch.Tensor, y: torch.Tensor, theta: torch.Tensor, eta: float,
                  first: bool) -> torch.Tensor:
    """What `dynamics.iterations` does per step when no run finishes: the margins, the check
    that no run has separated, one GP step from those margins."""
    mg = dynamics.margins(model, theta, B, y)
    bool((mg > 0).all(dim=1).any())
    return dynamics.step(model, theta, B, y, eta, "gp", first=first, margin=mg)


def run_steps(model, B: torch.Tensor, y: torch.Tensor, theta: torch.Tensor, eta: float,
              steps: int) -> torch.Tensor:
    """`steps` iterations for every seed (the first with S(0) = 1/2); the final margins (R, n)."""
    for t in range(steps):
        theta = one_iteration(model, B, y, theta, eta, t == 0)
    return dynamics.margins(model, theta, B, y)


def flops(k: int, seeds: int) -> float:
    """One step's flops for all seeds in a k-dimensional parametrisation (docstring)."""
    return seeds * (4 * M * N * k + 9 * M * N + 2 * M * k)


def d_curve(exps: list[int], seeds: int, steps: int, repeats: int, cap: float) -> dict:
    model = models.make_model("two_layer", M)
    y = torch.tensor([1.0, -1.0], dtype=torch.float64)

    def prepare(d: int) -> dict:
        B, _ = datasets.dataset_a(d)
        eta = speedup.eta_from_c(C, B)
        Q, _ = span.reduce(B)
        gen = torch.Generator().manual_seed(0)
        Z = torch.randn(seeds, M, Q.shape[1], generator=gen, dtype=torch.float64)
        Bt = torch.as_tensor(B, dtype=torch.float64)

        @cache
        def w0() -> torch.Tensor:              # built only while the full side still runs
            Qt = torch.as_tensor(Q)
            G = torch.randn(seeds, M, d, generator=gen, dtype=torch.float64)
            return Z @ Qt.T + (G - (G @ Qt) @ Qt.T)

        Br = torch.as_tensor(span.reduce(B)[1])

        def with_basis():
            return run_steps(model, torch.as_tensor(span.reduce(B)[1]), y, Z, eta, steps)

        return {"full": lambda: run_steps(model, Bt, y, w0(), eta, steps),
                "span": lambda: run_steps(model, Br, y, Z, eta, steps),
                "span_with_basis": with_basis}

    def bound(d: int, side: str) -> benchmark.Bound:
        k = d if side == "full" else N
        work = benchmark.Bound(flops=steps * flops(k, seeds),
                               bytes=steps * (16 * M * k * seeds + 8 * N * k))
        if side == "span_with_basis":                  # Householder QR of the (d, 2) B^T
            work = benchmark.Bound(work.flops + 4 * N * N * d, work.bytes + 16 * N * d)
        return work

    def agree(a: torch.Tensor, b: torch.Tensor) -> bool:
        return bool(((a - b).abs() <= 1e-9 * a.abs().max()).all())

    return benchmark.curve("d", [2 ** k for k in exps], prepare, agree, repeats=repeats,
                           cap_s=cap, bound=bound, label="d")


def seeds_curve(exps: list[int], steps: int, repeats: int, cap: float, d: int = 1024) -> dict:
    model = models.make_model("two_layer", M)
    y = torch.tensor([1.0, -1.0], dtype=torch.float64)
    B, _ = datasets.dataset_a(d)
    eta = speedup.eta_from_c(C, B)
    Br = torch.as_tensor(span.reduce(B)[1])

    def prepare(R: int) -> dict:
        Z = torch.randn(R, M, N, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
        return {"span": lambda: run_steps(model, Br, y, Z, eta, steps)}

    def bound(R: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=steps * flops(N, R),
                               bytes=steps * (16 * M * N * R + 8 * N * N))

    return benchmark.curve("seeds", [2 ** k for k in exps], prepare, lambda a, b: True,
                           repeats=repeats, cap_s=cap, bound=bound, label="seeds")


def dispatch(seeds: int, d: int = 1024) -> dict:
    """Aten ops dispatched by one span iteration and the time of one tiny op of its size."""
    model = models.make_model("two_layer", M)
    B, y = datasets.dataset_a(d)
    Br = torch.as_tensor(span.reduce(B)[1])
    yt = torch.as_tensor(y, dtype=torch.float64)
    Z = torch.randn(seeds, M, N, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    eta = speedup.eta_from_c(C, B)
    ops = benchmark.aten_ops(lambda: one_iteration(model, Br, yt, Z, eta, False))
    tiny = benchmark.tiny_op_s((seeds, M, N), "float64")
    return {"ops_per_step": ops, "tiny_op_s": tiny, "dispatch_bound_step_s": ops * tiny}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--d-exps", type=int, nargs="+", default=list(range(4, 21, 2)))
    parser.add_argument("--seed-exps", type=int, nargs="+", default=list(range(0, 15, 2)))
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    curves = {"d": d_curve(args.d_exps, args.seeds, args.steps, args.repeats, args.cap),
              "seeds": seeds_curve(args.seed_exps, args.steps, args.repeats, args.cap)}
    disp = dispatch(args.seeds)
    step_s = statistics.median(curves["d"]["sides"]["span"]["median_s"]) / args.steps  # flat in d
    disp.update(measured_step_s=step_s, steps_per_s=1 / step_s,
                seed_steps_per_s=args.seeds / step_s)
    print(f"span step at R = {args.seeds}: {step_s * 1e6:.0f} us measured, "
          f"{disp['ops_per_step']} ops x {disp['tiny_op_s'] * 1e6:.1f} us = "
          f"{disp['dispatch_bound_step_s'] * 1e6:.0f} us dispatch bound; "
          f"{disp['seed_steps_per_s']:.3g} seed-steps/s")
    benchmark.write_curves(
        "gd_perceptron_span", "gd_perceptron quadratic GP on data set A, span vs full d",
        "flops per step 4mnk + 9mn + 2mk per seed (k = d full, r = 2 span; m = n = 2), theta "
        "read and written once (16 mk bytes per seed) and B read (8 nk), at this machine's "
        "one-thread GEMM rate and copy bandwidth; the span step is dispatch-bound (dispatch: "
        "aten ops per iteration x one tiny op's time)", curves,
        seeds=args.seeds, steps=args.steps, c=C, dispatch=disp)


if __name__ == "__main__":
    main()
