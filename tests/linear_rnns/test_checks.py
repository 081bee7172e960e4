"""The batched check tables of lib/linear_rnns/checks.py on tiny sizes (all must pass)."""
from fractions import Fraction

import numpy as np

from lib.linear_rnns import checks, scan


def test_check_tables_all_pass():
    rng = np.random.default_rng(0)
    ex = checks.exact_scans(scan.KINDS, [1, 3], [1, 2], 2, rng)
    assert ex[["hillis_steele", "blelloch", "tree"]].all().all() and len(ex) == 12
    cnt = checks.scan_counts([1, 5], rng)
    assert cnt.hs_rounds.tolist() == [0, 3]                        # ceil(log2 5) = 3
    dag = checks.circuit_depths([1, 3], [1])
    assert (dag.depth == dag.formula).all()
    lift = checks.lift_checks(3, 3, 2, rng)
    assert lift.unrolled_ok.all() and lift.lift_ok.all()
    auto = checks.pd_automata(2, 3, 2, 10, 5, 6, rng)
    assert (auto.dfa_agree == auto.words).all() and (auto.dwfa_value_agree == auto.dwfa_words).all()
    ow = checks.wfa_overwrites(1, 2, 5, 4, rng)
    assert (ow.agree == ow.words).all()
    sl = checks.single_layer_wfas(1, 2, 2, 5, 4, 1, rng)
    assert (sl.agree == sl.words).all() and (sl.hankel_rank <= sl.states).all()
    au = checks.generator_audit([[2, 5]], 20, 0.5, rng)
    assert (au.labels_equal_bfs == au.examples).all() and au.target_is_sink.all()


def test_imm_streams_table():
    imm = checks.imm_streams(12, 7, np.random.default_rng(1))
    assert imm.exact.all() and imm.positivity_agrees.all() and len(imm) == 12


def test_product_tables():
    rng = np.random.default_rng(2)
    rw = checks.rwkv_products([1, 4], 3, [1, 5], rng)
    assert len(rw) == 12 and rw.exact.all() and rw.positivity_agrees.all()
    assert (~rw.first_token_exact == rw.first_token_predicted_wrong).all()
    dn = checks.deltanet_products([1, 2], 2, rng)
    assert dn.exact.all() and (dn.steps == 694 * dn.N).all()
    tr = checks.transvection_maps([2, 3])
    assert len(tr) == 2 + 6 and tr.exact.all() and (tr.steps == 3).all()
    assert not checks.transvection_maps([2, 3], middle=Fraction(1, 4)).exact.any()
