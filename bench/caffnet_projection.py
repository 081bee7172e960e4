"""Benchmark: the batched CAffine layer against the per-instance loop (spec §4, §6).

    python bench/caffnet_projection.py [--instances 40] [--repeats 3]

On the over-complete (m = 8, n = 3) and the equalities-as-pairs (m = 11, n = 5) families of
spec §3.1, with input-dependent A: `naive.caffine_project` (a loop over instances and subsets,
scipy lstsq + null_space) against `projection.caffine_project` (one batched pinv per subset size).
Checks that the two agree (atol 1e-10) before timing; writes results/bench/caffnet_projection.json.
"""
import argparse

import numpy as np
import torch

from lib.caffnet import naive, problems, projection
from lib.companion import benchmark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    out = {"kernel": "caffnet CAffine layer, per-instance loop vs batched",
           "instances": args.instances, "repeats": args.repeats, "families": {}}
    for family in ("over_complete", "equality_pairs"):
        A, b, f, w = problems.family_instances(family, args.instances, np.random.default_rng(0))
        t = [torch.as_tensor(a) for a in (f, w, A, b)]
        runs = {"loop": lambda: naive.caffine_project(f, w, A, b),
                "batched": lambda: projection.caffine_project(*t).y.numpy()}
        if not np.abs(runs["loop"]() - runs["batched"]()).max() <= 1e-10:
            raise SystemExit(f"{family}: loop and batched disagree: not timing a wrong kernel")
        med = benchmark.median_times(runs, args.repeats)
        out["families"][family] = {"m": A.shape[1], "n": A.shape[2], "median_s": med,
                                   "ratio_loop_over_batched": med["loop"] / med["batched"]}
        print(f"{family}: loop {med['loop']:.3f} s, batched {med['batched']:.3f} s, "
              f"ratio {med['loop'] / med['batched']:.1f}x")
    print(f"-> {benchmark.write('caffnet_projection', out)}")

if __name__ == "__main__":
    main()
