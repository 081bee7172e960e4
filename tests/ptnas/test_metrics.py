"""lib/ptnas/metrics.py against sklearn and by hand."""
import numpy as np
import torch
from sklearn.metrics import roc_auc_score

from lib.ptnas import metrics


def test_auc_rows_matches_sklearn():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 50)
    s = rng.integers(0, 6, (3, 50)).astype(float)      # ties counted half
    ref = [roc_auc_score(y, row) for row in s]
    assert np.allclose(metrics.auc_rows(s, y), ref, atol=1e-12)


def test_accuracy_and_log_loss():
    logits = torch.tensor([[[2.0, 0.0], [0.0, 1.0]]])
    y = torch.tensor([0, 0])
    assert metrics.metric_rows(logits, y, "accuracy")[0] == 0.5
    ref = -np.mean([np.log(np.exp(2) / (np.exp(2) + 1)), np.log(1 / (1 + np.e))])
    assert abs(metrics.metric_rows(logits, y, "neg_log_loss")[0] + ref) <= 1e-12
