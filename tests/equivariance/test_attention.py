"""Planted equivariant attention: head permutation and value maps recovered (spec §6 attention)."""
import numpy as np
import pytest

from lib.equivariance import attention as A
from tests.conftest import assert_close


def feature_flip(d):
    t = np.eye(d)
    t[[0, 1]] = t[[1, 0]]
    t[2, 2] = -1.0
    return t


@pytest.mark.parametrize("d, dh, T", [(6, 2, 5), (5, 2, 3), (7, 3, 4)],
                         ids=["d6", "d5-T3", "d7-h3"])
def test_planted_heads_recovered(d, dh, T):
    rng = np.random.default_rng(0)
    t = feature_flip(d)
    heads = A.planted_mhsa(t, dh, rng)
    X = rng.normal(size=(30, T, d))
    # exact construction: float64 rounding of softmax and products
    assert_close("equivariance", A.mhsa(X, heads) @ t.T, A.mhsa(X @ t.T, heads), rtol=0, atol=1e-12)
    rep = A.scramble_reports(heads, t, X, 4, dh, rng)
    assert rep[["scramble", "fibre", "m_residual", "v_residual", "o_residual", "layer_heads",
                "layer_out"]].to_numpy().max() < 1e-9    # scrambles invert random 2x2/3x3 blocks
    assert all(c == (1, 1) for c in rep.cycle_type)      # construction: one swap, one fixed head
    assert rep.gap.min() > 1e-3


def test_softmax_rows_sum_to_one():
    rng = np.random.default_rng(1)
    S = rng.normal(size=(2, 4, 4)) * 30
    assert_close("rows", np.ones((2, 4)), A.softmax(S).sum(-1), rtol=0, atol=1e-15)
