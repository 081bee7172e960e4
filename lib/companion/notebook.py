"""The one call every notebook opens with: id, validated parameters, ledger, generator, tables.

    nb = notebook.start("<paper>/<stem>", globals())
    cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
    ...
    nb.save_figure(fig, "panel")
    nb.finish()          # writes the claims; the cell shows them as a table

`start` validates what the parameters cell (or papermill) left in the namespace, checks that the
data the paper's declaration says the notebook reads is present, puts torch on one thread
(`one_torch_thread`), and makes the tables folder.
Under the runner it also ends the kernel when the runner is gone (`end_with_runner`); outside
it (JupyterLab) the notebook's outputs go to results/lab/ (`interactive_outputs`).
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from lib.companion import claims, declared, numerics, papers, params, paths, plotting, processes


@dataclass
class Notebook:
    """What a running notebook needs from the companion, built once by `start`."""

    id: str
    cfg: params.NotebookParams
    ledger: claims.Ledger
    rng: np.random.Generator
    tables: Path

    def save_figure(self, fig, panel: str | None = None) -> list[Path]:
        """Write <stem>[_<panel>].png and .pdf into this notebook's figures folder."""
        return plotting.save_figure(fig, self.id, panel)

    def save_timing(self, table, name: str) -> Path:
        """Write a DataFrame of wall-clock values to results/timings/, outside every DVC output
        (a time differs on every run); the report's performance page shows it."""
        out = paths.timing_table(self.id, name)
        out.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(out, index=False)
        return out

    def publish_plots(self) -> list[Path]:
        """Copy the tables the declaration marks for `dvc plots` to their own output files."""
        out = []
        for plot in papers.notebook_entry(self.id).plots:
            source = self.tables / plot.table
            if not source.exists():
                raise FileNotFoundError(f"{self.id} declares a plot of {plot.table}, which it did "
                                        f"not write into {self.tables}")
            target = paths.plot_file(self.id, plot.table)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            out.append(target)
        return out

    def finish(self) -> claims.Ledger:
        """Publish the plotted tables, write the claims file, check that every claim the
        declaration sets beside a figure was recorded, and return the ledger (it renders as a
        table in the lab)."""
        self.publish_plots()
        self.ledger.write()
        recorded = [c.id.split(".", 1)[1] for c in self.ledger.claims]
        check_figure_claims(self.id, recorded)
        check_declared_claims(self.id, recorded)
        return self.ledger


def check_figure_claims(notebook: str, recorded: list[str]) -> None:
    """Refuse a declaration whose figures name claims the notebook did not record (the book
    would show an empty place beside the figure)."""
    for fig in papers.notebook_entry(notebook).figures:
        missing = [c for c in fig.claims if c not in recorded]
        if missing:
            raise papers.DeclarationError(
                f"notebooks/{notebook.split('/')[0]}/{papers.DECLARATION}: figure {fig.name} "
                f"lists claims {missing} that {notebook} did not record; it recorded {recorded}")


def check_declared_claims(notebook: str, recorded: list[str]) -> None:
    """Refuse a run that did not record every claim its paper's claims.yaml gives this notebook
    (the ledger would show it as an error of a run that finished)."""
    paper, stem = notebook.split("/")
    missing = [cid.split(".", 1)[1] for cid, d in declared.for_paper(paper).items()
               if d.notebook == stem and cid.split(".", 1)[1] not in recorded]
    if missing:
        raise declared.DeclarationError(f"notebooks/{paper}/{declared.FILE} declares claims "
                                        f"{missing} for {notebook}, which it did not record")


def check_inputs(notebook: str) -> None:
    """Refuse to start when a data file or folder the declaration lists for it, or the tables
    of an earlier notebook it reads, are missing."""
    entry = papers.notebook_entry(notebook)
    for folder in entry.data:
        path = paths.DATA / folder
        if not path.exists():
            raise FileNotFoundError(f"{notebook} reads data/{folder}, which is missing: run "
                                    "`dvc pull data.dvc` (make data)")
    paper = notebook.split("/")[0]
    for stem in entry.reads:
        if not paths.tables_dir(f"{paper}/{stem}").exists():
            raise FileNotFoundError(f"{notebook} reads the tables of {paper}/{stem}, which has "
                                    f"not run: `dvc repro notebooks/{paper}/dvc.yaml:"
                                    f"{paper}-{stem}` first")


def end_with_runner(period_s: float = 0.5) -> bool:
    """Under the runner (COMPANION_RUNNER_PID is its parent), watch it from a daemon thread and
    end this kernel, and the jobs its sweeps started, once it is gone: a kernel orphaned by a
    killed runner would keep writing into a folder nobody swaps in, beside the next run, and its
    jobs would run on to submitit's time limit. Returns whether a watch was started."""
    runner = os.environ.get("COMPANION_RUNNER_PID", "")
    if not runner.isdigit() or int(runner) != os.getppid():
        return False                                     # JupyterLab, nbval: nothing to watch
    if any(t.name == "end-with-runner" for t in threading.enumerate()):
        return True
    processes.watch(lambda: os.getppid() != int(runner),
                    "kernel: its runner is gone; ending the kernel and its jobs", 3,
                    "end-with-runner", period_s)
    return True


def interactive_outputs(notebook: str) -> Path | None:
    """Outside the runner and nbval, send this notebook's own outputs to results/lab/ (the
    tables of earlier notebooks it reads stay where they are); return that folder, or None when
    the outputs go where the runner or COMPANION_OUTPUTS=results says."""
    if paths.staging_root(notebook) is not None or os.environ.get(paths.OUTPUTS_ENV) == "results":
        return None
    os.environ[paths.STAGING_ENV] = f"{notebook}={paths.LAB_RESULTS}"
    return paths.LAB_RESULTS


def one_torch_thread() -> bool:
    """The thread policy, applied once here for every notebook: torch, when the notebook has
    imported it (its lib modules are imported before `start`), computes on one thread (two
    threads under contention ran many times slower, and the thread count changes float
    results). Returns whether torch was there to set."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    torch.set_num_threads(1)
    return True


def start(notebook: str, namespace: Mapping[str, Any]) -> Notebook:
    """Validate the parameters in `namespace`, check inputs, set the thread policy, open the
    ledger and tables folder."""
    end_with_runner()
    one_torch_thread()
    lab = interactive_outputs(notebook)
    if numerics.drift() and not numerics.native():
        print("This kernel's CPU libraries chose their own code paths (start JupyterLab with "
              "`make lab` to pin them, lib/companion/numerics.py): its numbers may differ from "
              "dvc.lock's in the last bits, and training may carry that further.")
    if lab is not None:
        print(f"An interactive run: this notebook's figures, tables and claims go to "
              f"{lab.relative_to(paths.ROOT)}/{notebook.split('/')[0]}/; results/ stays as "
              f"`dvc repro` left it (set {paths.OUTPUTS_ENV}=results to write there).")
    cfg = params.from_namespace(notebook, namespace)
    check_inputs(notebook)
    tables = paths.tables_dir(notebook)
    tables.mkdir(parents=True, exist_ok=True)
    return Notebook(notebook, cfg, claims.Ledger(notebook, cfg), np.random.default_rng(cfg.seed),
                    tables)
