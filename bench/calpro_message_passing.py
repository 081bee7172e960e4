"""Benchmark: the chain GNN's forward pass (sparse mean aggregation, two rounds, spec §1.6)
against its per-residue reference, as a cost curve over the number of chains.

    python bench/calpro_message_passing.py [--chains 1 2 4 ... 80] [--hidden 32] [--repeats 3]
                                           [--cap 2.0]

The heaviest kernel of the miniature is the network every arm trains 200 times per fit:
`gnn.ChainGNN.forward` (an input layer, two rounds of relu(W [h, A h]) with A the row-normalised
sparse adjacency, a 4-output head, float32, one thread) against `naive.gnn_forward_loop` (the
same weights in float64 numpy, each residue's linear maps and neighbour means one at a time).
Chains are drawn from the X-ray-like regime (about 80 residues each; 80 chains is the default
training split). Before timing at a size, the two must agree to 1e-4 of the largest output
(float32 against float64 over sums of <= 2H terms).
Writes results/bench/calpro_message_passing.json.

Bound (one thread): the forward does 2 n (4 H + 4 H^2 + 4 H) float32 flops in its dense
products, against one thread's float32 GEMM rate; the loop does the same arithmetic in float64
one residue at a time.
"""
import argparse

import numpy as np
import torch

from lib.calpro import chains, gnn, naive
from lib.companion import benchmark

BOUND = ("forward: 2 n (4 H + 4 H^2 + 4 H) float32 flops (input layer, two rounds on [h, A h], "
         "head) against one thread's float32 GEMM rate; loop: the same flops in float64")
REGIME = chains.Regime(0.08, 0.3, 0.55)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chains", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 80])
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    net = gnn.ChainGNN(4, args.hidden, 4, 2, torch.Generator().manual_seed(0))
    sizes = {}

    def prepare(n: int) -> dict[str, benchmark.Run]:
        c = chains.sample_chains(n, REGIME, np.random.default_rng(n))
        sizes[n] = c.n
        x = c.features(True)
        g = gnn.graph(x, c.src, c.dst)

        def fast() -> np.ndarray:
            with torch.no_grad():
                return net(g).double().numpy()
        return {"loop": lambda: naive.gnn_forward_loop(net, x, c.src, c.dst), "forward": fast}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= 1e-4 * np.abs(a).max())

    def work(n: int, side: str) -> benchmark.Bound:
        H = args.hidden
        return benchmark.Bound(flops=2 * sizes[n] * (4 * H + 4 * H * H + 4 * H),
                               dtype="float64" if side == "loop" else "float32")

    curve = benchmark.curve("chains", args.chains, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=work, label="forward")
    benchmark.write_curves("calpro_message_passing", "calpro chain GNN forward: per-residue "
                           "loop vs sparse batched", BOUND, {"forward": curve},
                           hidden=args.hidden, residues=sizes)


if __name__ == "__main__":
    main()
