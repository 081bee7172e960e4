"""Benchmark: the DGC counter network (`constructions.run`, spec §4.1-4.2) on all instances at once
vs one instance at a time vs the rule table interpreted in Python, as cost curves over the
number of instances and over the stream length.

    python bench/linear_rnns_constructions.py [--reduction 16 64 256 1024 4096]
        [--exhaustive 16 64 256 1024 4096 16384] [--chains 8 16 32 64 128 256 512]
        [--repeats 3] [--cap 1]

Curves, on notebook 02's instance sets:
- `instances_reduction_n5`: nested random samples (one fixed permutation, seed 0) of the layered
  reduction's 34,557 distinct instances for |V| <= 5 (streams of ~850 tokens); axis: instances;
- `instances_exhaustive_k6`: the same over the 29,367 sorted deterministic graphs with k <= 6 and
  every (s, t) (streams of at most 70 tokens); axis: instances;
- `tokens_chains`: the chains 1 -> ... -> k with and without their middle edge (two instances)
  for k in --chains; axis: the unbroken chain's stream length k^2 + 3k + 1 tokens.
Sides, each one accept bit per instance:
- `rule_table` (reference): `naive.counter_machine` on the endpoint rule table, token by token;
- `batched` (kernel): `constructions.run` on the whole set at once (token matrix included);
- `per_instance`: the same kernel called once per instance (batch of one);
- `solver`: the plain references notebook 02 checks against: path endpoint == t (chains,
  exhaustive), functional reachability of the original (f, s, t) (reduction).
At every size the live sides must give the same bits (rule table, network and solver agree
instance by instance) before anything there is timed. Streams are built outside the timing.

Bound per run, L = the total stream length of the run's instances, n = 12 state units and
h = 20, 21, 21 hidden units (the compiled network's widths, read from it):
- batched, per_instance: 2 L (n h1 + h1 h2 + h2 h3 + h3 n) = 2706 L flops, the four products
  per token (bias, ReLU and the token lookup not counted);
- rule_table: 3 L operations (one rule lookup, two counter updates per token);
- solver: one operation per instance;
each against the machine's one-thread float64 GEMM rate. Only `batched` on thousands of
instances comes near it (a quarter of the bound at 4096 reduction instances): its 14 numpy
calls per token position cost ~1 us each whatever the batch (`numpy_call_s` in the JSON, one
such call, measured), so on the two chains (~300x off) and in every per_instance call that
overhead is paid per token (14 x 1.2 us = 17 us against ~20 us measured per token). The rule
table and the solver pay CPython's interpretation (~1 us per token for the rule scan) against a
bound of a few operations, 10^4x off and more.
Writes results/bench/linear_rnns_constructions.json.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from lib.companion import benchmark
from lib.linear_rnns import constructions, graphs, naive

Instance = tuple[np.ndarray, int, int]                 # (succ, s, t)
Problem = tuple[Callable[..., bool], tuple]            # a reference solver and its arguments


def endpoint_is(succ: np.ndarray, s: int, t: int) -> bool:
    return graphs.path_endpoint(succ, s) == t


def reduction_set(n_max: int = 5) -> tuple[list[Instance], list[Problem]]:
    """The distinct reduced instances for |V| <= n_max, each with its functional-reachability
    problem (f(t) is forgotten by the reduction, so distinct instances are what notebook 02
    runs)."""
    inst, probs = [], []
    for n in range(1, n_max + 1):
        f, s, t = graphs.reduction_domain(n)
        succ, s_red, F = graphs.reduce_batch(f, s, t)
        first, _ = graphs.distinct_instances(succ, s_red)
        inst += [(succ[i], int(s_red[i]), F) for i in first]
        probs += [(graphs.functional_reachable, (f[i], int(s[i]), int(t[i]))) for i in first]
    return inst, probs


def endpoint_problems(inst: list[Instance]) -> list[Problem]:
    return [(endpoint_is, x) for x in inst]


def batched(net: constructions.CounterRNN, inst: list[Instance]) -> np.ndarray:
    succ = graphs.succ_matrix([g for g, _, _ in inst])
    toks, lens = graphs.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst])
    return constructions.accept(net, constructions.run(net, toks, lens)[0])


def per_instance(net: constructions.CounterRNN, inst: list[Instance]) -> np.ndarray:
    return np.concatenate([batched(net, [x]) for x in inst])


def rule_table(streams: list[list[int]]) -> np.ndarray:
    out = [naive.counter_machine(constructions.RULES_ENDPOINT, x, "SRC") for x in streams]
    return np.array([q == "DONE" and S == 0 for q, S, *_ in out])


def solve(problems: list[Problem]) -> np.ndarray:
    return np.array([fn(*args) for fn, args in problems])


def sides(net: constructions.CounterRNN, inst: list[Instance],
          problems: list[Problem]) -> dict[str, benchmark.Run]:
    """The four runs on one instance set (streams built here, untimed)."""
    streams = [graphs.stream(*x) for x in inst]
    return {"rule_table": lambda: rule_table(streams), "batched": lambda: batched(net, inst),
            "per_instance": lambda: per_instance(net, inst), "solver": lambda: solve(problems)}


def widths(net: constructions.CounterRNN) -> int:
    """n h1 + h1 h2 + h2 h3 + h3 n: the multiply-adds of the four products per token."""
    n, h1, h2, h3 = net.Wo.shape[0], net.W1.shape[0], net.W2.shape[0], net.W3.shape[0]
    return n * h1 + h1 * h2 + h2 * h3 + h3 * n


def work(tokens: int, instances: int, per_token: int, side: str) -> benchmark.Bound:
    if side in ("batched", "per_instance"):
        return benchmark.Bound(flops=2 * per_token * tokens)
    return benchmark.Bound(flops=3 * tokens if side == "rule_table" else instances)


def stream_lengths(inst: list[Instance]) -> np.ndarray:
    succ = graphs.succ_matrix([g for g, _, _ in inst])
    return graphs.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst])[1]


def instance_curve(label: str, net: constructions.CounterRNN, inst: list[Instance],
                   problems: list[Problem], sizes: list[int], args: argparse.Namespace,
                   rng: np.random.Generator) -> dict:
    """Nested random samples of one instance set: size n runs the first n of one permutation."""
    order = rng.permutation(len(inst))
    tokens = np.cumsum(stream_lengths(inst)[order])
    per_token = widths(net)
    return benchmark.curve(
        "instances", sizes,
        lambda n: sides(net, [inst[i] for i in order[:n]], [problems[i] for i in order[:n]]),
        agree, repeats=args.repeats, cap_s=args.cap, label=label,
        bound=lambda n, side: work(int(tokens[n - 1]), n, per_token, side))


def chain_pair(k: int) -> list[Instance]:
    return [(graphs.chain(k), 1, k), (graphs.chain(k, broken=k // 2), 1, k)]


def chain_curve(net: constructions.CounterRNN, ks: list[int],
                args: argparse.Namespace) -> dict:
    """Size: the unbroken chain's stream length (k^2 + 3k + 1 tokens)."""
    k_of = {len(graphs.stream(*chain_pair(k)[0])): k for k in ks}
    per_token = widths(net)

    def tokens(size: int) -> int:
        return sum(len(graphs.stream(*x)) for x in chain_pair(k_of[size]))

    return benchmark.curve(
        "tokens", sorted(k_of), lambda L: sides(net, chain_pair(k_of[L]),
                                                endpoint_problems(chain_pair(k_of[L]))),
        agree, repeats=args.repeats, cap_s=args.cap, label="tokens_chains",
        bound=lambda L, side: work(tokens(L), 2, per_token, side))


def agree(ref: np.ndarray, out: np.ndarray) -> bool:
    return ref.shape == out.shape and bool((ref == out).all())


def numpy_call_s() -> float:
    """One of the kernel's per-position calls at batch one: (1, 12) @ (12, 20), out= given."""
    h, W, out = np.ones((1, 12)), np.ones((12, 20)), np.empty((1, 20))
    with threadpool_limits(1, user_api="blas"):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(1000):
                np.dot(h, W, out=out)
            times.append((time.perf_counter() - start) / 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reduction", type=int, nargs="+", default=[16, 64, 256, 1024, 4096],
                    help="instance counts sampled from the |V| <= 5 reduction")
    ap.add_argument("--exhaustive", type=int, nargs="+",
                    default=[16, 64, 256, 1024, 4096, 16384],
                    help="instance counts sampled from the exhaustive k <= 6 set")
    ap.add_argument("--chains", type=int, nargs="+", default=[8, 16, 32, 64, 128, 256, 512],
                    help="chain lengths k (the axis is their stream length)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cap", type=float, default=1.0, help="seconds; a side past it stops")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    net = constructions.build("endpoint")
    red, red_problems = reduction_set()
    exh = graphs.exhaustive_instances(6)
    curves = {
        "instances_reduction_n5": instance_curve("instances_reduction_n5", net, red, red_problems,
                                                 args.reduction, args, rng),
        "instances_exhaustive_k6": instance_curve("instances_exhaustive_k6", net, exh,
                                                  endpoint_problems(exh), args.exhaustive, args,
                                                  rng),
        "tokens_chains": chain_curve(net, args.chains, args)}
    bound = ("per run, L = total stream tokens of its instances: batched and per_instance "
             f"2 L (n h1 + h1 h2 + h2 h3 + h3 n) = {2 * widths(net)} L flops (the network's four "
             "products per token, widths 12, 20, 21, 21); rule_table 3 L operations (a rule "
             "lookup and two counter updates per token); solver 1 operation per instance; "
             "against the one-thread float64 GEMM rate")
    benchmark.write_curves("linear_rnns_constructions",
                           "linear_rnns.constructions.run (endpoint counter RNN)", bound, curves,
                           numpy_call_s=numpy_call_s(), numpy_calls_per_position=14,
                           reduction_instances=len(red), exhaustive_instances=len(exh),
                           chain_k=sorted(args.chains), sample_seed=0)
    return curves


if __name__ == "__main__":
    main()
