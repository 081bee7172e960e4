"""The rules deciding bsnp's claims (lib/bsnp/decisions.py), each both ways on hand-built evidence
(one replicate per row), preconditions included."""
import numpy as np

from lib.bsnp import decisions as d
from lib.companion import deciding, declared

FLAT = [1.0, 1.0, 0.99, 1.0, 0.99, 1.0, 1.0, 0.99]            # a converged loss tail
FALLING = [1.0, 0.98, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7]        # still falling by > 5 %


def test_preconditions_both_ways():
    assert d.trained([0.1, 0.4]) and not d.trained([0.1, 0.9])
    assert d.flat_tail(FLAT) and not d.flat_tail(FALLING)
    assert not d.flat_tail([1.0, 1.0, 1.0])                    # too short to tell
    assert d.seeds_comparable([0.01, 0.02], [FLAT, FLAT], [FLAT, FLAT], [0.1] * 4)
    assert not d.seeds_comparable([0.01], [FLAT], [FLAT], [0.1] * 2)           # one seed
    assert not d.seeds_comparable([0.01, 0.02], [FLAT, FALLING], [FLAT, FLAT], [0.1] * 4)
    assert not d.seeds_comparable([0.01, 0.02], [FLAT, FLAT], [FLAT, FLAT], [0.1, 0.7])


def test_seed_rules_both_ways():
    assert d.residual_lowered([0.2, 0.2], [0.5, 0.5]) and not d.residual_lowered([0.3], [0.5])
    assert d.lower_by_se([0.010, 0.011], [0.020, 0.021])
    assert not d.lower_by_se([0.010, 0.030], [0.020, 0.021])
    assert d.calibrated([0.9, 0.92]) and not d.calibrated([0.99, 0.98])


def test_opposite_needs_three_seeds():
    assert d.data_lower_by_se([0.020, 0.021, 0.022], [0.010, 0.011, 0.010])
    assert not d.data_lower_by_se([0.020, 0.021], [0.010, 0.011])     # two seeds: no power
    assert not d.data_lower_by_se([0.010, 0.011, 0.010], [0.020, 0.021, 0.022])


def test_task_rules_both_ways():
    assert d.collapsed([0.8] * 3, [0.9] * 3, [0.05] * 3, [0.1] * 3)
    assert not d.collapsed([0.88] * 3, [0.9] * 3, [0.05] * 3, [0.1] * 3)
    assert d.overfits([4.0], [1.0], [1.0], [1.0]) and not d.overfits([1.5], [1.0], [1.0], [1.0])
    assert not d.overfits([4.0], [1.0], [2.0], [1.0])
    assert d.sparse_covered([0.85, 0.9]) and not d.sparse_covered([0.6, 0.7])


def test_overfitting_precondition_both_ways():
    # off/on of the fixed grid: mean([3, 1]) / mean([1, 1]) = 2, exactly the threshold
    assert d.overfitting_to_prevent([3.0, 1.0], [1.0, 1.0], [0.1, 0.2])
    assert not d.overfitting_to_prevent([2.9, 1.0], [1.0, 1.0], [0.1, 0.2])   # 1.95: no overfit
    assert not d.overfitting_to_prevent([3.0, 1.0], [1.0, 1.0], [0.1, 0.6])   # not learned


def test_no_overfitting_to_prevent_is_inconclusive_not_a_fail():
    decl = declared.for_paper("bsnp")["bsnp.overfit.learned_decoder"]
    record = {"evidence": {"off_fixed": [0.9] * 8, "on_fixed": [1.0] * 8,       # ratio 0.9
                           "off_bsnp": [0.9] * 8, "on_bsnp": [1.0] * 8},
              "context": {"run_mnse": [0.2, 0.2]}}
    assert deciding.decide("bsnp", "bsnp.overfit.learned_decoder", decl, record).status \
        == "inconclusive"
    record["evidence"] |= {"off_fixed": [3.0] * 8, "off_bsnp": [2.0] * 8}       # 3 and 2
    assert deciding.decide("bsnp", "bsnp.overfit.learned_decoder", decl, record).status == "fail"
    record["evidence"] |= {"off_bsnp": [1.2] * 8}                               # 3 and 1.2
    assert deciding.decide("bsnp", "bsnp.overfit.learned_decoder", decl, record).status == "pass"


def test_sparse_claim_needs_the_context_read():
    decl = declared.for_paper("bsnp")["bsnp.sparse.advantage_small_nc"]
    ones = np.ones((4, 2))
    record = {"evidence": {"err": [[0.8, 1.0, 0.9, 1.0]] * 4, "ref": np.ones((4, 4)),
                           "err_ctx": [[0.1, 0.1]] * 4, "ref_ctx": ones},         # values ignored
              "context": {"run_mnse": [0.2, 0.2]}}
    assert deciding.decide("bsnp", "bsnp.sparse.advantage_small_nc", decl, record).status \
        == "inconclusive"
    record["evidence"]["err_ctx"] = [[0.1, 0.2]] * 4                              # read: 2x
    assert deciding.decide("bsnp", "bsnp.sparse.advantage_small_nc", decl, record).status \
        == "pass"


def test_pooled_mnse_is_summed_error_over_summed_reference():
    err, ref = np.array([[1.0, 9.0], [3.0, 0.0]]), np.array([[4.0, 1.0], [4.0, 1.0]])
    assert d.pooled(err, ref).tolist() == [0.5, 4.5]                  # 4 / 8 and 9 / 2, exact


def test_noise_rule_both_ways():
    ref = np.ones((2, 3))
    assert d.graceful(np.array([[0.01, 0.02, 0.04]] * 2), ref, [0, 0.1, 0.3])
    assert not d.graceful(np.array([[0.01, 0.005, 0.04]] * 2), ref, [0, 0.1, 0.3])
    assert not d.graceful(np.array([[0.01, 0.06]] * 2), np.ones((2, 2)), [0, 0.3])


def test_context_rules_both_ways():
    ref = np.ones((2, 2))
    assert d.uses_context(np.array([[0.1, 0.2]] * 2), ref)
    assert not d.uses_context(np.array([[0.10776, 0.10777]] * 2), ref)
    assert d.reads_context(np.array([[0.1, 0.2]] * 2), ref, [0.1, 0.2])
    assert not d.reads_context(np.array([[0.1, 0.2]] * 2), ref, [0.1, 0.6])   # not learned
    assert not d.reads_context(np.array([[0.1, 0.1]] * 2), ref, [0.1, 0.2])   # values ignored
    assert d.adds_beyond_prior(np.array([[0.1, 0.3]]), np.ones((1, 2)))
    assert not d.adds_beyond_prior(np.array([[0.2, 0.3]]), np.ones((1, 2)))


def test_sparse_rule_both_ways():
    ref = np.ones((1, 4))
    assert d.sparse_advantage(np.array([[0.8, 1.0, 0.9, 1.0]]), ref)       # 0.8 < 0.9, < 1
    assert not d.sparse_advantage(np.array([[1.1, 1.0, 1.2, 1.0]]), ref)
    assert not d.sparse_advantage(np.array([[0.9, 1.0, 0.8, 1.0]]), ref)
