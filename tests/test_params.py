"""lib.companion.params: a bad value is refused with the key path, the value and what is allowed."""
import json
import re

import pytest
import yaml

from lib.companion import generate, papers, params, paths, yamlio

GOOD = generate.defaults()     # one whole document: every paper's sections (a cut one is refused)


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
    ("equiv_d", -3, r"gd_perceptron\.reduction\.equiv_d = -3: Input should be greater than"),
    ("equiv_d", "fifty", r"equiv_d = 'fifty': Input should be a valid integer"),
    ("equiv_eta", "small", r"equiv_eta = 'small': Input should be a valid number"),
    ("worst_case_max_iter", 2.5, r"worst_case_max_iter = 2.5: Input should be a valid integer"),
    ("equiv_sclaes", [1.0], r"equiv_sclaes = \[1.0\]: not a parameter of this notebook; "
                                           r"did you mean 'equiv_scales'\? allowed"),
])
def test_section_value_errors_name_key_value_and_rule(tmp_path, key, value, message):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["reduction"][key] = value
    with pytest.raises(params.ParamsError, match=message):
        params.check_all(write(tmp_path, doc))


def test_profile_override_of_unknown_key(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["reduction"]["smoke"] = {"nope": 1}
    with pytest.raises(params.ParamsError, match=r"reduction\.smoke\.nope overrides a key"):
        params.check_all(write(tmp_path, doc))


def test_merge_applies_profile_then_overrides():
    raw = generate.defaults()
    smoke = params.merge(raw, "gd_perceptron/01_reduction", "smoke", {"equiv_d": 7})
    section = raw["gd_perceptron"]["reduction"]
    assert smoke["profile"] == "smoke"
    assert smoke["worst_case_n"] == section["smoke"]["worst_case_n"]
    assert smoke["equiv_d"] == 7
    assert params.merge(raw, "gd_perceptron/01_reduction", "default")["worst_case_n"] == \
        section["worst_case_n"]


def test_main_check_writes_one_stamp_per_notebook(tmp_path, capsys):
    (tmp_path / "gone__01_old.json").write_text("{}\n")        # a notebook no longer declared
    assert params.main(["--check", "--stamps", str(tmp_path)]) == 0
    stamps = sorted(p.name for p in tmp_path.iterdir())
    assert stamps == sorted(f"{nb.replace('/', '__')}.json" for nb in papers.all_notebooks())
    stamp = json.loads((tmp_path / "tinn__01_reference_solver.json").read_text())
    section = params.read_all()["tinn"]["reference_solver"]
    assert stamp["n_x"] == section["n_x"] and "smoke" not in stamp and "paper" not in stamp
    assert (stamp["profile"], stamp["seed"]) == (params.read_all()["profile"],
                                                 params.read_all()["seed"])


def test_a_stamp_changes_with_its_own_values_only(tmp_path):
    """A notebook's stage depends on its stamp alone: another profile's override of its section,
    or another notebook's value, leaves its bytes as they were."""
    raw = generate.defaults()
    params.write_stamps(tmp_path / "a", raw)
    raw["tinn"]["reference_solver"]["paper"]["n_x"] = 4096
    raw["tinn"]["burgers_tinn_vs_pinn"]["n_x"] = 64
    params.write_stamps(tmp_path / "b", raw)
    raw["tinn"]["reference_solver"]["n_x"] = 64
    params.write_stamps(tmp_path / "c", raw)
    name = "tinn__01_reference_solver.json"
    assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "b" / name).read_bytes() != (tmp_path / "c" / name).read_bytes()


def write_text(tmp_path, text):
    path = tmp_path / "params.yaml"
    path.write_text(text)
    return path


def test_duplicate_key_refused_with_its_line(tmp_path):
    text = "profile: default\nseed: 0\nseed: 1\n"
    with pytest.raises(params.ParamsError, match=r"params.yaml:3:1: duplicate key 'seed' "
                                                 r"\(first at line 2\)"):
        params.read_file(write_text(tmp_path, text))


def test_yaml_syntax_error_is_one_line_with_line_and_column(tmp_path):
    with pytest.raises(params.ParamsError) as err:
        params.read_file(write_text(tmp_path, "profile: default\nseed: [0, 1\n"))
    message = str(err.value)
    assert "\n" not in message and "params.yaml:3:1: not valid YAML" in message


def test_scientific_notation_reads_as_a_number(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    text = yaml.safe_dump(doc).replace("equiv_eta: 0.05", "equiv_eta: 5e-2")
    assert "equiv_eta: 5e-2" in text
    raw = params.read_file(write_text(tmp_path, text))
    assert raw["gd_perceptron"]["reduction"]["equiv_eta"] == 0.05
    params.check_all(write_text(tmp_path, text))


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_non_finite_step_size_refused(tmp_path, value):
    text = yaml.safe_dump(GOOD).replace("equiv_eta: 0.05", f"equiv_eta: {value}")
    with pytest.raises(params.ParamsError, match=r"equiv_eta = (inf|-inf|nan): Input should be a "
                                                 r"finite number"):
        params.check_all(write_text(tmp_path, text))


def test_override_reads_scientific_notation():
    from lib.companion import runner
    assert runner.parse_overrides(["equiv_eta=1e-3", "equiv_d=30"]) == {"equiv_eta": 1e-3,
                                                                          "equiv_d": 30}


def test_minimum_above_maximum_names_both_keys(tmp_path):
    doc = generate.defaults()
    doc["gd_perceptron"]["linear_lower_bound"]["slope_log2_min"] = 17
    with pytest.raises(params.ParamsError, match=r"linear_lower_bound: slope_log2_min = 17 "
                                                 r"exceeds slope_log2_max = 16"):
        params.check_all(write(tmp_path, doc))


SPELLINGS = ["010", "050", "+7", "1e4", "1e-3", "5:00", "1_000", "0x10", "0o10", "yes", "off",
             "2026-12-01", ".inf", "1.", "~", "True"]


@pytest.mark.parametrize("text", SPELLINGS)
def test_scalars_read_as_dvc_reads_them(text):
    """One reading: every scalar as DVC's own parser types it (the reference: DVC itself), so
    dvc.lock never records a value the notebook did not use (PyYAML reads 050 as 40, 5:00 as
    300)."""
    from dvc.utils.serialize import parse_yaml
    ours = params.yamlio.load(f"a: {text}")["a"]
    dvc = parse_yaml(f"a: {text}", "params.yaml")["a"]
    assert (ours, type(ours)) == (dvc, type(dvc))


def test_yaml_1_1_readings_are_not_ours():
    """The two spellings the fault tests caught: YAML 1.2 reads 050 as fifty and 5:00 as text."""
    assert params.yamlio.load("a: 050")["a"] == 50 and yaml.safe_load("a: 050")["a"] == 40
    assert params.yamlio.load("a: 5:00")["a"] == "5:00" and yaml.safe_load("a: 5:00")["a"] == 300


@pytest.mark.parametrize("text", ["yes", "2026-12-01", "5:00"])
def test_a_count_spelled_as_text_or_date_refused_by_name(tmp_path, text):
    body = yaml.safe_dump(GOOD).replace("equiv_d: 50", f"equiv_d: {text}")
    with pytest.raises(params.ParamsError, match=r"reduction.equiv_d = .+: Input should "
                                                 r"be a valid integer"):
        params.check_all(write_text(tmp_path, body))


def test_profile_named_once(capsys):
    """-p profile=paper beside --profile smoke ran smoke values labelled "paper": refused."""
    from lib.companion import runner
    assert runner.main(["notebooks/gd_perceptron/01_reduction.py", "--profile", "smoke",
                        "-p", "profile=paper"]) == 2
    assert "profile is named once, with --profile" in capsys.readouterr().err
    raw = generate.defaults()
    with pytest.raises(params.ParamsError, match=r"profile is named once"):
        params.merge(raw, "gd_perceptron/01_reduction", "smoke", {"profile": "paper"})


def test_key_yaml_reads_as_a_boolean_refused_by_name(tmp_path):
    body = yaml.safe_dump(GOOD).replace("equiv_d: 50", "true: 50")
    with pytest.raises(params.ParamsError, match=r"reduction: the key true reads as a bool"):
        params.check_all(write_text(tmp_path, body))


def test_declared_rules_across_keys_name_them(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["reduction"]["gammas"] = [1.0, 100.0, 10.0]
    with pytest.raises(params.ParamsError, match=r"gammas = \[1.0, 100.0, 10.0\] falls from "
                                                 r"100.0 to 10.0; allowed: increasing"):
        params.check_all(write(tmp_path, doc))
    doc["gd_perceptron"]["reduction"]["gammas"] = [1.0, 10.0, 100.0]
    doc["gd_perceptron"]["reduction"]["worst_case_n"] = [10, 1000, 10]
    with pytest.raises(params.ParamsError, match=r"worst_case_n = \[10, 1000, 10\] repeats 10"):
        params.check_all(write(tmp_path, doc))


def test_every_key_path_is_one_dvc_exp_run_can_set():
    """`dvc exp run -S <path>=<value>` parses with Hydra's override grammar, whose key segments
    may not start with a digit (sections were once named by the stem, 01_reduction: refused)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    from lib.companion import papers
    parser = OverridesParser.create()
    keys = [f"{papers.params_key(nb)}.{where}{key}" for nb in papers.all_notebooks()
            for key in params.schema_for(nb).section_keys() for where in ("", "smoke.", "paper.")]
    assert "gd_perceptron.reduction.equiv_d" in keys and len(keys) > 300
    for key in keys:
        parser.parse_overrides([f"{key}=1"])
    with pytest.raises(Exception, match="LexerNoViableAlt"):
        parser.parse_overrides(["gd_perceptron.01_reduction.equiv_d=1"])


def test_set_profile_rewrites_its_line_only(tmp_path):
    path = tmp_path / "params.yaml"
    path.write_text("# head\nprofile: default   # smoke | default | paper\nseed: 3\n")
    assert params.set_profile("paper", path) == "default"
    assert path.read_text() == "# head\nprofile: paper   # smoke | default | paper\nseed: 3\n"
    with pytest.raises(params.ParamsError, match=r"profile = 'papr'; allowed: \['smoke', "
                                                 r"'default', 'paper'\]"):
        params.set_profile("papr", path)


def last_blocks(paper: str) -> tuple[str, list[int]]:
    """A paper's params file and the line numbers (0-based) inside its last section's `smoke:`
    and `paper:` blocks: from the first block's header to the file's last line but one."""
    text = paths.paper_params_file(paper).read_text()
    lines = text.splitlines()
    last_section = max(i for i, ln in enumerate(lines) if re.match(r"  \S", ln))
    first = next((i for i in range(last_section + 1, len(lines))
                  if lines[i].startswith(("    smoke:", "    paper:"))), len(lines))
    return text, list(range(first, len(lines) - 1))


@pytest.mark.parametrize("paper", papers.names())
def test_a_file_cut_inside_its_last_sections_profile_block_is_refused(paper):
    """Cut after each line of the last section's smoke:/paper: blocks, the paper's file is
    refused naming the block (issue 60: it ran that profile on the default values)."""
    text, inside = last_blocks(paper)
    schema = params.schema_for(f"{paper}/{papers.paper(paper).notebooks[-1].stem}")
    if not (schema.SMOKE or schema.PAPER):
        pytest.skip(f"{paper}'s last section declares no profile overrides")
    assert inside, f"{paper}: no profile block found in its last section"
    lines = text.splitlines(keepends=True)
    notebook = f"{paper}/{papers.paper(paper).notebooks[-1].stem}"
    for i in inside:
        cut = yamlio.load("".join(lines[:i + 1]), "cut")
        with pytest.raises(params.ParamsError, match=r"\.(smoke|paper) (= |lacks|missing)"):
            params.merge({"profile": "default", "seed": 0, **cut}, notebook, "default")


@pytest.mark.parametrize("value", [None, 0, [], {}, "x", 3.5, [{"equiv_d": 3}]])
@pytest.mark.parametrize("profile", ["smoke", "paper"])
def test_a_profile_block_that_is_not_its_overrides_is_refused_by_name(tmp_path, value, profile):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    section = doc["gd_perceptron"]["reduction"]
    declared = params.schema_for("gd_perceptron/01_reduction").overrides(profile)
    section[profile] = value
    if value == {} and not declared:
        params.check_all(write(tmp_path, doc))   # an empty block where none is declared: harmless
        return
    with pytest.raises(params.ParamsError, match=rf"gd_perceptron\.reduction\.{profile} "):
        params.check_all(write(tmp_path, doc))


def test_a_profile_block_missing_a_declared_override_is_refused_naming_it(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    del doc["gd_perceptron"]["reduction"]["smoke"]["equiv_scales"]
    with pytest.raises(params.ParamsError,
                       match=r"reduction\.smoke lacks \['equiv_scales'\] \(a file cut short\?\)"):
        params.check_all(write(tmp_path, doc))
    del doc["gd_perceptron"]["reduction"]["smoke"]
    with pytest.raises(params.ParamsError, match=r"reduction\.smoke missing"):
        params.check_all(write(tmp_path, doc))


def test_a_default_block_is_refused(tmp_path):
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    doc["gd_perceptron"]["reduction"]["default"] = {"equiv_d": 3}
    with pytest.raises(params.ParamsError, match=r"reduction\.default: the default profile"):
        params.check_all(write(tmp_path, doc))


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_a_misspelt_key_is_named_with_its_closest_valid_name(notebook):
    """Issue 60: a key with one letter dropped was reported as the key it left missing, "a file
    cut short?" (30 of 44); it is named, with the key it was meant to be."""
    paper, section = papers.params_key(notebook).split(".")
    doc = yaml.safe_load(yaml.safe_dump(GOOD))
    key = max(params.schema_for(notebook).section_keys(), key=len)
    typo = key[:len(key) // 2] + key[len(key) // 2 + 1:]
    doc[paper][section][typo] = doc[paper][section].pop(key)
    with pytest.raises(params.ParamsError) as err:
        params.merge(doc, notebook, "default")
    assert f"{paper}.{section}.{typo} = " in str(err.value)
    assert f"did you mean {key!r}?" in str(err.value) and "cut short" not in str(err.value)
