"""One engine for a notebook's grid of independent runs (seeds x configurations x arms, issue 45).

A notebook hands `run` a function and the argument tuple of every run; each run goes:

- `inline`: in this process, one after the other, no submitit (smoke: no job folders);
- `debug`: submitit's DebugExecutor, in this process through submitit's job machinery;
- `local`: submitit's LocalExecutor, one subprocess per run, at most `workers` at once (default);
- `slurm`: submitit's AutoExecutor on a SLURM cluster, an array of jobs with the profile's
  partition, GPUs per job and time limit (`Slurm`), at most `workers` running. With
  COMPANION_SLURM_CLUSTER=local, submitit's local executor stands in for the cluster (the same
  AutoExecutor path and parameters, jobs as local processes): a rehearsal of a cluster run.

Each finished run writes its result to `<folder>/runs/<name>.pkl` before it returns, so a sweep
cut short (Ctrl-C, a killed kernel, a lost node) resumes: the next call with the same grid reloads
finished runs and runs only the rest. After a complete sweep the run files are removed, so a later
sweep (new code, same arguments) never reads stale results; a sweep cut short, then resumed after
a code change, would mix the two (delete its `runs/` folder first). Job logs stay in `jobs/`.
Results come back in grid order; runs are single-threaded (torch pinned to one thread), so they
are the same whichever executor ran them. A local job (and one of the stand-in for a cluster)
watches the kernel that submitted it and ends, with what it started, once that is gone
(lib.companion.processes): submitit alone would let it run to its time limit.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import Field

from lib.companion import paths as places
from lib.companion import processes
from lib.companion import progress as told
from lib.companion.params import NotebookParams, param

EXECUTORS = ("inline", "debug", "local", "slurm")
SLURM_CLUSTER_ENV = "COMPANION_SLURM_CLUSTER"
SLURM_CLUSTERS = ("slurm", "local")            # local: submitit's stand-in for a cluster
POLL_SECONDS = 0.1


class SweepError(RuntimeError):
    """A run of a sweep failed; the message names the run."""


@dataclass(frozen=True)
class Failed:
    """What a run that raised returns instead (its exception and traceback as text): submitit's
    DebugExecutor would open a debugger on the exception, in a notebook kernel a hang."""

    error: str
    traceback: str


@dataclass(frozen=True)
class Slurm:
    """Where and how long a SLURM job runs (from the profile): partition (None: the cluster's
    default), GPUs per job, time limit in minutes, CPU cores per job."""

    partition: str | None = None
    gpus: int = 0
    time_min: int = 240
    cpus: int = 1

    def __post_init__(self) -> None:
        for key, value, low in (("gpus", self.gpus, 0), ("time_min", self.time_min, 1),
                                ("cpus", self.cpus, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"slurm {key} = {value!r}: allowed: an integer >= {low}")
        if self.partition is not None and not (isinstance(self.partition, str)
                                               and self.partition.strip()):
            raise ValueError(f"slurm partition = {self.partition!r}: allowed: a partition "
                             "name or None (the cluster's default)")

    def parameters(self, workers: int, name: str) -> dict[str, Any]:
        """submitit's AutoExecutor parameters for these settings."""
        out = dict(timeout_min=self.time_min, gpus_per_node=self.gpus, cpus_per_task=self.cpus,
                   slurm_array_parallelism=workers, name=name)
        if self.partition:
            out["slurm_partition"] = self.partition
        return out


def check(executor: str, workers: int, key: str = "executor") -> None:
    """Refuse an unknown executor or a worker count below one, naming key, value and what is
    allowed (before any run starts)."""
    if executor not in EXECUTORS:
        raise ValueError(f"{key} = {executor!r}: allowed: one of {', '.join(EXECUTORS)}")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers = {workers!r}: allowed: an integer >= 1")


def run_names(fn: Callable, grid: Sequence[tuple], labels: Sequence[str] | None) -> list[str]:
    """One file name per run: its position and a hash of the function's name, its label and its
    pickled arguments (so a changed grid never reloads another grid's results)."""
    if labels is not None and len(labels) != len(grid):
        raise ValueError(f"labels: {len(labels)} given for {len(grid)} runs; allowed: one per run")
    out = []
    for i, args in enumerate(grid):
        label = labels[i] if labels is not None else ""
        digest = hashlib.md5(f"{fn.__module__}.{fn.__qualname__}|{label}|".encode())
        digest.update(pickle.dumps(tuple(args), protocol=4))
        out.append(f"{i:05d}-{digest.hexdigest()[:16]}")
    return out


def call_and_save(fn: Callable, args: tuple, path: Path,
                  submitter: tuple[int, int | None] | None = None) -> Any:
    """Run one grid point single-threaded and write its result to `path` (atomically: a run cut
    short leaves no file); the job a submitit executor runs. A run that raises returns `Failed`
    and writes nothing. A local job is given its `submitter` (the kernel's pid and start time)
    and ends, with what it started, once that process is gone: a killed kernel cannot cancel
    it, and submitit would let it run to its time limit."""
    if submitter is not None:
        pid, birth = submitter
        processes.watch(lambda: processes.started(pid) != birth,
                        f"sweep job: the process that submitted it (pid {pid}) is gone; ending",
                        3, "end-with-submitter")
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch else None
    if torch:
        torch.set_num_threads(1)
    try:
        result = fn(*args)
    except Exception as err:
        import traceback
        return Failed(f"{type(err).__name__}: {err}", traceback.format_exc())
    finally:
        if torch:
            torch.set_num_threads(threads)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(pickle.dumps(result, protocol=4))
    os.replace(tmp, path)
    return result


def executor(kind: str, folder: Path, workers: int, slurm: Slurm | None = None,
             name: str = "sweep"):
    """A submitit executor of the given kind (debug, local or slurm), its logs under `folder`."""
    import submitit
    check(kind, workers)
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "debug":
        return submitit.DebugExecutor(folder)
    settings = slurm or Slurm()
    if kind == "local":
        ex = submitit.LocalExecutor(folder)
        ex.update_parameters(timeout_min=settings.time_min, gpus_per_node=settings.gpus)
        return ex
    if kind == "slurm":
        cluster = os.environ.get(SLURM_CLUSTER_ENV) or "slurm"
        if cluster not in SLURM_CLUSTERS:
            raise ValueError(f"{SLURM_CLUSTER_ENV} = {cluster!r}: allowed: one of "
                             f"{', '.join(SLURM_CLUSTERS)}")
        ex = submitit.AutoExecutor(folder, cluster=cluster)
        ex.update_parameters(**settings.parameters(workers, name))
        return ex
    raise ValueError(f"executor = {kind!r}: allowed: debug, local, slurm (inline needs none)")


def run(fn: Callable, grid: Sequence[tuple], folder: Path | str, executor_kind: str = "local",
        workers: int = 1, labels: Sequence[str] | None = None, slurm: Slurm | None = None,
        name: str = "sweep", progress: bool = True) -> list:
    """Every `fn(*args)` of `grid` on the `executor_kind` executor, resuming from the run files a
    sweep cut short left under `folder`/runs: the results in grid order. A failed run raises
    SweepError naming it (its label, else its position and arguments); finished runs stay saved."""
    check(executor_kind, workers)
    grid = [tuple(a) for a in grid]
    folder = Path(folder)
    store = folder / "runs"
    store.mkdir(parents=True, exist_ok=True)
    names = run_names(fn, grid, labels)
    paths = [store / f"{n}.pkl" for n in names]
    results: list = [None] * len(grid)
    todo = []
    for i, path in enumerate(paths):
        if path.exists():
            results[i] = pickle.loads(path.read_bytes())
        else:
            todo.append(i)

    def named(i: int) -> str:
        return labels[i] if labels is not None else f"#{i} {fn.__qualname__}{grid[i]!r}"[:200]

    from tqdm.auto import tqdm
    told.sweep_started(len(grid), len(grid) - len(todo))   # make repro's status line reads it
    with tqdm(total=len(grid), initial=len(grid) - len(todo), desc=f"{name} ({executor_kind})",
              disable=not progress) as bar:
        def advance() -> None:
            bar.update(1)
            told.run_done()
        if executor_kind == "inline":
            for i in todo:
                results[i] = checked(call_and_save(fn, grid[i], paths[i]), named(i), name)
                advance()
        else:
            ex = executor(executor_kind, folder / "jobs", workers, slurm, name)
            _submitted(ex, executor_kind, fn, grid, paths, todo, workers, results, named, name,
                       advance)
    shutil.rmtree(store, ignore_errors=True)           # complete: nothing left to resume
    remove_if_empty(folder)                             # and no job logs (inline) to keep
    return results


def remove_if_empty(folder: Path) -> None:
    """Remove `folder` when nothing is in it, so a complete sweep leaves no empty folders."""
    try:
        folder.rmdir()
    except OSError:                                     # not empty (job logs), or already gone
        pass


def checked(result: Any, run_name: str, name: str) -> Any:
    """A run's result, or SweepError naming the run when it returned `Failed`."""
    if isinstance(result, Failed):
        raise SweepError(f"{name}: run {run_name} failed: {result.error}\n{result.traceback}")
    return result


def _submitted(ex, kind: str, fn: Callable, grid: list[tuple], paths: list[Path], todo: list[int],
               workers: int, results: list, named: Callable[[int], str], name: str,
               advance: Callable[[], None]) -> None:
    """Submit the runs still to do (at most `workers` local jobs at once; SLURM throttles its own
    array) and fill `results` as they finish (`advance` told of each); on a failure cancel the
    rest and raise."""
    pending, running = list(todo), {}
    local = kind == "local" or (kind == "slurm" and ex.cluster == "local")
    me = (os.getpid(), processes.started(os.getpid())) if local else None

    def collect(i: int, job) -> None:
        try:
            results[i] = checked(job.result(), named(i), name)
        except Exception as err:                 # the run raised, or its job died (timeout)
            for other in running.values():
                other.cancel(check=False)
            if isinstance(err, SweepError):
                raise
            raise SweepError(f"{name}: run {named(i)} failed: {type(err).__name__}: "
                             f"{str(err).strip()[-2000:]}") from err
        advance()

    # a SLURM array throttles itself (slurm_array_parallelism); submitit's local stand-in for it
    # ignores that, so its jobs are held to `workers` here as local ones are
    if kind == "debug" or (kind == "slurm" and ex.cluster == "slurm"):
        with ex.batch():
            jobs = [(i, ex.submit(call_and_save, fn, grid[i], paths[i])) for i in pending]
        running.update(jobs)
        for i, job in jobs:
            del running[i]
            collect(i, job)
        return
    while pending or running:
        while pending and len(running) < workers:
            i = pending.pop(0)
            running[i] = ex.submit(call_and_save, fn, grid[i], paths[i], me)
        for i, job in list(running.items()):
            if job.done():
                del running[i]
                collect(i, job)
        time.sleep(POLL_SECONDS)


class SweepParams(NotebookParams):
    """Keys of a notebook whose grid goes through the engine: where its runs go, how many at
    once, and the SLURM job settings; a schema extends this instead of NotebookParams."""

    executor: Literal[EXECUTORS] = param(
        "inline", "where the grid's runs go: inline in the kernel (one after the other), "
        "debug (in the kernel, through submitit), local subprocesses, or slurm jobs")
    workers: Annotated[int, Field(ge=1, le=1024)] = param(
        1, "runs at once (local) or the SLURM array's parallelism; runs are single-threaded, "
        "so the results are the same for any count")
    slurm_partition: Annotated[str, Field(max_length=128, pattern=r"^[A-Za-z0-9_.,-]*$")] = \
        param("", "SLURM partition ('' the cluster's default)")
    slurm_gpus: Annotated[int, Field(ge=0, le=16)] = param(0, "GPUs per SLURM job")
    slurm_time_min: Annotated[int, Field(ge=1, le=20160)] = param(
        240, "a SLURM job's time limit in minutes (<= 14 days, the runner's paper limit)")

    def jobs(self) -> int:
        """How many runs the notebook's grid hands to the engine (each schema counts its own)."""
        raise NotImplementedError(f"{type(self).__name__} does not count its sweep's runs")

    def slurm(self) -> Slurm:
        """The SLURM settings these parameters carry."""
        return Slurm(self.slurm_partition or None, self.slurm_gpus, self.slurm_time_min)


# What every engine-backed schema's paper profile carries (`PAPER = {**sweep.PAPER, ...}`).
PAPER = {"executor": ("local", "the paper profile's grid on local subprocesses "
                                "(`-p executor=slurm` on a cluster)"),
         "workers": (2, "two runs at once (a laptop's cores; raise on a bigger machine)")}


def folder(notebook: str, profile: str) -> Path:
    """Where a notebook's sweep keeps its run files and job logs: results/<paper>/sweeps/<stem>/
    <profile>, beside (not among) its DVC outputs."""
    paper, stem = places.split_notebook(notebook)
    return places.RESULTS / paper / "sweeps" / stem / profile


def run_params(fn: Callable, grid: Sequence[tuple], cfg: SweepParams, notebook: str,
               labels: Sequence[str] | None = None, progress: bool = True) -> list:
    """`run` with the executor, workers and SLURM settings of a notebook's parameters, in the
    notebook's sweep folder (its notebook's folder removed too when the sweep leaves it empty)."""
    where = folder(notebook, cfg.profile)
    results = run(fn, grid, where, cfg.executor, cfg.workers, labels=labels, slurm=cfg.slurm(),
                  name=notebook.replace("/", "_"), progress=progress)
    remove_if_empty(where.parent)
    return results
