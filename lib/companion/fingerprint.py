"""What made a run: the locked environment, the numerical libraries, the CPU and the pins.

    python -m lib.companion.fingerprint      print this environment's fingerprint (JSON)

Every run record carries one (lib.companion.runs), the ledger lists the ones its results came
from (results/fingerprints.json) and the book shows them, so a difference between two machines'
results can be told apart: another environment (the lock's digest, or packages off the lock),
another build of the libraries (torch, MKL, oneDNN, OpenBLAS), another CPU (vendor, model, the
instruction sets the libraries dispatch on) or other pins. The runner computes it once per
environment, CPU and pin set, in a process started as the notebook kernel is (its libraries read
the pins when they load), and keeps it under build/fingerprints/.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from lib.companion import envlock, numerics, paths

# the instruction sets the CPU libraries choose their kernels by (ATen, MKL, oneDNN, OpenBLAS,
# numpy's SIMD loops); the rest of /proc/cpuinfo's flags do not change a result
ISA_FLAGS = ("sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512cd",
             "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx512vbmi",
             "avx_vnni", "amx_tile", "amx_bf16")
CACHE = paths.ROOT / "build" / "fingerprints"


def cpu(cpuinfo: str | None = None) -> dict[str, str]:
    """The CPU's vendor, model name, family/model/stepping and dispatch-relevant ISA flags, from
    /proc/cpuinfo (on other systems: what `platform` says)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return {"vendor": platform.processor() or "unknown", "model": platform.machine(),
                    "isa": ""}
    first = cpuinfo.split("\n\n", 1)[0]
    field = dict((k.strip(), v.strip()) for k, _, v in
                 (line.partition(":") for line in first.splitlines()) if k.strip())
    flags = set(field.get("flags", "").split())
    return {"vendor": field.get("vendor_id", "unknown"),
            "model": field.get("model name", "unknown"),
            "family_model_stepping": "/".join(field.get(k, "?") for k in
                                              ("cpu family", "model", "stepping")),
            "isa": " ".join(f for f in ISA_FLAGS if f in flags)}


def libraries() -> dict[str, str]:
    """The numerical libraries this process loads, as their builds report themselves."""
    import numpy
    import threadpoolctl
    import torch
    config = torch.__config__.show()
    mkl = re.search(r"Math Kernel Library Version ([^\n]+)", config)
    onednn = re.search(r"MKL-DNN (v[\d.]+)", config)
    pools = {p["internal_api"]: p for p in threadpoolctl.threadpool_info()}
    blas = pools.get("openblas", {})
    return {
        "torch": f"{torch.__version__} (git {torch.version.git_version[:10]})",
        "mkl": mkl.group(1).strip() if mkl else "none",
        "onednn": onednn.group(1) if onednn else "none",
        "aten_capability": torch.backends.cpu.get_cpu_capability(),
        "numpy": numpy.__version__,
        "openblas": f"{blas.get('version')} (core {blas.get('architecture')})" if blas else "none",
    }


def measure() -> dict:
    """This process's fingerprint (imports torch: run it where the pins are already set)."""
    return {
        "lock": envlock.digest(),
        "environment": environment_state(),
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": f"{platform.system()} {platform.machine()}",
        **libraries(),
        "cpu": cpu(),
        "pins": {k: os.environ.get(k, "(unset)") for k in (*numerics.PINNED, numerics.SWITCH)},
    }


def environment_state() -> str:
    """'exactly the lock', or how many packages differ from it."""
    try:
        diff = envlock.compare(envlock.locked(), envlock.installed())
    except envlock.LockError as err:
        return f"unknown ({err})"
    n = sum(len(v) for v in diff.values())
    return "exactly the lock" if n == 0 else f"{n} package(s) off the lock (envlock --check)"


def key(env: dict[str, str]) -> str:
    """What a fingerprint depends on, hashed: the interpreter, the installed distributions, the
    lock, the CPU and the pins the process would start with."""
    parts = [sys.executable, envlock.digest(),
             json.dumps(sorted((d.metadata["Name"] or "", d.version)
                               for d in metadata.distributions())),
             json.dumps(cpu(), sort_keys=True),
             json.dumps({k: env.get(k) for k in (*numerics.PINNED, numerics.SWITCH)},
                        sort_keys=True)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


def of_environment(env: dict[str, str] | None = None) -> dict:
    """The fingerprint a process started with `env` (default: this one's) would have: measured
    in such a process once, then read from build/fingerprints/."""
    env = dict(os.environ if env is None else env)
    cached = CACHE / f"{key(env)}.json"
    try:
        return json.loads(cached.read_text())
    except (OSError, ValueError):
        pass
    done = subprocess.run([sys.executable, "-m", "lib.companion.fingerprint"], env=env,
                          cwd=paths.ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": f"fingerprint not measured: {done.stderr.strip()[-300:]}"}
    doc = json.loads(done.stdout)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True))
    tmp.replace(cached)
    return doc


def ident(doc: dict) -> str:
    """A short name for a fingerprint (the same fingerprint, the same name on every machine)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:10]


def differences(a: dict, b: dict, prefix: str = "") -> list[tuple[str, str, str]]:
    """(field, a's value, b's value) for each field two fingerprints disagree on, nested fields
    dotted (cpu.model, pins.MKL_CBWR)."""
    rows = []
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k), b.get(k)
        if isinstance(x, dict) and isinstance(y, dict):
            rows += differences(x, y, f"{prefix}{k}.")
        elif x != y:
            rows.append((f"{prefix}{k}", str(x), str(y)))
    return rows


def summary(doc: dict) -> str:
    """One line: CPU, environment, libraries, the MKL pin."""
    if "error" in doc:
        return doc["error"]
    if not doc:
        return "a machine not recorded (runs made before run records carried a fingerprint)"
    c = doc.get("cpu", {})
    return (f"{c.get('model')} ({c.get('vendor')} {c.get('family_model_stepping')}); lock "
            f"{doc.get('lock')} ({doc.get('environment')}); Python {doc.get('python')}; torch "
            f"{doc.get('torch')}, MKL {doc.get('mkl')}, oneDNN {doc.get('onednn')}, OpenBLAS "
            f"{doc.get('openblas')}; ATen {doc.get('aten_capability')}; MKL_CBWR="
            f"{doc.get('pins', {}).get('MKL_CBWR')}")


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1, sort_keys=True))
