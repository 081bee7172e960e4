"""The training grid of notebook 08 as jobs on an existing engine: submitit (issue 15).

One job = the seeds of one (task, family), trained together (`seeds.train_and_evaluate_seeds`).
The executor is `local` (submitit's LocalExecutor: one subprocess per job, at most `workers` at
once), `slurm` (submitit's AutoExecutor on a SLURM cluster, as the authors' launchers ran; an
array of jobs, at most `workers` running) or `debug` (submitit's DebugExecutor: in this process,
one job after the other). Job pickles and logs go under `folder` (results/linear_rnns/sweeps/,
outside the DVC outputs). The checkpoints make an interrupted sweep resume: a job that was
cut short restarts from its group's last checkpoint, a finished one only reloads.

`python -m lib.linear_rnns.sweep --profile paper --task imm_mod --out DIR` runs one task of a
profile without the notebook stack (papermill, pydantic), e.g. on a GPU machine.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import submitit
from tqdm.auto import tqdm

from lib.linear_rnns import seeds, tasks, train

EXECUTORS = ("local", "slurm", "debug")
JOB_TIMEOUT_MIN = 240          # per job; the released rnn.sh asks SLURM for 04:00:00
POLL_SECONDS = 0.2


def groups(configs: list[train.RunConfig]) -> list[list[train.RunConfig]]:
    """Runs that differ only in their seed, in first-seen order (one batched job each)."""
    out: dict[str, list[train.RunConfig]] = {}
    for rc in configs:
        out.setdefault(f"{rc.task}/{rc.family}", []).append(rc)
    return list(out.values())


def executor(kind: str, folder: Path, workers: int, device: str) -> submitit.Executor:
    """A submitit executor of the given kind, its logs under `folder`."""
    if kind not in EXECUTORS:
        raise ValueError(f"sweep executor {kind!r}: allowed are {EXECUTORS}")
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "debug":
        return submitit.DebugExecutor(folder)
    gpus = int(train.resolve_device(device).type == "cuda")
    if kind == "local":
        ex = submitit.LocalExecutor(folder)
        ex.update_parameters(timeout_min=JOB_TIMEOUT_MIN, gpus_per_node=gpus)
        return ex
    ex = submitit.AutoExecutor(folder, cluster="slurm")
    ex.update_parameters(timeout_min=JOB_TIMEOUT_MIN, gpus_per_node=gpus, cpus_per_task=4,
                         slurm_array_parallelism=workers, name="linear_rnns_08")
    return ex


def _run_local(ex: submitit.Executor, jobs: list[tuple], workers: int, bar) -> list:
    """Keep at most `workers` local jobs running; results in submission order."""
    pending, running, results = list(enumerate(jobs)), {}, [None] * len(jobs)
    while pending or running:
        while pending and len(running) < workers:
            i, args = pending.pop(0)
            running[i] = ex.submit(seeds.train_and_evaluate_seeds, *args)
        for i, job in list(running.items()):
            if job.done():
                results[i] = job.result()                       # raises if the job failed
                del running[i]
                bar.update(1)
        time.sleep(POLL_SECONDS)
    return results


def run_grid(configs: list[train.RunConfig], test: dict[str, list[tasks.Split]],
             bins: dict[str, list[list[int]]], ckpt_dir: Path | None, folder: Path,
             device: str = "cpu", kind: str = "local", workers: int = 1,
             progress: bool = True) -> pd.DataFrame:
    """Every run of `configs`, seeds batched per (task, family), one job per group on the
    `kind` executor, evaluated on its task's test bins: one row per (run, bin), in the order of
    the groups' first appearance (each group's seeds in order). Runs are single-threaded, so
    the table is the same for any executor and any `workers`."""
    jobs = [(g, test[g[0].task], bins[g[0].task], ckpt_dir, device) for g in groups(configs)]
    ex = executor(kind, Path(folder), workers, device)
    with tqdm(total=len(jobs), desc=f"jobs ({kind})", disable=not progress) as bar:
        if kind == "local":
            rows = _run_local(ex, jobs, workers, bar)
        else:
            with ex.batch():
                submitted = [ex.submit(seeds.train_and_evaluate_seeds, *a) for a in jobs]
            rows = []
            for job in submitted:
                rows.append(job.result())
                bar.update(1)
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
