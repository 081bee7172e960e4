"""The source ANN (spec §3 shared assets) and its training: conv(1→16) → ReLU → avgpool 2 →
conv(16→32) → ReLU → avgpool 2 → fc(1568→128) → ReLU → fc(128→10), 207 k parameters.

The net is written as synapses between activation sites: `synapse(i, h)` is the linear map
into site i (normalisation, pooling and flattening included; site 3 is the output), so the
converted SNN (convert.py) runs the same maps between its IF layers. Average pooling is linear,
which keeps the conversion clean (the authors' ResNet keeps a max pool; ours does not).
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm.auto import tqdm

from lib.ann2snn_cka.data import MEAN, STD

SITES = ("conv1", "conv2", "fc1")          # the ReLU sites the conversion replaces


def avg_pool2(h: torch.Tensor) -> torch.Tensor:
    """2 x 2 average pooling as four strided slices: F.avg_pool2d's numbers (tests check them
    equal) at about a third of its cost on one CPU thread, where it was 28 % of the SNN forward."""
    return (h[:, :, 0::2, 0::2] + h[:, :, 0::2, 1::2] + h[:, :, 1::2, 0::2]
            + h[:, :, 1::2, 1::2]) * 0.25


class CNN(nn.Module):
    """The miniature CNN; `forward` gives logits, `activations` the post-ReLU site outputs."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)

    def synapse(self, i: int, h: torch.Tensor) -> torch.Tensor:
        """The current into site i from the previous site's output h (i = 0: the raw image)."""
        if i == 0:
            return self.conv1((h - MEAN) / STD)
        if i == 1:
            return self.conv2(avg_pool2(h))
        if i == 2:
            return self.fc1(avg_pool2(h).flatten(1))
        return self.fc2(h)

    def currents_and_activations(self, x: torch.Tensor
                                 ) -> tuple[torch.Tensor, list[torch.Tensor], list[torch.Tensor]]:
        """Logits, the pre-activation currents z_l and the activations a_l = ReLU(z_l)."""
        h, zs, acts = x, [], []
        for i in range(len(SITES)):
            z = self.synapse(i, h)
            h = F.relu(z)
            zs.append(z)
            acts.append(h)
        return self.synapse(len(SITES), h), zs, acts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.currents_and_activations(x)[0]


def train_ann(x: torch.Tensor, y: torch.Tensor, epochs: int, lr: float, batch: int,
              seed: int) -> tuple[CNN, list[float]]:
    """A CNN trained with Adam on (x, y), mini-batches from a seeded permutation per epoch;
    returns it in eval mode and the loss of every step."""
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)                               # the layers' default initialisation
    model = CNN()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    steps = [idx[i:i + batch] for _ in range(epochs)
             for idx in [torch.randperm(len(x), generator=gen)] for i in range(0, len(x), batch)]
    losses = []
    for idx in tqdm(steps, desc="train ANN", leave=False):
        loss = F.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return model.eval(), losses


@torch.no_grad()
def hits(model: CNN, x: torch.Tensor, y: torch.Tensor, chunk: int = 500) -> np.ndarray:
    """Per test image, whether the ANN is right: (images,) booleans."""
    return torch.cat([model(x[i:i + chunk]).argmax(1) == y[i:i + chunk]
                      for i in range(0, len(x), chunk)]).numpy()


def accuracy(model: CNN, x: torch.Tensor, y: torch.Tensor, chunk: int = 500) -> float:
    """Test accuracy of the ANN."""
    return int(hits(model, x, y, chunk).sum()) / len(x)


def state_arrays(model: nn.Module) -> dict[str, np.ndarray]:
    """The state dict as numpy arrays (for np.savez: a checkpoint with no timestamp in it)."""
    return {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}


def load_state(model: nn.Module, arrays) -> nn.Module:
    """Load arrays saved by `state_arrays` (an npz file's mapping) into the model."""
    model.load_state_dict({k: torch.from_numpy(np.asarray(arrays[k])) for k in arrays})
    return model


def save(model: nn.Module, path) -> None:
    """The weights as an npz file (no timestamp inside: the same weights, the same bytes)."""
    np.savez_compressed(path, **state_arrays(model))


def load(path) -> CNN:
    """A CNN with the weights `save` wrote, in eval mode."""
    with np.load(path) as z:
        return load_state(CNN(), z).eval()
