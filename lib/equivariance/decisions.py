"""The rules that decide equivariance's statistical and qualitative claims (spec §2.1-2.2, §3.1,
§3.3, §4 E2 and E4-E8, §1.8).

Each rule takes numbers a notebook measured and returns whether its claim holds; `spearman`,
`loglog_slope`, `minimal_fibre_share` and `separation_masks` (and rules.seeds_needed with
SEED_SHARE) give the count or statistic a rule is stated in, so a notebook can show the same
number it is judged by.
Thresholds are arguments whose defaults are the named constants below, each with its source;
none is read off a run. Nothing here draws, trains or reads files, so every rule is tested on
hand-built inputs (tests/equivariance/test_decisions.py) and can be seen to fail.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from lib.companion.rules import seeds_needed

SEED_SHARE = (3, 5)     # "at least 3 of 5 seeds" (spec §4 E4), as a share of the seeds run
FIT_OK = 1.0e-3         # relative test MSE counted as a good fit (spec §4 E4)
LV_OK = 3.0e-2          # layer-1 LV error counted as linearly equivariant (spec §4 E4)
MIN_SPEARMAN = 0.5      # "a monotone trend" (spec §4 E4 scatter) as rank corr. (reconstructed)
RELU_MIN_SHARE = 0.25   # "sizeable": half the 10/20 identifiable draws of spec §2.2 (reconstructed)
GENERIC_MARGIN = 0.05   # generic unit norms / pair distances stay above this (reconstructed, §2.1)
FILTER_TYPES = ("self", "pair", "negated")  # the paper's three filter types (spec §3.1)
SLOPE_TOL = 0.15        # a log-log slope in 1 +- 0.15 is a linear response (reconstructed, §4 E8)
SEPARATION = 10.0       # delta >= 10 eps separated, <= eps / 10 degenerate (reconstructed, §4 E8)
O_EPS = 100.0           # an error below 100 eps is O(eps) (reconstructed, spec §4 E8)
O_ONE = 0.1             # an error above 0.1 is O(1) (the 0.1 of spec §6's bypass check)
RARE_SHARE = 1.0e-2     # ReLU unit active on < 1% of inputs: (nearly) dead (reconstructed, §4 E5)
DECAY = 1.0e-2          # "far below": two decades, smallest to largest n (reconstructed, §1.8)


def enough_seeds(passed: Sequence[bool], share: tuple[int, int] = SEED_SHARE) -> bool:
    """Do >= seeds_needed(len(passed), share) seeds pass? (spec §4 E4 "at least 3 of 5 seeds")"""
    return len(passed) > 0 and sum(bool(p) for p in passed) >= seeds_needed(len(passed), share)


def enough_below(values: Sequence[float], threshold: float,
                 share: tuple[int, int] = SEED_SHARE) -> bool:
    """Are enough seeds' values strictly below threshold? (spec §4 E4: fit and layer-1 LV)."""
    return enough_seeds([v < threshold for v in values], share)


def enough_above(values: Sequence[float], threshold: float,
                 share: tuple[int, int] = SEED_SHARE) -> bool:
    """Are enough seeds' values strictly above threshold? (spec §4 E4: controls > 0.3)."""
    return enough_seeds([v > threshold for v in values], share)


def projected_action_planted(hom_failing: Sequence[int], characters: Sequence[Sequence[int]],
                             planted: Sequence[Sequence[int]]) -> bool:
    """Is the projected action an exact homomorphism with the planted characters? (§4 E4, §1.8)"""
    same = tuple(tuple(int(x) for x in c) for c in characters) == \
        tuple(tuple(int(x) for x in p) for p in planted)
    return all(f == 0 for f in hom_failing) and same


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation of x and y (average ranks for ties): the trend statistic."""
    rx = pd.Series(np.asarray(x, dtype=float)).rank()
    ry = pd.Series(np.asarray(y, dtype=float)).rank()
    return float(rx.corr(ry))


def rises_with(x: Sequence[float], y: Sequence[float], min_rho: float = MIN_SPEARMAN) -> bool:
    """Does y rise with x: Spearman > min_rho, NaN failing? (spec §3.3, §4 E4; 0.5 reconstructed)"""
    return bool(spearman(x, y) > min_rho)


def median_greater(larger: Sequence[float], smaller: Sequence[float]) -> bool:
    """Is the median of `larger` strictly above that of `smaller`? (spec §3.3 wider students)."""
    return bool(np.median(larger) > np.median(smaller))


def penalty_lowers(with_penalty: Sequence[Sequence[float]],
                   without: Sequence[Sequence[float]]) -> bool:
    """Is each error's median lower with the soft penalty than without? (spec §4 E4 (e))"""
    return all(np.median(p) < np.median(q) for p, q in zip(with_penalty, without, strict=True))


def structure_tracks_fit(rel_mse: Sequence[float], lv1: Sequence[float], fit_ok: float = FIT_OK,
                         lv_ok: float = LV_OK) -> bool:
    """Is each LV1 < lv_ok exactly when rel. MSE < fit_ok? (spec §3.3 conclusion; §4 E4 values)"""
    return len(rel_mse) > 0 and all((v < lv_ok) == (m < fit_ok)
                                    for m, v in zip(rel_mse, lv1, strict=True))


def is_smallest(values: Mapping[str, float], name: str) -> bool:
    """Is values[name] <= every other value? (spec §4 E5: tanh's action the most monomial)."""
    return all(values[name] <= v for k, v in values.items() if k != name)


def any_positive(counts: Sequence[int]) -> bool:
    """Does some student have such a unit? (spec §4 E5: GELU bypass pairs, dead ReLU units)"""
    return any(c > 0 for c in counts)


def below_control(errors: Sequence[float], control: float) -> bool:
    """Is every trained-mirror LV error below the control mirror's? (spec §3.1 table, §4 E6)"""
    return len(errors) > 0 and all(e < control for e in errors)


def paper_ordering(tanh: float, gelu: float) -> bool:
    """Is tanh's f1 LV error below GELU's, the paper's ordering? (spec §3.1 table)."""
    return tanh < gelu


def all_filter_types(counts: Mapping[str, int], types: Sequence[str] = FILTER_TYPES) -> bool:
    """Is each of the paper's filter types present at least once? (spec §3.1 filter figure)."""
    return all(counts.get(t, 0) > 0 for t in types)


def all_discrete(fibres: Sequence[int]) -> bool:
    """Does every draw have fibre dimension 0 (a discrete fibre)? (spec §2.2 GELU row)."""
    return len(fibres) > 0 and all(f == 0 for f in fibres)


def minimal_fibre_share(fibres: np.ndarray, n_hidden: int) -> np.ndarray:
    """Share of draws with fibre dim = #hidden, (scales, draws) -> (scales,) (spec §2.2)."""
    return (np.asarray(fibres) == n_hidden).mean(axis=1)


def share_sizeable(shares: Sequence[float], min_share: float = RELU_MIN_SHARE) -> bool:
    """Does the share at the largest (last) input scale reach min_share? (spec §2.2, reconstr.)"""
    return bool(np.asarray(shares, dtype=float)[-1] >= min_share)


def share_non_decreasing(shares: Sequence[float], n_draws: int) -> bool:
    """Does the share never drop by more than one draw between scales? (spec §5.7, never-active)"""
    return bool(np.all(np.diff(np.asarray(shares, dtype=float)) >= -1.0 / n_draws))


def sussmann_flags(generic: Mapping[str, float], duplicate: Mapping[str, float],
                   negated: Mapping[str, float], dead: Mapping[str, float],
                   inactive: Mapping[str, float], margin: float = GENERIC_MARGIN) -> bool:
    """Does the report flag exactly the degenerate units, not the generic? (spec §2.1 Sussmann)"""
    return (all(generic[k] > margin for k in ("min_in", "min_out", "min_pair"))
            and duplicate["min_pair"] == 0 and negated["min_pair"] == 0
            and dead["min_out"] == 0 and inactive["min_in"] == 0)


def loglog_slope(x: Sequence[float], y: Sequence[float]) -> float:
    """Least-squares slope of log10 y against log10 x: the order of the response."""
    return float(np.polyfit(np.log10(np.asarray(x, float)), np.log10(np.asarray(y, float)), 1)[0])


def slopes_linear(slopes: Sequence[float], tol: float = SLOPE_TOL) -> bool:
    """Is every log-log slope within tol of 1 (linear response)? (spec §4 E8; tol reconstructed)"""
    return len(slopes) > 0 and all(abs(s - 1.0) <= tol for s in slopes)


def action_unchanged(same_action: Sequence[bool]) -> bool:
    """Is the recovered discrete action the unperturbed one at every noise level? (spec §4 E8)."""
    return len(same_action) > 0 and all(bool(s) for s in same_action)


def separation_masks(deltas: Sequence[float], eps: float,
                     factor: float = SEPARATION) -> tuple[np.ndarray, np.ndarray]:
    """Masks of separated (>= factor eps) and degenerate (<= eps / factor) deltas (spec §4 E8)."""
    d = np.asarray(deltas, dtype=float)
    return d >= factor * eps, d <= eps / factor


def separated_homomorphism(deltas: Sequence[float], failing_pairs: Sequence[int], eps: float,
                           factor: float = SEPARATION) -> bool:
    """Is rho = k^-1 a homomorphism at every separated delta (some exist)? (spec §4 E8)"""
    far, _ = separation_masks(deltas, eps, factor)
    return bool(far.any() and (np.asarray(failing_pairs)[far] == 0).all())


def degenerate_breaks(deltas: Sequence[float], failing_pairs: Sequence[int], eps: float,
                      factor: float = SEPARATION) -> bool:
    """Does rho = k^-1 fail somewhere at every degenerate delta (some exist)? (spec §4 E8)"""
    _, near = separation_masks(deltas, eps, factor)
    return bool(near.any() and (np.asarray(failing_pairs)[near] > 0).all())


def layerwise_blows_up(deltas: Sequence[float], layerwise: Sequence[float], eps: float,
                       factor: float = SEPARATION, small: float = O_EPS,
                       large: float = O_ONE) -> bool:
    """Is the layerwise error O(eps) when separated and O(1) when degenerate? (spec §4 E8)"""
    far, near = separation_masks(deltas, eps, factor)
    err = np.asarray(layerwise, dtype=float)
    return bool(far.any() and near.any() and (err[far] < small * eps).all()
                and (err[near] > large).all())


def decays(errors: Sequence[float], factor: float = DECAY) -> bool:
    """Is the last error (largest n) below factor x the first? (spec §1.8; factor reconstructed)"""
    e = np.asarray(errors, dtype=float)
    return bool(len(e) > 1 and e[-1] < factor * e[0])


def separation_threshold(tol: float, eps: float) -> float:
    """The distance that splits 'equal' from 'different': the geometric mean of the rounding
    tolerance and the smallest genuine perturbation, sqrt(tol eps), so each side has the same
    margin in decades (reconstructed, spec §4 E2 "functional equality <=> canonical equality")."""
    return float(np.sqrt(tol * eps))


def verdicts_agree(canonical: Sequence[float], functional: Sequence[float],
                   threshold: float) -> int:
    """How many pairs get the same verdict from their canonical-form distance and their function
    distance (both below threshold, or both at or above it)? (spec §4 E2)"""
    return int(sum((c < threshold) == (f < threshold)
                   for c, f in zip(canonical, functional, strict=True)))


def any_below(values: Sequence[float], threshold: float) -> bool:
    """Is some value strictly below threshold? (a precondition: some model fits at all)"""
    return any(v < threshold for v in values)


def fitted_are_equivariant(rel_mse: Sequence[float], lv1: Sequence[float], fit_ok: float = FIT_OK,
                           lv_ok: float = LV_OK) -> bool:
    """Does every model with rel. MSE < fit_ok have LV1 < lv_ok? Vacuous (True) when none fits,
    so pair it with the precondition any_below(rel_mse, fit_ok). (spec §3.3, §4 E4 values)"""
    return all(v < lv_ok for m, v in zip(rel_mse, lv1, strict=True) if m < fit_ok)


def select_weight(weights: Sequence[float], validation: Sequence[Sequence[float]]) -> float:
    """The weight whose seeds have the lowest median validation error (ties: the first listed).
    (standard selection of a regulariser on a validation split; spec §4 E4 (e) gives no lambda)"""
    meds = [float(np.median(v)) for v in validation]
    return float(weights[int(np.argmin(meds))])


def rarely_active(min_shares: Sequence[float], share: float = RARE_SHARE) -> bool:
    """Does some model have a unit active on fewer than `share` of the inputs? (spec §4 E5)"""
    return any(s < share for s in min_shares)


def beats_baselines(accuracies: Sequence[float], reconstruction_errors: Sequence[float],
                    base_accuracy: float, base_error: float) -> bool:
    """Does every classifier beat the least-squares linear classifier's test accuracy, and every
    autoencoder the rank-k linear (PCA) reconstruction error? The bar for "trained to a fit"
    (reconstructed: an MLP no better than the best linear model has learned nothing nonlinear)."""
    return (len(accuracies) > 0 and len(reconstruction_errors) > 0
            and all(a > base_accuracy for a in accuracies)
            and all(e < base_error for e in reconstruction_errors))


def converged_arms(history: pd.DataFrame, conditions: Sequence[str], metric: str = "rel_mse",
                   rel: float = 0.05) -> bool:
    """Has every condition's median curve over seeds (`metric` per checkpoint) stopped falling
    (rules.converged: < rel fall over its last quarter, widened to 4 checkpoints when the curve
    is short)? A curve of fewer than 4 checkpoints cannot tell, and counts as not converged.
    The precondition of a comparison between trained arms (issue 42: "trained")."""
    from lib.companion.rules import converged
    for c in conditions:
        curve = history[history.condition == c].groupby("step")[metric].median().to_numpy()
        if len(curve) < 4 or not converged(curve, share=max(0.25, 4 / len(curve)), rel=rel):
            return False
    return True


def medians_lower(rows: np.ndarray, pairs: Sequence[tuple[int, int]]) -> bool:
    """For each (i, j) in pairs, is the median of column i strictly below that of column j?
    Rows are replicates (seeds): the rule of a "lower with than without" claim (spec §4 E4 (e))."""
    d = np.asarray(rows, dtype=float)
    return all(np.median(d[:, i]) < np.median(d[:, j]) for i, j in pairs)


def smallest_median(rows: np.ndarray, names: Sequence[str], name: str) -> bool:
    """Rows are replicates (seeds), columns the named arms: is the median of `name`'s column
    <= every other column's median? (spec §4 E5: tanh's action the clearest)"""
    meds = np.median(np.asarray(rows, dtype=float), axis=0)
    return is_smallest(dict(zip(names, meds, strict=True)), name)
