"""Loss weights and losses: weights sum to 1, the notch only inside its band, ERB bands, the
spectral losses at their zeros, the KK penalty."""
import numpy as np
import pytest
import torch

from lib.infer import decisions, losses

FREQS = np.fft.rfftfreq(1024, 1 / 4000.0)
BAND = FREQS[losses.band_mask(FREQS, (50.0, 1500.0))]


def test_weights_sum_to_one():
    assert abs(losses.uniform_weights(BAND).sum() - 1) <= 1e-12
    assert abs(losses.perceptual_weights(BAND, (250.0, 400.0), 0.2).sum() - 1) <= 1e-12


def test_notch_applies_only_inside_its_band():
    w = losses.perceptual_weights(BAND, (250.0, 400.0), 0.2)
    density = decisions.perceptual_density(BAND)
    ratio = w / density / (w / density)[0]                  # 1 outside, 0.2 inside
    inside = (BAND >= 250) & (BAND <= 400)
    assert np.allclose(ratio[inside], 0.2, rtol=1e-12) and np.allclose(ratio[~inside], 1.0)


def test_perceptual_density_is_the_erb_rate_derivative():
    f = np.linspace(50, 1500, 101)
    h = 1e-3
    numeric = (losses.erb_rate(f + h) - losses.erb_rate(f - h)) / (2 * h)
    # Glasberg-Moore's two constants agree to 0.3 %: 21.4 * 4.37e-3 / ln 10 vs 4.37e-3 / 24.7 * 24.7
    assert np.allclose(numeric, decisions.perceptual_density(f), rtol=4e-3)


@pytest.mark.parametrize("n_bands", [1, 3, 8])
def test_erb_bands_cover_and_rise(n_bands):
    idx = losses.erb_bands(BAND, n_bands)
    assert set(idx) == set(range(n_bands)) and np.all(np.diff(idx) >= 0)


def test_spectral_losses_vanish_at_the_target():
    g = torch.Generator().manual_seed(0)
    target = torch.complex(torch.randn(5, 7, generator=g), torch.randn(5, 7, generator=g))
    w = torch.full((2, 7), 1 / 7)
    lm = torch.log(target.abs()).expand(2, -1, -1)
    cos, sin = (torch.cos(target.angle()).expand(2, -1, -1),
                torch.sin(target.angle()).expand(2, -1, -1))
    parts = losses.Target.of(target)
    assert float(losses.freq_spectral(lm, cos, sin, parts, w).abs().max()) <= 1e-6
    assert float(losses.complex_spectral(target.expand(2, -1, -1), parts, w, 1e-8).abs().max()) \
        <= 1e-5
    wrong = losses.freq_spectral(lm, -cos, -sin, parts, w)
    assert torch.allclose(wrong, torch.full((2,), 2.0))     # 1 - cos(pi) = 2 per bin


def test_time_mse_and_kk_penalty():
    h = torch.randn(4, 16, generator=torch.Generator().manual_seed(1))
    assert float(losses.time_mse(h[None], h)) == 0.0
    assert abs(float(losses.time_mse(torch.zeros(1, 4, 16), h)) - 1.0) <= 1e-6
    causal = torch.fft.rfft(torch.cat([h, torch.zeros(4, 16)], -1).double())
    assert float(losses.kk_penalty(causal[None], 32)) <= 1e-28
