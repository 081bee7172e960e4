"""The nbval plugin groups a smoke notebook's cells by paper, and leaves other items alone."""
from pathlib import Path

import pytest

from lib.companion import nbval_groups


class Item:
    """The part of a pytest item the hook touches: its path and the markers added to it."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.marks: list[pytest.Mark] = []

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.append(mark.mark)


def test_cells_grouped_by_paper_and_other_items_untouched():
    items = [Item("build/smoke/ptnas__02_minibench.ipynb"),
             Item("build/smoke/ptnas__03_proxies_search.ipynb"),
             Item("build/smoke/spike_htr__01_synthetic_lines.ipynb"),
             Item("tests/test_params.py"), Item("build/smoke/plain.ipynb")]
    nbval_groups.pytest_collection_modifyitems(items)
    groups = [[(m.name, m.args) for m in item.marks] for item in items]
    assert groups == [[("xdist_group", ("ptnas",))], [("xdist_group", ("ptnas",))],
                      [("xdist_group", ("spike_htr",))], [], []]
