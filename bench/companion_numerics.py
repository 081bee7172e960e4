"""Benchmark: what the pinned CPU numerics (lib/companion/numerics.py) cost the default profile.

    python bench/companion_numerics.py [--repeats 1] [--cap 600] [--stages 3]

Runs the first k of a fixed list of default-profile stages (numpy linear algebra, numpy on real
data, torch training through MKL) through the runner in a scratch copy of the project, left native
(COMPANION_NUMERICS=native: the machine's own code paths and thread counts) and pinned, the two
alternating. Before timing, each side's run must record the same claim ids (the pinning moves
last bits, never what a notebook checks). The ratio native/pinned at the largest k is the cost:
below 1, pinning is slower.

Bound: none in flops. Writes results/bench/companion_numerics.json.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.companion import benchmark, numerics, paths, smoke

# cheapest first: the first stage runs at every k
STAGES = ("gd_perceptron/02_linear_lower_bound", "equivariance/06_mirror_fashion_mnist",
          "caffnet/02_piecewise_fit")


def run_stages(copy: Path, k: int, native: bool):
    """A Run: the first k stages, default profile, in the copy; returns their claim ids."""
    env = numerics.unpinned_env()
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    if native:
        env[numerics.SWITCH] = "native"

    def run() -> list[list[str]]:
        ids = []
        for notebook in STAGES[:k]:
            subprocess.run([sys.executable, "-m", "lib.companion.runner",
                            f"notebooks/{notebook}.py", "--profile", "default"], cwd=copy,
                           env=env, check=True, capture_output=True)
            paper, stem = notebook.split("/")
            doc = json.loads((copy / "results" / paper / "claims" / f"{stem}.json").read_text())
            ids.append([c["id"] for c in doc["claims"]])
        return ids
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cap", type=float, default=600.0)
    parser.add_argument("--stages", type=int, default=len(STAGES),
                        choices=range(1, len(STAGES) + 1),
                        help="time the first 1..k stages (default: all)")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="numerics-bench-"))
    try:
        copy = smoke.make_copy(scratch / "copy")
        shutil.copyfile(paths.ROOT / "data.dvc", copy / "data.dvc")
        (copy / "dvc-remote").symlink_to(paths.ROOT / "dvc-remote")
        sizes = list(range(1, args.stages + 1))
        c = benchmark.curve("stages", sizes,
                            lambda k: {"native": run_stages(copy, k, True),
                                       "pinned": run_stages(copy, k, False)},
                            lambda a, b: a == b, repeats=args.repeats, cap_s=args.cap,
                            label="default-profile stages, native against pinned")
        benchmark.write_curves("companion_numerics", "runner on default-profile stages",
                               "none in flops", {"stages": c}, stages=list(STAGES),
                               pinned=numerics.PINNED)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
