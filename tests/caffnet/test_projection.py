"""lib/caffnet/projection.py against its plain reference, the theorem's guarantee as a property,
and the closed forms of spec §1.3 (E1-E8). Tolerances say why they are what they are."""
import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lib.caffnet import certificates, checks, naive, problems, projection

T = lambda a: torch.as_tensor(a, dtype=torch.float64)   # noqa: E731


def assert_close(name, ref, got, atol):
    diff = float(np.max(np.abs(np.asarray(ref) - np.asarray(got))))
    assert diff <= atol, f"{name}: max |diff| {diff:.3g} > {atol:g}"


def rel_violation(y, A, b):
    return float(np.max(np.maximum((np.einsum("bmn,bn->bm", A, y) - b) / (1 + np.abs(b)), 0)))


@pytest.mark.parametrize("family", list(problems.FAMILIES))
def test_project_matches_naive(family):
    A, b, f, w = problems.family_instances(family, 8, np.random.default_rng(3))
    got = projection.caffine_project(T(f), T(w), T(A), T(b)).y.numpy()
    # different factorizations (batched pinv vs lstsq + null_space): agreement to rounding
    assert_close(f"{family} fast vs naive", naive.caffine_project(f, w, A, b), got, 1e-10)


@settings(max_examples=60, deadline=None)
@given(family=st.sampled_from(list(problems.FAMILIES)), seed=st.integers(0, 2**31),
       w_scale=st.sampled_from([0.0, 1.0, 1e3]))
@example(family="rank_deficient", seed=313, w_scale=1e3)   # refused under an absolute 1e-10
def test_feasible_for_any_w(family, seed, w_scale):
    # the guarantee (E1) as a property: any family, any seed, w up to 1e3
    A, b, f, w = problems.family_instances(family, 4, np.random.default_rng(seed))
    y = projection.caffine_project(T(f), T(w * w_scale), T(A), T(b)).y.numpy()
    assert rel_violation(y, A, b) <= 1e-9   # 0 in exact arithmetic; pinv rounding


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 7), n=st.integers(1, 4), r=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_feasible_random_rank_deficient(m, n, r, seed):
    # rank r' = min(r, m, n) matrices A = U V with m rows on n outputs
    rng = np.random.default_rng(seed)
    r = min(r, m, n)
    A = rng.standard_normal((3, m, r)) @ rng.standard_normal((3, r, n))
    b = np.einsum("bmn,bn->bm", A, rng.standard_normal((3, n))) + \
        rng.exponential(1, (3, m)) * (rng.random((3, m)) > 0.4)
    f, w = 3 * rng.standard_normal((3, n)), 3 * rng.standard_normal((3, n))
    y = projection.caffine_project(T(f), T(w), T(A), T(b)).y.numpy()
    assert rel_violation(y, A, b) <= 1e-9


def test_rank_zero_returns_f():
    # A = 0, b >= 0: every point is feasible, so the output is f (E1, rank 0)
    f = T([[1.5, -2.0]])
    out = projection.caffine_project(f, T([[4.0, 4.0]]), torch.zeros(1, 3, 2, dtype=torch.float64),
                                     T([[0.0, 1.0, 2.0]]))
    assert torch.equal(out.y, f)


def test_feasible_input_identity():
    rng = np.random.default_rng(0)
    A, b, f, w = problems.family_instances("rank_one", 200, rng)
    y = projection.caffine_project(T(f), T(w), T(A), T(b)).y.numpy()
    feas = np.all(np.einsum("bmn,bn->bm", A, f) - b < projection.TOL, axis=1)
    assert feas.sum() > 0 and np.array_equal(y[feas], f[feas])   # bitwise (E2)


def test_w0_is_projection():
    A, b, f, _ = problems.family_instances("over_complete", 15, np.random.default_rng(5))
    P = projection.caffine_project(T(f), torch.zeros(15, 3, dtype=torch.float64), T(A),
                                   T(b)).y.numpy()
    for i in range(15):
        assert certificates.kkt_residual(f[i], P[i], A[i], b[i]) <= 1e-10   # E3 KKT
        q = certificates.slsqp_projection(f[i], A[i], b[i])
        assert abs(np.linalg.norm(f[i] - P[i]) - np.linalg.norm(f[i] - q)) <= 1e-8  # SLSQP ~1e-10


def test_one_dimensional_is_clamp():
    assert checks.clamp_gap(np.random.default_rng(1), 50) <= 1e-12      # E4; one division


def test_candidate_count():
    # spec §1.2 [DERIVED]: 5, 1024, 92; for m < n the sum runs to m: 2^m
    sizes = ((4, 1), (11, 5), (13, 2))
    assert [projection.candidate_count(m, n) for m, n in sizes] == [5, 1024, 92]
    assert projection.candidate_count(3, 5) == 2 ** 3
    assert len(projection.row_subsets(11, 5, (5, 6, 7), tuple(range(5)))) + 1 == 17   # E6


def test_equality_aware_enumeration():
    inst = problems.make_instance(1)
    A = T(np.vstack([inst.G, inst.C, -inst.C]))
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (30, 3))
    b = T(np.c_[np.broadcast_to(inst.h, (30, 5)), x, -x])
    f, w = T(rng.standard_normal((30, 5))), T(rng.standard_normal((30, 5)))
    ops = projection.subset_operators(A, projection.row_subsets(11, 5, (5, 6, 7), tuple(range(5))))
    aware = projection.caffine_project_fixed(f, w, ops, b).y
    general = projection.caffine_project(f, w, A.expand(30, 11, 5), b).y
    assert_close("17 vs 1024 candidates (E6)", general, aware, 1e-12)


def test_fixed_matches_input_dependent():
    A, b, f, w = problems.family_instances("control_like", 1, np.random.default_rng(4))
    A0 = T(A[0])
    bb = T(np.repeat(b, 6, 0) + np.random.default_rng(5).exponential(1, (6, 13)))
    ff, ww = T(3 * np.random.default_rng(6).standard_normal((6, 2))), T(np.ones((6, 2)))
    fixed = projection.caffine_project_fixed(ff, ww, projection.subset_operators(A0), bb).y
    dep = projection.caffine_project(ff, ww, A0.expand(6, 13, 2), bb).y
    assert_close("fixed vs input-dependent", dep, fixed, 1e-12)


def test_hardnet_full_row_rank_exact():
    assert checks.full_row_rank_hardnet(np.random.default_rng(7), 40) <= 1e-10  # E7: rounding


def test_hardnet_matches_naive():
    rng = np.random.default_rng(8)
    A, b, f, _ = problems.family_instances("over_complete", 20, rng)
    lo = np.full(b.shape, -np.inf)
    got = projection.hardnet_project(T(f), T(A), T(lo), T(b)).numpy()
    assert_close("hardnet fast vs naive", naive.hardnet_project(f, A, lo, b), got, 1e-10)


def test_hardnet_overcomplete_violates():
    A, b, f, _ = problems.family_instances("over_complete", 100, np.random.default_rng(9))
    y = projection.hardnet_project(T(f), T(A), torch.full(b.shape, -torch.inf,
                                                          dtype=torch.float64), T(b)).numpy()
    viol = np.maximum(np.einsum("bmn,bn->bm", A, y) - b, 0).max(1)
    assert (viol > 1e-6).mean() > 0.5    # E7: m = 8 > n = 3 rows, no guarantee


def test_hardnet_pwc_closed_form():
    # E8: on (-1, 0] intervals [-2, -2] and [-3, 2]; for f in [-3, 2] output (f - 2) / 2
    f = np.linspace(-3, 2, 41)[:, None]
    lo, hi = np.tile([-2.0, -3.0], (41, 1)), np.tile([-2.0, 2.0], (41, 1))
    y = projection.hardnet_project(T(f), T([[1.0], [1.0]]), T(lo), T(hi)).numpy()
    assert_close("HardNet E8", (f - 2) / 2, y, 1e-14)


def test_gradient_is_nullspace_projector():
    # E5: with the selected face fixed, d out / d f = d out / d w = I - A_g^+ A_g
    A = T([[[1.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, -1.0, 0.0]]])
    b = T([[0.0, 5.0, 5.0]])
    f = T([[2.0, 1.0, 0.0]])     # violates row 0 only: face A_0 y = 0
    w = T([[0.3, -0.2, 0.1]])
    jf = torch.autograd.functional.jacobian(
        lambda f_: projection.caffine_project(f_, w, A, b).y, f)[0, :, 0]
    jw = torch.autograd.functional.jacobian(
        lambda w_: projection.caffine_project(f, w_, A, b).y, w)[0, :, 0]
    a = A[0, :1]
    N = torch.eye(3, dtype=torch.float64) - torch.linalg.pinv(a) @ a
    assert_close("df", N, jf, 1e-12)
    assert_close("dw", N, jw, 1e-12)
    # at a vertex (rank 3 subset selected) both vanish
    A3 = T([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]])
    b3 = T([[0.0, 0.0, 0.0]])
    f3 = T([[1.0, 1.0, 1.0]])
    j3 = torch.autograd.functional.jacobian(
        lambda f_: projection.caffine_project(f_, T([[0.0, 0.0, 0.0]]), A3, b3).y, f3)
    assert float(j3.abs().max()) == 0.0


def test_infeasible_set_reported():
    A = np.array([[[1.0], [-1.0]]])
    b = np.array([[-1.0, -1.0]])        # y <= -1 and y >= 1
    with pytest.raises(projection.InfeasibleConstraints, match=r"rows \[0, 1\] contradict"):
        certificates.check_nonempty(A, b)
    with pytest.raises(projection.InfeasibleConstraints, match="instance"):
        projection.caffine_project(T([[0.0]]), T([[0.0]]), T(A), T(b))


def test_bad_input_refused():
    A, b = T(np.zeros((2, 3, 2))), T(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="non-finite"):
        projection.caffine_project(T([[np.nan, 0.0], [0.0, 0.0]]), T(np.zeros((2, 2))), A, b)
    with pytest.raises(ValueError, match="must be"):
        projection.caffine_project(T(np.zeros((2, 3))), T(np.zeros((2, 3))), A, b)
