"""lib.companion.pipeline_cost and cpu_meter, the pipeline-cost benchmark's logic (never its
timings): which stages a name picks, the order the workers take them in, what an interrupted
run keeps, what the summary sums, what MKL's log adds up to, and that the meter counts the CPU
time of an orphaned process."""
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from lib.companion import numerics
from lib.companion import pipeline_cost as pc

READS = {"p/01_a": [], "p/02_b": ["p/01_a"], "p/03_c": ["p/02_b"], "q/01_x": []}


def test_select_takes_all_a_paper_a_stem_or_a_prefix_in_declaration_order():
    names = list(READS)
    assert pc.select(["all"], names) == names
    assert pc.select(["q", "p/02"], names) == ["p/02_b", "q/01_x"]
    assert pc.select(["p/03_c", "p/01_a"], names) == ["p/01_a", "p/03_c"]
    with pytest.raises(SystemExit, match=r"--stages 'p/09': no declared notebook; allowed: "
                                         r"'all', a paper \(p, q\)"):
        pc.select(["p/09"], names)
    with pytest.raises(SystemExit, match="'pp'"):
        pc.select(["pp"], names)                 # a paper's name is matched whole, not a prefix


def test_a_stage_brings_what_it_reads_directly_or_not():
    assert pc.with_readers_inputs(["p/03_c"], READS) == ["p/01_a", "p/02_b", "p/03_c"]
    assert pc.with_readers_inputs(["q/01_x"], READS) == ["q/01_x"]


def test_plan_runs_what_is_missing_and_the_inputs_a_tree_lost():
    doc = pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "X"}, "default")
    for n in READS:
        pc.record(doc, "old", n, "ok", [usage(1.0)])
    pc.record(doc, "new", "p/01_a", "ok", [usage(1.0)])
    pc.record(doc, "new", "p/02_b", "ok", [usage(1.0)])
    old_reads = {n: r for n, r in READS.items() if n != "q/01_x"}      # q/01_x is new
    decl = {"old": old_reads, "new": READS}
    ran = {("new", "p/01_a"): False, ("new", "p/02_b"): True}
    jobs = pc.plan(doc, ["old", "new"], decl, ["p/03_c", "q/01_x"], 1, {"q/01_x": 9.0},
                   lambda side, n: ran.get((side, n), True))
    # old: all measured; new: 03 and q to run, 01 re-run only if a stage to run reads it
    assert [(j.side, j.notebook) for j in jobs] == [("new", "p/03_c"), ("new", "q/01_x")]
    assert doc["stages"]["q/01_x"]["old"]["status"] == "absent"
    ran[("new", "p/02_b")] = False            # 03's input lost, and so its input's input
    jobs = pc.plan(doc, ["new"], decl, ["p/03_c"], 1, {}, lambda side, n: ran[(side, n)])
    assert [j.notebook for j in jobs] == ["p/01_a", "p/02_b", "p/03_c"]
    assert jobs[2].after == {"p/02_b"}


def test_order_is_longest_first_with_a_stages_sides_together():
    jobs = [pc.Job(s, n, est) for n, est in (("p/01_a", 5.0), ("q/01_x", 50.0))
            for s in ("new", "old")]
    got = [(j.notebook, j.side) for j in pc.order(jobs, ["old", "new"])]
    assert got == [("q/01_x", "old"), ("q/01_x", "new"), ("p/01_a", "old"), ("p/01_a", "new")]


def test_schedule_starts_a_reader_after_its_input_and_skips_it_when_that_failed():
    jobs = [pc.Job(side, n, 0.0, set(READS[n])) for n in ("p/03_c", "p/02_b", "p/01_a")
            for side in ("old", "new")]
    finished, skipped, lock = [], [], threading.Lock()

    def work(job):
        with lock:
            for before in job.after:            # every input of its side already finished
                assert (job.side, before) in finished, (job, finished)
            finished.append((job.side, job.notebook))
        return not (job.side == "old" and job.notebook == "p/02_b")    # old's 02 fails

    pc.schedule(jobs, 2, work, lambda job, why: skipped.append((job.side, job.notebook)))
    assert sorted(finished) == sorted([("old", "p/01_a"), ("old", "p/02_b"), ("new", "p/01_a"),
                                       ("new", "p/02_b"), ("new", "p/03_c")])
    assert skipped == [("old", "p/03_c")]


def test_a_job_that_raises_counts_as_failed_and_the_others_go_on(capsys):
    def work(job):
        if job.notebook == "p/01_a":
            raise OSError("no MKL log")
        return True
    skipped = []
    jobs = [pc.Job("new", n, 0.0, set(READS[n])) for n in ("p/01_a", "p/02_b", "q/01_x")]
    pc.schedule(jobs, 2, work, lambda job, why: skipped.append(job.notebook))
    assert skipped == ["p/02_b"] and "OSError: no MKL log" in capsys.readouterr().err


def test_schedule_starts_nothing_once_stopped():
    stop, ran = threading.Event(), []

    def work(job):
        ran.append(job.notebook)
        stop.set()
        return True
    pc.schedule([pc.Job("new", n) for n in READS], 1, work, lambda *_: None, stop)
    assert ran == ["p/01_a"]


def usage(cpu: float, mkl: float | None = None) -> dict:
    out = {"rc": 0, "cpu_s": cpu, "wall_s": cpu}
    if mkl is not None:
        out["mkl"] = {"seconds": mkl, "calls": 1, "by_function": {}}
    return out


def test_a_resumed_run_measures_only_what_is_missing():
    doc = pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "X"}, "default")
    pc.record(doc, "old", "p/01_a", "ok", [usage(10.0)])
    pc.record(doc, "new", "p/01_a", "failed", [{"rc": 1, "cpu_s": 3.0}], why="exit 1")
    assert pc.missing(doc, "old", "p/01_a", 1) == 0
    assert pc.missing(doc, "old", "p/01_a", 3) == 2                   # repeats added later
    assert pc.missing(doc, "new", "p/01_a", 1) == 1                   # a failed run again
    assert pc.missing(doc, "new", "q/01_x", 2) == 2
    pc.record(doc, "old", "p/01_a", "ok", [usage(12.0), usage(11.0)])
    assert [s["cpu_s"] for s in doc["stages"]["p/01_a"]["old"]["samples"]] == [10.0, 12.0, 11.0]
    pc.record(doc, "new", "p/01_a", "ok", [usage(4.0)])
    assert doc["stages"]["p/01_a"]["new"] == {"samples": [usage(4.0)], "status": "ok"}
    same = json.loads(json.dumps(doc))
    assert pc.resumable(same, pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "X"},
                                           "default"))
    for other in (pc.fresh_doc({"commit": "c"}, {"commit": "b"}, {"cpu": "X"}, "default"),
                  pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "Y"}, "default"),
                  pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "X"}, "smoke")):
        assert not pc.resumable(same, other)


def test_summary_ratios_medians_and_totals_over_stages_both_sides_measured():
    doc = pc.fresh_doc({"commit": "a"}, {"commit": "b"}, {"cpu": "X"}, "default")
    pc.record(doc, "old", "p/01_a", "ok", [usage(30.0), usage(10.0), usage(12.0)])   # median 12
    pc.record(doc, "new", "p/01_a", "ok", [usage(4.0)])
    pc.record(doc, "mkl_avx2", "p/01_a", "ok", [usage(5.0, 1.0)])
    pc.record(doc, "mkl_compatible", "p/01_a", "ok", [usage(8.0, 4.0)])
    pc.record(doc, "old", "q/01_x", "ok", [usage(100.0)])
    pc.record(doc, "new", "q/01_x", "failed", [{"rc": 1, "cpu_s": 1.0}])
    s = pc.summarise(doc)
    row = s["stages"]["p/01_a"]
    assert row["cpu_s"]["old"] == 12.0 and row["min_cpu_s"]["old"] == 10.0
    assert row["old_over_new"] == 3.0
    assert row["mkl_avx2_share"] == 1.0 / 5.0 and row["mkl_compatible_share"] == 4.0 / 8.0
    assert row["compatible_extra_s"] == 3.0 and row["compatible_extra_over_new"] == 3.0 / 4.0
    assert "old_over_new" not in s["stages"]["q/01_x"]         # new failed: no ratio, no total
    assert s["totals"]["old_over_new"] == {"old": 12.0, "new": 4.0, "stages": 1, "ratio": 3.0}
    assert s["totals"]["compatible_extra"]["ratio"] == 0.75


def test_mkl_log_lines_are_summed_per_function_in_seconds():
    log = ["MKL_VERBOSE oneMKL 2024.0 Update 2 Product build 20240605 for Intel(R) 64\n",
           "MKL_VERBOSE SGEMM(N,N,64,64,64,0x7f,0x56,64,0x56,64,0x7f,0x56,64) 68.04ms CNR:OFF "
           "Dyn:1 FastMM:1 TID:0  NThr:1\n",
           "MKL_VERBOSE SGEMM(N,T,8,8,8,0x7f,0x56,8,0x56,8,0x7f,0x56,8) 1.5us CNR:OFF Dyn:1\n",
           "MKL_VERBOSE DGETRF(64,64,0x56,64,0x56,0) 250ns CNR:AVX2 Dyn:1\n",
           "MKL_VERBOSE SGEMM_BATCH(N,N,0x7f) 2s CNR:OFF\n", "some other line\n"]
    got = pc.mkl_seconds(log)
    assert got["calls"] == 4
    assert got["seconds"] == pytest.approx(0.06804 + 1.5e-6 + 2.5e-7 + 2.0, rel=1e-12)
    assert got["by_function"]["SGEMM"] == {"calls": 2, "seconds": pytest.approx(0.0680415)}
    assert list(got["by_function"]) == ["SGEMM_BATCH", "SGEMM", "DGETRF"]     # costliest first


def test_each_side_gets_its_pins_and_mkl_branch(tmp_path):
    pins = dict(numerics.PINNED)
    log = tmp_path / "mkl.log"
    old = pc.side_env(pc.SIDES["old"], pins, None)
    assert numerics.SWITCH not in old and "MKL_CBWR" not in old     # its runner pins itself
    assert old["COMPANION_ACCEPT_COST"] == "1"
    moved = pc.side_env(pc.SIDES["old_new_pins"], pins, None)
    assert moved[numerics.SWITCH] == "native" and numerics.drift(
        {**moved, numerics.SWITCH: "pinned"}) == {}
    compat = pc.side_env(pc.SIDES["mkl_compatible"], pins, log)
    assert compat["MKL_CBWR"] == "COMPATIBLE" and compat[numerics.SWITCH] == "native"
    assert compat["MKL_VERBOSE"] == "1" and compat["MKL_VERBOSE_OUTPUT_FILE"] == str(log)
    assert pc.side_env(pc.SIDES["mkl_avx2"], pins, log)["MKL_CBWR"] == "AVX2"


ORPHAN = """
import subprocess, sys
burn = "import time\\nwhile time.process_time() < 0.4: pass"
subprocess.Popen([sys.executable, "-c", burn], start_new_session=True)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_meter_counts_an_orphaned_grandchild(tmp_path):
    out = tmp_path / "usage.json"
    subprocess.run([sys.executable, "-I", str(pc.METER), "--out", str(out), "--",
                    sys.executable, "-c", ORPHAN], check=True)
    got = json.loads(out.read_text())
    # the orphan burns 0.4 CPU-s after its parent exits: without the subreaper the meter's
    # children's time holds only the two short-lived Pythons' start-ups
    assert got["rc"] == 0 and got["subreaper"] and got["orphans_killed"] == 0
    assert got["cpu_s"] >= 0.4


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_meter_ends_an_orphan_that_outlives_the_grace(tmp_path):
    out, pid = tmp_path / "usage.json", tmp_path / "pid"
    sleeper = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
               f"'import time; time.sleep(600)'], start_new_session=True); "
               f"open({str(pid)!r}, 'w').write(str(p.pid))")
    subprocess.run([sys.executable, "-I", str(pc.METER), "--out", str(out), "--grace", "0.5",
                    "--", sys.executable, "-c", sleeper], check=True, timeout=60)
    got = json.loads(out.read_text())
    assert got["rc"] == 0 and got["orphans_killed"] == 1
    assert not (Path("/proc") / pid.read_text()).exists()          # killed and reaped
