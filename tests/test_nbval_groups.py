"""The nbval scheduler's scopes: a smoke notebook's cells by paper, other tests by module."""
from lib.companion import nbval_groups


def test_cells_scoped_by_paper_and_other_items_not():
    assert nbval_groups.paper_scope("build/smoke/ptnas__02_minibench.ipynb::Cell 3") == "ptnas"
    assert nbval_groups.paper_scope("ptnas__03_proxies_search.ipynb::Cell 0") == "ptnas"
    assert nbval_groups.paper_scope("spike_htr__01_synthetic_lines_ctc.ipynb::Cell 1") \
        == "spike_htr"
    assert nbval_groups.paper_scope("tests/test_params.py::test_profile_named_once") is None
    assert nbval_groups.paper_scope("build/smoke/plain.ipynb::Cell 0") is None
