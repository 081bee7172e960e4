"""The mini NAS-bench space (spec §3): MLPs of depth 1-3, each hidden width from a short list.

An architecture is a tuple of hidden widths, e.g. (64, 32); the input and output sizes come from
the data set. The order of `enumerate_space` (by depth, then lexicographic) is the bench's
row order.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

Arch = tuple[int, ...]


def enumerate_space(widths: Sequence[int], depth_min: int, depth_max: int) -> list[Arch]:
    """Every tuple of hidden widths with depth_min <= depth <= depth_max, by depth then lexical."""
    if not widths or depth_min < 1 or depth_max < depth_min:
        raise ValueError(f"empty search space: widths = {list(widths)}, depths "
                         f"{depth_min}..{depth_max}; allowed: some width and 1 <= min <= max")
    ws = sorted(widths)
    return [a for d in range(depth_min, depth_max + 1) for a in itertools.product(ws, repeat=d)]


def n_params(arch: Arch, d_in: int, d_out: int) -> int:
    """Weights and biases of the MLP d_in -> arch -> d_out."""
    sizes = (d_in, *arch, d_out)
    return sum((a + 1) * b for a, b in zip(sizes[:-1], sizes[1:]))


def mutate(arch: Arch, rng: np.random.Generator, widths: Sequence[int],
           depth_min: int, depth_max: int) -> Arch:
    """One random edit: change one width, insert a layer or delete one (depth kept in range)."""
    moves = ["width"]
    if len(arch) < depth_max:
        moves.append("insert")
    if len(arch) > depth_min:
        moves.append("delete")
    move = moves[rng.integers(len(moves))]
    layers = list(arch)
    if move == "width":
        i = int(rng.integers(len(layers)))
        others = [w for w in widths if w != layers[i]] or list(widths)
        layers[i] = int(others[rng.integers(len(others))])
    elif move == "insert":
        layers.insert(int(rng.integers(len(layers) + 1)), int(widths[rng.integers(len(widths))]))
    else:
        del layers[int(rng.integers(len(layers)))]
    return tuple(layers)
