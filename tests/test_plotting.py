"""Figures depend on their data only (lib/companion/plotting.py): the same figure, drawn in two
fresh processes, is the same bytes, also when the machine has a font the house style would
otherwise prefer (seaborn's style lists Arial before DejaVu Sans) and a cold font cache."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

from lib.companion import numerics, paths

DRAW = """
import sys
from pathlib import Path
import matplotlib
matplotlib.use("Agg")
from lib.companion import plotting
fig, ax = plotting.figure()
ax.plot([0, 1, 2], [0, 1, 4], label="$x^2$")
ax.set_xlabel("steps (Arial would be wider)")
ax.set_title(r"$\\alpha_t$ against $t$")
ax.legend()
out = Path(sys.argv[1])
fig.savefig(out / "f.png", metadata={"Software": None})
fig.savefig(out / "f.pdf", metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                                     "Creator": None})
"""


def fake_arial(folder: Path) -> None:
    """A font that calls itself Arial (matplotlib's DejaVu Serif, renamed) in ~/.fonts, where
    fontconfig, and so matplotlib, find a user's fonts."""
    from fontTools.ttLib import TTFont
    font = TTFont(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSerif.ttf")
    for record in font["name"].names:
        if record.nameID in (1, 4, 6, 16):
            record.string = "Arial"
    folder.mkdir(parents=True)
    font.save(folder / "Arial.ttf")


def draw(home: Path) -> dict[str, str]:
    """Run DRAW in a fresh process with its own HOME and an empty matplotlib cache."""
    out = home / "out"
    out.mkdir(parents=True, exist_ok=True)
    env = numerics.pin({k: v for k, v in os.environ.items() if k not in ("MPLCONFIGDIR",)})
    env.update(HOME=str(home), MPLCONFIGDIR=str(home / "mplconfig"), XDG_CACHE_HOME=str(home / "c"))
    done = subprocess.run([sys.executable, "-c", DRAW, str(out)], cwd=paths.ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return {f.name: hashlib.md5(f.read_bytes()).hexdigest() for f in sorted(out.iterdir())}


@pytest.mark.skipif(shutil.which("fc-list") is None,
                    reason="without fontconfig, matplotlib does not look in ~/.fonts")
def test_a_figure_is_the_same_bytes_whatever_fonts_the_machine_has(tmp_path):
    plain = draw(tmp_path / "plain")
    assert draw(tmp_path / "again") == plain, "two fresh processes drew different bytes"
    fake_arial(tmp_path / "arial" / ".fonts")
    assert draw(tmp_path / "arial") == plain, ("a font installed on the machine (a fake Arial) "
                                               "changed the figure's bytes")
