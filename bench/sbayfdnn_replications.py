"""Benchmark: the vmap-batched MAP fit of every replication and restart against a plain loop over
them (spec §4, §6; the issue's sBayFDNN kernel), as cost curves over the number of models.

    python bench/sbayfdnn_replications.py [--models 1 2 4 ... 64] [--n 400] [--steps 30]
                                          [--repeats 3] [--cap 1.5]

B models (two thirds sBayFDNN, one third FDNN) fitted on B simulated replications (sin link,
SNR 5; n = 400 curves, J = 24 scores, network 24 -> 64 -> 32 -> 1), as each sweep run batches its
fits (notebook 02: one link's 9 by default, 3 replications x (2 sBayFDNN restarts + 1 FDNN);
notebook 03: one (n, SNR)'s 20, 10 replications x 2 restarts): `naive.fit_map` ("loop", one
model, one Adam at a time) against `model.fit_map` ("vmap", torch.func.vmap over the stacked
models). Two curves: float64, where the two agree to
rounding (checked at every size, atol 1e-8) before timing, and float32, as the notebooks fit;
there the two orders of summation drift apart (about 1e-7 after the default 30 steps), so it is
checked only as a guard against a wrong kernel (atol 1e-4). Both sides run once before the
curves (the first optimizer imports torch._dynamo, ~2-3 s), and glibc's fastbins are off
(`benchmark.no_fastbins`) so that neither side pays for the other's frees.
Writes results/bench/sbayfdnn_replications.json.

Bound (one thread, S steps, P = 3713 parameters per model): each full-batch step of one model is
6 n (J W + W H + H) flops (forward 2, backward 4 per multiply-add) and moves, in elements of the
dtype, 7 P for Adam (weights, gradients and both moments read, three written), 4 n (W + H) for
the activations saved and their gradients, and n J for the scores: both sides, times B S, plus
one forward for the final training MSE. Flops are read against the machine's one-thread GEMM
rate in the curve's dtype (`benchmark.machine`'s gemm_flops_per_s or gemm32_flops_per_s),
bytes against its copy bandwidth.
The loop holds at ~1/10 to 1/20 of its bound at every size: it pays per-op dispatch on every
model and step, on 400 x 64 matrices. The vmap side pays dispatch once per step for all models,
so its fraction climbs with B, to about 1/4 to 1/6 (float64) and 1/3 (float32) at 32-64 models,
where the batched GEMMs and Adam's memory traffic dominate. Timings on this shared 2-core
machine move by up to 2x between runs, and so does its measured GEMM rate.
"""
import argparse
from functools import cache
from typing import Callable

import numpy as np
import torch

from lib.companion import benchmark
from lib.sbayfdnn import data, model, naive

SPEC = model.PriorSpec(lam=1e-5, s0=1e-5, s1=2e-3, gauss_var=2e-3)
J, W, H, LR = 24, 64, 32, 3e-3
DTYPES = {"float64": (torch.float64, 1e-8), "float32": (torch.float32, 1e-4)}  # dtype, atol
BOUND = ("both sides, per model and step: 6 n (J W + W H + H) flops and (7 P + 4 n (W + H) + n J) "
         "elements moved (Adam state, saved activations and their gradients, the scores), times "
         "B models and S steps, plus one forward for the training MSE; n = 400, J = 24, W = 64, "
         "H = 32, P = 3713; flops against one thread's GEMM rate in the curve's dtype (float32: "
         "gemm32_flops_per_s), bytes against its copy bandwidth")





@cache
def replication(b: int, n: int) -> data.Replication:
    """Simulated replication b (sin link, SNR 5), shared by every size and dtype."""
    return data.replication(n, 10, data.seed_rng(0, b), "sin", (0.2, 0.4), 5.0, 101, 20, J, 3)


def problem(models: int, n: int, dtype: torch.dtype):
    """Stacked scores, responses, priors and initial parameters of `models` replications."""
    reps = [replication(b, n) for b in range(models)]
    Z = torch.tensor(np.stack([r.Z for r in reps]), dtype=dtype)      # (B, n, J)
    y = torch.tensor(np.stack([r.y for r in reps]), dtype=dtype)      # (B, n)
    init = model.init_params(models, J, W, H, torch.Generator().manual_seed(0), dtype)
    priors = ["ss"] * (2 * models // 3) + ["gauss"] * (models - 2 * models // 3)
    return Z, y, priors, init


def bound(n: int, steps: int, dtype: torch.dtype) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of either side on B models, in `dtype`."""
    itemsize = torch.finfo(dtype).bits // 8
    params = W * J + W + H * W + H + H + 1
    macs = J * W + W * H + H

    def work(models: int, side: str) -> benchmark.Bound:
        flops = models * (steps * 6 + 2) * n * macs
        elements = models * steps * (7 * params + 4 * n * (W + H) + n * J)
        return benchmark.Bound(flops=flops, bytes=itemsize * elements,
                               dtype=str(dtype).removeprefix("torch."))
    return work


def dtype_curve(name: str, sizes: list[int], args: argparse.Namespace) -> dict:
    """The curve of one dtype over the number of models."""
    dtype, atol = DTYPES[name]

    def prepare(models: int) -> dict[str, benchmark.Run]:
        Z, y, priors, init = problem(models, args.n, dtype)
        return {"loop": lambda: naive.fit_map(Z, y, priors, init, SPEC, args.steps, LR)[0],
                "vmap": lambda: model.fit_map(Z, y, priors, init, SPEC, args.steps, LR).params}

    def agree(a: dict, b: dict) -> bool:
        return max(float((a[k] - b[k]).abs().max()) for k in a) <= atol

    for run in prepare(1).values():          # the first optimizer imports torch._dynamo
        run()
    return benchmark.curve("models", sizes, prepare, agree, repeats=args.repeats, cap_s=args.cap,
                           bound=bound(args.n, args.steps, dtype),
                           label=name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, nargs="+", default=[2 ** k for k in range(7)],
                        help="number of models fitted (the axis)")
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=1.5, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    curves = {name: dtype_curve(name, args.models, args) for name in DTYPES}
    benchmark.write_curves("sbayfdnn_replications", "sbayfdnn MAP fits of every replication and "
                           "restart, plain loop vs torch.func.vmap", BOUND, curves, n=args.n,
                           steps=args.steps, agreement_atol={k: v[1] for k, v in DTYPES.items()})


if __name__ == "__main__":
    main()
