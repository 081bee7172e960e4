"""lib/ptnas/data.py: splits are stratified 60/20/20, standardised on train, deterministic."""
import torch

from lib.ptnas import data


def test_split_shapes_and_standardisation():
    s = data.load_split("digits", 0)
    assert len(s.y_train) + len(s.y_val) + len(s.y_test) == 1797
    assert s.d_in == 64 and s.n_classes == 10
    assert torch.allclose(s.x_train.mean(0), torch.zeros(64), atol=1e-5)


def test_split_deterministic_and_subset():
    a, b = data.load_split("synthetic", 3, 300), data.load_split("synthetic", 3, 300)
    assert torch.equal(a.x_train, b.x_train) and len(a.y_train) == 180
