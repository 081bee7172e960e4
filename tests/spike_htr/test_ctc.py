"""CTC loss, greedy decoding and CER against the plain loops of lib/spike_htr/naive.py."""
import math

import numpy as np
import pytest
import torch

from lib.spike_htr import ctc, naive
from lib.spike_htr.alphabet import BLANK, CLASSES


def _case(rng, L, labels):
    lp = torch.from_numpy(rng.standard_normal((L, CLASSES))).log_softmax(-1)
    return lp, labels


def _torch_nll(lp, labels, zero_infinity=False):
    return float(ctc.loss(lp[:, None], torch.tensor(labels, dtype=torch.long),
                          torch.tensor([len(labels)]), reduction="sum",
                          zero_infinity=zero_infinity))


@pytest.mark.parametrize("L", [1, 5, 12])
@pytest.mark.parametrize("labels", [[], [3], [2, 2, 5, 5], [1, 4, 4, 9]])
def test_loss_equals_the_forward_recursion(L, labels):
    rng = np.random.default_rng([L, len(labels)])
    lp, y = _case(rng, L, labels)
    if L < ctc.min_length(y):
        assert math.isinf(_torch_nll(lp, y)) and math.isinf(naive.ctc_nll_naive(lp.numpy(), y))
        assert _torch_nll(lp, y, zero_infinity=True) == 0.0
    else:
        assert abs(_torch_nll(lp, y) - naive.ctc_nll_naive(lp.numpy(), y)) < 1e-9


def test_empty_label_is_minus_the_blank_log_probabilities():
    lp, _ = _case(np.random.default_rng(0), 7, [])
    assert _torch_nll(lp, []) == pytest.approx(-float(lp[:, BLANK].sum()), abs=1e-12)


def test_min_length_counts_repeats():
    assert ctc.min_length([1, 1, 2, 2, 2]) == 5 + 3
    assert ctc.min_length([]) == 0


def test_greedy_collapse_rule():
    assert ctc.collapse(np.array([1, 1, BLANK, 1])) == [1, 1]
    assert ctc.collapse(np.array([BLANK, BLANK])) == []
    rng = np.random.default_rng(1)
    lp = torch.from_numpy(rng.standard_normal((16, 6, CLASSES))).log_softmax(-1)
    fast = ctc.greedy_decode(lp)
    assert fast == [naive.greedy_naive(lp[:, b].numpy()) for b in range(6)]


def test_edit_distance_classic_pairs_and_naive():
    assert ctc.edit_distance("kitten", "sitting") == 3
    assert ctc.edit_distance("", "abc") == 3 and ctc.edit_distance("abc", "") == 3
    rng = np.random.default_rng(2)
    for _ in range(200):
        a = rng.integers(1, 4, rng.integers(0, 9)).tolist()
        b = rng.integers(1, 4, rng.integers(0, 9)).tolist()
        assert ctc.edit_distance(a, b) == naive.levenshtein_naive(a, b) == ctc.edit_distance(b, a)


def test_cer_refuses_empty_references():
    with pytest.raises(ValueError, match="no characters"):
        ctc.cer([[1]], [[]])
