"""The mini NAS-bench: every architecture of the space trained at once as masked batched MLPs.

Architectures of one depth whose widths fall in the same padding bins share a zero-padded weight
stack (nets, fan_in_pad, fan_out_pad); a fixed unit mask keeps the padding at zero. Each net is
initialised at its true fan-in from its own generator (seeded by (seed, arch)), the loss is the
sum of the nets' mean cross-entropies and Adam is elementwise, so the stack trains every net
exactly as if it were trained alone on the same batches (spec §3, B1; naive.train_separate).
Initialisation as the release's MLP (src/search_space/nas_bench_mlp.py): kaiming_uniform_ weights
(bound sqrt(6 / fan_in)) and PyTorch's default bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
"""
from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from lib.ptnas.data import Split
from lib.ptnas.metrics import metric_rows
from lib.ptnas.space import Arch


def arch_seed(seed: int, arch: Arch) -> int:
    """The seed of one architecture's initial weights: the same in a group of one or of many."""
    return (seed * 1_000_003 + zlib.crc32(repr(tuple(arch)).encode())) % 2 ** 62


def init_weights(arch: Arch, d_in: int, d_out: int, seed: int) -> list[tuple[torch.Tensor,
                                                                            torch.Tensor]]:
    """(W (fan_in, fan_out), b (fan_out,)) per layer, float32, from the architecture's generator."""
    gen = torch.Generator().manual_seed(arch_seed(seed, arch))
    sizes = (d_in, *arch, d_out)
    layers = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        w = (torch.rand(fan_in, fan_out, generator=gen) * 2 - 1) * math.sqrt(6.0 / fan_in)
        b = (torch.rand(fan_out, generator=gen) * 2 - 1) / math.sqrt(fan_in)
        layers.append((w, b))
    return layers


def pad_width(width: int, pad_widths: Sequence[int]) -> int:
    """The smallest padding bin holding `width`."""
    for p in sorted(pad_widths):
        if width <= p:
            return p
    raise ValueError(f"width {width} exceeds every padding bin {list(pad_widths)}")


@dataclass
class Group:
    """Nets of one depth and one padded shape: stacked weights, biases and unit masks."""

    index: list[int]                 # positions of the group's nets in the bench order
    weights: list[torch.Tensor]      # per layer (nets, fan_in_pad, fan_out_pad)
    biases: list[torch.Tensor]       # per layer (nets, 1, fan_out_pad)
    masks: list[torch.Tensor]        # per hidden layer (nets, 1, fan_out_pad), 1 on real units

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits (nets, n, classes) of every net of the group on x (n, d_in)."""
        h = x.expand(len(self.index), *x.shape)                       # (nets, n, d_in)
        for w, b, m in zip(self.weights[:-1], self.biases[:-1], self.masks):
            h = torch.relu(torch.baddbmm(b, h, w)) * m                # (nets, n, width_pad)
        return torch.baddbmm(self.biases[-1], h, self.weights[-1])     # (nets, n, classes)


def build_groups(archs: Sequence[Arch], d_in: int, d_out: int, seed: int,
                 pad_widths: Sequence[int]) -> list[Group]:
    """Stack the nets into padded groups keyed by (depth, padded widths)."""
    keyed: dict[tuple[int, ...], list[int]] = {}
    for i, arch in enumerate(archs):
        keyed.setdefault(tuple(pad_width(w, pad_widths) for w in arch), []).append(i)
    groups = []
    for key, index in keyed.items():
        sizes = (d_in, *key, d_out)
        ws = [torch.zeros(len(index), a, b) for a, b in zip(sizes[:-1], sizes[1:])]
        bs = [torch.zeros(len(index), 1, b) for b in sizes[1:]]
        ms = [torch.zeros(len(index), 1, b) for b in key]
        for k, i in enumerate(index):
            for layer, (w, b) in enumerate(init_weights(archs[i], d_in, d_out, seed)):
                ws[layer][k, :w.shape[0], :w.shape[1]] = w
                bs[layer][k, 0, :b.shape[0]] = b
            for layer, width in enumerate(archs[i]):
                ms[layer][k, 0, :width] = 1.0
        for t in ws + bs:
            t.requires_grad_(True)
        groups.append(Group(index, ws, bs, ms))
    return groups


@dataclass(frozen=True)
class BenchResult:
    """Validation and test metric of every net after each recorded epoch."""

    epochs: tuple[int, ...]
    val: np.ndarray          # (archs, epochs)
    test: np.ndarray         # (archs, epochs)
    test_logits: torch.Tensor  # (archs, n_test, classes) after the last recorded epoch


def batches(n: int, batch: int, seed: int, epoch: int) -> list[torch.Tensor]:
    """The minibatch indices of one epoch: a permutation seeded by (seed, epoch), cut in order."""
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed * 7919 + epoch))
    return list(perm.split(batch))


def train_masked(archs: Sequence[Arch], split: Split, seed: int, epochs_record: Sequence[int],
                 batch: int, lr: float, pad_widths: Sequence[int]) -> BenchResult:
    """Train every architecture with Adam on `split` at once; record metrics at epochs_record.
    One sweep run of 02_minibench: plain arguments, its own generators, a picklable result."""
    groups = build_groups(archs, split.d_in, split.n_classes, seed, pad_widths)
    opt = torch.optim.Adam([t for g in groups for t in g.weights + g.biases], lr=lr)
    record = sorted(epochs_record)
    val = np.full((len(archs), len(record)), np.nan)
    test = np.full((len(archs), len(record)), np.nan)
    logits_test = torch.full((len(archs), len(split.y_test), split.n_classes), torch.nan)
    n = len(split.y_train)
    for epoch in range(1, record[-1] + 1):
        for idx in batches(n, batch, seed, epoch):
            xb, yb = split.x_train[idx], split.y_train[idx]
            loss = sum(F.cross_entropy(g.forward(xb).reshape(-1, split.n_classes),
                                       yb.repeat(len(g.index)), reduction="sum")
                       for g in groups) / len(idx)            # sum over nets of mean CE
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if epoch in record:
            e = record.index(epoch)
            with torch.no_grad():
                for g in groups:
                    val[g.index, e] = metric_rows(g.forward(split.x_val), split.y_val,
                                                  split.metric)
                    out = g.forward(split.x_test)
                    test[g.index, e] = metric_rows(out, split.y_test, split.metric)
                    logits_test[g.index] = out
    if not (np.isfinite(val).all() and np.isfinite(test).all()):
        raise FloatingPointError("a net's metric is missing or not finite")
    return BenchResult(tuple(record), val, test, logits_test)


# The bench as later notebooks read it: results/ptnas/tables/02_minibench/bench_<data set>.csv,
# one row per architecture in `enumerate_space` order, val_<e> / test_<e> per recorded epoch, and
# setup.csv, one row per data set with what a reader must reproduce (data split, initial weights).
SETUP_COLUMNS = ("dataset", "metric", "n_rows", "profile", "seed", "gt_epoch")


def arch_name(arch: Arch) -> str:
    """'64-32' for (64, 32): the bench table's architecture column."""
    return "-".join(map(str, arch))


def bench_table(archs: Sequence[Arch], result: BenchResult, n_par: Sequence[int]) -> pd.DataFrame:
    """One data set's bench: arch, depth, n_params and val_<e>, test_<e> per recorded epoch."""
    table = pd.DataFrame({"arch": [arch_name(a) for a in archs], "depth": [len(a) for a in archs],
                          "n_params": np.asarray(n_par)})
    for e, ep in enumerate(result.epochs):
        table[f"val_{ep}"], table[f"test_{ep}"] = result.val[:, e], result.test[:, e]
    return table


@dataclass(frozen=True)
class CachedBench:
    """A bench table read back: the same numbers as the BenchResult it was written from."""

    archs: list[Arch]
    n_params: np.ndarray     # (archs,) int
    epochs: tuple[int, ...]
    val: np.ndarray          # (archs, epochs) float64
    test: np.ndarray         # (archs, epochs) float64


def read_bench(path: Path) -> CachedBench:
    """Read a bench_<data set>.csv back exactly (pandas parses floats round-trip)."""
    table = pd.read_csv(path, dtype={"arch": str})
    epochs = tuple(int(c[4:]) for c in table.columns if c.startswith("val_"))
    if not epochs or any(f"test_{ep}" not in table for ep in epochs):
        raise ValueError(f"{path} is not a bench table: needs val_<e> and test_<e> columns")
    archs = [tuple(int(w) for w in s.split("-")) for s in table["arch"]]
    val = table[[f"val_{ep}" for ep in epochs]].to_numpy(dtype=np.float64)
    test = table[[f"test_{ep}" for ep in epochs]].to_numpy(dtype=np.float64)
    return CachedBench(archs, table["n_params"].to_numpy(), epochs, val, test)
