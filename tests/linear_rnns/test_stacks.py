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


def test_float_failure_counts_exact_to_depth_26():
    # every base-4 value of depth d is k / 4^d with k < 4^d: 2d bits, exact in float64's 53-bit
    # mantissa for d <= 26, so no round trip can fail there
    counts = stacks.float_failure_counts(np.random.default_rng(2), 30, 8)
    assert counts.shape == (30,) and (counts[:26] == 0).all() and counts[-1] > 0
    assert ((counts >= 0) & (counts <= 8)).all()


def test_float_failure_counts_same_draws_as_first_failure():
    # the first depth with a failure agrees with first_float_failure on a fresh copy of the
    # stream only when no string before it failed: both draw depth by depth, string by string
    counts = stacks.float_failure_counts(np.random.default_rng(1), 40, 1)
    first = stacks.first_float_failure(np.random.default_rng(1), 40, 1)
    assert first == 1 + int(np.flatnonzero(counts)[0])


def test_bool_circuit_against_loop():
    rng = np.random.default_rng(0)
    x = np.array(list(itertools.product((0, 1), repeat=4)))
    for _ in range(20):
        c = stacks.random_monotone_circuit(4, 6, rng)
        ref = []
        for row in x:
            w = [bool(v) for v in row]
            for op, i, j in c:
                w.append((w[i] and w[j]) if op == 0 else (w[i] or w[j]))
            ref.append(w[-1])
        assert stacks.bool_circuit(c, x).tolist() == ref
        assert (stacks.eval_relu_circuit(c, x) == np.array(ref)).all()


def test_wrong_and_gate_is_zero_on_bits():
    x = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    assert stacks.eval_relu_circuit([(0, 0, 1)], x, and_threshold=2).tolist() == [0, 0, 0, 0]
    # OR keeps the correct gate
    assert stacks.eval_relu_circuit([(1, 0, 1)], x, and_threshold=2).tolist() == [0, 1, 1, 1]


def test_wrong_and_on_s1_circuit():
    # AND(OR(AND(x0,x1), AND(x2,x3)), x1) is true iff x1 and (x0 or (x2 and x3)): x1 = 1 with
    # x0 = 1 (4 assignments of x2, x3) or x0 = 0, x2 = x3 = 1 (1): 5 of 16; S1's wrong-AND control
    # errs on exactly those (its last gate is an AND)
    x = np.array(list(itertools.product((0, 1), repeat=4)))
    truth = stacks.bool_circuit(stacks.S1_CONTROL_CIRCUIT, x)
    assert int(truth.sum()) == 5
    assert (stacks.eval_relu_circuit(stacks.S1_CONTROL_CIRCUIT, x) == truth).all()
    wrong = stacks.eval_relu_circuit(stacks.S1_CONTROL_CIRCUIT, x, and_threshold=2)
    assert (wrong == 0).all() and int((wrong != truth).sum()) == 5


def test_encoding_table_is_pushes_from_empty():
    # closed form E = sum (2 b_i + 1) / 4^(i+1), top first, against pushing bottom first
    for d in (0, 1, 3, 5):
        for code, v in enumerate(stacks.encoding_table(d)):
            bits = [(code >> i) & 1 for i in range(d)]            # top first
            assert v == stacks.base4_value(bits[::-1])


@pytest.mark.parametrize("max_depth", [0, 1, 5])
def test_domain_check_equals_naive(max_depth):
    from lib.linear_rnns import naive
    got = stacks.domain_check(max_depth)
    assert got.to_dict("records") == naive.stack_domain(max_depth)


def test_domain_check_full_at_depth_7():
    # every stack of depth <= 7: 2^8 - 1 = 255, of which 254 non-empty; two pushes each
    dom = stacks.domain_check(7)
    assert (int(dom.stacks.sum()), int(dom.nonempty_ok.sum()), int(dom.head_ok.sum()),
            int(dom.pop_ok.sum()), int(dom.push_ok.sum())) == (255, 255, 254, 254, 510)


def test_domain_check_rejects_a_broken_pop(monkeypatch):
    # pop without the head's correction (4s - 1) is right on top-0 stacks only: it must show
    monkeypatch.setattr(stacks, "pop", lambda s: 4 * s - 1)
    dom = stacks.domain_check(4)
    assert int(dom.pop_ok.sum()) == sum(2 ** (d - 1) for d in range(1, 5))


@pytest.mark.parametrize("depth", [0, 1, 5, 9])
def test_dyadic_table_is_the_fraction_table_exactly(depth):
    # float64 holds num / 4^depth exactly: Fraction(float) recovers the closed form
    got = [Fraction(v) for v in stacks.dyadic_table(depth)]
    assert got == list(stacks.encoding_table(depth))


def test_domain_check_refuses_depths_where_float64_rounds():
    with pytest.raises(ValueError, match="max_depth = 26"):
        stacks.domain_check(stacks.DYADIC_MAX_DEPTH + 1)
