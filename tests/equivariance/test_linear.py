"""E0 linear warm-up (spec §4 E0, §6 'Linear E0')."""
import numpy as np

from lib.equivariance import groups as G
from lib.equivariance import latent
from lib.equivariance import linear as Li
from tests.conftest import assert_close


def test_rank_factorization_recovers_equivariant_action():
    rng = np.random.default_rng(0)
    group = G.cyclic_shift(7)
    M = Li.low_rank_circulant(7, [0, 2], rng)
    assert np.linalg.matrix_rank(M) == 3          # frequencies {0, 2, 5}
    W2, W1 = Li.rank_factorization(M, rng)
    assert_close("factor", M, W2 @ W1, rtol=0, atol=1e-12)
    rho = Li.recover_action(W1, group.mats)
    for R, r in zip(group.mats, rho):
        assert_close("W1 rho_in = rho_1 W1", W1 @ R, r @ W1, rtol=0, atol=1e-10)
    assert latent.homomorphism_defects(rho, group).max() < 1e-10
    # closed-form character on the kept Fourier modes: 1 + 2 cos(4 pi j / 7)
    assert_close("char", 1 + 2 * np.cos(4 * np.pi * np.arange(7) / 7),
                 np.trace(rho, axis1=1, axis2=2), rtol=0, atol=1e-10)


def test_inflated_width_has_no_linear_action():
    rng = np.random.default_rng(1)
    group = G.cyclic_shift(8)
    W2, W1 = Li.rank_factorization(Li.low_rank_circulant(8, [1], rng), rng)
    assert Li.intertwining_residual(W1, group.mats) < 1e-12
    W2i, W1i = Li.inflate(W2, W1, 2, rng)
    assert_close("same map", W2 @ W1, W2i @ W1i, rtol=0, atol=1e-14)
    assert Li.intertwining_residual(W1i, group.mats) > 0.05
