"""The claim rules of lib.equivariance.decisions on hand-built inputs: each one holds on one input
and fails on another, the expected outcome read off the rule itself (never off a run)."""
import numpy as np

from lib.companion import rules
from lib.equivariance import decisions as D
from tests.conftest import assert_close


def test_seeds_needed_is_three_of_five_rounded_up():
    # ceil(3 n / 5): 3 of 5 (spec §4 E4), 2 of 3, 1 of 1, 4 of 6
    assert [rules.seeds_needed(n, D.SEED_SHARE) for n in (1, 3, 5, 6)] == [1, 2, 3, 4]


def test_enough_seeds_counts_against_the_share():
    assert D.enough_seeds([True, True, False])            # 2 of 3 >= 2
    assert not D.enough_seeds([True, False, False])       # 1 of 3 < 2
    assert not D.enough_seeds([])                         # no seed, no claim


def test_enough_below_is_strict():
    assert D.enough_below([1e-4, 2e-4, 5e-3], 1e-3)       # 2 of 3 below
    assert not D.enough_below([1e-3, 1e-3, 1e-4], 1e-3)   # equal is not below: 1 of 3


def test_enough_above_is_strict():
    assert D.enough_above([0.6, 0.5, 0.1], 0.3)
    assert not D.enough_above([0.3, 0.1, 0.6], 0.3)


def test_projected_action_planted_needs_homomorphism_and_characters():
    planted = ((16, 0, 0), (8, 0, 0))
    assert D.projected_action_planted((0, 0), ((16, 0, 0), (8, 0, 0)), planted)
    assert not D.projected_action_planted((0, 1), ((16, 0, 0), (8, 0, 0)), planted)
    assert not D.projected_action_planted((0, 0), ((16, 0, 0), (8, 2, 0)), planted)


def test_spearman_of_monotone_and_reversed_data():
    x = [1.0, 2.0, 3.0, 4.0]
    assert_close("rho", 1.0, D.spearman(x, [0.1, 5.0, 7.0, 100.0]), rtol=0, atol=1e-15)
    assert_close("rho", -1.0, D.spearman(x, [4.0, 3.0, 2.0, 1.0]), rtol=0, atol=1e-15)


def test_rises_with_threshold_and_constant_input():
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert D.rises_with(x, [1.0, 3.0, 2.0, 4.0, 5.0])     # one swap: rho = 0.9 > 0.5
    assert not D.rises_with(x, [5.0, 4.0, 3.0, 2.0, 1.0])
    assert not D.rises_with(x, [1.0] * 5)                 # undefined (NaN) does not hold


def test_median_greater_is_strict():
    assert D.median_greater([0.5, 0.6, 0.7], [0.1, 0.2, 0.9])
    assert not D.median_greater([0.2, 0.2], [0.1, 0.3])


def test_penalty_lowers_needs_every_error_lower():
    assert D.penalty_lowers([[0.1, 0.2], [0.01]], [[0.3, 0.4], [0.02]])
    assert not D.penalty_lowers([[0.1, 0.2], [0.03]], [[0.3, 0.4], [0.02]])


def test_structure_tracks_fit_both_directions():
    # fitted and equivariant, unfitted and not equivariant: consistent
    assert D.structure_tracks_fit([1e-5, 0.1], [0.002, 0.2])
    assert not D.structure_tracks_fit([1e-5], [0.2])        # fits, yet layer 1 not equivariant
    assert not D.structure_tracks_fit([0.1], [0.002])       # equivariant without fitting
    assert not D.structure_tracks_fit([], [])


def test_is_smallest_allows_ties():
    assert D.is_smallest({"tanh": 0.1, "relu": 0.4, "gelu": 0.1}, "tanh")
    assert not D.is_smallest({"tanh": 0.2, "relu": 0.4, "gelu": 0.1}, "tanh")


def test_any_positive_counts():
    assert D.any_positive([0, 0, 2])
    assert not D.any_positive([0, 0, 0])


def test_below_control_is_strict_for_every_layer():
    assert D.below_control([0.5, 0.3], 0.6)
    assert not D.below_control([0.5, 0.6], 0.6)


def test_paper_ordering_is_strict():
    assert D.paper_ordering(0.029, 0.40)                  # the paper's autoencoder f1 (spec §3.1)
    assert not D.paper_ordering(0.726, 0.724)


def test_all_filter_types_needs_each_type():
    assert D.all_filter_types({"self": 1, "pair": 2, "negated": 3})
    assert not D.all_filter_types({"self": 26, "pair": 38, "negated": 0})


def test_all_discrete_needs_every_draw_zero():
    assert D.all_discrete([0, 0, 0])
    assert not D.all_discrete([0, 1, 0])


def test_minimal_fibre_share_per_scale():
    fibres = np.array([[7, 8, 7, 9], [7, 7, 7, 7]])       # (scales, draws), #hidden = 7
    assert D.minimal_fibre_share(fibres, 7).tolist() == [0.5, 1.0]


def test_share_sizeable_reads_the_largest_scale():
    assert D.share_sizeable([0.0, 0.25])
    assert not D.share_sizeable([0.5, 0.2])


def test_share_non_decreasing_allows_one_draw():
    assert D.share_non_decreasing([0.3, 0.25, 0.5], n_draws=20)     # a drop of one draw (0.05)
    assert not D.share_non_decreasing([0.3, 0.2, 0.5], n_draws=20)  # a drop of two draws


def test_sussmann_flags_each_degeneracy():
    row = {"min_in": 0.5, "min_out": 0.5, "min_pair": 0.5}
    cases = [row, {**row, "min_pair": 0.0}, {**row, "min_pair": 0.0}, {**row, "min_out": 0.0},
             {"min_in": 0.0, "min_out": 0.0, "min_pair": 0.5}]
    assert D.sussmann_flags(*cases)
    assert not D.sussmann_flags({**row, "min_out": 0.01}, *cases[1:])   # generic net flagged
    assert not D.sussmann_flags(*cases[:3], row, cases[4])              # dead unit missed


def test_loglog_slope_of_power_laws():
    x = [1e-6, 1e-4, 1e-2]
    assert_close("slope", 1.0, D.loglog_slope(x, [3e-6, 3e-4, 3e-2]), rtol=0, atol=1e-12)
    assert_close("slope", 2.0, D.loglog_slope(x, [1e-12, 1e-8, 1e-4]), rtol=0, atol=1e-12)


def test_slopes_linear_within_tolerance():
    assert D.slopes_linear([0.9, 1.0, 1.14])
    assert not D.slopes_linear([1.0, 1.2])


def test_action_unchanged_every_level():
    assert D.action_unchanged([True, True])
    assert not D.action_unchanged([True, False])


def test_separation_masks_around_eps():
    far, near = D.separation_masks([1e-6, 1e-5, 1e-4, 1e-3, 1e-2], 1e-4)
    assert far.tolist() == [False, False, False, True, True]
    assert near.tolist() == [True, True, False, False, False]


def test_separated_homomorphism_ignores_degenerate_deltas():
    deltas = [1e-6, 1e-2]
    assert D.separated_homomorphism(deltas, [12, 0], 1e-4)
    assert not D.separated_homomorphism(deltas, [12, 1], 1e-4)
    assert not D.separated_homomorphism([1e-6], [0], 1e-4)             # no separated delta


def test_degenerate_breaks_needs_failures_below_the_noise():
    deltas = [1e-6, 1e-2]
    assert D.degenerate_breaks(deltas, [12, 0], 1e-4)
    assert not D.degenerate_breaks(deltas, [0, 0], 1e-4)
    assert not D.degenerate_breaks([1e-2], [5], 1e-4)                  # no degenerate delta


def test_layerwise_blows_up_both_sides():
    deltas = [1e-6, 1e-2]
    assert D.layerwise_blows_up(deltas, [0.5, 1e-3], 1e-4)             # O(1) near, < 100 eps far
    assert not D.layerwise_blows_up(deltas, [0.5, 2e-2], 1e-4)         # far error above 100 eps
    assert not D.layerwise_blows_up(deltas, [0.05, 1e-3], 1e-4)        # near error not O(1)


def test_decays_two_decades():
    assert D.decays([1e-2, 1e-3, 5e-5])
    assert not D.decays([1e-2, 1e-3, 2e-4])
    assert not D.decays([1e-2])


# ---- issue 12 rules (expected values computed by hand from the stated inputs)

def test_separation_threshold_geometric_mean():
    # sqrt(1e-10 * 1e-6) = 1e-8
    assert abs(D.separation_threshold(1e-10, 1e-6) - 1e-8) < 1e-20


def test_verdicts_agree_counts_matching_sides():
    # pairs: both small (agree), both large (agree), canon small / function large (disagree)
    assert D.verdicts_agree([1e-12, 1.0, 1e-12], [1e-12, 0.5, 0.3], 1e-8) == 2
    assert D.verdicts_agree([], [], 1e-8) == 0


def test_any_below():
    assert D.any_below([0.5, 1e-4], 1e-3)
    assert not D.any_below([0.5, 1e-3], 1e-3)      # strict
    assert not D.any_below([], 1e-3)


def test_fitted_are_equivariant_only_fitting_models_count():
    # model 2 does not fit, so its large LV does not matter
    assert D.fitted_are_equivariant([1e-5, 0.1], [0.01, 0.5], 1e-3, 0.03)
    # a fitting model with LV above 0.03 breaks it
    assert not D.fitted_are_equivariant([1e-5, 1e-4], [0.01, 0.05], 1e-3, 0.03)
    # vacuous when nothing fits (hence the requires= precondition)
    assert D.fitted_are_equivariant([0.1], [0.9], 1e-3, 0.03)


def test_select_weight_lowest_median_first_on_ties():
    # medians 2, 1, 1 -> the second weight (first of the tie)
    assert D.select_weight([0.01, 0.1, 1.0], [[1, 2, 3], [0, 1, 5], [1, 1, 1]]) == 0.1


def test_rarely_active_strict_share():
    assert D.rarely_active([0.2, 0.005])
    assert not D.rarely_active([0.2, 0.01])          # 1% exactly is not below
    assert not D.rarely_active([])


def test_beats_baselines_both_tasks():
    assert D.beats_baselines([0.85, 0.9], [0.2], 0.8, 0.25)
    assert not D.beats_baselines([0.85, 0.79], [0.2], 0.8, 0.25)
    assert not D.beats_baselines([0.85], [0.25], 0.8, 0.25)   # strict
    assert not D.beats_baselines([], [0.2], 0.8, 0.25)


def test_penalty_ramp_schedule():
    from lib.equivariance.train import penalty_ramp
    # 100 steps: off before 50, 0 at 50, half at 62.5, full from 75
    assert penalty_ramp(49, 100) == 0.0 and penalty_ramp(50, 100) == 0.0
    assert abs(penalty_ramp(62, 100) - 12 / 25) < 1e-12
    assert penalty_ramp(75, 100) == 1.0 and penalty_ramp(99, 100) == 1.0


def test_linear_submodel_and_solution_dimension():
    from lib.equivariance import groups
    from lib.equivariance import linear as lin
    rng = np.random.default_rng(3)
    G = groups.cyclic_shift(7)
    M = lin.low_rank_circulant(7, [0, 1], rng)                 # rank 3
    W2, W1 = lin.mix(*lin.inflate(*lin.rank_factorization(M, rng), 2, rng), rng)
    W2s, W1s = lin.reduce_factorization(W2, W1)
    assert W1s.shape[0] == 3                                   # rank of M
    assert_close("submodel function", M, W2s @ W1s, rtol=1e-10, atol=1e-10)  # float64
    assert lin.intertwining_residual(W1, G.mats) > 1e-3        # hidden dead rows: no action
    assert lin.intertwining_residual(W1s, G.mats) < 1e-10      # submodel: exact action
    # k W_1 = T for r' x n W_1 of rank n < r': kernel dimension r'(r' - n) = 10 * 3
    assert lin.solution_dimension(rng.normal(size=(10, 7))) == 30


def test_control_orthogonal_is_orthogonal():
    from lib.equivariance import groups
    Q = groups.control_orthogonal(9, np.random.default_rng(0))
    assert_close("Q^T Q", np.eye(9), Q.T @ Q, rtol=0, atol=1e-12)   # float64 QR


def _history(curves):
    import pandas as pd
    return pd.DataFrame([{"condition": c, "seed": s, "step": 10 * i, "rel_mse": v}
                         for c, seeds in curves.items() for s, curve in enumerate(seeds)
                         for i, v in enumerate(curve)])


def test_converged_arms_needs_a_flat_tail_in_every_arm():
    flat = [1.0, 0.5, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1]                   # tail of 4: no fall
    falling = [1.0, 0.5, 0.2, 0.1, 0.08, 0.06, 0.04, 0.02]            # tail halves 0.07 -> 0.03
    h = _history({"a": [flat, flat], "b": [falling, falling]})
    assert D.converged_arms(h, ["a"])
    assert not D.converged_arms(h, ["b"])
    assert not D.converged_arms(h, ["a", "b"])                        # one untrained arm is enough
    assert not D.converged_arms(_history({"a": [[1.0, 1.0, 1.0]]}), ["a"])   # 3 points cannot tell
    # the median over seeds decides: one falling seed of three does not
    assert D.converged_arms(_history({"a": [flat, flat, falling]}), ["a"])


def test_medians_lower_and_smallest_median_read_columns_of_seed_rows():
    d = np.array([[0.1, 0.5, 0.2, 0.4], [0.2, 0.3, 0.3, 0.6], [0.9, 0.4, 0.1, 0.5]])
    assert not D.medians_lower(d, [(0, 2)])                           # 0.2 vs 0.2: not strictly
    assert D.medians_lower(d, [(1, 3)])                               # 0.4 < 0.5
    assert not D.medians_lower(d, [(1, 3), (0, 2)])
    rows = np.array([[0.1, 0.3, 0.2], [0.5, 0.2, 0.4], [0.2, 0.6, 0.3]])  # medians 0.2, 0.3, 0.3
    assert D.smallest_median(rows, ["tanh", "relu", "gelu"], "tanh")
    assert not D.smallest_median(rows, ["tanh", "relu", "gelu"], "relu")
