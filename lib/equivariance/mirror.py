"""E6: the paper-analogue mirror experiment on Fashion-MNIST (spec §3.1, §4 E6; exploratory).

Depth-4 MLPs on 14x14 images (28x28 Fashion-MNIST, 2x2 average-pooled: pooling commutes with the
left-right mirror): autoencoder 196-64-32-64-196 and classifier 196-64-32-10, first activation
tanh or GELU, later ones GELU. A soft mirror loss is switched on for the second half of training,
on data and on Gaussian noise of data scale: ||f(Mx) - M f(x)||^2 (autoencoder) or
||f(Mx) - f(x)||^2 (classifier logits). All models of one task train in one batched program.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

from lib.equivariance.train import TORCH_ACTS, Adam

if TYPE_CHECKING:
    import pandas as pd


def load_pooled(images: np.ndarray, labels: np.ndarray, n: int, rng: np.random.Generator):
    """n random images, 2x2 average-pooled to 14x14, flattened, standardised by one global
    mean and scale (a per-pixel standardisation would break the mirror symmetry)."""
    idx = rng.choice(len(images), size=n, replace=False)
    x = images[idx].astype(np.float64) / 255.0                             # (n, 28, 28)
    x = x.reshape(n, 14, 2, 14, 2).mean(axis=(2, 4)).reshape(n, 196)       # (n, 196)
    return x, labels[idx].astype(np.int64)


def standardise(x: np.ndarray, mean: float, scale: float) -> np.ndarray:
    return (x - mean) / scale


def init(widths: list[int], n_models: int, seed: int):
    """Batched parameters [(W (M, d_out, d_in), b (M, d_out))], float32, one generator."""
    gen = torch.Generator().manual_seed(seed)
    layers = []
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        W = torch.randn(n_models, d_out, d_in, generator=gen) / np.sqrt(d_in)
        layers.append((W.requires_grad_(True), torch.zeros(n_models, d_out, requires_grad=True)))
    return layers


def forward(layers, first_acts: list[str], X: torch.Tensor, hidden: bool = False):
    """X (M, N, d) -> output; layer 1 uses first_acts[m] per model, later hidden layers GELU."""
    H, hs = X, []
    for i, (W, b) in enumerate(layers):
        H = torch.baddbmm(b[:, None, :], H, W.transpose(1, 2))
        if i == len(layers) - 1:
            break
        if i == 0:
            out = torch.empty_like(H)
            for name in set(first_acts):
                idx = [m for m, a in enumerate(first_acts) if a == name]
                out[idx] = TORCH_ACTS[name](H[idx])
            H = out
        else:
            H = TORCH_ACTS["gelu"](H)
        hs.append(H)
    return (H, hs) if hidden else H


def train(task: str, X: np.ndarray, y: np.ndarray, first_acts: list[str], widths: list[int],
          steps: int, lr: float, batch: int, lam: float, seed: int, mirror: np.ndarray,
          weight_decay: float = 0.0):
    """Train len(first_acts) models on the same data; returns numpy float64 parameters per model
    and the loss curve (steps,) of the task loss summed over models."""
    M = len(first_acts)
    gen = torch.Generator().manual_seed(seed + 1)
    layers = init(widths, M, seed)
    params = [p for layer in layers for p in layer]
    adam = Adam(params, lr, steps, weight_decay=weight_decay)
    Xt = torch.tensor(X, dtype=torch.float32)
    yt = torch.tensor(y)
    perm = torch.tensor(np.argmax(mirror, axis=1))                          # (M x)[i] = x[perm[i]]
    curve = np.zeros(steps)
    for step in range(steps):
        idx = torch.randint(0, len(Xt), (batch,), generator=gen)
        xb = Xt[idx].expand(M, -1, -1)                                      # (M, B, 196)
        out = forward(layers, first_acts, xb)
        if task == "autoencoder":
            loss = ((out - xb) ** 2).sum(2).mean(1).sum()
        else:
            loss = torch.nn.functional.cross_entropy(out.reshape(-1, out.shape[2]),
                                                     yt[idx].repeat(M), reduction="sum") / batch
        curve[step] = float(loss.detach())
        if step >= steps // 2 and lam > 0:                                   # soft mirror loss
            noise = torch.randn(M, batch, X.shape[1], generator=gen)
            both = torch.cat([xb, noise], 1)                                 # data and noise
            fb = forward(layers, first_acts, both)
            fm = forward(layers, first_acts, both[..., perm])
            target = fb[..., perm] if task == "autoencoder" else fb
            loss = loss + lam * ((fm - target) ** 2).sum(2).mean(1).sum()
        grads = torch.autograd.grad(loss, params)
        adam.step(grads)
    thetas = [[(W[m].detach().double().numpy(), b[m].detach().double().numpy()) for W, b in layers]
              for m in range(M)]
    return thetas, curve


def train_run(task: str, X: np.ndarray, y: np.ndarray, first_acts: list[str], widths: list[int],
              steps: int, lr: float, batch: int, lam: float, seed: int, mirror: np.ndarray):
    """One task's models as one sweep run (one torch thread): `train`, whose randomness comes
    from `seed` alone, so a run gives the same models in any process."""
    return train(task, X, y, first_acts, widths, steps, lr, batch, lam, seed, mirror)


def lv_table(task: str, thetas, first_acts: list[str], seeds: list[int], transforms: dict,
             samples: dict) -> "pd.DataFrame":
    """LV errors of f1, f2 (spec §3.1 metric) for every model, transformation and sample kind.
    samples: name -> (X_fit, X_eval); transforms: name -> matrix."""
    import pandas as pd

    from lib.equivariance import metrics
    rows = []
    for theta, act, s in zip(thetas, first_acts, seeds):
        acts = [act] + ["gelu"] * (len(theta) - 2)
        for tname, R in transforms.items():
            for sname, (Xf, Xe) in samples.items():
                errs = metrics.lv_errors(theta, acts, R, Xf, Xe)
                rows += [{"task": task, "act": act, "seed": s, "layer": f"f{i + 1}",
                          "mirror": tname, "sample": sname, "lv": float(errs[i])}
                         for i in range(2)]
    return pd.DataFrame(rows)


def filter_types(theta, act: str, R: np.ndarray, X_fit: np.ndarray) -> np.ndarray:
    """Classify first-layer units by the projected signed permutation of the mirror's fitted map:
    'self' (mapped to +itself), 'negated' (to -itself), 'pair' (to another unit)."""
    from lib.equivariance import metrics
    acts = [act] + ["gelu"] * (len(theta) - 2)
    fit = metrics.nearest_signed_perm(metrics.fitted_map(theta, acts, R, X_fit, 0))
    j = np.arange(len(fit.perm))
    return np.where(fit.perm != j, "pair", np.where(fit.sign > 0, "self", "negated"))


def mosaic(filters: np.ndarray, k: int, cols: int) -> np.ndarray:
    """Tile filters (m, k*k) into one image (rows of `cols` tiles, 1-pixel NaN gaps), each tile
    scaled to max |entry| = 1 so that one imshow draws them all."""
    m = len(filters)
    rows = -(-m // cols)
    out = np.full((rows * (k + 1), cols * (k + 1)), np.nan)
    for j, f in enumerate(filters):
        r, c = divmod(j, cols)
        out[r * (k + 1):r * (k + 1) + k, c * (k + 1):c * (k + 1) + k] = \
            f.reshape(k, k) / max(np.abs(f).max(), 1e-300)
    return out


def linear_baselines(Xtr: np.ndarray, ytr: np.ndarray, Xte: np.ndarray, yte: np.ndarray,
                     k: int) -> dict:
    """The best linear models of each task, the bar a trained MLP must clear to count as fitted:
    the affine rank-k reconstruction (PCA on the training images, k = the autoencoder's
    bottleneck width; Eckart-Young: the optimal linear autoencoder of that width) and the
    least-squares affine classifier on one-hot labels. Returns its test relative reconstruction
    error ||X_hat - X|| / ||X|| (as mlp.relative_error) and its test accuracy."""
    from lib.equivariance.mlp import relative_error
    mu = Xtr.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xtr - mu, full_matrices=False)
    P = Vt[:k].T @ Vt[:k]                                                   # (d, d) projector
    recon = (Xte - mu) @ P + mu
    A = np.column_stack([Xtr, np.ones(len(Xtr))])
    Y = np.eye(int(max(ytr.max(), yte.max())) + 1)[ytr]
    C = np.linalg.lstsq(A, Y, rcond=None)[0]
    pred = (np.column_stack([Xte, np.ones(len(Xte))]) @ C).argmax(axis=1)
    return {"ae_error": relative_error(recon, Xte), "accuracy": float((pred == yte).mean())}
