"""The released DGC generator's shortcut, audited (spec §6.1a; notebook 09): hits per bin on the
generator itself, the repaired generator's sensitivity to p across seeds, the closed form vs an
exhaustive enumeration, and each cell's margin below S1's cut.

Counts come with 95% Wilson intervals and the closed-form expectation; each function returns a
DataFrame the notebook writes as a table and turns into claims.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.stats import binom

from lib.linear_rnns import graphs, rates, released


def generator_audit(bins, per_bin: int, p: float, rng: np.random.Generator) -> pd.DataFrame:
    """Shortcut hits (with 95% Wilson intervals and the closed-form expectation: 1 under the
    bug), labels vs BFS and sink targets per bin, buggy and repaired, on `released.dataset`
    itself, the generator notebook 08 trains on (§6.1a)."""
    rows = []
    for bug in (True, False):
        for lo, hi in bins:
            data = released.dataset(per_bin, lo, hi, rng, bug, p)
            short = np.array([released.shortcut(e, N) == l for N, e, l in data])
            label = np.array([l for _, _, l in data])
            succs = [released.to_succ(e, N) for N, e, _ in data]
            bfs = [graphs.bfs_reachable(g, 1, N + 1) == bool(l)
                   for g, (N, _, l) in zip(succs, data)]
            rows.append(dict(bin=f"{lo}-{hi}", released_bug=bug, p=p, N_min=lo, N_max=hi,
                             examples=len(data), positives=int(label.sum()),
                             negatives=int((label == 0).sum()), shortcut_correct=int(short.sum()),
                             positives_correct=int(short[label == 1].sum()),
                             negatives_correct=int(short[label == 0].sum()),
                             labels_equal_bfs=int(sum(bfs)),
                             target_is_sink=all(g[N + 1] == 0
                                                for g, (N, _, _) in zip(succs, data))))
    out = with_intervals(pd.DataFrame(rows), rates.LEVEL, "")
    # under the bug every interior node joins the source's bucket, so the target has an in-edge
    # iff it shares that bucket iff the label is 1: the shortcut is always right
    out.loc[out.released_bug, ["closed_form", "closed_form_negatives"]] = 1.0
    return out


def shortcut_sensitivity(bins, per_bin: int, ps, n_seeds: int,
                         rng: np.random.Generator) -> pd.DataFrame:
    """The repaired generator's shortcut per (p, seed, bin), vectorised (`released.generate_batch`,
    the tested twin of `dataset`): n_seeds streams spawned from rng, each p drawing from every
    stream afresh (common random numbers across p, as S1's seeds are). One row per cell with the
    shortcut's hits on all examples and on the negatives, 95% Wilson intervals, and the closed
    form of the cell's expectation."""
    rows = []
    for s, seq in enumerate(rng.bit_generator.seed_seq.spawn(n_seeds)):
        for p in ps:
            stream = np.random.default_rng(seq)                  # seed s, afresh for every p
            for lo, hi in bins:
                right, neg = [], []
                for n in _chunks(per_bin, hi):
                    batch = released.generate_batch(n, lo, hi, stream, p)
                    right.append(released.shortcut_batch(batch) == batch.label)   # (n,)
                    neg.append(batch.label == 0)
                right, neg = np.concatenate(right), np.concatenate(neg)
                rows.append(dict(p=p, seed=s, bin=f"{lo}-{hi}", N_min=lo, N_max=hi,
                                 examples=per_bin, positives=int((~neg).sum()),
                                 negatives=int(neg.sum()), shortcut_correct=int(right.sum()),
                                 positives_correct=int(right[~neg].sum()),
                                 negatives_correct=int(right[neg].sum())))
    return with_intervals(pd.DataFrame(rows), rates.LEVEL, "")


def _chunks(n: int, width: int, cells: int = 2 ** 23) -> list[int]:
    """Batch sizes summing to n, each even but the last, so that a batch of (size, width) stays
    near `cells` entries and the labels i % 2 run on across batches."""
    size = max(2, cells // max(width, 1) // 2 * 2)
    return [size] * (n // size) + ([n % size] if n % size else [])


def with_intervals(df: pd.DataFrame, level: float, tag: str) -> pd.DataFrame:
    """Accuracies, Wilson intervals at `level` (columns shortcut<tag>_wilson_lo/_hi and
    negatives<tag>_...) and the closed-form expectations of a table of counts."""
    df = df.copy()
    df["shortcut_accuracy"] = df.shortcut_correct / df.examples
    df["negatives_accuracy"] = df.negatives_correct / df.negatives
    df = rates.with_wilson(df, "shortcut_correct", "examples", f"shortcut{tag}", level)
    df = rates.with_wilson(df, "negatives_correct", "negatives", f"negatives{tag}", level)
    df["closed_form"] = [float(released.expected_shortcut_accuracy(
        p, lo, hi, Fraction(int(k), int(n)))) for p, lo, hi, k, n in
        zip(df.p, df.N_min, df.N_max, df.positives, df.examples)]
    df["closed_form_negatives"] = [
        float(released.expected_shortcut_accuracy(p, lo, hi, Fraction(0)))
        for p, lo, hi in zip(df.p, df.N_min, df.N_max)]
    return df


def pool_seeds(table: pd.DataFrame, level: float) -> pd.DataFrame:
    """Seeds of a `shortcut_sensitivity` table pooled per (p, bin), Wilson intervals at 95% and
    at `level` (columns *_family_wilson_*: one member of a corrected family)."""
    counts = ["examples", "positives", "negatives", "shortcut_correct", "positives_correct",
              "negatives_correct"]
    pooled = table.groupby(["p", "bin", "N_min", "N_max"], sort=False, as_index=False)[counts].sum()
    pooled = with_intervals(pooled, rates.LEVEL, "")
    return with_intervals(pooled, level, "_family")


def closed_form_check(ps, N_max: int) -> pd.DataFrame:
    """The shortcut's closed form next to the exhaustive enumeration of the repaired generator's
    draws (Fractions): P(right | N, label) for N = 1..N_max, and the balanced-label accuracy of
    the bins [1, N_max] and [2, N_max] (closed form: geometric series; enumeration: mean of the
    per-N values)."""
    per_N = {(N, label): released.shortcut_rates_by_enumeration(ps, N, label)
             for N in range(1, N_max + 1) for label in (0, 1)}        # each a list over ps
    rows = []
    for i, p in enumerate(ps):
        for N in range(1, N_max + 1):
            for label, name in ((1, "positive"), (0, "negative")):
                closed = Fraction(1) if label else released.shortcut_right_on_negative(p, N)
                rows.append(dict(p=p, case=f"N={N} {name}", closed_form=closed,
                                 enumerated=per_N[N, label][i]))
        for lo in (1, 2):
            enum = sum(per_N[N, 0][i] + per_N[N, 1][i] for N in range(lo, N_max + 1)) / \
                (2 * (N_max - lo + 1))
            rows.append(dict(p=p, case=f"bin {lo}-{N_max}", enumerated=enum,
                             closed_form=released.expected_shortcut_accuracy(p, lo, N_max)))
    return pd.DataFrame(rows)


def cut_margins(cells, n: int, cut: float) -> pd.DataFrame:
    """Per cell (p, N_min, N_max, whose bin): the closed-form shortcut accuracy of n examples
    (labels i % 2, as both generators make them), its margin below `cut`, the standard deviation
    of one sample's accuracy and the probability that one sample reaches the cut. Exact model:
    positives are always right, the negatives' hits are Binomial(n_neg, r), r the closed-form
    negative rate."""
    n_pos, n_neg = n // 2, n - n // 2
    rows = []
    for p, lo, hi, whose in cells:
        r = float(released.expected_shortcut_accuracy(p, lo, hi, Fraction(0)))
        acc = released.expected_shortcut_accuracy(p, lo, hi, Fraction(n_pos, n))
        need = math.ceil(released.exact_p(cut) * n) - n_pos             # negatives to reach it
        rows.append(dict(p=p, bin=f"{lo}-{hi}", whose=whose, examples=n,
                         closed_form=float(acc), margin_below_cut=cut - float(acc),
                         sample_sd=math.sqrt(n_neg * r * (1 - r)) / n,
                         p_sample_reaches_cut=float(binom.sf(need - 1, n_neg, r))))
    return pd.DataFrame(rows)
