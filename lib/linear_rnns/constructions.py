"""The log-precision ReLU counter RNN for sorted DGC (spec §4.1, Thm 2 / Prop 2).

A counter machine (finite control Q, signed counter S = "current vertex", counter I >= 0 = the
current edge's left label) is compiled into a fixed ReLU network with integer weights, applied
once per token. State h = [q one-hot (|Q|), S, I (, T, F for the latch variant)], token one-hot x.

Layer 1: relu(+-S), relu(+-I) (and relu(+-(S - T))), q and x passed through (0/1, relu = id).
Layer 2: exact integer zero tests zero(z) = relu(1 - relu(z) - relu(-z)), pass-throughs.
Layer 3: one AND gate per rule, g_r = relu(sum of its conjuncts - (k - 1)), with negated
         conjuncts written as 1 - zero(.), so every g_r is exactly 0 or 1.
Output (linear): q' = sum_r g_r e_next(r), S' = S + sum_r g_r dS_r, I' = I + sum_r g_r dI_r.

Variants (spec §4.1 and §9.3):
- ``endpoint``: the printed semantics: accept iff the machine ends in DONE with S = t, i.e. the
  endpoint of s's path is t. Correct for reachability only when t is a sink.
- ``reach``: target first (counter T), a latch F <- F or [S = T] on every move into EDGE, accept
  iff DONE and F = 1. Decides true reachability.
Negative controls: ``linearised`` (every zero test replaced by the constant 1), ``no_guard``
(the I != 0 guards removed).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from lib.linear_rnns.graphs import BAR, DOLLAR, HASH, ZERO

STATES = ("SRC", "EDGE", "LEFT", "EQ", "NEQ", "TGT", "DONE", "TGT0")
Q = {name: i for i, name in enumerate(STATES)}
N_TOK = 4

# (state, token, condition, next, dS, dI); conditions: None, "S0", "S!0", "I0", "I!0"
RULES_ENDPOINT = [
    ("SRC", ZERO, None, "SRC", +1, 0), ("SRC", BAR, None, "EDGE", 0, 0),
    ("EDGE", ZERO, None, "LEFT", -1, +1), ("EDGE", HASH, None, "TGT", 0, 0),
    ("LEFT", ZERO, None, "LEFT", -1, +1),
    ("LEFT", BAR, "S0", "EQ", 0, 0), ("LEFT", BAR, "S!0", "NEQ", 0, 0),
    ("EQ", ZERO, "I!0", "EQ", +1, -1), ("EQ", ZERO, "I0", "EQ", +1, 0),
    ("EQ", BAR, None, "EDGE", 0, 0),
    ("NEQ", ZERO, "I!0", "NEQ", +1, -1), ("NEQ", ZERO, "I0", "NEQ", 0, 0),
    ("NEQ", BAR, None, "EDGE", 0, 0),
    ("TGT", ZERO, None, "TGT", -1, 0), ("TGT", DOLLAR, None, "DONE", 0, 0),
]
# reachability form: 0^t # 0^s | edges $ ; T counts t first, then the endpoint machine without TGT
RULES_REACH = [("TGT0", ZERO, None, "TGT0", 0, 0), ("TGT0", HASH, None, "SRC", 0, 0)] + [
    r for r in RULES_ENDPOINT if r[0] != "TGT" and r[1] != HASH] + [
    ("EDGE", DOLLAR, None, "DONE", 0, 0)]


@dataclass(frozen=True)
class CounterRNN:
    """Integer weights of the 3-layer ReLU step and its readout."""

    variant: str
    W1: np.ndarray   # (h1, state + 4 + 1) on u = [q, S, I, T, F, x one-hot, 1]
    W2: np.ndarray   # (h2, h1 + 1), last column the bias
    W3: np.ndarray   # (h3, h2 + 1)
    Wo: np.ndarray   # (state, h3 + 1) linear output
    q0: int


def _rules(variant: str):
    rules = RULES_REACH if variant == "reach" else RULES_ENDPOINT
    if variant == "no_guard":   # drop the I != 0 guards: the guarded rule always fires
        rules = [(a, b, None if c == "I!0" else c, n, dS, dI) for a, b, c, n, dS, dI in rules
                 if c != "I0"]
    return rules


class _Units:
    """Named unit indices of one layer."""

    def __init__(self, names):
        self.names = list(names)
        self.ix = {n: i for i, n in enumerate(self.names)}

    def __getitem__(self, name):
        return self.ix[name]

    def __len__(self):
        return len(self.names)


def state_units() -> _Units:
    return _Units(list(STATES) + ["S", "I", "T", "F"])


def build(variant: str = "endpoint") -> CounterRNN:
    """Compile the rule table into integer weight matrices (no data-dependent code)."""
    if variant not in ("endpoint", "reach", "linearised", "no_guard"):
        raise ValueError(f"variant {variant!r}")
    rules = _rules(variant)
    toks = [f"x{j}" for j in range(N_TOK)]
    st = state_units()
    u = _Units(st.names + toks + ["1"])                            # network input
    carried = ["S+", "S-", "I+", "I-", "T", "F"]                   # non-negative pass-throughs
    L1 = _Units(list(STATES) + toks + carried + ["D+", "D-"])      # D = S - T
    W1 = np.zeros((len(L1), len(u)), dtype=np.int64)
    for name in list(STATES) + toks + ["T", "F"]:
        W1[L1[name], u[name]] = 1
    for sign, suffix in ((1, "+"), (-1, "-")):
        W1[L1["S" + suffix], u["S"]] = sign
        W1[L1["I" + suffix], u["I"]] = sign
        W1[L1["D" + suffix], u["S"]] = sign
        W1[L1["D" + suffix], u["T"]] = -sign
    L2 = _Units(list(STATES) + toks + carried + ["zS", "zI", "zD"])
    W2 = np.zeros((len(L2), len(L1) + 1), dtype=np.int64)          # last column: bias
    for name in list(STATES) + toks + carried:
        W2[L2[name], L1[name]] = 1
    for z, var in (("zS", "S"), ("zI", "I"), ("zD", "D")):
        if variant == "linearised":
            W2[L2[z], -1] = 1                                      # zero test := constant 1
        else:
            W2[L2[z], L1[var + "+"]] = W2[L2[z], L1[var + "-"]] = -1
            W2[L2[z], -1] = 1                                      # relu(1 - z+ - z-)
    latch = [r for r in rules if r[3] == "EDGE"] if variant == "reach" else []
    L3 = _Units([f"g{i}" for i in range(len(rules))] + [f"l{i}" for i in range(len(latch))]
                + carried)
    W3 = np.zeros((len(L3), len(L2) + 1), dtype=np.int64)
    for g, (a, b, cond, *_rest) in enumerate(rules + latch):
        W3[g, L2[a]] += 1
        W3[g, L2[f"x{b}"]] += 1
        k = 2
        if cond is not None:
            z = L2["zS"] if cond[0] == "S" else L2["zI"]
            W3[g, z] += -1 if cond.endswith("!0") else 1           # 1 - zero(.) or zero(.)
            W3[g, -1] += 1 if cond.endswith("!0") else 0
            k += 1
        if g >= len(rules):                                        # latch: AND [S = T], AND NOT F
            W3[g, L2["zD"]] += 1
            W3[g, L2["F"]] -= 1
            k += 1
        W3[g, -1] -= k - 1
    for name in carried:
        W3[L3[name], L2[name]] = 1
    Wo = np.zeros((len(st), len(L3) + 1), dtype=np.int64)
    for g, (a, b, _c, nxt, dS, dI) in enumerate(rules):
        Wo[st[nxt], g] = 1
        Wo[st["S"], g] = dS
        Wo[st["I"], g] = dI
        if a == "TGT0" and b == ZERO:
            Wo[st["T"], g] = 1                                     # T counts the target's zeros
    for i in range(len(latch)):
        Wo[st["F"], L3[f"l{i}"]] = 1                               # F' = F + latch
    Wo[st["S"], L3["S+"]], Wo[st["S"], L3["S-"]] = 1, -1
    Wo[st["I"], L3["I+"]], Wo[st["I"], L3["I-"]] = 1, -1
    Wo[st["T"], L3["T"]] = Wo[st["F"], L3["F"]] = 1
    return CounterRNN(variant, W1, W2, W3, Wo, Q["TGT0"] if variant == "reach" else Q["SRC"])


def _relu(z):
    return np.maximum(z, 0)


def step(net: CounterRNN, state: np.ndarray, tok: np.ndarray) -> np.ndarray:
    """One application of the fixed ReLU network; state (B, n_state), tok (B,) in 0..3."""
    B = state.shape[0]
    x = np.zeros((B, N_TOK), dtype=np.int64)
    x[np.arange(B), np.clip(tok, 0, N_TOK - 1)] = 1
    u = np.concatenate([state, x, np.ones((B, 1), np.int64)], 1)  # (B, n_u)
    a1 = _relu(u @ net.W1.T)                                      # (B, h1)
    a2 = _relu(np.concatenate([a1, np.ones((B, 1), np.int64)], 1) @ net.W2.T)
    a3 = _relu(np.concatenate([a2, np.ones((B, 1), np.int64)], 1) @ net.W3.T)
    return np.concatenate([a3, np.ones((B, 1), np.int64)], 1) @ net.Wo.T


def initial_state(net: CounterRNN, B: int) -> np.ndarray:
    state = np.zeros((B, len(STATES) + 4), dtype=np.int64)
    state[:, net.q0] = 1
    return state


EXACT_FLOAT = {np.float32: 2 ** 24, np.float64: 2 ** 53}   # every smaller integer is exact


def run(net: CounterRNN, tokens: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, int]:
    """Run a batch of padded streams (B, L); returns final states (B, n_state) and max |counter|.

    The same weights as `step`, applied to all instances at once: one matrix product per layer
    and position over the instance axis. Instances are sorted longest first, so the rows still
    reading at position t are a prefix and an instance's state is left alone beyond its end (the
    identity there; padding lives in this harness, not in the network). The token's one-hot
    input is a column lookup of W1 (the product of a one-hot vector with W1). Arithmetic is
    float BLAS on one thread, exact because every unit is an integer of magnitude at most
    2 + the stream length (one rule moves a counter by 1 per token): float32 below 2^24, else
    float64 below 2^53, else refused.
    """
    B, L = tokens.shape
    if B == 0:
        return initial_state(net, 0), 0
    bound = int(lengths.max()) + 2                     # no unit ever exceeds this magnitude
    dtype = next((d for d, top in EXACT_FLOAT.items() if bound < top), None)
    if dtype is None:
        raise ValueError(f"streams of {int(lengths.max())} tokens exceed the exact float64 range")
    order = np.argsort(-lengths, kind="stable")
    toks = np.ascontiguousarray(np.clip(tokens[order], 0, N_TOK - 1).T)   # (L, B), pad -> any
    live = np.searchsorted(-lengths[order], -np.arange(L), side="left")   # rows with len > t
    n_st = len(STATES) + 4
    W1 = net.W1.astype(dtype)
    W1s, tok_bias = W1[:, :n_st].T.copy(), (W1[:, n_st:n_st + N_TOK] + W1[:, -1:]).T.copy()
    (W2, b2), (W3, b3), (Wo, bo) = [(W[:, :-1].T.astype(dtype).copy(), W[:, -1].astype(dtype))
                                    for W in (net.W2, net.W3, net.Wo)]
    state = initial_state(net, B).astype(dtype)
    a1, x1 = np.empty((B, W1s.shape[1]), dtype), np.empty((B, W1s.shape[1]), dtype)
    a2, a3 = np.empty((B, W2.shape[1]), dtype), np.empty((B, W3.shape[1]), dtype)
    cnt = slice(len(STATES), len(STATES) + 3)
    hi, lo = np.zeros((B, 3), dtype), np.zeros((B, 3), dtype)
    with threadpool_limits(1, user_api="blas"):   # skinny products: threads only add overhead
        for t in range(L):
            n = int(live[t])
            if n == 0:
                break
            h1, e1, h2, h3, h = a1[:n], x1[:n], a2[:n], a3[:n], state[:n]
            np.dot(h, W1s, out=h1)
            np.take(tok_bias, toks[t, :n], axis=0, out=e1)          # one-hot token @ W1
            h1 += e1
            np.maximum(h1, 0, out=h1)
            np.dot(h1, W2, out=h2)
            h2 += b2
            np.maximum(h2, 0, out=h2)
            np.dot(h2, W3, out=h3)
            h3 += b3
            np.maximum(h3, 0, out=h3)
            np.dot(h3, Wo, out=h)                                    # linear output
            h += bo
            np.maximum(hi[:n], h[:, cnt], out=hi[:n])
            np.minimum(lo[:n], h[:, cnt], out=lo[:n])
    out = np.empty((B, n_st), dtype=np.int64)
    out[order] = state
    return out, int(max(hi.max(), -lo.min()))


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _same_key_steps(v: int, d: int) -> int | None:
    """How many steps v, v + d, v + 2d, ... keep the sign of v (None: every step)."""
    if d == 0 or (v != 0 and (v > 0) == (d > 0)):
        return None
    return 1 if v == 0 else -(-abs(v) // abs(d))


def run_compiled(net: CounterRNN, tokens: np.ndarray,
                 lengths: np.ndarray) -> tuple[np.ndarray, int]:
    """`run`, one stream at a time, with the network's step looked up per key and applied to a
    whole run of equal steps at once (issue 44: the long chains).

    Why a key decides the step: by the weights `build` writes, layer 1 holds relu(+-S),
    relu(+-I), relu(+-(S - T)) and 0/1 or non-negative pass-throughs; layer 2 zero-tests them
    (0 or 1 for integer counters) and passes the rest; layer 3's gates read only 0/1 units; the
    output is q' from the gates and counters plus gate-weighted moves. So the step depends on
    the state only through key = (q, token, sign S, sign I, sign(S - T), F) and on that key is
    q' = const, counters + const (q = -1 stands for the all-zero control a step that fires no
    rule leaves). Each key's (q', moves) is the network's own output (`step`)
    on the first state that has it; a run of one token repeats a key until q changes or a
    tested counter's sign would, so it advances in one move. Same final states and max |counter|
    as `run` (tests compare them)."""
    n_st = len(STATES) + 4
    S_, I_, T_, F_ = len(STATES), len(STATES) + 1, len(STATES) + 2, len(STATES) + 3
    maps: dict[tuple, tuple[int, int, int, int, int]] = {}
    out = np.zeros((len(lengths), n_st), dtype=np.int64)
    top = 0
    for b, (row, L) in enumerate(zip(tokens, lengths)):
        toks = np.clip(row[:int(L)], 0, N_TOK - 1)
        cut = np.flatnonzero(np.diff(toks)) + 1
        starts, ends = np.r_[0, cut], np.r_[cut, len(toks)]
        q, S, I, T, F = net.q0, 0, 0, 0, 0
        for a, e in zip(starts.tolist(), ends.tolist()):
            tok, left = int(toks[a]), e - a
            while left:
                key = (q, tok, _sign(S), _sign(I), _sign(S - T), F)
                if key not in maps:
                    h = np.zeros((1, n_st), dtype=np.int64)
                    h[0, S_:F_ + 1] = (S, I, T, F)
                    if q >= 0:
                        h[0, q] = 1
                    h2 = step(net, h, np.array([tok]))[0]
                    qs = h2[:len(STATES)]
                    if qs.sum() > 1 or not ((qs == 0) | (qs == 1)).all():
                        raise ValueError(f"key {key}: the step left no one-hot control state")
                    maps[key] = (int(qs.argmax()) if qs.any() else -1, int(h2[S_] - S),
                                 int(h2[I_] - I), int(h2[T_] - T), int(h2[F_] - F))
                q2, dS, dI, dT, dF = maps[key]
                m = left if q2 == q and dF == 0 else 1
                for v, d in ((S, dS), (I, dI), (S - T, dS - dT)):
                    k = _same_key_steps(v, d)
                    m = m if k is None else min(m, k)
                q, S, I, T, F = q2, S + m * dS, I + m * dI, T + m * dT, F + m * dF
                top = max(top, abs(S), abs(I), abs(T))
                left -= m
        out[b, S_:F_ + 1] = (S, I, T, F)
        if q >= 0:                                                   # -1: no rule fired (dead)
            out[b, q] = 1
    return out, top


def accept(net: CounterRNN, state: np.ndarray) -> np.ndarray:
    """Readout: DONE and S = 0 (endpoint) or DONE and F = 1 (reach); (B,) bool."""
    done = state[:, Q["DONE"]] == 1
    if net.variant == "reach":
        return done & (state[:, len(STATES) + 3] >= 1)
    return done & (state[:, len(STATES)] == 0)
