"""The seed-batched net equals separate nets; training is deterministic and seed-paired."""
import numpy as np
import pytest
import torch

from lib.musa_pinn import geometry, residuals, train
from lib.musa_pinn.model import SeedMLP
from tests.musa_pinn.conftest import assert_close

BOX = geometry.Domain().box


def test_batched_net_equals_single_nets():
    both = SeedMLP([3, 5], 7, 2, BOX, dtype=torch.float64)
    xy = torch.rand(2, 11, 2, dtype=torch.float64)
    out = both(xy)
    for i, s in enumerate((3, 5)):
        one = SeedMLP([s], 7, 2, BOX, dtype=torch.float64)
        assert_close(f"seed {s}", one(xy[i:i + 1])[0], out[i], 0, 1e-15)   # same ops, same order


@pytest.mark.parametrize("depth", [1, 3])
def test_jet_equals_autograd(depth):
    """The forward-propagated values, gradients and Laplacians equal nested autograd's on the
    same float64 net (two exact routes: rounding only), on an odd point layout (S, 5, 3)."""
    net = SeedMLP([2, 9], 7, depth, BOX, dtype=torch.float64)
    xy = torch.rand(2, 5, 3, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    values, grads, lap = net.jet(xy, laplacian=True)
    x = xy.clone().requires_grad_(True)
    ref_values, ref_grads = residuals.value_and_grad(net, x)
    assert_close("values", ref_values.detach(), values.detach(), 0, 1e-15)
    assert_close("gradients", ref_grads.detach(), grads.detach(), 0, 1e-13)
    ref_lap = residuals.velocity_laplacian(ref_grads, x).detach()
    assert_close("laplacians", ref_lap, lap[..., :2].detach(), 0, 1e-12)
    assert_close("no laplacian asked", grads.detach(), net.jet(xy)[1].detach(), 0, 0)
    direction = torch.tensor([0.6, -0.8], dtype=torch.float64)
    along_values, along = net.directional(xy, direction)
    assert_close("directional values", values.detach(), along_values.detach(), 0, 0)
    assert_close("directional", (ref_grads * direction).sum(-1).detach(), along.detach(), 0, 1e-13)


def test_seed_losses_do_not_mix():
    net = SeedMLP([0, 1], 5, 2, BOX)
    out = net(torch.rand(2, 9, 2))
    out[0].sum().backward()
    assert all(float(p.grad[1].abs().max()) == 0.0 for p in net.parameters())


def setup(steps: int = 6) -> train.Setup:
    return train.Setup(re=20.0, width=6, depth=2, steps=steps, lr=1e-3, milestones=(0.5,),
                       gamma=0.3, bc_weight=10.0, n_boundary=9, n_colloc=13, quad=5,
                       counts={"large": 2, "meso": 3, "small": 3}, eval_every=3)


@pytest.mark.parametrize("form", ["strong", "weak"])
def test_fit_is_deterministic(form):
    dom = geometry.Domain()
    pts = geometry.sample_interior(dom, 17, np.random.default_rng(0))
    arms = [train.Arm("a", form)] if form == "strong" else \
        [train.Arm("w", "weak"), train.Arm("w2", "weak", True, ("large", "meso"))]
    runs = [train.fit(arms, setup(), dom, [0, 1], pts) for _ in range(2)]
    assert runs[0][1] == runs[1][1]
    assert runs[0][2].equals(runs[1][2])
    assert list(runs[0][2].step.unique()) == [3, 6]


def test_fit_refuses_mixed_forms():
    with pytest.raises(ValueError, match="one form"):
        train.fit([train.Arm("s", "strong"), train.Arm("w", "weak")], setup(),
                  geometry.Domain(), [0], np.zeros((1, 2)))


def test_arm_rejects_unknown_form_and_scale():
    with pytest.raises(ValueError, match="form"):
        train.Arm("x", "mixed")
    with pytest.raises(ValueError, match="scales"):
        train.Arm("x", "weak", scales=("huge",))


def test_draw_discs_counts_and_pools():
    dom = geometry.Domain()
    s = setup()
    rng = np.random.default_rng(1)
    pools = train.disc_pools(dom, s, s.counts, rng)
    assert {k: len(v) for k, v in pools.items()} == {"large": 40, "meso": 60, "small": 60}
    d = train.draw_discs(pools, s.counts, rng)
    assert len(d) == 8 and (dom.wall_distance(d.centres) >= d.radii - 1e-15).all()
