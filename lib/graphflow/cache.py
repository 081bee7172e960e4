"""KV-cache byte accounting for independent (A), prefix-tree (B) and differential (C) caching
(spec §1.2), the caches themselves on the decoder, and the cache-assembled forward pass.

A: every workflow's KV stored on its own. B: one KV per distinct (token, position) prefix; built
here per segment of the segment trie (each op block starts with its own marker token, so the two
tries have the same nodes). C [RECON]: one base entry per op, the KV of T(o) in [S; T(o)], plus
per trie occurrence a sparse residual R = KV(T(o) | prefix) - base, pruned by norm."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.graphflow import choices, wgraph
from lib.graphflow.decoder import Decoder
from lib.graphflow.wgraph import Segment

Key = tuple[int, ...]                  # a node of the segment trie: the codes up to it


def bytes_per_token(layers: int, heads: int, d_head: int, element_bytes: int) -> int:
    """b = 2 L H d_head bytes_per_element: one K and one V row per layer and head."""
    return 2 * layers * heads * d_head * element_bytes


def independent_tokens(pairs: list[np.ndarray]) -> int:
    """A: the tokens of all workflows, each stored once per workflow."""
    return int(np.sum([len(p) for p in pairs]))


def prefix_tokens(pairs: list[np.ndarray]) -> int:
    """B: the distinct (token, position) prefixes over all workflows (the trie's nodes)."""
    return wgraph.distinct_prefixes(pairs)


def residual_entries(seg_lists: list[list[Segment]], entries_per_token: int, rho: float) -> int:
    """C's stored residual entries at tau = 0: floor(rho n) per distinct op occurrence, n the
    entries of its KV (entries_per_token |T(o)|), summed over the segment trie's op nodes."""
    codes = [np.array([s.code for s in segs], dtype=np.int64) for segs in seg_lists]
    weights = [np.array([int(np.floor(rho * entries_per_token * len(s.tokens))) if s.code >= 0
                         else 0 for s in segs], dtype=np.int64) for segs in seg_lists]
    return wgraph.distinct_prefixes(codes, weights)


def base_tokens(seg_lists: list[list[Segment]]) -> int:
    """C's exactly stored tokens: S once, each op's block once, every output block (unique)."""
    ops: dict[int, int] = {}
    outputs = 0
    for segs in seg_lists:
        for s in segs[1:]:
            if s.code >= 0:
                ops[s.code] = len(s.tokens)
            else:
                outputs += len(s.tokens)
    return len(seg_lists[0][0].tokens) + sum(ops.values()) + outputs


def differential_bytes(seg_lists: list[list[Segment]], b: int, entries_per_token: int,
                       rho: float, element_bytes: int, index_bytes: int) -> int:
    """M_C at tau = 0: b (|S| + sum_o |T(o)| + outputs) + floor(rho n) (value + index) bytes per
    op occurrence (spec §1.2 with c_idx = 1 + index_bytes / element_bytes)."""
    entries = residual_entries(seg_lists, entries_per_token, rho)
    return b * base_tokens(seg_lists) + entries * (element_bytes + index_bytes)


def as_tensors(seg: Segment) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.from_numpy(seg.tokens), torch.from_numpy(seg.positions)


def assemble(parts: list[torch.Tensor]) -> torch.Tensor:
    """A past (L, 2, H, t, dh) from per-segment KV, in context order."""
    return torch.cat(parts, dim=3)


def build_shared(model: Decoder, seg_lists: list[list[Segment]]) -> dict[Key, torch.Tensor]:
    """B: the segment trie's nodes, each segment's KV computed once after its prefix's past."""
    nodes: dict[Key, torch.Tensor] = {}
    for segs in seg_lists:
        key: Key = ()
        parts: list[torch.Tensor] = []
        for s in segs:
            key = key + (s.code,)
            if key not in nodes:
                nodes[key] = model.kv_of(*as_tensors(s), assemble(parts) if parts else None)
            parts.append(nodes[key])
    return nodes


def build_independent(model: Decoder, segs: list[Segment]) -> list[torch.Tensor]:
    """A: one workflow's KV, segment after segment, sharing nothing with any other workflow."""
    parts: list[torch.Tensor] = []
    for s in segs:
        parts.append(model.kv_of(*as_tensors(s), assemble(parts) if parts else None))
    return parts


def node_segments(seg_lists: list[list[Segment]]) -> dict[Key, Segment]:
    """The segment each node of the segment trie ends with."""
    return {tuple(s.code for s in segs[:i + 1]): segs[i]
            for segs in seg_lists for i in range(len(segs))}


def path_parts(nodes: dict[Key, torch.Tensor], segs: list[Segment]) -> list[torch.Tensor]:
    """The shared cache's KV along one workflow's path."""
    codes = tuple(s.code for s in segs)
    return [nodes[codes[:i + 1]] for i in range(len(segs))]


def final_logits(model: Decoder, past: torch.Tensor, query: int, position: int) -> torch.Tensor:
    """Logits (vocab,) of the query token after the cached context."""
    return model(torch.tensor([query]), torch.tensor([position]), past)[0][0]


@dataclass(frozen=True)
class Differential:
    """C: the base entries per op and the residual of every op occurrence of the trie."""

    system: torch.Tensor                        # S's KV (exact: S always comes first)
    bases: dict[int, torch.Tensor]              # op -> KV of T(o) in [S; T(o)]
    residuals: dict[Key, torch.Tensor]          # op occurrence -> true KV - base


def build_differential(model: Decoder, graph: wgraph.WGraph, nodes: dict[Key, torch.Tensor],
                       rule) -> Differential:
    """Base entries at the canonical positions and the dense residuals of all op nodes."""
    system = nodes[(wgraph.SYSTEM,)]
    ops = sorted({k[-1] for k in nodes if k[-1] >= 0})
    bases = {o: model.kv_of(torch.from_numpy(graph.blocks[o]),
                            torch.from_numpy(choices.canonical_positions(graph, o, rule)),
                            system) for o in ops}
    residuals = {k: kv - bases[k[-1]] for k, kv in nodes.items() if k[-1] >= 0}
    return Differential(system, bases, residuals)


@dataclass(frozen=True)
class Sparse:
    """A residual kept as its largest entries: values, flat indices, the dense shape."""

    values: torch.Tensor
    index: torch.Tensor
    shape: torch.Size

    def dense(self) -> torch.Tensor:
        flat = torch.zeros(self.shape.numel(), dtype=self.values.dtype)
        return flat.scatter_(0, self.index, self.values).view(self.shape)


def sparse_residuals(diff: Differential, rho: float, tau_quantile: float,
                     index_dtype: torch.dtype) -> dict[Key, Sparse]:
    """The residuals C stores at (rho, tau): top-rho entries of those that survive pruning."""
    keys = list(diff.residuals)
    norms = np.array([float(diff.residuals[k].norm()) for k in keys])
    kept = choices.kept_residuals(norms, tau_quantile)
    out = {}
    for k, keep in zip(keys, kept):
        if keep:
            values, index = choices.sparsify(diff.residuals[k], rho)
            out[k] = Sparse(values, index.to(index_dtype), diff.residuals[k].shape)
    return out


def differential_parts(diff: Differential, sparse: dict[Key, Sparse],
                       exact: dict[Key, torch.Tensor], segs: list[Segment]) -> list[torch.Tensor]:
    """C's KV along one workflow: S exact, each op its base plus its stored residual (if kept),
    each output block as stored (`exact`: the shared cache's nodes)."""
    parts, key = [diff.system], (wgraph.SYSTEM,)
    for s in segs[1:]:
        key = key + (s.code,)
        if s.code < 0:
            parts.append(exact[key])
        elif key in sparse:
            parts.append(diff.bases[s.code] + sparse[key].dense().to(torch.float64))
        else:
            parts.append(diff.bases[s.code])
    return parts


def stored_bytes(diff: Differential, sparse: dict[Key, Sparse],
                 exact: dict[Key, torch.Tensor]) -> int:
    """The bytes C's tensors take: S, the bases, the kept values and indices, the outputs."""
    dense = [diff.system, *diff.bases.values(), *(v for k, v in exact.items() if k[-1] < -1)]
    return (sum(t.element_size() * t.numel() for t in dense)
            + sum(s.values.element_size() * s.values.numel()
                  + s.index.element_size() * s.index.numel() for s in sparse.values()))


def relative_error(approx: torch.Tensor, true: torch.Tensor) -> float:
    """||approx - true|| / ||true|| (Frobenius)."""
    return float((approx - true).norm() / true.norm())


def layer_residual_norms(diff: Differential, nodes: dict[Key, torch.Tensor]) -> np.ndarray:
    """Per decoder layer: ||R_l|| / ||KV_l|| over all op occurrences together (F3)."""
    keys = list(diff.residuals)
    r = torch.cat([diff.residuals[k] for k in keys], dim=3)                 # (L, 2, H, T, dh)
    kv = torch.cat([nodes[k] for k in keys], dim=3)
    return (r.flatten(1).norm(dim=1) / kv.flatten(1).norm(dim=1)).numpy()
