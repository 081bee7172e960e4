#!/usr/bin/env bash
# `make setup`: the project's Python environment, or a message that says what to install.
#
#   tools/setup_env.sh BIN      BIN: the active env's bin/ (used as it is), or .venv/bin (made here)
#
# Python 3.11 only (the pinned set is 3.11's; on 3.12 several pins have no wheels). Without an
# active env it looks for $PYTHON, python3.11, then python3 if that is 3.11, and removes a .venv
# an earlier attempt made with another Python. torch comes from PyTorch's CPU wheel index on
# Linux x86_64 (PyPI's Linux wheels are the CUDA build, several GB of nvidia-* wheels); then the
# project and its pins from pip's own index. Ends by saying plainly what is installed.
set -euo pipefail
BIN=$1
TORCH_INDEX=${TORCH_INDEX:-https://download.pytorch.org/whl/cpu}
TORCH=$(grep -o '"torch==[^"]*"' pyproject.toml | tr -d '"')
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
cpu_torch() { "$BIN/python" -c "import sys, torch; sys.exit(torch.__version__ != '$TORCH_VERSION+cpu')" 2>/dev/null; }
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] && ! cpu_torch; then
  "${PIP[@]}" --retries 1 --timeout 15 --index-url "$TORCH_INDEX" "$TORCH+cpu" \
    || echo "note: $TORCH_INDEX did not serve $TORCH (above): it comes from pip's own index, whose" \
            "Linux wheel is the CUDA build (several GB). For the CPU build point TORCH_INDEX (or" \
            "PIP_FIND_LINKS) at a copy of PyTorch's CPU wheels and run make setup again."
fi
"${PIP[@]}" -e . || { echo "error: pip could not install the project (above); make setup retries, make clean starts afresh" >&2; exit 1; }
"$BIN/python" - <<'EOF'
import sys, torch
build = f"CUDA {torch.version.cuda} build" if torch.version.cuda else "CPU build"
print(f"installed: Python {sys.version.split()[0]} at {sys.prefix}, torch {torch.__version__} ({build})")
EOF
