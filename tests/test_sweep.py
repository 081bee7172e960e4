"""The sweep engine (lib.companion.sweep, issue 45): one small grid through the three local modes
gives the same bytes; a sweep cut short resumes without re-running finished runs; a failed run is
named; bad settings are refused before any run."""
import os
import time
from pathlib import Path

import numpy as np
import pytest

from lib.companion import params, sweep


def draw(seed: int, n: int, log: str = "") -> dict:
    """A grid point: a few seeded draws (a log file, when given, gets one line per call, and a
    `stop` file beside it makes the call fail, as an interruption would)."""
    if log:
        with open(log, "a") as f:
            f.write(f"{seed}\n")
        if (Path(log).parent / "stop").exists() and seed == 2:
            raise RuntimeError("interrupted")
    rng = np.random.default_rng(seed)
    return {"seed": seed, "x": rng.standard_normal(n), "mean": float(rng.random(n).mean())}


GRID = [(s, 5) for s in range(4)]


def as_bytes(results: list[dict]) -> bytes:
    """The values of a sweep's results, in order, as bytes (the arrays' raw float64 bytes, the
    scalars' exact repr): what a notebook would write, free of pickle's object bookkeeping."""
    return b"".join(f"{r['seed']}|{r['mean']!r}|".encode() + r["x"].tobytes() for r in results)


@pytest.mark.parametrize("kind", ["debug", "local"])
def test_every_local_mode_returns_the_same_bytes_in_grid_order(tmp_path, kind):
    inline = sweep.run(draw, GRID, tmp_path / "inline", "inline", progress=False)
    other = sweep.run(draw, GRID, tmp_path / kind, kind, workers=2, progress=False)
    assert [r["seed"] for r in inline] == [0, 1, 2, 3]
    assert as_bytes(other) == as_bytes(inline)
    assert not (tmp_path / kind / "runs").exists()        # complete: no run files to resume
    assert (tmp_path / kind / "jobs").is_dir()            # submitit's job logs are kept
    assert not (tmp_path / "inline").exists()             # nothing kept: no empty folder left


def test_an_interrupted_sweep_resumes_without_rerunning_finished_runs(tmp_path):
    log = tmp_path / "calls.log"
    (tmp_path / "stop").touch()
    grid = [(s, 5, str(log)) for s in range(4)]
    labels = [f"seed={s}" for s in range(4)]
    with pytest.raises(sweep.SweepError, match=r"run seed=2 failed: RuntimeError: interrupted"):
        sweep.run(draw, grid, tmp_path / "sw", "inline", labels=labels, progress=False)
    assert len(list((tmp_path / "sw" / "runs").glob("*.pkl"))) == 2   # seeds 0 and 1 saved
    (tmp_path / "stop").unlink()
    resumed = sweep.run(draw, grid, tmp_path / "sw", "inline", labels=labels, progress=False)
    assert log.read_text().split() == ["0", "1", "2", "2", "3"]     # 0 and 1 ran once
    fresh = sweep.run(draw, grid, tmp_path / "fresh", "inline", labels=labels, progress=False)
    assert as_bytes(resumed) == as_bytes(fresh)


def test_a_failed_subprocess_run_is_named(tmp_path):
    (tmp_path / "stop").touch()
    grid = [(s, 3, str(tmp_path / "calls.log")) for s in range(3)]
    with pytest.raises(sweep.SweepError, match=r"run #2 draw\(2, 3, .*RuntimeError: interrupted"):
        sweep.run(draw, grid, tmp_path / "sw", "local", workers=1, progress=False)


def test_a_changed_grid_does_not_reload_another_grids_runs(tmp_path):
    assert sweep.run_names(draw, [(0, 5)], None) != sweep.run_names(draw, [(0, 6)], None)
    assert sweep.run_names(draw, [(0, 5)], ["a"]) != sweep.run_names(draw, [(0, 5)], ["b"])


@pytest.mark.parametrize("kind, workers, message", [
    ("dask", 1, r"executor = 'dask': allowed: one of inline, debug, local, slurm"),
    ("local", 0, r"workers = 0: allowed: an integer >= 1"),
])
def test_bad_settings_are_refused_before_any_run(tmp_path, kind, workers, message):
    with pytest.raises(ValueError, match=message):
        sweep.run(draw, GRID, tmp_path, kind, workers=workers, progress=False)
    assert not tmp_path.joinpath("runs").exists()


def test_slurm_settings_become_submitit_parameters():
    got = sweep.Slurm(partition="gpu", gpus=1, time_min=90, cpus=4).parameters(8, "calpro")
    assert got == dict(timeout_min=90, gpus_per_node=1, cpus_per_task=4,
                       slurm_array_parallelism=8, name="calpro", slurm_partition="gpu")
    with pytest.raises(ValueError, match=r"slurm gpus = -1: allowed: an integer >= 0"):
        sweep.Slurm(gpus=-1)


def test_local_stands_in_for_slurm_through_the_same_executor_path(tmp_path, monkeypatch):
    """COMPANION_SLURM_CLUSTER=local: the `slurm` kind's AutoExecutor with its array parameters,
    jobs as local processes (a rehearsal of a cluster run), giving the inline bytes."""
    monkeypatch.setenv(sweep.SLURM_CLUSTER_ENV, "local")
    inline = sweep.run(draw, GRID, tmp_path / "inline", "inline", progress=False)
    rehearsed = sweep.run(draw, GRID, tmp_path / "slurm", "slurm", workers=2, progress=False,
                          slurm=sweep.Slurm(partition="gpu", gpus=0, time_min=5))
    assert as_bytes(rehearsed) == as_bytes(inline)
    assert any((tmp_path / "slurm" / "jobs").iterdir())          # submitit's job logs


def test_an_unknown_stand_in_cluster_is_refused_naming_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv(sweep.SLURM_CLUSTER_ENV, "pbs")
    with pytest.raises(ValueError, match=r"COMPANION_SLURM_CLUSTER = 'pbs': allowed: one of "
                                         r"slurm, local"):
        sweep.executor("slurm", tmp_path, 1)


def overlap(folder: str, seed: int) -> int:
    """A grid point that counts the runs alive beside it (a marker file each, held a moment)."""
    mine = Path(folder) / f"alive-{os.getpid()}-{seed}"
    mine.touch()
    time.sleep(1.0)
    alive = len(list(Path(folder).glob("alive-*")))
    mine.unlink()
    return alive


def test_the_local_stand_in_for_slurm_holds_runs_to_the_worker_count(tmp_path, monkeypatch):
    """A SLURM array throttles itself; the local stand-in ignores the array's parallelism, so the
    engine holds it to `workers` as it does local runs."""
    monkeypatch.setenv(sweep.SLURM_CLUSTER_ENV, "local")
    marks = tmp_path / "marks"
    marks.mkdir()
    alive = sweep.run(overlap, [(str(marks), s) for s in range(3)], tmp_path / "sweep", "slurm",
                      workers=1, progress=False)
    assert alive == [1, 1, 1]


@pytest.mark.parametrize("partition", ["x" * 129, "gpu; rm -rf ~", "gpu long"])
def test_a_slurm_partition_is_a_short_name(partition):
    """The fuzz of params edits (tests/params_edits.py) found a 1 MB partition accepted."""
    with pytest.raises(params.ParamsError, match=r"slurm_partition"):
        params.resolve("calpro/02_sensitivity_bound", "default", {"slurm_partition": partition})
    assert params.resolve("calpro/02_sensitivity_bound", "default",
                          {"slurm_partition": "gpu,gpu-long"}).slurm_partition == "gpu,gpu-long"
