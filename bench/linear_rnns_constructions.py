"""Benchmark: the vectorised ReLU counter RNN (all instances at once) vs a per-instance loop.

Same instances (every sorted deterministic graph on k <= K vertices, all (s, t), the printed
endpoint network of spec §4.1), same fixed weights. Checks that both agree with each other and
with the path-endpoint reference, times several repeats, and writes
results/bench/linear_rnns_constructions.json with both medians and their ratio.

    python bench/linear_rnns_constructions.py [--k 5] [--repeats 3]
"""
from __future__ import annotations

import argparse

import numpy as np

from lib.companion import benchmark
from lib.linear_rnns import constructions, graphs, naive


def vectorised(net, streams):
    toks, lens = graphs.pad_streams(streams)
    return constructions.accept(net, constructions.run(net, toks, lens)[0])


def per_instance(net, streams):
    st = np.array([naive.counter_rnn_single(net, x) for x in streams], dtype=np.int64)
    return constructions.accept(net, st)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=5, help="exhaustive domain k <= this")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    inst = graphs.exhaustive_instances(args.k)
    streams = [graphs.stream(g, s, t) for g, s, t in inst]
    ref = np.array([graphs.path_endpoint(g, s) == t for g, s, t in inst])
    net = constructions.build("endpoint")
    runs = {"per_instance_loop": lambda: per_instance(net, streams),
            "vectorised": lambda: vectorised(net, streams)}
    return benchmark.compare("linear_rnns_constructions",
                             "linear_rnns.constructions.run (endpoint counter RNN)", runs,
                             lambda slow, fast: (slow == fast).all() and (fast == ref).all(),
                             args.repeats, instances=len(inst), k_max=args.k)

if __name__ == "__main__":
    main()
