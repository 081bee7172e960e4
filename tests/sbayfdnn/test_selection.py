"""lib/sbayfdnn/selection.py: the three selection rules on hand-built first layers."""
import numpy as np

from lib.sbayfdnn import prior, selection


def test_by_pip_threshold():
    tau = prior.pip_threshold(4, 1e-5, 1e-5, 2e-3)
    W1 = np.zeros((4, 3))
    W1[:, 1] = np.sqrt(1.01 * tau / 4)        # just above tau*
    W1[:, 2] = np.sqrt(0.99 * tau / 4)        # just below
    q, mask = selection.by_pip(W1, 1e-5, 1e-5, 2e-3, 0.5)
    assert mask.tolist() == [False, True, False] and q[1] > 0.5 > q[2]


def test_share_of_max_and_nonzero():
    W1 = np.array([[1.0, 0.3, 0.2], [0.0, 0.0, 0.0]])   # norms^2 1, 0.09, 0.04
    assert selection.by_share_of_max(W1, 0.05).tolist() == [True, True, False]
    assert selection.by_nonzero(np.array([0.0, -1e-9, 2.0])).tolist() == [False, True, True]
