"""The tables of lib/linear_rnns/scan_checks.py on tiny sizes (all must pass)."""
import numpy as np

from lib.linear_rnns import scan, scan_checks


def test_scan_tables_all_pass():
    rng = np.random.default_rng(0)
    ex = scan_checks.exact_scans(scan.KINDS, [1, 3], [1, 2], 2, rng)
    assert ex[["hillis_steele", "blelloch", "tree"]].all().all() and len(ex) == 12
    cnt = scan_checks.scan_counts([1, 5], rng)
    assert cnt.hs_rounds.tolist() == [0, 3]                        # ceil(log2 5) = 3
    dag = scan_checks.circuit_depths([1, 3], [1])
    assert (dag.depth == dag.formula).all()
    lift = scan_checks.lift_checks(3, 3, 2, rng)
    assert lift.unrolled_ok.all() and lift.lift_ok.all()
