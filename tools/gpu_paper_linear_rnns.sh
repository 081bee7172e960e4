#!/usr/bin/env bash
# Notebook 08 (linear_rnns) in the paper profile, ONE task, on a GPU, through the sweep engine
# (submitit's local executor: one job per (task, family), its seeds batched). Writes env, timing,
# the accuracy per bin and the orderings under $OUT.
# Usage: OUT=/some/dir [TASK=imm_mod] [SEEDS=1] [SECS=0] [EXECUTOR=local] [FRESH=1] bash tools/gpu_paper_linear_rnns.sh
# SECS > 0 caps each job's training at that many seconds (a quick check; 0 = the launchers' step
# caps). FRESH=1 (default) deletes that profile's checkpoints first so the timing is a fresh run.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-results/gpu_check}"; TASK="${TASK:-imm_mod}"; SEEDS="${SEEDS:-1}"; SECS="${SECS:-0}"
EXECUTOR="${EXECUTOR:-local}"; mkdir -p "$OUT"
PY=.venv/bin/python; [ -x "$PY" ] || PY=python3
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(),
  torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')" | tee "$OUT/env.txt"
if [ "${FRESH:-1}" = 1 ]; then rm -rf results/linear_rnns/checkpoints/cli-paper; fi
CAP=(); if [ "$SECS" != 0 ]; then CAP=(--max-seconds "$SECS"); fi
start=$(date +%s)
"$PY" -m lib.linear_rnns.sweep --profile paper --task "$TASK" --n-seeds "$SEEDS" --executor "$EXECUTOR" \
  "${CAP[@]}" --out "$OUT" 2>&1 | tee "$OUT/run.log"
echo "task $TASK seeds $SEEDS max_seconds $SECS wall_seconds $(( $(date +%s) - start ))" | tee "$OUT/timing.txt"
