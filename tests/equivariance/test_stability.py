"""E8 helpers: relative perturbation size; the near-duplicate family is exactly equivariant."""
import numpy as np

from lib.equivariance import groups as G
from lib.equivariance import latent, mlp, stability


def test_perturb_is_relative():
    rng = np.random.default_rng(0)
    theta = mlp.random_mlp([5, 7, 3], rng)
    pert = stability.perturb(theta, 1e-3, rng)
    for (W, b), (Wp, bp) in zip(theta, pert):
        rel = (np.linalg.norm(np.concatenate([(Wp - W).ravel(), bp - b]))
               / np.linalg.norm(np.concatenate([W.ravel(), b])))
        assert 5e-4 < rel < 2e-3                    # eps times an O(1) chi factor


def test_near_duplicate_equivariant_for_every_delta():
    rng = np.random.default_rng(1)
    g = G.mirror_grid(3)
    X = rng.normal(size=(50, 9))
    for delta in (0.0, 1e-6, 0.5):
        theta = stability.near_duplicate(g, delta, np.random.default_rng(2))
        assert latent.equivariance_error(theta, "tanh", g, g, X) < 1e-12   # exact construction
