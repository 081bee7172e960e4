"""Profile of caffnet's two training notebooks: where notebook 02's piecewise fit (one learning
rate, every seed, as the default profile's kernel runs it) and notebook 03's four arms spend
their CPU time, at the default profile's sizes (and notebook 03 also at the spec's default,
1000 training inputs).

    python bench/profiles/caffnet_training.py [--epochs 150] [--ops-epochs 40] [--label TEXT]
        >> bench/profiles/caffnet_training.txt

Each run trains `--epochs` epochs under cProfile with a CPU-time clock (time.process_time: the
machine is shared, so wall time would bill other processes' work to ours), one thread. Its CPU
time is split into the phases of a training epoch: the ensemble's forward
(`EnsembleMLP.forward`), the method layers (HardNet's and CAffNet's projections), backward
(autograd's engine), Adam, and the rest (losses, logging). Then torch.profiler's operators by
self time for three of the runs, over `--ops-epochs` epochs (its clock is the wall clock, so
its shares are only shares: on a busy machine every operator waits alike). It calls only
`train.train_pwc` and `train.train_opt_arm` as the notebooks do, so the same file profiles an
older tree (run it with that tree first on PYTHONPATH); `--label` names the tree and the numerics
pins in the heading.
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from lib.caffnet import problems, train
from lib.companion import params

PHASES = {  # phase -> (file fragment, function) whose cumulative time it is
    "forward": ("caffnet/train.py", "forward"),
    "projections": ("caffnet/projection.py", ("caffine_project_fixed", "hardnet_project")),
    "backward": ("~", "<method 'run_backward' of 'torch._C._EngineBase' objects>"),
    "adam": ("torch/optim/adam.py", "step"),
}


def phases(stats: pstats.Stats) -> dict[str, float]:
    """CPU seconds per phase (cumulative time of its functions) and of the whole run."""
    out = dict.fromkeys(PHASES, 0.0)
    for (file, _, func), (_, _, _, cum, _) in stats.stats.items():
        for name, (frag, fns) in PHASES.items():
            if frag in file and func in ((fns,) if isinstance(fns, str) else fns):
                out[name] += cum
    out["total"] = stats.total_tt
    out["rest"] = out["total"] - sum(out[k] for k in PHASES)
    return out


def profiled(fn, setup, *args) -> dict[str, float]:
    """The phases of fn(setup, *args), after a two-epoch warm-up (torch's lazy imports and first
    allocations are not a training cost)."""
    fn(dataclasses.replace(setup, epochs=2), *args)
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    fn(setup, *args)
    prof.disable()
    return phases(pstats.Stats(prof))


def operators(name: str, fn, setup, *args) -> None:
    """torch.profiler's operators of fn(setup, *args) by self time (after the same warm-up)."""
    fn(dataclasses.replace(setup, epochs=2), *args)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn(setup, *args)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10,
                                      max_name_column_width=40)
    print(f"\n## operators by self time (wall-clock shares): {name}, {setup.epochs} epochs\n")
    print("\n".join(line for line in table.splitlines()
                    if not line.startswith("Self CPU time total")))


def report(name: str, epochs: int, p: dict[str, float]) -> None:
    shares = ", ".join(f"{k} {p[k] / p['total']:.0%}" for k in (*PHASES, "rest"))
    print(f"| {name} | {p['total'] / epochs * 1e3:.1f} | {shares} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--epochs", type=int, default=150)
    ap.add_argument("--ops-epochs", type=int, default=40)
    ap.add_argument("--label", default="this tree")
    args = ap.parse_args()
    torch.set_num_threads(1)
    print(f"# caffnet training, {args.label} (torch {torch.__version__}, one thread, "
          f"{args.epochs} epochs a run)\n")
    print("| run | CPU ms per epoch | phases |\n|---|---|---|")
    pw = params.resolve("caffnet/02_piecewise_fit", "default")
    rng = np.random.default_rng(pw.seed)
    setup = train.PwcSetup(pw.width, args.epochs, pw.lr, pw.seed, pw.log_every,
                           pw.penalty_weight, pw.penalty_reduction,
                           x_train=rng.uniform(-2, 2, pw.n_train),
                           x_grid=np.linspace(-2, 2, pw.n_grid), seeds=pw.seeds)
    report(f"02 pwc, one lr, {pw.seeds} seeds x 3 methods in one run", args.epochs,
           profiled(train.train_pwc, setup))
    report("02 pwc, one lr, one seed a run (as the old notebook's grid)", args.epochs,
           profiled(train.train_pwc, setup, (0,)))
    pwc_ops = dataclasses.replace(setup, epochs=args.ops_epochs)
    op = params.resolve("caffnet/03_optimisation_proxy", "default")
    inst = problems.make_instance(op.instance_seed)
    for n_train in (op.n_train, 1000):
        x = np.random.default_rng(op.seed).uniform(-1, 1, (n_train, 3))
        setup = train.OptSetup(op.width, args.epochs, op.lr, op.seed, op.log_every,
                               op.penalty_weight, op.penalty_reduction, inst=inst, x_train=x)
        for arm in train.OPT_ARMS:
            report(f"03 opt, arm {arm}, {n_train} inputs", args.epochs,
                   profiled(train.train_opt_arm, setup, arm))
    operators("02 pwc, one lr, one seed a run", train.train_pwc, pwc_ops, (0,))
    operators(f"02 pwc, one lr, {pw.seeds} seeds in one run", train.train_pwc, pwc_ops)
    operators("03 opt, arm caffnet, 1000 inputs", train.train_opt_arm,
              dataclasses.replace(setup, epochs=args.ops_epochs), "caffnet")


if __name__ == "__main__":
    main()
