"""lib/ptnas/search.py against plain SH (spec S1, T4), the coordinator (T6), determinism (T8)."""
import numpy as np

from lib.ptnas import checks, naive, search, space


def test_sh_matches_naive_on_random_tables():
    assert checks.sh_mismatches(1000, np.random.default_rng(0), (1, 3, 9, 27), 3) == 0


def test_sh_cost_of_whole_space():
    # 155 -> 51 -> 17 -> 5 -> 1 on the (1, 3, 9, 27) ladder: 155 + 51*2 + 17*6 + 5*18
    assert search.sh_cost(155, (1, 3, 9, 27), 3) == 449
    assert search.sh_cost(1, (1, 3, 9, 27), 3) == 0


def test_sh_single_candidate_untrained():
    val = np.zeros((3, 2))
    assert naive.successive_halving([2], val, (1, 3), 3) == (2, 0)
    assert search.successive_halving([2], val, (1, 3), 3) == (2, 0)


def test_coordinator_is_maximal():
    options = search.plans([1, 2, 3, 5, 9, 15, 27, 45, 81, 155], 155, 30, 0.005, (1, 3, 9, 27), 3)
    for budget in (0.1, 5.0, 30.0, 100.0, 1000.0):
        plan = search.coordinator(budget, options)
        if plan is None:
            assert all(p.cost > budget for p in options)
            continue
        assert plan.cost <= budget
        assert all(p.cost > budget for p in options if p.k > plan.k)


def test_traces_deterministic_and_monotone():
    archs = space.enumerate_space([8, 16], 1, 2)
    final = np.random.default_rng(0).random(len(archs))
    a = search.evolution_trace(archs, final, np.random.default_rng(1), [8, 16], 1, 2, 27, 500.0)
    b = search.evolution_trace(archs, final, np.random.default_rng(1), [8, 16], 1, 2, 27, 500.0)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert np.all(np.diff(a[1]) >= 0)
    costs, inc = search.random_search_trace(np.arange(len(archs)), final, 27)
    assert inc[-1] == final.max()
    assert search.first_reach(costs, inc, final.max()) == 27 * (int(np.argmax(final)) + 1)
    assert np.isnan(search.incumbent_at(costs, inc, [1.0], np.nan)[0])
