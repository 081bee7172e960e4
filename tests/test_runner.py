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


def test_bad_override_fails_before_executing(capsys):
    status = runner.main(["notebooks/gd_perceptron/01_reduction.py", "-p", "equiv_d=-1"])
    assert status == 2
    assert "gd_perceptron.reduction.equiv_d = -1" in capsys.readouterr().err
