"""The paper profile's code path at smoke size (issue 45): notebook 02's network shapes as sweep
runs on local subprocesses, as `executor: local` in the paper profile sends them, give the scores,
learning curves and trained actors the same runs give in the kernel; so the paper profile cannot
rot unseen."""
import torch

from lib.companion import params, paths, sweep
from lib.completep_rl import ppo, transfer

NOTEBOOK = "completep_rl/02_lr_transfer_ppo"
TINY = {"lr_exponents": [-2.0, -1.5], "widths": [8], "depths": [1, 2], "depth_width": 8,
        "iterations": 2, "n_envs": 2, "steps": 8, "max_steps": 10}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.seeds, cfg.jobs()) == ("local", 2, 5, 2)  # paper seeds
    proto = ppo.Protocol(cfg.n_envs, cfg.steps, cfg.iterations, cfg.epochs, cfg.minibatches,
                         cfg.clip, cfg.gamma, cfg.lam, cfg.vf_coef, cfg.max_steps, cfg.eps)
    plan = transfer.Sweep(cfg.shapes(), cfg.lr_exponents, cfg.seeds, proto, cfg.seed,
                          cfg.ntk_variant, getattr(torch, cfg.dtype))
    local_scores, local = transfer.run(plan, cfg, NOTEBOOK)
    assert not (sweep.folder(NOTEBOOK, "paper") / "runs").exists()   # inline reloads nothing
    inline_scores, inline = transfer.run(plan, cfg.model_copy(update={"executor": "inline"}),
                                         NOTEBOOK)
    assert list(local) == [(8, 1), (8, 2)] and len(local_scores) == 2 * 2 * 2 * 5
    assert local_scores.equals(inline_scores)
    for shape, a in local.items():
        b = inline[shape]
        assert a.curve.tobytes() == b.curve.tobytes()
        assert all(a.actor.weights[k].numpy().tobytes() == b.actor.weights[k].numpy().tobytes()
                   for k in a.actor.weights)
