"""Exactness tables of the recurrence's evaluators (spec §2.6, §5; notebooks 01 and 04): scans
vs the sequential fold, gate-DAG depths vs closed forms, the Q -> Z lift vs the Fraction recurrence.

Each function draws from an explicit `np.random.Generator`, compares an evaluator with its
independent reference (exact arithmetic or a direct run) and returns a DataFrame the notebook
writes as a table and turns into claims.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from lib.linear_rnns import arith, circuits, scan


def exact_scans(kinds, Ts, dims, seeds: int, rng: np.random.Generator,
                integer: bool = False) -> pd.DataFrame:
    """HS, Blelloch and tree vs the sequential fold, exactly, per (kind, d, T) (spec §5);
    Fraction entries, or Python ints with `integer`."""
    rows = []
    for kind in kinds:
        for d in dims:
            for T in Ts:
                x = scan.random_pairs(kind, T, d, rng, exact=True, integer=integer,
                                      batch=(seeds,))
                ref = scan.scan_sequential(x)[0]
                ok = {a: bool((g.a == ref.a).all() and (g.b == ref.b).all())
                      for a, g in ((a, scan.SCANS[a](x)[0]) for a in ("hillis_steele", "blelloch"))}
                tree = scan.reduce_tree(x)[0]
                ok["tree"] = bool((tree.a[0] == ref.a[-1]).all() and (tree.b[0] == ref.b[-1]).all())
                rows.append(dict(kind=kind, T=T, d=d, instances=seeds, **ok))
    return pd.DataFrame(rows)


def scan_counts(Ts, rng: np.random.Generator) -> pd.DataFrame:
    """Rounds and combines of every scan for scalar pairs, per T."""
    rows = []
    for T in Ts:
        xs = scan.random_pairs("diagonal", T, 1, rng)
        hs, bl, tr = (scan.scan_hillis_steele(xs)[1], scan.scan_blelloch(xs)[1],
                      scan.reduce_tree(xs)[1])
        rows.append(dict(T=T, sequential=T - 1, hs_rounds=hs.rounds, hs_combines=hs.combines,
                         blelloch_rounds=bl.rounds, blelloch_combines=bl.combines,
                         tree_rounds=tr.rounds, tree_combines=tr.combines))
    return pd.DataFrame(rows)


def circuit_depths(Ts, dims) -> pd.DataFrame:
    """Measured gate-DAG depth and size of every builder next to the closed form."""
    rows = []
    for family, build in circuits.BUILDERS.items():
        for d in dims:
            for T in Ts:
                c, out = build(T, d)
                rows.append(dict(family=family, T=T, d=d, depth=c.depth(out), size=c.size(),
                                 formula=circuits.depth_formula(family, T, d)))
    return pd.DataFrame(rows)


def lift_checks(n: int, max_T: int, max_d: int, rng: np.random.Generator) -> pd.DataFrame:
    """Unrolled form, correct and printed Q -> Z lifts vs the Fraction recurrence (spec §2.6)."""
    rows = []
    for _ in range(n):
        T, d = int(rng.integers(1, max_T + 1)), int(rng.integers(1, max_d + 1))
        x = scan.random_pairs("dense", T, d, rng, exact=True)
        h0 = list(scan.random_pairs("diagonal", 1, d, rng, exact=True).b[0])
        rec = list(scan.apply(scan.scan_sequential(x)[0], np.array(h0, dtype=object))[-1])
        lift = arith.recurrence_pairs(list(x.a), list(x.b), h0)
        printed = arith.recurrence_pairs(list(x.a), list(x.b), h0, add=arith.add_printed)
        rows.append(dict(T=T, d=d, unrolled_ok=arith.unrolled(list(x.a), list(x.b), h0) == rec,
                         lift_ok=[Fraction(p, q) for p, q in lift] == rec,
                         printed_ok=[Fraction(p, q) if q else None for p, q in printed] == rec,
                         positive=rec[0] > 0))
    return pd.DataFrame(rows)
