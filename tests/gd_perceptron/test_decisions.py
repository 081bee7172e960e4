"""Claim decisions: each rule on hand-built inputs, one that holds and one that does not.

Every expected outcome follows from the rule's own statement (its docstring), not from a run.
"""
import math

from lib.gd_perceptron import decisions


def test_loss_blows_up_true_when_t1_rises_and_t2_vanishes():
    assert decisions.loss_blows_up([0.4, 4.0, 40.0], [0.3, 1e-5, 0.0])


def test_loss_blows_up_false_when_t2_stays_positive():
    # f(theta_2) falls but ends above the 1e-12 tolerance
    assert not decisions.loss_blows_up([0.4, 4.0, 40.0], [0.3, 0.2, 0.1])


def test_loss_blows_up_false_when_t1_flat():
    assert not decisions.loss_blows_up([1.0, 1.0], [0.3, 0.0])


def test_reproduces_row_true_when_one_n_gives_the_row():
    assert decisions.reproduces_row({998: [2, 2, 16, 157], 999: [2, 3, 16, 157]}, [2, 2, 16, 157])


def test_reproduces_row_false_without_candidates():
    assert not decisions.reproduces_row({}, [2, 2, 16, 157])


def test_gap_non_increasing_true_within_slack():
    # the last step rises by 1e-17, below the 1e-16 slack
    assert decisions.gap_non_increasing([3e-2, 4e-9, 5e-17, 6e-17])


def test_gap_non_increasing_false_when_gap_grows():
    assert not decisions.gap_non_increasing([3e-2, 4e-9, 1e-8])


def test_gap_non_increasing_false_for_one_point():
    assert not decisions.gap_non_increasing([3e-2])


def test_soft_ties_need_d_true_when_counts_equal_d():
    assert decisions.soft_ties_need_d([8, 32, 128], [8, 32, 128])


def test_soft_ties_need_d_false_when_one_count_differs():
    assert not decisions.soft_ties_need_d([8, 34, 128], [8, 32, 128])


def test_perturbed_theta_d_true_inside_bounds():
    assert decisions.perturbed_theta_d(0.99)


def test_perturbed_theta_d_false_outside_bounds_or_nan():
    assert not decisions.perturbed_theta_d(0.5)
    assert not decisions.perturbed_theta_d(math.nan)


def test_trivial_draws_shown_true_near_half():
    # pooled share (0.5 + 0.4 + 0.6) / 3 = 0.5, the derived Phi(sigma sqrt d) ~ 1/2
    assert decisions.trivial_draws_shown([0.5, 0.4, 0.6])


def test_trivial_draws_shown_false_when_rare_or_empty():
    # pooled (0.1 + 0.3) / 2 = 0.2 < 0.25
    assert not decisions.trivial_draws_shown([0.1, 0.3])
    assert not decisions.trivial_draws_shown([])


def test_heavy_tail_true_for_spec_quantiles():
    # spec §4 F2, d = 16 ... 4096: q90 37 -> 8096 is slope log(8096/37)/log(256) = 0.97,
    # median 6 -> 135 is slope 0.56
    import math
    q90 = math.log(8096 / 37) / math.log(256)
    med = math.log(135 / 6) / math.log(256)
    assert decisions.heavy_tail(q90, med)


def test_heavy_tail_false_when_tail_moves_with_the_bulk():
    # q90 slope 0.55, like the median: a light tail, nothing heavy observed
    assert not decisions.heavy_tail(0.55, 0.5)


def test_heavy_tail_false_when_the_bulk_is_linear_too():
    # q90 slope 1.0 but only 0.05 above the bulk's: a slow bulk, not a widening tail
    assert not decisions.heavy_tail(1.0, 0.95)


def test_heavy_tail_false_when_q90_grows_slower_than_d():
    # spread 0.3 is enough, but a q90 slope of 0.7 does not "grow like d"
    assert not decisions.heavy_tail(0.7, 0.4)


def test_tail_readable_true_below_ten_percent_capped():
    assert decisions.tail_readable([0.0, 0.0, 0.09])


def test_tail_readable_false_when_capped_or_empty():
    assert not decisions.tail_readable([0.0, 0.1])
    assert not decisions.tail_readable([])


def test_spec_table_agrees_true_within_factor_at_large_d():
    # the d = 16 ratio (3.0) is below min_d = 256 and does not count
    assert decisions.spec_table_agrees([16, 256, 1024], [30, 26, 84], [10, 26, 70])


def test_spec_table_agrees_false_when_one_large_d_ratio_exceeds_factor():
    assert not decisions.spec_table_agrees([256, 1024], [26, 160], [26, 70])


def test_spec_table_agrees_false_without_large_d():
    assert not decisions.spec_table_agrees([16, 64], [10, 13], [10, 13])


def test_small_steps_fast_true_when_all_two():
    assert decisions.small_steps_fast([2, 2, 2])


def test_small_steps_fast_false_when_one_step_suffices():
    assert not decisions.small_steps_fast([1, 2])


def test_random_plateau_true_when_every_seed_equals():
    assert decisions.random_plateau([5.0, 6.0, 7.0], [5, 6, 7])


def test_random_plateau_false_when_one_seed_differs():
    # 4 of 5 seeds on the GP count is not "equals"
    assert not decisions.random_plateau([5, 6, 7, 8, 1], [5, 6, 7, 8, 9])


def test_random_plateau_false_for_capped_or_no_seeds():
    # NaN marks a capped run, which is never on the plateau
    assert not decisions.random_plateau([5, math.nan], [5, 8])
    assert not decisions.random_plateau([], [])


def test_all_options_used_true_when_every_share_positive():
    assert decisions.all_options_used([0.5, 0.3, 0.2])


def test_all_options_used_false_when_brake_missing():
    assert not decisions.all_options_used([0.6, 0.4, 0.0])


def test_c_one_fast_true_at_limit():
    assert decisions.c_one_fast([3.0, 4.0])


def test_c_one_fast_false_above_limit():
    assert not decisions.c_one_fast([3.0, 5.0])


def test_large_c_fails_true_when_most_runs_capped():
    assert decisions.large_c_fails([0.5, 0.9, 1.0])


def test_large_c_fails_false_when_one_config_mostly_converges():
    assert not decisions.large_c_fails([0.9, 0.4])


def test_larger_gamma_faster_true_for_non_increasing_solved_counts():
    # gamma 0.1 never solved (-1) and is left out; 10 -> 3095, 100 -> 1847
    assert decisions.larger_gamma_faster([0.1, 100.0, 10.0], [-1, 1847, 3095])


def test_larger_gamma_faster_false_when_larger_gamma_slower():
    assert not decisions.larger_gamma_faster([10.0, 100.0], [1800, 3000])


def test_larger_gamma_faster_false_with_one_solved_run():
    assert not decisions.larger_gamma_faster([10.0, 100.0], [-1, 1847])


def test_tracks_perceptron_true_within_ten_percent():
    assert decisions.tracks_perceptron(1847, 1819)


def test_tracks_perceptron_false_when_unsolved_or_far():
    assert not decisions.tracks_perceptron(-1, 1819)
    assert not decisions.tracks_perceptron(2100, 1819)


def test_loss_oscillates_true_with_many_increases_at_top_none_at_bottom():
    assert decisions.loss_oscillates([0.001, 1.0, 100.0], [0, 2, 501])


def test_loss_oscillates_false_when_smallest_gamma_goes_up():
    assert not decisions.loss_oscillates([100.0, 0.001], [501, 1])


def test_two_layer_fewer_true_when_best_two_layer_below_linear():
    assert decisions.two_layer_fewer([math.nan, 900.0], [1423.0, 1800.0])


def test_two_layer_fewer_false_when_two_layer_never_solves():
    assert not decisions.two_layer_fewer([math.nan, math.nan], [1423.0])


def test_table1_magnitude_true_within_factor_two():
    assert decisions.table1_magnitude([3095.0, 1471.0], [2778.0, 2928.0])


def test_table1_magnitude_false_when_one_count_missing():
    assert not decisions.table1_magnitude([3095.0, math.nan], [2778.0, 2928.0])


def test_f8_setting_gaps_empty_at_spec_setting():
    grid = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]
    assert decisions.f8_setting_gaps(256, {"relu": grid, "quadratic": grid}, grid, 3500, 3500) == []


def test_f8_setting_gaps_names_width_grid_and_cap():
    # the old default: width 16, ReLU up to 10, quadratic up to 0.1, cap 1500 against 3500
    grid = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]
    gaps = decisions.f8_setting_gaps(16, {"relu": [0.01, 0.1, 1.0, 10.0],
                                          "quadratic": [0.001, 0.01, 0.1]}, grid, 1500, 3500)
    assert gaps == ["width 16 < 256", "relu lacks gamma 0.001, 100",
                    "quadratic lacks gamma 1, 10, 100", "two-layer cap 1500 < linear cap 3500"]
