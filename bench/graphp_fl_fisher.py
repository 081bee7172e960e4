"""Benchmark: the diagonal Fisher of FRPA (spec §1.2, §4), the batched written-out per-sample
gradients of `gcn.fisher` against `naive.fisher_loop` (autograd through the whole GCN, one node
at a time), as a cost curve over the number of nodes whose gradients are averaged.

    python bench/graphp_fl_fisher.py [--nodes 8 16 ... 150] [--models 12] [--n 300]
                                     [--repeats 3] [--cap 2.0]

NB2 computes this Fisher every round for the 12 FRPA models (2 arms x 6 clients) on their 150
training nodes of a 300-node graph (d = 16, hidden 16, 4 classes). The loop handles one model
at a time and runs a full forward and backward per node; the batched side does every model at
once with one GEMM of the selected rows of A_hat over the (n, d h) per-node products. Before
anything is timed at a size the two must agree to 1e-8 relative (float64 both). Writes
results/bench/graphp_fl_fisher.json.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.graphp_fl import gcn, naive, sbm

DIM, HIDDEN, CLASSES = 16, 16, 4
BOUND = "none given: a ratio of wall times (the loop's cost is dispatch, not flops)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[8, 16, 32, 64, 150])
    parser.add_argument("--models", type=int, default=12)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    comm = np.arange(args.n) % CLASSES
    adj = torch.as_tensor(np.stack([sbm.sbm_graph(rng, rng.permutation(comm), 0.08, 0.01)
                                    for _ in range(args.models)]))
    a_hat = gcn.normalise(adj).double()
    x = torch.as_tensor(rng.standard_normal((args.models, args.n, DIM)))
    y = torch.as_tensor(rng.integers(0, CLASSES, (args.models, args.n)))
    gen = torch.Generator().manual_seed(0)
    params = tuple(torch.stack(t).double() for t in
                   zip(*(gcn.init(gen, DIM, HIDDEN, CLASSES) for _ in range(args.models))))
    ax = a_hat @ x

    def prepare(b: int) -> dict[str, benchmark.Run]:
        nodes = torch.as_tensor(np.stack([rng.choice(args.n, b, replace=False)
                                          for _ in range(args.models)]))

        def loop() -> list:
            return [naive.fisher_loop(tuple(p[m] for p in params), a_hat[m], x[m],
                                      nodes[m].tolist(), y[m]) for m in range(args.models)]

        def batched() -> list:
            f = gcn.fisher(params, a_hat, ax, nodes, y)
            return [tuple(t[m] for t in f) for m in range(args.models)]
        return {"loop": loop, "batched": batched}

    def agree(a: list, b: list) -> bool:
        return all(torch.allclose(u, v, rtol=1e-8, atol=1e-14) for fa, fb in zip(a, b)
                   for u, v in zip(fa, fb))

    curve = benchmark.curve("nodes", args.nodes, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, label="fisher")
    benchmark.write_curves("graphp_fl_fisher", "graphp_fl diagonal Fisher: per-node autograd "
                           "loop vs batched written-out per-sample gradients", BOUND,
                           {"fisher": curve}, models=args.models, n=args.n)


if __name__ == "__main__":
    main()
