import torch

from lib.completep_rl import adam


def test_ensemble_adam_equals_separate_torch_adams():
    """Per-member LR x per-tensor multiplier, 20 steps in float64 (spec §5)."""
    gen = torch.Generator().manual_seed(0)
    lr = torch.tensor([1e-3, 3e-2, 1e-1], dtype=torch.float64)
    mult = {"a": 1.0, "b": 0.25}
    w = {"a": torch.randn(3, 4, 2, generator=gen, dtype=torch.float64).requires_grad_(),
         "b": torch.randn(3, 5, generator=gen, dtype=torch.float64).requires_grad_()}
    refs = [{k: v.detach()[e].clone().requires_grad_() for k, v in w.items()} for e in range(3)]
    opts = [torch.optim.Adam([{"params": [r[k]], "lr": float(lr[e]) * mult[k]} for k in r],
                             eps=1e-6, foreach=False) for e, r in enumerate(refs)]
    ours = adam.EnsembleAdam(w, lr, mult, eps=1e-6)
    target = torch.randn(4, 5, generator=gen, dtype=torch.float64)

    def loss(a, b):
        return ((a.sum(-1)[..., :, None] * b[..., None, :] - target) ** 2).sum()

    for _ in range(20):
        for v in w.values():
            v.grad = None
        loss(w["a"], w["b"]).backward()
        ours.step()
        for r, o in zip(refs, opts):
            o.zero_grad()
            loss(r["a"], r["b"]).backward()
            o.step()
    for e, r in enumerate(refs):
        for k in w:
            assert (w[k][e] - r[k]).abs().max() <= 1e-10
