"""lib/ptnas/checks.py: each comparison reports a mismatch when there is one."""
import numpy as np

from lib.ptnas import checks, search


def test_sh_mismatches_catches_a_broken_sh(monkeypatch):
    real = search.successive_halving
    monkeypatch.setattr(search, "successive_halving",
                        lambda c, v, e, eta: (real(c, v, e, eta)[0], -1))
    assert checks.sh_mismatches(20, np.random.default_rng(0), (1, 3), 3) > 0
