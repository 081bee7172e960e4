"""One CPU code path on every x86-64 machine: the settings that pin the numerical libraries.

Training amplifies last-bit differences, and the CPU libraries choose their kernels by the CPU they
find: ATen's vectorised kernels by CPU capability, MKL's matrix products (which torch's CPU
`matmul` uses) and oneDNN's by instruction set, OpenBLAS's (numpy's) by core type, numpy's own
loops by SIMD extension, and all of them by thread count. Each is read once, when the library
loads, so the settings must be in the environment of the process that imports them: the runner
puts them there for the notebook kernel it starts (and everything that kernel starts), the test
session for nbval's kernels, `make` for every command it runs.

AVX2 is the pinned level: every x86-64 CPU since 2013 (Intel Haswell, AMD Excavator/Zen) has it,
and a machine with AVX-512 is held to it. MKL (torch's CPU matrix products) is the exception: its
AVX2 branch exists on Intel CPUs only; an AMD CPU ignores MKL_CBWR=AVX2 and takes MKL's automatic
path, which there does not follow the instruction sets (MKL_ENABLE_INSTRUCTIONS=AVX2, AVX512 or
SSE4_2 gave the same bytes on an AMD EPYC). MKL's COMPATIBLE branch, the one both vendors take, was
pinned for a while and did not make them agree: an Intel Xeon and an AMD EPYC running the same lock
on it still wrote different bytes for every torch-training stage, at 2-5x the time of a matrix
product (numbers: docs/guide/machines.md). So MKL is held at AVX2 again: Intel CPUs share one MKL
path, AMD CPUs another, and the verdicts are held to the CPU by a second code path instead
(lib.companion.codepaths). What no setting pins (another CPU architecture: ARM, Apple silicon;
another build of torch or numpy) is in that guide page.

`COMPANION_NUMERICS=native` leaves the machine's own choices: for measuring what the pinning
changes and costs, never for results to commit. `COMPANION_NUMERICS=alternative` takes the pinned
path but for the libraries whose kernels differ from one CPU to another (ALTERNATIVE): the second
code path on which lib.companion.codepaths re-decides every claim.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping, MutableMapping

PINNED: dict[str, str] = {
    "ATEN_CPU_CAPABILITY": "avx2",             # torch's vectorised CPU kernels
    "MKL_CBWR": "AVX2",                        # Intel: AVX2; AMD: MKL's own path
    "ONEDNN_MAX_CPU_ISA": "AVX2",              # oneDNN (torch's convolutions)
    "OPENBLAS_CORETYPE": "Haswell",            # numpy's OpenBLAS kernels
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",   # numpy's loops: no AVX-512
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
}
SWITCH = "COMPANION_NUMERICS"
MODES = ("pinned", "alternative", "native")
# Another CPU's code path, on any x86-64 CPU: where the pinned settings still leave the result to
# the CPU (MKL's matrix-product kernel: Intel's AVX2 branch or AMD's own path; oneDNN's blocking),
# another kernel of that library. MKL's COMPATIBLE branch (SSE2) exists on both vendors.
ALTERNATIVE: dict[str, str] = {
    "MKL_CBWR": "COMPATIBLE",
    "ONEDNN_MAX_CPU_ISA": "SSE41",
}


def native(env: Mapping[str, str] | None = None) -> bool:
    """True when the environment asks for the machine's own code paths (SWITCH=native)."""
    return (os.environ if env is None else env).get(SWITCH, "pinned") == "native"


def pin(env: MutableMapping[str, str] | None = None) -> MutableMapping[str, str]:
    """Put the pinned settings into `env` (default: this process's environment, for the
    processes it starts), overriding what was there, unless it asks for native code paths; the
    alternative mode then puts ALTERNATIVE over them."""
    env = os.environ if env is None else env
    mode = env.get(SWITCH, "pinned")
    if mode not in MODES:
        raise ValueError(f"{SWITCH}={mode!r}: allowed values are 'pinned' (the default), "
                         "'alternative' and 'native'")
    if mode != "native":
        env.update(PINNED)
    if mode == "alternative":
        env.update(ALTERNATIVE)
    return env


def unpinned_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of `env` (default: this process's) without the pinned settings or the switch: the
    environment a process starts in when nobody pinned it (for tests and benchmarks)."""
    env = os.environ if env is None else env
    return {k: v for k, v in env.items() if k not in PINNED and k != SWITCH}


def drift(env: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """The settings of this environment's mode (pinned, or alternative) it lacks or sets
    otherwise: {name: value found}."""
    env = os.environ if env is None else env
    want = {**PINNED, **(ALTERNATIVE if env.get(SWITCH) == "alternative" else {})}
    return {k: env.get(k) for k, v in want.items() if env.get(k) != v}


def main(argv: list[str] | None = None) -> int:
    """`python -m lib.companion.numerics CMD [ARGS]`: run CMD with the pinned settings (`make
    lab` starts JupyterLab so); with no CMD, print them as shell exports (for `eval`)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        for key, value in PINNED.items():
            print(f"export {key}='{value}'")
        return 0
    os.execvpe(argv[0], argv, dict(pin(dict(os.environ))))


if __name__ == "__main__":
    sys.exit(main())
