"""Where the spec leaves frog open (spec §7), the one swappable function each. The rules that
decide the statistical and qualitative claims are in decisions.py, which only the claims stage
reads."""
from __future__ import annotations

import torch


def fd_residual(predicted: torch.Tensor, h_tx: torch.Tensor) -> torch.Tensor:
    """(R,) mean over tx rows of ||g([h_user, h_item]) - h_tx||^2 (spec §1.1's reading of the
    functional-dependency constraint, open question §7 Q3): the tx state must be recoverable from
    the two entities it references."""
    return ((predicted - h_tx) ** 2).sum(-1).mean(-1)
