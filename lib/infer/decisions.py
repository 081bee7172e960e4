"""What the spec leaves open (spec §7), each one swappable function, and the rules deciding the
statistical claims of notebook 02 (spec §3 NB2), fixed before the run. The rules are pure
functions of measured numbers; tests/infer/test_decisions.py shows each both ways."""
from __future__ import annotations

import numpy as np

from lib.companion.rules import seeds_needed

SEED_FRACTION = (2, 3)       # spec NB2: "paired difference > 0 in >= 2 of 3 seeds"


def perceptual_density(f: np.ndarray) -> np.ndarray:
    """Q2: the perceptual weight per Hz, the ERB-rate density 1 / ERB(f) (Glasberg-Moore);
    swap for a Bark density or A-weighting here."""
    return 1.0 / (24.7 * (4.37e-3 * np.asarray(f, float) + 1.0))


def phase_error(pred: np.ndarray, true: np.ndarray) -> np.ndarray:
    """Q4: |wrap(angle pred - angle true)| in rad, elementwise (wrapped absolute, not group
    delay): 0 for a match, pi/2 on average for an unrelated phase."""
    return np.abs(np.angle(pred * np.conj(true)))


def magnitude_error_db(pred: np.ndarray, true: np.ndarray) -> np.ndarray:
    """|20 log10(|pred| / |true|)| in dB, elementwise (spec NB2)."""
    return np.abs(20.0 * np.log10(np.abs(pred) / np.abs(true)))


def positive_in_most(diff: np.ndarray) -> bool:
    """Paired per-seed differences (oriented so that > 0 is the claim's direction) are > 0 in at
    least ceil(2n/3) of the n seeds (spec NB2: "> 0 in >= 2 of 3 seeds")."""
    diff = np.asarray(diff, float)
    return int((diff > 0).sum()) >= seeds_needed(len(diff), SEED_FRACTION)


def better_in_most(better: np.ndarray, worse: np.ndarray) -> bool:
    """The paired difference worse - better is > 0 in at least ceil(2n/3) of the n seeds."""
    return positive_in_most(np.asarray(worse, float) - np.asarray(better, float))


def decreasing_in_most(r: np.ndarray) -> bool:
    """r (seeds, lambdas in increasing order, lambda = 0 first) falls strictly along lambda in
    at least ceil(2n/3) of the n seeds (spec NB2: r decreases with lambda_KK)."""
    falls = np.all(np.diff(np.asarray(r, float), axis=1) < 0, axis=1)
    return int(falls.sum()) >= seeds_needed(len(falls), SEED_FRACTION)


def weighting_tradeoff(emph_w: float, emph_flat: float, notch_w: float, notch_flat: float) -> bool:
    """I3: the weighted arm's error is lower where its weights exceed the flat ones and higher
    inside the notched crossover band (means over seeds and held-out microphones)."""
    return emph_w < emph_flat and notch_w > notch_flat
