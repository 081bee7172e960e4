"""The time-entanglement toy (spec §3.1): the time-induced neuron contains the target, the
space-time neuron's best fit has a floor."""
import numpy as np

from lib.tinn import toy

X, T = np.linspace(-1, 1, 17), np.linspace(0, 1, 9)      # odd, small grid


def test_time_induced_contains_target():
    # spec §1.2: a = 1, w0 = 1, w1 = 19, b0 = b1 = 0 is the target itself; exact up to rounding
    p = np.array([1.0, 1.0, 19.0, 0.0, 0.0])
    assert np.abs(toy.time_induced(p, X, T) - toy.target(X, T)).max() <= 1e-15


def test_fits_from_starts():
    starts = np.random.default_rng(3).normal(0.0, 2.0, (5, 5))
    st = toy.fit_starts("space_time", X, T, starts)
    ti = toy.fit_starts("time_induced", X, T, starts)
    assert st.shape == ti.shape == (5,)
    assert st.min() >= 0.05            # time only shifts the argument: a floor (spec §3.1)
    assert ti.min() <= 1e-10           # the target is in the class (PROTO 6.9e-20)
