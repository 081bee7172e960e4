"""Parameters refused by key before compute, and each decision rule both ways."""
import numpy as np
import pytest
from pydantic import ValidationError

from lib.companion import rules
from lib.infer import decisions
from lib.infer.schema import Fields, KramersKronig


@pytest.mark.parametrize("cls, changes, key", [
    (KramersKronig, {"n_fft": 1023}, "n_fft"),
    (KramersKronig, {"fir_radius": 1.0}, "fir_radius"),
    (KramersKronig, {"taps": 40}, "taps"),
    (KramersKronig, {"bulk": 5}, "bulk"),
    (KramersKronig, {"order": 14}, "order"),                # taps past n_fft / 2 = 512
    (KramersKronig, {"source": [3.5, 0.4, 0.9]}, "source"),
    (KramersKronig, {"plane_origin": [2.5, 0.35]}, "plane_origin"),
    (Fields, {"n_train": 256}, "n_train"),
    (Fields, {"kk_lambda": 2.0}, "kk_lambda"),
    (Fields, {"kk_lambdas": [1.0, 0.1]}, "kk_lambdas"),
    (Fields, {"band": [50.0, 2500.0]}, "band"),
    (Fields, {"crossover": [10.0, 400.0]}, "crossover"),
    (Fields, {"n_show": 300}, "n_show"),
], ids=lambda v: str(v) if isinstance(v, str) else None)
def test_bad_parameters_are_refused_by_key(cls, changes, key):
    with pytest.raises(ValidationError, match=key):
        cls(**changes)


def test_default_order_is_ten_and_kk_lambda_is_swept():
    assert KramersKronig().order == 10 and Fields().kk_lambda in Fields().kk_lambdas


def test_seeds_needed():
    assert [rules.seeds_needed(s, decisions.SEED_FRACTION) for s in (1, 2, 3, 5)] == [1, 2, 2, 4]


def test_better_in_most_both_ways():
    assert decisions.better_in_most([1.0, 2.0, 5.0], [2.0, 3.0, 4.0])
    assert not decisions.better_in_most([1.0, 4.0, 5.0], [2.0, 3.0, 4.0])
    assert not decisions.better_in_most([2.0], [2.0])


def test_positive_in_most_both_ways():
    # ceil(2 * 3 / 3) = 2 of 3 seeds; ceil(2 * 4 / 3) = 3 of 4; zero is not positive
    assert decisions.positive_in_most([0.1, 0.2, -0.5])
    assert not decisions.positive_in_most([0.1, 0.0, -0.5])
    assert not decisions.positive_in_most([0.1, 0.2, -0.1, -0.2])
    assert decisions.positive_in_most([0.1, 0.2, 0.3, -0.2])


def test_decreasing_in_most_both_ways():
    assert decisions.decreasing_in_most(np.array([[0.3, 1e-3, 1e-4], [0.3, 2e-3, 1e-3],
                                                  [0.3, 1e-3, 2e-3]]))
    assert not decisions.decreasing_in_most(np.array([[0.3, 1e-3, 2e-3], [0.3, 0.4, 1e-3],
                                                      [0.3, 1e-3, 1e-4]]))


def test_weighting_tradeoff_both_ways():
    assert decisions.weighting_tradeoff(1.0, 1.1, 2.0, 1.9)
    assert not decisions.weighting_tradeoff(1.2, 1.1, 2.0, 1.9)
    assert not decisions.weighting_tradeoff(1.0, 1.1, 1.8, 1.9)


def test_error_metrics():
    z = np.exp(1j * np.array([0.0, 3.0, -3.0]))
    assert np.allclose(decisions.phase_error(z, np.ones(3)), [0.0, 3.0, 3.0])
    assert np.allclose(decisions.phase_error(np.exp(3.0j), np.exp(-3.0j)), 2 * np.pi - 6.0)
    assert np.allclose(decisions.magnitude_error_db(np.array([10.0, 0.1]), np.ones(2)), 20.0)
