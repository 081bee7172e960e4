"""lib.companion.parallel: the out-of-date notebook stages run side by side and committed, to the
very dvc.lock a sequential `dvc repro` writes.

In a throwaway copy of the project a toy paper has three notebooks: 01 and 02 independent, 03
reading 01's table. The plan is checked on the declarations alone; then the copy is run with two
workers, its lock compared byte for byte with the one `dvc repro --force` writes for the same
stages, and a failing notebook shown to skip its reader and leave the others committed.
"""
import sys
from pathlib import Path

import pytest

from lib.companion import parallel
from tests import project_copy
from tests.project_copy import run

pytestmark = pytest.mark.heavy

DECLARATION = """\
short: toy
title: A Toy Paper for the Parallel Runner
authors: [Nobody]
arxiv: "0000.00000"
notebooks:
- stem: 01_first
  params: First
  figures:
  - name: 01_first
    caption: the value
    claims: [01_first.value]
- stem: 02_second
  params: First
  figures:
  - name: 02_second
    caption: the value
    claims: [02_second.value]
- stem: 03_reader
  params: First
  reads:
  - 01_first
  figures:
  - name: 03_reader
    caption: the value read back
    claims: [reader.value]
"""
SCHEMA = '''\
"""Parameters of the toy paper."""
from lib.companion.params import NotebookParams, param


class First(NotebookParams):
    """Every toy notebook: a value to write, a switch to fail."""

    value: int = param(1, "written to the table", ge=0, le=100)
    fail: int = param(0, "non-zero raises", ge=0, le=1)
'''
WRITER = '''\
# %% [markdown]
# # A toy notebook that writes a table

# %% tags=["parameters"]

# %%
import pandas as pd

from lib.companion import notebook, plotting

nb = notebook.start("toy/{stem}", globals())
if nb.cfg.fail:
    raise RuntimeError("injected")
pd.DataFrame({{"v": [nb.cfg.value]}}).to_csv(nb.tables / "t.csv", index=False)
fig, ax = plotting.figure()
ax.bar([0], [nb.cfg.value])
nb.save_figure(fig)
nb.ledger.exact("{stem}.value", "the value is written", source="toy", provenance="derived",
                expected=nb.cfg.value, measured=int(pd.read_csv(nb.tables / "t.csv").v[0]))
nb.finish()
'''
READER = '''\
# %% [markdown]
# # A toy notebook that reads 01's table

# %% tags=["parameters"]

# %%
import pandas as pd

from lib.companion import notebook, paths, plotting

nb = notebook.start("toy/03_reader", globals())
v = int(pd.read_csv(paths.tables_dir("toy/01_first") / "t.csv").v[0])
fig, ax = plotting.figure()
ax.bar([0], [v])
nb.save_figure(fig)
nb.ledger.exact("reader.value", "01's value read back", source="toy", provenance="derived",
                expected=nb.cfg.value, measured=v)
nb.finish()
'''


@pytest.fixture(scope="module")
def root(project_template, tmp_path_factory) -> Path:
    return project_copy.clone(project_template, tmp_path_factory.mktemp("parallel") / "companion", {
        "notebooks/toy/paper.yaml": DECLARATION,
        "notebooks/toy/01_first.py": WRITER.format(stem="01_first"),
        "notebooks/toy/02_second.py": WRITER.format(stem="02_second"),
        "notebooks/toy/03_reader.py": READER,
        "lib/toy/__init__.py": '"""A toy paper."""\n',
        "lib/toy/schema.py": SCHEMA})


def test_plan_adds_the_readers_of_a_stale_stage_and_orders_them(monkeypatch):
    from lib.companion import papers

    class Entry:
        def __init__(self, reads):
            self.reads = reads
    reads = {"ptnas/01": [], "ptnas/02": ["01"], "ptnas/03": ["02"], "ptnas/04": []}
    monkeypatch.setattr(papers, "notebook_entry", lambda n: Entry(reads[n]))
    stages = parallel.plan(["ptnas/01"], list(reads))
    assert list(stages) == ["ptnas/01", "ptnas/02", "ptnas/03"]       # 04 is up to date
    assert stages["ptnas/02"].after == {"ptnas/01"} and stages["ptnas/03"].after == {"ptnas/02"}
    assert parallel.plan(["ptnas/03"], list(reads))["ptnas/03"].after == set()   # 02 not run


def test_target_names_round_trip():
    target = parallel.target_of("linear_rnns/08_trained_models")
    assert target == "notebooks/linear_rnns/dvc.yaml:linear_rnns-08_trained_models"
    assert parallel.notebook_of(target) == "linear_rnns/08_trained_models"
    assert parallel.notebook_of("params") is None


def test_two_workers_write_the_lock_dvc_repro_writes(root):
    target = "notebooks/toy/dvc.yaml"
    done = run([sys.executable, "-m", "lib.companion.parallel", "--jobs", "2", target], root)
    assert "3 notebook stage(s) to run on 2 worker(s)" in done.stdout
    status = run([sys.executable, "-m", "dvc", "status", target], root).stdout
    assert "up to date" in status, status
    ours = (root / "notebooks/toy/dvc.lock").read_bytes()
    again = run([sys.executable, "-m", "lib.companion.parallel", "--jobs", "2", target], root)
    assert "0 notebook stage(s)" in again.stdout                    # nothing out of date
    run([sys.executable, "-m", "dvc", "repro", "--force", "--quiet", target], root)
    assert (root / "notebooks/toy/dvc.lock").read_bytes() == ours


def test_a_failed_stage_skips_its_reader_and_the_rest_are_committed(root):
    params = root / "notebooks/toy/params.yaml"
    saved = params.read_text()
    try:
        text = saved.replace("value: 1", "value: 2")                   # all three out of date
        assert text.index("fail: 0") < text.index("second"), text
        params.write_text(text.replace("fail: 0", "fail: 1", 1))       # 01 fails
        done = run([sys.executable, "-m", "lib.companion.parallel", "--jobs", "2",
                    "notebooks/toy/dvc.yaml"], root, ok=False)
        assert done.returncode == 1
        assert "FAILED notebooks/toy/dvc.yaml:toy-01_first" in done.stdout
        assert "skipped notebooks/toy/dvc.yaml:toy-03_reader" in done.stdout
        assert "RuntimeError: injected" in done.stderr                  # the log's tail
        status = run([sys.executable, "-m", "dvc", "status",
                      "notebooks/toy/dvc.yaml:toy-02_second"], root).stdout
        assert "up to date" in status, status                            # 02 ran and is committed
    finally:
        params.write_text(saved)


def test_longest_first_and_readers_after(monkeypatch):
    walls = {"ptnas/01": 5.0, "ptnas/02": 50.0, "ptnas/03": 500.0, "ptnas/04": 20.0}
    monkeypatch.setattr(parallel, "last_wall_s", walls.get)
    started = []
    monkeypatch.setattr(parallel, "run_one", lambda stage, lock: (started.append(
        stage.notebook), (True, 0.0))[1])
    stages = {n: parallel.Stage(parallel.target_of(n), n) for n in walls}
    stages["ptnas/03"].after = {"ptnas/01"}                   # the longest waits for the shortest
    assert parallel.run_all(stages, jobs=1) == []
    assert started == ["ptnas/02", "ptnas/04", "ptnas/01", "ptnas/03"]
