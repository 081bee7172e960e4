#!/usr/bin/env bash
# `make lock`: requirements.lock from pyproject.toml's direct pins (tools/lock-constraints.txt
# beside them): every package with its exact version and the sha256 of its files, for CPython 3.11
# on Linux x86-64. A version already in the lock is kept while it still fits; `make lock
# UPGRADE=1` takes the newest that fits. uv resolves it: a pinned uv in build/locktool, apart from
# the project's environment. torch's CPU build comes from PyTorch's CPU index (TORCH_INDEX), or
# from a local folder of its wheels when PIP_FIND_LINKS names one.
set -euo pipefail
UV_VERSION=0.13.10
TOOL=build/locktool/bin
if [ ! -x "$TOOL/uv" ] || [ "$("$TOOL/uv" --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
  python3 -m venv build/locktool
  "$TOOL/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
fi
if [ -n "${PIP_FIND_LINKS:-}" ]; then
  torch_source=(--find-links "$PIP_FIND_LINKS" --no-emit-find-links)
else
  torch_source=(--extra-index-url "${TORCH_INDEX:-https://download.pytorch.org/whl/cpu}" --no-emit-index-url)
fi
upgrade=()
[ "${1:-}" != --upgrade ] || upgrade=(--upgrade)
"$TOOL/uv" pip compile pyproject.toml -c tools/lock-constraints.txt --generate-hashes \
  --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
  --custom-compile-command "make lock" "${torch_source[@]}" ${upgrade[@]+"${upgrade[@]}"} \
  --quiet -o requirements.lock
echo "requirements.lock: $(grep -c '^[A-Za-z0-9]' requirements.lock) packages; make setup installs it"
