"""lib/ann2snn_cka/finetune.py: the ANN and the scales untouched, the arms' mixes, CKA0 and the
weightings (spec §5 test 7)."""
import numpy as np
import pytest
import torch

from lib.ann2snn_cka import ann, convert, finetune

RECIPE = finetune.Recipe(T=2, steps=3, batch=8, lr=1e-3, tau=2.0, kd_alpha=0.5, cka_beta=0.5)


def setup():
    torch.manual_seed(0)
    model = ann.CNN().eval()
    x = torch.rand(24, 1, 28, 28, generator=torch.Generator().manual_seed(1))
    y = torch.arange(24) % 10
    return model, x, y


@pytest.mark.parametrize("arm", finetune.ARMS)
def test_finetune_leaves_the_ann_and_the_scales_bit_identical(arm):
    model, x, y = setup()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    snn = convert.SpikingNet(model, [0.3, 0.3, 1.0], 0.0)
    lam = snn.lam.clone()
    w0 = snn.net.fc1.weight.detach().clone()
    hist = finetune.finetune(snn, model, x, y, arm, np.array([0.2, 0.3, 0.5]), RECIPE, seed=0)
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert torch.equal(snn.lam, lam)
    assert not torch.equal(snn.net.fc1.weight, w0)                 # the SNN did learn
    assert len(hist.total) == 3 and all(np.isfinite(hist.total))


def test_arm_mixes():
    assert finetune.arm_mix("kl_only", RECIPE) == (0.5, 1.0, "full")
    assert finetune.arm_mix("kl_cka", RECIPE) == (0.5, 0.5, "full")
    assert finetune.arm_mix("kl_cka_detached", RECIPE) == (0.5, 0.5, "detached_norm")
    assert finetune.arm_mix("ce_only", RECIPE)[0] == 0.0
    with pytest.raises(ValueError, match="arm = 'kl'"):
        finetune.arm_mix("kl", RECIPE)


def test_initial_cka_in_both_gram_modes_and_a_silent_layer():
    model, x, _ = setup()
    snn = convert.SpikingNet(model, [0.3, 0.3, 1.0], 0.0)
    for gram in finetune.GRAMS:
        c = finetune.initial_cka(snn, model, x, 4, 12, gram=gram)
        assert c.shape == (3,) and np.all(np.isfinite(c))
    silent = convert.SpikingNet(model, [0.3, 0.3, 1e6], 0.0)        # fc1 never reaches 1e6
    assert finetune.initial_cka(silent, model, x, 2, 12)[2] == 0.0
    with pytest.raises(ValueError, match="cka0_gram"):
        finetune.initial_cka(snn, model, x, 2, 12, gram="mean")


def test_weightings():
    assert np.allclose(finetune.layer_weights(np.array([0.9, 0.8, 0.5]), "adaptive"),
                       [0.1 / 0.8, 0.2 / 0.8, 0.5 / 0.8])
    assert np.array_equal(finetune.layer_weights(np.array([0.9, 0.8]), "uniform"), [0.5, 0.5])
    with pytest.raises(ValueError, match="cka_weighting = 'inverse'"):
        finetune.layer_weights(np.array([0.9]), "inverse")
    with pytest.raises(ValueError, match="cka_features"):
        finetune.snn_features(None, "mid")
