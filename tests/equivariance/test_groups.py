"""Group tables: closure, inverses, orders, (non-)abelian, characters (spec §6 first bullet)."""
import numpy as np
import pytest

from lib.equivariance import groups as G


@pytest.mark.parametrize("group, order, abelian, n_classes", [
    (G.cyclic_shift(8), 8, True, 8),          # C_8: order 8, abelian (each element its own class)
    (G.cyclic_shift(1), 1, True, 1),          # size 1: trivial group
    (G.cyclic_shift(7), 7, True, 7),          # odd, non power of two
    (G.mirror_1d(5), 2, True, 2),
    (G.mirror_grid(3, "lr"), 2, True, 2),
    (G.mirror_grid(4, "ud"), 2, True, 2),
    (G.d4_grid(4), 8, False, 5),              # D_4: 5 conjugacy classes (textbook)
    (G.d4_grid(3), 8, False, 5),
    (G.sign_flip(3), 2, True, 2),
    (G.block_permutation(2), 6, False, 3),    # S_3: 3 classes
], ids=["C8", "C1", "C7", "Z2vec5", "Z2lr3", "Z2ud4", "D4k4", "D4k3", "sign3", "S3m2"])
def test_group_table(group, order, abelian, n_classes):
    group.check()
    assert group.order == order
    assert group.is_abelian() == abelian
    assert len(G.conjugacy_classes(group)) == n_classes


def test_d4_noncommuting_pairs():
    # D_4: 8 elements, centralizer sizes sum = |G| * #classes = 40, so 64 - 40 = 24 ordered
    # non-commuting pairs (class equation).
    d4 = G.d4_grid(4)
    assert int((d4.table != d4.table.T).sum()) == 24


def test_sign_characters_counts():
    # |Hom(G, ±1)| = |G/[G,G]|: C_8 -> 2, D_4 -> 4 (abelianization Z2 x Z2), S_3 -> 2.
    assert len(G.sign_characters(G.cyclic_shift(8))) == 2
    assert len(G.sign_characters(G.d4_grid(4))) == 4
    assert len(G.sign_characters(G.block_permutation(1))) == 2


def test_permutation_character_counts_fixed_points():
    # the character of a permutation representation is the number of fixed pixels:
    # D_4 on 3x3: identity 9, rotations by 90 deg fix only the centre (1), mirrors fix a column (3).
    chi = G.characters(G.d4_grid(3).mats)
    assert sorted(np.rint(chi).astype(int).tolist()) == sorted([9, 1, 1, 1, 3, 3, 3, 3])


def test_control_is_outside_group():
    rng = np.random.default_rng(0)
    d4 = G.d4_grid(4)
    P = G.control_permutation(16, rng)
    assert not any(np.array_equal(P, m) for m in d4.mats)


@pytest.mark.parametrize("n", [1, 3, 8])
def test_rotation_group_table(n):
    G.rotations_2d(n).check()          # products match the index table to 1e-12
