"""Exact perceptron counts: closed forms of spec §4 F1 and §8, and the author's R^2 examples."""
from fractions import Fraction

import numpy as np
import pytest

from lib.gd_perceptron import datasets, exact, lower_bound


@pytest.mark.parametrize("d", list(range(2, 41)) + [63, 64, 101])
def test_half_tie_closed_form(d):
    # spec §4 F1: d + 2 for even d, d + 1 for odd d (checked there in exact arithmetic)
    assert exact.perceptron_count(exact.gram_dataset_a(d), [1, -1], "half") == \
        (d + 2 if d % 2 == 0 else d + 1)


@pytest.mark.parametrize("d", [2, 3, 10, 33])
def test_author_tie_rule_gives_2d(d):
    # spec §8: the author's Batch Perceptron needs 2d on data set A
    assert exact.perceptron_count(exact.gram_dataset_a(d), [1, -1], "author") == 2 * d


def test_gram_closed_form_matches_direct():
    B, _ = datasets.dataset_a(9)
    assert exact.gram(B) == exact.gram_dataset_a(9)


def test_thm41_iterates():
    # arXiv 2412.08424 Thm 4.1 (spec §8): theta_1/gamma = (1/2, 3/4), theta_2/gamma -> (1, 1/4)
    B, y = datasets.loss_unreliable_2d()
    steps = exact.perceptron_steps(exact.gram(B), y)
    coefs = [next(steps)[1] for _ in range(3)]
    iterates = [tuple(sum(a[i] * int(B[i, k]) for i in range(2)) for k in range(2)) for a in coefs]
    assert iterates[1] == (Fraction(1, 2), Fraction(3, 4))
    assert iterates[2] == (Fraction(1), Fraction(1, 4))


@pytest.mark.parametrize("n", [10, 11, 20, 37, 40])
def test_worst_case_set_closed_form(n):
    # derived by hand: after the first (all-tie) step the lone +1 point has margin
    # 1/8 - (n-2)/(2n) + 5k/(4n) after k more steps, so T = 1 + min{k >= 0 : 5k > 1.5n - 4}
    B, y = datasets.worst_case_2d(n)
    k = 0
    while not 5 * k > 1.5 * n - 4:
        k += 1
    assert exact.perceptron_count(exact.gram(B), y) == 1 + k


def test_float_gd_counts_match_exact_at_large_step():
    ds = [7, 8, 33]
    got = lower_bound.float_counts(ds, "gd", 1e4)[:, 0]
    assert got.tolist() == [lower_bound.closed_form_half(d) for d in ds]


def test_float_counts_perturbed_sigma_reaches_the_data():
    # sigma = 0 leaves data set A unperturbed, so every draw needs the 1/2-rule count of
    # spec §4 F1 (d + 2 even, d + 1 odd); an ignored sigma would add the default 1e-3 noise
    ds, seeds = [16, 17], [0, 1, 2]
    got = lower_bound.float_counts(ds, "gp", 1.0, "A_perturbed", seeds, sigma=0.0)
    assert got.tolist() == [[lower_bound.closed_form_half(d)] * len(seeds) for d in ds]


def test_bad_tie_rule_rejected():
    with pytest.raises(ValueError, match="tie = 'full'"):
        next(exact.perceptron_steps(exact.gram_dataset_a(4), [1, -1], "full"))
    with pytest.raises(ValueError, match="d = 1"):
        datasets.dataset_a(1)
    assert np.array_equal(datasets.make_dataset(5)[0], datasets.dataset_a(5)[0])


def test_median_nontrivial_leaves_out_draws_solved_at_once():
    # rows are d: the median over counts > 1 only; a row of only trivial draws has none (NaN)
    counts = np.array([[1, 5, 7, 1], [1, 1, 1, 1], [3, 4, 1, 100]])
    got = lower_bound.median_nontrivial(counts)
    assert got[0] == 6 and np.isnan(got[1]) and got[2] == 4
