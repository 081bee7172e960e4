"""Batched checks that the notebooks tabulate: one row per (size, instance batch), loops here.

Each function draws from an explicit `np.random.Generator`, compares a construction with its
independent reference (exact arithmetic or a direct run) and returns a DataFrame the notebook
writes as a table and turns into claims.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.stats import binom

from lib.linear_rnns import arith, automata, circuits, dplr, graphs, rates, released, scan, wfa
from lib.linear_rnns import pd as pdlrnn


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


def pd_automata(n: int, max_states: int, max_sigma: int, n_words: int, dwfa_words: int,
                max_len: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random DFAs and DWFAs as one-layer PD LRNNs vs direct runs (spec §4.5)."""
    rows = []
    for i in range(n):
        k, s = int(rng.integers(1, max_states + 1)), int(rng.integers(1, max_sigma + 1))
        words = automata.random_words(n_words, s, max_len, rng)
        dfa, dwfa = automata.random_dfa(k, s, rng), automata.random_dwfa(k, s, rng)
        lrnn = pdlrnn.dfa_accepts(dfa, words)
        ref = np.array([bool(dfa.accepting[automata.run_dfa(dfa, w)]) for w in words])
        f_pd = pdlrnn.dwfa_values(dwfa, words[:dwfa_words])
        f_ref = [automata.run_dwfa(dwfa, w) for w in words[:dwfa_words]]
        rows.append(dict(automaton=i, states=k, sigma=s, words=len(words), dwfa_words=len(f_ref),
                         dfa_agree=int((lrnn == ref).sum()),
                         dwfa_value_agree=sum(a == b for a, b in zip(f_pd, f_ref)),
                         dwfa_decision_agree=sum((a > 0) == (b > 0) for a, b in zip(f_pd, f_ref)),
                         accept_rate=float(ref.mean()),
                         bijective_symbols=sum(len(set(dfa.delta[:, a])) == k for a in range(s))))
    return pd.DataFrame(rows)


def wfa_overwrites(n: int, max_states: int, n_words: int, max_len: int,
                   rng: np.random.Generator) -> pd.DataFrame:
    """Random WFAs compiled into RWKV-7 overwrite programs vs direct runs (spec §4.6)."""
    rows = []
    for i in range(n):
        k = int(rng.integers(1, max_states + 1))
        A = automata.random_wfa(k, 2, rng)
        words = automata.random_words(n_words, 2, max_len, rng)
        vals = [dplr.run_program([A.M[a] for a in w], A.alpha.reshape(1, k))[0].dot(A.eta)
                for w in words]
        rows.append(dict(wfa=i, states=k, words=len(words), overwrites_per_symbol=k,
                         agree=sum(v == automata.run_wfa(A, w) for v, w in zip(vals, words))))
    return pd.DataFrame(rows)


def single_layer_wfas(n: int, max_states: int, sigma: int, n_words: int, max_len: int,
                      hankel_len: int, rng: np.random.Generator) -> pd.DataFrame:
    """One-layer LRNN = WFA on random words, and the exact rank of a Hankel block (spec §4.7)."""
    short = wfa.all_words(sigma, hankel_len)
    long = wfa.all_words(sigma, 2 * hankel_len)
    rows = []
    for i in range(n):
        k = int(rng.integers(1, max_states + 1))
        A = automata.random_wfa(k, sigma, rng)
        words = automata.random_words(n_words, sigma, max_len, rng)
        agree = sum(a == automata.run_wfa(A, w) for a, w in zip(wfa.lrnn_values(A, words), words))
        vals = dict(zip(map(tuple, long), wfa.lrnn_values(A, long)))
        rows.append(dict(wfa=i, states=k, words=len(words), agree=int(agree),
                         hankel_rank=wfa.exact_rank(wfa.hankel(vals, short, short)),
                         hankel_size=len(short)))
    return pd.DataFrame(rows)


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


def imm_streams(n: int, max_N: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random IMM streams over {-1, 0, 1} through the int64 overwrite LRNN vs Python-int products.

    Streams are batched by length (one vectorised run per N); the reference multiplies 3 x 3
    object matrices left to right.
    """
    Ns = rng.integers(1, max_N + 1, n)
    streams = [rng.integers(-1, 2, (int(N), 3, 3)) for N in Ns]
    got = [None] * n
    for N in sorted(set(int(v) for v in Ns)):
        idx = [i for i in range(n) if len(streams[i]) == N]
        for i, P in zip(idx, dplr.imm_program_int(np.stack([streams[i] for i in idx]))):
            got[i] = P
    rows = []
    for s, g in zip(streams, got):
        ref = np.identity(3, dtype=object)
        for M in s:
            ref = ref.dot(M.astype(object))
        rows.append(dict(N=len(s), p00=int(ref[0, 0]), exact=bool((g == ref).all()),
                         positivity_agrees=bool((g[0, 0] > 0) == (ref[0, 0] > 0))))
    return pd.DataFrame(rows)


def direct_product(mats) -> np.ndarray:
    """M_1 M_2 ... M_N left to right in Python ints (object arrays): the products' reference."""
    P = np.identity(mats[0].shape[0], dtype=int).astype(object)
    for M in mats:
        P = P.dot(np.asarray(M).astype(object))
    return P


def rwkv_products(lengths, streams: int, entries, rng: np.random.Generator) -> pd.DataFrame:
    """Random 3 x 3 product streams with entries in [-a, a] through the overwrite LRNN, with the
    start-token schedule and with the published first-token schedule, vs the direct product.

    Python ints throughout: a product of N matrices with |entries| <= a has entries up to
    3^(N-1) a^N (15^21 / 3 > 2^63 for a = 5, N = 21), past int64. `first_token_predicted`: the
    first-token schedule loses the term M_1[0, 0] e_0 e_0^T M_2...M_N (overwrite 1 reads 0), so
    it should be wrong exactly when M_1[0, 0] != 0 and row 0 of M_2...M_N is non-zero.
    """
    eye = np.identity(3, dtype=int).astype(object)
    rows = []
    for a in entries:
        for N in lengths:
            for i in range(streams):
                mats = list(rng.integers(-a, a + 1, (N, 3, 3)).astype(object))
                ref = direct_product(mats)
                got = dplr.run_program(mats, eye)
                first = dplr.run_program(mats, eye, schedule="first_token")
                tail = direct_product(mats[1:]) if N > 1 else eye
                rows.append(dict(entries=a, N=N, stream=i, exact=bool((got == ref).all()),
                                 positivity_agrees=bool((got[0, 0] > 0) == (ref[0, 0] > 0)),
                                 max_bits=max(abs(int(v)).bit_length() for v in ref.flat),
                                 first_token_exact=bool((first == ref).all()),
                                 first_token_predicted_wrong=bool(mats[0][0, 0] != 0
                                                                  and (tail[0] != 0).any())))
    return pd.DataFrame(rows)


def deltanet_products(lengths, streams: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random 3 x 3 product streams over {-1, 0, 1} through DeltaNet's 694-step program per
    matrix (one 19-dim state, P <- P M, rank-one steps) vs the direct product."""
    rows = []
    for N in lengths:
        for i in range(streams):
            mats = list(rng.integers(-1, 2, (N, 3, 3)).astype(object))
            P, steps = dplr.deltanet_product(mats)
            rows.append(dict(N=N, stream=i, steps=steps,
                             exact=bool((P == direct_product(mats)).all())))
    return pd.DataFrame(rows)


def transvection_maps(dims, middle=dplr.TRANSVECTION_MIDDLE) -> pd.DataFrame:
    """The 3-step transvection program for every (s, t), s != t, in each dimension d: its map
    (columns = the program run on e_0 .. e_{d-1}) vs I + e_t e_s^T (h_t += h_s)."""
    rows = []
    for d in dims:
        eye = np.identity(d, dtype=int).astype(object)
        for s in range(d):
            for t in range(d):
                if s == t:
                    continue
                prog = dplr.transvection(s, t, middle)
                cols = np.stack([dplr.apply(prog, eye[:, j]) for j in range(d)], axis=1)
                want = eye.copy()
                want[t, s] = 1
                rows.append(dict(d=d, s=s, t=t, steps=len(prog), exact=bool((cols == want).all())))
    return pd.DataFrame(rows)
