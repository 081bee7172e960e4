"""What would make an executed copy differ from run to run or clone to clone, refused at the
source: a pandas Styler without a fixed id (it draws a random table id into the HTML), and, in
the executed copies present, this machine's absolute paths, terminal escape sequences, or an
object's memory address (a cell ending in a generator or a Styler shows `<... at 0x..>`), or the
kernel's per-run cell folder (`/tmp/ipykernel_<pid>/`, in warnings raised from a cell)."""
import re

import pytest

from lib.companion import paths

SOURCES = sorted(paths.NOTEBOOKS.glob("*/[0-9]*.py"))
EXECUTED = sorted(paths.RESULTS.glob("*/executed/*.ipynb"))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_styler_has_a_fixed_id(source):
    for n, line in enumerate(source.read_text().splitlines(), 1):
        if re.search(r"\.style\.", line):
            assert "set_uuid(" in line, f"{source.relative_to(paths.ROOT)}:{n}: a Styler " \
                "draws a random table id each run; give it one with .set_uuid(...)"


@pytest.mark.skipif(not EXECUTED, reason="no executed copies here (make repro writes them)")
def test_executed_copies_hold_no_local_path_escape_or_address():
    bad = [p.relative_to(paths.ROOT) for p in EXECUTED
           if str(paths.ROOT) in (text := p.read_text()) or "\\u001b[" in text
           or re.search(r" at 0x[0-9a-f]{6,}>", text) or re.search(r"ipykernel_\d+/", text)]
    assert not bad, f"machine-specific bytes in {bad}"
