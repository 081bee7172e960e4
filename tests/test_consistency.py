"""The project agrees with itself: notebooks, params.yaml, schemas, dvc.yaml, lib.paths, README.

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

from lib import params, paths, runner

DVC = yaml.safe_load((paths.ROOT / "dvc.yaml").read_text())
FOREACH = DVC["stages"]["notebook"]["foreach"]
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
    stages = sorted(f"{v['paper']}/{v['stem']}" for v in FOREACH.values())
    assert NOTEBOOKS == sorted(sections), "notebooks/ and params.yaml sections differ"
    assert NOTEBOOKS == stages, "notebooks/ and dvc.yaml notebook stages differ"
    for notebook in NOTEBOOKS:
        params.schema_for(notebook)


def test_stage_names_follow_paper_dash_stem():
    for name, item in FOREACH.items():
        assert name == f"{item['paper']}-{item['stem']}"


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
    do = DVC["stages"]["notebook"]["do"]
    for item in FOREACH.values():
        notebook = f"{item['paper']}/{item['stem']}"
        fill = lambda s: s.replace("${item.paper}", item["paper"]).replace("${item.stem}", item["stem"])
        rel = lambda p: str(p.relative_to(paths.ROOT))
        outs = [fill(o) for o in do["outs"]]
        assert rel(paths.executed_file(notebook)) in outs
        assert rel(paths.figures_dir(notebook)) in outs
        assert rel(paths.tables_dir(notebook)) in outs
        assert rel(paths.claims_file(notebook)) in outs
        assert fill(do["cmd"]) == f"python -m lib.runner {rel(paths.notebook_source(notebook))}"
        assert f"{item['paper']}.{item['stem']}" in [fill(p) for p in do["params"]]
    claims_deps = DVC["stages"]["claims"]["deps"]
    for paper in {v["paper"] for v in FOREACH.values()}:
        assert str(paths.results_dir(paper, "claims").relative_to(paths.ROOT)) in claims_deps
    ledger = [str(p.relative_to(paths.ROOT)) for p in paths.ledger_files().values()]
    stage = DVC["stages"]["claims"]
    assert sorted(ledger) == sorted(stage["outs"] + stage["metrics"])


def test_readme_maps_every_stage():
    readme = (paths.ROOT / "README.md").read_text()
    for name, item in FOREACH.items():
        assert f"notebook@{name}" in readme, f"README's figure table lacks stage notebook@{name}"
        assert f"notebooks/{item['paper']}/{item['stem']}.py" in readme


def test_schema_modules_exist_for_papers_in_params():
    for paper in paths.PAPERS:
        if RAW.get(paper):
            assert hasattr(importlib.import_module(f"lib.{paper}.schema"), "SECTIONS")


def test_params_check_cli_passes():
    done = subprocess.run([sys.executable, "-m", "lib.params", "--check"], cwd=paths.ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
