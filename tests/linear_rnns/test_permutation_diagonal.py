"""PD LRNN constructions = direct automaton runs (spec §4.5)."""
from fractions import Fraction

import numpy as np
import pytest

from lib.linear_rnns import automata, permutation_diagonal, scan


@pytest.mark.parametrize("n,s", [(1, 1), (3, 2), (7, 4)])
def test_dfa_and_dwfa(n, s):
    rng = np.random.default_rng(n * 10 + s)
    words = automata.random_words(30, s, 17, rng) + [[]]           # includes the empty word
    dfa, dwfa = automata.random_dfa(n, s, rng), automata.random_dwfa(n, s, rng)
    ref = [bool(dfa.accepting[automata.run_dfa(dfa, w)]) for w in words]
    assert permutation_diagonal.dfa_accepts(dfa, words).tolist() == ref
    assert list(permutation_diagonal.dwfa_values(dwfa, words)) == [automata.run_dwfa(dwfa, w)
                                                                  for w in words]


def test_s5_and_groups():
    S5 = automata.symmetric_group(5)
    assert len(S5) == 120 and len(automata.alternating_group(5)) == 60   # |S5| = 5!, |A5| = 5!/2
    rng = np.random.default_rng(0)
    words = automata.random_words(20, 120, 33, rng, min_len=1)
    got = permutation_diagonal.permutation_products(S5, words)
    assert [tuple(r) for r in got] == [automata.compose_word(S5, w) for w in words]


def test_dwfa_hand_example():
    # 1 state, weight -1/2 on symbol 0: f(000) = eta * (-1/2)^3 with eta = 2 -> -1/4
    d = automata.DWFA(np.array([[0]]), np.array([[Fraction(-1, 2)]], dtype=object), 0,
                      np.array([Fraction(2)], dtype=object))
    assert permutation_diagonal.dwfa_values(d, [[0, 0, 0]])[0] == Fraction(-1, 4)


def test_column_one_hot():
    x = scan.random_pairs("pd", 5, 4, np.random.default_rng(1), exact=True)
    assert permutation_diagonal.is_column_one_hot(scan.to_dense(scan.reduce_tree(x)[0]).a)
    assert not permutation_diagonal.is_column_one_hot(np.ones((2, 2)))


def test_group_orders_and_perfectness():
    gl = automata.general_linear_f2(3)
    assert len(gl) == 168                                          # |GL(3, 2)| = 7 * 6 * 4
    assert len(automata.general_linear_f2(2)) == 6                 # GL(2, 2) = S3
    S3 = [tuple(int(v) for v in p) for p in automata.symmetric_group(3)]
    # S3 is solvable: its commutator subgroup is A3 (order 3)
    assert automata.commutator_subgroup_size(S3, automata.perm_compose, (0, 1, 2)) == 3
