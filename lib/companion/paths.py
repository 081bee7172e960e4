"""Every path the companion reads or writes, derived from this file's location.

Notebooks, tests and stages call these helpers instead of spelling paths, so the code works from
any working directory (JupyterLab, papermill, nbval each pick a different one). The `dvc.yaml`
files, the only other place a path is spelled, are generated from these helpers
(lib.companion.generate).
"""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
RESULTS = ROOT / "results"
NOTEBOOKS = ROOT / "notebooks"
# The root params.yaml holds what spans papers (profile, seed); each paper's own parameters are in
# notebooks/<paper>/params.yaml and its notebook stages in notebooks/<paper>/dvc.yaml
PARAMS_FILE = ROOT / "params.yaml"
# every stage's committed default-profile time (`python -m lib.companion.timings --write`)
TIMINGS_SNAPSHOT = ROOT / "docs" / "timings.json"
# Set by the runner to "<paper>/<stem>=<folder>": that notebook's outputs are written under the
# folder (laid out like results/) and swapped in only when the run succeeds.
STAGING_ENV = "COMPANION_STAGING"
# Outside the runner (JupyterLab, a plain kernel) a notebook writes under results/lab/, laid out
# like results/, unless this is "results" (nbval's smoke copy sets it): exploring never
# overwrites what `dvc repro` recorded.
OUTPUTS_ENV = "COMPANION_OUTPUTS"
LAB_RESULTS = RESULTS / "lab"


def split_notebook(notebook: str) -> tuple[str, str]:
    """Split a notebook id "<paper>/<stem>" into its paper and stem, refusing unknown papers."""
    paper, sep, stem = notebook.partition("/")
    if not sep or not stem or "/" in stem:
        raise ValueError(f"notebook id {notebook!r} must look like '<paper>/<stem>'")
    from lib.companion import papers  # the declarations say which papers exist
    if not (NOTEBOOKS / paper / papers.DECLARATION).is_file():
        raise ValueError(f"notebook id {notebook!r}: paper {paper!r} is not one of "
                         f"{papers.names()} (declared in notebooks/<paper>/paper.yaml)")
    return paper, stem


def paper_params_file(paper: str, root: Path | None = None) -> Path:
    """notebooks/<paper>/params.yaml (of the project, or of a copy at `root`): the paper's
    notebook sections (DVC reads one paper's per stage)."""
    return (NOTEBOOKS if root is None else root / "notebooks") / paper / "params.yaml"


def paper_pipeline_file(paper: str) -> Path:
    """notebooks/<paper>/dvc.yaml: the paper's notebook stages (its dvc.lock lies beside it)."""
    return NOTEBOOKS / paper / "dvc.yaml"


def notebook_source(notebook: str) -> Path:
    """The jupytext percent file that is the notebook's source of truth."""
    paper, stem = split_notebook(notebook)
    return NOTEBOOKS / paper / f"{stem}.py"


def notebook_id(path: Path | str) -> str:
    """The id "<paper>/<stem>" of a notebook source path (absolute or relative to the root)."""
    path = Path(path)
    path = (path if path.is_absolute() else ROOT / path).resolve()
    rel = path.relative_to(NOTEBOOKS)
    if len(rel.parts) != 2 or rel.suffix != ".py":
        raise ValueError(f"{path} is not a notebook source notebooks/<paper>/<stem>.py")
    notebook = f"{rel.parts[0]}/{rel.stem}"
    split_notebook(notebook)
    return notebook


def results_dir(paper: str, kind: str) -> Path:
    """results/<paper>/<kind>, kind one of executed, figures, tables, claims, plots (the
    workspace's, whoever is running)."""
    if kind not in ("executed", "figures", "tables", "claims", "plots"):
        raise ValueError(f"results kind {kind!r} is not one of executed, figures, tables, claims,"
                         " plots")
    return RESULTS / paper / kind


def staging_root(notebook: str) -> Path | None:
    """The folder the runner stages this notebook's outputs in, when it is running it."""
    spec = os.environ.get(STAGING_ENV, "")
    running, sep, folder = spec.partition("=")
    return Path(folder) if sep and running == notebook else None


def output_dir(notebook: str, kind: str) -> Path:
    """results/<paper>/<kind> for this notebook's own outputs, or the same place under the
    runner's staging folder while the runner executes it (other notebooks' outputs, which it
    may read, stay where they are)."""
    paper, _ = split_notebook(notebook)
    staged = staging_root(notebook)
    return results_dir(paper, kind) if staged is None else staged / paper / kind


def figures_dir(notebook: str) -> Path:
    """Folder holding one notebook's figures (a DVC output of its stage)."""
    return output_dir(notebook, "figures") / split_notebook(notebook)[1]


def tables_dir(notebook: str) -> Path:
    """Folder holding one notebook's tables (a DVC output of its stage)."""
    return output_dir(notebook, "tables") / split_notebook(notebook)[1]


def plots_dir(notebook: str) -> Path:
    """Folder holding copies of the notebook's tables that DVC plots (file outputs of its stage:
    DVC cannot plot a file inside a directory output whose contents a fresh clone lacks)."""
    return output_dir(notebook, "plots") / split_notebook(notebook)[1]


def plot_file(notebook: str, table: str) -> Path:
    """One plotted table's copy."""
    return plots_dir(notebook) / table


def claims_file(notebook: str) -> Path:
    """One notebook's claim records (the stage's metric file)."""
    return output_dir(notebook, "claims") / f"{split_notebook(notebook)[1]}.json"


def executed_file(notebook: str) -> Path:
    """Where the runner writes the executed copy of a notebook."""
    return output_dir(notebook, "executed") / f"{split_notebook(notebook)[1]}.ipynb"


def run_record(notebook: str) -> Path:
    """results/runs/<paper>/<stem>.json: how the runner's last run of a notebook ended; an
    output of its stage (uncached), so a run that did not end `ok` leaves the stage out of date
    for DVC; the claims stage reads it."""
    paper, stem = split_notebook(notebook)
    return RESULTS / "runs" / paper / f"{stem}.json"


def failed_copy(notebook: str) -> Path:
    """results/failed/<paper>/<stem>.ipynb: the executed copy of a run that failed, its error
    shown (outside every DVC output; removed by the next successful run)."""
    paper, stem = split_notebook(notebook)
    return RESULTS / "failed" / paper / f"{stem}.ipynb"


def lock_file(notebook: str) -> Path:
    """The lock one run of a notebook holds (two runs at once would write the same outputs)."""
    paper, stem = split_notebook(notebook)
    return RESULTS / ".locks" / f"{paper}__{stem}.lock"


def staging_dir(notebook: str) -> Path:
    """Where the runner stages a run's outputs before swapping them in."""
    paper, stem = split_notebook(notebook)
    return RESULTS / ".staging" / f"{paper}__{stem}"


def timings_dir() -> Path:
    """results/timings: wall-clock values (never inside a DVC output; the performance page reads
    them)."""
    return RESULTS / "timings"


def timing_table(notebook: str, name: str) -> Path:
    """A notebook's own timing table (e.g. training seconds per run), beside its stage time."""
    return timings_dir() / f"{notebook.replace('/', '__')}__{name}.csv"


def data_file(name: str) -> Path:
    """A file under data/ (restored by `dvc pull data.dvc`), checked to exist."""
    path = DATA / name
    if not path.exists():
        raise FileNotFoundError(
            f"data file {path} is missing: run `dvc pull data.dvc` (see data/README.md)")
    return path


def ledger_files() -> dict[str, Path]:
    """Outputs of the claims stage: merged JSON, rendered table, the metrics summary and the
    fingerprints of the runs the ledger's results came from."""
    return {"json": RESULTS / "claims.json", "markdown": RESULTS / "CLAIMS.md",
            "summary": RESULTS / "claims_summary.json",
            "fingerprints": RESULTS / "fingerprints.json"}
