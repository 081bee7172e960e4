"""A tiny arithmetic gate DAG with depth and size, and the circuits of an RNN (spec §5, Thm 3).

Gates: input, const (depth 0), add, mul (fan-in 2), relu, cmp (> 0) (fan-in 1). depth = longest
input-to-output path in gates; size = number of non-input, non-const gates. Gates are appended in
topological order, so depth is kept incrementally and `evaluate` is one pass.

Builders (generic gates, no constant folding, so the depth formulas are exact):

- `sequential_dense`: h_t = A_t h_{t-1} + b_t step by step; per step one mul level and a balanced
  sum of d+1 terms: depth T (1 + ceil(log2(d+1))).
- `balanced_dense`: the affine lift M_t = [[A_t, b_t], [0, 1]] multiplied as a balanced tree, then
  applied to [h_0; 1]: depth (ceil(log2 T) + 1)(1 + ceil(log2(d+1))).
- `balanced_diagonal`: diagonal pairs (a, b) combined in a balanced tree: per level a2*b1 + b2, so
  depth max(2L, L + 1) + 1 with L = ceil(log2 T) for h_T = a h_0 + b.
- `sequential_relu`: the nonlinear scalar RNN h_t = relu(w_t h_{t-1} + b_t): depth 3T; no
  rebalancing applies because relu does not compose into a fixed-size closed form (tent map).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

OPS = ("input", "const", "add", "mul", "relu", "cmp")


@dataclass
class Circuit:
    """Gates in topological order: op, operand ids, constant value, depth."""

    ops: list[str] = field(default_factory=list)
    args: list[tuple[int, ...]] = field(default_factory=list)
    value: list = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    n_inputs: int = 0

    def _gate(self, op: str, args: tuple[int, ...], value=None) -> int:
        self.ops.append(op)
        self.args.append(args)
        self.value.append(value)
        self.depths.append(1 + max(self.depths[a] for a in args) if args else 0)
        return len(self.ops) - 1

    def input(self) -> int:
        self.n_inputs += 1
        return self._gate("input", (), self.n_inputs - 1)

    def const(self, c) -> int:
        return self._gate("const", (), c)

    def add(self, a: int, b: int) -> int:
        return self._gate("add", (a, b))

    def mul(self, a: int, b: int) -> int:
        return self._gate("mul", (a, b))

    def relu(self, a: int) -> int:
        return self._gate("relu", (a,))

    def cmp(self, a: int) -> int:
        return self._gate("cmp", (a,))

    def sum(self, terms: list[int]) -> int:
        """Balanced fan-in-2 sum: depth ceil(log2 len(terms)) above the deepest term."""
        while len(terms) > 1:
            nxt = [self.add(terms[i], terms[i + 1]) for i in range(0, len(terms) - 1, 2)]
            terms = nxt + ([terms[-1]] if len(terms) % 2 else [])
        return terms[0]

    def depth(self, outputs: list[int] | None = None) -> int:
        return max(self.depths[o] for o in outputs) if outputs else max(self.depths)

    def size(self) -> int:
        return sum(op not in ("input", "const") for op in self.ops)

    def evaluate(self, inputs: list) -> list:
        """Exact evaluation (ints / Fractions) of every gate."""
        val: list = [None] * len(self.ops)
        for g, (op, args) in enumerate(zip(self.ops, self.args)):
            if op == "input":
                val[g] = inputs[self.value[g]]
            elif op == "const":
                val[g] = self.value[g]
            elif op == "add":
                val[g] = val[args[0]] + val[args[1]]
            elif op == "mul":
                val[g] = val[args[0]] * val[args[1]]
            elif op == "relu":
                val[g] = max(val[args[0]], 0)
            else:
                val[g] = int(val[args[0]] > 0)
        return val


def _inputs(c: Circuit, shape: tuple[int, ...]) -> list:
    if len(shape) == 1:
        return [c.input() for _ in range(shape[0])]
    return [_inputs(c, shape[1:]) for _ in range(shape[0])]


def _matmul(c: Circuit, X: list[list[int]], Y: list[list[int]]) -> list[list[int]]:
    n, k, m = len(X), len(Y), len(Y[0])
    return [[c.sum([c.mul(X[i][l], Y[l][j]) for l in range(k)]) for j in range(m)]
            for i in range(n)]


def sequential_dense(T: int, d: int) -> tuple[Circuit, list[int]]:
    """Inputs h0 (d), then per step A_t (d x d), b_t (d); outputs h_T."""
    c = Circuit()
    h = _inputs(c, (d,))
    for _ in range(T):
        A, b = _inputs(c, (d, d)), _inputs(c, (d,))
        h = [c.sum([c.mul(A[i][j], h[j]) for j in range(d)] + [b[i]]) for i in range(d)]
    return c, h


def lift_inputs(c: Circuit, d: int) -> list[list[int]]:
    """One affine-lift matrix [[A, b], [0, 1]] with A, b inputs and the last row constants."""
    A, b = _inputs(c, (d, d)), _inputs(c, (d,))
    rows = [A[i] + [b[i]] for i in range(d)]
    return rows + [[c.const(0)] * d + [c.const(1)]]


def balanced_dense(T: int, d: int) -> tuple[Circuit, list[int]]:
    """Inputs h0 (d), then per step A_t, b_t (as lift matrices); outputs h_T via a product tree."""
    c = Circuit()
    h = _inputs(c, (d,))
    mats = [lift_inputs(c, d) for _ in range(T)]
    while len(mats) > 1:
        nxt = [_matmul(c, mats[i + 1], mats[i]) for i in range(0, len(mats) - 1, 2)]
        mats = nxt + ([mats[-1]] if len(mats) % 2 else [])
    col = [[x] for x in h] + [[c.const(1)]]
    out = _matmul(c, mats[0], col)
    return c, [out[i][0] for i in range(d)]


def balanced_diagonal(T: int, d: int = 1) -> tuple[Circuit, list[int]]:
    """Inputs h0 (d), then per step a_t (d), b_t (d); pairs combined coordinate-wise in a tree."""
    c = Circuit()
    h = _inputs(c, (d,))
    pairs = [(_inputs(c, (d,)), _inputs(c, (d,))) for _ in range(T)]
    while len(pairs) > 1:
        nxt = []
        for i in range(0, len(pairs) - 1, 2):
            (a1, b1), (a2, b2) = pairs[i], pairs[i + 1]
            nxt.append(([c.mul(a2[k], a1[k]) for k in range(d)],
                        [c.add(c.mul(a2[k], b1[k]), b2[k]) for k in range(d)]))
        pairs = nxt + ([pairs[-1]] if len(pairs) % 2 else [])
    a, b = pairs[0]
    return c, [c.add(c.mul(a[k], h[k]), b[k]) for k in range(d)]


def sequential_relu(T: int) -> tuple[Circuit, list[int]]:
    """Scalar nonlinear RNN h_t = relu(w_t h_{t-1} + b_t): inputs h0, then (w_t, b_t)."""
    c = Circuit()
    h = c.input()
    for _ in range(T):
        w, b = c.input(), c.input()
        h = c.relu(c.add(c.mul(w, h), b))
    return c, [h]


def clog2(n: int) -> int:
    """ceil(log2 n) for n >= 1, by integer arithmetic."""
    return (n - 1).bit_length()


def depth_formula(family: str, T: int, d: int) -> int:
    """The closed-form depth of each builder (spec §5), written independently of the builders."""
    per = 1 + clog2(d + 1)
    if family == "sequential_dense":
        return T * per
    if family == "balanced_dense":
        return (clog2(T) + 1) * per
    if family == "balanced_diagonal":
        return max(2 * clog2(T), clog2(T) + 1) + 1
    if family == "sequential_relu":
        return 3 * T
    raise ValueError(family)


BUILDERS = {"sequential_dense": sequential_dense, "balanced_dense": balanced_dense,
            "balanced_diagonal": balanced_diagonal,
            "sequential_relu": lambda T, d: sequential_relu(T)}


def tent(x):
    """tau(x) = 2 relu(x) - 4 relu(x - 1/2) on [0, 1] (spec §5 check 3)."""
    import numpy as np
    return 2 * np.maximum(x, 0) - 4 * np.maximum(x - 0.5, 0)


def tent_pieces(k: int) -> int:
    """Linear pieces of tau^k on [0, 1]: maximal runs of equal slope on the grid j / 2^(k+1).

    All grid points and values are dyadic with <= k+1 bits, hence exact in float64 for k <= 50.
    """
    import numpy as np
    x = np.arange(2 ** (k + 1) + 1) / 2.0 ** (k + 1)              # (2^(k+1) + 1,) grid
    y = x
    for _ in range(k):
        y = tent(y)
    slope = np.diff(y) * 2.0 ** (k + 1)                          # exact dyadic slopes
    return int(1 + np.count_nonzero(slope[1:] != slope[:-1]))


def bits(v) -> int:
    """Bits of an integer or of a Fraction's numerator and denominator (the larger)."""
    v = Fraction(v)
    return max(abs(v.numerator).bit_length(), v.denominator.bit_length())
