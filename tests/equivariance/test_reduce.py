"""Weak identifiability: duplicate lift, dead neurons, irreducibility (spec §1.4, §1.7.5, §6)."""
import numpy as np

from lib.equivariance import construct, latent, mlp
from lib.equivariance import groups as G
from lib.equivariance import reduce as R
from tests.conftest import assert_close


def duplicated(theta, j, split, sign):
    (W1, b1), (W2, b2) = theta[0], theta[1]
    W2 = W2.copy()
    W2n = np.column_stack([W2, sign * split * W2[:, j]])
    W2n[:, j] *= 1 - split
    return [(np.vstack([W1, sign * W1[j]]), np.append(b1, sign * b1[j])), (W2n, b2)] + theta[2:]


def test_duplicate_lift_is_exact_and_not_monomial():
    rng = np.random.default_rng(0)
    group = G.d4_grid(4)
    theta = construct.planted_mlp(group, [2, 1], rng)
    dup = duplicated(theta, 3, 0.3, -1.0)          # spec §3.3: uneven 0.7 / 0.3 split
    X = rng.normal(size=(100, 16))
    assert mlp.same_function(theta, dup, X, "tanh") < 1e-12
    rec = latent.recover(dup, group, group, "signed_perm")
    assert rec.residuals[:, 0].max() > 0.1         # signed-permutation matching fails
    red = R.reduce(dup, "signed_perm")
    assert red.merged == [1, 0] and red.removed_inactive == [0, 0]
    assert R.beta_residual(dup, red) < 1e-14       # dup = beta(theta~) exactly
    small = latent.latent_actions(latent.recover(red.small, group, group, "signed_perm"))
    rho = [latent.lift_action(r, a, s) for r, a, s in zip(small, red.alphas, red.alpha_stars)]
    # spec §1.7 step 5 numbers: 2e-15, 6e-17; allow 1e-12
    assert latent.layerwise_errors(dup, "tanh", rho, group, group, rng, n=64).max() < 1e-12
    assert max(latent.homomorphism_defects(r, group).max() for r in rho) < 1e-12
    # lifted action on layer 1 is not monomial: some row has two nonzero entries
    assert (np.abs(rho[0]) > 1e-12).sum(axis=2).max() >= 2


def test_dead_neuron_with_random_row_is_not_beta_form():
    rng = np.random.default_rng(1)
    group = G.mirror_grid(4)
    theta = construct.planted_mlp(group, [2, 1], rng)
    (W1, b1), (W2, b2) = theta[0], theta[1]
    dead = [(np.vstack([W1, rng.normal(size=16)]), np.append(b1, 0.3)),
            (np.column_stack([W2, np.zeros(len(W2))]), b2), theta[2]]
    red = R.reduce(dead, "signed_perm")
    assert red.removed_inactive == [1, 0]
    assert R.beta_residual(dead, red) > 0.01      # a fibre-mate, not beta(theta~)
    fixed = [(np.vstack([W1, np.zeros(16)]), np.append(b1, 0.0))] + dead[1:]
    assert R.beta_residual(fixed, R.reduce(fixed, "signed_perm")) < 1e-15


def test_irreducibility_report_flags():
    rng = np.random.default_rng(2)
    theta = mlp.random_mlp([4, 6, 2], rng)
    rep = R.irreducibility_report(theta, "signed_perm")[0]
    assert rep["min_pair"] > 0.05 and rep["min_out"] > 0.05
    W, b = theta[0]
    W[2], b[2] = -W[4], -b[4]
    assert R.irreducibility_report(theta, "signed_perm")[0]["min_pair"] == 0.0


def test_lift_is_homomorphism_for_any_left_inverse():
    group = G.cyclic_shift(5)
    rho_small = group.mats
    alpha = np.vstack([np.eye(5), np.eye(5)[[2]]])          # duplicate coordinate 2
    star = np.hstack([np.eye(5), np.zeros((5, 1))])
    star[2, 2], star[2, 5] = 0.25, 0.75                      # (1-a) e_j + a e_j'
    assert_close("alpha* alpha", np.eye(5), star @ alpha, rtol=0, atol=1e-15)
    rho = latent.lift_action(rho_small, alpha, star)
    assert latent.homomorphism_defects(rho, group).max() < 1e-14
