"""Training and evaluation (spec §1.8): BPTT through the T steps with the surrogate gradient,
cross-entropy on a decoder's logits, Adam or SGD with momentum, mini-batches drawn from a
seeded generator. Images are encoded per batch (the coding is cheap and deterministic).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from tqdm.auto import tqdm

from lib.ttfs_snn import coding, decode
from lib.ttfs_snn.models import TTFSNet

OPTIMISERS = ("sgd", "adam")


@dataclass(frozen=True)
class Setup:
    """What a run needs besides the model and data."""

    T: int
    coding: str = "latency"
    decoder: str = "weighted_potential"
    lam: float = 10.0
    eps: float = 1e-3
    optimiser: str = "adam"
    lr: float = 1e-3
    momentum: float = 0.9
    batch: int = 128
    epochs: int = 1
    max_steps: int | None = None          # stop early (smoke profiles)


def inputs(model: TTFSNet, x: torch.Tensor, T: int, code: str,
           image_shape: tuple[int, int] | None = None) -> torch.Tensor:
    """Encode flattened images (B, n) for the model: (T, B, n), or (T, B, 1, H, W) for a CNN."""
    if model.image_input:
        if image_shape is None:
            raise ValueError("a convolutional net needs the image shape of its flattened inputs")
        x = x.reshape(len(x), 1, *image_shape)
    return coding.encode(x, T, code)


def optimiser(model: TTFSNet, setup: Setup) -> torch.optim.Optimizer:
    if setup.optimiser == "adam":
        return torch.optim.Adam(model.parameters(), lr=setup.lr)
    if setup.optimiser == "sgd":
        return torch.optim.SGD(model.parameters(), lr=setup.lr, momentum=setup.momentum)
    raise ValueError(f"optimiser = {setup.optimiser!r}; allowed: {list(OPTIMISERS)}")


def fit(model: TTFSNet, x: torch.Tensor, y: torch.Tensor, setup: Setup, seed: int,
        image_shape: tuple[int, int] | None = None, desc: str = "train") -> list[float]:
    """Train in place; returns the loss of every step."""
    gen = torch.Generator().manual_seed(seed)
    opt = optimiser(model, setup)
    losses: list[float] = []
    order = [torch.randperm(len(x), generator=gen) for _ in range(setup.epochs)]
    steps = [idx[i:i + setup.batch] for idx in order for i in range(0, len(x), setup.batch)]
    if setup.max_steps is not None:
        steps = steps[:setup.max_steps]
    for idx in tqdm(steps, desc=desc, leave=False):
        O, V = model(inputs(model, x[idx], setup.T, setup.coding, image_shape))
        loss = F.cross_entropy(decode.logits(O, V, setup.decoder, setup.lam), y[idx])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return losses


@torch.no_grad()
def evaluate(model: TTFSNet, x: torch.Tensor, y: torch.Tensor, setup: Setup,
             image_shape: tuple[int, int] | None = None, chunk: int = 500) -> dict:
    """Accuracy (with and without the tie-break), anytime accuracy A(t), mean output latency
    and its histogram (steps 0 .. T-1, T: no output spike), mean hidden first-spike step (over
    the hidden neurons that fired), per-layer firing fraction."""
    T = setup.T
    correct = correct_plain = 0
    anytime = torch.zeros(T, dtype=torch.float64)
    latency = 0.0
    latency_hist = torch.zeros(T + 1, dtype=torch.int64)
    hidden_sum, hidden_n = 0.0, 0
    fired = torch.zeros(len(model.layers), dtype=torch.float64)
    units = torch.zeros(len(model.layers), dtype=torch.float64)
    for i in range(0, len(x), chunk):
        xb, yb = x[i:i + chunk], y[i:i + chunk]
        tr = model.run(inputs(model, xb, T, setup.coding, image_shape), record=True)
        O, V = tr.spikes[-1], tr.potentials[-1]
        correct += int((decode.predict(O, V, setup.decoder, setup.lam, setup.eps) == yb).sum())
        correct_plain += int((decode.predict(O, V, setup.decoder, setup.lam, setup.eps,
                                             tie_break=False) == yb).sum())
        anytime += decode.anytime_accuracy(O, V, yb, setup.decoder, setup.lam,
                                           setup.eps) * len(yb)
        first = decode.output_latency(O)
        latency += float(first.sum())
        latency_hist += torch.bincount(first.long(), minlength=T + 1)
        for S in tr.spikes[:-1]:
            s, n = decode.hidden_spike_steps(S)
            hidden_sum, hidden_n = hidden_sum + s, hidden_n + n
        for l, S in enumerate(tr.spikes):
            fired[l] += float(S.sum())
            units[l] += S[0].numel()
    n = len(x)
    return {"acc": correct / n, "acc_no_tiebreak": correct_plain / n,
            "anytime": (anytime / n).tolist(), "latency": latency / n,
            "latency_hist": latency_hist.tolist(),
            "hidden_step": hidden_sum / hidden_n if hidden_n else float("nan"),
            "firing": (fired / units).tolist()}
