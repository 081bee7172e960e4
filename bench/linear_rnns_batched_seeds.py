"""Benchmark: the seeds of one (task, family) trained as one batched model against one run per
seed (issue 15; notebook 08's training grid), a cost curve over the number of seeds per family.

    python bench/linear_rnns_batched_seeds.py [--task parity] [--seeds 1 2 4 8] [--steps 6]
        [--repeats 1] [--cap 3] [--families rnn gru ...]

For each family (all eight by default) first checks, in float64 on 3 seeds and `--steps` steps,
that the batched seeds (`seeds.train_seeds`) and one `train.train_run` per seed give the same
loss at every validation and the same final parameters to 1e-6. Then one curve in float32 at the
default profile's sizes (d 32, batch 32, lengths 3-20, one thread), `--steps` steps with a
validation halfway and at the end: `per_seed` (reference: S runs of `train.train_run`) against
`batched` (kernel: `seeds.train_seeds` on the S seeds). At every S the per-seed losses at every
validation must agree to 1e-4 (float32 rounding; parameters are compared in float64 only, since
AdamW moves a parameter by about lr whatever its gradient's size, so a float32 rounding that
flips a near-zero gradient's sign moves it by that much).

Bound per run of S seeds (both sides do the same arithmetic): S x [steps x (3 F(32) + 12 P)
+ validations x F(128)] flops, F(b) = the forward flops of b sequences of length 20 (the
trimmed batch is almost always 20 long), backward ~ 2 forward, P parameters, ~12 flops each
per clipped AdamW step. F per position: MLP and head 8 d^2 + 4 d, plus rnn 4 d^2, gru 12 d^2,
diag 6 d^2 + 3 d C/T (scan, C = r T - 2^r + 1), pd 2 (8 d + 8 n^2 + 3 d n) + 2 n^2 + n (loop,
n = 16), deltanet 8 d^2 + 4 d + 8 H dk dv, rwkv7 14 d^2 + 9 H dk dv, transformer 8 d^2 + 4 T d
(H = 2, dk = dv = 16). Against the one-thread float32 GEMM rate.
At 8 seeds both sides run at 1/10-1/60 of it (pd, DeltaNet and RWKV-7, whose per-step loops add
many small ops, furthest). The JSON's `dispatch` counts aten ops (TorchDispatchMode) of
per_seed at the fewest seeds and of batched at the fewest and the most, and multiplies them by
a measured tiny op (`tiny_op_s`): one per-seed run dispatches 3-16k ops; the batched run about
twice that at one seed, and at 8 seeds only ~1.6x its one-seed count (vmap puts the seed axis
inside each op; validations and batch sampling stay per seed), 2-3x fewer than 8 per-seed
runs, which is where its speed-up comes from. That tiny-op floor is 10-25% of the measured
time; the rest is ops larger than a tiny one (the (640, 32) products), autograd bookkeeping and
numpy sampling.
Writes results/bench/linear_rnns_batched_seeds.json.
"""
from __future__ import annotations

import argparse

import torch

from lib.companion import benchmark
from lib.linear_rnns import models, seeds, train

AGREE64 = 1e-6      # issue 15: the same per-seed losses to 1e-6 (float64: ~1e-15 is observed)
AGREE32 = 1e-4      # float32 losses: <= 1.4e-6 observed at 10 steps and 8 seeds
T_TRAIN, VAL_N, D, BATCH, HEADS, N_PD, K_PD = 20, 128, 32, 32, 2, 16, 8
ADAMW_FLOPS = 12    # per parameter and step: moments, bias corrections, update, clipping


def configs(task: str, family: str, n: int, **kw) -> list[train.RunConfig]:
    """One run per seed, the default profile's model and batch sizes."""
    return [train.RunConfig(task=task, family=family, seed=s, d=D, batch=BATCH, lr=1e-3,
                            val_n=VAL_N, train_bin=(3, T_TRAIN), **kw) for s in range(n)]


def outcome(models_and_states: tuple[list, list]) -> tuple[list, list]:
    """(per-seed validation histories, per-seed final parameters) of either side."""
    ms, sts = models_and_states
    return [st["history"] for st in sts], [list(m.state_dict().values()) for m in ms]


def per_seed(rcs: list[train.RunConfig]) -> tuple[list, list]:
    runs = [train.train_run(rc, None, progress=False) for rc in rcs]
    return outcome(([m for m, _ in runs], [st for _, st in runs]))


def batched(rcs: list[train.RunConfig]) -> tuple[list, list]:
    return outcome(seeds.train_seeds(rcs, None, progress=False))


def differences(ref: tuple[list, list], out: tuple[list, list]) -> tuple[float, float]:
    """Largest |loss| difference over every validation and |parameter| difference at the end."""
    dloss = max(abs(a[1] - b[1]) for h_ref, h in zip(ref[0], out[0], strict=True)
                for a, b in zip(h_ref, h, strict=True))
    dpar = max(float((a - b).abs().max()) for p_ref, p in zip(ref[1], out[1], strict=True)
               for a, b in zip(p_ref, p, strict=True))
    return dloss, dpar


def losses_agree(ref: tuple[list, list], out: tuple[list, list]) -> bool:
    return differences(ref, out)[0] <= AGREE32


def position_flops(family: str, T: int) -> float:
    """Forward flops per sequence position at length T (module docstring)."""
    d, dk = D, D // HEADS
    common = 8 * d * d + 4 * d
    if family in ("diag_pos", "diag_neg"):
        r = (T - 1).bit_length()
        return common + 6 * d * d + 3 * d * (r * T - 2 ** r + 1) / T
    return common + {"rnn": 4 * d * d, "gru": 12 * d * d,
                     "pd": 2 * (K_PD * d + K_PD * N_PD ** 2 + 3 * d * N_PD) + 2 * N_PD ** 2 + N_PD,
                     "deltanet": 8 * d * d + 2 * d * HEADS + 8 * HEADS * dk * dk,
                     "rwkv7": 14 * d * d + 9 * HEADS * dk * dk,
                     "transformer": 8 * d * d + 4 * T * d}[family]


def seed_flops(rc: train.RunConfig, validations: int) -> float:
    """Flops of training one seed: steps x (forward + backward + AdamW) + the validations."""
    P = sum(p.numel() for p in train.build_model(rc).parameters())
    F = position_flops(rc.family, T_TRAIN) * T_TRAIN             # one sequence's forward
    return rc.steps * (3 * F * BATCH + ADAMW_FLOPS * P) + validations * F * VAL_N




def check_float64(task: str, family: str, steps: int, eval_every: int) -> dict:
    """The exactness check: batched and per-seed runs equal in float64 (3 seeds)."""
    rcs = configs(task, family, 3, steps=steps, eval_every=eval_every, dtype="float64")
    dloss, dpar = differences(per_seed(rcs), batched(rcs))
    if max(dloss, dpar) > AGREE64:
        raise SystemExit(f"{family}: batched and per-seed runs differ ({dloss:.2e}, {dpar:.2e}): "
                         "not timing a wrong kernel")
    print(f"{family}: float64 differences loss {dloss:.1e}, parameters {dpar:.1e}", flush=True)
    return {"max_loss_difference_float64": dloss, "max_parameter_difference_float64": dpar}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="parity")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cap", type=float, default=3.0, help="seconds; a side past it stops")
    parser.add_argument("--families", nargs="+", default=list(models.FAMILIES),
                        choices=models.FAMILIES)
    args = parser.parse_args()
    torch.set_num_threads(1)
    eval_every = max(1, args.steps // 2)
    validations = args.steps // eval_every + (args.steps % eval_every > 0)
    tiny = benchmark.tiny_op_s()
    curves, checks, dispatch = {}, {}, {}
    for fam in args.families:
        checks[fam] = check_float64(args.task, fam, args.steps, eval_every)
        rcs_of = {S: configs(args.task, fam, S, steps=args.steps, eval_every=eval_every)
                  for S in args.seeds}
        per_seed_flops = seed_flops(rcs_of[min(args.seeds)][0], validations)
        curves[fam] = benchmark.curve(
            "seeds", args.seeds,
            lambda S: {"per_seed": lambda: per_seed(rcs_of[S]),
                       "batched": lambda: batched(rcs_of[S])},
            losses_agree, repeats=args.repeats, cap_s=args.cap, label=fam,
            bound=lambda S, side: benchmark.Bound(flops=S * per_seed_flops, dtype="float32"))
        lo, hi = min(args.seeds), max(args.seeds)      # per-seed runs: S x the ops of one
        ops = {"per_seed": {lo: benchmark.aten_ops(lambda: per_seed(rcs_of[lo]))},
               "batched": {S: benchmark.aten_ops(lambda: batched(rcs_of[S])) for S in (lo, hi)}}
        dispatch[fam] = {"aten_ops": ops, "dispatch_floor_s": {
            side: {S: n * tiny for S, n in by.items()} for side, by in ops.items()}}
    bound = ("flops of training S seeds (the same for both sides): S [steps (3 F(32) + 12 P) + "
             "validations F(128)], F(b) the forward flops of b sequences of length 20 (linear "
             "layers and recurrences, per family as in the script's docstring), backward ~ 2 "
             "forward, P parameters, 12 flops each per clipped AdamW step; against the one-thread "
             "float64 GEMM rate")
    benchmark.write_curves("linear_rnns_batched_seeds", "linear_rnns.seeds.train_seeds "
                           "(batched seeds vs one run per seed)", bound, curves, task=args.task,
                           steps=args.steps, eval_every=eval_every, d=D, batch=BATCH,
                           dtype="float32", float64_check=checks, tiny_op_s=tiny,
                           dispatch=dispatch)


if __name__ == "__main__":
    main()
