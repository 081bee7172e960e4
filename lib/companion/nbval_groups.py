"""pytest-xdist plugin for `make nbval`: the smoke notebooks of one paper run on one worker,
with the CPU libraries pinned (lib/companion/numerics.py) as under the runner.

A notebook may read what an earlier notebook of its paper wrote (ptnas/03 reads 02's tables),
so the scheduler is xdist's loadscope with one scope per paper instead of per file: a scope runs
on one worker, in collection order, which is the notebooks' order.
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

from lib.companion import numerics


def pytest_configure(config) -> None:
    """Pin the CPU libraries for the nbval kernels this process starts (one code path for them
    too). A hook, not an import-time call: a test that imports this module must not pin the
    environment of its own session, whose torch is already loaded (its subprocesses would then
    take another code path than it)."""
    numerics.pin()


def paper_scope(nodeid: str) -> str | None:
    """The paper of a smoke notebook's cell (the copy names notebooks <paper>__<stem>.ipynb)."""
    name = nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
    return name.split("__", 1)[0] if name.endswith(".ipynb") and "__" in name else None


class PaperScheduling(LoadScopeScheduling):
    """loadscope, with all cells of a paper's notebooks as one scope."""

    def _split_scope(self, nodeid: str) -> str:
        return paper_scope(nodeid) or super()._split_scope(nodeid)


def pytest_xdist_make_scheduler(config, log) -> PaperScheduling:
    """xdist's hook for a custom scheduler (called on the controller)."""
    return PaperScheduling(config, log)
