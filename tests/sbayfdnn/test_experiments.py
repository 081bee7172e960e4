"""lib/sbayfdnn/comparison.py and consistency.py on tiny configurations: shapes, methods, the
batched layout (each cell's restarts, then FDNN), determinism."""
import numpy as np

from lib.sbayfdnn import comparison, consistency, schema

TINY = dict(n_train=30, n_test=20, reps=2, links=["sin", "square"], steps=5, restarts=2,
            width=8, hidden=4, lasso_cv=3)


def test_comparison_tables():
    cfg = schema.Comparison(**TINY)
    out = comparison.run(cfg)
    assert len(out.table) == 2 * 2 * 3
    assert set(out.table.method) == {"FLM + lasso", "FDNN", "sBayFDNN"}
    assert out.pips.shape == (2, 2, 24) and out.W1.shape == (2, 2, 8, 24)
    assert np.isfinite(out.table[["mse", "tpr", "fpr", "iou"]].to_numpy()).all()
    again = comparison.run(cfg)
    assert out.table.equals(again.table)


def test_consistency_tables():
    cfg = schema.Consistency(snrs=[1.0, 5.0], ns=[30, 60], reps=2, n_test=20, steps=5,
                             restarts=2, width=8, hidden=4)
    out = consistency.run(cfg)
    assert len(out.table) == 2 * 2 * 2 and out.pips.shape == (2, 2, 2, 24)
    assert not np.isnan(out.pips).any()
    assert out.table.coverage.between(0, 1).all() and (out.table.half_width > 0).all()
