"""lib/frog/rdb.py: the planted targets equal their per-user loops; every key is referenced."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.frog import naive, rdb
from tests.conftest import assert_close


@settings(max_examples=20, deadline=None)
@given(n_users=st.integers(1, 9), n_items=st.integers(1, 7), extra=st.integers(0, 30),
       seed=st.integers(0, 2 ** 16))
def test_targets_match_loops(n_users, n_items, extra, seed):
    rng = np.random.default_rng(seed)
    db = rdb.make_database(n_users, n_items, max(n_users, n_items) + extra, rng)
    for task in rdb.TARGETS:
        # float64 sums of the same terms in the same row order: 1e-12 covers any reordering
        assert_close(task, getattr(naive, f"{task}_target")(db), rdb.TARGETS[task](db),
                     rtol=0, atol=1e-12)


def test_copurchase_by_hand():
    """3 users, 2 items; user 0 bought item 0 twice, user 1 items 0 and 1, user 2 item 1."""
    db = rdb.Database(np.array([[1.0, 0], [2.0, 0], [4.0, 0]]), np.zeros((2, 3)),
                      np.array([0, 0, 1, 1, 2]), np.array([0, 0, 0, 1, 1]),
                      np.ones((5, 2)))
    # item 0's buyer rows: users 0, 0, 1 -> mean 4/3; item 1's: users 1, 2 -> 3
    expected = [4 / 3, (4 / 3 + 3) / 2, 3.0]
    assert_close("copurchase", expected, rdb.copurchase_target(db), rtol=0, atol=1e-15)


def test_direct_is_amount_weighted():
    db = rdb.Database(np.zeros((1, 2)), np.array([[1.0, 0, 0], [3.0, 0, 0]]),
                      np.array([0, 0]), np.array([0, 1]), np.array([[1.0, 0], [3.0, 0]]))
    assert_close("direct", [(1 * 1 + 3 * 3) / 4], rdb.direct_target(db), rtol=0, atol=1e-15)


def test_every_key_referenced_and_split_sizes():
    rng = np.random.default_rng(3)
    db = rdb.make_database(17, 5, 17, rng)
    assert set(db.tx_user.tolist()) == set(range(17)) and set(db.tx_item.tolist()) == set(range(5))
    assert rdb.split_users(17, 0.4, rng).sum() == round(0.4 * 17)
    with pytest.raises(ValueError, match="cannot reference"):
        rdb.covering_keys(3, 4, rng)


def test_binarise_at_median():
    assert rdb.binarise(np.array([3.0, 1.0, 2.0, 4.0])).tolist() == [1.0, 0.0, 0.0, 1.0]
