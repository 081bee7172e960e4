"""Benchmark: LRNN forward pass by Hillis-Steele scan against the sequential loop (spec §5, §7.1).

    python bench/linear_rnns_scan_forward.py [--T 256] [--batch 32] [--d 32] [--repeats 3]

For each recurrent LRNN family (diag_pos, diag_neg, pd, deltanet) checks that the scanned and
sequential forward passes agree (float32, atol 1e-3) before timing them, then writes
results/bench/linear_rnns_scan_forward.json with both medians and the ratio per family. On CPU
the ratio measures Python-loop overhead against extra arithmetic (the scan does O(T log T) work),
not circuit depth (spec §9.12).
"""
import argparse

import torch

from lib.companion import benchmark
from lib.linear_rnns import models


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--T", type=int, default=256)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--d", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    x = torch.randint(1, 5, (args.batch, args.T))
    out = {"kernel": "linear_rnns LRNN forward, scan vs sequential", "T": args.T,
           "batch": args.batch,
           "d": args.d, "repeats": args.repeats, "families": {}}
    for fam in ("diag_pos", "diag_neg", "pd", "deltanet"):
        m = models.SeqModel(fam, vocab=5, in_features=None, n_classes=2, d=args.d).eval()
        runs = {"sequential": lambda: m(x, parallel=False), "scan": lambda: m(x, parallel=True)}
        with torch.no_grad():
            if not torch.allclose(runs["sequential"](), runs["scan"](), atol=1e-3):
                raise SystemExit(f"{fam}: scan and sequential differ: not timing a wrong kernel")
            med = benchmark.median_times(runs, args.repeats)
        out["families"][fam] = {"median_s": med,
                                "ratio_sequential_over_scan": med["sequential"] / med["scan"]}
        print(f"{fam}: sequential {med['sequential']:.4f} s, scan {med['scan']:.4f} s, "
              f"ratio {med['sequential'] / med['scan']:.2f}x")
    target = benchmark.write("linear_rnns_scan_forward", out)
    print(f"-> {target}")


if __name__ == "__main__":
    main()
