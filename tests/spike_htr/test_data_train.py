"""The bundled lines and the training loop at tiny sizes (skipped without the data file)."""
import numpy as np
import pytest
import torch

from lib.companion import paths
from lib.spike_htr import alphabet, data, train
from lib.spike_htr.model import Arch

pytestmark = pytest.mark.skipif(not paths.data_file(data.LINES).exists(),
                                reason="data/spike_htr/lines.npz absent (make data)")
TINY = Arch(channels=(4, 4, 4), d=8, blocks=1)


def test_held_out_faces_never_train():
    held = set(data.held_out_faces())
    assert len(held) == 3
    for split in ("train", "test_same"):
        lines = data.load(split, 300)
        assert not held & {lines.font_names[i] for i in set(lines.font.tolist())}
    lines = data.load("test_heldout", 50)
    assert {lines.font_names[i] for i in set(lines.font.tolist())} <= held
    assert all(set(t) <= set(alphabet.SYMBOLS) for t in lines.texts)


def test_noise_does_not_depend_on_n():
    assert torch.equal(data.load("train", 40).images[:20], data.load("train", 20).images)


@pytest.mark.parametrize("kwargs, match", [({"split": "val", "n": 3}, "split"),
                                           ({"split": "train", "n": 7000}, "n = 7000"),
                                           ({"split": "train", "n": 3, "fonts": ("x.ttf",)},
                                            "x.ttf")])
def test_load_refuses_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        data.load(**kwargs)


def test_training_is_deterministic_and_checkpoints_round_trip(tmp_path):
    job = train.Job("tiny", TINY, steps=3, batch=4, n_train=32, eval_every=3, n_eval=10)
    a, b = train.run(job), train.run(job)
    assert all(torch.equal(a.state[k], b.state[k]) for k in a.state)
    train.save(tmp_path / "tiny.pt", job, a.state)
    net, loaded = train.load(tmp_path / "tiny.pt")
    assert loaded == job
    x = torch.rand(TINY.T, 2, 1, 32, 128)
    fresh = train.build(job)
    fresh.load_state_dict(a.state)
    with torch.no_grad():
        assert torch.equal(net(x)[0], fresh.eval()(x)[0])


def test_resume_needs_a_snapshot():
    first = train.Job("a", TINY, steps=2, batch=4, n_train=32, n_eval=10)
    second = train.Job("b", TINY, steps=4, batch=4, n_train=32, n_eval=10, resume=("a", 2))
    with pytest.raises(ValueError, match="resumes a at step 2"):
        train.run_chain([first, second])


def test_spiking_batch_loss_backpropagates():
    torch.manual_seed(0)
    net = train.build(train.Job("s", Arch(channels=(4, 4, 4), d=8, blocks=1, spiking=True)))
    lines = data.load("train", 4)
    loss = train.batch_loss(net, lines.images, lines.texts, "coarse2fine", 0.5, reduce_r=0.5)
    loss.backward()
    assert np.isfinite(float(loss.detach()))
