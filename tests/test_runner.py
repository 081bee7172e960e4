"""lib.companion.runner: overrides, metadata stripping and fail-fast validation."""
import nbformat
import pytest

from lib.companion import params, runner


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


def test_bad_override_fails_before_executing(capsys):
    status = runner.main(["notebooks/gd_perceptron/01_reduction.py", "-p", "equiv_d=-1"])
    assert status == 2
    assert "gd_perceptron.01_reduction.equiv_d = -1" in capsys.readouterr().err
