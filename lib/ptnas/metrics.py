"""Validation metrics of many networks at once: accuracy, AUC (Mann-Whitney) and log-loss."""
from __future__ import annotations

import numpy as np
import torch
from scipy.stats import rankdata


def auc_rows(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ROC AUC of every row of `scores` (nets, n) for binary labels y (n,), ties counted half."""
    pos = y == 1
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("AUC needs both classes in the labels")
    ranks = rankdata(scores, axis=1)                       # (nets, n), average ranks for ties
    return (ranks[:, pos].sum(1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def metric_rows(logits: torch.Tensor, y: torch.Tensor, metric: str) -> np.ndarray:
    """One number per network from logits (nets, n, classes); higher is better for every metric."""
    if metric == "accuracy":
        return (logits.argmax(-1) == y).double().mean(1).numpy()
    if metric == "auc":
        margin = (logits[..., 1] - logits[..., 0]).double().numpy()   # monotone in P(class 1)
        return auc_rows(margin, y.numpy())
    if metric == "neg_log_loss":
        logp = torch.log_softmax(logits.double(), -1)
        return logp.gather(-1, y.expand(logits.shape[0], -1)[..., None])[..., 0].mean(1).numpy()
    raise ValueError(f"metric {metric!r} is not accuracy, auc or neg_log_loss")
