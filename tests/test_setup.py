"""`make setup` on a machine without Python 3.11: a message that names what to install, and no
broken .venv left behind (tools/setup_env.sh, run with a PATH whose python3 reports 3.12)."""
import os
import shutil
import subprocess

from lib.companion import paths

FAKE_312 = "#!/bin/sh\necho 3.12\n"


def test_python_3_12_fails_by_name_and_removes_the_venv_it_made(tmp_path):
    (tmp_path / "tools").mkdir()
    shutil.copy(paths.ROOT / "tools/setup_env.sh", tmp_path / "tools")
    shutil.copy(paths.ROOT / "pyproject.toml", tmp_path)
    shutil.copy(paths.ROOT / "requirements.lock", tmp_path)
    bin_dir = tmp_path / "fake"
    bin_dir.mkdir()
    for tool in ("bash", "grep", "tr", "uname", "rm", "env", "cat"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    (bin_dir / "python3").write_text(FAKE_312)
    (tmp_path / ".venv/bin").mkdir(parents=True)
    (tmp_path / ".venv/bin/python").write_text(FAKE_312)   # what a failed attempt left
    for script in (bin_dir / "python3", tmp_path / ".venv/bin/python"):
        script.chmod(0o755)
    done = subprocess.run(["bash", "tools/setup_env.sh", ".venv/bin"], cwd=tmp_path,
                          env={"PATH": str(bin_dir)}, capture_output=True, text=True)
    assert done.returncode == 1
    assert "removing .venv: an earlier attempt made it with Python 3.12" in done.stdout
    assert "needs Python 3.11; found" in done.stderr and "(3.12)" in done.stderr
    assert "uv python install 3.11" in done.stderr
    assert not (tmp_path / ".venv").exists()
