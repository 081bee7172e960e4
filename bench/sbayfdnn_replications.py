"""Benchmark: the vmap-batched MAP fit of every replication and restart against a plain loop over
them (spec §4, §6; the issue's sBayFDNN kernel).

    python bench/sbayfdnn_replications.py [--models 18] [--n 400] [--steps 30] [--repeats 3]

The batch of notebook 02's default profile (3 links x 3 replications x 2 restarts of sBayFDNN,
then 9 FDNN fits: 27 models on 400 curves, J = 24, network 24 -> 64 -> 32 -> 1) on simulated
scores: `naive.fit_map` (one model, one Adam at a time) against `model.fit_map` (torch.func.vmap
over the stacked models). Both run in float64, where they agree to rounding (checked, atol 1e-8)
before timing; a float32 pair is timed too, as the notebooks fit in float32 (there the two
orders of summation drift apart over the steps, so only float64 is compared).
Writes results/bench/sbayfdnn_replications.json.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.sbayfdnn import data, model, naive

SPEC = model.PriorSpec(lam=1e-5, s0=1e-5, s1=2e-3, gauss_var=2e-3)


def problem(models: int, n: int, dtype: torch.dtype):
    """Stacked scores and responses of `models` simulated replications (sin link, SNR 5)."""
    reps = [data.replication(n, 10, data.seed_rng(0, b), "sin", (0.2, 0.4), 5.0, 101, 20, 24, 3)
            for b in range(models)]
    Z = torch.tensor(np.stack([r.Z for r in reps]), dtype=dtype)      # (B, n, J)
    y = torch.tensor(np.stack([r.y for r in reps]), dtype=dtype)      # (B, n)
    init = model.init_params(models, 24, 64, 32, torch.Generator().manual_seed(0), dtype)
    priors = ["ss"] * (2 * models // 3) + ["gauss"] * (models - 2 * models // 3)
    return Z, y, priors, init


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, default=27)
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    out = {"kernel": "sbayfdnn MAP fits of every replication and restart, plain loop vs "
                     "torch.func.vmap", "models": args.models, "n": args.n, "steps": args.steps,
           "repeats": args.repeats}
    for name, dtype in (("float64", torch.float64), ("float32", torch.float32)):
        Z, y, priors, init = problem(args.models, args.n, dtype)
        runs = {"loop": lambda: naive.fit_map(Z, y, priors, init, SPEC, args.steps, 3e-3)[0],
                "vmap": lambda: model.fit_map(Z, y, priors, init, SPEC, args.steps, 3e-3).params}
        if dtype == torch.float64:
            ref, fast = runs["loop"](), runs["vmap"]()
            if max(float((ref[k] - fast[k]).abs().max()) for k in ref) > 1e-8:
                raise SystemExit("loop and vmap disagree in float64: not timing a wrong kernel")
        med = benchmark.median_times(runs, args.repeats)
        out[name] = {"median_s": med, "ratio_loop_over_vmap": med["loop"] / med["vmap"]}
        print(f"{name}: loop {med['loop']:.2f} s, vmap {med['vmap']:.2f} s, ratio "
              f"{med['loop'] / med['vmap']:.2f}x")
    print(f"-> {benchmark.write('sbayfdnn_replications', out)}")


if __name__ == "__main__":
    main()
