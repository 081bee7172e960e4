"""The synthetic wGraph and its workflows (spec §1.1, §3): a layered DAG of operations, each with
a fixed prompt block, and workflows that visit each layer with some probability. A workflow is
laid out as segments (system prompt, op blocks, optional unique output blocks) whose tokens and
position ids the decoder reads; `distinct_prefixes` counts a trie's nodes without building it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SYSTEM = -1          # segment code of the system prompt (op segments use the op id >= 0)


@dataclass(frozen=True)
class WGraph:
    """Ops 0 .. n_ops-1, op o in graph layer o // ops_per_layer; block[o] its prompt tokens, whose
    first token is the op's own marker id o (a tool name), so sibling blocks never share a
    leading token. Every op of one layer may follow every op of an earlier layer."""

    system: np.ndarray                  # (|S|,) int64
    blocks: tuple[np.ndarray, ...]      # n_ops blocks, (|T(o)|,) int64 each
    ops_per_layer: int
    block_max: int
    output_width: int = 0               # tokens of the output block after each op (0: none)

    @property
    def n_layers(self) -> int:
        return len(self.blocks) // self.ops_per_layer

    def layer(self, op: int) -> int:
        return op // self.ops_per_layer


@dataclass(frozen=True)
class Segment:
    """One block of a workflow's context: `code` SYSTEM, an op id, or an output id
    (-2 - k for the k-th output block of the whole set: unique, so never shared)."""

    code: int
    tokens: np.ndarray                  # (n,) int64
    positions: np.ndarray               # (n,) int64


def sample_wgraph(rng: np.random.Generator, *, graph_layers: int, ops_per_layer: int,
                  block_min: int, block_max: int, system_tokens: int, vocab: int,
                  output_tokens: int = 0) -> WGraph:
    """Random prompt blocks: lengths uniform in [block_min, block_max], tokens uniform in
    [n_ops, vocab) after each block's marker token; output_tokens is the length of the unique
    output block that follows each op in a workflow (0: outputs omitted)."""
    n_ops = graph_layers * ops_per_layer
    system = rng.integers(n_ops, vocab, size=system_tokens)
    lengths = rng.integers(block_min, block_max + 1, size=n_ops)
    blocks = tuple(np.concatenate([[o], rng.integers(n_ops, vocab, size=n - 1)]).astype(np.int64)
                   for o, n in enumerate(lengths))
    return WGraph(system.astype(np.int64), blocks, ops_per_layer, block_max, output_tokens)


def sample_workflows(rng: np.random.Generator, graph: WGraph, n: int,
                     visit_prob: float) -> list[list[int]]:
    """n workflows: each visits graph layer l with probability visit_prob, then picks one of its
    ops uniformly (spec §3). Drawn one workflow after another, so the first k of n are the
    workflows a run with n = k draws (nested sets)."""
    paths = []
    for _ in range(n):
        visits = rng.random(graph.n_layers) < visit_prob
        picks = rng.integers(0, graph.ops_per_layer, size=graph.n_layers)
        paths.append([l * graph.ops_per_layer + int(p)
                      for l, (v, p) in enumerate(zip(visits, picks)) if v])
    return paths


def sample_outputs(rng: np.random.Generator, graph: WGraph, paths: list[list[int]],
                   vocab: int) -> list[list[np.ndarray]]:
    """One unique output block of graph.output_width tokens after every op of every workflow
    (empty lists when the width is 0: outputs omitted, the spec's default)."""
    if graph.output_width == 0:
        return [[] for _ in paths]
    n_ops = len(graph.blocks)
    return [[rng.integers(n_ops, vocab, size=graph.output_width).astype(np.int64) for _ in p]
            for p in paths]


def segments(graph: WGraph, path: list[int], outputs: list[np.ndarray], first_output: int,
             positions) -> list[Segment]:
    """The workflow's context [S; T(o1); out1; T(o2); out2; ...] as segments, with the position
    ids the layout rule `positions(graph, kind, op, offset, length)` gives (choices.py)."""
    out = [Segment(SYSTEM, graph.system, positions(graph, "system", None, 0, len(graph.system)))]
    end = len(graph.system)
    for k, op in enumerate(path):
        block = graph.blocks[op]
        out.append(Segment(op, block, positions(graph, "op", op, end, len(block))))
        end += len(block)
        if outputs:
            o = outputs[k]
            out.append(Segment(-2 - (first_output + k), o,
                               positions(graph, "output", op, end, len(o))))
            end += len(o)
    return out


def token_pairs(segs: list[Segment]) -> np.ndarray:
    """The workflow as (token, position) pairs, (n, 2): the KV of a token is a function of the
    pairs up to it, so these are what a prefix cache must match."""
    return np.stack([np.concatenate([s.tokens for s in segs]),
                     np.concatenate([s.positions for s in segs])], axis=1)


def distinct_prefixes(seqs: list[np.ndarray], weights: list[np.ndarray] | None = None) -> int:
    """Sum of `weights` over the distinct non-empty prefixes of the sequences (rows of items,
    each item a row of ints): the number of nodes of their trie when weights are 1. Sort the
    sequences, then each contributes its items beyond the longest prefix it shares with its
    sorted predecessor."""
    n = max(len(s) for s in seqs)
    width = seqs[0].shape[1] if seqs[0].ndim == 2 else 1
    pad = np.full((len(seqs), n, width), -(2 ** 62), dtype=np.int64)   # (W, n, width)
    for i, s in enumerate(seqs):
        pad[i, :len(s)] = s.reshape(len(s), width)
    flat = pad.reshape(len(seqs), n * width)
    order = np.lexsort(flat.T[::-1])                                    # rows lexicographically
    srt = pad[order]
    lengths = np.array([len(seqs[i]) for i in order])
    same = (srt[1:] == srt[:-1]).all(axis=2)                            # (W-1, n)
    lcp = np.concatenate([[0], np.where(same.all(axis=1), n, same.argmin(axis=1))])
    lcp = np.minimum(lcp, lengths)
    if weights is None:
        return int((lengths - lcp).sum())
    w = np.zeros((len(seqs), n), dtype=np.int64)
    for i, k in enumerate(order):
        w[i, :len(weights[k])] = weights[k]
    new = np.arange(n)[None, :] >= lcp[:, None]                         # (W, n) item is a new node
    return int((w * new).sum())


def layout_all(graph: WGraph, paths: list[list[int]], outputs: list[list[np.ndarray]],
               positions) -> list[list[Segment]]:
    """Every workflow's segments, the output blocks numbered across the whole set."""
    firsts = np.concatenate([[0], np.cumsum([len(o) for o in outputs])]).astype(int)
    return [segments(graph, p, o, int(f), positions) for p, o, f in zip(paths, outputs, firsts)]
