"""Accuracy per test length and per step of the trained models (issue 44; the authors' evaluation
scripts `imm_unbound/eval_by_T.py` and `imm_mod/eval_by_t.py` in GitHub hongjianjiang/LinearRNN,
read as the method reference).

- *Per length* (eval_by_T): the test bins pooled, each example bucketed by its size (the number of
  matrices T, or N for DGC: the target node's id, the last field of the string) and scored at its
  last position, as the bins are. Bin accuracy averages easy short and hard long examples; the
  curve shows where inside a bin a model stops generalising.
- *Per step* (eval_by_t): for tasks with a label at every position (imm_mod, imm_f2, imm_z_*, s5,
  parity), every supervised (example, t) pair of the pooled bins bucketed by its position t. Tasks
  with one label at the end (DGC, imm_z_paper) have no per-step curve: their one step is the length.

Every accuracy is a count k of n sampled test examples and carries its 95% Wilson interval
(`rates.wilson`). Models are the sweep's trained seeds, reloaded from their checkpoints.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import torch

from lib.linear_rnns import rates, seeds, sweep, tasks, train

_SEMI = 1 + tasks.DGC_CHARS.index(";")          # token id of ';'
_BIT = {1 + tasks.DGC_CHARS.index(c): int(c) for c in "01"}   # token id -> bit


def sizes(task: str, s: tasks.Split) -> np.ndarray:
    """(n,) each example's size: N (the target id after the last ';') for DGC, else its length T."""
    if task not in ("dgc", "dgc_paper"):
        return s.length.copy()
    out = np.empty(len(s.length), dtype=np.int64)
    for i, (row, n) in enumerate(zip(s.x, s.length)):
        row = row[:n]
        last = np.flatnonzero(row == _SEMI)[-1]
        out[i] = int("".join(str(_BIT[int(c)]) for c in row[last + 1:]), 2)
    return out


def per_step_task(task: str) -> bool:
    """Whether the task supervises every position (so a per-step curve exists)."""
    return task not in ("dgc", "dgc_paper", "imm_z_paper")


@torch.no_grad()
def correct(model, s: tasks.Split, device="cpu", chunk: int = 256) -> np.ndarray:
    """(n, T) bool: argmax prediction equals the target, at every position (read with s.mask)."""
    model.eval()
    out = np.zeros(s.y.shape, dtype=bool)
    dtype = next(model.parameters()).dtype
    for i in range(0, len(s.length), chunk):
        part = train._trim(tasks.Split(*(a[i:i + chunk] for a in (s.x, s.y, s.mask, s.length))))
        x, y, _, _ = train._tensors(part, device, dtype)
        T = x.shape[1]
        out[i:i + chunk, :T] = (model(x).argmax(-1) == y).cpu().numpy()   # (chunk, T)
    model.train()
    return out


def _counts(key: np.ndarray, hit: np.ndarray, name: str) -> pd.DataFrame:
    """Correct and total counts per distinct key value."""
    keys, inv = np.unique(key, return_inverse=True)
    right = np.bincount(inv, weights=hit, minlength=len(keys)).astype(int)
    return pd.DataFrame({name: keys, "correct": right, "n": np.bincount(inv, minlength=len(keys))})


def by_length(task: str, hits: list[np.ndarray], splits: list[tasks.Split]) -> pd.DataFrame:
    """Last-position accuracy counts per size, the bins pooled (eval_by_T)."""
    size = np.concatenate([sizes(task, s) for s in splits])
    last = np.concatenate([h[np.arange(len(s.length)), s.length - 1] for h, s in zip(hits, splits)])
    return _counts(size, last, "size")


def by_step(hits: list[np.ndarray], splits: list[tasks.Split]) -> pd.DataFrame:
    """Accuracy counts per position t (1-based), supervised pairs of the pooled bins (eval_by_t)."""
    t = np.concatenate([np.nonzero(s.mask)[1] + 1 for s in splits])
    hit = np.concatenate([h[s.mask] for h, s in zip(hits, splits)])
    return _counts(t, hit, "t")


def evaluate(configs: list[train.RunConfig], test: dict[str, list[tasks.Split]],
             ckpt_dir: Path | None, device: str = "cpu") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-length and per-step tables (task, family, seed, size | t, correct, n, accuracy, Wilson
    bounds) of every trained seed of `configs`, reloaded from `ckpt_dir` (trained there first when
    absent, as the sweep would)."""
    dev = train.resolve_device(device)
    lengths, steps = [], []
    for group in sweep.groups(configs):
        task, family = group[0].task, group[0].family
        models, _ = seeds.train_seeds(group, ckpt_dir, device, progress=False)
        for rc, model in zip(group, models):
            hits = [correct(model.to(dev), s, dev) for s in test[task]]
            tag = dict(task=task, family=family, seed=rc.seed)
            lengths.append(by_length(task, hits, test[task]).assign(**tag))
            if per_step_task(task):
                steps.append(by_step(hits, test[task]).assign(**tag))
    return stack(lengths, "size"), stack(steps, "t")


def stack(parts: list[pd.DataFrame], key: str) -> pd.DataFrame:
    """The parts stacked, with accuracy and its Wilson bounds (an empty table keeps the columns)."""
    cols = ["task", "family", "seed", key, "correct", "n"]
    if not parts:
        return pd.DataFrame(columns=cols + ["accuracy", "accuracy_wilson_lo", "accuracy_wilson_hi"])
    df = pd.concat(parts, ignore_index=True)[cols]
    df["accuracy"] = df.correct / df.n
    return rates.with_wilson(df, "correct", "n", "accuracy")


def per_bin(df: pd.DataFrame, bins: dict[str, list[list[int]]]) -> pd.DataFrame:
    """Per-length counts summed over each test bin (size in [lo, hi]): what the bin accuracy of
    the sweep counts, so the two must agree."""
    idx = [next(i for i, (lo, hi) in enumerate(bins[t]) if lo <= s <= hi)
           for t, s in zip(df.task, df["size"])]
    keys = ["task", "family", "seed", "bin_index"]
    return df.assign(bin_index=idx).groupby(keys, as_index=False)[["correct", "n"]].sum()


def step_majority(splits: list[tasks.Split]) -> pd.DataFrame:
    """Per position t (1-based): the best constant predictor's accuracy on the pooled bins."""
    t = np.concatenate([np.nonzero(s.mask)[1] + 1 for s in splits])
    y = np.concatenate([s.y[s.mask] for s in splits])
    rows = [(k, np.bincount(y[t == k]).max() / (t == k).sum()) for k in np.unique(t)]
    return pd.DataFrame(rows, columns=["t", "majority"])


def band(df: pd.DataFrame, key: str) -> pd.DataFrame:
    """Per (task, family, key): the mean accuracy over seeds and the envelope of the seeds' Wilson
    intervals (lowest lower bound, highest upper bound), what the figure draws."""
    return (df.groupby(["task", "family", key], sort=False, as_index=False)
            .agg(accuracy=("accuracy", "mean"), lo=("accuracy_wilson_lo", "min"),
                 hi=("accuracy_wilson_hi", "max"), n=("n", "min")))
