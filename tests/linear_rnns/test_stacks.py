"""Fractional stacks and the machines built on them (spec §4.3)."""
import itertools
from fractions import Fraction

import numpy as np
import pytest

from lib.linear_rnns import stacks


def test_base4_observers_on_reachable_values():
    for bits in itertools.product((0, 1), repeat=4):
        s = stacks.base4_value(list(bits))
        assert stacks.head(s) == bits[-1] and stacks.nonempty(s) == 1
        assert stacks.pop(s) == stacks.base4_value(list(bits[:-1]))
    assert stacks.nonempty(Fraction(0)) == 0


def test_select():
    assert (stacks.select(Fraction(3, 8), 1) == Fraction(3, 8)
            and stacks.select(Fraction(3, 8), 0) == 0)


def test_roundtrip_exact_and_float():
    rng = np.random.default_rng(0)
    assert stacks.roundtrip_ok(list(rng.integers(0, 2, 120)), exact=True)
    assert stacks.roundtrip_ok([1, 0, 1], exact=False)
    # spec §4.3 [V]: float64 first fails at depth 27 (53 bits / 2 bits per level)
    assert stacks.first_float_failure(np.random.default_rng(1), 40, 20) <= 30


def test_separations():
    assert ([stacks.separation("base2", d) for d in (1, 2, 5)]
            == [1, Fraction(1, 2), Fraction(1, 16)])
    assert all(stacks.separation("base4", d) >= Fraction(1, 4) for d in range(1, 9))


@pytest.mark.parametrize("exact", [False, True])
def test_anbncn(exact):
    words = [w for L in range(7) for w in itertools.product(range(3), repeat=L)]
    arr = np.full((len(words), 6), -1, dtype=object if exact else np.int64)
    for i, w in enumerate(words):
        arr[i, :len(w)] = w
    got = stacks.anbncn(arr, np.array([len(w) for w in words]))
    ref = [list(w) == [0] * (len(w) // 3) + [1] * (len(w) // 3) + [2] * (len(w) // 3)
           for w in words]
    assert got.tolist() == ref


@pytest.mark.parametrize("w", [[1], [0], [1, 1, 1], [1, 0, 1, 1], [1, 0, 0, 1, 1]])
def test_increment(w):
    out, _ = stacks.increment_tm(w, len(w) + 2)
    assert int("".join(map(str, out)), 2) == int("".join(map(str, w)), 2) + 1


def test_cvp_gates():
    x = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    assert stacks.eval_relu_circuit([(0, 0, 1)], x).tolist() == [0, 0, 0, 1]
    assert stacks.eval_relu_circuit([(1, 0, 1)], x).tolist() == [0, 1, 1, 1]
