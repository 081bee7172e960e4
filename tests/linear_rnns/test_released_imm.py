"""The released imm_unbound labelling rule (int64, wraps) against exact labels (issue 44)."""
import numpy as np

from lib.linear_rnns import product_checks, released_imm

# H = [[1, 1], [1, -1]] (+) [1] has H^2 = 2 I, so H^128 = 2^64 I: a non-zero (0, 0) entry that
# int64 arithmetic (mod 2^64) turns into 0 (derived by hand)
H = np.array([[1, 1, 0], [1, -1, 0], [0, 0, 1]], dtype=np.int64)


def test_released_rule_wraps_on_2_to_the_64():
    mats = np.broadcast_to(H, (1, 128, 3, 3)).copy()
    assert released_imm.exact_first_entry(mats)[0] == 2 ** 64
    assert released_imm.released_labels(mats)[0] == 1               # says "(0, 0) = 0": wrong
    # one step short, 2^63 I wraps to -2^63, still non-zero: the label is right
    assert released_imm.released_labels(mats[:, :127])[0] == 0


def test_exact_first_entry_is_the_direct_product():
    rng = np.random.default_rng(4)
    mats = rng.integers(-1, 2, (7, 45, 3, 3)).astype(np.int64)      # odd count, T past 40
    got = released_imm.exact_first_entry(mats)
    assert [int(g) for g in got] == [int(product_checks.direct_product(list(m))[0, 0])
                                     for m in mats]


def test_no_wrap_while_entries_fit_int64():
    # |entries| <= 3^(T-1) < 2^63 for T <= 40: the released rule is exact there
    rng = np.random.default_rng(5)
    audit = released_imm.wrap_audit(300, 40, rng)
    assert (audit.released_label == audit.exact_label).all()
    assert (audit.ours_label == audit.exact_label).all()


def test_wrapped_labels_are_false_ones():
    # wrapping is a ring map Z -> Z / 2^64: a true 0 stays 0, so every error says 1
    audit = released_imm.wrap_audit(400, 500, np.random.default_rng(6))
    wrong = audit[audit.released_label != audit.exact_label]
    assert (wrong.released_label == 1).all() and (wrong.p00_twos >= 64).all()
    assert (audit.ours_label == audit.exact_label).all()
