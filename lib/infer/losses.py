"""Losses and loss weights (spec §1.4): the spectral loss over the band, the time-domain MSE,
the KK penalty, and the perceptual (ERB-rate) and hardware-aware (crossover notch) weights."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.infer import decisions, kk


def erb_rate(f: np.ndarray) -> np.ndarray:
    """Glasberg-Moore ERB-rate (ERB number) of frequencies f in Hz."""
    return 21.4 * np.log10(1.0 + 4.37e-3 * np.asarray(f, float))


def band_mask(freqs: np.ndarray, band: tuple[float, float]) -> np.ndarray:
    """Bins inside the closed band [lo, hi] Hz."""
    return (freqs >= band[0]) & (freqs <= band[1])


def band_slice(freqs: np.ndarray, band: tuple[float, float]) -> slice:
    """`band_mask` as a slice: the bins of a closed band on ascending frequencies are one run."""
    inside = np.flatnonzero(band_mask(freqs, band))
    if len(inside) == 0:
        raise ValueError(f"band = {list(band)} holds no bin of {len(freqs)} from {freqs[0]:g} to "
                         f"{freqs[-1]:g} Hz; allowed: a band that contains a bin")
    return slice(int(inside[0]), int(inside[-1]) + 1)


def uniform_weights(freqs: np.ndarray) -> np.ndarray:
    """Equal weight on each given bin, summing to 1."""
    return np.full(len(freqs), 1.0 / len(freqs))


def perceptual_weights(freqs: np.ndarray, crossover: tuple[float, float],
                       notch: float) -> np.ndarray:
    """Perceptual weights (`decisions.perceptual_density`) times `notch` inside the declared
    crossover band, summing to 1."""
    w = decisions.perceptual_density(freqs) * np.where(band_mask(freqs, crossover), notch, 1.0)
    return w / w.sum()


def erb_bands(freqs: np.ndarray, n_bands: int) -> np.ndarray:
    """Index (0 .. n_bands-1) of the equal-ERB-rate band each bin falls in, over freqs' range."""
    e = erb_rate(freqs)
    edges = np.linspace(e.min(), e.max(), n_bands + 1)
    return np.clip(np.searchsorted(edges, e, side="right") - 1, 0, n_bands - 1)


@dataclass(frozen=True)
class Target:
    """A target's half spectra (P, Kb) complex and what the spectral losses read of them,
    computed once per run rather than at every step: |H|, ln |H|, cos and sin of angle H."""

    spectrum: torch.Tensor
    mag: torch.Tensor
    log_mag: torch.Tensor
    cos: torch.Tensor
    sin: torch.Tensor

    @classmethod
    def of(cls, spectrum: torch.Tensor) -> Target:
        angle = spectrum.angle()
        mag = spectrum.abs()
        return cls(spectrum, mag, torch.log(mag), torch.cos(angle), torch.sin(angle))


def freq_spectral(log_mag: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                  target: Target, weights: torch.Tensor) -> torch.Tensor:
    """sum_w[(ln|H^| - ln|H|)^2] + sum_w[1 - cos(angle H^ - angle H)], mean over positions, per
    replica: inputs (R, P, Kb), target (P, Kb), weights (R, Kb) summing to 1 -> (R,)."""
    err = (log_mag - target.log_mag) ** 2
    phase = 1.0 - (cos * target.cos + sin * target.sin)
    return ((err + phase) * weights[:, None, :]).sum(-1).mean(-1)


def complex_spectral(pred: torch.Tensor, target: Target, weights: torch.Tensor,
                     floor: float) -> torch.Tensor:
    """The same spectral loss for a complex prediction (R, P, Kb) (T's spectrum); `floor` keeps
    ln |H^| finite where the prediction vanishes. -> (R,)."""
    mag2 = pred.real ** 2 + pred.imag ** 2 + floor ** 2
    err = (0.5 * torch.log(mag2) - target.log_mag) ** 2
    phase = 1.0 - (pred * target.spectrum.conj()).real / (torch.sqrt(mag2) * target.mag)
    return ((err + phase) * weights[:, None, :]).sum(-1).mean(-1)


def time_mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean squared error of IRs (R, P, n/2) against (P, n/2), relative to mean target^2 -> (R,)."""
    return ((pred - target) ** 2).mean((-1, -2)) / (target ** 2).mean()


def kk_penalty(spectrum: torch.Tensor, n: int) -> torch.Tensor:
    """Mean KK residual r over positions, per replica: (R, P, K) -> (R,)."""
    return kk.kk_residual(spectrum, n).mean(-1)
