"""The bundled data sets of the miniature (spec §3) and their 60/20/20 stratified splits.

Files data/ptnas/<name>.npz are built by tools/build_data_ptnas.py from scikit-learn's bundled
sets; a split is standardised on its training part. Metric: accuracy (digits), AUC (synthetic)
and validation log-loss (breast cancer, where AUC saturates: spec §7 Q7).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from sklearn.model_selection import train_test_split

from lib.companion import paths

METRICS = {"digits": "accuracy", "synthetic": "auc", "breast_cancer": "neg_log_loss"}


@dataclass(frozen=True)
class Split:
    """Standardised train / validation / test tensors of one data set."""

    name: str
    metric: str
    x_train: torch.Tensor   # (n_train, d_in) float32
    y_train: torch.Tensor   # (n_train,) int64
    x_val: torch.Tensor
    y_val: torch.Tensor
    x_test: torch.Tensor
    y_test: torch.Tensor

    @property
    def d_in(self) -> int:
        return int(self.x_train.shape[1])

    @property
    def n_classes(self) -> int:
        return int(self.y_train.max()) + 1


def load_split(name: str, seed: int, n_rows: int | None = None) -> Split:
    """data/ptnas/<name>.npz split 60/20/20 (stratified, seeded), standardised on train;
    `n_rows` keeps a stratified subset first (the smoke profile)."""
    if name not in METRICS:
        raise ValueError(f"data set {name!r} is not one of {sorted(METRICS)}")
    raw = np.load(paths.data_file(f"ptnas/{name}.npz"))
    X, y = raw["X"].astype(np.float64), raw["y"]
    if n_rows is not None and n_rows < len(y):
        X, _, y, _ = train_test_split(X, y, train_size=n_rows, stratify=y, random_state=seed)
    x_tr, x_rest, y_tr, y_rest = train_test_split(X, y, test_size=0.4, stratify=y,
                                                  random_state=seed)
    x_va, x_te, y_va, y_te = train_test_split(x_rest, y_rest, test_size=0.5, stratify=y_rest,
                                              random_state=seed)
    mu, sd = x_tr.mean(0), x_tr.std(0)
    sd[sd == 0] = 1.0                      # constant pixels of digits stay zero
    t = lambda a: torch.as_tensor((a - mu) / sd, dtype=torch.float32)  # noqa: E731
    y_t = lambda a: torch.as_tensor(a, dtype=torch.int64)  # noqa: E731
    return Split(name, METRICS[name], t(x_tr), y_t(y_tr), t(x_va), y_t(y_va), t(x_te), y_t(y_te))
