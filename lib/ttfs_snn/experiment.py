"""The notebooks' training runs, one sweep run each (issue 45): 01's pooling arms, 02's (seed,
optimiser, arm) runs and 03's (seed, decoder) runs.

A run reloads its notebook's images (the same sizes as the notebook's split, 0.3 s), builds its
net and ETTFS-initialises it from its own seed, trains and evaluates it, and returns plain lists
and floats only (`Trained`); no state passes from one run to the next, so the results are the
same on any executor and in any order.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from lib.companion import sweep
from lib.ttfs_snn import coding, data, init, models, train
from lib.ttfs_snn.models import TTFSNet

# 02's training runs at depth 6, each over every seed: (optimiser, arm)
TRAIN_RUNS = (("sgd", "kaiming"), ("sgd", "ettfs_norm"), ("adam", "kaiming"), ("adam", "ettfs"),
              ("adam", "ettfs_norm"))
DECODER_ARM = "ettfs_norm"                   # spec NB03: init + norm


@dataclass(frozen=True)
class Trained:
    """One run's per-step losses, `train.evaluate`'s readings on the test images, and (02 only)
    whether the output layer was silent on the init batch before training."""

    losses: list[float]
    ev: dict
    silent_at_init: bool = False


def tens(n: int) -> int:
    """n rounded up to a multiple of 10 (the split takes n/10 images per class)."""
    return -(-n // 10) * 10


def pooling_split(cfg) -> data.Split:
    """01's images: enough training images for F1.4 and the init batch, test images for the
    census and F1.4."""
    return data.fashion_mnist(max(cfg.n_train, tens(cfg.n_init)), max(tens(cfg.n_images),
                                                                      cfg.n_test))


def pooling_net(cfg, kind: str, T: int, split: data.Split) -> TTFSNet:
    """01's CNN for one pooling arm, ETTFS-initialised with its pooling in place (the same seed
    for every arm: conv1 is the same in all, the pooling is the only difference)."""
    net = models.cnn(kind, norm=init.uses_norm(cfg.arm), k=cfg.k, theta=cfg.theta,
                     alpha=cfg.alpha, transmission=cfg.transmission)
    x = split.x_train[:cfg.n_init]
    init.initialise(net, cfg.arm, coding.encode(x.reshape(len(x), 1, *split.shape), T,
                                                cfg.encoding),
                    rho=cfg.rho, stat=cfg.init_stat, gen=torch.Generator().manual_seed(cfg.seed))
    return net


def train_pooling(cfg, kind: str) -> Trained:
    """01's F1.4: one pooling arm's CNN trained at T = train_T, tested on n_test images."""
    split = pooling_split(cfg)
    setup = train.Setup(T=cfg.train_T, coding=cfg.encoding, decoder=cfg.decoder, lam=cfg.lam,
                        optimiser="adam", lr=cfg.lr, batch=cfg.batch)
    net = pooling_net(cfg, kind, cfg.train_T, split)
    losses = train.fit(net, split.x_train[:cfg.n_train], split.y_train[:cfg.n_train], setup,
                       cfg.seed, image_shape=split.shape, desc=f"train {kind}")
    ev = train.evaluate(net, split.x_test[:cfg.n_test], split.y_test[:cfg.n_test], setup,
                        image_shape=split.shape)
    return Trained(losses, ev)


def init_split(cfg) -> data.Split:
    """02's images: the init and statistics batches and the training set, n_test test images."""
    return data.fashion_mnist(max(cfg.n_train, tens(cfg.n_init + cfg.n_stats)), cfg.n_test)


def init_net(cfg, n_in: int, depth: int, arm: str, seed: int, batch: torch.Tensor) -> TTFSNet:
    """02's MLP n_in -> width^depth -> 10 for one arm, initialised on `batch` (flattened images)
    from `seed`."""
    net = models.mlp([n_in] + [cfg.width] * depth + [10], norm=init.uses_norm(arm),
                     theta=cfg.theta, alpha=cfg.alpha, transmission=cfg.transmission)
    init.initialise(net, arm, coding.encode(batch, cfg.T, cfg.encoding), rho=cfg.rho,
                    saturation=cfg.saturation, stat=cfg.init_stat,
                    gen=torch.Generator().manual_seed(seed))
    return net


def train_init(cfg, seed: int, opt: str, arm: str) -> Trained:
    """02's training: one (optimiser, arm) at depth train_depth from `seed`, tested on every
    test image; records whether the output layer was silent on the init batch."""
    split = init_split(cfg)
    batch = split.x_train[:cfg.n_init]
    net = init_net(cfg, 784, cfg.train_depth, arm, seed, batch)
    with torch.no_grad():
        silent = float(net.run(coding.encode(batch, cfg.T, cfg.encoding)).spikes[-1].sum()) == 0
    setup = train.Setup(T=cfg.T, coding=cfg.encoding, decoder=cfg.decoder, lam=cfg.lam,
                        optimiser=opt, lr=cfg.sgd_lr if opt == "sgd" else cfg.adam_lr,
                        momentum=cfg.momentum, batch=cfg.batch, epochs=cfg.epochs)
    losses = train.fit(net, split.x_train[:cfg.n_train], split.y_train[:cfg.n_train], setup,
                       seed, desc=f"{opt} {arm} seed {seed}")
    return Trained(losses, train.evaluate(net, split.x_test, split.y_test, setup), silent)


def decoder_split(cfg) -> data.Split:
    """03's images: the training set (and init batch), n_test test images."""
    return data.fashion_mnist(max(cfg.n_train, tens(cfg.n_init)), cfg.n_test)


def train_decoder(cfg, seed: int, decoder: str) -> Trained:
    """03's run: the init + norm MLP trained through one decoder from `seed`, tested on every
    test image."""
    split = decoder_split(cfg)
    net = models.mlp([784] + cfg.hidden + [10], norm=True, theta=cfg.theta, alpha=cfg.alpha,
                     transmission=cfg.transmission)
    init.initialise(net, DECODER_ARM, coding.encode(split.x_train[:cfg.n_init], cfg.T,
                                                    cfg.encoding),
                    rho=cfg.rho, stat=cfg.init_stat, gen=torch.Generator().manual_seed(seed))
    setup = train.Setup(T=cfg.T, coding=cfg.encoding, decoder=decoder, lam=cfg.lam, eps=cfg.eps,
                        optimiser="adam", lr=cfg.lr, batch=cfg.batch, epochs=cfg.epochs)
    losses = train.fit(net, split.x_train[:cfg.n_train], split.y_train[:cfg.n_train], setup,
                       seed, desc=f"{decoder} seed {seed}")
    return Trained(losses, train.evaluate(net, split.x_test, split.y_test, setup))


def pooling_runs(cfg: sweep.SweepParams, notebook: str) -> list[Trained]:
    """01's pooling arms, one sweep run each, in pool_kinds order."""
    return sweep.run_params(train_pooling, [(cfg, kind) for kind in cfg.pool_kinds], cfg,
                            notebook, labels=[f"train {kind}" for kind in cfg.pool_kinds])


def init_grid(cfg) -> list[tuple[int, str, str]]:
    """02's (seed, optimiser, arm) runs, seed by seed."""
    return [(cfg.seed + s, opt, arm) for s in range(cfg.seeds) for opt, arm in TRAIN_RUNS]


def init_runs(cfg: sweep.SweepParams, notebook: str,
              grid: list[tuple[int, str, str]]) -> list[Trained]:
    """02's training runs of `grid`, one sweep run each, in grid order."""
    return sweep.run_params(train_init, [(cfg, *g) for g in grid], cfg, notebook,
                            labels=[f"{opt} {arm} seed {seed}" for seed, opt, arm in grid])


def decoder_grid(cfg) -> list[tuple[int, str]]:
    """03's (seed, decoder) runs, seed by seed."""
    return [(cfg.seed + s, dec) for s in range(cfg.seeds) for dec in cfg.decoders]


def decoder_runs(cfg: sweep.SweepParams, notebook: str,
                 grid: list[tuple[int, str]]) -> list[Trained]:
    """03's runs of `grid`, one sweep run each, in grid order."""
    return sweep.run_params(train_decoder, [(cfg, *g) for g in grid], cfg, notebook,
                            labels=[f"{dec} seed {seed}" for seed, dec in grid])
