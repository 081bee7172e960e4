"""Batched stream and reduction builders against their one-instance definitions (spec §4.1-4.2)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.linear_rnns import graphs as G


@st.composite
def instances(draw):
    """A few sorted deterministic graphs of different sizes with their (s, t)."""
    out = []
    for _ in range(draw(st.integers(1, 6))):
        k = draw(st.integers(1, 9))
        succ = np.zeros(k + 1, dtype=np.int64)
        for v in range(1, k):
            succ[v] = draw(st.sampled_from([0] + list(range(v + 1, k + 1))))
        out.append((succ, draw(st.integers(1, k)), draw(st.integers(1, k))))
    return out


@settings(max_examples=60, deadline=None)
@given(instances(), st.sampled_from(["endpoint", "reach"]), st.sampled_from(["sorted", "reversed"]))
def test_token_matrix_equals_streams(inst, form, order):
    succ = G.succ_matrix([g for g, _, _ in inst])
    toks, lens = G.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst], form, order)
    ref, ref_lens = G.pad_streams([G.stream(g, s, t, form, order) for g, s, t in inst])
    assert lens.tolist() == ref_lens.tolist()
    assert toks.tolist() == ref.tolist()


def test_token_matrix_hand_example():
    # 1 -> 2, s = 1, t = 2: 0 | 0 | 00 | # 00 $
    toks, lens = G.token_matrix(G.succ_matrix([G.chain(2)]), [1], [2])
    assert "".join(G.TOKENS[v] for v in toks[0]) == "0|0|00|#00$" and lens.tolist() == [11]


def test_reduction_domain_and_batch():
    for n in (1, 2, 3):
        f, s, t = G.reduction_domain(n)
        assert len(f) == (n + 1) ** n * n * n
        succ, s_red, F = G.reduce_batch(f, s, t)
        assert F == (n + 1) * n + 1 and (s_red == s + 1).all()
        for i in range(len(f)):
            ref, s_ref, F_ref = G.reduce_to_sorted(f[i], int(s[i]), int(t[i]))
            assert succ[i].tolist() == ref.tolist() and (s_ref, F_ref) == (s_red[i], F)


def test_distinct_instances_read_back():
    f, s, t = G.reduction_domain(2)
    succ, s_red, _ = G.reduce_batch(f, s, t)
    first, back = G.distinct_instances(succ, s_red)
    assert len(first) == 12                                   # 36 instances, f(t) forgotten
    assert (succ[first][back] == succ).all() and (s_red[first][back] == s_red).all()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_functional_reachable_batch_equals_the_walk(n):
    f, s, t = G.reduction_domain(n)
    got = G.functional_reachable_batch(f, s, t)
    assert got.tolist() == [G.functional_reachable(fi, a, b) for fi, a, b in zip(f, s, t)]


@pytest.mark.parametrize("n", [2, 4])
def test_sorted_scan_batch_equals_path_endpoint_on_reduced_instances(n):
    f, s, t = G.reduction_domain(n)
    succ, s_red, F = G.reduce_batch(f, s, t)
    got = G.sorted_scan_batch(succ, s_red)
    assert got.tolist() == [G.path_endpoint(g, int(a)) for g, a in zip(succ, s_red)]
    # the reduction preserves reachability: the scan ends in F exactly when t is reachable
    assert ((got == F) == G.functional_reachable_batch(f, s, t)).all()


def test_sorted_scan_batch_misses_a_path_out_of_order():
    # the scan reads sources in increasing order: 2 -> 1 -> 3 is not followed past 1
    succ = np.array([[0, 3, 1, 0]])
    assert G.sorted_scan_batch(succ, np.array([2])).tolist() == [1]
