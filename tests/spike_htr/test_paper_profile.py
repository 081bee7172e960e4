"""The paper profile's code path at smoke size (issue 45): notebook 01's training chains and
notebook 02's (stream, seed) SNNs as sweep runs on local subprocesses, as `executor: local` in
the paper profile sends them, give the weights and histories the same runs give in the kernel;
so the paper profile cannot rot unseen."""
import torch

from lib.companion import params, paths
from lib.spike_htr import train
from lib.spike_htr.model import Arch

SIZES = {"n_train": 32, "n_test": 10, "n_eval": 10, "channels": [4, 8, 12], "d": 8,
         "blocks": 1, "batch": 4, "ann_steps": 4, "snn_steps": 4, "snn_check_at": 2,
         "reduce_from": 2, "eval_every": 2}


def same(a: dict[str, train.Result], b: dict[str, train.Result]) -> None:
    """Equal job names, histories and weights, tensor bytes included."""
    assert list(a) == list(b)
    for name in a:
        assert a[name].history == b[name].history, name
        assert all(torch.equal(a[name].state[k], b[name].state[k]) for k in a[name].state)


def test_paper_profile_chains_on_local_processes_equal_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    notebook = "spike_htr/01_synthetic_lines_ctc"
    cfg = params.resolve(notebook, "paper", SIZES)
    assert (cfg.executor, cfg.workers, cfg.jobs()) == ("local", 2, 3)
    common = dict(batch=cfg.batch, n_train=cfg.n_train, eval_every=cfg.eval_every,
                  n_eval=cfg.n_eval, steps=cfg.ann_steps)
    arch = Arch(channels=tuple(cfg.channels), d=cfg.d, blocks=cfg.blocks, T=cfg.T)
    chains = [[train.Job("ann", arch, snapshot_at=cfg.reduce_from, **common),
               train.Job("ann_reduce", arch, resume=("ann", cfg.reduce_from),
                         reduce_r=cfg.reduce_r, **common)],
              [train.Job("snn", Arch(**{**vars(arch), "spiking": True}), **common)]]
    local = train.run_all(chains, cfg, notebook)
    inline = train.run_all(chains, cfg.model_copy(update={"executor": "inline"}), notebook)
    assert list(local) == ["ann", "ann_reduce", "snn"]
    same(local, inline)


def test_paper_profile_streams_compare_on_local_processes():
    cfg = params.resolve("spike_htr/02_inkcoder_stream", "paper", {"seeds": 1})
    assert (cfg.executor, cfg.compare, cfg.jobs()) == ("local", True, 2)
