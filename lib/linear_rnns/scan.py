"""Affine-pair scans: the reason a linear RNN is a log-depth circuit (spec §5, Thm 3).

A linear RNN step h_t = A_t h_{t-1} + b_t (column convention, spec §2.3) is the affine pair
(A_t, b_t). Pairs compose associatively, later on the left:

    (A2, b2) o (A1, b1) = (A2 A1, A2 b1 + b2),     identity (I, 0).

Three transition families share the operator (spec §5 "combine cost by family"):

- ``dense``:    A is (..., d, d), O(d^3) per combine;
- ``diagonal``: A is the diagonal (..., d), O(d);
- ``pd``:       A = P D as (perm, w) with A e_j = w_j e_{perm(j)}; perm may be any column one-hot
                map (not only a bijection, spec §9.2). (p2, w2) o (p1, w1) = (p2[p1], w1 * w2[p1]);
                the bias is the scatter-add (A2 b1)[p2(i)] += w2[i] b1[i]. O(d).

Every array has time on axis 0, then any batch axes, then the state axes. Backends: numpy float64,
numpy object (exact ``fractions.Fraction`` or ``int``) and torch; the operator only uses ``@``,
``*``, ``+``, gather and scatter-add, so one code path serves all three.

Four scans, each returning the inclusive prefixes P_t = x_t o ... o x_1 (the tree returns only
P_T) together with a ``Counts(rounds, combines)``: rounds = dependent levels of combines, combines
= pair combines that involve no identity operand (work). Blelloch pads T to a power of two with
identity elements; a combine with a known identity operand is a copy and is not counted.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import torch

KINDS = ("dense", "diagonal", "pd")


@dataclass(frozen=True)
class Pairs:
    """A sequence (axis 0) of affine pairs of one family.

    a: dense (T, ..., d, d); diagonal or pd weights (T, ..., d). perm: pd only, int (T, ..., d).
    b: (T, ..., d).
    """

    kind: str
    a: Any
    b: Any
    perm: Any = None

    def __len__(self) -> int:
        return int(self.b.shape[0])

    def __getitem__(self, idx) -> "Pairs":
        if isinstance(idx, int):
            idx = slice(idx, idx + 1 if idx != -1 else None)
        return Pairs(self.kind, self.a[idx], self.b[idx],
                     None if self.perm is None else self.perm[idx])


@dataclass(frozen=True)
class Counts:
    """Dependent rounds (depth in combines) and non-trivial combines (work) of one scan."""

    rounds: int
    combines: int


def _is_torch(x) -> bool:
    return isinstance(x, torch.Tensor)


def _cat(parts: list) -> Any:
    return torch.cat(parts, 0) if _is_torch(parts[0]) else np.concatenate(parts, 0)


def _gather(x, idx):
    """out[..., j] = x[..., idx[..., j]] (last axis)."""
    if _is_torch(x):
        return torch.gather(x, -1, idx.expand(*x.shape[:-1], idx.shape[-1]).contiguous())
    return np.take_along_axis(x, np.broadcast_to(idx, x.shape[:-1] + idx.shape[-1:]), axis=-1)


def _scatter_add(values, idx):
    """out[..., idx[..., i]] += values[..., i] (last axis), zeros elsewhere."""
    if _is_torch(values):
        return torch.zeros_like(values).scatter_add_(-1, idx.expand_as(values).contiguous(),
                                                     values)
    d = values.shape[-1]
    out = np.zeros(values.shape, dtype=values.dtype)              # (..., d)
    if values.dtype == object:
        out[...] = 0                                               # exact zeros for Fractions
    flat_out = out.reshape(-1)                                     # (prod(...) * d,)
    base = (np.arange(values.size) // d) * d                       # row offset of each entry
    np.add.at(flat_out, base + np.broadcast_to(idx, values.shape).reshape(-1),
              values.reshape(-1))
    return flat_out.reshape(values.shape)


def combine(x2: Pairs, x1: Pairs) -> Pairs:
    """x2 o x1 elementwise over time and batch axes (x2 acts after x1)."""
    if x2.kind != x1.kind:
        raise ValueError(f"cannot combine {x2.kind} with {x1.kind}")
    if x2.kind == "dense":
        a = x2.a @ x1.a                                            # (..., d, d)
        b = (x2.a @ x1.b[..., None])[..., 0] + x2.b                # (..., d)
        return Pairs("dense", a, b)
    if x2.kind == "diagonal":
        return Pairs("diagonal", x2.a * x1.a, x2.a * x1.b + x2.b)
    if x2.kind == "pd":
        perm = _gather(x2.perm, x1.perm)                           # p2 o p1
        w = x1.a * _gather(x2.a, x1.perm)                          # w1 * w2[p1]
        b = _scatter_add(x2.a * x1.b, x2.perm) + x2.b              # (A2 b1) + b2
        return Pairs("pd", w, b, perm)
    raise ValueError(f"kind {x2.kind!r} is not one of {KINDS}")


def identity_like(x: Pairs, n: int) -> Pairs:
    """n identity pairs (I, 0) shaped like the elements of x, same backend and dtype."""
    def rep(v, fill):
        shape = (n,) + tuple(v.shape[1:])
        if _is_torch(v):
            return torch.full(shape, fill, dtype=v.dtype) if fill is not None else None
        out = np.empty(shape, dtype=v.dtype)
        out[...] = fill
        return out
    one = 1 if (not _is_torch(x.b) and x.b.dtype == object) else 1.0
    zero = 0 if one == 1 else 0.0
    b = rep(x.b, zero)
    if x.kind == "dense":
        d = x.a.shape[-1]
        eye = torch.eye(d, dtype=x.a.dtype) if _is_torch(x.a) else np.eye(d, dtype=int).astype(
            x.a.dtype)
        a = rep(x.a, zero)
        a[...] = eye
        return Pairs("dense", a, b)
    a = rep(x.a, one)
    if x.kind == "diagonal":
        return Pairs("diagonal", a, b)
    d = x.perm.shape[-1]
    ar = torch.arange(d) if _is_torch(x.perm) else np.arange(d)
    perm = rep(x.perm, 0)
    perm[...] = ar
    return Pairs("pd", a, b, perm)


def concat(parts: list[Pairs]) -> Pairs:
    """Concatenate pair sequences along time."""
    perm = None if parts[0].perm is None else _cat([p.perm for p in parts])
    return Pairs(parts[0].kind, _cat([p.a for p in parts]), _cat([p.b for p in parts]), perm)


def scan_sequential(x: Pairs) -> tuple[Pairs, Counts]:
    """Left fold P_t = x_t o P_{t-1}: T-1 dependent combines (the recurrence itself)."""
    out = [x[0]]
    for t in range(1, len(x)):
        out.append(combine(x[t], out[-1]))
    return concat(out), Counts(len(x) - 1, len(x) - 1)


def reduce_tree(x: Pairs) -> tuple[Pairs, Counts]:
    """Balanced tree reduction to P_T: ceil(log2 T) levels, T-1 combines (odd leftovers carried)."""
    rounds = combines = 0
    while len(x) > 1:
        n = len(x) // 2 * 2
        paired = combine(x[1:n:2], x[0:n:2])                       # (n/2, ...) later o earlier
        combines += n // 2
        rounds += 1
        x = paired if n == len(x) else concat([paired, x[n:]])
    return x, Counts(rounds, combines)


def scan_hillis_steele(x: Pairs) -> tuple[Pairs, Counts]:
    """Hillis-Steele inclusive scan: ceil(log2 T) rounds, sum_k (T - 2^k) combines."""
    rounds = combines = 0
    k = 1
    while k < len(x):
        x = concat([x[:k], combine(x[k:], x[:-k])])                # y_i = y_i o y_{i-k}, i >= k
        combines += len(x) - k
        rounds += 1
        k *= 2
    return x, Counts(rounds, combines)


def scan_blelloch(x: Pairs) -> tuple[Pairs, Counts]:
    """Blelloch work-efficient scan (up-sweep, then down-sweep to the exclusive prefixes).

    T is padded with identities to n = 2^m. A combine with a known identity operand is a copy:
    it is executed (the arithmetic is still exact) but not counted.
    """
    T = len(x)
    n = 1 << max(0, (T - 1).bit_length())
    y = concat([x, identity_like(x, n - T)]) if n > T else x
    ident = np.arange(n) >= T                                      # symbolic identity mask (n,)
    rounds = combines = 0

    def level(later, earlier, dst):
        nonlocal y, rounds, combines
        live = ~(ident[later] | ident[earlier])
        res = combine(_take(y, later), _take(y, earlier))
        y = _put(y, dst, res)
        ident[dst] = ident[later] & ident[earlier]
        combines += int(live.sum())
        rounds += int(live.any())

    step = 1
    while step < n:                                                # up-sweep
        hi = np.arange(2 * step - 1, n, 2 * step)
        level(hi, hi - step, hi)
        step *= 2
    total = _take(y, np.array([n - 1]))                            # P_T (pads are identities)
    y = _put(y, np.array([n - 1]), identity_like(x, 1))            # root := identity (exclusive)
    ident[n - 1] = True
    step = n // 2
    while step >= 1:                                               # down-sweep
        hi = np.arange(2 * step - 1, n, 2 * step)
        lo = hi - step
        left = _take(y, lo)
        left_id = ident[lo].copy()
        y = _put(y, lo, _take(y, hi))                              # left child := parent prefix
        ident[lo] = ident[hi]
        # right child := (left subtree total) o (parent prefix); later = old left, earlier = parent
        live = ~(left_id | ident[hi])
        res = combine(left, _take(y, hi))
        y = _put(y, hi, res)
        ident[hi] = left_id & ident[hi]
        combines += int(live.sum())
        rounds += int(live.any())
        step //= 2
    # inclusive P_t = exclusive_{t+1} for t < T and P_T = the root total: no extra combines
    out = concat([_take(y, np.arange(1, T)), total]) if T > 1 else total
    return out, Counts(rounds, combines)


def _take(x: Pairs, idx: np.ndarray) -> Pairs:
    t = torch.as_tensor(idx) if _is_torch(x.b) else idx
    return Pairs(x.kind, x.a[t], x.b[t], None if x.perm is None else x.perm[t])


def _put(x: Pairs, idx: np.ndarray, val: Pairs) -> Pairs:
    """A copy of x with elements idx replaced by val (functional update)."""
    def put(arr, v):
        if arr is None:
            return None
        arr = arr.clone() if _is_torch(arr) else arr.copy()
        arr[torch.as_tensor(idx) if _is_torch(arr) else idx] = v
        return arr
    return Pairs(x.kind, put(x.a, val.a), put(x.b, val.b), put(x.perm, val.perm))


SCANS = {"sequential": scan_sequential, "hillis_steele": scan_hillis_steele,
         "blelloch": scan_blelloch}


def apply(prefix: Pairs, h0) -> Any:
    """h_t = A_{1..t} h0 + b_{1..t} for every prefix (t on axis 0)."""
    if prefix.kind == "dense":
        return (prefix.a @ h0[..., None])[..., 0] + prefix.b
    if prefix.kind == "diagonal":
        return prefix.a * h0 + prefix.b
    return _scatter_add(prefix.a * h0, prefix.perm) + prefix.b


def to_dense(x: Pairs) -> Pairs:
    """The same pairs with dense transition matrices (for cross-family checks)."""
    if x.kind == "dense":
        return x
    if x.kind == "diagonal":
        if _is_torch(x.a):
            return Pairs("dense", torch.diag_embed(x.a), x.b)
        d = x.a.shape[-1]
        a = np.zeros(x.a.shape + (d,), dtype=x.a.dtype)
        if x.a.dtype == object:
            a[...] = 0
        idx = np.arange(d)
        a[..., idx, idx] = x.a
        return Pairs("dense", a, x.b)
    d = x.a.shape[-1]
    rows = np.arange(d)[:, None]                                   # (d, 1) row index i
    if _is_torch(x.a):
        onehot = (x.perm[..., None, :] == torch.arange(d)[:, None]).to(x.a.dtype)
    else:
        onehot = (x.perm[..., None, :] == rows)                    # (..., d, d) [i, j] = p(j)==i
        onehot = onehot.astype(int).astype(x.a.dtype)
    return Pairs("dense", onehot * x.a[..., None, :], x.b)


def random_pairs(kind: str, T: int, d: int, rng: np.random.Generator, *, exact: bool = False,
                 integer: bool = False, batch: tuple = (), contraction: float = 0.999) -> Pairs:
    """Random pairs of one family. exact: small Fractions (object arrays); exact and integer:
    Python ints in [-3, 3] (object arrays: exact, never rounded, and about 50x faster than
    Fractions, which normalise by a gcd at every operation); else float64 with transitions of
    spectral norm <= contraction (orthogonal or signed permutation times a scale), so float64
    products of any length stay O(1)."""
    shape = (T, *batch)
    if integer and not exact:
        raise ValueError("integer pairs are exact pairs: pass exact=True as well")
    if integer:
        # astype(object) turns int64 into Python ints: unbounded, so products never overflow
        a = rng.integers(-3, 4, size=shape + ((d, d) if kind == "dense" else (d,))).astype(object)
        b = rng.integers(-3, 4, size=shape + (d,)).astype(object)
    elif exact:
        num = rng.integers(-3, 4, size=shape + ((d, d) if kind == "dense" else (d,)))
        den = rng.integers(1, 4, size=num.shape)
        a = np.vectorize(Fraction, otypes=[object])(num, den)
        b = np.vectorize(Fraction, otypes=[object])(rng.integers(-3, 4, size=shape + (d,)),
                                                    rng.integers(1, 4, size=shape + (d,)))
    else:
        b = rng.standard_normal(shape + (d,))
        if kind == "dense":
            q, r = np.linalg.qr(rng.standard_normal(shape + (d, d)))   # (..., d, d) orthogonal
            a = contraction * q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
        else:
            a = contraction * rng.uniform(-1.0, 1.0, size=shape + (d,))
    perm = rng.integers(0, d, size=shape + (d,)) if kind == "pd" else None
    return Pairs(kind, a, b, perm)


def to_torch(x: Pairs) -> Pairs:
    """The same float64 pairs as torch tensors."""
    return Pairs(x.kind, torch.as_tensor(x.a), torch.as_tensor(x.b),
                 None if x.perm is None else torch.as_tensor(x.perm))
