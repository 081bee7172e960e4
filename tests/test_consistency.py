"""The project agrees with itself: notebooks, params.yaml, schemas, dvc.yaml, lib.companion.paths, README.

Each notebook needs a params section, a schema, a DVC stage and a README row; its parameters
cell must hold exactly the schema's keys with the `default` profile's values; papermill must be
able to parse every line of that cell (it cannot read comments containing '=').
"""
import ast
import importlib
import subprocess
import sys

import jupytext
import nbformat
import papermill
import pytest
import yaml

from lib.companion import params, paths, runner

DVC = yaml.safe_load((paths.ROOT / "dvc.yaml").read_text())
NOTEBOOK_STAGES = {name: stage for name, stage in DVC["stages"].items()
                   if stage["cmd"].startswith("python -m lib.companion.runner ")}
NOTEBOOKS = sorted(f"{p.parent.name}/{p.stem}" for p in paths.NOTEBOOKS.glob("*/*.py"))
RAW = params.read_file()


def parameters_cell(notebook):
    nb = jupytext.read(paths.notebook_source(notebook))
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{notebook}: expected one cell tagged 'parameters', got {len(cells)}"
    return cells[0].source


def literal_assignments(source):
    values = {}
    for node in ast.parse(source).body:
        assert isinstance(node, ast.Assign) and len(node.targets) == 1, \
            f"parameters cell may hold only `name = literal` lines, got {ast.unparse(node)}"
        values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def test_every_notebook_has_section_schema_stage():
    sections = params.notebooks_in_file(RAW)
    stages = sorted(name.replace("-", "/", 1) for name in NOTEBOOK_STAGES)
    assert NOTEBOOKS == sorted(sections), "notebooks/ and params.yaml sections differ"
    assert NOTEBOOKS == stages, "notebooks/ and dvc.yaml notebook stages differ"
    for notebook in NOTEBOOKS:
        params.schema_for(notebook)


def test_stage_runs_the_notebook_it_is_named_after():
    for name, stage in NOTEBOOK_STAGES.items():
        paper, stem = name.split("-", 1)
        assert stage["cmd"] == f"python -m lib.companion.runner notebooks/{paper}/{stem}.py"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_parameters_cell_equals_default_profile(notebook):
    cell = literal_assignments(parameters_cell(notebook))
    expected = params.resolve(notebook, "default").model_dump()
    assert cell == expected


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_papermill_parses_every_parameter(notebook, tmp_path):
    path = tmp_path / "nb.ipynb"
    nbformat.write(runner.load_notebook(paths.notebook_source(notebook)), str(path))
    found = papermill.inspect_notebook(str(path))
    assert sorted(found) == sorted(params.schema_for(notebook).model_fields)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_declares_its_own_id(notebook):
    text = paths.notebook_source(notebook).read_text()
    assert f'NOTEBOOK = "{notebook}"' in text
    assert "plt.savefig" not in text and "rcParams" not in text and '"results/' not in text


def test_dvc_paths_agree_with_lib_paths():
    rel = lambda p: str(p.relative_to(paths.ROOT))
    for name, stage in NOTEBOOK_STAGES.items():
        notebook = name.replace("-", "/", 1)
        paper = notebook.split("/")[0]
        assert sorted(stage["outs"]) == sorted(rel(p) for p in (
            paths.executed_file(notebook), paths.figures_dir(notebook),
            paths.tables_dir(notebook), paths.claims_file(notebook)))
        assert rel(paths.notebook_source(notebook)) in stage["deps"]
        assert f"lib/{paper}" in stage["deps"] and "results/params.ok" in stage["deps"]
        assert stage["params"] == ["profile", "seed", notebook.replace("/", ".")]
    claims_deps = DVC["stages"]["claims"]["deps"]
    for paper in {name.split("-", 1)[0] for name in NOTEBOOK_STAGES}:
        assert str(paths.results_dir(paper, "claims").relative_to(paths.ROOT)) in claims_deps
    ledger = [str(p.relative_to(paths.ROOT)) for p in paths.ledger_files().values()]
    stage = DVC["stages"]["claims"]
    assert sorted(ledger) == sorted(stage["outs"] + stage["metrics"])


def test_readme_maps_every_stage():
    readme = (paths.ROOT / "README.md").read_text()
    for name in NOTEBOOK_STAGES:
        paper, stem = name.split("-", 1)
        assert f"`{name}`" in readme, f"README's figure table lacks stage {name}"
        assert f"notebooks/{paper}/{stem}.py" in readme


def test_schema_modules_exist_for_papers_in_params():
    for paper in paths.PAPERS:
        if RAW.get(paper):
            assert hasattr(importlib.import_module(f"lib.{paper}.schema"), "SECTIONS")


def test_params_check_cli_passes():
    done = subprocess.run([sys.executable, "-m", "lib.companion.params", "--check"], cwd=paths.ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
