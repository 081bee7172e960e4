"""The paper profile's code path at smoke size (issue 45): notebook 02's (T_ft, seed, arm)
fine-tuning runs as sweep runs on local subprocesses, as `executor: local` in the paper profile
sends them, give the histories, accuracies and fine-tuned weights the same runs give in the
kernel; so the paper profile cannot rot unseen."""
import numpy as np
import torch

from lib.ann2snn_cka import ann, experiment, finetune
from lib.companion import params, paths

NOTEBOOK = "ann2snn_cka/02_closed_loop_finetune"
TINY = {"T_ft": [2], "T_eval": 3, "steps": 2, "ft_batch": 8, "n_train": 20, "n_test": 10,
        "arms": ["kl_only", "kl_cka"], "chunk": 5}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.seeds, cfg.jobs()) == ("local", 2, 5, 10)  # 5 seeds
    torch.manual_seed(0)
    source = experiment.Source(ann.state_arrays(ann.CNN()), (0.3, 0.3, 1.0), cfg.v0, cfg.alpha,
                               cfg.n_train, cfg.n_test, cfg.T_eval, cfg.chunk)
    recipe = finetune.Recipe(T=2, steps=cfg.steps, batch=cfg.ft_batch, lr=cfg.ft_lr, tau=cfg.tau,
                             kd_alpha=cfg.kd_alpha, cka_beta=cfg.cka_beta, block=cfg.ft_block)
    jobs = [experiment.Job(source, arm, cfg.seed, np.array([0.2, 0.3, 0.5]), recipe)
            for arm in cfg.arms]
    local = experiment.run_jobs(jobs, cfg, NOTEBOOK)
    inline = experiment.run_jobs(jobs, cfg.model_copy(update={"executor": "inline"}), NOTEBOOK)
    assert [len(r.history.total) for r in local] == [2, 2] and local[0].accuracy.shape == (3,)
    assert local[0].history.total != local[1].history.total           # the arms' losses differ
    for a, b in zip(local, inline):
        assert a.history == b.history and a.accuracy.tobytes() == b.accuracy.tobytes()
        assert all(a.weights[k].tobytes() == b.weights[k].tobytes() for k in source.ann)
        assert any(a.weights[k].tobytes() != source.ann[k].tobytes() for k in source.ann)
