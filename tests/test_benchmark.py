"""lib.companion.benchmark: every run is repeated, results land in results/bench/<name>.json."""
import json

from lib.companion import benchmark, paths


def test_median_times_runs_each_repeat(monkeypatch):
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


def test_compare_refuses_disagreeing_kernels_and_writes_the_ratio(tmp_path, monkeypatch):
    import pytest
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    runs = {"naive": lambda: [1, 2], "fast": lambda: [1, 3]}
    with pytest.raises(SystemExit, match="naive and fast disagree"):
        benchmark.compare("x_kernel", "k", runs, lambda a, b: a == b, repeats=1)
    assert not (tmp_path / "bench").exists()                    # nothing timed, nothing written
    runs["fast"] = lambda: [1, 2]
    out = benchmark.compare("x_kernel", "k", runs, lambda a, b: a == b, repeats=2, d=8)
    saved = json.loads((tmp_path / "bench" / "x_kernel.json").read_text())
    assert saved == out and saved["d"] == 8 and saved["repeats"] == 2
    assert saved["ratio_naive_over_fast"] == saved["median_s"]["naive"] / saved["median_s"]["fast"]
