"""The paper profile's code path at smoke size (issue 45): notebook 03's (seed, decoder) runs as
sweep runs on local subprocesses, as `executor: local` in the paper profile sends them, give the
losses and test readings the same runs give in the kernel; so the paper profile cannot rot
unseen."""
import math
import pickle

from lib.companion import params, paths
from lib.ttfs_snn import experiment

NOTEBOOK = "ttfs_snn/03_decoder_latency"
TINY = {"T": 4, "n_init": 8, "n_train": 40, "n_test": 20, "batch": 16, "epochs": 2, "seeds": 1,
        "decoders": ["weighted_spikes", "count"]}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.hidden, cfg.jobs()) == ("local", 2, [1024], 2)
    grid = experiment.decoder_grid(cfg)
    assert grid == [(0, "weighted_spikes"), (0, "count")]
    local = experiment.decoder_runs(cfg, NOTEBOOK, grid)
    inline = experiment.decoder_runs(cfg.model_copy(update={"executor": "inline"}), NOTEBOOK,
                                     grid)
    steps = cfg.epochs * math.ceil(cfg.n_train / cfg.batch)       # 2 epochs of 3 batches
    for (_, dec), a, b in zip(grid, local, inline):
        assert len(a.losses) == steps
        assert pickle.dumps(a) == pickle.dumps(b), dec      # every loss and reading, byte for byte
