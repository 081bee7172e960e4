"""F8: the two-layer 'measured' text is built from the runs, never from the cap; the step's
margins and direction, through B whole or in blocks, against an independent computation."""
import numpy as np
import pytest
import torch

from lib.gd_perceptron import dynamics, models, real_data
from lib.gd_perceptron.real_data import History, Method, first_solved


def _history(accuracy: list[list[float]], solved_at: list[int]) -> History:
    """A hand-built History of len(solved_at) methods; loss and grad norm are unused here."""
    acc = np.array(accuracy)
    methods = [Method(f"m{r}", "gd", 1.0) for r in range(acc.shape[1])]
    return History(methods, acc, np.zeros_like(acc), np.zeros_like(acc), np.array(solved_at))


def test_first_solved_names_the_earliest_method():
    runs = [_history([[0.5, 0.5], [1.0, 0.9], [1.0, 1.0]], [1, 2]),
            _history([[0.5], [1.0]], [1])]
    assert first_solved(runs) == "1 (m0)"


def test_first_solved_reports_steps_run_when_never_solved():
    # three rows are steps 0, 1, 2: two steps were run, whatever cap was asked for
    runs = [_history([[0.5, 0.6], [0.7, 0.8], [0.9, 0.95]], [-1, -1])]
    assert first_solved(runs) == "never at accuracy 1.0 in 2 steps (best accuracy 0.9500)"


def _problem(model_kind: str, seed: int = 0):
    """A small float64 problem: 53 points in 9 dims, 3 runs, theta of the model's shape."""
    g = torch.Generator().manual_seed(seed)
    B = torch.rand(53, 9, generator=g, dtype=torch.float64)
    y = torch.where(torch.rand(53, generator=g) < 0.5, 1.0, -1.0).to(torch.float64)
    if model_kind == "linear":
        return models.Linear(), B, y, torch.randn(3, 9, generator=g, dtype=torch.float64)
    model = models.make_model("two_layer", 4, model_kind)
    return model, B, y, torch.randn(3, 4, 9, generator=g, dtype=torch.float64)


def _reference(model_kind: str, theta, B, y, weigh):
    """Margins in numpy from the model's formula, and the direction as autograd's gradient of
    sum_i c_i h(b_i; theta) with c = weigh(z) y held fixed: independent of `direction`."""
    th, b, yy = theta.numpy(), B.numpy(), y.numpy()
    if model_kind == "linear":
        h = th @ b.T
    else:
        pre = np.einsum("rmd,nd->rmn", th, b)
        phi = pre ** 2 if model_kind == "quadratic" else np.maximum(pre, 0)
        s = np.array([1.0 if j % 2 == 0 else -1.0 for j in range(th.shape[1])])
        h = np.einsum("m,rmn->rn", s, phi)
    z = yy * h
    coef = weigh(torch.from_numpy(z)) * y
    leaf = theta.clone().requires_grad_(True)
    if model_kind == "linear":
        out = leaf @ B.T
    else:
        pre_t = torch.einsum("rmd,nd->rmn", leaf, B)
        phi_t = pre_t ** 2 if model_kind == "quadratic" else torch.relu(pre_t)
        s_t = torch.tensor([1.0 if j % 2 == 0 else -1.0 for j in range(theta.shape[1])],
                           dtype=torch.float64)
        out = torch.einsum("m,rmn->rn", s_t, phi_t)
    direction, = torch.autograd.grad((coef * out).sum(), leaf)
    return z, direction.numpy()


@pytest.mark.parametrize("model_kind", ["linear", "relu", "quadratic"])
@pytest.mark.parametrize("rule", ["gd", "bp"])
def test_blocked_margins_and_direction_agree(model_kind, rule):
    """Through B in blocks of 7 rows (53 is no multiple: a short last block) or all at once, the
    margins and the direction equal an independent float64 computation to rounding."""
    model, B, y, theta = _problem(model_kind)
    weigh = (lambda z: torch.sigmoid(-z)) if rule == "gd" else (
        lambda z: dynamics.weights(z, "bp"))
    z_ref, d_ref = _reference(model_kind, theta, B, y, weigh)
    for rows in (None, 7, 53, 100):
        z, direction = real_data.margins_and_direction(model, theta, B, y, weigh, rows)
        assert z.shape == (3, 53) and direction.shape == theta.shape
        assert np.abs(z.numpy() - z_ref).max() < 1e-12 * (1 + np.abs(z_ref).max())
        assert np.abs(direction.numpy() - d_ref).max() < 1e-12 * (1 + np.abs(d_ref).max())


def test_blocked_run_follows_the_unblocked_one():
    """`run` with the linear model's blocked step and without it: the same accuracies and
    solved steps, losses and gradient norms equal to rounding, over 40 steps of 3 methods."""
    model, B, y, _ = _problem("linear", seed=1)
    methods = [Method("gd", "gd", 10.0), Method("bp", "bp", 1.0),
               Method("ngd", "gd", 1.0, normalized=True)]
    theta0 = torch.zeros(9, dtype=torch.float64)
    whole = real_data.run(model, B, y, theta0, methods, 40, progress=False)
    blocked = real_data.run(model, B, y, theta0, methods, 40, progress=False, rows=8)
    assert np.array_equal(whole.accuracy, blocked.accuracy)
    assert np.array_equal(whole.solved_at, blocked.solved_at)
    assert np.allclose(whole.loss, blocked.loss, rtol=1e-10, atol=0)
    assert np.allclose(whole.grad_norm, blocked.grad_norm, rtol=1e-10, atol=0, equal_nan=True)
