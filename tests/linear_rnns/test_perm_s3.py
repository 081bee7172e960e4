"""The S3 permutation variant of IMM: generator, automaton and PD LRNN agree; counts pinned."""
from itertools import permutations

import numpy as np
import pytest

from lib.linear_rnns import perm_s3


def test_enumeration_is_lexicographic():
    # the released gen_perm.py enumerates S3 with itertools.permutations(range(3))
    assert [tuple(p) for p in perm_s3.PERMS.tolist()] == list(permutations(range(3)))


def test_table_is_a_group_with_identity_zero():
    mul = perm_s3.MUL
    assert (mul[0] == np.arange(6)).all() and (mul[:, 0] == np.arange(6)).all()
    assert all(sorted(row) == list(range(6)) for row in mul.tolist())          # Latin square
    triples = [(a, b, c) for a in range(6) for b in range(6) for c in range(6)]
    assert all(mul[mul[a, b], c] == mul[a, mul[b, c]] for a, b, c in triples)   # associative


def test_table_matches_matrix_products():
    # MUL[a, b] indexes M_a @ M_b; checked here by integer matrix products
    for a in range(6):
        for b in range(6):
            assert (perm_s3.MATS[a] @ perm_s3.MATS[b] == perm_s3.MATS[perm_s3.MUL[a, b]]).all()


def test_label_of_a_hand_built_stream():
    # (0 1) is index 2 = (1, 0, 2), (1 2) is index 1 = (0, 2, 1); M_(01) M_(12) has rows
    # 0 -> col 2, 1 -> col 0, 2 -> col 1: (2, 0, 1), index 4
    g = np.array([[2, 1, 1]])
    assert perm_s3.automaton_labels(g).tolist() == [[2, 4, 2]]


@pytest.mark.parametrize("lo,hi", [(1, 1), (1, 7), (5, 33)])
def test_generator_automaton_and_pd_lrnn_agree(lo, hi):
    g, labels, length = perm_s3.sample(17, lo, hi, np.random.default_rng(3))
    assert length.min() >= lo and length.max() <= hi and g.shape == labels.shape
    assert (perm_s3.automaton_labels(g) == labels).all()
    assert (perm_s3.pd_lrnn_labels(g) == labels).all()


def test_regular_representation_is_pd():
    assert perm_s3.is_pd(perm_s3.regular_representation())
    assert not perm_s3.is_pd(np.full((1, 6, 6), 1 / 6))


def test_noncommuting_pairs():
    # S3: 6 elements, 3 conjugacy classes, so 36 - 18 = 18 ordered pairs do not commute
    assert perm_s3.noncommuting_pairs() == (18, 18)
