#!/usr/bin/env bash
# `make setup`: the project's Python environment, or a message that says what to install.
#
#   tools/setup_env.sh BIN      BIN: the active env's bin/ (used as it is), or .venv/bin (made here)
#
# Python 3.11 (3.11.5 or newer) only: the lock is 3.11's. Without an active env it looks for
# $PYTHON, python3.11, then python3 if that is 3.11, and removes a .venv an earlier attempt made
# with another Python. On Linux x86-64 it installs requirements.lock, every package at its locked
# version, each file checked against the lock's sha256 (pip's hash-checking mode): torch's CPU
# build from PyTorch's CPU wheel index (PyPI's Linux wheels are the CUDA build, several GB of
# nvidia-* wheels), the rest from pip's own index; then the project itself, and in the project's
# .venv it removes what the lock does not hold, so the environment is exactly the lock. Elsewhere
# (macOS, ARM) the lock's wheels do not exist: it installs pyproject.toml's direct pins and says
# that results there are not the committed bytes. Ends by saying plainly what is installed.
set -euo pipefail
BIN=$1
TORCH_INDEX=${TORCH_INDEX:-https://download.pytorch.org/whl/cpu}
TORCH=$(grep -o '^torch==[^ ]*' requirements.lock)
TORCH_VERSION=${TORCH#torch==}
WANT=3.11

version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true; }

need_311() {
  echo "error: this project needs Python $WANT; $1." >&2
  echo "  Install it (Debian/Ubuntu: apt install python3.11 python3.11-venv; any OS: uv python install 3.11," >&2
  echo "  pyenv install 3.11, or conda create -n companion python=3.11), then run make again," >&2
  echo "  with PYTHON=/path/to/python3.11 if it is not on PATH as python3.11." >&2
  exit 1
}

if [ "$BIN" = .venv/bin ]; then
  if [ -x .venv/bin/python ] && [ "$(version .venv/bin/python)" != "$WANT" ]; then
    echo "removing .venv: an earlier attempt made it with Python $(version .venv/bin/python)"
    rm -rf .venv
  fi
  if [ ! -x .venv/bin/python ]; then
    found=""
    for candidate in ${PYTHON:-} python3.11 python3; do
      if command -v "$candidate" >/dev/null 2>&1 && [ "$(version "$candidate")" = "$WANT" ]; then
        found=$candidate; break
      fi
    done
    [ -n "$found" ] || need_311 "found $(command -v python3 || echo 'no python3') ($(version python3 || true))"
    "$found" -m venv .venv || { rm -rf .venv; need_311 "$found could not create a venv (Debian: apt install python3.11-venv)"; }
  fi
else
  have=$(version "$BIN/python")
  [ "$have" = "$WANT" ] || need_311 "the active environment ($BIN) has Python ${have:-none}; deactivate it or make one with $WANT"
fi

PIP=("$BIN/python" -m pip install --quiet --disable-pip-version-check)
LOCK=requirements.lock
cpu_torch() { "$BIN/python" -c "import sys, torch; sys.exit(torch.__version__ != '$TORCH_VERSION')" 2>/dev/null; }
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
  if ! cpu_torch; then
    # the lock's torch entry (its pin and hash lines) alone, from PyTorch's CPU index
    awk '/^torch==/{keep=1} keep{print} keep && !/\\$/{exit}' "$LOCK" > "$BIN/.torch.lock"
    "${PIP[@]}" --require-hashes --no-deps --retries 1 --timeout 15 --index-url "$TORCH_INDEX" \
      -r "$BIN/.torch.lock" || {
      echo "error: $TORCH_INDEX did not serve $TORCH (above), the CPU build the lock holds. Point" \
           "TORCH_INDEX (or PIP_FIND_LINKS) at a copy of PyTorch's CPU wheels and run make setup" \
           "again." >&2; exit 1; }
  fi
  "${PIP[@]}" --require-hashes --no-deps -r "$LOCK" \
    || { echo "error: pip could not install $LOCK (above); make setup retries, make clean starts afresh" >&2; exit 1; }
  "${PIP[@]}" --no-deps --no-build-isolation -e . \
    || { echo "error: pip could not install the project (above)" >&2; exit 1; }
  [ "$BIN" != .venv/bin ] || "$BIN/python" -m lib.companion.envlock --remove-extra
  "$BIN/python" -m lib.companion.envlock --check
else
  echo "note: $LOCK is Linux x86-64's; on $(uname -s)-$(uname -m) its wheels do not exist, so this" \
       "installs pyproject.toml's direct pins without hashes. The pipeline runs, but its bytes are" \
       "not the committed ones (docs/guide/machines.md: the same results on every machine)."
  "${PIP[@]}" -e . || { echo "error: pip could not install the project (above); make setup retries, make clean starts afresh" >&2; exit 1; }
fi
"$BIN/python" - <<'EOF'
import sys, torch
build = f"CUDA {torch.version.cuda} build" if torch.version.cuda else "CPU build"
print(f"installed: Python {sys.version.split()[0]} at {sys.prefix}, torch {torch.__version__} ({build})")
EOF
