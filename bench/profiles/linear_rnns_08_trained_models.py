"""Profile of notebook 08's training grid (linear_rnns/08_trained_models): where a seed group's
CPU time goes, per task and family, at the default profile's sizes.

    python bench/profiles/linear_rnns_08_trained_models.py [--steps 100] [--tasks ...]
        [--families ...] [--ops TASK/FAMILY] > bench/profiles/linear_rnns_08_trained_models.txt

Each (task, family) seed group of the default grid trains `--steps` steps (one validation, at
the last), one thread. Its CPU time (time.process_time: the machine is shared, so wall time
would bill other processes' work to ours) is split into the phases of `seeds.train_seeds` by
wrapping each phase's function in a CPU-time counter: batch sampling (`tasks.sample`), padding
the seeds' batches (`seeds._pad_stack`), forward (`seeds.seed_losses`), backward
(`torch.Tensor.backward`), the clipped AdamW update (`seeds._clip_and_step`), validation
(`train.accuracy`), and the rest. `--ops` adds torch.profiler's table of the ops of one group
(self time by op and input shape; wall clock, so read its shares, not its seconds).
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict

import torch

from lib.companion import params
from lib.linear_rnns import seeds, tasks, train

PHASES = {"sample": (tasks, "sample"), "pad": (seeds, "_pad_stack"),
          "forward": (seeds, "seed_losses"), "backward": (torch.Tensor, "backward"),
          "adamw": (seeds, "_clip_and_step"), "validate": (train, "accuracy")}
SPENT: dict[str, float] = defaultdict(float)


def _timed(name: str, fn):
    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - t0
    return wrapper


def group(task: str, family: str, steps: int, cfg: dict) -> list[train.RunConfig]:
    """The default grid's seed group of (task, family), capped at `steps` steps."""
    kw = {"dgc": {"id_bits": cfg["dgc_id_bits"], "p": cfg["p_bucket"]}}
    return train.plan([task], [family], cfg["n_seeds"], cfg["bins"], kw, d=cfg["d"],
                      layers=cfg["layers"], steps=steps, batch=cfg["batch"], lr=cfg["lr"],
                      eval_every=steps, val_n=cfg["val_n"], select=cfg["select"])


def phases(runs: list[train.RunConfig]) -> dict[str, float]:
    """CPU seconds of one group's training, per phase."""
    SPENT.clear()
    t0 = time.process_time()
    seeds.train_seeds(runs, None, progress=False)
    out = {"total": time.process_time() - t0} | {k: SPENT[k] for k in PHASES}
    return out | {"rest": out["total"] - sum(SPENT[k] for k in PHASES)}


def main() -> None:
    cfg = params.resolve("linear_rnns/08_trained_models", "default").model_dump()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--tasks", nargs="+", default=cfg["tasks"])
    ap.add_argument("--families", nargs="+", default=cfg["families"])
    ap.add_argument("--ops", default=None, help="TASK/FAMILY: torch.profiler's op table")
    args = ap.parse_args()
    torch.set_num_threads(1)
    for name, (owner, attr) in PHASES.items():
        setattr(owner, attr, _timed(name, getattr(owner, attr)))
    rows = [(t, f, phases(group(t, f, args.steps, cfg))) for t in args.tasks for f in args.families]
    cols = ["total", *PHASES, "rest"]
    print(f"# CPU seconds per {args.steps} training steps of one seed group ({cfg['n_seeds']} "
          "seeds batched), default profile sizes, one thread (time.process_time per phase)")
    print(f"{'task':12s} {'family':12s} " + " ".join(f"{c:>9s}" for c in cols))
    for task, fam, p in rows:
        print(f"{task:12s} {fam:12s} " + " ".join(f"{p[c]:9.2f}" for c in cols))
    tot = {c: sum(p[c] for *_, p in rows) for c in cols}
    print(f"{'all':25s} " + " ".join(f"{tot[c]:9.2f}" for c in cols))
    print(f"{'share':25s} " + " ".join(f"{tot[c] / tot['total']:9.1%}" for c in cols))
    if args.ops:
        task, fam = args.ops.split("/")
        runs = group(task, fam, args.steps, cfg)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                    record_shapes=True) as prof:
            seeds.train_seeds(runs, None, progress=False)
        print(f"\n# torch.profiler, {args.ops}, {args.steps} steps: ops by self time (wall clock)")
        print(prof.key_averages(group_by_input_shape=True).table(
            sort_by="self_cpu_time_total", row_limit=25, max_name_column_width=40,
            max_shapes_column_width=60))


if __name__ == "__main__":
    main()
