"""Single-layer LRNN = WFA, exact ranks, unrolled form and the Q -> Z lift (spec §2.6, §4.7)."""
from fractions import Fraction

import numpy as np
import pytest

from lib.linear_rnns import arith, automata, naive, scan, wfa


@pytest.mark.parametrize("n", [1, 3, 5])
def test_lrnn_equals_wfa(n):
    rng = np.random.default_rng(n)
    A = automata.random_wfa(n, 2, rng)
    words = automata.random_words(25, 2, 9, rng) + [[]]
    assert list(wfa.lrnn_values(A, words)) == [automata.run_wfa(A, w) for w in words]


def test_exact_rank():
    assert wfa.exact_rank([[1, 2], [2, 4]]) == 1
    assert wfa.exact_rank(np.identity(5, dtype=int).tolist()) == 5
    # spec §4.7 [V]: rank [1/2 - (s - t)^2] = 3
    assert [wfa.exact_rank(wfa.score_matrix(N)) for N in (3, 7, 12)] == [3, 3, 3]


def test_sum_rule_and_typo():
    assert arith.add_pair((1, 2), (1, 3)) == (5, 6)        # 1/2 + 1/3 = 5/6
    assert arith.add_printed((1, 2), (1, 3)) == (5, 2)     # spec §2.6: the printed rule gives 5/2


@pytest.mark.parametrize("T,d", [(1, 1), (4, 2), (7, 3)])
def test_unrolled_and_lift(T, d):
    rng = np.random.default_rng(T * d)
    x = scan.random_pairs("dense", T, d, rng, exact=True)
    h0 = [Fraction(1, 2)] * d
    ref = naive.recurrence("dense", x.a, x.b, h0)[-1]
    assert arith.unrolled(list(x.a), list(x.b), h0) == ref
    assert [Fraction(p, q) for p, q in arith.recurrence_pairs(list(x.a), list(x.b), h0)] == ref


def test_bits_bound():
    mats = np.random.default_rng(0).integers(-1, 2, size=(20, 3, 3))
    bits = arith.max_product_bits(mats)
    # spec §5: <= ceil(T log2 3) + 1 bits
    assert all(b <= int(np.ceil(T * np.log2(3))) + 1 for T, b in enumerate(bits, start=1))
