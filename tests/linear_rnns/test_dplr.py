"""DPLR constructions (spec §4.6): overwrites, IMM/WFA compilers, Householder programs, router."""
from fractions import Fraction

import numpy as np
import pytest

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
                           with_start=False)
    assert (out == 0).all()


def test_wfa_through_overwrites():
    rng = np.random.default_rng(3)
    A = automata.random_wfa(3, 2, rng)
    for w in automata.random_words(10, 2, 6, rng) + [[]]:
        row = dplr.run_program([A.M[a] for a in w], A.alpha.reshape(1, 3))[0]
        assert row.dot(A.eta) == automata.run_wfa(A, w)


def test_householder_programs():
    h = np.array([3, 5], dtype=object)
    assert list(dplr.apply_program(dplr.transvection(2, 0, 1), h)) == [3, 8]   # spec §4.6 [V]
    h = np.array([2, 7, 0], dtype=object)
    assert list(dplr.apply_program(dplr.scaled_add(3, 0, 1, Fraction(-3, 2), 2), h)) == [2, 4, 0]
    M = np.array([[Fraction(1), Fraction(2)], [Fraction(-1, 3), 0]], dtype=object)
    x = np.array([Fraction(1), Fraction(3), 0, 0, 0], dtype=object)
    prog = dplr.matrix_program(M)
    # (n + 1) + 8 n^2 + n + 3 n steps; 694 for n = 9 (spec §4.6)
    assert len(prog) == 3 + 32 + 2 + 6
    assert list(dplr.apply_program(prog, x)[:2]) == list(M.dot(x[:2]))


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


def test_effective_beta_of_a_scale_step():
    # scaling coordinate 0 by lambda = -2 is H(1 - lambda, e_0): beta_eff = 3, outside [0, 2]
    assert dplr.effective_beta(dplr.scale(2, 0, -2)) == 3
