"""LM step, damping rule, resampling rule, singular systems (spec §5 tests 5, 6, 10)."""
import numpy as np
import pytest
import torch

from lib.tinn import lm, naive


def test_lm_linear_least_squares():
    # r(theta) = A theta - b: one LM step from 0 with mu -> 0 is the least-squares solution
    g = np.random.default_rng(0)
    a, b = g.standard_normal((30, 5)), g.standard_normal(30)
    delta = lm.lm_step(torch.as_tensor(a), torch.as_tensor(-b), 1e-14).numpy()
    assert np.allclose(delta, np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-10)


def test_lm_step_matches_dense():
    g = np.random.default_rng(1)
    jac, r = g.standard_normal((40, 7)), g.standard_normal(40)
    step = lm.lm_step(torch.as_tensor(jac), torch.as_tensor(r), 0.3).numpy()
    assert np.allclose(step, naive.lm_step_dense(jac, r, 0.3), atol=1e-13)


def test_normal_matrix_is_jtj():
    """numpy's symmetric rank-k J^T J equals torch's general product (float64 rounding) and is
    exactly symmetric."""
    jac = torch.as_tensor(np.random.default_rng(2).standard_normal((53, 11)))
    gram = lm.normal_matrix(jac)
    assert torch.equal(gram, gram.T)
    assert (gram - jac.T @ jac).abs().max() < 1e-12


def test_singular_refused():
    jac = torch.ones((6, 3), dtype=torch.float64)
    with pytest.raises(lm.SingularSystemError, match="singular|positive definite"):
        lm.lm_step(jac, torch.ones(6, dtype=torch.float64), 0.0)


def test_nonfinite_refused():
    jac = torch.eye(3, dtype=torch.float64)
    with pytest.raises(lm.NonFiniteError):
        lm.lm_step(jac, torch.tensor([1.0, float("nan"), 0.0], dtype=torch.float64), 1.0)


def test_damping_rule_sequence():
    rule = lm.Damping()
    # step 1: odd, no comparison; loss/mu = 1/10 -> no reset
    assert lm.next_mu(10.0, 1, [2.0, 1.0], rule) == 10.0
    # step 2: loss fell vs two steps earlier -> / 1.3
    assert lm.next_mu(10.0, 2, [2.0, 1.5, 1.0], rule) == pytest.approx(10.0 / 1.3)
    # step 2: loss rose -> * 1.7
    assert lm.next_mu(10.0, 2, [1.0, 1.5, 2.0], rule) == pytest.approx(17.0)
    # floor and cap
    assert lm.next_mu(1e-12, 2, [1e-10, 1e-10, 0.5e-10], rule) == 1e-12
    assert lm.next_mu(1e8, 2, [1.0, 1.0, 2.0], rule) == 1e8
    # reset: loss / mu > 1e5 -> mu = loss / 10
    assert lm.next_mu(1e-6, 1, [1.0, 1.0], rule) == pytest.approx(0.1)


def test_resampling_rule():
    assert lm.should_resample(5.1, 1.0) and not lm.should_resample(5.0, 1.0)
