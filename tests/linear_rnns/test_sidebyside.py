"""The side-by-side table with the released code: its notes point at claims that exist."""
import re
from types import SimpleNamespace

from lib.companion import paths
from lib.linear_rnns import sidebyside


def _cfg():
    return SimpleNamespace(steps=10, batch=4, val_n=8, test_n=8,
                           bins={t: [[2, 3], [4, 5], [6, 7]] for t in sidebyside.PAPER_TASKS})


def test_every_row_has_a_note_column_and_the_wrap_note_sits_on_imm_z_label():
    side = sidebyside.table(_cfg())
    assert "note" in side.columns
    noted = side[side.note != ""]
    assert noted[["task", "aspect"]].values.tolist() == [["imm_z_paper", "label"]]


def test_notes_name_claims_that_notebook_09_records_and_type_no_count():
    source = (paths.ROOT / "notebooks" / "linear_rnns" / "09_audit_released.py").read_text()
    for note in sidebyside.NOTES.values():
        ids = re.findall(r"`(audit\.[a-z0-9_]+)`", note)
        assert ids, note
        for claim in ids:
            assert f'"{claim}"' in source, claim           # recorded there under that id
        assert not re.search(r"\b\d+ of \d+\b", note)       # the count is 09's, never typed here
