"""Matrix-product streams through the DPLR programs vs the direct product (spec §4.6; notebook
06): IMM streams (int64), RWKV-7 overwrite products under both schedules, DeltaNet's rank-one
program, and the transvection program's map.

References are exact (Python ints in object arrays); each function returns a DataFrame the
notebook writes as a table and turns into claims.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from lib.linear_rnns import dplr


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
    for mats, ref, row in _overwrite_streams(lengths, streams, entries, rng):
        first = dplr.run_program(mats, eye, schedule="first_token")
        tail = direct_product(mats[1:]) if len(mats) > 1 else eye
        rows.append(dict(row, first_token_exact=bool((first == ref).all()),
                         first_token_predicted_wrong=bool(mats[0][0, 0] != 0
                                                          and (tail[0] != 0).any())))
    return pd.DataFrame(rows)


def _overwrite_streams(lengths, streams: int, entries, rng: np.random.Generator):
    """Each random stream (entries in [-a, a], every a, N, stream in that order) with its direct
    product and the overwrite LRNN's row: exact, positivity and the reference's bit width."""
    eye = np.identity(3, dtype=int).astype(object)
    for a in entries:
        for N in lengths:
            for i in range(streams):
                mats = list(rng.integers(-a, a + 1, (N, 3, 3)).astype(object))
                ref = direct_product(mats)
                got = dplr.run_program(mats, eye)
                yield mats, ref, dict(
                    entries=a, N=N, stream=i, exact=bool((got == ref).all()),
                    positivity_agrees=bool((got[0, 0] > 0) == (ref[0, 0] > 0)),
                    max_bits=max(abs(int(v)).bit_length() for v in ref.flat))


def rwkv_long_products(lengths, streams: int, entries, rng: np.random.Generator) -> pd.DataFrame:
    """Long random 3 x 3 product streams (S1's 64 and 257 matrices) with entries in [-a, a]
    through the overwrite LRNN (start-token schedule) and through the broken in-place overwrite
    (`dplr.run_in_place`, the negative control), both vs the direct product, in Python ints
    (entries reach 3^(N-1) a^N, hundreds of bits at N = 257: far past int64)."""
    eye = np.identity(3, dtype=int).astype(object)
    return pd.DataFrame([dict(row, nonzero=bool((ref != 0).any()),
                              in_place_exact=bool((dplr.run_in_place(mats, eye) == ref).all()))
                         for mats, ref, row in _overwrite_streams(lengths, streams, entries, rng)])


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
