"""Notebook 07's full-batch runs (gd_perceptron/07_real_data), old code against this tree, side
by side: CPU seconds per step of each model's run at the default profile's sizes.

    python bench/profiles/gd_perceptron_07_real_data.py --old /tmp/old-gd [--linear-steps 200]
        [--two-layer-steps 60] [--repeats 3] [--ops] > bench/profiles/gd_perceptron_07_real_data.txt

`--old` is a worktree of the old code (`git worktree add /tmp/old-gd d88588a`, with data/ linked
or copied). Each measurement is a fresh process run in one tree (so `lib` is that tree's), one
thread, that runs `real_data.run_model` once to warm up and once timed with `--*-steps` in place
of the profile's caps (every other size as the default profile: 5 000 images, 11 linear runs,
width 16). Three settings: the old code under the old pins (MKL's COMPATIBLE branch), the old code
under this tree's pins (lib.companion.numerics.PINNED), this tree under its pins; they alternate
within each repeat so that all three see the same load. CPU time is time.process_time() in the
child (the machine is shared: wall time would bill others' work to ours). Each line also gives
the largest relative difference of the last step's losses from the old code's under the same
pins (the blocked sums move the last bits only). `--ops` adds torch.profiler's op table of a few
steps of each model in this tree (self time, wall clock: read its shares, not its seconds).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from lib.companion import numerics

MODELS = ("linear", "relu", "quadratic")
CHILD = """
import json, sys, time
import torch
torch.set_num_threads(1)
from lib.companion import params
from lib.gd_perceptron import real_data
model, linear_steps, two_layer_steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cfg = params.resolve("gd_perceptron/07_real_data", "default").model_copy(
    update={"linear_steps": linear_steps, "two_layer_steps": two_layer_steps})
real_data.run_model(cfg, model)
t0 = time.process_time()
h = real_data.run_model(cfg, model)
cpu = time.process_time() - t0
print(json.dumps({"cpu": cpu, "steps": int(h.loss.shape[0]), "loss": h.loss[-1].tolist()}))
"""
OPS = """
import torch
torch.set_num_threads(1)
from lib.companion import params
from lib.gd_perceptron import real_data
cfg = params.resolve("gd_perceptron/07_real_data", "default").model_copy(
    update={"linear_steps": 20, "two_layer_steps": 10})
for model in real_data.MODELS:
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                record_shapes=True) as prof:
        real_data.run_model(cfg, model)
    steps = 20 if model == "linear" else 10
    print(f"\\n# torch.profiler, {model} model, {steps} steps: ops by self time (wall clock)")
    print(prof.key_averages(group_by_input_shape=True).table(
        sort_by="self_cpu_time_total", row_limit=8, max_name_column_width=28,
        max_shapes_column_width=50))
"""


def env(mkl_cbwr: str) -> dict[str, str]:
    """This process's environment with the pinned settings, MKL's branch set to `mkl_cbwr`."""
    return numerics.unpinned_env() | numerics.PINNED | {"MKL_CBWR": mkl_cbwr,
                                                        numerics.SWITCH: "native"}


def measure(tree: Path, mkl_cbwr: str, model: str, linear_steps: int,
            two_layer_steps: int) -> dict:
    """One child process in `tree`: CPU seconds of one timed run of `model`."""
    out = subprocess.run([sys.executable, "-c", CHILD, model, str(linear_steps),
                          str(two_layer_steps)], cwd=tree, env=env(mkl_cbwr), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="worktree of the old code")
    ap.add_argument("--linear-steps", type=int, default=200)
    ap.add_argument("--two-layer-steps", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--ops", action="store_true")
    args = ap.parse_args()
    here = Path(__file__).resolve().parents[2]
    settings = {"old code, old pins": (args.old, "COMPATIBLE"),
                "old code, new pins": (args.old, numerics.PINNED["MKL_CBWR"]),
                "new code, new pins": (here, numerics.PINNED["MKL_CBWR"])}
    got: dict[tuple[str, str], list[dict]] = {}
    for _ in range(args.repeats):
        for model in MODELS:
            for name, (tree, cbwr) in settings.items():
                got.setdefault((name, model), []).append(
                    measure(tree, cbwr, model, args.linear_steps, args.two_layer_steps))
    print(f"# gd_perceptron/07_real_data: CPU ms per full-batch step (time.process_time, one "
          f"thread), {args.repeats} alternating repeats, min / median; {args.linear_steps} linear "
          f"and {args.two_layer_steps} two-layer steps of the default sizes")
    print(f"{'model':10s} {'setting':20s} {'min':>8s} {'median':>8s} {'x old/old':>10s} "
          f"{'x old/new':>10s} {'loss rel. diff':>15s}")
    for model in MODELS:
        per = {name: [g["cpu"] / g["steps"] * 1e3 for g in got[(name, model)]]
               for name in settings}
        base = got[("old code, new pins", model)][0]["loss"]
        for name in settings:
            loss = got[(name, model)][0]["loss"]
            diff = max(abs(a - b) / abs(b) for a, b in zip(loss, base))
            print(f"{model:10s} {name:20s} {min(per[name]):8.2f} "
                  f"{statistics.median(per[name]):8.2f} "
                  f"{min(per['old code, old pins']) / min(per[name]):10.2f} "
                  f"{min(per['old code, new pins']) / min(per[name]):10.2f} {diff:15.1e}")
    if args.ops:
        print(subprocess.run([sys.executable, "-c", OPS], cwd=here, env=env(
            numerics.PINNED["MKL_CBWR"]), check=True, capture_output=True, text=True).stdout)


if __name__ == "__main__":
    main()
