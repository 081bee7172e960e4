"""lib.companion.benchmark: curves check agreement before timing, stop a side at the cap, fit
growth exponents; results land in results/bench/<name>.json."""
import json

import pytest

from lib.companion import benchmark, paths


def test_median_times_runs_each_repeat():
    calls = {"a": 0, "b": 0}
    runs = {k: (lambda k=k: calls.__setitem__(k, calls[k] + 1)) for k in calls}
    medians = benchmark.median_times(runs, repeats=3)
    assert calls == {"a": 3, "b": 3} and set(medians) == {"a", "b"}
    assert all(t >= 0 for t in medians.values())


def test_write_puts_json_under_results_bench(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    target = benchmark.write("x_kernel", {"ratio": 2.5})
    assert target == tmp_path / "bench" / "x_kernel.json"
    assert json.loads(target.read_text()) == {"ratio": 2.5}


@pytest.mark.parametrize("power", [0.0, 1.0, 2.0])
def test_growth_exponent_recovers_a_power_law(power):
    sizes = [2 ** k for k in range(1, 9)]
    exp, fitted = benchmark.growth_exponent(sizes, [3.0 * s ** power for s in sizes])
    assert exp == pytest.approx(power, abs=1e-12)
    assert fitted == [32, 256]                                   # the geometric upper half


def test_growth_exponent_needs_two_points():
    assert benchmark.growth_exponent([8], [1.0]) == (None, [])


def test_curve_refuses_disagreeing_sides_before_timing():
    calls = []

    def prepare(n):
        return {"naive": lambda: calls.append(n) or n, "fast": lambda: n + (n == 4)}
    with pytest.raises(SystemExit, match="x = 4: naive and fast disagree"):
        benchmark.curve("x", [2, 4, 8], prepare, lambda a, b: a == b, repeats=2)
    assert calls == [2, 2, 2, 4]                     # size 2 checked and timed, 4 only checked


def test_curve_stops_a_side_past_the_cap_and_keeps_the_rest(monkeypatch):
    clock = [0.0]                                 # a fake clock, advanced by the runs
    monkeypatch.setattr(benchmark.time, "perf_counter", lambda: clock[0])
    calls = {"slow": [], "fast": []}

    def prepare(n):
        def slow():
            calls["slow"].append(n)
            clock[0] += 0.02 * n
        def fast():
            calls["fast"].append(n)
            clock[0] += 0.001
        return {"slow": slow, "fast": fast}
    c = benchmark.curve("n", [1, 2, 4], prepare, lambda a, b: True, repeats=3, cap_s=0.03)
    assert c["capped_after"] == {"slow": 2}
    assert sorted(set(calls["slow"])) == [1, 2] and calls["slow"].count(2) == 1  # not repeated
    assert c["sides"]["slow"]["sizes"] == [1, 2] and c["sides"]["slow"]["samples"] == [3, 1]
    assert c["sides"]["fast"]["sizes"] == [1, 2, 4]
    assert c["agreement_checked_at"] == [1, 2]                   # one side left at 4
    assert c["largest_common_size"] == {"fast": 2}
    assert c["sides"]["slow"]["median_s"] == pytest.approx([0.02, 0.04])
    assert c["sides"]["fast"]["median_s"] == pytest.approx([0.001] * 3)
    assert c["ratio_at_largest_common"]["slow_over_fast"] == pytest.approx(40.0)


def test_curve_ratio_is_at_the_largest_size_both_sides_ran():
    c = benchmark.summarise("n", [1, 2, 4], {
        "ref": {"sizes": [1, 2], "median_s": [2.0, 8.0], "samples": [3, 1], "bound_s": []},
        "fast": {"sizes": [1, 2, 4], "median_s": [1.0, 2.0, 4.0], "samples": [3, 3, 3],
                 "bound_s": []}}, {"ref": 2}, [1, 2], 5.0, 3)
    assert c["ratio_at_largest_common"] == {"ref_over_fast": 4.0}
    assert c["largest_common_size"] == {"fast": 2}
    assert c["sides"]["fast"]["exponent"] == pytest.approx(1.0)
    assert "bound_s" not in c["sides"]["ref"]                    # no bound given, none kept


def test_bound_is_the_slower_of_arithmetic_and_memory():
    rates = {"gemm_flops_per_s": 1e9, "gemm32_flops_per_s": 4e9, "copy_bytes_per_s": 1e8}
    assert benchmark.Bound(flops=2e9, bytes=1e8).seconds(rates) == 2.0
    assert benchmark.Bound(flops=1e6, bytes=3e8).seconds(rates) == 3.0
    assert benchmark.Bound(flops=2e9, dtype="float32").seconds(rates) == 0.5


def test_write_curves_records_the_machine_and_the_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    c = benchmark.curve("n", [1, 2], lambda n: {"a": lambda: n, "b": lambda: n},
                        lambda x, y: x == y, repeats=1,
                        bound=lambda n, side: benchmark.Bound(flops=n))
    target = benchmark.write_curves("x_kernel", "k", "n flops", {"n": c}, d=3)
    saved = json.loads(target.read_text())
    assert saved["bound"] == "n flops" and saved["d"] == 3
    assert set(saved["machine"]) == {"gemm_flops_per_s", "gemm32_flops_per_s",
                                     "copy_bytes_per_s", "cores"}
    assert len(saved["curves"]["n"]["sides"]["a"]["bound_s"]) == 2
