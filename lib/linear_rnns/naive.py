"""Plain-loop references of the vectorised kernels in lib/linear_rnns (tests and bench only).

Each function copies a definition from the spec with Python lists and exact arithmetic, written
without numpy broadcasting so that it shares no code path with the kernels it checks. The last
section is the exception: notebook 08's time loops in torch, one indexed step at a time, as
autograd differentiates them (what the models ran before `recurrences.py`'s hand-written
backwards, whose gradients the tests hold to these).
"""
from __future__ import annotations

import torch

# --- scans (spec §5) -------------------------------------------------------------------------

def dense_matrix(kind: str, a, perm=None) -> list[list]:
    """One transition as a list-of-lists d x d matrix (column convention, A e_j = w_j e_p(j))."""
    if kind == "dense":
        return [list(row) for row in a]
    d = len(a)
    m = [[0] * d for _ in range(d)]
    for j in range(d):
        i = j if kind == "diagonal" else int(perm[j])
        m[i][j] = a[j]
    return m


def recurrence(kind: str, a, b, h0, perm=None) -> list[list]:
    """h_t = A_t h_{t-1} + b_t for t = 1..T, one step at a time; returns [h_1, ..., h_T]."""
    h = list(h0)
    out = []
    for t in range(len(b)):
        m = dense_matrix(kind, a[t], None if perm is None else perm[t])
        h = [sum((m[i][j] * h[j] for j in range(len(h))), 0) + b[t][i] for i in range(len(h))]
        out.append(h)
    return out


def matmul(x: list[list], y: list[list]) -> list[list]:
    """Plain triple loop."""
    return [[sum((x[i][k] * y[k][j] for k in range(len(y))), 0) for j in range(len(y[0]))]
            for i in range(len(x))]


# --- the DGC counter machine and its ReLU network (spec §4.1) ---------------------------------

def counter_machine(rules, tokens: list[int], q0: str) -> tuple[str | None, int, int, int, int]:
    """Interpret the rule table directly: returns (state, S, I, T, F); None if no rule fires.

    T counts the target's zeros in state TGT0; F latches [S = T] on every move into EDGE
    (only meaningful for the reachability rule table).
    """
    q, S, I, T, F = q0, 0, 0, 0, 0
    for tok in tokens:
        fired = None
        for a, b, cond, nxt, dS, dI in rules:
            if a != q or b != tok:
                continue
            ok = {None: True, "S0": S == 0, "S!0": S != 0, "I0": I == 0, "I!0": I != 0}[cond]
            if ok:
                fired = (nxt, dS, dI)
                break
        if fired is None:
            return None, S, I, T, F
        if q == "TGT0" and tok == 0:
            T += 1
        q, S, I = fired[0], S + fired[1], I + fired[2]
        if q == "EDGE" and S == T:
            F = 1
    return q, S, I, T, F


def counter_rnn_single(net, tokens: list[int]) -> list[int]:
    """The same fixed ReLU network applied to one stream with Python lists (per-instance loop)."""
    def layer(W, v):
        return [max(sum(int(W[i][j]) * v[j] for j in range(len(v))), 0) for i in range(len(W))]

    n_state = net.Wo.shape[0]
    state = [0] * n_state
    state[net.q0] = 1
    for tok in tokens:
        x = [int(tok == j) for j in range(4)]
        a1 = layer(net.W1, state + x + [1])
        a2 = layer(net.W2, a1 + [1])
        a3 = layer(net.W3, a2 + [1])
        state = [sum(int(net.Wo[i][j]) * (a3 + [1])[j] for j in range(len(a3) + 1))
                 for i in range(n_state)]
    return state


# --- fractional stacks (spec §4.3) -------------------------------------------------------------

def stack_domain(max_depth: int) -> list[dict]:
    """`stacks.domain_check` one stack at a time: every bit tuple (top first) of depth
    0..max_depth, its value by the recursive definition E(b w) = (2b + 1 + E(w)) / 4, E() = 0,
    and the scalar observers and updates of `stacks` applied to it. Rows as dicts, per depth."""
    import itertools
    from fractions import Fraction

    from lib.linear_rnns import stacks

    def value(bits):
        e = Fraction(0)
        for b in reversed(bits):                                   # bottom first
            e = (2 * b + 1 + e) / 4
        return e

    rows = []
    for d in range(max_depth + 1):
        row = dict(depth=d, stacks=0, nonempty_ok=0, head_ok=0, pop_ok=0, push_ok=0)
        for bits in itertools.product((0, 1), repeat=d):
            e = value(bits)
            row["stacks"] += 1
            row["nonempty_ok"] += int(stacks.nonempty(e) == (1 if bits else 0))
            if bits:
                row["head_ok"] += int(stacks.head(e) == bits[0])
                row["pop_ok"] += int(stacks.pop(e) == value(bits[1:]))
            row["push_ok"] += sum(int(stacks.push(e, b) == value((b,) + bits)) for b in (0, 1))
        rows.append(row)
    return rows


# --- notebook 08's time loops as autograd sees them (references of recurrences.py) -----------

def relu_rnn_loop(u, W, b, clip: float):
    """h_t = min(relu(u_t + W h_{t-1} + b), clip), h_0 = 0, one indexed step at a time."""
    h, out = u.new_zeros(u.shape[0], u.shape[2]), []
    for t in range(u.shape[1]):
        h = torch.clamp(torch.relu(u[:, t] + h @ W.T + b), max=clip)
        out.append(h)
    return torch.stack(out, dim=1)


def gru_loop(u, W, b):
    """torch.nn.GRU's update written out: r, z = sigmoid(u + W h + b) (first two thirds),
    n = tanh(u_n + r (W_n h + b_n)), h = (1 - z) n + z h."""
    h, out = u.new_zeros(u.shape[0], W.shape[1]), []
    for t in range(u.shape[1]):
        (ur, uz, un), (wr, wz, wn) = u[:, t].chunk(3, -1), (h @ W.T + b).chunk(3, -1)
        r, z = torch.sigmoid(ur + wr), torch.sigmoid(uz + wz)
        h = (1 - z) * torch.tanh(un + r * wn) + z * h
        out.append(h)
    return torch.stack(out, dim=1)


def affine_loop(A, b):
    """h_t = A_t h_{t-1} + b_t, h_0 = 0; A (B, T, n) diagonal or (B, T, n, n), b (B, T, n, m)."""
    diagonal = A.dim() == b.dim() - 1
    h, out = torch.zeros_like(b[:, 0]), []
    for t in range(b.shape[1]):
        h = (A[:, t].unsqueeze(-1) * h if diagonal else A[:, t] @ h) + b[:, t]
        out.append(h)
    return torch.stack(out, dim=1)


def dplr_loop(q, w, c, u, e, v):
    """S_t = diag(w_t) S_{t-1} - c_t (u_t^T S_{t-1}) + e_t v_t^T (w None: 1), o_t = S_t^T q_t."""
    S, out = q.new_zeros(q.shape[0], q.shape[-1], v.shape[-1]), []
    for t in range(q.shape[1]):
        decayed = S if w is None else w[:, t, :, None] * S
        S = decayed - c[:, t, :, None] * torch.einsum("zkv,zk->zv", S, u[:, t])[:, None] \
            + e[:, t, :, None] * v[:, t, None, :]
        out.append(torch.einsum("zkv,zk->zv", S, q[:, t]))
    return torch.stack(out, dim=1)
