"""Planted equivariant MLPs: exact recovery of the latent actions (spec §1.7, §6 E1 bullet)."""
import numpy as np
import pytest

from lib.equivariance import construct, latent, mlp, naive, sym
from lib.equivariance import groups as G
from tests.conftest import assert_close

GROUPS = {"C8": G.cyclic_shift(8), "Z2": G.mirror_grid(3), "D4": G.d4_grid(4),
          "S3": G.block_permutation(2)}


def planted(name, act, rng, channels=(2, 1)):
    group = GROUPS[name]
    tw = [c for c in G.sign_characters(group)
          if (c != 1).any() and construct.isotypic_multiplicity(group, c) > 0][:1]
    tw = tw if act == "tanh" else []
    theta = construct.planted_mlp(group, list(channels), rng, twisted=tw)
    return group, tw, theta


def test_forward_matches_naive():
    rng = np.random.default_rng(0)
    theta = mlp.random_mlp([3, 5, 1, 2], rng)
    X = rng.normal(size=(7, 3))
    for act in ("tanh", "relu", "gelu", ["tanh", "gelu"]):
        # same sums in a different order: 1e-14
        assert_close(f"forward {act}", naive.forward(theta, X, act), mlp.forward(theta, X, act),
                     rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", list(GROUPS))
@pytest.mark.parametrize("act, kind", [("tanh", "signed_perm"), ("relu", "pos_monomial")])
def test_planted_recovery(name, act, kind):
    rng = np.random.default_rng(11)
    group, tw, theta = planted(name, act, rng)
    X = rng.normal(size=(200, group.dim))
    # construction is exactly equivariant: float64 rounding only (spec: < 1e-12)
    assert latent.equivariance_error(theta, act, group, group, X) < 1e-12
    scrambled = sym.apply_K(theta, sym.random_K(theta, kind, rng))
    assert mlp.same_function(theta, scrambled, X, act) < 1e-12
    rec = latent.recover(scrambled, group, group, kind)
    assert rec.residuals.max() < 1e-10 and rec.final.max() < 1e-10   # spec §4 E1: 1e-10
    assert rec.gaps.min() > 1e-3                                    # unique k: no ties
    rho = latent.latent_actions(rec)
    for r in rho:
        # tanh: entries ±1 exactly -> defect exactly 0; ReLU: products of norm ratios, 1e-12
        assert latent.homomorphism_defects(r, group).max() <= (0.0 if act == "tanh" else 1e-12)
        assert_close("hom vs naive", naive.homomorphism_defects(r, group),
                     latent.homomorphism_defects(r, group), rtol=0, atol=1e-15)
    assert latent.layerwise_errors(scrambled, act, rho, group, group, rng, n=64).max() < 1e-10
    # characters: closed form of the planted representation (regular + sign-twisted)
    for got, want in zip(latent.characters(rho), construct.planted_characters(group, [2, 1], tw)):
        assert np.array_equal(np.rint(got).astype(int), want)
        assert_close("character", want, got, rtol=0, atol=1e-12)


@pytest.mark.parametrize("act, kind", [("tanh", "signed_perm"), ("relu", "pos_monomial")])
def test_naive_choice_fails_exactly_on_noncommuting_pairs(act, kind):
    # k(gh) = k(h) k(g): rho = k fails at (g, h) iff gh != hg (the regular action is faithful),
    # so the number of failing pairs is read off the D_4 table: 24 (see test_groups).
    rng = np.random.default_rng(12)
    group, _, theta = planted("D4", act, rng)
    scrambled = sym.apply_K(theta, sym.random_K(theta, kind, rng))
    rec = latent.recover(scrambled, group, group, kind)
    for r in latent.latent_actions(rec, naive=True):
        assert latent.failing_pairs(r, group, 1e-9) == latent.noncommuting_pairs(group) == 24
    for r in latent.latent_actions(rec, naive=False):
        assert latent.failing_pairs(r, group, 1e-9) == 0


def test_abelian_group_hides_the_bug():
    rng = np.random.default_rng(13)
    group, _, theta = planted("C8", "tanh", rng)
    rec = latent.recover(theta, group, group, "signed_perm")
    for r in latent.latent_actions(rec, naive=True):
        assert latent.failing_pairs(r, group, 1e-9) == 0


def test_relu_positive_normalizer_gives_permutation_rep():
    rng = np.random.default_rng(14)
    group, _, theta = planted("D4", "relu", rng)
    scrambled = sym.apply_K(theta, sym.random_K(theta, "pos_monomial", rng))
    rho = latent.latent_actions(latent.recover(scrambled, group, group, "pos_monomial"))
    for r in rho:
        conj = latent.conjugate(r, latent.positive_normalizer(r))
        # every entry 0 or 1 up to products of a few norm ratios
        assert_close("perm entries", np.rint(conj), conj, rtol=0, atol=1e-12)
        assert np.array_equal(np.rint(conj).sum(axis=2), np.ones(conj.shape[:2]))


def test_invariant_output():
    rng = np.random.default_rng(15)
    group = GROUPS["D4"]
    out = G.trivial_rep(group, 3)
    theta = construct.planted_mlp(group, [1, 2], rng, rho_out=out)
    X = rng.normal(size=(50, 16))
    assert latent.equivariance_error(theta, "tanh", group, out, X) < 1e-12
    rec = latent.recover(theta, group, out, "signed_perm")
    assert rec.final.max() < 1e-12
