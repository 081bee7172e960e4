"""Gate-DAG depth equals the closed forms, and the circuits compute the recurrence (spec §5)."""
from fractions import Fraction

import numpy as np
import pytest

from lib.linear_rnns import circuits, naive


@pytest.mark.parametrize("family", sorted(circuits.BUILDERS))
@pytest.mark.parametrize("T", [1, 2, 3, 5, 8, 17, 64])
@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_depth_formula(family, T, d):
    c, out = circuits.BUILDERS[family](T, d)
    assert c.depth(out) == circuits.depth_formula(family, T, d)


@pytest.mark.parametrize("family", ["sequential_dense", "balanced_dense"])
@pytest.mark.parametrize("T,d", [(1, 1), (3, 2), (6, 3)])
def test_dense_circuits_compute_recurrence(family, T, d):
    rng = np.random.default_rng(T + d)
    h0 = [Fraction(int(v)) for v in rng.integers(-2, 3, d)]
    A = [[[Fraction(int(v)) for v in row] for row in rng.integers(-2, 3, (d, d))] for _ in range(T)]
    b = [[Fraction(int(v)) for v in rng.integers(-2, 3, d)] for _ in range(T)]
    c, out = circuits.BUILDERS[family](T, d)
    flat = list(h0)
    for t in range(T):
        flat += [v for row in A[t] for v in row] + b[t]
    got = [c.evaluate(flat)[o] for o in out]
    assert got == naive.recurrence("dense", A, b, h0)[-1]


def test_relu_and_cmp():
    c = circuits.Circuit()
    x = c.input()
    r, s = c.relu(x), c.cmp(x)
    assert [c.evaluate([v])[g] for v in (-2, 0, 3) for g in (r, s)] == [0, 0, 0, 0, 3, 1]
    assert c.size() == 2


def test_tent_pieces():
    # spec §5 check 3: tau^k has 2^k linear pieces
    assert [circuits.tent_pieces(k) for k in range(11)] == [2 ** k for k in range(11)]
