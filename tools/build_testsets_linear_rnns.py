"""Rebuild the frozen test sets of notebook 08 (data/linear_rnns/testsets/<task>.npz).

Run by a maintainer (never at run time): `python tools/build_testsets_linear_rnns.py [TASK ...]`,
then `dvc add data`. Each set is `tasks.save_test_sets` at the default profile's bins, test_n
and test_seed (tests/linear_rnns/test_tasks.py checks every frozen file equals a fresh
generation); with no TASK, the tasks whose file is missing.
"""
import sys

import yaml

from lib.companion import paths
from lib.linear_rnns import tasks


def main(names: list[str]) -> None:
    """Write the frozen sets of `names` (default: every task without a file yet)."""
    cfg = yaml.safe_load(paths.PARAMS_FILE.read_text())["linear_rnns"]["08_trained_models"]
    kw = {"dgc": {"id_bits": cfg["dgc_id_bits"]}}
    for task in names or [t for t in tasks.TASKS if not tasks.testset_file(t).exists()]:
        out = tasks.save_test_sets(task, cfg["bins"][task], cfg["test_n"], cfg["test_seed"],
                                   **kw.get(task, {}))
        print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
