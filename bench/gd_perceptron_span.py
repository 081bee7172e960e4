"""Benchmark: span-reduced quadratic GP against the full-dimensional torch run, same seeds.

    python bench/gd_perceptron_span.py [--d 1024] [--seeds 50] [--repeats 3]

Checks that both give the same iteration counts before timing anything, then writes
results/bench/gd_perceptron_span.json with both medians and their ratio.
"""
import argparse

import torch

from lib.companion import benchmark
from lib.gd_perceptron import datasets, dynamics, models, span, speedup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--d", type=int, default=1024)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--c", type=float, default=0.1)
    args = parser.parse_args()
    B, y = datasets.dataset_a(args.d)
    W0 = torch.randn(args.seeds, 2, args.d, generator=torch.Generator().manual_seed(0),
                     dtype=torch.float64)
    Q, Br = span.reduce(B)
    model, eta = models.make_model("two_layer", 2), speedup.eta_from_c(args.c, B)
    yt = torch.as_tensor(y, dtype=torch.float64)
    runs = {"full": lambda: dynamics.iterations(model, torch.as_tensor(B, dtype=torch.float64), yt,
                                                W0, eta, max_iter=100_000),
            "span": lambda: dynamics.iterations(model, torch.as_tensor(Br), yt,
                                                span.in_plane(W0, Q), eta, max_iter=100_000)}
    benchmark.compare("gd_perceptron_span", "gd_perceptron quadratic GP, span vs full d", runs,
                      lambda a, b: a.iterations.tolist() == b.iterations.tolist(), args.repeats,
                      d=args.d, seeds=args.seeds, c=args.c)

if __name__ == "__main__":
    main()
