#!/usr/bin/env bash
# Notebook 08 (linear_rnns) in the paper profile, ONE task, on a GPU. Writes env, timing, claims
# and tables under $OUT. Usage: OUT=/some/dir [TASK=imm_f2] [SECS=40] [FRESH=1] bash tools/gpu_check_linear_rnns.sh
# FRESH=1 (default) deletes the paper-profile checkpoints first so the timing is a fresh run.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-results/gpu_check}"; TASK="${TASK:-imm_f2}"; SECS="${SECS:-40}"; mkdir -p "$OUT"
PY=.venv/bin/python; [ -x "$PY" ] || PY=python3
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(),
  torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')" | tee "$OUT/env.txt"
if [ "${FRESH:-1}" = 1 ]; then rm -rf results/linear_rnns/checkpoints/paper results/linear_rnns/checkpoints/cli-paper; fi
start=$(date +%s)
if "$PY" -c "import papermill, jupytext, pydantic" 2>/dev/null; then   # the notebook itself
  "$PY" -m lib.companion.runner notebooks/linear_rnns/08_trained_models.py --profile paper -p "tasks=[$TASK]" \
    -p n_seeds=1 -p eval_every=250 -p max_train_seconds="$SECS" 2>&1 | tee "$OUT/run.log"
  cp results/linear_rnns/claims/08_trained_models.json results/linear_rnns/tables/08_trained_models/*.csv "$OUT"/
else                                          # no notebook stack: the same grid via the lib CLI
  "$PY" -m lib.linear_rnns.train --profile paper --task "$TASK" --n-seeds 1 --max-seconds "$SECS" \
    --out "$OUT" 2>&1 | tee "$OUT/run.log"
fi
echo "task $TASK max_train_seconds $SECS wall_seconds $(( $(date +%s) - start ))" | tee "$OUT/timing.txt"
