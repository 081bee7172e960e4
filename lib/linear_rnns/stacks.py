"""Poly-precision ReLU RNNs: fractional stacks, 2-stack machines, a TM, monotone CVP gates
(spec §4.3, Thm 1 / Cor 2).

Base-2 (printed, defective): empty = 1, push_v(s) = v + s/2, head(s) = [s >= 1]. Top-0 values
approach 1 from below and top-1 values from above, so the margin around the threshold shrinks
like 2^-depth and no fixed ReLU ramp implements the head test for unbounded depth.

Base-4 gapped (repair): E(empty) = 0, E(b w) = (2b + 1 + E(w)) / 4; top-0 in [1/4, 1/2), top-1 in
[3/4, 1). Exact ReLU observers and updates on reachable values:
  head(s) = 4 relu(s - 1/2) - 4 relu(s - 3/4),  nonempty(s) = 4s - relu(4s - 1),
  push_b(s) = (2b + 1 + s) / 4,  pop(s) = 4s - (2 head(s) + 1),
and select(x, u) = relu(x + u - 1) = x if u = 1 else 0, for x in [0, 1] and u in {0, 1}.
Functions take numpy arrays of any dtype (float64 or object Fractions): the same code is exact
with Fractions and shows float64's failure.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd


def relu(x):
    return np.maximum(x, 0) if not isinstance(x, (int, Fraction)) else max(x, 0)


def _c(x, v):
    """Constant v in x's arithmetic (Fraction for object arrays / Fractions, float otherwise)."""
    exact = isinstance(x, Fraction) or (isinstance(x, np.ndarray) and x.dtype == object)
    return Fraction(v) if exact else float(v)


# --- base 4 -----------------------------------------------------------------------------------

def head(s):
    return 4 * relu(s - _c(s, Fraction(1, 2))) - 4 * relu(s - _c(s, Fraction(3, 4)))


def nonempty(s):
    return 4 * s - relu(4 * s - 1)


def push(s, b):
    return (2 * b + 1 + s) / _c(s, 4)


def pop(s):
    return 4 * s - (2 * head(s) + 1)


def select(x, u):
    return relu(x + u - 1)


def roundtrip_ok(bits: list[int], exact: bool) -> bool:
    """Push the bits, then pop them all back; True iff every head read and the final 0 agree."""
    s = Fraction(0) if exact else 0.0
    for b in bits:
        s = push(s, b)
    for b in reversed(bits):
        if head(s) != b or nonempty(s) != 1:
            return False
        s = pop(s)
    return s == 0


def float_failure_counts(rng: np.random.Generator, max_depth: int, trials: int) -> np.ndarray:
    """Failed float64 round trips out of `trials` random bit strings at each depth 1..max_depth
    (max_depth,) int; the draws go depth by depth, string by string."""
    return np.array([sum(not roundtrip_ok(list(rng.integers(0, 2, d)), exact=False)
                         for _ in range(trials)) for d in range(1, max_depth + 1)])


def encoding_table(depth: int) -> np.ndarray:
    """E of every stack of exactly this depth, from the closed form, (2^depth,) object Fractions.

    Stack `code` has bit i of code as its (i+1)-th symbol from the top, so
    E = sum_i (2 b_i + 1) / 4^(i+1) = num / 4^depth with an integer numerator (int64 is exact:
    num < 4^depth <= 2^32 for depth <= 16). Independent of `push`: no observer is used.
    """
    codes = np.arange(2 ** depth, dtype=np.int64)                  # (2^depth,)
    num = np.zeros(2 ** depth, dtype=np.int64)
    for i in range(depth):
        num += (2 * ((codes >> i) & 1) + 1) * 4 ** (depth - 1 - i)
    return np.array([Fraction(int(v), 4 ** depth) for v in num], dtype=object)


DYADIC_MAX_DEPTH = 25   # float64 is exact on the domain up to here (see dyadic_table)


def dyadic_table(depth: int) -> np.ndarray:
    """`encoding_table` as float64, (2^depth,): num / 4^depth with num < 4^depth.

    Why float64 is exact here: on a stack of depth d every value and every intermediate of this
    module's observers and updates (s - 1/2, 4 s - 1, 2b + 1 + s, its quarter, 4 s - (2h + 1)) is
    an integer multiple of 4^-d below 4, or of 4^-(d+1) below 1: at most 2 d + 2 significant bits,
    52 for d = DYADIC_MAX_DEPTH, so each is held exactly and each step (+, -, x4, /4, ReLU) is
    exact. Past that float64 rounds (notebook 03: its round trips fail from depth 27)."""
    if depth > DYADIC_MAX_DEPTH + 1:
        raise ValueError(f"depth {depth}: float64 is exact on stack values up to depth "
                         f"{DYADIC_MAX_DEPTH + 1} only")
    codes = np.arange(2 ** depth, dtype=np.int64)                  # (2^depth,)
    num = np.zeros(2 ** depth, dtype=np.int64)
    for i in range(depth):
        num += (2 * ((codes >> i) & 1) + 1) * 4 ** (depth - 1 - i)
    return num / 4.0 ** depth


def domain_check(max_depth: int) -> pd.DataFrame:
    """Every stack of depth 0..max_depth (2^(max_depth+1) - 1 of them) through the base-4 ReLU
    observers and updates, exactly (float64 on dyadic values, exact to DYADIC_MAX_DEPTH;
    `naive.stack_domain` is the same in Fractions), against the closed-form encoding: per depth,
    how many stacks have nonempty = [depth > 0], head = top bit and pop = E(rest) (the last two
    over non-empty stacks only), and how many (stack, bit) pairs have push_b = E(b on top). One
    row per depth."""
    if not 0 <= max_depth <= DYADIC_MAX_DEPTH:
        raise ValueError(f"max_depth = {max_depth}: allowed 0..{DYADIC_MAX_DEPTH} (float64 is "
                         "exact on the stack values up to there)")
    tables = [dyadic_table(d) for d in range(max_depth + 2)]       # push reaches max_depth + 1
    rows = []
    for d in range(max_depth + 1):
        s, codes = tables[d], np.arange(2 ** d)                    # (2^d,) values and their codes
        row = dict(depth=d, stacks=2 ** d,
                   nonempty_ok=int((nonempty(s) == int(d > 0)).sum()), head_ok=0, pop_ok=0,
                   push_ok=sum(int((push(s, b) == tables[d + 1][(codes << 1) | b]).sum())
                               for b in (0, 1)))
        if d > 0:
            row["head_ok"] = int((head(s) == (codes & 1)).sum())
            row["pop_ok"] = int((pop(s) == tables[d - 1][codes >> 1]).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def first_float_failure(rng: np.random.Generator, max_depth: int, trials: int) -> int | None:
    """Smallest depth at which some random push/pop round trip fails in float64."""
    for d in range(1, max_depth + 1):
        if any(not roundtrip_ok(list(rng.integers(0, 2, d)), exact=False) for _ in range(trials)):
            return d
    return None


# --- base 2 (printed) ----------------------------------------------------------------------------

def base2_value(bits: list[int]) -> Fraction:
    """The printed encoding: start at 1, push_v(s) = v + s/2 (bits[0] pushed first)."""
    s = Fraction(1)
    for b in bits:
        s = b + s / 2
    return s


def base4_value(bits: list[int]) -> Fraction:
    """E of the stack with bits[0] pushed first (top = bits[-1])."""
    s = Fraction(0)
    for b in bits:
        s = push(s, b)
    return s


def separation(encoding: str, depth: int) -> Fraction:
    """min over top-1 stacks - max over top-0 stacks, all stacks of exactly this depth.

    The head test can be a fixed ReLU ramp only if this stays bounded away from 0.
    """
    value = base2_value if encoding == "base2" else base4_value
    top0, top1 = [], []
    for code in range(2 ** depth):
        bits = [(code >> i) & 1 for i in range(depth)]
        (top1 if bits[-1] else top0).append(value(bits))
    return min(top1) - max(top0)


# --- the two-stack a^n b^n c^n machine ----------------------------------------------------------

def anbncn(words: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Fixed ReLU RNN with two base-4 stacks, batched over words (B, L) in {0:a, 1:b, 2:c}.

    Phases A (reading a: push s1), B (reading b: pop s1, push s2), C (reading c: pop s2), R
    (reject). Accept iff the phase is not R and both stacks are empty. Returns (B,) bool.
    """
    B, L = words.shape
    dtype = object if words.dtype == object else float
    zero = np.zeros(B, dtype=dtype) * _c(np.zeros(1, dtype=dtype), 0)
    phase = np.zeros((B, 4), dtype=dtype)                          # one-hot A, B, C, R
    phase[:, 0] = 1
    s1, s2 = zero.copy(), zero.copy()
    for t in range(L):
        live = t < lengths
        x = [(words[:, t] == k).astype(dtype) for k in range(3)]
        n1, n2 = nonempty(s1), nonempty(s2)
        pA, pB, pC, pR = (phase[:, i] for i in range(4))
        # rule gates (AND = relu(sum - (k - 1)))
        gA = relu(pA + x[0] - 1)                                   # a in A: push s1
        gAB = relu(pA + x[1] + n1 - 2)                             # first b: pop s1, push s2
        gBB = relu(pB + x[1] + n1 - 2)                             # b in B
        gBC = relu(pB + x[2] + n2 - 2)                             # first c
        gCC = relu(pC + x[2] + n2 - 2)                             # c in C
        ok = gA + gAB + gBB + gBC + gCC
        new_phase = np.stack([gA, gAB + gBB, gBC + gCC, 1 - ok], 1)
        pops1, pushes2, pops2 = gAB + gBB, gAB + gBB, gBC + gCC
        s1_new = select(push(s1, 1), gA) + select(pop(s1), pops1) + \
            select(s1, 1 - gA - pops1)
        s2_new = select(push(s2, 1), pushes2) + select(pop(s2), pops2) + \
            select(s2, 1 - pushes2 - pops2)
        phase = np.where(live[:, None], new_phase, phase)
        s1 = np.where(live, s1_new, s1)
        s2 = np.where(live, s2_new, s2)
    return (phase[:, 3] == 0) & (s1 == 0) & (s2 == 0)


# --- a binary-increment Turing machine on two stacks ----------------------------------------------

def increment_tm(bits: list[int], pad: int) -> tuple[list[int], int]:
    """Read w (MSB first) onto stack L, then one TM step per padding symbol; exact Fractions.

    Tape = reverse(L) + R with the head on top of R. Steps: MOVE (put the last bit under the
    head), then INC: head 1 -> write 0, move left (or, at the left end, write a leading 1 and
    halt); head 0 -> write 1, halt. Returns the decoded tape and the steps used.
    """
    L, R = Fraction(0), Fraction(0)
    for b in bits:                                                 # reading phase: push
        L = push(L, b)
    q = "MOVE"
    steps = 0
    for _ in range(pad):
        if q == "HALT":
            break
        steps += 1
        hl, hr, nl = head(L), head(R), nonempty(L)
        if q == "MOVE":                                            # head onto the last bit
            R, L, q = push(R, hl), pop(L), "INC"
        elif hr == 1 and nl == 1:                                  # 1 -> 0, move left
            R = push(push(pop(R), 0), hl)
            L = pop(L)
        elif hr == 1:                                              # 1 at the left end: carry out
            R, q = push(push(pop(R), 0), 1), "HALT"
        else:                                                      # 0 -> 1, halt
            R, q = push(pop(R), 1), "HALT"
    tape_left = []
    while nonempty(L) == 1:
        tape_left.append(int(head(L)))
        L = pop(L)
    tape_right = []
    while nonempty(R) == 1:
        tape_right.append(int(head(R)))
        R = pop(R)
    return tape_left[::-1] + tape_right, steps


# --- monotone CVP gates ---------------------------------------------------------------------------

def random_monotone_circuit(n_inputs: int, n_gates: int, rng: np.random.Generator):
    """Gates (op, i, j) over earlier wires; op 0 = AND, 1 = OR; the output is the last wire."""
    return [(int(rng.integers(0, 2)), int(rng.integers(0, n_inputs + g)),
             int(rng.integers(0, n_inputs + g))) for g in range(n_gates)]


def eval_relu_circuit(circuit, inputs: np.ndarray, and_threshold: int = 1) -> np.ndarray:
    """AND(a, b) = relu(a + b - and_threshold), OR(a, b) = a + b - relu(a + b - 1); inputs (B, n)
    0/1. and_threshold = 1 is the gate of the construction; 2 is the negative control's wrong
    AND, which is 0 on every pair of bits (OR keeps the correct relu(a + b - 1))."""
    wires = [inputs[:, i] for i in range(inputs.shape[1])]
    for op, i, j in circuit:
        s = wires[i] + wires[j]
        wires.append(relu(s - and_threshold) if op == 0 else s - relu(s - 1))
    return wires[-1]


def bool_circuit(circuit, inputs: np.ndarray) -> np.ndarray:
    """The Boolean value of the circuit's last wire on each row of inputs (B, n) 0/1: the
    reference the ReLU gates are checked against."""
    wires = [inputs[:, i].astype(bool) for i in range(inputs.shape[1])]
    for op, i, j in circuit:
        wires.append((wires[i] & wires[j]) if op == 0 else (wires[i] | wires[j]))
    return wires[-1]


# S1's fixed control circuit (judge_accepted_checks.claim_4): AND(OR(AND(x0, x1), AND(x2, x3)), x1)
# on wires x0..x3, then w4 = AND(x0, x1), w5 = AND(x2, x3), w6 = OR(w4, w5), w7 = AND(w6, x1)
S1_CONTROL_CIRCUIT = [(0, 0, 1), (0, 2, 3), (1, 4, 5), (0, 6, 1)]
