"""The rules deciding ttfs_snn's statistical and qualitative claims, with the spec's thresholds
(spec §3), fixed before the run. Pure functions of measured numbers;
tests/ttfs_snn/test_decisions.py shows each both ways."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

LN10 = math.log(10.0)           # the loss of uniform logits over 10 classes
FULL_EPOCH_STEPS = 79           # spec §3: one epoch of 10 000 images in batches of 128
GAUSS_FACTOR = 2.5              # init.gaussian_value: measured / g(p) within a factor 2.5 ...
GAUSS_MIN_INPUT = 0.01          # ... in hidden layers whose input fraction exceeds 0.01 (spec D3)
BALANCED_LOW, BALANCED_HIGH = 0.40, 0.65   # init.balanced: every layer's firing fraction
SGD_LEARNS_MAX = 2.25           # train.sgd_initnorm_learns: last-quarter loss <= 2.25
NOT_WORSE_MARGIN = 0.05         # train.adam_initnorm_not_worse: loss <= Kaiming's + 0.05
                                # (rules.not_worse with this margin)
LATENCY_MARGIN = 0.8            # decoder.earlier_output: weighted earlier than count by 0.8 steps
T95_FRAC = 0.95                 # t95: first t with A(t) >= 0.95 A(T-1)
TRAINED_ACC_MIN = 0.2           # precondition: twice chance (0.1) on the 10 classes
MINIATURE_ACC_MIN = 0.70        # acc.fmnist: spec §3 "expect 0.70-0.80 at the default budget"
PAPER_ACC_NEAR = 0.924          # acc.fmnist_paper_scale: within 0.5 points of the paper's 92.90


def full_epoch(steps: int) -> bool:
    """The run is at least the spec's one epoch on 10 000 images (its thresholds' setting)."""
    return steps >= FULL_EPOCH_STEPS


def gaussian_applies(input_fraction: float, hidden: bool = True) -> bool:
    """Layers where g is compared (spec D3): input fraction > 0.01, hidden layers (the recursion
    g runs over the hidden layers; the spec's measured ratios are hidden layers 1-3)."""
    return hidden and input_fraction > GAUSS_MIN_INPUT


def gaussian_agrees(measured: float, predicted: float) -> bool:
    """The measured fraction with V[T-1] >= theta lies within a factor 2.5 of g(p)."""
    if predicted <= 0:
        return measured == 0
    return predicted / GAUSS_FACTOR <= measured <= GAUSS_FACTOR * predicted


def balanced(fractions: Sequence[float]) -> bool:
    """Every firing fraction in [0.40, 0.65]."""
    return all(BALANCED_LOW <= f <= BALANCED_HIGH for f in fractions)


def sgd_learns(loss: float) -> bool:
    return loss <= SGD_LEARNS_MAX


def earlier_by_margin(weighted: Sequence[float], count: Sequence[float]) -> bool:
    """Mean latency of the weighted decoder below count's by at least 0.8 steps."""
    return float(np.mean(count)) - float(np.mean(weighted)) >= LATENCY_MARGIN


def earlier_every_seed(weighted: Sequence[float], count: Sequence[float]) -> bool:
    """The weighted decoder's value is below count's on every seed."""
    return len(weighted) == len(count) > 0 and all(w < c for w, c in zip(weighted, count))


def earlier_on_mean(weighted: Sequence[float], other: Sequence[float]) -> bool:
    """Mean of the weighted readout below the other's (spec NB03: shorter at both readouts)."""
    return float(np.mean(weighted)) < float(np.mean(other))


def not_later(weighted: Sequence[float], count: Sequence[float]) -> bool:
    """Mean t95 of the weighted decoder no later than count's."""
    return float(np.mean(weighted)) <= float(np.mean(count))


def no_accuracy_cost(weighted: Sequence[float], count: Sequence[float]) -> bool:
    """Mean accuracy of the weighted decoder at least count's."""
    return float(np.mean(weighted)) >= float(np.mean(count))


def tie_break_helps(with_tb: Sequence[float], without: Sequence[float]) -> bool:
    """The tie-break never lowers accuracy, on any run."""
    return all(a >= b for a, b in zip(with_tb, without))


def avg_not_worse_than_max(acc_avg: float, acc_max: float) -> bool:
    """The paper's advice: average pooling trains at least as well as max pooling."""
    return acc_avg >= acc_max


def trained(accuracies: Sequence[float]) -> bool:
    """Every run is at least twice chance."""
    return all(a >= TRAINED_ACC_MIN for a in accuracies)


def miniature_accuracy(acc: float) -> bool:
    return acc >= MINIATURE_ACC_MIN


def near_paper(acc: float) -> bool:
    return acc >= PAPER_ACC_NEAR
