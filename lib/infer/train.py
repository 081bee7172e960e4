"""Training notebook 02's arms (spec §3 NB2): one sweep run per (arm, seed), and their predictions.

Arms: T (time-domain field), F (frequency field), F+KK at each lambda of the sweep, and
F+KK+W (perceptual and crossover weights) at the main lambda. A run trains one arm from one
seed: its field's weights are drawn from a generator seeded with that seed (so the arms of a
seed share their initialisation draw and differ by their loss alone), and the KK query
positions from a generator seeded with the params seed + 1 (every KK run sees the same
positions). A run depends on its arguments alone, so any executor gives the same results.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.companion import sweep
from lib.infer import fields, losses
from lib.infer.scene import Scene


@dataclass(frozen=True)
class Arm:
    """One arm: its label, whether it is the time-domain field, its KK weight, its weighting."""

    name: str
    time_domain: bool
    kk_lambda: float
    weighted: bool


@dataclass(frozen=True)
class Data:
    """What a run needs of the scene: every microphone's plane coordinates (M, 2), the training
    microphones' indices (P,), half spectra (P, K) and causal IR halves (P, n/2), the
    frequencies (K,) in Hz."""

    coords: np.ndarray
    train_idx: np.ndarray
    spectra: np.ndarray
    irs: np.ndarray
    freqs: np.ndarray


@dataclass(frozen=True)
class Fit:
    """One run's predicted half spectra (M, K) complex128 at every microphone and its per-step
    training loss (steps,)."""

    spectra: np.ndarray
    loss: np.ndarray


@dataclass(frozen=True)
class Run:
    """Predicted half spectra (arms, seeds, M, K) complex128 at every microphone, the per-step
    training loss (arms, seeds, steps), and the arms."""

    arms: list[Arm]
    spectra: np.ndarray
    loss: np.ndarray


def arms(kk_lambdas: list[float], kk_lambda: float) -> list[Arm]:
    """T, F, F+KK at each lambda, F+KK+W at the main lambda, in that order."""
    return ([Arm("T", True, 0.0, False), Arm("F", False, 0.0, False)]
            + [Arm(f"F+KK λ={lam:g}", False, lam, False) for lam in kk_lambdas]
            + [Arm("F+KK+W", False, kk_lambda, True)])


def data(scene: Scene, train_idx: np.ndarray, n_fft: int) -> Data:
    """The part of the scene a run trains on and predicts at (small enough to pickle per run)."""
    return Data(scene.coords, train_idx, scene.spectra[train_idx],
                scene.irs[train_idx, :n_fft // 2], scene.freqs)


def fit(cfg, d: Data, arm: Arm, seed: int) -> Fit:
    """Train one arm from one seed for cfg.steps full-batch Adam steps on the training
    microphones (one torch thread); a sweep run."""
    half = cfg.n_fft // 2
    band = losses.band_mask(d.freqs, tuple(cfg.band))
    p = torch.as_tensor(d.coords[d.train_idx], dtype=torch.float32)                # (P, 2)
    target = torch.as_tensor(d.spectra, dtype=torch.complex64)                     # (P, K)
    tb = target[:, band]                                                           # (P, Kb)
    w_flat = torch.as_tensor(losses.uniform_weights(d.freqs[band]), dtype=torch.float32)
    w_perc = torch.as_tensor(losses.perceptual_weights(
        d.freqs[band], tuple(cfg.crossover), cfg.notch_weight), dtype=torch.float32)
    weights = (w_perc if arm.weighted else w_flat)[None]                           # (1, Kb)
    lam = torch.tensor([arm.kk_lambda])                                            # (1,)
    dims = dict(features=cfg.features, sigma=cfg.sigma, width=cfg.width, depth=cfg.depth)
    gens = [torch.Generator().manual_seed(seed)]
    if arm.time_domain:
        h = torch.as_tensor(d.irs, dtype=torch.float32)                            # (P, n/2)
        field = fields.TimeField(fields.BatchedField(gens, d_out=half, **dims), cfg.n_fft,
                                 float(h.pow(2).mean().sqrt()))
    else:
        field = fields.FreqField(fields.BatchedField(gens, d_out=3 * (half + 1), **dims),
                                 torch.log(target.abs()).mean(0))
    opt = torch.optim.Adam(field.parameters(), lr=cfg.lr)
    gen = torch.Generator().manual_seed(cfg.seed + 1)
    floor = 1e-4 * float(tb.abs().mean())
    curve = np.zeros(cfg.steps)
    for step in range(cfg.steps):
        if arm.time_domain:
            loss = losses.time_mse(field.impulse(p), h) + losses.complex_spectral(
                field.spectrum(p)[..., band], tb, w_flat[None], floor)
        else:
            log_mag, cos, sin = field.parts(p)
            loss = losses.freq_spectral(log_mag[..., band], cos[..., band], sin[..., band], tb,
                                        weights)
            if step % cfg.kk_every == 0 and arm.kk_lambda > 0:
                q = torch.rand(cfg.kk_points, 2, generator=gen)
                loss = loss + lam * losses.kk_penalty(field.spectrum(q), cfg.n_fft)
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        curve[step] = float(loss.detach())
    return Fit(predict(field, d), curve)


@torch.no_grad()
def predict(field: fields.TimeField | fields.FreqField, d: Data) -> np.ndarray:
    """A field's half spectra (M, K) at every microphone, complex128."""
    p = torch.as_tensor(d.coords, dtype=torch.float32)
    if isinstance(field, fields.TimeField):
        return torch.fft.rfft(field.impulse(p).double(), n=field.n)[0].numpy()
    return field.spectrum(p).to(torch.complex128)[0].numpy()


def train(cfg: sweep.SweepParams, scene: Scene, train_idx: np.ndarray, seeds: list[int],
          notebook: str) -> Run:
    """Every (arm, seed), one sweep run each on the notebook's `executor`, gathered in order."""
    arm_list = arms(cfg.kk_lambdas, cfg.kk_lambda)
    d = data(scene, train_idx, cfg.n_fft)
    grid = [(cfg, d, arm, s) for arm in arm_list for s in seeds]
    fits = sweep.run_params(fit, grid, cfg, notebook,
                            labels=[f"{arm.name} seed {s}" for arm in arm_list for s in seeds])
    shape = (len(arm_list), len(seeds))
    return Run(arm_list, np.stack([f.spectra for f in fits]).reshape(*shape, -1,
                                                                        fits[0].spectra.shape[-1]),
               np.stack([f.loss for f in fits]).reshape(*shape, -1))
