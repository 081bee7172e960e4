"""The training grid of notebook 08 as a grid of the companion's sweep engine (issue 15, 45).

One run = the seeds of one (task, family), trained together (`seeds.train_and_evaluate_seeds`),
handed to `lib.companion.sweep`: `local` (one subprocess per run, at most `workers` at once),
`slurm` (an array of jobs on a SLURM cluster, as the authors' launchers ran, at most `workers`
running) or `debug` (in this process). Job pickles and logs go under `folder`
(results/linear_rnns/sweeps/, outside the DVC outputs). An interrupted sweep resumes: a finished
group's rows are reloaded from the engine's run files, and a group cut short restarts from its
last checkpoint.

`python -m lib.linear_rnns.sweep --profile paper --task imm_mod --out DIR` runs one task of a
profile without the notebook stack (papermill, pydantic), e.g. on a GPU machine.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd

from lib.companion import sweep as engine
from lib.linear_rnns import seeds, tasks, train

EXECUTORS = ("local", "slurm", "debug")
JOB_TIMEOUT_MIN = 240          # per job; the released rnn.sh asks SLURM for 04:00:00
SLURM_CPUS = 4                 # the cores a SLURM job asks for (data loading beside the GPU)


def groups(configs: list[train.RunConfig]) -> list[list[train.RunConfig]]:
    """Runs that differ only in their seed, in first-seen order (one batched job each)."""
    out: dict[str, list[train.RunConfig]] = {}
    for rc in configs:
        out.setdefault(f"{rc.task}/{rc.family}", []).append(rc)
    return list(out.values())


def run_grid(configs: list[train.RunConfig], test: dict[str, list[tasks.Split]],
             bins: dict[str, list[list[int]]], ckpt_dir: Path | None, folder: Path,
             device: str = "cpu", kind: str = "local", workers: int = 1,
             progress: bool = True) -> pd.DataFrame:
    """Every run of `configs`, seeds batched per (task, family), one job per group on the
    `kind` executor, evaluated on its task's test bins: one row per (run, bin), in the order of
    the groups' first appearance (each group's seeds in order). Runs are single-threaded, so
    the table is the same for any executor and any `workers`."""
    if kind not in EXECUTORS:
        raise ValueError(f"sweep_executor = {kind!r}: allowed: one of {', '.join(EXECUTORS)}")
    grid = groups(configs)
    jobs = [(g, test[g[0].task], bins[g[0].task], ckpt_dir, device) for g in grid]
    gpus = int(train.resolve_device(device).type == "cuda")
    slurm = engine.Slurm(gpus=gpus, time_min=JOB_TIMEOUT_MIN,
                         cpus=SLURM_CPUS if kind == "slurm" else 1)
    rows = engine.run(seeds.train_and_evaluate_seeds, jobs, Path(folder), kind, workers,
                      labels=[f"{g[0].task}/{g[0].family}" for g in grid], slurm=slurm,
                      name="linear_rnns_08", progress=progress)
    return pd.DataFrame([r for job in rows for r in job])


# --- command line: one task of a profile without the notebook stack (GPU machines) ------------

def main(argv: list[str] | None = None) -> int:
    """python -m lib.linear_rnns.sweep --profile paper --task imm_mod --out DIR [--n-seeds 1]
    [--max-seconds 50] [--executor local]: the params section of 08_trained_models (+ profile),
    one task, every family; writes accuracy.csv, orderings.csv and timing.json into DIR."""
    import argparse

    from lib.companion import params, paths
    ap = argparse.ArgumentParser(description=main.__doc__.split("\n")[0])
    ap.add_argument("--profile", default="paper", choices=params.PROFILES)
    ap.add_argument("--task", required=True, choices=tasks.TASKS)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n-seeds", type=int, default=None)
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--executor", default=None, choices=EXECUTORS)
    a = ap.parse_args(argv)
    # validated, and read as DVC reads the params files
    cfg = params.resolve("linear_rnns/08_trained_models", a.profile).model_dump()
    kw = {"dgc": {"id_bits": cfg["dgc_id_bits"], "p": cfg["p_bucket"]}}
    test = {a.task: tasks.make_test_sets(a.task, cfg["bins"][a.task], cfg["test_n"],
                                         cfg["test_seed"], **kw.get(a.task, {}))}
    runs = train.plan([a.task], cfg["families"], a.n_seeds or cfg["n_seeds"], cfg["bins"], kw,
                      settings=cfg["run_settings"], max_seconds=a.max_seconds,
                      **{k: cfg[k] for k in ("d", "layers", "steps", "batch", "lr", "eval_every",
                                             "val_n", "select")})
    t0 = time.perf_counter()
    root = paths.RESULTS / "linear_rnns"
    df = run_grid(runs, test, cfg["bins"], root / "checkpoints" / f"cli-{a.profile}",
                  root / "sweeps" / f"cli-{a.profile}", cfg["device"],
                  a.executor or cfg["sweep_executor"], cfg["workers"])
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "accuracy.csv", index=False)
    train.ordering_checks(df, cfg["margin"]).to_csv(out / "orderings.csv", index=False)
    (out / "timing.json").write_text(json.dumps(dict(
        profile=a.profile, task=a.task, runs=len(runs),
        device=str(train.resolve_device(cfg["device"])),
        wall_seconds=time.perf_counter() - t0,
        train_seconds_per_group=df.groupby("family").train_seconds.first().to_dict()), indent=1))
    print(df.pivot_table(index="family", columns="bin", values="accuracy").round(3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
