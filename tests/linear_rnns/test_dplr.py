"""DPLR constructions (spec §4.6): overwrites, IMM/WFA compilers, Householder programs, router."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.linear_rnns import automata, dplr, naive, wfa


def test_overwrite_is_identity_plus_rank_one():
    c = np.array([0, 2, -1, Fraction(1, 2)], dtype=object)
    A = dplr.overwrite(4, 0, c)
    assert wfa.exact_rank(A - np.identity(4, dtype=object)) == 1
    h = np.array([7, 1, 2, 4], dtype=object)
    assert list(A.dot(h)) == [2 * 1 - 2 + 2, 1, 2, 4]            # <c, h> = 2 - 2 + 2 = 2
    with pytest.raises(ValueError):
        dplr.overwrite(4, 1, c)                                    # needs c_j = 0


@pytest.mark.parametrize("N", [1, 2, 5, 12])
def test_imm_int_and_exact_programs(N):
    rng = np.random.default_rng(N)
    mats = rng.integers(-1, 2, (4, N, 3, 3))
    got = dplr.imm_program_int(mats)
    for b in range(4):
        ref = [[int(v) for v in row] for row in np.identity(3, dtype=int)]
        for M in mats[b]:
            ref = naive.matmul(ref, M.tolist())
        assert got[b].tolist() == ref
        assert dplr.run_program(list(mats[b]), np.identity(3, dtype=object)).tolist() == ref


def test_start_token_needed():
    out = dplr.run_program([np.identity(3, dtype=object)], np.identity(3, dtype=object),
                           schedule="none")
    assert (out == 0).all()


def test_first_token_schedule_loses_entry_00():
    # S1: the published schedule leaves destination 0 unwritten at N = 1 (expected I, gets 0 there)
    eye = np.identity(3, dtype=int).astype(object)
    out = dplr.run_program([eye], eye, schedule="first_token")
    want = eye.copy()
    want[0, 0] = 0
    assert out.tolist() == want.tolist()
    with pytest.raises(ValueError, match="schedule"):
        dplr.run_program([eye], eye, schedule="bos")


@pytest.mark.parametrize("N", [1, 2, 3, 7])
def test_first_token_error_is_the_lost_term(N):
    # error = M_1[0, 0] e_0 e_0^T M_2 ... M_N (hand derivation: overwrite 1 reads the zero state)
    rng = np.random.default_rng(10 + N)
    mats = [M.tolist() for M in rng.integers(-5, 6, (N, 3, 3))]
    eye = [[int(i == j) for j in range(3)] for i in range(3)]
    tail = eye
    for M in mats[1:]:
        tail = naive.matmul(tail, M)
    full = naive.matmul(mats[0], tail)
    lost = [[mats[0][0][0] * tail[0][j] if i == 0 else 0 for j in range(3)] for i in range(3)]
    got = dplr.run_program([np.array(M, dtype=object) for M in mats],
                           np.array(eye, dtype=object), schedule="first_token")
    assert got.tolist() == [[full[i][j] - lost[i][j] for j in range(3)] for i in range(3)]


def test_sparse_overwrites_equal_dense_matrices():
    rng = np.random.default_rng(4)
    M = np.array([[Fraction(int(a), int(b)) for a, b in zip(rng.integers(-3, 4, 3),
                                                            rng.integers(1, 4, 3))]
                  for _ in range(3)], dtype=object)
    h = [Fraction(int(v)) for v in rng.integers(-5, 6, 18)]
    for parity in (0, 1):
        dense = dplr.apply_dense(dplr.right_multiply_program(M, 3, parity), h)
        sparse = list(h)
        for j, c in dplr.right_multiply_steps(M, 3, parity):
            sparse[j] = sum(v * sparse[l] for l, v in c.items())
        assert list(dense) == sparse


def test_run_program_exact_past_int64():
    # entries up to 5, N = 21: |entries| can reach 15^21 / 3 > 2^63; Python ints stay exact
    rng = np.random.default_rng(21)
    mats = rng.integers(-5, 6, (21, 3, 3))
    ref = [[int(i == j) for j in range(3)] for i in range(3)]
    for M in mats:
        ref = naive.matmul(ref, M.tolist())
    got = dplr.run_program(list(mats.astype(object)), np.identity(3, dtype=int).astype(object))
    assert got.tolist() == ref
    assert 15 ** 21 // 3 > 2 ** 63                                 # why int64 is not enough
    big = np.full((1, 21, 3, 3), 5, dtype=np.int64)               # all-5 matrices: 15^21 / 3
    exact = dplr.run_program(list(big[0].astype(object)), np.identity(3, dtype=int).astype(object))
    assert exact[0, 0] == 5 ** 21 * 3 ** 20
    assert dplr.imm_program_int(big)[0, 0, 0] != exact[0, 0]       # int64 wraps


def test_wfa_through_overwrites():
    rng = np.random.default_rng(3)
    A = automata.random_wfa(3, 2, rng)
    for w in automata.random_words(10, 2, 6, rng) + [[]]:
        row = dplr.run_program([A.M[a] for a in w], A.alpha.reshape(1, 3))[0]
        assert row.dot(A.eta) == automata.run_wfa(A, w)


def test_householder_programs():
    h = np.array([3, 5], dtype=object)
    assert list(dplr.apply(dplr.transvection(0, 1), h)) == [3, 8]   # spec §4.6 [V]
    h = np.array([2, 7, 0], dtype=object)
    assert list(dplr.apply(dplr.scaled_add(0, 1, Fraction(-3, 2), 2), h)) == [2, 4, 0]
    M = np.array([[Fraction(1), Fraction(2)], [Fraction(-1, 3), 0]], dtype=object)
    x = np.array([Fraction(1), Fraction(3), 0, 0, 0], dtype=object)
    prog = dplr.matrix_program(M)
    # (n + 1) + 8 n^2 + n + 3 n steps; 694 for n = 9 (spec §4.6)
    assert len(prog) == 3 + 32 + 2 + 6
    assert list(dplr.apply(prog, x)[:2]) == list(M.dot(x[:2]))
    assert len(dplr.matrix_program(np.zeros((9, 9), dtype=object))) == 694


def test_step_needs_a_key():
    with pytest.raises(ValueError):
        dplr.step(1, {0: 0})
    want = dplr.Step(Fraction(1, 2), (0, 3), (1, 2))                # zeros dropped, sorted
    assert dplr.step(Fraction(1, 2), {3: 2, 1: 0, 0: 1}) == want


def random_program(rng, d, n_steps):
    """Random steps with 1 or 2 non-zeros in k, rational beta (the programs' shapes)."""
    prog = []
    for _ in range(n_steps):
        idx = rng.choice(d, size=int(rng.integers(1, min(d, 2) + 1)), replace=False)
        key = {int(i): int(rng.choice([-2, -1, 1, 2, 3])) for i in idx}
        prog.append(dplr.step(Fraction(int(rng.integers(-4, 5)), int(rng.integers(1, 5))), key))
    return prog


@pytest.mark.parametrize("d,n_steps", [(1, 5), (2, 9), (5, 30), (19, 40)])
def test_rank_one_apply_equals_dense(d, n_steps):
    rng = np.random.default_rng(100 * d + n_steps)
    for _ in range(3):
        prog = random_program(rng, d, n_steps)
        h = [Fraction(int(a), int(b))
             for a, b in zip(rng.integers(-5, 6, d), rng.integers(1, 4, d))]
        dense = dplr.apply_dense([dplr.dense(s, d) for s in prog], h)
        assert list(dplr.apply(prog, h)) == list(dense)


RATIONAL = st.fractions(min_value=-4, max_value=4, max_denominator=6)


@st.composite
def program_and_state(draw):
    """A state of dimension 1..8 and up to 12 steps whose keys have 1 or 2 non-zeros."""
    d = draw(st.integers(1, 8))
    prog = []
    for _ in range(draw(st.integers(0, 12))):
        idx = draw(st.lists(st.integers(0, d - 1), min_size=1, max_size=2, unique=True))
        key = {i: draw(RATIONAL.filter(bool)) for i in idx}
        prog.append(dplr.step(draw(RATIONAL), key))
    return d, prog, draw(st.lists(RATIONAL, min_size=d, max_size=d))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(program_and_state())
def test_rank_one_apply_equals_dense_property(case):
    d, prog, h = case
    assert list(dplr.apply(prog, h)) == list(dplr.apply_dense([dplr.dense(s, d) for s in prog], h))


@pytest.mark.parametrize("d", [2, 3, 5, 9])
def test_transvection_every_pair_and_the_quarter_control(d):
    eye = np.identity(d, dtype=int).astype(object)
    for s in range(d):
        for t in range(d):
            if s == t:
                continue
            want = eye.copy()
            want[t, s] = 1                                         # h_t += h_s
            prod = eye
            for H in dplr.transvection(s, t):
                prod = dplr.dense(H, d).dot(prod)
            assert prod.tolist() == want.tolist()
            bad = eye.copy() * Fraction(1)                         # hand-derived 1/4 map
            bad[s, s], bad[s, t], bad[t, s], bad[t, t] = (Fraction(5, 6), Fraction(-1, 3),
                                                          Fraction(7, 6), Fraction(4, 3))
            cols = np.stack([dplr.apply(dplr.transvection(s, t, Fraction(1, 4)), eye[:, j])
                             for j in range(d)], axis=1)
            assert cols.tolist() == bad.tolist()


def test_right_multiply_embedding_convention():
    # B vec(P) = vec(P M) with vec row-major; P M != M P for these two
    P = np.array([[1, 2, 0], [0, 1, -1], [3, 0, 1]], dtype=object)
    M = np.array([[0, 1, 0], [-1, 0, 1], [1, 1, 0]], dtype=object)
    B = dplr.right_multiply_embedding(M)
    assert list(B.dot(P.reshape(-1))) == list(naive_vec(naive.matmul(P.tolist(), M.tolist())))
    assert naive.matmul(P.tolist(), M.tolist()) != naive.matmul(M.tolist(), P.tolist())


def naive_vec(X):
    return [v for row in X for v in row]


@pytest.mark.parametrize("N", [1, 2, 3])
def test_deltanet_product_left_to_right(N):
    rng = np.random.default_rng(7 + N)
    mats = list(rng.integers(-1, 2, (N, 3, 3)).astype(object))
    ref = [[int(i == j) for j in range(3)] for i in range(3)]
    for M in mats:
        ref = naive.matmul(ref, M.tolist())                        # M_1 M_2 ... M_N
    P, steps = dplr.deltanet_product(mats)
    assert P.tolist() == ref and steps == 694 * N
    if N == 2:                                                     # not the reversed order
        rev = naive.matmul(mats[1].tolist(), mats[0].tolist())
        assert rev != ref or (mats[0] == mats[1]).all()


def test_router_facts():
    assert dplr.euler_phi(1404) == 432                             # spec §4.6 [V]
    assert dplr.euler_phi(1) == 1 and dplr.euler_phi(13) == 12
    orders = dplr.finite_orders([Fraction(v) for v in (-1, 0, 1)], 30)
    assert set(orders) == {1, 2, 3, 4, 6}                          # crystallographic restriction


def test_effective_beta_is_beta_times_key_norm():
    # H(1/3, (1, 2, 0)): beta |k|^2 = 1/3 * 5; its eigenvalue along k is 1 - 5/3 = -2/3
    k = np.array([1, 2, 0], dtype=object)
    H = dplr.householder(3, Fraction(1, 3), k)
    assert dplr.effective_beta(H) == Fraction(5, 3)
    assert list(H.dot(k)) == [Fraction(-2, 3) * v for v in k]
    assert dplr.effective_beta(dplr.dense(dplr.step(Fraction(1, 3), {0: 1, 1: 2}), 3)) == \
        Fraction(5, 3)


def test_effective_beta_of_a_scale_step():
    # scaling coordinate 0 by lambda = -2 is H(1 - lambda, e_0): beta_eff = 3, outside [0, 2]
    assert dplr.effective_beta(dplr.dense(dplr.scale(0, -2), 2)) == 3


def test_run_in_place_wrong_on_swap_right_on_diagonal():
    # negative control of notebook 06: entry (0, 1) reads the overwritten (0, 0) = 0
    eye = np.identity(3, dtype=int).astype(object)
    swap = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], dtype=object)
    assert dplr.run_in_place([swap], eye).tolist() == [[0, 0, 0], [1, 1, 0], [0, 0, 1]]
    # a diagonal M only reads the entry it writes, so in place is harmless there
    diag = [np.diag([2, -1, 3]).astype(object), np.diag([-1, 5, 1]).astype(object)]
    assert dplr.run_in_place(diag, eye).tolist() == np.diag([-2, -5, 3]).tolist()
    # and the correct two-block program agrees with the direct product on both
    assert (dplr.run_program([swap], eye) == swap).all()
