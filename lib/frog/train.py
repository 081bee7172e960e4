"""Full-batch Adam training of all replicas of one mode at once, and what a run reports
(spec §3 NB1): test accuracy per replica, the gate's trajectory, the FD recoverability R^2."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.frog import gnn
from lib.frog.gnn import Stacked


@dataclass(frozen=True)
class Setup:
    """What a training run needs besides the data (one value for all replicas)."""

    depth: int
    hidden: int
    epochs: int
    lr: float
    gate_lr: float
    fd_weight: float


@dataclass(frozen=True)
class Run:
    """Per replica: test accuracy (R,), the edge-role probability after each epoch (epochs + 1,
    R; None in the fixed modes), the final training loss (R,), the FD R^2 (R,) and the mean
    squared norm of the tx states the users read (R,; nan in the edge mode)."""

    test_accuracy: np.ndarray
    gate: np.ndarray | None
    train_loss: np.ndarray
    fd_r2: np.ndarray
    tx_energy: np.ndarray


def bce(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """(R,) mean binary cross-entropy over each replica's masked users."""
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, labels, reduction="none")
    return (loss * mask).sum(-1) / mask.sum(-1)


def accuracy(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> np.ndarray:
    """(R,) share of masked users whose logit sign matches the label."""
    hit = ((logits > 0).to(labels.dtype) == labels) & mask
    return (hit.sum(-1) / mask.sum(-1)).double().numpy()


def recoverability(st: Stacked, w: dict[str, torch.Tensor], out: gnn.Forward) -> np.ndarray:
    """(R,) R^2 of the best linear map [h_user, h_item, 1] -> h_tx (least squares), over the tx
    states the users read (layers 1 .. depth - 1, averaged); nan where there are none."""
    r = st.sizes[0]
    read = out.states
    if not read:
        return np.full(r, np.nan)
    scores = []
    for hu, hi, htx in read:
        x = torch.cat([gnn.gather(hu, st.tx_user), gnn.gather(hi, st.tx_item),
                       torch.ones_like(htx[..., :1])], -1).double()   # (R, T, 2H + 1)
        y = htx.double()                                               # (R, T, H)
        fit = torch.linalg.lstsq(x, y, driver="gelsd").solution   # batched gelsy errs on
        # rank-deficient replicas after the first (dead relu columns); gelsd does not
        resid = ((y - x @ fit) ** 2).sum((1, 2))
        total = ((y - y.mean(1, keepdim=True)) ** 2).sum((1, 2)).clamp_min(1e-300)
        scores.append((1 - resid / total).numpy())
    return np.mean(scores, axis=0)


def tx_energy(out: gnn.Forward) -> np.ndarray:
    """(R,) mean over tx rows of ||h_tx||^2 in the layers the users read (averaged; nan where
    there are none): the scale that a recoverability loss can shrink to zero."""
    read = out.states
    if not read:
        return np.full(out.logits.shape[0], np.nan)
    return np.mean([(htx.double() ** 2).sum(-1).mean(-1).numpy() for _, _, htx in read], axis=0)


def train(st: Stacked, seeds: list[int], mode: str, setup: Setup) -> Run:
    """Train every replica (replica r from seed seeds[r]) for setup.epochs full-batch steps."""
    w = gnn.init_weights(seeds, setup.hidden, setup.depth)
    for t in w.values():
        t.requires_grad_(True)
    body = [t for k, t in w.items() if k != "gate"]
    groups = [{"params": body, "lr": setup.lr}]
    if mode == "gate":
        groups.append({"params": [w["gate"]], "lr": setup.gate_lr})
    opt = torch.optim.Adam(groups)
    train_mask = (~st.test).to(st.labels.dtype)
    use_fd = setup.fd_weight > 0 and mode != "edge"
    gate = [torch.sigmoid(w["gate"]).detach().numpy().copy()]
    for _ in range(setup.epochs):
        opt.zero_grad()
        out = gnn.forward(st, w, setup.depth, mode)
        loss = bce(out.logits, st.labels, train_mask)
        if use_fd:
            loss = loss + setup.fd_weight * gnn.fd_penalty(st, w, out)
        loss.sum().backward()             # replicas share no weight: each gets its own gradient
        opt.step()
        gate.append(torch.sigmoid(w["gate"]).detach().numpy().copy())
    with torch.no_grad():
        out = gnn.forward(st, w, setup.depth, mode)
        final = bce(out.logits, st.labels, train_mask).double().numpy()
        acc = accuracy(out.logits, st.labels, st.test)
        none = np.full(len(seeds), np.nan)
        r2 = recoverability(st, w, out) if mode != "edge" else none
        energy = tx_energy(out) if mode != "edge" else none
    return Run(acc, np.stack(gate) if mode == "gate" else None, final, r2, energy)
