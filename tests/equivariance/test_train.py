"""Training smoke test and the hand-written Adam (spec §6 last bullet)."""
import numpy as np
import torch

from lib.equivariance import construct, mlp, train
from lib.equivariance import groups as G
from tests.conftest import assert_close


def test_adam_matches_torch_without_decay_first_step():
    # first Adam step moves every coordinate by lr * sign(g) (bias-corrected m/sqrt(v) = ±1)
    p = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
    g = torch.tensor([0.5, -0.1, 2.0], dtype=torch.float64)
    adam = train.Adam([p], lr=0.1, steps=10)
    adam.step([g])
    assert_close("adam step", [0.9, -1.9, 2.9], p.numpy(), rtol=0, atol=1e-8)  # eps = 1e-8


def test_teacher_student_fit_improves_tenfold():
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    group = G.mirror_grid(3)
    teacher = construct.planted_mlp(group, [2, 1], rng)
    Z = rng.normal(size=(512, 9))
    x, y = train.augment(Z, mlp.forward(teacher, Z, "tanh"), group.mats, True)
    X, Y = torch.tensor(x)[None], torch.tensor(y)[None]
    st = train.init_students([9, 4, 2, 9], "tanh", [0])
    Rs = torch.tensor(group.mats)
    h = train.fit(st, X, Y, Rs, 500, 3e-2, 128, 0, 250, X[:, :256], Y[:, :256], X[:, :256], [1])
    assert h.rel_mse[-1][0] < 0.1 * h.rel_mse[0][0]       # spec §6: 10x reduction in 500 steps
    assert np.isfinite(h.lv1[-1]).all()


def test_augment_shapes_and_equivariant_targets():
    rng = np.random.default_rng(1)
    group = G.d4_grid(3)
    X = rng.normal(size=(5, 9))
    Y = X.copy()
    xa, ya = train.augment(X, Y, group.mats, True)
    xp, yp = train.augment(X, Y, group.mats, False)
    assert xa.shape == xp.shape == (40, 9)
    assert np.array_equal(xa, ya)                        # identity teacher: targets transform alike
