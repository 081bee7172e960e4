"""08's grid on the sweep engine (issue 15, 45): a tiny grid through submitit's local executor
(subprocess jobs), the same table in-process, groups of seeds, a refused executor name."""
import numpy as np
import pandas as pd
import pytest

from lib.linear_rnns import sweep, tasks, train


def _grid():
    p = tasks.parity(16, 1, 6, np.random.default_rng(0))
    rcs = [train.RunConfig(task="parity", family=f, steps=4, eval_every=2, batch=4,
                           train_bin=(1, 4), val_n=8, seed=s)
           for f in ("rnn", "deltanet") for s in (0, 1)]
    return rcs, {"parity": [p, p]}, {"parity": [[1, 6], [1, 6]]}


def test_groups_are_the_seeds_of_one_task_and_family():
    rcs, _, _ = _grid()
    assert [[(r.family, r.seed) for r in g] for g in sweep.groups(rcs)] == \
        [[("rnn", 0), ("rnn", 1)], [("deltanet", 0), ("deltanet", 1)]]


def test_tiny_grid_through_the_local_executor_resumes_and_matches_in_process(tmp_path):
    rcs, test, bins = _grid()
    ckpt = tmp_path / "ckpt"
    local = sweep.run_grid(rcs, test, bins, ckpt, tmp_path / "logs", kind="local", workers=2,
                           progress=False)
    assert list((tmp_path / "logs").rglob("*_log.out"))           # submitit wrote job logs
    assert len(list(ckpt.glob("*.pt"))) == 2                       # one checkpoint per group
    cols = ["task", "family", "seed", "steps", "bin", "accuracy", "val_acc"]
    again = sweep.run_grid(rcs, test, bins, ckpt, tmp_path / "logs", kind="debug", progress=False)
    pd.testing.assert_frame_equal(local[cols], again[cols])       # finished groups only reload
    fresh = sweep.run_grid(rcs, test, bins, None, tmp_path / "logs", kind="debug", progress=False)
    pd.testing.assert_frame_equal(local[cols], fresh[cols])       # subprocess = in-process
    assert local.family.tolist() == ["rnn"] * 4 + ["deltanet"] * 4


def test_unknown_executor_is_refused(tmp_path):
    rcs, test, bins = _grid()
    with pytest.raises(ValueError, match="sweep_executor = 'dask': allowed: one of local, slurm"):
        sweep.run_grid(rcs, test, bins, None, tmp_path, kind="dask", progress=False)
