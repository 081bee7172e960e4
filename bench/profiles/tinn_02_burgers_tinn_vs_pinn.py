"""Notebook 02's three training arms (tinn/02_burgers_tinn_vs_pinn), old code against this tree,
side by side: CPU seconds per training step of each arm at the default profile's sizes.

    python bench/profiles/tinn_02_burgers_tinn_vs_pinn.py --old /tmp/old-tinn [--lm-steps 40]
        [--adam-steps 300] [--repeats 3] [--ops] > bench/profiles/tinn_02_burgers_tinn_vs_pinn.txt

`--old` is a worktree of the old code (`git worktree add /tmp/old-tinn d88588a`). Each
measurement is a fresh process in one tree (so `lib` is that tree's), one thread, that runs
`experiment.run_arm` for 2 steps to warm up and then once timed with `--lm-steps` / `--adam-steps`
in place of the profile's (every other size as the default profile: 2 000 collocation points,
the TINN and PINN widths, evaluation every 10 steps, resampling checks every 5; the reference is
a constant field, which only the reported error reads). Three settings: the old code under the old
pins (MKL's COMPATIBLE branch), the old code under this tree's pins (lib.companion.numerics.PINNED),
this tree under its pins; they alternate within each repeat so that all three see the same load.
CPU time is time.process_time() in the child (the machine is shared). Each line also gives the
relative difference of the last loss from the old code's under the same pins. `--ops` adds
torch.profiler's op table of 5 TINN+LM steps in each tree (self time, wall clock: read shares).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from lib.companion import numerics

ARMS = ("TINN+LM", "PINN+LM", "PINN+Adam")
CHILD = """
import json, sys, time
import numpy as np
import torch
torch.set_num_threads(1)
from lib.companion import params
from lib.tinn import experiment
arm, lm_steps, adam_steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cfg = params.resolve("tinn/02_burgers_tinn_vs_pinn", "default")
u_ref = np.ones((cfg.n_t, cfg.n_x))
experiment.run_arm(cfg.model_copy(update={"lm_steps": 2, "adam_steps": 2}), arm, u_ref)
cfg = cfg.model_copy(update={"lm_steps": lm_steps, "adam_steps": adam_steps})
t0 = time.process_time()
run = experiment.run_arm(cfg, arm, u_ref)
cpu = time.process_time() - t0
steps = adam_steps if arm == "PINN+Adam" else lm_steps
print(json.dumps({"cpu": cpu, "steps": steps, "loss": run.hist.loss[-1]}))
"""
OPS = """
import numpy as np
import torch
torch.set_num_threads(1)
from lib.companion import params
from lib.tinn import experiment
cfg = params.resolve("tinn/02_burgers_tinn_vs_pinn", "default").model_copy(
    update={"lm_steps": 5})
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                            record_shapes=True) as prof:
    experiment.run_arm(cfg, "TINN+LM", np.ones((cfg.n_t, cfg.n_x)))
print(prof.key_averages(group_by_input_shape=True).table(
    sort_by="self_cpu_time_total", row_limit=10, max_name_column_width=28,
    max_shapes_column_width=50))
"""


def env(mkl_cbwr: str) -> dict[str, str]:
    """This process's environment with the pinned settings, MKL's branch set to `mkl_cbwr`."""
    return numerics.unpinned_env() | numerics.PINNED | {"MKL_CBWR": mkl_cbwr,
                                                        numerics.SWITCH: "native"}


def child(code: str, tree: Path, mkl_cbwr: str, *argv: str) -> str:
    """Run `code` in a fresh process in `tree` under the pins with MKL's branch `mkl_cbwr`."""
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=tree, env=env(mkl_cbwr),
                          check=True, capture_output=True, text=True).stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="worktree of the old code")
    ap.add_argument("--lm-steps", type=int, default=40)
    ap.add_argument("--adam-steps", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--ops", action="store_true")
    args = ap.parse_args()
    here = Path(__file__).resolve().parents[2]
    new = numerics.PINNED["MKL_CBWR"]
    settings = {"old code, old pins": (args.old, "COMPATIBLE"),
                "old code, new pins": (args.old, new), "new code, new pins": (here, new)}
    got: dict[tuple[str, str], list[dict]] = {}
    for _ in range(args.repeats):
        for arm in ARMS:
            for name, (tree, cbwr) in settings.items():
                out = child(CHILD, tree, cbwr, arm, str(args.lm_steps), str(args.adam_steps))
                got.setdefault((name, arm), []).append(json.loads(out.strip().splitlines()[-1]))
    print(f"# tinn/02_burgers_tinn_vs_pinn: CPU ms per training step (time.process_time, one "
          f"thread), {args.repeats} alternating repeats, min / median; {args.lm_steps} LM and "
          f"{args.adam_steps} Adam steps of the default sizes")
    print(f"{'arm':10s} {'setting':20s} {'min':>8s} {'median':>8s} {'x old/old':>10s} "
          f"{'x old/new':>10s} {'loss rel. diff':>15s}")
    for arm in ARMS:
        per = {name: [g["cpu"] / g["steps"] * 1e3 for g in got[(name, arm)]] for name in settings}
        base = got[("old code, new pins", arm)][0]["loss"]
        for name in settings:
            diff = abs(got[(name, arm)][0]["loss"] - base) / abs(base)
            print(f"{arm:10s} {name:20s} {min(per[name]):8.2f} "
                  f"{statistics.median(per[name]):8.2f} "
                  f"{min(per['old code, old pins']) / min(per[name]):10.2f} "
                  f"{min(per['old code, new pins']) / min(per[name]):10.2f} {diff:15.1e}")
    if args.ops:
        for name, tree in (("old code", args.old), ("new code", here)):
            print(f"\n# torch.profiler, {name} (new pins), TINN+LM, 5 steps: ops by self time "
                  "(wall clock)")
            print(child(OPS, tree, new))


if __name__ == "__main__":
    main()
