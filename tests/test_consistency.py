"""The project agrees with its declarations: notebooks, schemas, and the files derived from them.

The params.yaml and dvc.yaml files (the root's and each paper's), the tables of the README and the
guide (docs/guide/) and every parameters cell are generated from the papers' declarations
(notebooks/<paper>/paper.yaml) and schemas (lib/<paper>/schema.py); a stale copy fails here with
the command that regenerates it.
Papermill must be able to parse every line of a parameters cell (it cannot read comments
containing '=').
"""
import ast
import json
import re
import subprocess
import sys

import jupytext
import nbformat
import papermill
import pytest

from lib.companion import generate, guide, papers, params, paths, runner, timings

NOTEBOOKS = papers.all_notebooks()


def test_generated_files_are_current():
    stale = [str(p.relative_to(paths.ROOT)) for p in generate.stale()[0]]
    assert not stale, (f"{stale} differ from what the declarations and schemas give: "
                       "run `make sync` (python -m lib.companion.generate --write)")


def documents() -> list:
    """The README and the guide's pages: the prose a reader gets, checked alike."""
    return [paths.ROOT / "README.md", *(guide.page(stem) for stem in guide.pages())]


def markdown_tables(text: str) -> list[list[str]]:
    """Every Markdown table of a text: its runs of lines that start with |."""
    tables, run = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            run.append(line)
        elif run:
            tables.append(run)
            run = []
    return tables


def test_tables_keep_their_columns():
    # a caption or citation holding | (as in max |u|) must not split its cell: the generated
    # tables, and every table of the README and the guide as written (the cost plan too)
    tables = [t for text in (generate.papers_table(), generate.figures_table(),
                             generate.times_table(), generate.times_in_brief(),
                             *(doc.read_text() for doc in documents()))
              for t in markdown_tables(text)]
    for lines in tables:
        widths = {line.replace("\\|", "").count("|") for line in lines}
        assert len(widths) == 1, "\n".join(lines)


def test_the_readme_and_the_guide_speak_of_the_project_not_of_how_it_was_built():
    """A reader cannot follow an issue number, nor a word about what the builders were lent."""
    for doc in documents():
        found = re.findall(r"(?i)\bissues? #?\d+|\bGPU was lent\b", doc.read_text())
        assert not found, f"{doc.name} speaks of how the work was organised: {found}"


def test_the_readme_and_the_guide_state_only_times_the_timing_table_holds():
    # a time in the README or the guide is one the committed measurement holds, in its format
    snap = json.loads(timings.SNAPSHOT.read_text())
    held = [t[k] for t in snap["papers"].values() for k in ("wall_s", "cores_s")] + \
        [t[k] for t in snap["papers"].values() if t["budget_s"]
         for k in ("budget_s", "allowance_s")] + \
        [snap["all_stages_s"]] + [c["wall_s"] for c in snap["commands"].values()]
    held = {timings.fmt_time(v) for v in held}
    for doc in documents():
        stated = timings.stated_times(doc.read_text())
        assert set(stated) <= held, f"{doc.relative_to(paths.ROOT)} states " \
            f"{sorted(set(stated) - held)}, which docs/timings.json does not hold: re-measure " \
            "(`python -m lib.companion.timings --write`)"
    assert timings.stated_times((paths.ROOT / "README.md").read_text()), \
        "the README states no measured time"


def test_the_times_table_says_measured_once():
    # the note names the machine; the table's first line puts the date before it, once
    first = generate.times_table().splitlines()[0]
    assert first.count("Measured") == 1, first


LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and the book's MyST make it (lower case, punctuation
    dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_and_the_guide_link_only_what_exists():
    """Read from the repository, every relative link and image of the README and the guide
    reaches a file, and a fragment into a guide page one of its headings."""
    broken = []
    for doc in documents():
        for target in LINK.findall(doc.read_text()):
            if target.startswith(("http:", "https:", "mailto:", "#")):
                continue
            path, _, fragment = target.partition("#")
            found = (doc.parent / path).resolve()
            if not found.is_file():
                broken.append(f"{doc.name}: {target} (no file)")
            elif fragment and found.parent == guide.guide_dir().resolve():
                headings = re.findall(r"^#{1,6} (.+)$", found.read_text(), re.M)
                if fragment not in {slug(h) for h in headings}:
                    broken.append(f"{doc.name}: {target} (no such heading)")
    assert not broken, broken


def test_the_readme_links_every_guide_page():
    readme = (paths.ROOT / "README.md").read_text()
    missing = [stem for stem in guide.pages() if f"(docs/guide/{stem}.md)" not in readme]
    assert guide.pages() and not missing, f"the README does not link the guide's {missing}"


def test_every_notebook_file_is_declared():
    on_disk = sorted(f"{p.parent.name}/{p.stem}" for p in paths.NOTEBOOKS.glob("*/*.py"))
    assert on_disk == sorted(NOTEBOOKS), (
        "notebooks/ and the declarations differ: declare each notebook in its paper's "
        f"paper.yaml. Undeclared: {sorted(set(on_disk) - set(NOTEBOOKS))}; declared but "
        f"missing: {sorted(set(NOTEBOOKS) - set(on_disk))}")


def test_every_paper_has_a_schema_module_and_its_classes():
    for notebook in NOTEBOOKS:
        assert issubclass(params.schema_for(notebook), params.NotebookParams)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_parameter_has_a_default_and_a_reason(notebook):
    schema = params.schema_for(notebook)
    for key, field in schema.model_fields.items():
        assert not field.is_required(), f"{notebook}: {key} has no default (use param(...))"
        assert (field.description or "").strip(), f"{notebook}: {key} has no reason"
    for profile in ("smoke", "paper"):
        for key, (_, why) in schema.overrides(profile).items():
            assert key in schema.section_keys(), f"{notebook}: {profile} overrides unknown {key}"
            assert why.strip(), f"{notebook}: {profile}.{key} has no reason"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_schema_defaults_validate_in_every_profile(notebook):
    schema = params.schema_for(notebook)
    for profile in params.PROFILES:
        values = {k: v for k, (v, _) in schema.overrides(profile).items()}
        schema(**values, profile=profile)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_papermill_parses_every_parameter(notebook, tmp_path):
    path = tmp_path / "nb.ipynb"
    nbformat.write(runner.load_notebook(paths.notebook_source(notebook)), str(path))
    found = papermill.inspect_notebook(str(path))
    assert sorted(found) == sorted(params.schema_for(notebook).model_fields)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_opens_with_its_own_id(notebook):
    text = paths.notebook_source(notebook).read_text()
    assert f'notebook.start("{notebook}", globals())' in text
    assert "plt.savefig" not in text and "rcParams" not in text and '"results/' not in text


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_parameters_cell_holds_only_literals(notebook):
    nb = jupytext.read(paths.notebook_source(notebook))
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{notebook}: expected one cell tagged 'parameters'"
    for node in ast.parse(cells[0].source).body:
        assert isinstance(node, ast.Assign), f"{notebook}: {ast.unparse(node)} is not `k = v`"
        ast.literal_eval(node.value)


def test_declared_data_is_under_data():
    for notebook in NOTEBOOKS:
        for item in papers.notebook_entry(notebook).data:
            assert not item.startswith(("/", "..")), f"{notebook}: data entry {item!r}"


def test_params_check_cli_passes():
    done = subprocess.run([sys.executable, "-m", "lib.companion.params", "--check"],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_a_lab_save_leaves_the_source_as_it_is(notebook):
    """JupyterLab (jupytext, with notebooks/jupytext.toml) writes back what it read, byte for
    byte, kernelspec included: opening and saving a notebook changes no stage dependency, and
    the kernel starts without asking."""
    from jupytext.config import load_jupytext_config
    source = paths.notebook_source(notebook)
    config = load_jupytext_config(str(source.parent))
    nb = jupytext.read(source)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    assert jupytext.writes(nb, fmt="py:percent", config=config) == source.read_text()


def test_notebook_twins_are_ignored_by_git_and_dvc():
    twins = ["notebooks/gd_perceptron/01_reduction.ipynb",
             "notebooks/gd_perceptron/.ipynb_checkpoints/01_reduction-checkpoint.ipynb",
             "results/lab/gd_perceptron/figures/01_reduction/01_reduction.png"]
    git = subprocess.run(["git", "check-ignore", "--no-index", *twins], cwd=paths.ROOT,
                         capture_output=True, text=True)
    assert git.stdout.split() == twins
    dvc = subprocess.run([sys.executable, "-m", "dvc", "check-ignore", *twins[:2]],
                         cwd=paths.ROOT, capture_output=True, text=True)
    assert dvc.stdout.split() == twins[:2], dvc.stderr


CITATION = re.compile(r"spec §(\d+(?:\.\d+)*[a-z]?)")
SPEC_LINK = re.compile(r"\]\(\.\./\.\./docs/specs/(\w+)\.md#([\w-]+)\)")


@pytest.mark.parametrize("paper", papers.names())
def test_every_spec_citation_has_its_section_in_docs(paper):
    """The notebooks and code cite "spec §N": each N is a section of docs/specs/<paper>.md (the
    spec in the repository, anchored `<a id="sN">`), and in a markdown cell the citation is a
    link to it, so a reader never leaves the repository to follow one."""
    files = [*(paths.NOTEBOOKS / paper).glob("*.py"), *(paths.ROOT / "lib" / paper).rglob("*.py")]
    cited = {m[1] for f in files for m in CITATION.finditer(f.read_text())}
    if not cited:
        return
    doc = (paths.ROOT / "docs" / "specs" / f"{paper}.md").read_text()
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', doc))
    assert not {n for n in cited if "s" + n.replace(".", "-") not in anchors}
    for source in (paths.NOTEBOOKS / paper).glob("*.py"):
        for cell in jupytext.read(source).cells:
            if cell.cell_type != "markdown":
                continue
            bare = [m[0] for m in CITATION.finditer(cell.source)
                    if not cell.source[m.end():].startswith("](")]
            assert not bare, f"{source.name}: {bare} not linked to docs/specs/{paper}.md"
            for target, anchor in SPEC_LINK.findall(cell.source):
                assert target == paper and anchor in anchors, (source.name, target, anchor)


def test_the_committed_claims_summary_is_the_one_dvc_lock_records():
    """results/claims_summary.json is in git (cache: false) so that `dvc metrics diff` and
    `dvc exp show` read the claim counts at any commit of a fresh clone; the commit's copy must be
    the one its dvc.lock records, or those commands would show counts no run made."""
    import hashlib

    from lib.companion import yamlio
    lock = generate.committed(paths.ROOT / "dvc.lock")
    if lock is None:
        pytest.skip("not a git checkout")
    summary = generate.committed(paths.ROOT / "results/claims_summary.json")
    assert summary is not None, "results/claims_summary.json is not committed"
    outs = yamlio.load(lock, "dvc.lock")["stages"]["claims"]["outs"]
    recorded = next(o["md5"] for o in outs if o["path"] == "results/claims_summary.json")
    assert hashlib.md5(summary.encode()).hexdigest() == recorded


def test_no_dvc_lock_holds_a_stage_its_dvc_yaml_lacks():
    """DVC never prunes the lock entry of a stage taken out of its dvc.yaml: a stale entry (like
    the old layout's `notebook@<paper>-<stem>`) is refused here, and `make sync` prunes it."""
    pipelines = {path: path.read_text() for path in
                 [paths.ROOT / "dvc.yaml", *paths.NOTEBOOKS.glob("*/dvc.yaml")]}
    stale = {str(lock.relative_to(paths.ROOT)): names
             for lock, names in generate.stale_locks(pipelines).items()}
    assert not stale, f"{stale}: run `make sync`"


def test_a_stale_lock_entry_is_found_and_pruned_as_dvc_writes_it(tmp_path, monkeypatch):
    from dvc.utils.serialize import dump_yaml
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")     # no paper's lock here
    pipeline = tmp_path / "dvc.yaml"
    pipeline.write_text("stages:\n  kept:\n    cmd: echo\n")
    lock = tmp_path / "dvc.lock"
    entry = {"cmd": "echo", "deps": [{"path": "a", "md5": "0" * 32, "size": 1}]}
    dump_yaml(str(lock), {"schema": "2.0", "stages": {"kept": entry, "gone": entry}})
    stale = generate.stale_locks({pipeline: pipeline.read_text()})
    assert stale == {lock: ["gone"]}
    generate.prune_locks(stale)
    kept = tmp_path / "kept.lock"
    dump_yaml(str(kept), {"schema": "2.0", "stages": {"kept": entry}})
    assert lock.read_text() == kept.read_text()
    assert generate.stale_locks({pipeline: pipeline.read_text()}) == {}
    orphan = tmp_path / "notebooks" / "gone_paper" / "dvc.lock"     # a paper folder removed
    orphan.parent.mkdir(parents=True)
    dump_yaml(str(orphan), {"schema": "2.0", "stages": {"gone_paper-01_x": entry}})
    assert list(generate.stale_locks({pipeline: pipeline.read_text()})) == [orphan]


def test_shared_packages_are_stage_dependencies_of_the_papers_that_import_them():
    """lib/spiking is no paper's own place: each stage whose paper imports it lists it, so an
    edit to the shared kernels re-runs exactly those stages."""
    for nid in papers.all_notebooks():
        paper = nid.split("/")[0]
        uses = "lib/spiking" in generate.notebook_stage(nid)["deps"]
        assert uses == (paper in ("ttfs_snn", "ann2snn_cka", "spike_htr")), nid


def test_importing_another_papers_package_is_refused(tmp_path, monkeypatch):
    """What two papers share belongs in a shared package: a paper reaching into another's would
    leave its stage blind to that paper's edits."""
    (tmp_path / "notebooks" / "a").mkdir(parents=True)
    (tmp_path / "lib" / "a").mkdir(parents=True)
    (tmp_path / "lib" / "shared").mkdir(parents=True)
    (tmp_path / "lib" / "shared" / "k.py").write_text("import numpy\n")
    (tmp_path / "lib" / "a" / "m.py").write_text("from lib.shared import k\n")
    (tmp_path / "notebooks" / "a" / "01_x.py").write_text("from lib.a import m\n")
    (tmp_path / "notebooks" / "b").mkdir(parents=True)
    (tmp_path / "notebooks" / "b" / "paper.yaml").write_text("short: b\n")   # b is a paper
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    assert generate.shared_packages("a") == ["lib/shared"]
    (tmp_path / "lib" / "shared" / "k.py").write_text("from lib.b import kernels\n")
    with pytest.raises(ValueError, match="imports lib.b, the package of paper b"):
        generate.shared_packages("a")
