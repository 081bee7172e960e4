"""The batched field: a replica does not depend on what is batched beside it, the time field is
causal, the frequency field's phasor is unit, and a short sweep of every arm trains."""
import numpy as np
import torch

from lib.companion import paths
from lib.infer import fields, scene, train
from lib.infer.schema import Fields
from tests.conftest import assert_close

DIMS = dict(features=4, sigma=6.0, width=8, depth=2)


def test_replica_is_independent_of_its_batch():
    g = [torch.Generator().manual_seed(s) for s in (3, 7)]
    both = fields.BatchedField(g, d_out=5, **DIMS)
    alone = fields.BatchedField([torch.Generator().manual_seed(7)], d_out=5, **DIMS)
    p = torch.rand(6, 2, generator=torch.Generator().manual_seed(0))
    # float32 baddbmm on a batch of 2 and of 1: the same sums, maybe blocked differently
    assert_close("replica 7", alone(p)[0].detach(), both(p)[1].detach(), rtol=0, atol=1e-6)


def test_time_field_is_causal_and_freq_phasor_unit():
    g = [torch.Generator().manual_seed(0)]
    tf = fields.TimeField(fields.BatchedField(g, d_out=16, **DIMS), 32, 1.0)
    p = torch.rand(3, 2, generator=torch.Generator().manual_seed(1))
    h = torch.fft.irfft(tf.spectrum(p).detach().to(torch.complex128), n=32)
    assert float(h[..., 17:].abs().max()) <= 1e-6           # float32 FFT rounding
    ff = fields.FreqField(fields.BatchedField(g, d_out=3 * 17, **DIMS), torch.zeros(17))
    _, c, s = ff.parts(p)
    assert_close("unit phasor", np.ones((1, 3, 17)), (c ** 2 + s ** 2).detach(), rtol=0,
                 atol=1e-5)


def test_every_arm_trains_and_predicts(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = Fields(**{**{k: v for k, (v, _) in Fields.SMOKE.items()},
                    "steps": 30, "width": 16, "features": 4})
    cab = scene.build(cfg)
    tr, _ = scene.split(cfg.grid ** 2, cfg.n_train, np.random.default_rng(0))
    run = train.train(cfg, cab, tr, [0, 1], "infer/02_field_comparison")
    assert [a.name for a in run.arms] == ["T", "F", "F+KK λ=1", "F+KK+W"]
    assert run.spectra.shape == (4, 2, cfg.grid ** 2, cfg.n_fft // 2 + 1)
    assert np.all(run.loss[..., -1] < run.loss[..., 0])      # every arm's and seed's loss fell
    # the seeds' runs were put back in their places: seed 1's T equals a run of it alone
    alone = train.fit(cfg, train.data(cab, tr, cfg.n_fft), run.arms[0], 1)
    assert run.spectra[0, 1].tobytes() == alone.spectra.tobytes()
