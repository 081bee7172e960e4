"""Automata run as linear RNNs vs their direct runs (spec §4.5-4.7; notebooks 05, 06 and 07):
DFAs and DWFAs as one-layer PD LRNNs, WFAs as RWKV-7 overwrite programs and as one-layer LRNNs.

Each function draws random automata and words from an explicit `np.random.Generator` and returns
a DataFrame of agreement counts the notebook writes as a table and turns into claims.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from lib.linear_rnns import automata, dplr, permutation_diagonal, wfa


def pd_automata(n: int, max_states: int, max_sigma: int, n_words: int, dwfa_words: int,
                max_len: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random DFAs and DWFAs as one-layer PD LRNNs vs direct runs (spec §4.5)."""
    rows = []
    for i in range(n):
        k, s = int(rng.integers(1, max_states + 1)), int(rng.integers(1, max_sigma + 1))
        words = automata.random_words(n_words, s, max_len, rng)
        dfa, dwfa = automata.random_dfa(k, s, rng), automata.random_dwfa(k, s, rng)
        lrnn = permutation_diagonal.dfa_accepts(dfa, words)
        ref = np.array([bool(dfa.accepting[automata.run_dfa(dfa, w)]) for w in words])
        f_pd = permutation_diagonal.dwfa_values(dwfa, words[:dwfa_words])
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
