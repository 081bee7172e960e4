"""Benchmark: the DGC counter network run on all instances at once vs one instance at a time.

Three instance sets of notebook 02 (spec §4.1-4.2): the chains 1 -> ... -> k for k in
{100, 200, 300} with and without their middle edge, the layered reduction's distinct instances
for |V| <= 5, and every sorted deterministic graph with k <= 6 and all (s, t). On each set:
- `batched`: `constructions.run` on the whole set (one matrix product per layer and position
  over the instance axis);
- `per_instance_loop`: the same kernel called once per instance (batch of one);
- `rule_table_loop`: `naive.counter_machine`, the rule table interpreted token by token in
  Python (the kind of `if/elif` state machine a plain audit runs; it checks no network).
The two loops run on a fixed sample of each set (all of it for the chains) and every timing is
turned into seconds per instance, so the ratios compare like with like. Before timing, the
batched decisions are checked against the per-instance ones and against the references (path
endpoint, functional reachability). Writes results/bench/linear_rnns_constructions.json.

    python bench/linear_rnns_constructions.py [--sample 300] [--repeats 3]
"""
from __future__ import annotations

import argparse

import numpy as np

from lib.companion import benchmark
from lib.linear_rnns import constructions, graphs, naive


def chain_set(ks=(100, 200, 300)) -> list[tuple[np.ndarray, int, int]]:
    return [(graphs.chain(k), 1, k) for k in ks] + \
        [(graphs.chain(k, broken=k // 2), 1, k) for k in ks]


def reduction_set(n_max: int = 5) -> tuple[list[tuple[np.ndarray, int, int]], list[bool]]:
    """The distinct reduced instances for |V| <= n_max with their functional-reachability labels
    (f(t) is forgotten by the reduction, so distinct instances are what notebook 02 runs)."""
    inst, labels = [], []
    for n in range(1, n_max + 1):
        f, s, t = graphs.reduction_domain(n)
        succ, s_red, F = graphs.reduce_batch(f, s, t)
        first, _ = graphs.distinct_instances(succ, s_red)
        inst += [(succ[i], int(s_red[i]), F) for i in first]
        labels += [graphs.functional_reachable(f[i], int(s[i]), int(t[i])) for i in first]
    return inst, labels


def batched(net, inst) -> np.ndarray:
    succ = graphs.succ_matrix([g for g, _, _ in inst])
    toks, lens = graphs.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst])
    return constructions.accept(net, constructions.run(net, toks, lens)[0])


def per_instance(net, inst) -> np.ndarray:
    return np.concatenate([batched(net, [x]) for x in inst])


def rule_table(streams) -> np.ndarray:
    out = [naive.counter_machine(constructions.RULES_ENDPOINT, x, "SRC") for x in streams]
    return np.array([q == "DONE" and S == 0 for q, S, *_ in out])


def measure(name: str, inst, labels, sample: int, repeats: int, rng) -> dict:
    """Per-instance seconds of the three runs on one set, after checking they agree."""
    net = constructions.build("endpoint")
    idx = np.arange(len(inst)) if len(inst) <= sample else \
        np.sort(rng.choice(len(inst), sample, replace=False))
    part = [inst[i] for i in idx]
    streams = [graphs.stream(g, s, t) for g, s, t in part]
    full = batched(net, inst)
    if not (full == np.asarray(labels)).all():
        raise SystemExit(f"{name}: the batched network disagrees with the reference")
    loops_agree = (per_instance(net, part) == full[idx]).all() and \
        (rule_table(streams) == full[idx]).all()
    if not loops_agree:
        raise SystemExit(f"{name}: the loops disagree with the batched network")
    med = benchmark.median_times({"batched": lambda: batched(net, inst),
                                  "per_instance_loop": lambda: per_instance(net, part),
                                  "rule_table_loop": lambda: rule_table(streams)}, repeats)
    per = {"batched": med["batched"] / len(inst),
           "per_instance_loop": med["per_instance_loop"] / len(part),
           "rule_table_loop": med["rule_table_loop"] / len(part)}
    print(f"{name}: {len(inst)} instances (loops on {len(part)}); s/instance " +
          ", ".join(f"{k} {v:.2e}" for k, v in per.items()))
    return {"instances": len(inst), "loop_sample": len(part), "seconds_per_instance": per,
            "ratio_per_instance_loop_over_batched": per["per_instance_loop"] / per["batched"],
            "ratio_rule_table_loop_over_batched": per["rule_table_loop"] / per["batched"]}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=300, help="instances the loops run on per set")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    chains = chain_set()
    red, red_labels = reduction_set()
    exh = graphs.exhaustive_instances(6)
    sets = {"chains": (chains, [graphs.path_endpoint(g, s) == t for g, s, t in chains]),
            "reduction_n5": (red, red_labels),
            "exhaustive_k6": (exh, [graphs.path_endpoint(g, s) == t for g, s, t in exh])}
    results = {name: measure(name, inst, lab, args.sample, args.repeats, rng)
               for name, (inst, lab) in sets.items()}
    out = {"kernel": "linear_rnns.constructions.run (endpoint counter RNN)",
           "repeats": args.repeats, "sets": results}
    for name, r in results.items():   # top-level ratios: what the book's performance page plots
        for loop in ("per_instance_loop", "rule_table_loop"):
            out[f"ratio_{name}_{loop}_over_batched"] = r[f"ratio_{loop}_over_batched"]
    print(f"-> {benchmark.write('linear_rnns_constructions', out)}")
    return out


if __name__ == "__main__":
    main()
