"""Training every arm and seed of notebook 02 at once (spec §3 NB2), and their predictions.

Arms: T (time-domain field), F (frequency field), F+KK at each lambda of the sweep, and
F+KK+W (perceptual and crossover weights) at the main lambda. All F-type arms and seeds are
replicas of one BatchedField, T's seeds of another; replicas of one seed share their
initialisation draw (the generator seeded with that seed), so arms differ by their loss alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm.auto import tqdm

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
class Run:
    """Predicted half spectra (arms, seeds, M, K) complex128 at every microphone, the per-step
    total loss of each arm (arms, steps) summed over seeds, and the arms."""

    arms: list[Arm]
    spectra: np.ndarray
    loss: np.ndarray


def arms(kk_lambdas: list[float], kk_lambda: float) -> list[Arm]:
    """T, F, F+KK at each lambda, F+KK+W at the main lambda, in that order."""
    return ([Arm("T", True, 0.0, False), Arm("F", False, 0.0, False)]
            + [Arm(f"F+KK λ={lam:g}", False, lam, False) for lam in kk_lambdas]
            + [Arm("F+KK+W", False, kk_lambda, True)])


def _generators(seeds: list[int]) -> list[torch.Generator]:
    return [torch.Generator().manual_seed(s) for s in seeds]


def train(cfg, scene: Scene, train_idx: np.ndarray, seeds: list[int]) -> Run:
    """Train all arms for cfg.steps full-batch Adam steps on the training microphones."""
    arm_list = arms(cfg.kk_lambdas, cfg.kk_lambda)
    freq_arms = arm_list[1:]
    s, half = len(seeds), cfg.n_fft // 2
    band = losses.band_mask(scene.freqs, tuple(cfg.band))
    p = torch.as_tensor(scene.coords[train_idx], dtype=torch.float32)             # (P, 2)
    target = torch.as_tensor(scene.spectra[train_idx], dtype=torch.complex64)     # (P, K)
    tb = target[:, band]                                                           # (P, Kb)
    h = torch.as_tensor(scene.irs[train_idx, :half], dtype=torch.float32)          # (P, n/2)
    w_flat = torch.as_tensor(losses.uniform_weights(scene.freqs[band]), dtype=torch.float32)
    w_perc = torch.as_tensor(losses.perceptual_weights(
        scene.freqs[band], tuple(cfg.crossover), cfg.notch_weight), dtype=torch.float32)
    weights = torch.stack([w_perc if a.weighted else w_flat
                           for a in freq_arms for _ in seeds])                     # (Rf, Kb)
    lam = torch.tensor([a.kk_lambda for a in freq_arms for _ in seeds])            # (Rf,)
    kk_from = s * next((i for i, a in enumerate(freq_arms) if a.kk_lambda > 0), len(freq_arms))
    dims = dict(features=cfg.features, sigma=cfg.sigma, width=cfg.width, depth=cfg.depth)
    time_field = fields.TimeField(fields.BatchedField(_generators(seeds), d_out=half, **dims),
                                  cfg.n_fft, float(h.pow(2).mean().sqrt()))
    offset = torch.log(target.abs()).mean(0)
    freq_field = fields.FreqField(fields.BatchedField(
        [g for _ in freq_arms for g in _generators(seeds)], d_out=3 * (half + 1), **dims), offset)
    opt = torch.optim.Adam([*time_field.parameters(), *freq_field.parameters()], lr=cfg.lr)
    gen = torch.Generator().manual_seed(cfg.seed + 1)
    floor = 1e-4 * float(tb.abs().mean())
    curve = np.zeros((len(arm_list), cfg.steps))
    for step in tqdm(range(cfg.steps), desc="training all arms", mininterval=2.0):
        loss_t = losses.time_mse(time_field.impulse(p), h) + losses.complex_spectral(
            time_field.spectrum(p)[..., band], tb, w_flat.expand(s, -1), floor)
        log_mag, cos, sin = freq_field.parts(p)
        loss_f = losses.freq_spectral(log_mag[..., band], cos[..., band], sin[..., band], tb,
                                      weights)
        if step % cfg.kk_every == 0 and kk_from < len(lam):
            q = torch.rand(cfg.kk_points, 2, generator=gen)
            penalty = losses.kk_penalty(freq_field.spectrum(q, slice(kk_from, None)), cfg.n_fft)
            loss_f = torch.cat([loss_f[:kk_from], loss_f[kk_from:] + lam[kk_from:] * penalty])
        opt.zero_grad()
        (loss_t.sum() + loss_f.sum()).backward()
        opt.step()
        curve[:, step] = torch.cat([loss_t, loss_f]).detach().reshape(-1, s).sum(1).numpy()
    return Run(arm_list, predict(time_field, freq_field, scene, s, len(freq_arms)), curve)


@torch.no_grad()
def predict(time_field: fields.TimeField, freq_field: fields.FreqField, scene: Scene, s: int,
            n_freq_arms: int) -> np.ndarray:
    """Half spectra (arms, seeds, M, K) of every arm at every microphone, complex128."""
    p = torch.as_tensor(scene.coords, dtype=torch.float32)
    t = torch.fft.rfft(time_field.impulse(p).double(), n=time_field.n)[None]    # (1, S, M, K)
    f = freq_field.spectrum(p).to(torch.complex128).reshape(n_freq_arms, s, *t.shape[2:])
    return torch.cat([t, f]).numpy()
