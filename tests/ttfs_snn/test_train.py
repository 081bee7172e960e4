"""lib/ttfs_snn/train.py, models.py, layerstats.py: determinism, shapes, the D3 and D4 facts."""
import pytest
import torch

from lib.ttfs_snn import coding, init, layerstats, models, train


def toy_data(n=64, d=49, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, d, generator=g)
    return x, (x[:, :5].sum(1) * 2).long().clamp(max=9)


def test_training_is_deterministic_and_lowers_the_loss():
    x, y = toy_data()
    setup = train.Setup(T=4, batch=16, epochs=3, lr=1e-2)
    runs = []
    for _ in range(2):
        net = models.mlp([49, 32, 10], norm=True)
        init.initialise(net, "ettfs_norm", coding.encode(x[:32], 4, "latency"),
                        gen=torch.Generator().manual_seed(0))
        runs.append(train.fit(net, x, y, setup, seed=1))
    assert runs[0] == runs[1]
    assert sum(runs[0][-4:]) < sum(runs[0][:4])
    ev = train.evaluate(net, x, y, setup)
    assert 0 <= ev["acc"] <= 1 and len(ev["anytime"]) == 4 and 0 <= ev["latency"] <= 4


def test_cnn_shapes_and_training_step():
    x, y = toy_data(n=8, d=784)
    net = models.cnn("first", norm=True)
    init.initialise(net, "ettfs_norm", train.inputs(net, x, 4, "latency", (28, 28)),
                    gen=torch.Generator().manual_seed(0))
    losses = train.fit(net, x, y, train.Setup(T=4, batch=4), seed=0, image_shape=(28, 28))
    assert len(losses) == 2
    with pytest.raises(ValueError, match="image shape"):
        train.inputs(net, x, 4, "latency")


def test_layer_statistics_obey_d3_and_d4():
    x, y = toy_data(n=32, d=100)
    net = models.mlp([100] + [64] * 6 + [10])
    spikes = coding.encode(x, 8, "latency")
    init.initialise(net, "kaiming", spikes, gen=torch.Generator().manual_seed(0))
    rows = layerstats.signal(net, spikes)
    assert all(r["violations"] == 0 and r["fired"] >= r["above"] for r in rows)
    grads = layerstats.gradients(net, spikes, y, "weighted_potential")
    assert [g["exact_zero"] for g in grads] == [g["input_silent"] for g in grads]
    assert grads[-1]["exact_zero"]                                # Kaiming: deep layers silent


def test_held_transmission_and_unknown_names_refused():
    net = models.mlp([4, 3], transmission="held")
    assert net.transmit(torch.tensor([[1.0], [0.0]])).flatten().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="transmission"):
        models.mlp([4, 3], transmission="graded")
    with pytest.raises(ValueError, match="pooling kind"):
        models.cnn("median")
    with pytest.raises(ValueError, match="optimiser"):
        train.optimiser(net, train.Setup(T=2, optimiser="lbfgs"))
