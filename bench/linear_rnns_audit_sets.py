"""Benchmark: ours beside an audit-style implementation on the public audit's own instance sets
(MachineLearning-Nerd/icml26-linear-rnn-parallelism, repro/src; its algorithms, our code), one
run, three sets (issue 44):

    python bench/linear_rnns_audit_sets.py [--repeats 3] [--cap 60]

- `reduction_n2_5`: the layered L-hardness reduction on every partial function f of 2..5 points
  and every (s, t): 205,012 instances (claim3_independent.py). Audit-style: per instance in
  plain Python, build the layered edge list, check it sorted, deterministic and forward, scan it
  once in sorted order and compare with a walk of f. Ours: `graphs.reduce_batch` on each n at
  once, the same checks on the arrays, `graphs.sorted_scan_batch` and
  `graphs.functional_reachable_batch`. The question both answer is the audit's: does the
  reduction preserve reachability under the sorted scan (notebook 02 also runs the compiled
  ReLU network over the distinct instances: its own claim, `reduction_network` below).
- `chains_100_300`: the chains 1 -> ... -> k and the same with edge k/2 removed, k = 100, 200,
  300, through a ReLU counter RNN (judge_accepted_checks.py claim_3 `length_generalization`).
  Audit-style: the counter machine with ReLU zero masks on (+, -) counter pairs, token by token
  in plain Python. Ours: `constructions.run_compiled`, the network's step looked up per key
  (q, token, counter signs) and applied to a run of equal steps at once; beside it
  `ours_batched_network`, `constructions.run` on all six streams (one step per token).
- `stacks_depth14`: every stack of depth <= 14 (32,767) through the base-4 head, nonempty, pop
  and push (claim4_independent.py). Audit-style: Fractions, one stack at a time. Ours:
  `stacks.domain_check` (float64 on the dyadic values, exact to depth 25).
Each side returns the same decision vector (per instance, per stream, or the per-depth counts);
the sides must agree before anything is timed. The JSON records each curve's ratio and, for
the issue, `ours_over_audit` = our median / the audit-style median per set.
Writes results/bench/linear_rnns_audit_sets.json.
"""
from __future__ import annotations

import argparse
import itertools
from fractions import Fraction

import numpy as np

from lib.companion import benchmark
from lib.linear_rnns import constructions, graphs, stacks

# --- audit-style peers (the audit's algorithms, written here) ------------------------------------


def audit_layered(succ: tuple, s: int, t: int) -> tuple[list[tuple[int, int]], int, int]:
    """Layered copy of a partial function: n + 1 layers, t a sink wired to the final vertex."""
    n = len(succ)
    final = (n + 1) * n
    sink = list(succ)
    sink[t] = None
    es = []
    for layer in range(n):
        for v, w in enumerate(sink):
            if v == t:
                es.append((layer * n + v, final))
            elif w is not None:
                es.append((layer * n + v, (layer + 1) * n + w))
    es.append((n * n + t, final))
    return sorted(es), s, final


def audit_reduction(n_lo: int = 2, n_hi: int = 5) -> np.ndarray:
    """Per instance (product order of f with None first, then s, then t): the scan's accept."""
    out = []
    for n in range(n_lo, n_hi + 1):
        for succ in itertools.product([None, *range(n)], repeat=n):
            for s in range(n):
                for t in range(n):
                    es, src, final = audit_layered(succ, s, t)
                    starts = [a for a, _ in es]
                    if starts != sorted(starts) or len(set(starts)) != len(starts) \
                            or any(b <= a for a, b in es):
                        raise AssertionError("layered instance not sorted, deterministic, forward")
                    cur = src
                    for a, b in es:
                        if cur == a:
                            cur = b
                    seen, v, reach = set(), s, False
                    while v is not None and v not in seen:
                        if v == t:
                            reach = True
                            break
                        seen.add(v)
                        v = succ[v]
                    if (cur == final) != reach:
                        raise AssertionError("the reduction changed reachability")
                    out.append(cur == final)
    return np.array(out)


def ours_reduction(n_lo: int = 2, n_hi: int = 5) -> np.ndarray:
    """The same decisions with our batched kernels, one n at a time."""
    out = []
    for n in range(n_lo, n_hi + 1):
        f, s, t = graphs.reduction_domain(n)
        succ, s_red, F = graphs.reduce_batch(f, s, t)
        if not ((succ == 0) | (succ > np.arange(succ.shape[1]))).all():
            raise AssertionError("reduced instance with a backward edge")
        accept = graphs.sorted_scan_batch(succ, s_red) == F
        if (accept != graphs.functional_reachable_batch(f, s, t)).any():
            raise AssertionError("the reduction changed reachability")
        out.append(accept)
    return np.concatenate(out)


def ours_reduction_network(n_lo: int = 2, n_hi: int = 5) -> np.ndarray:
    """Notebook 02's path: the compiled network on the distinct reduced instances."""
    net, out = constructions.build("endpoint"), []
    for n in range(n_lo, n_hi + 1):
        f, s, t = graphs.reduction_domain(n)
        succ, s_red, F = graphs.reduce_batch(f, s, t)
        first, back = graphs.distinct_instances(succ, s_red)
        toks, lens = graphs.token_matrix(succ[first], s_red[first], np.full(len(first), F))
        says = constructions.accept(net, constructions.run(net, toks, lens)[0])[back]
        if (says != graphs.functional_reachable_batch(f, s, t)).any():
            raise AssertionError("the network disagrees with reachability")
        out.append(says)
    return np.concatenate(out)


def _relu(x: int) -> int:
    return x if x > 0 else 0


def audit_counter_rnn(stream: list[str]) -> bool:
    """The counter machine with each counter a (plus, minus) pair kept canonical by ReLUs and
    every zero test a ReLU mask relu(1 - plus - minus), token by token."""
    state, sp, sm, ip, im = "source", 0, 0, 0, 0
    for tok in stream:
        zs = _relu(1 - _relu(sp - sm) - _relu(sm - sp))
        zi = _relu(1 - _relu(ip - im) - _relu(im - ip))
        nxt = state
        if state == "source":
            if tok == "0":
                sp += 1
            elif tok == "|":
                nxt = "edge"
        elif state == "edge":
            if tok == "0":
                sm, ip, nxt = sm + 1, ip + 1, "left"
            elif tok == "#":
                nxt = "target"
        elif state == "left":
            if tok == "0":
                sm, ip = sm + 1, ip + 1
            elif tok == "|":
                nxt = "equal" if zs else "unequal"
        elif state == "equal":
            if tok == "0":
                sp += 1
            elif tok == "|":
                ip, im, nxt = 0, 0, "edge"
        elif state == "unequal":
            if tok == "0" and not zi:
                sp, im = sp + 1, im + 1
            elif tok == "|":
                nxt = "edge"
        elif state == "target":
            if tok == "0":
                sm += 1
            elif tok == "$":
                return _relu(1 - _relu(sp - sm) - _relu(sm - sp)) == 1
        sp, sm = _relu(sp - sm), _relu(sm - sp)
        ip, im = _relu(ip - im), _relu(im - ip)
        state = nxt
    return False


def chain_instances(ks: list[int]) -> list[tuple[np.ndarray, int, int]]:
    return [(graphs.chain(k, broken=b), 1, k) for k in ks for b in (None, k // 2)]


CHARS = {graphs.ZERO: "0", graphs.BAR: "|", graphs.HASH: "#", graphs.DOLLAR: "$"}


def audit_chains(streams: list[list[str]]) -> np.ndarray:
    return np.array([audit_counter_rnn(x) for x in streams])


def ours_chains(net: constructions.CounterRNN, inst: list, compiled: bool = True) -> np.ndarray:
    succ = graphs.succ_matrix([g for g, _, _ in inst])
    toks, lens = graphs.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst])
    run = constructions.run_compiled if compiled else constructions.run
    return constructions.accept(net, run(net, toks, lens)[0])


def audit_stacks(max_depth: int = 14) -> np.ndarray:
    """Per-depth counts (stacks, nonempty, head, pop, push) in Fractions, one stack at a time."""
    def enc(bits):
        v = Fraction(0)
        for b in reversed(bits):
            v = Fraction(2 * b + 1 + v, 4)
        return v

    def head(v):
        return 4 * max(Fraction(0), v - Fraction(1, 2)) - 4 * max(Fraction(0), v - Fraction(3, 4))

    rows = []
    for d in range(max_depth + 1):
        row = [0, 0, 0, 0, 0]
        for bits in itertools.product((0, 1), repeat=d):
            v = enc(bits)
            row[0] += 1
            row[1] += int(4 * v - max(Fraction(0), 4 * v - 1) == int(bool(bits)))
            if bits:
                row[2] += int(head(v) == bits[0])
                row[3] += int(4 * v - (2 * head(v) + 1) == enc(bits[1:]))
            row[4] += sum(int(Fraction(2 * b + 1 + v, 4) == enc((b, *bits))) for b in (0, 1))
        rows.append(row)
    return np.array(rows)


def ours_stacks(max_depth: int = 14) -> np.ndarray:
    dom = stacks.domain_check(max_depth)
    return dom[["stacks", "nonempty_ok", "head_ok", "pop_ok", "push_ok"]].to_numpy()


def agree(ref: np.ndarray, out: np.ndarray) -> bool:
    return ref.shape == out.shape and bool((ref == out).all())


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cap", type=float, default=60.0, help="seconds; a side past it is timed once")
    args = ap.parse_args(argv)
    net = constructions.build("endpoint")
    ks = [100, 200, 300]
    inst = chain_instances(ks)
    streams = [[CHARS[c] for c in graphs.stream(*x)] for x in inst]
    kw = dict(agree=agree, repeats=args.repeats, cap_s=args.cap)
    curves = {
        "reduction_n2_5": benchmark.curve(
            "instances", [205012],
            lambda n: {"audit_style": audit_reduction, "ours": ours_reduction,
                       "ours_network": ours_reduction_network},
            label="reduction_n2_5", **kw),
        "chains_100_300": benchmark.curve(
            "streams", [len(inst)],
            lambda n: {"audit_style": lambda: audit_chains(streams),
                       "ours": lambda: ours_chains(net, inst),
                       "ours_batched_network": lambda: ours_chains(net, inst, compiled=False)},
            label="chains_100_300", **kw),
        "stacks_depth14": benchmark.curve(
            "stacks", [2 ** 15 - 1], lambda n: {"audit_style": audit_stacks, "ours": ours_stacks},
            label="stacks_depth14", **kw)}
    ratios = {label: {side: s["median_s"][-1] / c["sides"]["audit_style"]["median_s"][-1]
                      for side, s in c["sides"].items() if side != "audit_style"}
              for label, c in curves.items()}
    for label, r in ratios.items():
        print(f"{label}: ours/audit-style " + ", ".join(f"{k} {v:.3g}" for k, v in r.items()))
    benchmark.write_curves(
        "linear_rnns_audit_sets", "linear_rnns reduction, counter network on chains, stack domain",
        "none computed: each side is timed whole on the audit's full set (one size per curve)",
        curves, ours_over_audit=ratios, chain_k=ks, reduction_instances=205012,
        stack_max_depth=14)
    return ratios


if __name__ == "__main__":
    main()
