"""The federated loop: with one client FedAvg is local training; a smoke-sized run is
deterministic and in range; both FRPA readings run."""
import numpy as np

from lib.graphp_fl import fed
from lib.graphp_fl.schema import Federated

SMALL = dict(n_clients=2, n_nodes=40, rounds=3, topo_every=2, topo_steps=3)


def test_fedavg_with_one_client_is_local_training():
    r = fed.run_seed(Federated(**{**SMALL, "n_clients": 1}), 0)
    i, j = fed.ARMS.index("local"), fed.ARMS.index("fedavg")
    assert np.array_equal(r.curve[:, i], r.curve[:, j])
    assert r.forgetting[j, 0] == 0.0 and r.acc[i, 0] == r.acc[j, 0]


def test_run_is_deterministic_and_in_range():
    a, b = (fed.run_seed(Federated(**SMALL), 1) for _ in range(2))
    assert np.array_equal(a.acc, b.acc) and np.array_equal(a.forgetting, b.forgetting)
    assert a.acc.shape == (len(fed.ARMS), 2) and ((a.acc >= 0) & (a.acc <= 1)).all()
    assert (a.prec_obs <= 1).all() and a.forgetting[fed.ARMS.index("local")].max() == 0


def test_ewc_reading_runs_and_differs():
    a = fed.run_seed(Federated(**SMALL), 2)
    b = fed.run_seed(Federated(**SMALL, frpa_variant="ewc"), 2)
    i = fed.ARMS.index("frpa")
    assert not np.array_equal(a.curve[:, i], b.curve[:, i])
    assert np.array_equal(a.curve[:, 0], b.curve[:, 0])           # local-only is untouched
