"""Wilson score intervals and the Bonferroni level of lib/linear_rnns/rates.py (issue 17)."""
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.linear_rnns import rates

Z95 = 1.959963984540054           # normal 0.975 quantile (scipy.stats.norm.ppf(0.975))


def wilson_by_hand(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson (1927): (phat + z^2/2n -+ z sqrt(phat(1-phat)/n + z^2/4n^2)) / (1 + z^2/n)."""
    ph = k / n
    centre = (ph + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_wilson_zero_of_twenty():
    # k = 0: the interval is [0, z^2 / (n + z^2)] = [0, 3.8415 / 23.8415] = [0, 0.16113]
    lo, hi = rates.wilson(0, 20)
    assert lo == pytest.approx(0, abs=1e-15) and hi == pytest.approx(Z95 ** 2 / (20 + Z95 ** 2),
                                                                     rel=1e-12)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (3, 7), (10, 20), (5500, 10000), (29, 30)])
def test_wilson_matches_formula(k, n):
    # scipy's interval against the textbook formula; 1e-12 covers the quantile's last digits
    lo, hi = rates.wilson(k, n)
    ref = wilson_by_hand(k, n)
    assert lo == pytest.approx(ref[0], abs=1e-12) and hi == pytest.approx(ref[1], abs=1e-12)


def test_wilson_vectorised_and_level():
    lo, hi = rates.wilson(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert lo.shape == (3,) and (np.diff(lo) > 0).all() and (np.diff(hi) > 0).all()
    lo99, hi99 = rates.wilson(5, 10, level=0.99)
    assert lo99 < lo[1] and hi99 > hi[1]                       # a higher level is wider


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_rate_and_is_symmetric(kn):
    k, n = kn
    lo, hi = rates.wilson(k, n)
    lo2, hi2 = rates.wilson(n - k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    assert lo2 == pytest.approx(1 - hi, abs=1e-12) and hi2 == pytest.approx(1 - lo, abs=1e-12)


def test_wilson_rejects_bad_counts():
    with pytest.raises(ValueError, match="0 <= k <= n"):
        rates.wilson(3, 2)
    with pytest.raises(ValueError, match="n >= 1"):
        rates.wilson(0, 0)
    with pytest.raises(ValueError, match="level"):
        rates.wilson(1, 2, level=1.0)


def test_bonferroni_level():
    assert rates.bonferroni_level(1) == 0.95
    assert rates.bonferroni_level(12) == pytest.approx(1 - 0.05 / 12, abs=1e-15)
    with pytest.raises(ValueError):
        rates.bonferroni_level(0)


def test_with_wilson_adds_columns():
    df = pd.DataFrame({"k": [0, 10], "n": [20, 20]})
    out = rates.with_wilson(df, "k", "n", "x")
    assert list(out.columns) == ["k", "n", "x_wilson_lo", "x_wilson_hi"]
    assert list(df.columns) == ["k", "n"]
    assert out.x_wilson_hi[0] == pytest.approx(wilson_by_hand(0, 20)[1], abs=1e-12)
