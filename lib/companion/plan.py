"""What `dvc repro` would run, in order, without running it: `dvc repro --dry` that also works
where an input an earlier stage makes is not there yet (a fresh clone).

    python -m lib.companion.plan [TARGET ...]      # `make plan [PAPER=<paper>]`

DVC 3's dry run first asks its run cache whether it could restore each stage, which hashes every
dependency, and aborts on the first one missing (treeverse/dvc#9818): on a fresh clone, the
first notebook stage, whose params stamp (results/params/) is not there yet. No notebook stage
can come from the run cache anyway (their outputs persist), so here a stage with a missing
dependency is simply one the run cache cannot restore, and the plan goes on.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from dvc.cli import main as dvc_main
    from dvc.stage import cache

    can_hash = cache._can_hash

    def can_hash_present(stage) -> bool:
        if any(dep.protocol == "local" and not dep.exists for dep in stage.deps):
            return False
        return can_hash(stage)

    cache._can_hash = can_hash_present
    return dvc_main(["repro", "--dry", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
