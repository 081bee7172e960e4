"""lib.companion.params: a bad value is refused with the key path, the value and what is allowed."""
import pytest
import yaml

from lib.companion import params

GOOD = {
    "profile": "default",
    "seed": 0,
    "gd_perceptron": {"01_reduction": yaml.safe_load(open(params.paths.PARAMS_FILE))[
        "gd_perceptron"]["01_reduction"]},
}


def write(tmp_path, doc):
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_check_all_accepts_the_real_file():
    assert "gd_perceptron/01_reduction" in params.check_all()


def test_unknown_top_level_key(tmp_path):
    with pytest.raises(params.ParamsError, match=r"unknown top-level key 'sed'.*allowed"):
        params.check_all(write(tmp_path, {**GOOD, "sed": 1}))


def test_bad_profile(tmp_path):
    with pytest.raises(params.ParamsError, match=r"profile = 'fast'; allowed"):
        params.check_all(write(tmp_path, {**GOOD, "profile": "fast"}))


def test_negative_seed(tmp_path):
    with pytest.raises(params.ParamsError, match=r"seed = -1; allowed: an integer >= 0"):
        params.check_all(write(tmp_path, {**GOOD, "seed": -1}))


@pytest.mark.parametrize("key, value, message", [
    ("equiv_d", -3, r"gd_perceptron\.01_reduction\.equiv_d = -3: Input should be greater than"),
    ("equiv_d", "fifty", r"equiv_d = 'fifty': Input should be a valid integer"),
    ("equiv_eta", "1e-3", r"equiv_eta = '1e-3': Input should be a valid number"),
    ("worst_case_max_iter", 2.5, r"worst_case_max_iter = 2.5: Input should be a valid integer"),
    ("equiv_sclaes", [1.0], r"equiv_sclaes = \[1.0\]: Extra inputs are not permitted"),
])
def test_section_value_errors_name_key_value_and_rule(tmp_path, key, value, message):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["01_reduction"][key] = value
    with pytest.raises(params.ParamsError, match=message):
        params.check_all(write(tmp_path, doc))


def test_profile_override_of_unknown_key(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["01_reduction"]["smoke"] = {"nope": 1}
    with pytest.raises(params.ParamsError, match=r"01_reduction\.smoke\.nope overrides a key"):
        params.check_all(write(tmp_path, doc))


def test_merge_applies_profile_then_overrides():
    raw = params.read_file()
    smoke = params.merge(raw, "gd_perceptron/01_reduction", "smoke", {"equiv_d": 7})
    section = raw["gd_perceptron"]["01_reduction"]
    assert smoke["profile"] == "smoke"
    assert smoke["worst_case_n"] == section["smoke"]["worst_case_n"]
    assert smoke["equiv_d"] == 7
    assert params.merge(raw, "gd_perceptron/01_reduction", "default")["worst_case_n"] == \
        section["worst_case_n"]


def test_main_check_exit_status(tmp_path, capsys):
    assert params.main(["--check", "--stamp", str(tmp_path / "ok")]) == 0
    assert (tmp_path / "ok").read_text() == "params.yaml validated\n"
