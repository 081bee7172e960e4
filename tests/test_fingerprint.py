"""What made a run (lib/companion/fingerprint.py): read off /proc/cpuinfo, compared field by field,
measured once per environment, CPU and pin set."""
from __future__ import annotations

import subprocess

from lib.companion import fingerprint

INTEL = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 207
model name\t: INTEL(R) XEON(R) PLATINUM 8581C CPU @ 2.10GHz
stepping\t: 2
flags\t\t: fpu sse4_1 sse4_2 avx avx2 fma avx512f avx512bw amx_tile hypervisor

processor\t: 1
vendor_id\t: GenuineIntel
"""
AMD = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC
stepping\t: 1
flags\t\t: fpu sse4_1 sse4_2 avx avx2 fma avx512f
"""


def test_the_cpu_is_named_with_the_instruction_sets_the_libraries_dispatch_on():
    intel = fingerprint.cpu(INTEL)
    assert intel == {"vendor": "GenuineIntel", "model": "INTEL(R) XEON(R) PLATINUM 8581C CPU @ "
                     "2.10GHz", "family_model_stepping": "6/207/2",
                     "isa": "sse4_1 sse4_2 avx avx2 fma avx512f avx512bw amx_tile"}
    assert fingerprint.cpu(AMD)["isa"] == "sse4_1 sse4_2 avx avx2 fma avx512f"


def test_two_fingerprints_differ_field_by_field():
    a = {"lock": "x", "cpu": fingerprint.cpu(INTEL), "pins": {"MKL_CBWR": "AVX2"}}
    b = {"lock": "x", "cpu": fingerprint.cpu(AMD), "pins": {"MKL_CBWR": "AVX2"}}
    fields = [f for f, _, _ in fingerprint.differences(a, b)]
    assert fields == ["cpu.family_model_stepping", "cpu.isa", "cpu.model", "cpu.vendor"]
    assert fingerprint.differences(a, a) == []
    assert fingerprint.ident(a) == fingerprint.ident(dict(reversed(a.items())))
    assert fingerprint.ident(a) != fingerprint.ident(b)


def test_measured_once_then_read_from_its_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(fingerprint, "CACHE", tmp_path)
    first = fingerprint.of_environment()
    assert first["lock"] and first["cpu"]["vendor"] and first["aten_capability"]
    assert first["pins"]["MKL_CBWR"] == "AVX2"              # the test session is pinned

    def no_process(*args, **kwargs):
        raise AssertionError("measured again although this environment's fingerprint is cached")
    monkeypatch.setattr(subprocess, "run", no_process)
    assert fingerprint.of_environment() == first


def test_summary_of_a_run_made_before_fingerprints_says_so():
    """Run records older than the fingerprint carry none: the book's line says the machine was
    not recorded instead of a row of None."""
    from lib.companion import fingerprint
    assert "None" not in fingerprint.summary({})
    assert "not recorded" in fingerprint.summary({})
