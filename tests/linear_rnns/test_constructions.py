"""The ReLU counter RNN for sorted DGC (spec §4.1) and the reduction (§4.2)."""
import numpy as np
import pytest

from lib.linear_rnns import constructions as C
from lib.linear_rnns import graphs as G
from lib.linear_rnns import naive


def _run(variant, inst, form="endpoint", order="sorted"):
    net = C.build(variant)
    toks, lens = G.pad_streams([G.stream(g, s, t, form, order) for g, s, t in inst])
    return C.accept(net, C.run(net, toks, lens)[0])


def test_exhaustive_counts():
    # spec §4.1 [V]: sum_k k! k^2 = 29,367 instances for k <= 6
    assert len(G.exhaustive_instances(6)) == 29367
    assert [len(G.all_graphs(k)) for k in range(1, 7)] == [1, 2, 6, 24, 120, 720]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_endpoint_and_reach_match_references(k):
    inst = [(g, s, t) for g in G.all_graphs(k) for s in range(1, k + 1) for t in range(1, k + 1)]
    ep = np.array([G.path_endpoint(g, s) == t for g, s, t in inst])
    reach = np.array([G.bfs_reachable(g, s, t) for g, s, t in inst])
    assert (_run("endpoint", inst) == ep).all()
    assert (_run("reach", inst, "reach") == reach).all()


def test_network_equals_machine_table_and_single_loop():
    rng = np.random.default_rng(4)
    inst = G.random_instances(40, 9, rng)
    for variant, rules, form, q0 in (("endpoint", C.RULES_ENDPOINT, "endpoint", "SRC"),
                                     ("reach", C.RULES_REACH, "reach", "TGT0")):
        net = C.build(variant)
        streams = [G.stream(g, s, t, form) for g, s, t in inst]
        toks, lens = G.pad_streams(streams)
        batch = C.run(net, toks, lens)[0]
        for i, x in enumerate(streams):
            q, S, I, T, F = naive.counter_machine(rules, x, q0)
            single = naive.counter_rnn_single(net, x)
            assert single == batch[i].tolist()
            assert batch[i, C.Q[q]] == 1 and batch[i, len(C.STATES):].tolist() == [S, I, T, F]


def test_known_counterexample_endpoint_vs_reach():
    # 1 -> 2 -> 3, s = 1, t = 2: reachable, but the path ends at 3 (t is not a sink)
    g = G.chain(3)
    assert G.bfs_reachable(g, 1, 2) and G.path_endpoint(g, 1) == 3
    assert not _run("endpoint", [(g, 1, 2)])[0] and _run("reach", [(g, 1, 2)], "reach")[0]


def test_chains():
    for k in (1, 7, 50):
        assert _run("endpoint", [(G.chain(k), 1, k)])[0]
        if k > 1:
            assert not _run("endpoint", [(G.chain(k, broken=k // 2), 1, k)])[0]


def test_no_guard_errors_k5():
    # spec §4.1 [S1]: removing the I != 0 guard gives 636 errors on k = 5
    inst = [(g, s, t) for g in G.all_graphs(5) for s in range(1, 6) for t in range(1, 6)]
    ep = np.array([G.path_endpoint(g, s) == t for g, s, t in inst])
    assert int((_run("no_guard", inst) != ep).sum()) == 636


@pytest.mark.parametrize("n", [1, 2, 3])
def test_reduction_exhaustive(n):
    for f in G.all_partial_functions(n):
        for s in range(n):
            for t in range(n):
                succ, s2, F = G.reduce_to_sorted(f, s, t)
                assert all(l < r for l, r in G.edges(succ))       # sorted forward edges
                assert succ[F] == 0                               # the target is a sink
                assert G.bfs_reachable(succ, s2, F) == G.functional_reachable(f, s, t)


def test_batched_run_equals_iterated_step():
    # the batched float64 kernel equals the int64 one-step definition with the state held beyond
    # each end, on streams of very different lengths (including one of length 1)
    rng = np.random.default_rng(7)
    inst = G.random_instances(30, 15, rng) + [(G.chain(1), 1, 1)]
    for variant, form in (("endpoint", "endpoint"), ("reach", "reach"), ("no_guard", "endpoint")):
        net = C.build(variant)
        toks, lens = G.pad_streams([G.stream(g, s, t, form) for g, s, t in inst])
        state, peak = C.initial_state(net, len(inst)), 0
        for t in range(toks.shape[1]):
            state = np.where((t < lens)[:, None], C.step(net, state, toks[:, t]), state)
            peak = max(peak, int(np.abs(state[:, len(C.STATES):len(C.STATES) + 3]).max()))
        got, got_peak = C.run(net, toks, lens)
        assert got.dtype == np.int64 and got.tolist() == state.tolist() and got_peak == peak


def test_run_empty_batch():
    net = C.build("endpoint")
    state, peak = C.run(net, np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64))
    assert state.shape == (0, len(C.STATES) + 4) and peak == 0


def test_run_picks_an_exact_float_or_refuses(monkeypatch):
    net = C.build("endpoint")
    toks, lens = G.pad_streams([G.stream(G.chain(3), 1, 3)])              # 16 tokens
    monkeypatch.setattr(C, "EXACT_FLOAT", {np.float32: 8, np.float64: 32})
    assert C.accept(net, C.run(net, toks, lens)[0]).tolist() == [True]   # float64 here
    monkeypatch.setattr(C, "EXACT_FLOAT", {np.float32: 8, np.float64: 16})
    with pytest.raises(ValueError, match="exact float64 range"):
        C.run(net, toks, lens)


def _instances_for_compiled():
    rng = np.random.default_rng(5)
    inst = G.exhaustive_instances(4) + G.random_instances(40, 12, rng)
    inst += [(G.chain(k, broken=b), 1, k) for k in (3, 17, 40) for b in (None, k // 2)]
    return inst


@pytest.mark.parametrize("variant", ["endpoint", "reach", "linearised", "no_guard"])
@pytest.mark.parametrize("form", ["endpoint", "reach"])
def test_run_compiled_equals_run(variant, form):
    net, inst = C.build(variant), _instances_for_compiled()
    succ = G.succ_matrix([g for g, _, _ in inst])
    toks, lens = G.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst], form=form)
    want, want_top = C.run(net, toks, lens)
    got, got_top = C.run_compiled(net, toks, lens)
    assert (got == want).all() and got_top == want_top


def test_run_compiled_on_long_chains_accepts_and_rejects():
    net = C.build("endpoint")
    inst = [(G.chain(k, broken=b), 1, k) for k in (100, 300) for b in (None, k // 2)]
    succ = G.succ_matrix([g for g, _, _ in inst])
    toks, lens = G.token_matrix(succ, [x[1] for x in inst], [x[2] for x in inst])
    assert C.accept(net, C.run_compiled(net, toks, lens)[0]).tolist() == [True, False, True, False]
