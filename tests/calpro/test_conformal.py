"""lib/calpro/conformal.py: the quantile, the finite-sample guarantee, the surrogate, TV, SEs."""
import math
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.calpro import conformal, naive


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=30),
       st.sampled_from([0.05, 0.1, 0.2, 0.5]))
def test_quantile_equals_the_counting_reference(s, a):
    assert conformal.conformal_quantile(np.array(s), a) == naive.conformal_quantile_counting(s, a)


@pytest.mark.parametrize("n, a", [(1, 0.1), (9, 0.1), (19, 0.05), (33, 0.2), (100, 0.1)])
def test_leave_one_out_is_k_over_n_plus_1(n, a):
    s = np.random.default_rng(n).standard_normal(n + 1)
    got = conformal.leave_one_out_coverage(s, a)
    k = math.ceil((n + 1) * (1 - Fraction(str(a))))
    assert got == (Fraction(k, n + 1) if k <= n else Fraction(1))
    assert got == naive.leave_one_out_loop(s, a)


def test_mean_coverage_over_exchangeable_repetitions():
    """spec §5: 2000 repetitions, n = 19, a = 0.1: mean in [0.9, 0.9 + 1/20] within MC error."""
    r = np.random.default_rng(0)
    n, a, reps = 19, 0.1, 2000
    s = np.abs(r.standard_normal((reps, n + 1)))
    q = np.array([conformal.conformal_quantile(row[:n], a) for row in s])
    hit = s[:, n] <= q
    se = math.sqrt(0.1 * 0.9 / reps)
    assert 1 - a - 3 * se <= hit.mean() <= 1 - a + 1 / (n + 1) + 3 * se


def test_band_families():
    y = np.array([0.0, 1.0, 3.0])
    b = conformal.Band(np.array([0.5, 0.5, 0.5]), np.array([1.5, 1.5, 1.5]), np.ones(3) * 2)
    assert conformal.scores(b, y).tolist() == [0.25, -0.25, 0.75]
    assert conformal.width(b, 0.5).tolist() == [3.0, 3.0, 3.0]
    assert conformal.covered(b, y, 0.5).tolist() == [True, True, False]


def test_surrogate_tends_to_hard_coverage():
    s = torch.as_tensor(np.abs(np.random.default_rng(1).standard_normal(2001)))
    hard = []
    gen = torch.Generator().manual_seed(0)
    perm = torch.randperm(len(s), generator=gen)
    q = torch.quantile(s[perm[:1000]], 0.9)
    hard = float((s[perm[1000:]] <= q).double().mean())
    soft = [float(conformal.soft_coverage(s, 0.1, t, torch.Generator().manual_seed(0)))
            for t in (0.1, 1e-3, 1e-6)]
    assert abs(soft[-1] - hard) < 1e-3 and abs(soft[-1] - hard) < abs(soft[0] - hard)


def test_histogram_tv():
    r = np.random.default_rng(2)
    a, b = r.standard_normal(5000), r.standard_normal(5000) + 3
    assert conformal.histogram_tv(a, a, 10) == 0.0
    assert conformal.histogram_tv(a, b, 20) > 0.85                # true TV 0.866
    tv = conformal.histogram_tv(a, b + 0.0, 4)
    assert 0 <= tv <= 1


def test_event_slack_bounds_the_same_sample_gap_exactly():
    r = np.random.default_rng(3)
    a, b = r.standard_normal(700), 0.8 * r.standard_normal(900) + 0.3
    for q in np.quantile(np.concatenate([a, b]), np.linspace(0.01, 0.99, 41)):
        gap = abs((a <= q).mean() - (b <= q).mean())
        assert gap <= conformal.histogram_tv(a, b, 20) + conformal.event_slack(a, b, q, 20) + 1e-15
    # one bin: the histogram TV is 0 and the gap lies inside it, so the slack carries it all
    q = float(np.median(a))
    assert conformal.histogram_tv(a, b, 1) == 0.0
    gap = abs((a <= q).mean() - (b <= q).mean())
    assert 0 < gap <= conformal.event_slack(a, b, q, 1) == 1.0


def test_chain_se_with_one_residue_per_chain():
    hit = np.array([1, 0, 1, 1, 0, 1, 1, 1], bool)
    p = hit.mean()
    got = conformal.chain_se(hit, np.arange(8))
    assert got == pytest.approx(math.sqrt(p * (1 - p) / 7), rel=1e-12)   # c/(c-1) correction
    assert conformal.binomial_se(p, 8) == pytest.approx(math.sqrt(p * (1 - p) / 8), rel=1e-12)


def test_calibration_var_is_the_beta_law_of_coverage():
    # uniform scores: the coverage given the calibration set is the k-th smallest of m uniforms,
    # Beta(k, m + 1 - k); m = 19, a = 0.1 gives k = 18 and variance 18 * 2 / (400 * 21)
    m, a = 19, 0.1
    assert conformal.calibration_var(m, a) == 18 * 2 / (400 * 21)
    rng = np.random.default_rng(7)
    q = np.sort(rng.random((40000, m)), axis=1)[:, conformal.quantile_rank(m, a) - 1]
    # 40,000 draws: the sample variance's relative SE is about sqrt(2/40000) ≈ 0.7 %; 5 % is loose
    assert abs(q.var() / conformal.calibration_var(m, a) - 1) < 0.05
    assert conformal.calibration_var(5, 0.1) == 0.0          # k = 6 > m: an infinite band
