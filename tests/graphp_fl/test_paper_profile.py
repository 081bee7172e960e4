"""The paper profile's code path at smoke size (issue 45): notebook 02's seeds as sweep runs on
local subprocesses, as `executor: local` in the paper profile sends them, equal to the same runs
in the kernel; so the paper profile cannot rot unseen."""
import dataclasses

import numpy as np

from lib.companion import params, paths, sweep
from lib.graphp_fl import fed

NOTEBOOK = "graphp_fl/02_federated_sbm"
TINY = {"n_seeds": 2, "n_nodes": 40, "rounds": 2, "topo_every": 2, "topo_steps": 2,
        "local_epochs": 1}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.n_clients, cfg.jobs()) == ("local", 10, 2)   # the paper's clients
    grid = [(cfg, s) for s in range(cfg.n_seeds)]
    local = sweep.run_params(fed.run_seed, grid, cfg, NOTEBOOK, progress=False)
    inline = sweep.run(fed.run_seed, grid, tmp_path / "inline", "inline", progress=False)
    for a, b in zip(local, inline):
        for f in dataclasses.fields(a):
            assert np.asarray(getattr(a, f.name)).tobytes() == \
                np.asarray(getattr(b, f.name)).tobytes(), f.name
