from fractions import Fraction

import pytest
import torch

from lib.completep_rl import naive, param


@pytest.mark.parametrize("variant", param.NTK_VARIANTS)
def test_arms_coincide_at_the_base_shape(variant):
    cp = param.table("completep", param.N0, param.L0, 4)
    ntk = param.table("ntk", param.N0, param.L0, 4, variant)
    for k in param.TENSORS:
        assert cp.rules[k].effective_var == ntk.rules[k].effective_var
        assert cp.rules[k].lr_sq == ntk.rules[k].lr_sq == 1
    assert cp.beta_sq == ntk.beta_sq == 1 and cp.eps_mult == ntk.eps_mult == 1


def test_completep_rules_off_base():
    tab = param.table("completep", 64, 4, 4)
    assert tab.rules["w_hid"].lr_sq == Fraction(1, 16)
    assert tab.rules["w_out"].effective_var == Fraction(1, 64 * 4)
    assert tab.beta_sq == Fraction(1, 16) and tab.eps_mult == Fraction(1, 16)


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="param"):
        param.table("mup", 16, 1, 4)
    with pytest.raises(ValueError, match="ntk_variant"):
        param.table("ntk", 16, 1, 4, "sgd")


@pytest.mark.parametrize("kind", param.PARAMS)
def test_batched_forward_equals_the_loop(kind):
    w, tab = param.make_mlp(kind, 8, 3, 4, 2, torch.Generator().manual_seed(1))
    w["b_in"].data.normal_()
    x = torch.randn(5, 4, dtype=torch.float64)
    f, h = param.forward(w, tab, x)
    for e in range(2):
        fe, he = naive.forward_one({k: v[e] for k, v in w.items()}, tab, x)
        torch.testing.assert_close(f[e], fe, rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(h[e], he, rtol=1e-12, atol=1e-12)
