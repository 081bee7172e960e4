"""The images (spec §1.8, §7 Q8): Fashion-MNIST from the project's subset, and sklearn's digits.

data/fashion_mnist/subset.npz holds the first 2 500 training images of each class in file order
and no test images. Decision (spec §7 Q8): the last 500 of each class (rows 2 000-2 499 of the
class, 5 000 images) are held out as the test pool; training uses the first n/10 of each class,
the test the first m/10 of each class's held-out 500, so the two never share an image.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.companion import paths

SUBSET = "fashion_mnist/subset.npz"
TRAIN_POOL = 2000          # per class: rows usable for training
TEST_POOL = 500            # per class: the held-out rows after them
CLASSES = 10


@dataclass(frozen=True)
class Split:
    """Images flattened to (N, H*W) float32 in [0, 1], labels int64; `shape` the image shape."""

    x_train: torch.Tensor
    y_train: torch.Tensor
    x_test: torch.Tensor
    y_test: torch.Tensor
    shape: tuple[int, int]


def _per_class(labels: np.ndarray, start: int, count: int) -> np.ndarray:
    """Rows start .. start + count - 1 of every class, in file order."""
    rows = [np.flatnonzero(labels == c)[start:start + count] for c in range(CLASSES)]
    return np.sort(np.concatenate(rows))


def fashion_mnist(n_train: int, n_test: int) -> Split:
    """The first n_train/10 training images per class and n_test/10 held-out ones per class."""
    if n_train % CLASSES or not 0 < n_train <= CLASSES * TRAIN_POOL:
        raise ValueError(f"n_train = {n_train}: allowed a multiple of 10 in [10, 20000]")
    if n_test % CLASSES or not 0 < n_test <= CLASSES * TEST_POOL:
        raise ValueError(f"n_test = {n_test}: allowed a multiple of 10 in [10, 5000]")
    with np.load(paths.data_file(SUBSET)) as z:
        images, labels = z["images"], z["labels"].astype(np.int64)
    tr = _per_class(labels, 0, n_train // CLASSES)
    te = _per_class(labels, TRAIN_POOL, n_test // CLASSES)
    flat = images.reshape(len(images), -1)
    y = torch.from_numpy(labels)
    return Split(_scaled(flat[tr]), y[tr], _scaled(flat[te]), y[te], (28, 28))


def _scaled(rows: np.ndarray) -> torch.Tensor:
    """uint8 images -> float32 in [0, 1], only the rows taken (every sweep run reloads them)."""
    return torch.from_numpy(rows.astype(np.float32) / 255.0)


def digits(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The first n of sklearn's 1 797 8x8 digits (shipped with sklearn): images flattened in
    [0, 1] and labels."""
    from sklearn.datasets import load_digits
    d = load_digits()
    if not 0 < n <= len(d.data):
        raise ValueError(f"n = {n}: sklearn's digits has {len(d.data)} images")
    return (torch.from_numpy(d.data[:n].astype(np.float32) / 16.0),
            torch.from_numpy(d.target[:n].astype(np.int64)))
