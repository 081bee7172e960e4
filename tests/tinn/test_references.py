"""Spectral ETDRK4 and Cole-Hopf references of Burgers (spec §3.2, §5 tests 7-8)."""
import numpy as np
import pytest

from lib.tinn import references

NU = 0.01 / np.pi


def test_cfl_refused_before_compute():
    with pytest.raises(references.CFLError, match="CFL"):
        references.burgers_spectral(NU, 256, 1e-2, np.array([0.0, 0.02]), cfl_max=1.0)


def test_bad_output_times_refused():
    with pytest.raises(ValueError, match="multiples"):
        references.burgers_spectral(NU, 64, 1e-3, np.array([0.0, 0.0015]))


def test_odd_mode_count_refused():
    with pytest.raises(ValueError, match="even"):
        references.burgers_spectral(NU, 63, 1e-3, np.array([0.0]))


def test_cfl_number_closed_form():
    # k_max = pi * (N // 3): 256 modes -> 85 pi
    assert references.cfl_number(256, 1e-3, 1.0) == pytest.approx(1e-3 * 85 * np.pi)


def test_heat_limit_matches_exact_decay():
    # large viscosity, tiny amplitude effect: compare with Cole-Hopf instead (exact solution)
    x = np.linspace(-1, 1, 17)
    t = np.array([0.0, 0.05, 0.1])
    nu = 0.1
    coef, _ = references.burgers_spectral(nu, 128, 1e-3, t)
    u = references.evaluate_fourier(coef, 128, x)
    uc, _ = references.burgers_colehopf(x, t, nu, 2001)
    assert np.abs(u - uc).max() < 1e-10


def test_colehopf_initial_condition_and_symmetry():
    x = np.linspace(-1, 1, 33)
    u, ux = references.burgers_colehopf(x, np.array([1e-4, 0.3]), NU, 2001)
    # the integral itself (t = 0 is written as -sin(pi x) directly): within O(t) of the IC
    assert np.abs(u[0] + np.sin(np.pi * x)).max() < 1e-3
    assert np.abs(u[1] + u[1][::-1]).max() < 1e-14


def test_colehopf_self_convergence():
    x = np.linspace(-1, 1, 33)
    t = np.array([0.2, 0.6])
    a, _ = references.burgers_colehopf(x, t, NU, 2001)
    b, _ = references.burgers_colehopf(x, t, NU, 8001)
    assert np.abs(a - b).max() < 1e-12


def test_colehopf_slope_matches_finite_difference():
    x = np.array([0.3])
    h = 1e-5
    _, ux = references.burgers_colehopf(x, np.array([0.4]), NU, 2001)
    up, _ = references.burgers_colehopf(x + h, np.array([0.4]), NU, 2001)
    um, _ = references.burgers_colehopf(x - h, np.array([0.4]), NU, 2001)
    assert ux[0, 0] == pytest.approx((up - um)[0, 0] / (2 * h), rel=1e-6)


def test_max_slope_literature():
    peak, t_peak = references.max_slope_at_origin(NU)
    assert peak == pytest.approx(152.00516, abs=2e-4)
    assert t_peak == pytest.approx(0.5105, abs=5e-4)


def test_fourier_derivative_of_a_sine():
    n = 32
    x = -1 + 2 * np.arange(n) / n
    coef = np.fft.rfft(np.sin(np.pi * x))[None, :]
    xe = np.array([0.0, 0.25])
    assert np.allclose(references.evaluate_fourier(coef, n, xe, 1)[0], np.pi * np.cos(np.pi * xe),
                       atol=1e-13)
