"""The flat-buffer AdamW and clipping against torch.optim.AdamW, LambdaLR's warm-up and
clip_grad_norm_, bit for bit, on both tiny PFNs over prior episodes, with the clip binding and
not."""
import numpy as np
import pytest
import torch

from lib.companion import params
from lib.graphpfn import experiment, tiny_pfn, train
from lib.graphpfn.flat_adamw import FlatAdamW

STEPS, WARMUP, LR = 12, 5, 3e-3


def _episodes():
    cfg = params.resolve("graphpfn/02_tiny_pfn", "smoke", {})
    grid, sizes = experiment.prior(cfg)
    rng = np.random.default_rng([cfg.seed, 2])
    return cfg, [train.episode(grid, rng, rng.uniform(*cfg.train_frac), **sizes)
                 for _ in range(STEPS)]


def _model(cfg, arm):
    tab, graph = tiny_pfn.pair(cfg.n_features, cfg.classes[1], 16, 2, cfg.heads, cfg.seed)
    return graph if arm == "graph_pfn" else tab


def _torch_run(cfg, episodes, arm, clip):
    model = _model(cfg, arm)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / WARMUP))
    losses = []
    for ep in episodes:
        loss = train.step_loss(model, ep)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        sched.step()
        losses.append(loss.item())
    return losses, model


@pytest.mark.parametrize("arm", ["graph_pfn", "tab_pfn"])
@pytest.mark.parametrize("clip", [1e-3, 1e3], ids=["clip-binds", "clip-idle"])
def test_flat_adamw_equals_torch_adamw_bit_for_bit(arm, clip):
    cfg, episodes = _episodes()
    want_losses, want = _torch_run(cfg, episodes, arm, clip)
    got = _model(cfg, arm)
    losses, _ = train.train_side_by_side({arm: got}, iter(episodes).__next__, STEPS, LR,
                                         WARMUP, clip)
    assert losses[arm] == want_losses
    for (name, a), b in zip(got.state_dict().items(), want.state_dict().values()):
        assert torch.equal(a, b), name


def test_gradients_land_in_the_flat_buffer():
    cfg, episodes = _episodes()
    model = _model(cfg, "tab_pfn")
    opt = FlatAdamW(model.parameters())
    train.step_loss(model, episodes[0]).backward()
    flat = torch.cat([p.grad.reshape(-1) for p in model.parameters()])
    assert torch.equal(flat, opt.grad) and opt.grad.abs().sum() > 0
    opt.zero_grad()
    assert all(p.grad is not None and not p.grad.any() for p in model.parameters())
