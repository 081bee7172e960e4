"""Errors of notebook 02's predictions (spec §3 NB2): magnitude and phase error per microphone
and bin, their summaries per arm and seed, band-wise errors, the KK residual of each field."""
from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from lib.infer import decisions, kk, losses
from lib.infer.scene import Scene
from lib.infer.train import Run


def errors(run: Run, scene: Scene, band: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Magnitude error (dB) and phase error (rad), (arms, seeds, M, band bins) each."""
    pred, true = run.spectra[..., band], scene.spectra[None, None, :, band]
    return decisions.magnitude_error_db(pred, true), decisions.phase_error(pred, true)


def residuals(run: Run, n: int) -> np.ndarray:
    """KK residual r of every predicted spectrum, (arms, seeds, M), float64."""
    return kk.kk_residual(torch.as_tensor(run.spectra), n).numpy()


def summary(run: Run, mag: np.ndarray, phase: np.ndarray, r: np.ndarray,
            train_idx: np.ndarray, test_idx: np.ndarray, seeds: list[int]) -> pd.DataFrame:
    """One row per arm and seed: held-out and training magnitude and phase error, held-out r."""
    rows = []
    for a, arm in enumerate(run.arms):
        for s, seed in enumerate(seeds):
            rows.append({"arm": arm.name, "seed": seed, "kk_lambda": arm.kk_lambda,
                         "test_mag_db": mag[a, s, test_idx].mean(),
                         "test_phase_rad": phase[a, s, test_idx].mean(),
                         "train_mag_db": mag[a, s, train_idx].mean(),
                         "train_phase_rad": phase[a, s, train_idx].mean(),
                         "test_r": r[a, s, test_idx].mean()})
    return pd.DataFrame(rows)


def bands(run: Run, mag: np.ndarray, phase: np.ndarray, freqs: np.ndarray, test_idx: np.ndarray,
          n_bands: int) -> pd.DataFrame:
    """Held-out errors per equal-ERB-rate band, arm and seed (means over microphones, bins)."""
    idx = losses.erb_bands(freqs, n_bands)
    rows = []
    for a, arm in enumerate(run.arms):
        for s in range(mag.shape[1]):
            for b in range(n_bands):
                sel = idx == b
                rows.append({"arm": arm.name, "seed": s, "band": b, "f_lo": freqs[sel].min(),
                             "f_hi": freqs[sel].max(),
                             "mag_db": mag[a, s][np.ix_(test_idx, sel)].mean(),
                             "phase_rad": phase[a, s][np.ix_(test_idx, sel)].mean()})
    return pd.DataFrame(rows)


def weighted_bins(freqs: np.ndarray, crossover: tuple[float, float],
                  notch: float) -> tuple[np.ndarray, np.ndarray]:
    """Band bins the weighted loss emphasises (weight above the flat one, outside the notch)
    and the notched crossover bins."""
    w = losses.perceptual_weights(freqs, crossover, notch)
    inside = losses.band_mask(freqs, crossover)
    return (w > losses.uniform_weights(freqs)) & ~inside, inside
