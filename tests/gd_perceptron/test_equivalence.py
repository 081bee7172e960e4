"""GD -> GP as the scale grows (spec §2.2), and the small modules built on it."""
import numpy as np
import torch

from lib.gd_perceptron import datasets, equivalence, examples, models, oscillations, trajectories
from tests.conftest import assert_close


def test_linear_gap_falls_to_rounding():
    B, y = datasets.random_separable(20, 50, np.random.default_rng(42))
    gap = equivalence.linear_gap(models.Linear(), B, y, [10.0, 1e3, 1e5], 30).numpy()
    assert gap[0] > 1e-6  # gamma = 10 is far from saturation (spec §4 F3 saw 3e-2)
    assert gap[-1] < 1e-12  # sigmoid saturated: only float64 rounding is left


def test_scaled_gap_falls_for_both_degrees():
    B, y = datasets.random_separable(20, 30, np.random.default_rng(42))
    W0 = torch.randn(4, 30, generator=torch.Generator().manual_seed(42), dtype=torch.float64)
    for act, scales in (("quadratic", [1.0, 1e3]), ("relu", [1.0, 1e6])):
        model = models.make_model("two_layer", 4, act)
        gap = equivalence.scaled_gap(model, B, y, W0, 0.05, scales, 20).numpy()
        assert gap[-1] < 1e-10 < gap[0], (act, gap)


def test_thm41_runs_exact_first_iterate():
    run = examples.thm41_runs([1.0, 1e4])
    assert_close("theta_1/gamma", [[0.5, 0.75]] * 2, run.theta1, rtol=0, atol=1e-15)


def test_worst_case_n_1000_regression():
    # arXiv 2412.08424 Table 1: LR+GD at gamma = 100 needs 308 iterations; n = 1000 is the
    # fit of notebook 01 (n is not printed there), pinned here as a regression value
    assert examples.worst_case_count(1000, 100.0, False, 2000) == (308, False)


def test_perceptron_hinge_first_steps_by_hand():
    # u_0 = 0, u_1 = e_d / 4 (margins 1/4 and the tie 0), u_2 = (e_d - b_2) / 4 with margins
    # (2 - d)/4 and (d - 1)/4: H = 0, 0, (d - 2)/8 = 1.75 at d = 16
    assert oscillations.perceptron_hinge(16, 2).tolist() == [0.0, 0.0, 1.75]


def test_hinge_gap_within_log2_over_gamma_only_in_the_perceptron_regime():
    curves = oscillations.dataset_a_curves(16, [1.0, 1e4], 30)
    gap = oscillations.hinge_gap(curves, oscillations.perceptron_hinge(16, 30)).max(axis=0)
    assert gap[1] <= np.log(2) / 1e4 * (1 + 1e-9)  # gamma = 1e4: v_t / gamma = u_t
    assert gap[0] > np.log(2)                      # gamma = 1: GD is not the perceptron


def test_brake_eigenvalues_closed_form():
    for d in (2, 7, 64):
        closed, numeric = trajectories.brake_eigenvalues(d)
        assert_close(f"brake d={d}", closed, numeric, rtol=1e-9, atol=1e-12)
        assert trajectories.single_point_unit_multiplicity(d, 0.3) == d - 1


def test_real_data_perceptron_run_matches_naive():
    from lib.gd_perceptron import naive, real_data

    rng = np.random.default_rng(42)
    B, y = datasets.random_separable(40, 6, rng)
    Bt, yt = torch.as_tensor(B), torch.as_tensor(y, dtype=torch.float64)
    methods = [real_data.Method("bp", "bp", 1.0), real_data.Method("gd", "gd", 10.0)]
    hist = real_data.run(models.Linear(), Bt, yt, torch.zeros(6, dtype=torch.float64), methods,
                         500, progress=False)
    ref = naive.iterations("linear", np.zeros(6), B, y, 1.0, "bp", 500)
    assert hist.solved_at[0] == ref
    assert np.isnan(hist.grad_norm[:, 0]).all() and np.isfinite(hist.grad_norm[:, 1]).all()
