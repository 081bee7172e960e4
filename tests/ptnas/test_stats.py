"""lib/ptnas/stats.py against plain counts and sklearn (spec T5)."""
import numpy as np

from lib.ptnas import naive, stats


def test_kendall_matches_pair_count_with_ties():
    rng = np.random.default_rng(0)
    for n in (2, 7, 33):
        a, b = rng.integers(0, 4, n).astype(float), rng.integers(0, 5, n).astype(float)
        assert abs(stats.kendall_tau(a, b) - naive.kendall_tau(a, b)) <= 1e-12


def test_partial_kendall_matches_formula_on_pair_counts():
    rng = np.random.default_rng(2)
    x, y, z = rng.normal(size=(3, 25))
    txy, txz, tyz = naive.kendall_tau(x, y), naive.kendall_tau(x, z), naive.kendall_tau(y, z)
    ref = (txy - txz * tyz) / np.sqrt((1 - txz ** 2) * (1 - tyz ** 2))
    assert abs(stats.partial_kendall(x, y, z) - ref) <= 1e-12
