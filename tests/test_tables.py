"""lib.companion.tables: floats at the ledger's precision, everything else as written."""
import math

import pytest

from lib.companion import tables


@pytest.mark.parametrize("field, rounded", [
    ("0.30000000000000004", "0.3"), ("1.0", "1.0"), ("100000.0", "100000.0"),
    ("1234567.0", "1.23457e+06"), ("2.5e-20", "2.5e-20"), ("-0.0001234567", "-0.000123457"),
    ("12", "12"), ("1234567", "1234567"), ("abc", "abc"), ("nan", "nan"), ("", ""),
    ("c=0.1", "c=0.1"), ("1.5.2", "1.5.2")])
def test_round_field(field, rounded):
    assert tables.round_field(field) == rounded


@pytest.mark.parametrize("x", [math.pi, 1 / 3, 2.0 ** 0.5 * 1e9, -7.123456789e-12, 0.1 + 0.2])
def test_rounding_keeps_six_significant_digits(x):
    """Half a unit in the sixth significant digit is at most 5e-6 of the value."""
    back = float(tables.round_field(repr(x)))
    assert abs(back - x) <= 5e-6 * abs(x) and back == float(f"{x:.6g}")


def test_round_text_keeps_quoting_and_rows():
    text = 'a,b,c\n0.1234567891,"x, y",3\n"1.0",,7e-300\n'
    assert tables.round_text(text) == 'a,b,c\n0.123457,"x, y",3\n1.0,,7e-300\n'


def test_round_folder_rewrites_only_csv_that_change(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.csv").write_text("x\n0.30000000000000004\n")
    (tmp_path / "b.csv").write_text("x\n0.5\n")
    (tmp_path / "c.json").write_text('{"x": 0.30000000000000004}')
    assert tables.round_folder(tmp_path) == [tmp_path / "sub" / "a.csv"]
    assert (tmp_path / "sub" / "a.csv").read_text() == "x\n0.3\n"
    assert (tmp_path / "c.json").read_text() == '{"x": 0.30000000000000004}'
