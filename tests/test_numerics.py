"""The pinned CPU numerics (lib/companion/numerics.py): one code path whatever the machine offers.

The cross-path test runs representative stages in the smoke profile through the runner, in a
scratch copy, as two machines would: this machine's best code paths, and another CPU's (ATen's
scalar kernels, MKL's AVX branch, oneDNN at SSE4.1, OpenBLAS's Prescott kernels, numpy
without AVX2, two BLAS threads). Left native (COMPANION_NUMERICS=native) the two write different
bytes: that is what makes the test able to fail. Under the runner's pinning they must write
identical bytes. Without the pinning in the runner the test fails, as the first assertion would
for native runs.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lib.companion import numerics, paths, smoke

pytestmark = pytest.mark.heavy

# one that trains with torch (MKL's matrix products, ATen's kernels), one of numpy's linear
# algebra (OpenBLAS, numpy's SIMD loops): each wrote different bytes on the two paths, left native
STAGES = ("caffnet/02_piecewise_fit", "equivariance/00_linear_warmup")
OTHER_CPU = {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "AVX",
             "ONEDNN_MAX_CPU_ISA": "SSE41", "OPENBLAS_CORETYPE": "Prescott",
             "NPY_DISABLE_CPU_FEATURES": "X86_V3", "OPENBLAS_NUM_THREADS": "2"}


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    target = smoke.make_copy(tmp_path_factory.mktemp("numerics") / "copy")
    shutil.copyfile(paths.ROOT / "data.dvc", target / "data.dvc")    # the data check reads it
    (target / "dvc-remote").symlink_to(paths.ROOT / "dvc-remote")     # and its manifest
    return target


def outputs(copy: Path, notebook: str, extra: dict[str, str]) -> dict[str, str]:
    """Run the notebook (smoke) in the copy with `extra` in a clean environment; the md5 of
    every output file of its stage."""
    env = numerics.unpinned_env()
    env.update(extra, PATH=f"{Path(sys.executable).parent}:{env.get('PATH', '')}")
    done = subprocess.run([sys.executable, "-m", "lib.companion.runner",
                           f"notebooks/{notebook}.py", "--profile", "smoke"],
                          cwd=copy, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    paper, stem = notebook.split("/")
    base = copy / "results" / paper
    files = [base / "claims" / f"{stem}.json", base / "executed" / f"{stem}.ipynb",
             *sorted((base / "tables" / stem).rglob("*")),
             *sorted((base / "figures" / stem).rglob("*"))]
    return {str(f.relative_to(base)): hashlib.md5(f.read_bytes()).hexdigest()
            for f in files if f.is_file()}


@pytest.mark.parametrize("notebook", STAGES)
def test_pinned_outputs_are_the_same_on_two_code_paths(copy, notebook):
    native = {numerics.SWITCH: "native"}
    best, other = outputs(copy, notebook, native), outputs(copy, notebook, {**native, **OTHER_CPU})
    assert best != other, (f"{notebook}: the two code paths wrote the same bytes unpinned, so "
                           "this stage cannot show what the pinning does: choose another")
    pinned_best, pinned_other = outputs(copy, notebook, {}), outputs(copy, notebook, OTHER_CPU)
    differ = sorted(k for k in pinned_best if pinned_best[k] != pinned_other.get(k))
    assert not differ, f"{notebook}: pinned, the two code paths wrote different {differ}"


def test_pin_overrides_and_native_leaves_the_environment():
    env = {"MKL_CBWR": "AUTO", "PATH": "/bin"}
    assert numerics.pin(env)["MKL_CBWR"] == "AVX2"
    assert numerics.drift(env) == {}
    left = {"MKL_CBWR": "AUTO", numerics.SWITCH: "native"}
    assert numerics.pin(dict(left)) == left
    assert numerics.drift(left)["MKL_CBWR"] == "AUTO"
    with pytest.raises(ValueError, match="COMPANION_NUMERICS='fast'.*'pinned'.*'native'"):
        numerics.pin({numerics.SWITCH: "fast"})


def test_numerics_command_runs_a_program_pinned():
    show = "import os; print(os.environ['MKL_CBWR'], os.environ['ATEN_CPU_CAPABILITY'])"
    done = subprocess.run([sys.executable, "-m", "lib.companion.numerics", sys.executable, "-c",
                           show],
                          capture_output=True, text=True, env={**os.environ, "MKL_CBWR": "AUTO"},
                          cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.split() == ["AVX2", "avx2"], done.stderr


def test_alternative_mode_is_the_pinned_path_with_the_cpu_dependent_libraries_moved():
    env = numerics.pin({numerics.SWITCH: "alternative", "MKL_CBWR": "AUTO"})
    assert env["MKL_CBWR"] == numerics.ALTERNATIVE["MKL_CBWR"] != numerics.PINNED["MKL_CBWR"]
    assert env["ATEN_CPU_CAPABILITY"] == numerics.PINNED["ATEN_CPU_CAPABILITY"]
    assert numerics.drift(env) == {}
    assert numerics.drift({**env, numerics.SWITCH: "pinned"}) == {
        k: v for k, v in numerics.ALTERNATIVE.items()}
