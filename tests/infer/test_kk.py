"""The discrete KK relations: causal residual, rebuild from Re H against the O(N^2) cot sum,
the time-reversed closed form, the log form for minimum phase and a delay."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.infer import kk, naive
from tests.conftest import assert_close


def assert_close_complex(name: str, ref, got, *, atol: float) -> None:
    """assert_close on the real and the imaginary parts together."""
    ref, got = np.asarray(ref), np.asarray(got)
    assert_close(name, np.stack([ref.real, ref.imag]), np.stack([got.real, got.imag]), rtol=0,
                 atol=atol)


def causal(n: int, length: int, seed: int) -> np.ndarray:
    """A random real sequence supported on t < length <= n / 2."""
    h = np.zeros(n)
    h[:length] = np.random.default_rng(seed).standard_normal(length)
    return h


@pytest.mark.parametrize("n", [8, 30, 64, 1024], ids=lambda n: f"n{n}")
def test_hermitian_full_is_the_full_dft(n):
    h = causal(n, n // 2, 1)
    full = kk.hermitian_full(torch.as_tensor(np.fft.rfft(h)), n).numpy()
    # rounding of one FFT of O(1) entries
    assert_close_complex("full DFT", np.fft.fft(h), full, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 200).map(lambda k: 2 * k), st.integers(0, 10_000))
def test_causal_residual_is_zero_and_rebuild_exact(n, seed):
    h = causal(n, n // 2 + 1, seed)                 # t <= n/2 is still causal in the window
    H = torch.as_tensor(np.fft.rfft(h))
    assert float(kk.kk_residual(H, n)) <= 1e-28     # squared FFT rounding, ~1e-32
    assert_close_complex("rebuilt H", H.numpy(), kk.kk_project(H.real, n).numpy(),
                         atol=1e-12 * np.abs(H.numpy()).max())


@pytest.mark.parametrize("n", [6, 16, 50, 128], ids=lambda n: f"n{n}")
def test_kk_project_matches_the_cot_sum(n):
    h = causal(n, n // 2, n)
    H = np.fft.rfft(h)
    full = np.fft.fft(h).real
    ref = naive.hilbert_imag(full)[: n // 2 + 1]
    # the cot kernel reaches ~n/pi near k = m: rounding grows like n eps
    assert_close("Im H", ref, kk.hilbert_imag(torch.as_tensor(H.real), n).numpy(), rtol=0,
                 atol=1e-10)
    assert_close("Im H (true)", H.imag, ref, rtol=0, atol=1e-10)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 100).map(lambda k: 2 * k), st.integers(0, 10_000))
def test_time_reversed_residual_closed_form(n, seed):
    h = causal(n, n // 2 + 1, seed)
    g = np.roll(h[::-1], 1)
    r = float(kk.kk_residual(torch.as_tensor(np.fft.rfft(g)), n))
    closed = 1 - (h[0] ** 2 + h[n // 2] ** 2) / (h ** 2).sum()
    assert abs(r - closed) <= 1e-12                 # rounding only


def test_residual_bounds_and_all_negative_time():
    n = 32
    g = np.zeros(n)
    g[n // 2 + 1:] = 1.0
    assert abs(float(kk.kk_residual(torch.as_tensor(np.fft.rfft(g)), n)) - 1.0) <= 1e-14


def min_phase_fir(radius: float, pairs: int, seed: int) -> np.ndarray:
    zeros = radius * np.exp(1j * np.random.default_rng(seed).uniform(0.05, np.pi - 0.05, pairs))
    return np.real(np.poly(np.r_[zeros, zeros.conj()]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_log_form_holds_for_minimum_phase(seed):
    b = min_phase_fir(0.9 * np.random.default_rng(seed).uniform(0.5, 1.0), 3, seed)
    res = kk.log_form_residual(torch.as_tensor(np.fft.rfft(b, 16 * 256))).numpy()
    assert np.abs(res).max() <= 1e-8               # cepstral aliasing 0.9^2048: nil


@pytest.mark.parametrize("delay", [1, 5, 33])
def test_log_form_fails_by_omega_t_for_a_delay(delay):
    m = 4096
    b = np.r_[np.zeros(delay), min_phase_fir(0.8, 2, delay)]
    res = kk.log_form_residual(torch.as_tensor(np.fft.rfft(b, m))).numpy()
    omega = 2 * np.pi * np.arange(m // 2 + 1) / m
    wrapped = kk.wrap(torch.as_tensor(res + omega * delay)).numpy()
    assert np.abs(wrapped).max() <= 1e-8
    assert np.abs(res).max() > 1.0                 # it does fail


def test_log_form_fails_for_a_zero_outside():
    b = np.real(np.poly([1.5 * np.exp(0.7j), 1.5 * np.exp(-0.7j)]))
    res = kk.log_form_residual(torch.as_tensor(np.fft.rfft(b, 4096))).numpy()
    assert np.abs(res).max() > 0.5


def test_wrap_range():
    x = torch.linspace(-20, 20, 1001, dtype=torch.float64)
    w = kk.wrap(x)
    assert float(w.max()) <= math.pi and float(w.min()) > -math.pi
    assert_close("wrap", np.cos(x.numpy()), np.cos(w.numpy()), rtol=0, atol=1e-12)


def test_residual_is_differentiable():
    H = torch.as_tensor(np.fft.rfft(np.random.default_rng(0).standard_normal(16))).requires_grad_()
    kk.kk_residual(H, 16).backward()
    assert torch.isfinite(H.grad).all() and H.grad.abs().sum() > 0
