"""pytest plugin for `make nbval`: the smoke notebooks of one paper run on one xdist worker.

A notebook may read what an earlier notebook of its paper wrote (ptnas/03 reads 02's tables),
so under `--dist loadgroup` every cell of a paper's notebooks carries the paper as its group;
a group runs on one worker in collection order, which is the notebooks' order.
"""
from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each cell by its paper (the smoke copy names notebooks <paper>__<stem>.ipynb),
    before xdist reads the groups."""
    for item in items:
        name = item.path.name
        if name.endswith(".ipynb") and "__" in name:
            item.add_marker(pytest.mark.xdist_group(name.split("__", 1)[0]))
