"""Benchmark: the masked batched bench training against training each MLP alone (spec §4, §6).

    python bench/ptnas_masked_training.py [--archs 31] [--epochs 2] [--repeats 3]

On digits, a spread of architectures from the default space (depth 1-3, widths 8-128):
`naive.train_separate` (one nn.Sequential at a time) against `bench.train_masked` (padded groups,
one Adam), same seeds and batches. Checks that the test logits agree (atol 1e-5) before timing;
writes results/bench/ptnas_masked_training.json.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.ptnas import bench, data, naive, space


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--archs", type=int, default=31)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    split = data.load_split("digits", 0)
    pool = space.enumerate_space([8, 16, 32, 64, 128], 1, 3)
    archs = [pool[int(i)] for i in np.linspace(0, len(pool) - 1, args.archs)]
    pads = [16, 32, 64, 128]
    runs = {"separate": lambda: torch.stack(naive.train_separate(archs, split, 0, args.epochs,
                                                                 64, 1e-3)),
            "masked": lambda: bench.train_masked(archs, split, 0, (args.epochs,), 64, 1e-3,
                                                 pads).test_logits}
    benchmark.compare("ptnas_masked_training", "ptnas bench training, one MLP at a time vs "
                      "masked batched groups", runs,
                      lambda a, b: bool((a - b).abs().max() <= 1e-5), args.repeats,
                      archs=len(archs), epochs=args.epochs, dataset="digits")


if __name__ == "__main__":
    main()
