"""Training notebook 02's arms (spec §3 NB2): one sweep run per arm, its seeds batched, and their
predictions.

Arms: T (time-domain field), F (frequency field), F+KK at each lambda of the sweep, and
F+KK+W (perceptual and crossover weights) at the main lambda. A run trains one arm from each
seed as a replica of one batched field: a replica's weights are drawn from a generator seeded
with its seed (so the arms of a seed share their initialisation draw and differ by their loss
alone), and the KK query positions from a generator seeded with the params seed + 1 (every KK
replica sees the same positions). A run depends on its arguments alone, so any executor gives
the same results.
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
    """One run's predicted half spectra (R, M, K) complex128 at every microphone and its per-step
    training loss (R, steps), one row per seed (replica)."""

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


def fit(cfg, d: Data, arm: Arm, seeds: list[int]) -> Fit:
    """Train one arm from each of `seeds` for cfg.steps full-batch Adam steps on the training
    microphones (one torch thread), the seeds as replicas of one batched field; a sweep run.

    The loss is the sum of the replicas' losses, so each replica's gradient, and its Adam
    update (elementwise), are those of training it alone. A step with a KK term passes the
    training and the query positions through the trunk together; the training positions read
    the band's output columns only (`fields.band_groups`), which is all their loss sees."""
    half = cfg.n_fft // 2
    band = losses.band_slice(d.freqs, tuple(cfg.band))
    p = torch.as_tensor(d.coords[d.train_idx], dtype=torch.float32)                # (P, 2)
    spectra = torch.as_tensor(d.spectra, dtype=torch.complex64)                    # (P, K)
    target = losses.Target.of(spectra[:, band])                                    # (P, Kb)
    w_flat = torch.as_tensor(losses.uniform_weights(d.freqs[band]), dtype=torch.float32)
    w_perc = torch.as_tensor(losses.perceptual_weights(
        d.freqs[band], tuple(cfg.crossover), cfg.notch_weight), dtype=torch.float32)
    weights = (w_perc if arm.weighted else w_flat)[None]                           # (1, Kb)
    dims = dict(features=cfg.features, sigma=cfg.sigma, width=cfg.width, depth=cfg.depth)
    gens = [torch.Generator().manual_seed(s) for s in seeds]
    if arm.time_domain:
        h = torch.as_tensor(d.irs, dtype=torch.float32)                            # (P, n/2)
        field = fields.TimeField(fields.BatchedField(gens, d_out=half, **dims), cfg.n_fft,
                                 float(h.pow(2).mean().sqrt()))
    else:
        field = fields.FreqField(
            fields.BatchedField(gens, d_out=3 * (half + 1), groups=fields.band_groups(
                half + 1, band), **dims), torch.log(spectra.abs()).mean(0), band)
    opt = torch.optim.Adam(field.parameters(), lr=cfg.lr, fused=True)
    gen = torch.Generator().manual_seed(cfg.seed + 1)
    floor = 1e-4 * float(target.mag.mean())
    curve = torch.zeros(cfg.steps, len(seeds))
    for step in range(cfg.steps):
        kk = arm.kk_lambda > 0 and step % cfg.kk_every == 0
        if arm.time_domain:
            imp = field.impulse(p)                                                 # (R, P, n/2)
            loss = losses.time_mse(imp, h) + losses.complex_spectral(
                torch.fft.rfft(imp, n=cfg.n_fft)[..., band], target, w_flat[None], floor)
        elif kk:
            q = torch.rand(cfg.kk_points, 2, generator=gen)                        # (Q, 2)
            x = field.net.hidden(torch.cat([p, q]))                                # (R, P+Q, w)
            loss = losses.freq_spectral(*field.band_parts(x[:, :len(p)]), target, weights) \
                + arm.kk_lambda * losses.kk_penalty(field.spectrum_from(x[:, len(p):]),
                                                    cfg.n_fft)
        else:
            loss = losses.freq_spectral(*field.band_parts(field.net.hidden(p)), target, weights)
        opt.zero_grad()
        loss.sum().backward()
        if arm.kk_lambda > 0 and not kk:
            _zero_missing_grads(field)
        opt.step()
        curve[step] = loss.detach()
    return Fit(predict(field, d), curve.T.double().numpy())


def _zero_missing_grads(field: torch.nn.Module) -> None:
    """A zero gradient for each parameter the step's loss did not reach (the out-of-band head
    on a step without the KK term), so that Adam moves it by its momentum as it would have
    moved it had the whole head been computed."""
    for param in field.parameters():
        if param.grad is None:
            param.grad = torch.zeros_like(param)


@torch.no_grad()
def predict(field: fields.TimeField | fields.FreqField, d: Data) -> np.ndarray:
    """A field's half spectra (R, M, K) at every microphone, complex128."""
    p = torch.as_tensor(d.coords, dtype=torch.float32)
    if isinstance(field, fields.TimeField):
        return torch.fft.rfft(field.impulse(p).double(), n=field.n).numpy()
    return field.spectrum(p).to(torch.complex128).numpy()


def train(cfg: sweep.SweepParams, scene: Scene, train_idx: np.ndarray, seeds: list[int],
          notebook: str) -> Run:
    """Every arm, its seeds batched in one sweep run, on the notebook's `executor`, in order."""
    arm_list = arms(cfg.kk_lambdas, cfg.kk_lambda)
    d = data(scene, train_idx, cfg.n_fft)
    fits = sweep.run_params(fit, [(cfg, d, arm, seeds) for arm in arm_list], cfg, notebook,
                            labels=[arm.name for arm in arm_list])
    return Run(arm_list, np.stack([f.spectra for f in fits]), np.stack([f.loss for f in fits]))
