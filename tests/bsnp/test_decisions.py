"""lib/bsnp/decisions.py: each rule shown both ways."""
import pytest

from lib.bsnp import decisions as d


def test_rules_both_ways():
    assert d.trained(0.1) and not d.trained(0.9)
    assert d.residual_lowered(0.2, 0.5) and not d.residual_lowered(0.3, 0.5)
    assert d.lower_by_se([0.010, 0.011], [0.020, 0.021])
    assert not d.lower_by_se([0.010, 0.030], [0.020, 0.021])
    assert d.calibrated(0.9) and not d.calibrated(0.99)
    assert d.collapsed(0.8, 0.9, 0.05, 0.1) and not d.collapsed(0.88, 0.9, 0.05, 0.1)
    assert d.overfits(4.0, 1.0, 1.0, 1.0) and not d.overfits(1.5, 1.0, 1.0, 1.0)
    assert d.graceful([0, 0.1, 0.3], [0.01, 0.02, 0.04])
    assert not d.graceful([0, 0.1, 0.3], [0.01, 0.005, 0.04])
    assert not d.graceful([0, 0.3], [0.01, 0.06])
    assert d.uses_context(0.1, 0.2) and not d.uses_context(0.10776, 0.10777)
    assert d.sparse_advantage(0.8, 0.9) and not d.sparse_advantage(1.1, 1.2)
    assert d.sparse_covered(0.85) and not d.sparse_covered(0.6)


def test_standard_error_needs_two_seeds():
    with pytest.raises(ValueError, match="two seeds"):
        d.lower_by_se([0.1], [0.2])


def test_pooled_mnse_is_summed_error_over_summed_reference():
    import numpy as np

    from lib.bsnp.decisions import pooled_mnse
    rows = np.array([[1.0, 4.0, 9.0, 1.0], [3.0, 4.0, 0.0, 1.0]])
    assert pooled_mnse(rows) == 0.5                                   # 4 / 8, exact
    assert pooled_mnse(rows, 2, 3) == 4.5                             # 9 / 2, exact
