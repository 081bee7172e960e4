"""Training tasks T1-T5 of the scaled-down experiment plan (spec §6.1, §7.3).

Every task draws a `Split`: inputs `x` (token ids, 0 = padding, or float features), per-position
targets `y`, a `mask` of the positions that carry a training loss, and the sequence `length`.
Evaluation always reads the prediction at the last real position (`length - 1`), so "accuracy on
a length bin" is the fraction of sequences whose final label is right.

- T1 `dgc`: sorted deterministic graph connectivity in the released paper format
  ("src;a-b;...;tgt", node ids in binary), fixed-width ids (spec §7.3 deviation: OOD changes path
  length, not id width); generator of `released.py` (repaired, or `released_bug=True`); one label
  at the end. N = number of nodes - 1 (nodes 0..N).
- T2 `imm_f2`: 3x3 matrices over F_2, one token per matrix (vocabulary 512), per-step target =
  entry (0,0) of the prefix product M_1 ... M_t. Matrices are drawn from GL(3, F_2) (order 168,
  non-solvable: an NC^1-complete word problem) unless `invertible=False` (all 512, degenerate).
- T3 `imm_z_zero` / `imm_z_pos`: 3x3 matrices with entries in {-1,0,1} given as a 9-dim float vector
  (spec §7.3: keeps T = N); per-step target = [(M_1...M_t)[0,0] = 0] (the paper's label) or
  [> 0] (the PNC^1-faithful one). Exact integer arithmetic (object ints beyond T = 35).
- T4 `s5`: S5 word problem, 120 tokens, per-step 120-way target = index of the prefix product
  sigma_t o ... o sigma_1.
- T5 `parity`: bits, per-step target = parity of the prefix.

The `paper` variants follow the authors' released generators (GitHub hongjianjiang/LinearRNN,
read as the reference; this code is ours), with labels read as the released models read them
(`TaskInfo.pool_readout`: a masked mean pool for sequence labels, see train.pooled):
- `dgc_paper` (dgc/generate_data.py): nodes 0..N, N uniform in the bin, variable-width binary ids,
  exactly balanced labels, the bucket bug repaired (released.generate); one label at the end.
- `imm_mod` (imm_mod/gen.py): 3x3 matrices from {-1,0,1}^{3x3} rejection-sampled invertible mod
  m = 29, a 29-way target (P_t)[0,0] mod 29 at every step; one-hot entries as features (27 = 9 x 3,
  the released per-entry embedding is linear in them).
- `imm_z_paper` (imm_unbound/gen.py --balanced): label [(P_T)[0,0] = 0] at the end only, every
  length in the bin equally often and labels 50/50 at every length (rejection sampling).

Randomness only through the `np.random.Generator` argument.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lib.companion import paths
from lib.linear_rnns import automata, released

TASKS = ("dgc", "imm_f2", "imm_z_zero", "imm_z_pos", "s5", "parity", "dgc_paper", "imm_mod",
         "imm_z_paper")
IMM_MOD = 29                          # imm_mod/gen.py default modulus (prime)
DGC_CHARS = "01-;"                    # token id = 1 + index; 0 = padding
S5 = automata.symmetric_group(5)      # (120, 5): row r = permutation r (p[i] = image of i)
_S5_INDEX = {tuple(p): i for i, p in enumerate(S5.tolist())}
# S5_MUL[a, b] = index of (perm a) o (perm b): apply b first, then a
S5_MUL = np.array([[_S5_INDEX[tuple(S5[a][S5[b]])] for b in range(120)] for a in range(120)])


@dataclass
class Split:
    x: np.ndarray          # (n, T) int64 token ids (0 = pad) or (n, T, F) float32 features
    y: np.ndarray          # (n, T) int64 targets (ignored where mask is False)
    mask: np.ndarray       # (n, T) bool: positions with a training loss
    length: np.ndarray     # (n,) real lengths (>= 1)
    shortcut: np.ndarray | None = None   # (n,) DGC endpoint-rule prediction, else None

    def last_labels(self) -> np.ndarray:
        return self.y[np.arange(len(self.length)), self.length - 1]


@dataclass(frozen=True)
class TaskInfo:
    vocab: int | None        # number of token ids incl. padding, or None for float inputs
    in_features: int | None  # float feature size, or None for tokens
    n_classes: int
    pool_readout: bool = False  # a sequence label the released code reads from a mean pool


def info(task: str) -> TaskInfo:
    """Input and output sizes of a task, and its readout."""
    return {"dgc": TaskInfo(len(DGC_CHARS) + 1, None, 2), "imm_f2": TaskInfo(513, None, 2),
            "imm_z_zero": TaskInfo(None, 9, 2), "imm_z_pos": TaskInfo(None, 9, 2),
            "s5": TaskInfo(121, None, 120), "parity": TaskInfo(3, None, 2),
            "dgc_paper": TaskInfo(len(DGC_CHARS) + 1, None, 2, True),
            "imm_mod": TaskInfo(None, 27, IMM_MOD), "imm_z_paper": TaskInfo(None, 9, 2, True)}[task]


def _lengths(n: int, lo: int, hi: int, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(lo, hi + 1, size=n)


def _per_step(x: np.ndarray, y: np.ndarray, length: np.ndarray) -> Split:
    """Pad beyond each length (x -> 0, mask False); every real position carries a loss."""
    valid = np.arange(x.shape[1])[None, :] < length[:, None]          # (n, T)
    x = np.where(valid.reshape(valid.shape + (1,) * (x.ndim - 2)), x, 0)
    return Split(x=x, y=np.where(valid, y, 0).astype(np.int64), mask=valid, length=length)


# --- T1 DGC ---------------------------------------------------------------------------------

def dgc_string(edges: list[tuple[int, int]], N: int, id_bits: int) -> str:
    """Paper format with fixed-width binary ids: source 0, sorted edges a-b, target N."""
    f = lambda v: format(v, f"0{id_bits}b")
    return ";".join([f(0)] + [f"{f(a)}-{f(b)}" for a, b in edges] + [f(N)])


def dgc(n: int, lo: int, hi: int, rng: np.random.Generator, *, id_bits: int = 6,
        p: float = 0.5, released_bug: bool = False) -> Split:
    """n examples with N uniform in [lo, hi], labels uniform; one loss at the last token."""
    if hi >= 2 ** id_bits:
        raise ValueError(f"N up to {hi} needs more than {id_bits}-bit ids")
    Ns, labels = _lengths(n, lo, hi, rng), rng.integers(0, 2, size=n)
    items = [released.generate(int(N), int(lab), rng, p, released_bug) for N, lab in zip(Ns, labels)]
    strings = [dgc_string(e, int(N), id_bits) for (e, _), N in zip(items, Ns)]
    short = np.array([released.shortcut(e, int(N)) for (e, _), N in zip(items, Ns)])
    return _encode_dgc(strings, labels, short)


def _encode_dgc(strings: list[str], labels: np.ndarray, short: np.ndarray) -> Split:
    """Character ids (0 = pad) and one loss at the last character."""
    length = np.array([len(s) for s in strings])
    x = np.zeros((len(strings), length.max()), dtype=np.int64)       # (n, T) char ids
    y, mask = np.zeros_like(x), np.zeros(x.shape, dtype=bool)
    for i, s in enumerate(strings):
        x[i, :len(s)] = [1 + DGC_CHARS.index(c) for c in s]
        y[i, len(s) - 1], mask[i, len(s) - 1] = labels[i], True
    return Split(x=x, y=y, mask=mask, length=length, shortcut=short)


def dgc_paper(n: int, lo: int, hi: int, rng: np.random.Generator) -> Split:
    """The released DGC data (repaired): N uniform in [lo, hi] (lo >= 2), n // 2 positives and the
    rest negatives in random order, ids in variable-width binary."""
    if lo < 2:
        raise ValueError(f"dgc_paper needs N >= 2 (a forced interior node), got a bin from {lo}")
    labels = rng.permutation(np.arange(n) < n // 2).astype(np.int64)
    Ns = _lengths(n, lo, hi, rng)
    items = [released.generate(int(N), int(lab), rng) for N, lab in zip(Ns, labels)]
    strings = [released.serialise(e, int(N)) for (e, _), N in zip(items, Ns)]
    short = np.array([released.shortcut(e, int(N)) for (e, _), N in zip(items, Ns)])
    return _encode_dgc(strings, labels, short)


# --- T2 / T3 iterated 3x3 products -----------------------------------------------------------

def prefix_products(m: np.ndarray, modulus: int | None) -> np.ndarray:
    """(n, T, 3, 3) -> (n, T, 3, 3) prefix products M_1 ... M_t (mod `modulus` if given).
    Exact: int64 while |entries| < 3^35 can't overflow, Python ints (object) beyond."""
    dtype = np.int64 if modulus is not None or m.shape[1] <= 35 else object
    out = np.empty(m.shape, dtype=dtype)
    cur = m[:, 0].astype(dtype)
    out[:, 0] = cur
    for t in range(1, m.shape[1]):                                   # sequential over time only
        cur = np.matmul(cur, m[:, t].astype(dtype))
        if modulus is not None:
            cur = cur % modulus
        out[:, t] = cur
    return out


def _gl3_codes() -> np.ndarray:
    """Codes (bit 3r+c = entry (r,c)) of the 168 invertible 3x3 matrices over F_2."""
    m = (np.arange(512)[:, None] >> np.arange(9)) & 1                 # (512, 9) row-major
    return np.flatnonzero(np.round(np.linalg.det(m.reshape(-1, 3, 3))).astype(int) % 2)


GL3_CODES = _gl3_codes()


def imm_f2(n: int, lo: int, hi: int, rng: np.random.Generator, invertible: bool = True) -> Split:
    """invertible=True draws from GL(3, F_2) (decision: uniform draws over all 512 matrices make
    long products collapse to the zero matrix, so every long label is 0 and the task is trivial)."""
    length = _lengths(n, lo, hi, rng)
    pool = GL3_CODES if invertible else np.arange(512)
    code = pool[rng.integers(0, len(pool), size=(n, length.max()))]  # (n, T) matrix codes
    bits = (code[..., None] >> np.arange(9)) & 1                     # (n, T, 9) row-major entries
    prod = prefix_products(bits.reshape(n, -1, 3, 3), 2)
    return _per_step(code + 1, prod[..., 0, 0], length)


def imm_z(n: int, lo: int, hi: int, rng: np.random.Generator, *, label: str) -> Split:
    """label 'zero': [(0,0) = 0] (paper); 'pos': [(0,0) > 0] (PNC^1)."""
    length = _lengths(n, lo, hi, rng)
    m = rng.integers(-1, 2, size=(n, length.max(), 9))               # (n, T, 9) row-major
    e00 = prefix_products(m.reshape(n, -1, 3, 3), None)[..., 0, 0]
    y = (e00 == 0) if label == "zero" else (e00 > 0)
    return _per_step(m.astype(np.float32), y.astype(np.int64), length)


def _det3(m: np.ndarray) -> np.ndarray:
    """Exact integer determinants of (..., 3, 3) int arrays."""
    a, b, c = m[..., 0, 0], m[..., 0, 1], m[..., 0, 2]
    d, e, f = m[..., 1, 0], m[..., 1, 1], m[..., 1, 2]
    g, h, i = m[..., 2, 0], m[..., 2, 1], m[..., 2, 2]
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def imm_mod(n: int, lo: int, hi: int, rng: np.random.Generator) -> Split:
    """Released imm_mod: {-1,0,1} matrices redrawn until invertible mod 29 (|det| <= 4 < 29, so
    invertible mod 29 iff det != 0), per-step target (M_1 ... M_t)[0,0] mod 29."""
    length = _lengths(n, lo, hi, rng)
    m = rng.integers(-1, 2, size=(n, length.max(), 3, 3))
    while (bad := _det3(m) % IMM_MOD == 0).any():                     # rejection sampling
        m[bad] = rng.integers(-1, 2, size=(int(bad.sum()), 3, 3))
    e00 = prefix_products(m % IMM_MOD, IMM_MOD)[..., 0, 0]            # (n, T) in 0..28
    onehot = (m.reshape(n, -1, 9)[..., None] == np.arange(-1, 2)).reshape(n, -1, 27)
    return _per_step(onehot.astype(np.float32), e00, length)


def _e00_is_zero(m: np.ndarray) -> np.ndarray:
    """(k, T, 3, 3) -> (k,) [(M_1 ... M_T)[0,0] = 0], exactly: row e_0^T times each matrix
    (int64 while 3^T < 2^63, i.e. T <= 39; Python ints beyond)."""
    dtype = np.int64 if m.shape[1] <= 39 else object
    row = m[:, 0, 0].astype(dtype)                                    # (k, 3)
    for t in range(1, m.shape[1]):
        row = np.einsum("ki,kij->kj", row, m[:, t].astype(dtype))
    return row[:, 0] == 0


def imm_z_paper(n: int, lo: int, hi: int, rng: np.random.Generator) -> Split:
    """Released imm_unbound --balanced: lengths lo..hi in turn (equal counts), labels alternating
    within each length, each stream redrawn until its label [(P_T)[0,0] = 0] is the wanted one;
    one loss at the end; examples in random order."""
    length = lo + np.arange(n) % (hi - lo + 1)
    want = (np.arange(n) // (hi - lo + 1)) % 2                       # 50/50 within each length
    x = np.zeros((n, hi, 9), dtype=np.int64)
    for T in np.unique(length):
        for lab in (0, 1):
            rows = np.flatnonzero((length == T) & (want == lab))
            got: list[np.ndarray] = [np.zeros((0, T, 3, 3), dtype=np.int64)]
            while sum(len(g) for g in got) < len(rows):
                cand = rng.integers(-1, 2, size=(4 * len(rows) + 8, T, 3, 3))
                got.append(cand[_e00_is_zero(cand) == bool(lab)])
            x[rows, :T] = np.concatenate(got)[:len(rows)].reshape(len(rows), T, 9)
    order = rng.permutation(n)
    x, length, want = x[order][:, :length.max()], length[order], want[order]
    y = np.zeros(x.shape[:2], dtype=np.int64)
    y[np.arange(n), length - 1] = want
    mask = np.zeros(x.shape[:2], dtype=bool)
    mask[np.arange(n), length - 1] = True
    return Split(x=x.astype(np.float32), y=y, mask=mask, length=length)


# --- T4 S5, T5 parity ------------------------------------------------------------------------

def s5(n: int, lo: int, hi: int, rng: np.random.Generator) -> Split:
    length = _lengths(n, lo, hi, rng)
    g = rng.integers(0, 120, size=(n, length.max()))                 # (n, T) element indices
    pre = np.empty_like(g)
    pre[:, 0] = g[:, 0]
    for t in range(1, g.shape[1]):
        pre[:, t] = S5_MUL[g[:, t], pre[:, t - 1]]                    # sigma_t o prefix
    return _per_step(g + 1, pre, length)


def parity(n: int, lo: int, hi: int, rng: np.random.Generator) -> Split:
    length = _lengths(n, lo, hi, rng)
    b = rng.integers(0, 2, size=(n, length.max()))
    return _per_step(b + 1, np.cumsum(b, axis=1) % 2, length)


def sample(task: str, n: int, lo: int, hi: int, rng: np.random.Generator, **kw) -> Split:
    """n examples of `task` with size (N or T) uniform in [lo, hi]."""
    if task == "dgc":
        return dgc(n, lo, hi, rng, **kw)
    if task in ("imm_z_zero", "imm_z_pos"):
        return imm_z(n, lo, hi, rng, label=task.rsplit("_", 1)[1])
    return {"imm_f2": imm_f2, "s5": s5, "parity": parity, "dgc_paper": dgc_paper, "imm_mod": imm_mod,
            "imm_z_paper": imm_z_paper}[task](n, lo, hi, rng)


# --- frozen test sets ------------------------------------------------------------------------

def testset_file(task: str) -> Path:
    return paths.DATA / "linear_rnns" / "testsets" / f"{task}.npz"


def make_test_sets(task: str, bins: list[list[int]], n: int, seed: int, **kw) -> list[Split]:
    """One Split per bin, from a generator seeded by (seed, bin index)."""
    return [sample(task, n, lo, hi, np.random.default_rng([seed, i]), **kw)
            for i, (lo, hi) in enumerate(bins)]


def save_test_sets(task: str, bins: list[list[int]], n: int, seed: int, **kw) -> Path:
    out = testset_file(task)
    out.parent.mkdir(parents=True, exist_ok=True)
    arrays = {"bins": np.array(bins), "n": np.array(n), "seed": np.array(seed)}
    arrays |= {k: np.array(v) for k, v in kw.items()}                # e.g. id_bits
    for i, s in enumerate(make_test_sets(task, bins, n, seed, **kw)):
        arrays |= {f"b{i}_{k}": v for k, v in vars(s).items() if v is not None}
    np.savez_compressed(out, **arrays)
    return out


def test_sets(task: str, bins: list[list[int]], n: int, seed: int, **kw) -> tuple[list[Split], bool]:
    """The frozen sets of data/linear_rnns/testsets when they were made with these (bins, n, seed),
    else freshly generated ones. Returns (splits, frozen?)."""
    f = testset_file(task)
    if f.exists():
        z = np.load(f)
        same_kw = all(k in z and z[k].item() == v for k, v in kw.items())
        if z["bins"].tolist() == [list(b) for b in bins] and int(z["n"]) == n \
                and int(z["seed"]) == seed and same_kw:
            return [Split(**{k: z[f"b{i}_{k}"] for k in ("x", "y", "mask", "length")},
                          shortcut=z[f"b{i}_shortcut"] if f"b{i}_shortcut" in z else None)
                    for i in range(len(bins))], True
    return make_test_sets(task, bins, n, seed, **kw), False
