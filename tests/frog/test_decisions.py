"""The rules deciding frog's claims (lib/frog/decisions.py), each both ways on hand-built
evidence (one replicate per row), the preconditions included."""
import math

import numpy as np

from lib.frog import decisions


def test_interval_rule_both_ways():
    # t_{0.975, 2} = 4.302653 (tables); sd 0.05, n 3 -> half width 0.1242: [0.2, 0.25, 0.3] shows
    assert math.isclose(decisions._interval_low([0.1, 0.2, 0.3], 0.95),
                        0.2 - 4.302653 * 0.1 / math.sqrt(3), rel_tol=1e-6)
    assert decisions.above_zero([0.2, 0.25, 0.3])
    assert not decisions.above_zero([0.3, -0.2, 0.1])             # mean > 0, interval spans 0
    assert not decisions.above_zero([0.2])                         # one seed shows nothing
    assert decisions.edge_beats_node([0.9, 0.85, 0.95], [0.6, 0.62, 0.7])
    assert not decisions.edge_beats_node([0.9, 0.6, 0.95], [0.6, 0.62, 0.7])
    assert decisions.rises([0.1, 0.12, 0.08]) and not decisions.rises([0.1, -0.12, 0.08])


def test_mean_rules_both_ways():
    assert decisions.catches_up([0.0, 0.02], [0.3, 0.2])
    assert not decisions.catches_up([0.3, 0.3], [0.3, 0.3])
    assert decisions.role_matters_more([0.3, 0.2], [0.0, 0.1])
    assert not decisions.role_matters_more([0.0, 0.1], [0.0, 0.1])
    assert decisions.gate_selects([0.6, 0.7], [0.8, 0.8], [0.7, 0.7])
    assert not decisions.gate_selects([0.4, 0.5], [0.8, 0.8], [0.7, 0.7])     # gate on node side
    assert not decisions.gate_selects([0.6, 0.7], [0.6, 0.6], [0.7, 0.7])     # worse than node
    assert decisions.fd_consistent([0.5, 0.6], [0.4, 0.5])
    assert not decisions.fd_consistent([0.5, 0.3], [0.4, 0.5])


def test_preconditions_both_ways():
    acc = np.array([[0.5, 0.61], [0.5, 0.61]])                    # (seeds, arms)
    assert decisions.learned(acc) and not decisions.learned(acc - 0.02)
    assert not decisions.learned(acc[:1])                          # one seed
    assert decisions.both_learned(acc, acc) and not decisions.both_learned(acc, acc - 0.02)
