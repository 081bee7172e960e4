"""Issue 43, items 3, 6 and 7: what used to pass or give a traceback is refused in one message
naming the file and the key (or section, entry, path), with values cut to a readable length:
cut or emptied params files, a section's own seed/profile, 5,000-digit integers, 5,000-deep
nesting, a 1 MB value; a half-written claims file, a read-only results/; declarations that point
outside data.dvc, the schema module or results/; a PAPER that would run as code in the Makefile;
Ctrl-C of the command `make repro` times, which must still rebuild the ledger and book."""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from lib.companion import (
    claims,
    generate,
    ledger,
    papers,
    params,
    paths,
    report,
    staging,
    timings,
    yamlio,
)

ROOT = Path(__file__).resolve().parents[1]


def whole(tmp_path: Path, text: str | None = None) -> Path:
    """One whole parameters document (every paper's sections), or `text`, as a file."""
    path = tmp_path / "params.yaml"
    path.write_text(text if text is not None else json.dumps(generate.defaults()))
    return path


def refusal(path: Path) -> str:
    with pytest.raises(params.ParamsError) as err:
        params.check_all(path)
    return str(err.value)


# ---------------------------------------------------------------- params files
@pytest.mark.parametrize("text", ["", "\n", "# nothing\n", "---\n", "~\n"])
def test_an_empty_params_file_is_refused_naming_it(tmp_path, text):
    message = refusal(whole(tmp_path, text))
    assert "params.yaml is empty" in message and "make sync" in message


def test_a_file_cut_after_a_section_is_refused_naming_the_missing_one(tmp_path):
    doc = generate.defaults()
    first, second = [nb.section for nb in papers.paper("gd_perceptron").notebooks][:2]
    doc["gd_perceptron"] = {first: doc["gd_perceptron"][first]}
    message = refusal(whole(tmp_path, json.dumps(doc)))
    assert f"missing the sections gd_perceptron.{second}" in message and "cut short" in message
    del doc["linear_rnns"]
    doc["gd_perceptron"] = generate.defaults()["gd_perceptron"]
    assert "no sections of paper 'linear_rnns'" in refusal(whole(tmp_path, json.dumps(doc)))


def test_the_params_stage_refuses_a_paper_file_cut_after_a_section(tmp_path, monkeypatch,
                                                                   capsys):
    """The workspace layout: root params.yaml + notebooks/<paper>/params.yaml, one cut short."""
    for path, text in generate.params_files().items():
        target = tmp_path / path.relative_to(paths.ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    cut = tmp_path / "notebooks" / "bsnp" / "params.yaml"
    lines = cut.read_text().splitlines(keepends=True)
    second = [nb.section for nb in papers.paper("bsnp").notebooks][1]
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  {second}:"))
    cut.write_text("".join(lines[:at]))
    read = params.read_all
    monkeypatch.setattr(params, "read_all", lambda root=None: read(tmp_path))
    assert params.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert "notebooks/bsnp/params.yaml: missing the section" in err and f"bsnp.{second}" in err


def test_a_section_cut_inside_is_refused_naming_the_keys_it_lacks(tmp_path):
    doc = generate.defaults()
    del doc["gd_perceptron"]["reduction"]["equiv_d"]
    assert "gd_perceptron.reduction lacks ['equiv_d']" in refusal(whole(tmp_path,
                                                                         json.dumps(doc)))


@pytest.mark.parametrize("key, where", [("seed", ()), ("profile", ()), ("seed", ("smoke",)),
                                        ("profile", ("paper",))])
def test_a_section_level_seed_or_profile_is_refused_not_ignored(tmp_path, key, where):
    doc = generate.defaults()
    node = doc["gd_perceptron"]["reduction"]
    for step in where:
        node = node.setdefault(step, {})
    node[key] = 3 if key == "seed" else "paper"
    message = refusal(whole(tmp_path, json.dumps(doc)))
    at = ".".join(("gd_perceptron.reduction", *where, key))
    assert f"{at}: the {key} is set once, at the top of params.yaml" in message
    assert "allowed here: ['gammas'" in message


def edited(tmp_path: Path, value_text: str) -> Path:
    """A whole document whose gd_perceptron.reduction.equiv_d is spelled `value_text`."""
    body = generate.params_files()[paths.paper_params_file("gd_perceptron")]
    assert "    equiv_d: 50" in body
    body = body.replace("    equiv_d: 50", f"    equiv_d: {value_text}", 1)
    rest = {k: v for k, v in generate.defaults().items() if k != "gd_perceptron"}
    return whole(tmp_path, "".join(f"{k}: {json.dumps(v)}\n" for k, v in rest.items()) + body)


def test_a_5000_digit_integer_is_refused_at_its_line(tmp_path):
    message = refusal(edited(tmp_path, "7" * 5000))
    assert "the value of 'equiv_d' is a number of 5,000 digits; allowed: at most 4300" in message
    assert len(message) < 300


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, "{a: " * 5000 + "1" + "}" * 5000])
def test_5000_deep_nesting_is_refused_naming_the_key(tmp_path, text):
    message = refusal(edited(tmp_path, text))
    assert "nested more than 32 levels deep at gd_perceptron.reduction.equiv_d" in message
    assert len(message) < 400


def test_a_1mb_value_is_cut_in_the_message(tmp_path):
    message = refusal(edited(tmp_path, json.dumps("x" * 10 ** 6)))
    assert "gd_perceptron.reduction.equiv_d = 'xxxx" in message
    assert "... (1,000,002 characters): Input should be a valid integer" in message
    assert len(message) < 400


def test_repeated_aliases_are_read_and_refused_quickly(tmp_path):
    """A "billion laughs": 9 levels of 9 aliases each, 387 million leaves if walked naively."""
    laughs = "lol0: &l0 [a, a, a, a, a, a, a, a, a]\n" + "".join(
        f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9))
    start = time.perf_counter()
    with pytest.raises(yamlio.YamlError, match="nested more than"):
        yamlio.load(laughs + "deep: " + "[" * 40 + "]" * 40 + "\n", "x.yaml")
    doc = yamlio.load(laughs, "x.yaml")
    assert len(yamlio.shown(doc["lol8"])) < 200
    assert time.perf_counter() - start < 5      # seconds; the naive walk took minutes


def test_shown_cuts_values_and_says_their_length():
    assert yamlio.shown("short") == "'short'"
    assert yamlio.shown("y" * 500) == "'" + "y" * 79 + "... (502 characters)"
    assert yamlio.shown(7 ** 6000).startswith("<an integer of about 50")


# ---------------------------------------------------------------- the ledger and the book
@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    return tmp_path


def two_notebooks() -> tuple[str, str]:
    one = claims.Ledger("gd_perceptron/01_reduction", {"profile": "smoke"})
    for cid in ("a", "b"):
        one.exact(cid, "x", source="s", provenance="derived", expected=1, measured=1)
    one.write()
    other = claims.Ledger("bsnp/01_lemma1", {"profile": "smoke"}) \
        if "bsnp/01_lemma1" in papers.all_notebooks() else None
    nid = other.notebook if other else papers.all_notebooks()[-1]
    other = other or claims.Ledger(nid, {"profile": "smoke"})
    other.exact("c", "x", source="s", provenance="derived", expected=1, measured=1)
    other.write()
    return "gd_perceptron/01_reduction", nid


@pytest.mark.parametrize("damage", ["cut", "not a document", "binary"])
def test_a_half_written_claims_file_is_named_and_its_claims_are_error(results, capsys, damage):
    cut, other = two_notebooks()
    path = paths.claims_file(cut)
    text = path.read_text()
    if damage == "cut":
        path.write_text(text[: len(text) * 2 // 3])
    elif damage == "not a document":
        path.write_text("[1, 2]")
    else:
        path.write_bytes(b"\xff\xfe" + text.encode()[:40])
    assert ledger.main([]) == 0
    err = capsys.readouterr().err
    name = str(path.relative_to(paths.ROOT)) if path.is_relative_to(paths.ROOT) else str(path)
    assert f"{cut}: last run failed: its claims file {name}" in err and "Traceback" not in err
    doc = json.loads(paths.ledger_files()["json"].read_text())
    mine = {c["id"]: c["status"] for c in doc["claims"] if c["notebook"] == f"notebooks/{cut}.py"}
    if damage == "cut":                 # the ids the cut text still shows stay, as error
        assert mine["gd_perceptron.a"] == "error"
    assert mine and set(mine.values()) == {"error"}
    assert any(c["notebook"] == f"notebooks/{other}.py" and c["status"] == "pass"
               for c in doc["claims"])                          # the other papers go on
    assert "dvc repro -f notebooks/gd_perceptron/dvc.yaml:gd_perceptron-01_reduction" in \
        doc["unfinished"][cut]["error"]


def test_a_claims_file_cut_after_its_first_claim_shows_every_claim_as_error(results):
    """Issue 60: a cut file showed only the ids left in its text (3 of E07's 10 dropped out);
    the ledger's last record of the notebook fills in the rest."""
    cut, _ = two_notebooks()
    assert ledger.main([]) == 0
    path = paths.claims_file(cut)
    text = path.read_text()
    path.write_text(text[:text.index('"gd_perceptron.a"') + 20])
    assert "gd_perceptron.b" not in path.read_text()
    for _ in range(2):                  # and again, from the ledger the first merge wrote
        assert ledger.main([]) == 0
        doc = json.loads(paths.ledger_files()["json"].read_text())
        mine = {c["id"]: c["status"] for c in doc["claims"]
                if c["notebook"] == f"notebooks/{cut}.py"}
        assert {"gd_perceptron.a", "gd_perceptron.b"} <= set(mine)      # with its declared
        assert set(mine.values()) == {"error"}


def test_the_book_reads_a_half_written_claims_file_and_ledger(results):
    cut, _ = two_notebooks()
    paths.claims_file(cut).write_text('{"claims": [{"id": "gd_perceptron.a", "sta')
    paths.ledger_files()["json"].write_text('{"claims": [')
    doc, note = report.load_ledger()
    assert "results/claims.json is unreadable" in note
    assert cut in doc["unfinished"]


def test_a_read_only_results_folder_is_one_message(results, monkeypatch, capsys):
    two_notebooks()

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "write_text", refuse)
    assert ledger.main([]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "claims.json: Permission denied" in err
    assert "chmod -R u+w results" in err and "Traceback" not in err


def read_only_under(monkeypatch, folder: Path) -> None:
    """Make os.statvfs report `folder` and what is under it as a read-only mount (what a
    read-only bind mount of results/<paper> gives; root ignores a chmod)."""
    real = os.statvfs

    def statvfs(path):
        got = real(path)
        if not Path(path).resolve().is_relative_to(folder.resolve()):
            return got
        return types.SimpleNamespace(f_flag=got.f_flag | os.ST_RDONLY)
    monkeypatch.setattr(os, "statvfs", statvfs)


def test_a_read_only_results_paper_is_named_and_blocks_no_ledger(results, monkeypatch, capsys):
    """Issue 60: a read-only results/<paper> was reported as "Invalid cross-device link ... the
    next run will finish the move", and the swap it left made the ledger refuse every paper."""
    cut, other = two_notebooks()
    assert ledger.main([]) == 0
    target = paths.claims_file(cut)
    new = paths.staging_dir(cut) / target.relative_to(results)
    new.parent.mkdir(parents=True)
    new.write_text(target.read_text())
    staging.journal_file(cut).write_text(json.dumps({"notebook": cut, "outputs": [
        [str(target.relative_to(results)), os.lstat(new).st_ino]]}))

    def cross_device(source, target):
        raise OSError(errno.EXDEV, "Invalid cross-device link", str(source))
    with monkeypatch.context() as patch:
        patch.setattr(staging, "_move", cross_device)
        read_only_under(patch, results / "gd_perceptron")
        capsys.readouterr()
        assert ledger.main([]) == 0                    # the ledger goes on, for every paper
        err = capsys.readouterr().err
        line = next(ln for ln in err.splitlines() if ln.startswith(f"warning: {cut}"))
        assert "is on a read-only file system" in line and "gd_perceptron" in line, err
        assert "cross-device" not in err and "Traceback" not in err
        doc = json.loads(paths.ledger_files()["json"].read_text())
        assert any(c["notebook"] == f"notebooks/{other}.py" for c in doc["claims"])
        assert staging.unwritable(cut).endswith("is on a read-only file system (a read-only "
                                                "mount): mount it read-write, then run again")
        assert staging.refusal(cut, OSError(errno.EXDEV, "x")) == staging.unwritable(cut)
    assert staging.unwritable(cut) == ""
    assert "no space left" in staging.refusal(cut, OSError(errno.ENOSPC, "No space left"))
    assert "different file systems" in staging.refusal(cut, OSError(errno.EXDEV, "x"))


def test_timings_records_nothing_but_says_so_when_results_is_read_only(results, monkeypatch,
                                                                       capsys):
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "write_text", refuse)
    assert timings.main(["run", "x", "--", sys.executable, "-c", "raise SystemExit(4)"]) == 4
    assert "the wall time of x is not recorded" in capsys.readouterr().err


# ---------------------------------------------------------------- Ctrl-C of make repro
def test_an_interrupted_run_still_rebuilds_and_exits_130(results, monkeypatch, capsys):
    monkeypatch.setattr(timings, "REBUILD", (("this", "the zen"),))    # a module that just ends
    child = ("import os, signal; os.kill(os.getppid(), signal.SIGINT); "
             "os.kill(os.getpid(), signal.SIGINT)")                     # Ctrl-C: both get it
    status = timings.main(["run", "r", "--rebuild-on-failure", "--", sys.executable, "-c", child])
    out = capsys.readouterr()
    assert status == 130
    assert "was interrupted (Ctrl-C): rebuilding the ledger and the book" in out.err
    assert "Beautiful is better than ugly" in out.out or "the book" in out.err
    assert json.loads(timings.command_file("r").read_text())["exit"] == 130
    monkeypatch.setattr(timings, "REBUILD", ())
    assert timings.main(["run", "r", "--rebuild-on-failure", "--", sys.executable, "-c",
                         "raise SystemExit(3)"]) == 3
    assert "failed (above)" in capsys.readouterr().err


def test_ctrl_c_of_make_repro_rebuilds_the_ledger_and_exits_non_zero(tmp_path):
    """The Makefile's own repro recipe shape, run by make in a copy of lib/companion (its
    results/ in the copy), the whole process group sent SIGINT as a terminal's Ctrl-C does."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    (tmp_path / "lib").mkdir()
    shutil.copytree(ROOT / "lib" / "companion", tmp_path / "lib" / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "lib" / "__init__.py", tmp_path / "lib" / "__init__.py")
    (tmp_path / "notebooks").mkdir()
    recipe = next(line for line in (ROOT / "Makefile").read_text().splitlines()
                  if "--rebuild-on-failure" in line and line.startswith("\t"))
    recipe = recipe.replace("$(if $(PAPER),_$(PAPER))", "")
    head, sep, _ = recipe.partition(" -- ")
    assert sep, f"the repro recipe no longer wraps its command after ' -- ': {recipe}"
    recipe = f"{head} -- sleep 30"
    (tmp_path / "Makefile").write_text(f"PY := {sys.executable}\nrepro:\n{recipe}\n"
                                       "\t@echo not reached\n")
    proc = subprocess.Popen(["make", "repro"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=240)
    assert proc.returncode != 0, out
    assert "interrupted (Ctrl-C): rebuilding the ledger and the book" in out
    assert (tmp_path / "results" / "claims.json").exists()
    assert "not reached" not in out and "Traceback" not in out.split("sphinx")[0]


# ---------------------------------------------------------------- the Makefile takes data only
INJECTIONS = ["x' if __import__('os').system('touch {m}')==0 else '", "x; touch {m}; echo ",
              "$(shell touch {m})", "x$$(touch {m})", "`touch {m}`"]


@pytest.mark.parametrize("target", ["repro", "test", "status", "unit"])
@pytest.mark.parametrize("template", INJECTIONS)
def test_make_dry_run_never_runs_a_paper_name(tmp_path, template, target):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    marker = tmp_path / "injected"
    done = subprocess.run(["make", "-n", target, f"PAPER={template.format(m=marker)}"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert not marker.exists(), done.stdout + done.stderr
    assert done.returncode != 0 and "PAPER must be a paper's short name" in done.stderr
    env = {**os.environ, "PAPER": template.format(m=marker)}
    done = subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env=env)
    assert not marker.exists() and done.returncode != 0


def test_make_takes_a_plain_paper_name_and_a_count_of_jobs(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "tools").mkdir()
    for name in ("requirements.lock", "tools/setup_env.sh"):    # the setup stamp's inputs
        (tmp_path / name).touch()
    ok = subprocess.run(["make", "-n", "unit", "PAPER=gd_perceptron", "JOBS=3"], cwd=tmp_path,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "tests/gd_perceptron" in ok.stdout and "-n 3" in ok.stdout
    bad = subprocess.run(["make", "-n", "unit", f"JOBS=2; touch {tmp_path / 'j'}"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "JOBS must be a number" in bad.stderr
    assert not (tmp_path / "j").exists()
    for var, what in (("PROFILE", "one of smoke default paper"),
                      ("EXECUTOR", "one of debug local slurm"), ("WORKERS", "a number of runs"),
                      ("TIMEOUT", "a number of seconds")):
        bad = subprocess.run(["make", "-n", "repro", f"{var}=x; touch {tmp_path / 'j'}"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert bad.returncode != 0 and f"{var} must be {what}" in bad.stderr
        assert not (tmp_path / "j").exists()
    ok = subprocess.run(["make", "-n", "repro", "PROFILE=paper", "EXECUTOR=slurm", "WORKERS=4"],
                        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "--set-profile paper" in ok.stdout, ok.stderr


def test_make_repro_exports_timeout_to_the_runner(tmp_path):
    """The Makefile's own `repro: export` lines, with a recipe that prints what the runner would
    read: TIMEOUT=45 arrives as COMPANION_TIMEOUT=45, ALLOW_LONG=1 as COMPANION_ACCEPT_COST=1
    (issue 60)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = (ROOT / "Makefile").read_text()
    checks = text[text.index("LOWER :="):text.index("ifdef VIRTUAL_ENV")]
    exports = [ln for ln in text.splitlines() if ln.startswith("repro: export ")]
    assert any("COMPANION_TIMEOUT := $(TIMEOUT)" in ln for ln in exports), exports
    (tmp_path / "Makefile").write_text(
        checks + "\n".join(exports) + "\nrepro:\n\t@echo timeout=$$COMPANION_TIMEOUT "
        "long=$$COMPANION_ACCEPT_COST\n")
    done = subprocess.run(["make", "repro", "TIMEOUT=45", "ALLOW_LONG=1"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "timeout=45 long=1" in done.stdout, done.stderr
    bad = subprocess.run(["make", "repro", "ALLOW_LONG=yes"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode != 0 and "ALLOW_LONG must be 1" in bad.stderr


@pytest.mark.parametrize("template", INJECTIONS)
def test_make_never_runs_stages_given_on_its_command_line(tmp_path, template):
    """Issue 60: STAGES='$(shell ...)' ran; STAGES is checked like PAPER and JOBS."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    marker = tmp_path / "injected"
    done = subprocess.run(["make", "-n", "repro", f"STAGES={template.format(m=marker)}"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert not marker.exists(), done.stdout + done.stderr
    assert done.returncode != 0 and "STAGES must be DVC stage targets" in done.stderr
    (tmp_path / "tools").mkdir()
    for name in ("requirements.lock", "tools/setup_env.sh"):    # the setup stamp's inputs
        (tmp_path / name).touch()
    ok = subprocess.run(["make", "-n", "status", "STAGES=notebooks/toy/dvc.yaml:toy-01_a"],
                        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "STAGES must be" not in ok.stderr and "toy-01_a" in ok.stdout, ok.stderr
