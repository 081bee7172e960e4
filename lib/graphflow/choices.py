"""The choices the spec leaves open (spec §7), each one swappable function, and the rounding
tolerances of the exact checks. The rules deciding the statistical and qualitative claims are in
decisions.py, which the claims stage alone reads."""
from __future__ import annotations

import numpy as np
import torch

PAPER_SAVING = 4.0           # G2: "about 4x lower memory footprint" (abstract): the figure's line
PREFIX_ATOL = 1e-12          # graphflow.prefix.exact and C.rho1 (float64; spec §3)
LAYER0_ATOL = 1e-14          # graphflow.resid.layer0 (spec §3)


def slot_positions(graph, kind: str, op: int | None, offset: int, length: int) -> np.ndarray:
    """Decision (Q1, positional handling): position ids by wGraph slot. S takes 0..|S|-1; graph
    layer l owns a fixed range of block_max (+ output) positions, so op o sits at the same
    positions in every workflow and its canonical position is its actual one."""
    if kind == "system":
        return np.arange(length, dtype=np.int64)
    width = graph.block_max + graph.output_width
    start = len(graph.system) + graph.layer(op) * width
    if kind == "output":
        start += len(graph.blocks[op])
    return np.arange(start, start + length, dtype=np.int64)


def contiguous_positions(graph, kind: str, op: int | None, offset: int,
                         length: int) -> np.ndarray:
    """The alternative: positions 0..n-1 along the context, as an LLM server assigns them."""
    return np.arange(offset, offset + length, dtype=np.int64)


LAYOUTS = {"slot": slot_positions, "contiguous": contiguous_positions}


def canonical_positions(graph, op: int, rule) -> np.ndarray:
    """Where the base entry of op o is computed: T(o) right after S in the context [S; T(o)],
    at the positions the layout rule gives it there (under slots: its own slot)."""
    return rule(graph, "op", op, len(graph.system), len(graph.blocks[op]))


def query_position(graph, end: int, rule) -> int:
    """The position of the final query token: after the last slot, or after the context."""
    if rule is slot_positions:
        return len(graph.system) + graph.n_layers * (graph.block_max + graph.output_width)
    return end


def position_table(graph, rule) -> int:
    """Rows the decoder's position table needs: the largest query position, plus one."""
    longest = len(graph.system) + graph.n_layers * (graph.block_max + graph.output_width)
    return max(query_position(graph, longest, rule), longest) + 1


def sparsify(residual: torch.Tensor, rho: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Decision (Q1, sparsifier): the floor(rho n) largest-magnitude entries of one occurrence's
    whole residual (all layers, K and V), as (values, flat int64 indices)."""
    flat = residual.reshape(-1)
    k = int(np.floor(rho * flat.numel()))
    idx = flat.abs().topk(k, sorted=False).indices
    return flat[idx], idx


def kept_residuals(norms: np.ndarray, tau_quantile: float) -> np.ndarray:
    """Decision (Q2, path pruning): keep the residuals whose Frobenius norm reaches the
    tau_quantile-quantile of all occurrences' norms (0 keeps every one)."""
    if tau_quantile == 0.0:
        return np.ones(len(norms), dtype=bool)
    return norms >= np.quantile(norms, tau_quantile, method="higher")


def query_token(graph) -> int:
    """The final query token whose logits the error is measured on: the first prompt id (not
    an op marker), the same for every workflow."""
    return len(graph.blocks)


