"""The synthetic relational database and its planted user targets (spec §3 NB1).

Three tables: users (n_users x 2 features), items (n_items x 3) and tx (n_tx rows: user_fk,
item_fk, amount ~ Exp(1), one N(0, 1) noise column). Every user and every item is referenced by
at least one tx row, so both targets are defined for every user. The targets are vectorised
(bincount); `naive.py` holds the per-user loops they are checked against.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

USER_FEATURES, ITEM_FEATURES, TX_FEATURES = 2, 3, 2


@dataclass(frozen=True)
class Database:
    """The three tables; tx_x's columns are (amount, noise)."""

    user_x: np.ndarray        # (n_users, 2)
    item_x: np.ndarray        # (n_items, 3)
    tx_user: np.ndarray       # (n_tx,) int64, FK into users
    tx_item: np.ndarray       # (n_tx,) int64, FK into items
    tx_x: np.ndarray          # (n_tx, 2)

    @property
    def sizes(self) -> tuple[int, int, int]:
        return len(self.user_x), len(self.item_x), len(self.tx_user)


def covering_keys(n_rows: int, n_keys: int, rng: np.random.Generator) -> np.ndarray:
    """n_rows foreign keys into n_keys rows, each key used at least once, in random order."""
    if n_rows < n_keys:
        raise ValueError(f"{n_rows} rows cannot reference all {n_keys} keys")
    keys = np.concatenate([np.arange(n_keys), rng.integers(0, n_keys, n_rows - n_keys)])
    return rng.permutation(keys).astype(np.int64)


def make_database(n_users: int, n_items: int, n_tx: int, rng: np.random.Generator) -> Database:
    """Draw the three tables (features N(0, 1), amount Exp(1), noise N(0, 1))."""
    user_x = rng.standard_normal((n_users, USER_FEATURES))
    item_x = rng.standard_normal((n_items, ITEM_FEATURES))
    tx_user = covering_keys(n_tx, n_users, rng)
    tx_item = covering_keys(n_tx, n_items, rng)
    tx_x = np.stack([rng.exponential(1.0, n_tx), rng.standard_normal(n_tx)], axis=1)
    return Database(user_x, item_x, tx_user, tx_item, tx_x)


def direct_target(db: Database) -> np.ndarray:
    """(t1) per user: the amount-weighted mean of item feature 0 over the user's tx rows."""
    n_users = db.sizes[0]
    amount = db.tx_x[:, 0]
    num = np.bincount(db.tx_user, weights=amount * db.item_x[db.tx_item, 0], minlength=n_users)
    return num / np.bincount(db.tx_user, weights=amount, minlength=n_users)


def copurchase_target(db: Database) -> np.ndarray:
    """(t2) per user: the mean over the user's tx rows of the item's mean buyer feature 0 (the
    buyer mean is over the item's tx rows, the user's own included)."""
    n_users, n_items, _ = db.sizes
    buyer_mean = np.bincount(db.tx_item, weights=db.user_x[db.tx_user, 0], minlength=n_items) \
        / np.bincount(db.tx_item, minlength=n_items)
    return np.bincount(db.tx_user, weights=buyer_mean[db.tx_item], minlength=n_users) \
        / np.bincount(db.tx_user, minlength=n_users)


TARGETS = {"direct": direct_target, "copurchase": copurchase_target}


def binarise(target: np.ndarray) -> np.ndarray:
    """Labels 1 above the median, 0 at or below it (balanced up to ties)."""
    return (target > np.median(target)).astype(np.float64)


def split_users(n_users: int, test_fraction: float, rng: np.random.Generator) -> np.ndarray:
    """A boolean test mask over users, round(test_fraction n_users) of them, drawn at random."""
    mask = np.zeros(n_users, dtype=bool)
    mask[rng.permutation(n_users)[:round(test_fraction * n_users)]] = True
    return mask
