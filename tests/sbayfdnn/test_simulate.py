"""lib/sbayfdnn/simulate.py and data.py: the design of spec §3, seeded and standardised."""
import numpy as np
import pytest

from lib.sbayfdnn import data, simulate
from tests.conftest import assert_close


def test_index_equals_grid_integral():
    s = simulate.simulate(50, np.random.default_rng(0), "linear", (0.2, 0.4), 5.0, 2001, 20)
    beta = np.where((s.t >= 0.2) & (s.t <= 0.4),
                    8 * np.sin(np.pi * (s.t - 0.2) / 0.2), 0.0)
    # trapezoid on a 2,001-point grid of a kinked integrand: error ~ h^2 * curvature ~ 1e-5
    assert_close("u", s.u, np.trapezoid(beta * s.X, s.t, axis=1), rtol=0, atol=1e-3)


@pytest.mark.parametrize("link", sorted(simulate.LINKS))
def test_noise_level_matches_snr(link):
    s = simulate.simulate(20000, np.random.default_rng(1), link, (0.2, 0.4), 2.0, 51, 20)
    ratio = s.g.var() / (s.y - s.g).var()
    assert abs(ratio - 2.0) < 0.1      # 20,000 draws: sampling error of a variance ~ 1%


def test_unknown_link():
    with pytest.raises(ValueError, match="link 'cube'"):
        simulate.simulate(5, np.random.default_rng(0), "cube", (0.2, 0.4), 5.0, 11, 3)


def test_replication_standardised_and_seeded():
    args = (100, 40, data.seed_rng(0, 1, 2), "sin", (0.2, 0.4), 5.0, 101, 20, 24, 3)
    r = data.replication(*args)
    assert_close("mean Z", np.zeros(24), r.Z.mean(0), rtol=0, atol=1e-12)
    assert_close("sd Z", np.ones(24), r.Z.std(0), rtol=0, atol=1e-12)
    assert abs(r.y.mean()) < 1e-12 and abs(r.y.std() - 1) < 1e-12
    again = data.replication(100, 40, data.seed_rng(0, 1, 2), *args[3:])
    assert np.array_equal(r.Z_test, again.Z_test) and np.array_equal(r.y_test, again.y_test)
    other = data.replication(100, 40, data.seed_rng(0, 1, 3), *args[3:])
    assert not np.array_equal(r.y, other.y)
