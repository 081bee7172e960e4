"""Benchmark: the masked batched bench training against training each MLP alone (spec §4, §6), as
a cost curve over the number of architectures.

    python bench/ptnas_masked_training.py [--archs 1 2 4 ... 128] [--epochs 2] [--repeats 3]
                                          [--cap 2.0]

On digits (1078 training rows, 64 features, 10 classes, batches of 64), A architectures spread
evenly over the default space (depth 1-3, widths 8-128, 155 in all): `naive.train_separate`
("separate", one nn.Sequential and one Adam at a time) against `bench.train_masked` ("masked",
nets of one depth and padded widths stacked into groups, one Adam), same seeds and batches. At
every size where both run the test logits must agree (atol 1e-5, float32) before anything is
timed. Both sides are run once on one architecture before the curve (torch's first optimizer
imports torch._dynamo, ~2-3 s once, which would cap the first size), and glibc's fastbins are
off (`benchmark.no_fastbins`) so that neither side pays for the other's frees.
Writes results/bench/ptnas_masked_training.json.

Bound (float32, one thread; E epochs over n = 1078 rows): training costs 6 flops per multiply-add of
each layer per row (forward 2, backward 4), evaluation 2. For "separate", sum over the A nets of 6 E
n P_a + 2 n_test P_a flops, P_a = sum_l fan_in_l fan_out_l of the real widths; for "masked" the same
with the padded widths of each net's group (the padding is computed too), plus its validation pass,
2 (n_val + n_test) P_a. Bytes: each Adam step reads weights, gradients and both moments and writes
three of them, 28 bytes per parameter, over E ceil(n / 64) steps. Flops are read against the
machine's one-thread float32 GEMM rate (`benchmark.machine`'s gemm32_flops_per_s), bytes against its
copy bandwidth. Both sides run at 1/15 to 1/50 of their bound (the one-layer width-8 net alone at
~1/300): the matrices are 64 rows by at most 128 columns, so per-op dispatch of the forward,
backward and Adam ops of each net (separate) or each group (masked) weighs as much as the
arithmetic. Architectures spread over the space fall into many groups (written as groups: 15 for 16
nets, 47 for 64, 76 for 128), so masked training batches few nets per group and gains at most about
2x."""
import argparse
import math
from typing import Callable

import numpy as np
import torch

from lib.companion import benchmark
from lib.ptnas import bench, data, naive, space

WIDTHS, DEPTHS, PADS = [8, 16, 32, 64, 128], (1, 3), [16, 32, 64, 128]
BATCH, LR = 64, 1e-3
BOUND = ("separate: sum over nets of 6 E n P + 2 n_test P flops (P = sum of fan_in fan_out over "
         "layers, real widths); masked: the same with padded widths plus 2 n_val P for its "
         "validation pass; bytes 28 per parameter per Adam step, E ceil(n / 64) steps; E epochs, "
         "n = 1078 training rows; flops against one thread's float32 GEMM rate "
         "(gemm32_flops_per_s), bytes against its copy bandwidth")





def spread(pool: list[space.Arch], count: int) -> list[space.Arch]:
    """`count` architectures evenly spaced over the pool (depth 1 first, the pool's order)."""
    return [pool[int(i)] for i in np.linspace(0, len(pool) - 1, count)]


def bound(pool: list[space.Arch], split: data.Split, epochs: int
          ) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of each side on the first `count` spread architectures (float32)."""
    n, d_in, d_out = len(split.y_train), split.d_in, split.n_classes
    steps = epochs * math.ceil(n / BATCH)

    def macs(widths: tuple[int, ...]) -> int:
        sizes = (d_in, *widths, d_out)
        return sum(a * b for a, b in zip(sizes[:-1], sizes[1:]))

    def work(count: int, side: str) -> benchmark.Bound:
        archs = spread(pool, count)
        if side == "separate":
            flops = sum((6 * epochs * n + 2 * len(split.y_test)) * macs(a) for a in archs)
            params = sum(space.n_params(a, d_in, d_out) for a in archs)
        else:
            padded = [tuple(bench.pad_width(w, PADS) for w in a) for a in archs]
            evals = len(split.y_val) + len(split.y_test)
            flops = sum((6 * epochs * n + 2 * evals) * macs(p) for p in padded)
            params = sum(space.n_params(p, d_in, d_out) for p in padded)
        return benchmark.Bound(flops=flops, bytes=28 * params * steps, dtype="float32")
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--archs", type=int, nargs="+", default=[2 ** k for k in range(8)],
                        help="number of architectures (the axis)")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    split = data.load_split("digits", 0)
    pool = space.enumerate_space(WIDTHS, *DEPTHS)

    def prepare(count: int) -> dict[str, benchmark.Run]:
        archs = spread(pool, count)
        return {"separate": lambda: torch.stack(naive.train_separate(archs, split, 0, args.epochs,
                                                                     BATCH, LR)),
                "masked": lambda: bench.train_masked(archs, split, 0, (args.epochs,), BATCH, LR,
                                                     PADS).test_logits}

    for run in prepare(1).values():         # torch's first optimizer imports torch._dynamo: untimed
        run()
    curve = benchmark.curve("archs", args.archs, prepare,
                            lambda a, b: bool((a - b).abs().max() <= 1e-5),
                            repeats=args.repeats, cap_s=args.cap,
                            bound=bound(pool, split, args.epochs), label="training")
    groups = {a: len(bench.build_groups(spread(pool, a), split.d_in, split.n_classes, 0, PADS))
              for a in args.archs}
    benchmark.write_curves("ptnas_masked_training", "ptnas bench training, one MLP at a time vs "
                           "masked batched groups", BOUND, {"training": curve},
                           epochs=args.epochs, dataset="digits", groups=groups)


if __name__ == "__main__":
    main()
