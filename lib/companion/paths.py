"""Every path the companion reads or writes, derived from this file's location.

Notebooks, tests and stages call these helpers instead of spelling paths, so the code works from
any working directory (JupyterLab, papermill, nbval each pick a different one). `dvc.yaml`, the
only other place a path is spelled, is generated from these helpers (lib.companion.generate).
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
RESULTS = ROOT / "results"
NOTEBOOKS = ROOT / "notebooks"
PARAMS_FILE = ROOT / "params.yaml"


def split_notebook(notebook: str) -> tuple[str, str]:
    """Split a notebook id "<paper>/<stem>" into its paper and stem, refusing unknown papers."""
    paper, sep, stem = notebook.partition("/")
    if not sep or not stem or "/" in stem:
        raise ValueError(f"notebook id {notebook!r} must look like '<paper>/<stem>'")
    from lib.companion import papers  # the declarations say which papers exist
    if paper not in papers.names():
        raise ValueError(f"notebook id {notebook!r}: paper {paper!r} is not one of "
                         f"{papers.names()} (declared in notebooks/<paper>/paper.yaml)")
    return paper, stem


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
    """results/<paper>/<kind>, kind one of executed, figures, tables, claims, plots."""
    if kind not in ("executed", "figures", "tables", "claims", "plots"):
        raise ValueError(f"results kind {kind!r} is not one of executed, figures, tables, claims,"
                         " plots")
    return RESULTS / paper / kind


def figures_dir(notebook: str) -> Path:
    """Folder holding one notebook's figures (a DVC output of its stage)."""
    paper, stem = split_notebook(notebook)
    return results_dir(paper, "figures") / stem


def tables_dir(notebook: str) -> Path:
    """Folder holding one notebook's tables (a DVC output of its stage)."""
    paper, stem = split_notebook(notebook)
    return results_dir(paper, "tables") / stem


def plots_dir(notebook: str) -> Path:
    """Folder holding copies of the notebook's tables that DVC plots (file outputs of its stage:
    DVC cannot plot a file inside a directory output whose contents a fresh clone lacks)."""
    paper, stem = split_notebook(notebook)
    return results_dir(paper, "plots") / stem


def plot_file(notebook: str, table: str) -> Path:
    """One plotted table's copy."""
    return plots_dir(notebook) / table


def claims_file(notebook: str) -> Path:
    """One notebook's claim records (the stage's metric file)."""
    paper, stem = split_notebook(notebook)
    return results_dir(paper, "claims") / f"{stem}.json"


def executed_file(notebook: str) -> Path:
    """Where the runner writes the executed copy of a notebook."""
    paper, stem = split_notebook(notebook)
    return results_dir(paper, "executed") / f"{stem}.ipynb"


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
    """Outputs of the claims stage: merged JSON, rendered table and the metrics summary."""
    return {"json": RESULTS / "claims.json", "markdown": RESULTS / "CLAIMS.md",
            "summary": RESULTS / "claims_summary.json"}
