"""Benchmark: GraphPFN's neighbourhood attention (GA, spec §1.3), the prior's largest
component (spec §1.1 step 4) and its second-level node map (step 2), each against its plain-loop
reference, as cost curves over the node count n.

    python bench/graphpfn_attention.py [--n 16 32 ... 1024] [--degree 5] [--heads 4] [--d 64]
                                       [--repeats 5] [--cap 2.0]

- "attention": `tiny_pfn.neighbour_attention` (per-edge scores, a scatter max per destination,
  two index_adds over the 2E directed edges) against `naive.neighbour_attention_naive` (one
  destination and one head at a time, Python-float softmax), float64, on a random graph with
  mean degree --degree (about the prior's at scale 0.1). The outputs must agree to 1e-10 before
  anything is timed (float64 sums of at most max-degree terms).
- "lcc": `prior_structure.largest_component` (scipy's connected_components on a COO matrix)
  against `naive.largest_component_naive` (union-find with path halving), the same graphs;
  the node lists must be identical.
- "merge": `prior_structure.second_level_map` (plain counts per pool, one gather at the end)
  against `naive.second_level_map_naive` (the code's pool-by-pool walk), on n nodes in groups of
  1-12 (first level) and 1-6 (second level), the prior's sizes at scale 0.05; both from one seed,
  the maps must be identical (the same draws, call for call).

Bound (one thread): attention does 2E heads dh (score) + 2E heads dh (weighted values) + a few
per-edge exponentials, 4 E d flops for E undirected edges, and must read q, k, v and write the
output, 4 n d float64 = 32 n d bytes, plus the per-edge gathers 3 * 2E d * 8 bytes; lcc reads
the 2E int64 edge ends, 16 E bytes. Against one thread's float64 GEMM rate and copy bandwidth.
Writes results/bench/graphpfn_attention.json.

Measured on the development machine (2 shared cores, one thread, one run): attention, the loop
is 15-40 times slower at n = 16-64 and 115 times at n = 1024 (both linear in n; the vectorised
side's ~0.4 ms floor below n = 128 is its ~15 torch ops' dispatch); lcc, union-find in Python
is faster below n = 128 (scipy's set-up) and 2-10 times slower from n = 512.
"""
import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.graphpfn import naive, prior_structure, tiny_pfn

BOUND = ("attention: 4 E d flops (scores and weighted sums over the 2E directed edges, d = "
         "heads * dh) and 32 n d + 48 E d bytes (q, k, v, output; the per-edge gathers), "
         "float64; lcc: 16 E bytes (the edge ends); merge: 24 n bytes (the map and both group "
         "ids); E undirected edges, one thread")


def random_graph(n: int, degree: float) -> np.ndarray:
    """A simple random graph with about n degree / 2 edges (seeded by n)."""
    rng = np.random.default_rng(n)
    return prior_structure.simplify(rng.integers(0, n, (int(n * degree / 2) + 1, 2)))


def attention_curve(args: argparse.Namespace) -> dict:
    """neighbour_attention against the per-node loop, over n."""
    dh = args.d // args.heads
    edges_at: dict[int, int] = {}

    def prepare(n: int) -> dict[str, benchmark.Run]:
        e = torch.as_tensor(random_graph(n, args.degree))
        edges_at[n] = len(e)
        src, dst = torch.cat([e[:, 0], e[:, 1]]), torch.cat([e[:, 1], e[:, 0]])
        gen = torch.Generator().manual_seed(n)
        q, k, v = (torch.randn(n, args.heads, dh, generator=gen, dtype=torch.float64)
                   for _ in range(3))
        pairs = torch.stack([src, dst], 1)
        return {"naive": lambda: naive.neighbour_attention_naive(q, k, v, pairs),
                "neighbour_attention": lambda: tiny_pfn.neighbour_attention(q, k, v, src, dst)}

    def agree(a: torch.Tensor, b: torch.Tensor) -> bool:
        return bool((a - b).abs().max() <= 1e-10)

    def work(n: int, side: str) -> benchmark.Bound:
        E = edges_at[n]
        return benchmark.Bound(flops=4 * E * args.d, bytes=32 * n * args.d + 48 * E * args.d)
    return benchmark.curve("n", args.n, prepare, agree, repeats=args.repeats, cap_s=args.cap,
                           bound=work, label="attention")


def lcc_curve(args: argparse.Namespace) -> dict:
    """largest_component against union-find, over n (sparser graphs: several components)."""
    edges_at: dict[int, int] = {}

    def prepare(n: int) -> dict[str, benchmark.Run]:
        e = random_graph(n, 1.2)
        edges_at[n] = len(e)
        return {"naive": lambda: naive.largest_component_naive(n, e),
                "largest_component": lambda: prior_structure.largest_component(n, e).tolist()}

    def work(n: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(bytes=16 * edges_at[n], dtype="float64")
    return benchmark.curve("n", [4 * n for n in args.n], prepare, lambda a, b: a == b,
                           repeats=args.repeats, cap_s=args.cap, bound=work, label="lcc")


def merge_curve(args: argparse.Namespace) -> dict:
    """second_level_map against the pool-by-pool walk, over n."""
    def prepare(n: int) -> dict[str, benchmark.Run]:
        rng = np.random.default_rng(n)
        group1 = np.repeat(np.arange(n // 6), prior_structure.group_sizes(n, n // 6, 1, 12, rng))
        group2 = np.repeat(np.arange(n // 3), prior_structure.group_sizes(n, n // 3, 1, 6, rng))
        return {side: lambda f=f: f(group1, group2, np.random.default_rng(0)).tolist()
                for side, f in (("naive", naive.second_level_map_naive),
                                ("second_level_map", prior_structure.second_level_map))}

    def work(n: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(bytes=24 * n, dtype="float64")     # the map and both group ids
    return benchmark.curve("n", [4 * n for n in args.n], prepare, lambda a, b: a == b,
                           repeats=args.repeats, cap_s=args.cap, bound=work, label="merge")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16 * 2 ** k for k in range(7)])
    parser.add_argument("--degree", type=float, default=5.0)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    curves = {"attention": attention_curve(args), "lcc": lcc_curve(args),
              "merge": merge_curve(args)}
    benchmark.write_curves("graphpfn_attention", "graphpfn neighbourhood attention, largest "
                           "component and second-level map: per-node loop / union-find / "
                           "pool-by-pool walk vs vectorised", BOUND, curves,
                           degree=args.degree, heads=args.heads, d=args.d)


if __name__ == "__main__":
    main()
