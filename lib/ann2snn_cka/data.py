"""The images (spec §3 shared assets, §7 Q8): Fashion-MNIST training images from
data/fashion_mnist/subset.npz (the first n/10 of each class, file order) and test images from
data/fashion_mnist/t10k.npz (the first m of the test file, file order), so the two never share
an image. Images are (N, 1, 28, 28) float32 in [0, 1]; the model normalises them itself, so
noise (spec §1.4) is added to raw pixels.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.companion import paths

TRAIN_FILE = "fashion_mnist/subset.npz"
TEST_FILE = "fashion_mnist/t10k.npz"
CLASSES = 10
TRAIN_PER_CLASS = 2500         # images of each class in subset.npz
TEST_IMAGES = 10000            # images in t10k.npz
# Fashion-MNIST's training-set pixel mean and std (tests check them on the subset)
MEAN, STD = 0.2860, 0.3530


@dataclass(frozen=True)
class Split:
    """Training and test images (N, 1, 28, 28) float32 in [0, 1] with int64 labels."""

    x_train: torch.Tensor
    y_train: torch.Tensor
    x_test: torch.Tensor
    y_test: torch.Tensor


def _images(name: str) -> tuple[np.ndarray, np.ndarray]:
    with np.load(paths.data_file(name)) as z:
        return z["images"], z["labels"].astype(np.int64)


def _tensor(images: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(images.astype(np.float32) / 255.0).unsqueeze(1)


def test_images(n_test: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The first n_test images of the t10k file and their labels."""
    if not 0 < n_test <= TEST_IMAGES:
        raise ValueError(f"n_test = {n_test}: allowed 1 .. {TEST_IMAGES}")
    images, labels = _images(TEST_FILE)
    return _tensor(images[:n_test]), torch.from_numpy(labels[:n_test])


def fashion_mnist(n_train: int, n_test: int) -> Split:
    """The first n_train/10 training images of each class (file order, classes interleaved as in
    the file) and the first n_test test images."""
    if n_train % CLASSES or not 0 < n_train <= CLASSES * TRAIN_PER_CLASS:
        raise ValueError(f"n_train = {n_train}: allowed a multiple of 10 in [10, 25000]")
    images, labels = _images(TRAIN_FILE)
    keep = np.sort(np.concatenate([np.flatnonzero(labels == c)[:n_train // CLASSES]
                                   for c in range(CLASSES)]))
    return Split(_tensor(images[keep]), torch.from_numpy(labels[keep]), *test_images(n_test))
