"""lib.companion.runner: overrides, metadata stripping and fail-fast validation."""
import json

import nbformat
import pytest

from lib.companion import params, paths, runner


def test_parse_overrides_reads_yaml_values():
    assert runner.parse_overrides(["n=3", "eta=0.5", "name=abc", "xs=[1, 2]"]) == \
        {"n": 3, "eta": 0.5, "name": "abc", "xs": [1, 2]}
    with pytest.raises(params.ParamsError, match="key=value"):
        runner.parse_overrides(["3=n"])


def test_strip_volatile_removes_timestamps():
    nb = nbformat.v4.new_notebook()
    nb.metadata["papermill"] = {"start_time": "t"}
    cell = nbformat.v4.new_code_cell("1")
    cell.metadata["execution"] = {"iopub.status.busy": "t"}
    cell.metadata["papermill"] = {"duration": 1.0}
    cell.metadata["tags"] = ["parameters"]
    nb.cells.append(cell)
    out = runner.strip_volatile(nb)
    assert "papermill" not in out.metadata
    assert dict(out.cells[0].metadata) == {"tags": ["parameters"]}


def test_strip_volatile_drops_progress_bars_keeps_warnings():
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text=(
            "\rruns:   0%|          | 0/126 [00:00<?, ?it/s]"
            "\rruns:   1%|          | 1/126 [02:49<5:53:21, 169.61s/it]")),
        nbformat.v4.new_output("stream", name="stderr", text="\rF8 steps: 100%|#| 3/3 [00:30<00:00,"
                               " 1.1it/s]\nUserWarning: kept\n"),
        nbformat.v4.new_output("stream", name="stdout", text="50%|x| 1/2 [00:01<00:01] stays\n")]
    nb = nbformat.v4.new_notebook(cells=[cell])
    out = runner.strip_volatile(nb).cells[0].outputs
    assert [o["text"] for o in out] == ["\nUserWarning: kept\n",
                                        "50%|x| 1/2 [00:01<00:01] stays\n"]


def test_strip_volatile_makes_streams_the_same_on_any_machine_and_timing():
    """Cursor moves of nested bars (as many as the timing gives), this machine's absolute paths
    and the kernel's splitting of one stream into several: none survives into the copy."""
    import sys
    venv_warning = f"{sys.prefix}/lib/python3.11/site-packages/tqdm/auto.py:21: TqdmWarning\n"
    lib_warning = f"{paths.ROOT}/lib/tinn/lm.py:144: UserWarning: detach\n"

    def streams(*texts):
        cell = nbformat.v4.new_code_cell("x")
        cell.outputs = [nbformat.v4.new_output("stream", name=n, text=t) for n, t in texts]
        return runner.strip_volatile(nbformat.v4.new_notebook(cells=[cell])).cells[0].outputs

    one = streams(("stderr", venv_warning), ("stderr", "\x1b[A"), ("stderr", lib_warning),
                  ("stderr", "\x1b[A\x1b[A"), ("stdout", "done\n"))
    other = streams(("stderr", venv_warning + lib_warning), ("stderr", "\x1b[A" * 7),
                    ("stdout", "do"), ("stdout", "ne\n"))
    assert one == other
    assert [(o["name"], o["text"]) for o in one] == [
        ("stderr", "<env>/lib/python3.11/site-packages/tqdm/auto.py:21: TqdmWarning\n"
                   "./lib/tinn/lm.py:144: UserWarning: detach\n"),
        ("stdout", "done\n")]


def test_a_warning_from_a_cell_reads_the_same_whatever_the_kernel_pid():
    """ipykernel files each cell's code under /tmp/ipykernel_<pid>/<hash of the code>.py, and a
    warning raised in a cell names that file: the pid part must not reach the executed copy."""
    def warning(pid):
        return runner.portable(f"/tmp/ipykernel_{pid}/1009445737.py:23: DeprecationWarning: x\n")
    assert warning(3478) == warning(26356) == "<cell>/1009445737.py:23: DeprecationWarning: x\n"
    assert runner.portable("see ipykernel_launcher.py\n") == "see ipykernel_launcher.py\n"


def test_time_limit_is_positive():
    with pytest.raises(params.ParamsError, match="--timeout"):
        runner.run(paths.ROOT / "notebooks/gd_perceptron/01_reduction.py", None, "smoke", {},
                   timeout_s=0)


def test_bad_override_fails_before_executing(capsys):
    status = runner.main(["notebooks/gd_perceptron/01_reduction.py", "-p", "equiv_d=-1"])
    assert status == 2
    assert "gd_perceptron.reduction.equiv_d = -1" in capsys.readouterr().err


def test_an_interactive_run_writes_under_results_lab(monkeypatch):
    """JupyterLab runs a notebook outside the runner: its outputs go to results/lab/, never over
    what `dvc repro` recorded; nbval's copy asks for results/ with COMPANION_OUTPUTS=results."""
    from lib.companion import notebook
    nid = "gd_perceptron/01_reduction"
    monkeypatch.setenv(paths.STAGING_ENV, "")        # recorded, so the teardown removes it again
    monkeypatch.delenv(paths.STAGING_ENV)
    monkeypatch.setenv(paths.OUTPUTS_ENV, "results")
    assert notebook.interactive_outputs(nid) is None
    assert paths.figures_dir(nid) == paths.RESULTS / "gd_perceptron/figures/01_reduction"
    monkeypatch.delenv(paths.OUTPUTS_ENV)
    assert notebook.interactive_outputs(nid) == paths.LAB_RESULTS
    assert paths.figures_dir(nid) == paths.LAB_RESULTS / "gd_perceptron/figures/01_reduction"
    assert paths.claims_file(nid) == paths.LAB_RESULTS / "gd_perceptron/claims/01_reduction.json"
    # what it reads of another notebook stays in results/
    assert paths.tables_dir("gd_perceptron/02_linear_lower_bound") == \
        paths.RESULTS / "gd_perceptron/tables/02_linear_lower_bound"


def test_cost_keys_are_numeric_sizes_of_their_schema():
    """A COST key is a field or a property counting fields (its inputs named in COST_INPUTS)."""
    from lib.companion import papers
    for nid in papers.all_notebooks():
        cls = params.schema_for(nid)
        for key in cls.COST:
            derived = isinstance(getattr(cls, key, None), property)
            assert key in cls.section_keys() or derived, f"{nid}: COST names {key!r}, not a size"
            assert isinstance(getattr(cls(), key), (int, float)), f"{nid}: {key} is not a size"
        for key in getattr(cls, "COST_INPUTS", ()):
            assert key in cls.section_keys(), f"{nid}: COST_INPUTS names {key!r}, not a field"


def test_a_run_far_over_budget_is_refused_unless_accepted(monkeypatch, tmp_path, capsys):
    """The estimate is the last timed run scaled by the COST sizes' ratios."""
    notebook = "caffnet/02_piecewise_fit"
    monkeypatch.setattr(paths, "timings_dir", lambda: tmp_path)
    cfg = params.resolve(notebook, "default", {})
    runner.record_timing(notebook, cfg, 100.0)                 # seeds 3, epochs 3000: 100 s
    assert runner.estimate_s(notebook, cfg) == 100.0
    twice = params.resolve(notebook, "default", {"epochs": 6000})
    assert runner.estimate_s(notebook, twice) == 200.0
    runner.check_cost(notebook, twice, accept=False)              # over 300 s? no: silent
    assert capsys.readouterr().err == ""
    big = params.resolve(notebook, "default", {"epochs": 100000, "seeds": 20})
    with pytest.raises(params.ParamsError, match=r"estimated .* --accept-cost"):
        runner.check_cost(notebook, big, accept=False)
    runner.check_cost(notebook, big, accept=True)
    assert "note: caffnet/02_piecewise_fit: estimated" in capsys.readouterr().err
    monkeypatch.setenv(runner.ACCEPT_ENV, "1")
    runner.check_cost(notebook, big, accept=False)


def test_make_repro_executor_and_workers_reach_only_engine_notebooks(monkeypatch):
    monkeypatch.setenv("COMPANION_EXECUTOR", "slurm")
    monkeypatch.setenv("COMPANION_WORKERS", "8")
    assert runner.placement("frog/02_depth_sweep", {}) == {"executor": "slurm", "workers": 8}
    assert runner.placement("linear_rnns/08_trained_models", {}) == \
        {"sweep_executor": "slurm", "workers": 8}
    assert runner.placement("gd_perceptron/01_reduction", {"equiv_d": 7}) == {"equiv_d": 7}
    assert runner.placement("frog/02_depth_sweep", {"executor": "inline"})["executor"] == "inline"
    cfg = params.resolve("frog/02_depth_sweep", "smoke",
                         runner.placement("frog/02_depth_sweep", {}))
    assert (cfg.executor, cfg.workers) == ("slurm", 8)


@pytest.mark.parametrize("env, value, allowed", [
    ("COMPANION_EXECUTOR", "inline", "one of debug, local, slurm"),
    ("COMPANION_EXECUTOR", "pbs", "one of debug, local, slurm"),
    ("COMPANION_WORKERS", "0", "an integer >= 1"),
    ("COMPANION_WORKERS", "two", "an integer >= 1")])
def test_a_bad_executor_or_worker_count_is_refused_naming_the_variable(monkeypatch, env, value,
                                                                       allowed):
    monkeypatch.setenv(env, value)
    with pytest.raises(params.ParamsError, match=rf"{env} = '{value}': allowed: {allowed}"):
        runner.placement("frog/02_depth_sweep", {})


def committed_wall_s(notebook: str) -> float:
    """The stage's time as docs/timings.json holds it (read here, apart from the code under
    test)."""
    return json.loads((paths.ROOT / "docs" / "timings.json").read_text())["stages"][notebook][
        "wall_s"]


def test_time_limit_is_a_multiple_of_the_recorded_time_never_hours_for_seconds(monkeypatch,
                                                                              tmp_path):
    """Issue 60: a 15 s notebook had a 4 h limit. With no time measured on this machine (a fresh
    clone), the limit is 5x the committed time scaled by the run's sizes, at least 300 s."""
    monkeypatch.setattr(paths, "timings_dir", lambda: tmp_path)
    monkeypatch.delenv(runner.TIMEOUT_ENV, raising=False)
    short = "gd_perceptron/01_reduction"                    # 15 s, inline
    assert committed_wall_s(short) * 5 < 300
    limit, why = runner.time_limit_s(short, params.resolve(short, "default", {}), None)
    assert limit == 300 and "at least 300 s" in why
    long = "caffnet/02_piecewise_fit"                       # COST: seeds, epochs (inline)
    cfg = params.resolve(long, "default", {})
    doubled = params.resolve(long, "default", {"epochs": 2 * cfg.epochs})
    limit, why = runner.time_limit_s(long, doubled, None)
    assert limit == pytest.approx(max(300, 5 * 2 * committed_wall_s(long)))
    assert "5x its estimated" in why
    assert runner.time_limit_s(long, cfg, 42.0) == (42.0, "set by --timeout")


@pytest.mark.parametrize("value", ["abc", "0", "-5", "nan", "inf", "1e999", " "])
def test_a_bad_timeout_variable_is_refused_by_name(monkeypatch, value):
    nb = "gd_perceptron/01_reduction"
    monkeypatch.setenv(runner.TIMEOUT_ENV, value)
    with pytest.raises(params.ParamsError, match=rf"{runner.TIMEOUT_ENV} \(make repro's TIMEOUT\)"
                                                 r" = .*: allowed: a number of seconds > 0"):
        runner.time_limit_s(nb, params.resolve(nb, "default", {}), None)
    monkeypatch.setenv(runner.TIMEOUT_ENV, "90")
    assert runner.time_limit_s(nb, params.resolve(nb, "default", {}), None) == \
        (90.0, "set by TIMEOUT=90")


def cell_error(ename: str, evalue: str) -> Exception:
    from papermill.exceptions import PapermillExecutionError
    return PapermillExecutionError(3, 2, "x = big()", ename, evalue,
                                   ["\x1b[0;31mTraceback\x1b[0m", f"{ename}: {evalue}"])


@pytest.mark.parametrize("err, says", [
    ("dead", "its kernel was killed (out of memory, or a signal from outside"),
    (cell_error("OSError", "[Errno 28] No space left on device: 'results/x'"),
     "no space left on the disk: free some"),
    (OSError(28, "No space left on device"), "no space left on the disk"),
    (cell_error("MemoryError", "Unable to allocate 6.66 GiB"), "out of memory (MemoryError: "
                                                               "Unable to allocate 6.66 GiB)"),
    (runner.TimeLimit("toy/01", 20, "set by --timeout", "cell 3 (nap())"),
     "ran past its time limit of 20 s (set by --timeout) and was ended in cell 3"),
    (cell_error("ValueError", "bad\nvalue"), "ValueError: value"),
], ids=["killed", "no-space-in-cell", "no-space-runner", "memory", "timed-out", "other"])
def test_a_failure_ends_in_one_line_naming_its_real_cause(capsys, err, says):
    """Issue 60: a killed kernel, a full disk, memory, the time limit: each one line, naming
    it (a cell's error keeps its source and traceback above that line)."""
    if err == "dead":
        from nbclient.exceptions import DeadKernelError
        err = DeadKernelError("Kernel died")
    runner.report_failure("toy/01", err, None)
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[-1].startswith("error: toy/01 failed: ") and says in lines[-1], lines[-1]
    assert "the previous results are kept" in lines[-1]
    if not hasattr(err, "source") or isinstance(err, runner.TimeLimit):
        assert len(lines) == 1, lines


def test_a_fresh_clone_refuses_a_28_hour_in_bound_value_before_compute(monkeypatch, tmp_path):
    """Issue 60: with no run timed on this machine the cost check estimated nothing; it now
    scales the committed time (docs/timings.json), names the key that makes the run long, and
    says how to run it anyway."""
    monkeypatch.setattr(paths, "timings_dir", lambda: tmp_path)       # nothing timed here
    monkeypatch.delenv(runner.ACCEPT_ENV, raising=False)
    nb = "gd_perceptron/07_real_data"                                 # COST: width (default 16)
    cfg = params.resolve(nb, "default", {"width": 2000})              # in bounds (le=2000)
    expected = committed_wall_s(nb) * 2000 / 16                       # about 28 h
    assert expected > 28 * 3600
    with pytest.raises(params.ParamsError) as err:
        runner.check_cost(nb, cfg, accept=False)
    said = str(err.value)
    assert f"estimated {expected:,.0f} s" in said and "docs/timings.json" in said, said
    assert "long because of width = 2000 (default 16)" in said
    assert "make repro ALLOW_LONG=1" in said
    monkeypatch.setenv(runner.ACCEPT_ENV, "1")
    runner.check_cost(nb, cfg, accept=False)                          # accepted: a note only
