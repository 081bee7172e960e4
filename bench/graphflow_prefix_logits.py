"""Benchmark: final-token logits of W workflows from the prefix-shared KV cache (the segment
trie built once, each workflow's past assembled from it) against the token-by-token recompute
without cache (`naive.final_logits`), as a cost curve over W.

    python bench/graphflow_prefix_logits.py [--workflows 1 2 4 8 16 32] [--repeats 3] [--cap 3]

The notebook's default wGraph (5 x 4 ops, blocks of 8-32 tokens, |S| = 48, slot positions) and
decoder (2 layers, d = 64, 4 heads, float64, one thread). Both sides must agree to 1e-12 on
every logit before anything is timed. Writes results/bench/graphflow_prefix_logits.json.

Bound: a forward over n tokens after t cached ones costs about 2 n (12 d^2 + 2 (t + n) d) flops
per layer plus 2 n d V for the head. The naive side recomputes every workflow in full, n ~ 140
tokens each, so its work grows as W; the shared side computes each trie node once (at most
W x segments forwards) and one query token per workflow. The naive side is Python loops over
tokens and heads (numpy on 16-vectors), so it runs far from its bound: the ratio measures the
loop overhead and the sharing together, not the sharing alone.
"""
from __future__ import annotations

import argparse

import numpy as np
import torch

from lib.companion import benchmark
from lib.graphflow import cache, choices, naive, wgraph
from lib.graphflow.decoder import Decoder, Sizes

LAYERS, D, HEADS, VOCAB = 2, 64, 4, 256


def problem(w: int):
    """The first w workflows of the notebook's seed-0 draw, the decoder and the query."""
    rng = np.random.default_rng(0)
    g = wgraph.sample_wgraph(rng, graph_layers=5, ops_per_layer=4, block_min=8, block_max=32,
                             system_tokens=48, vocab=VOCAB)
    rule = choices.slot_positions
    paths = wgraph.sample_workflows(rng, g, w, 0.85)
    segs = wgraph.layout_all(g, paths, wgraph.sample_outputs(rng, g, paths, VOCAB), rule)
    model = Decoder(Sizes(VOCAB, choices.position_table(g, rule), LAYERS, D, HEADS),
                    torch.Generator().manual_seed(0))
    return g, segs, model, choices.query_token(g), choices.query_position(g, 0, rule)


def work(w: int, side: str) -> benchmark.Bound:
    """Flops of one run (module docstring), n = 140 tokens per workflow, t ~ n / 2 on average."""
    n = 140
    per_token = LAYERS * 2 * (12 * D * D + 2 * n * D)
    if side == "naive":
        return benchmark.Bound(flops=w * (n * per_token + 2 * D * VOCAB))
    return benchmark.Bound(flops=w * (n / 2 * per_token + per_token + 2 * D * VOCAB))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workflows", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=3.0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    def prepare(w: int) -> dict:
        g, segs, model, q, qp = problem(w)
        pairs = [wgraph.token_pairs(s) for s in segs]

        def shared() -> np.ndarray:
            nodes = cache.build_shared(model, segs)
            return np.stack([cache.final_logits(model, cache.assemble(cache.path_parts(nodes, s)),
                                                q, qp).numpy() for s in segs])

        def recompute() -> np.ndarray:
            return np.stack([naive.final_logits(model, np.append(p[:, 0], q),
                                                np.append(p[:, 1], qp)) for p in pairs])
        return {"naive": recompute, "shared": shared}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= 1e-12)

    curve = benchmark.curve("workflows", args.workflows, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=work, label="prefix_logits")
    benchmark.write_curves("graphflow_prefix_logits", "graphflow final-token logits: token-by-"
                           "token recompute vs the prefix-shared KV cache", "2 n (12 d^2 + 2 t d)"
                           " flops per token and layer, n ~ 140 tokens per workflow; the shared "
                           "side computes each trie node once", {"prefix_logits": curve},
                           layers=LAYERS, d=D, heads=HEADS, vocab=VOCAB)


if __name__ == "__main__":
    main()
