"""Profile of notebook 01's training (spike_htr/01_synthetic_lines_ctc): where a training step of
the ANN and of the SNN (T = 2, static stream) spends its CPU time, at the default profile's sizes.

    python bench/profiles/spike_htr_01_synthetic_lines_ctc.py [--steps 12] [--label TEXT]
        >> bench/profiles/spike_htr_01_synthetic_lines_ctc.txt

Per model: the CPU seconds of one step (time.process_time, one thread: the machine is shared, so
wall time would bill other processes' work to ours; the minimum and median of four blocks of
`--steps` steps), the phases of a step (forward, backward, Adam) and of one evaluation of the
held-out lines, then torch.profiler's operators by self time over `--steps` further steps. The
profiler's clock is the wall clock, so its shares are only shares (on a busy machine every
operator waits alike). It imports only what the notebook's training uses (`train.build`,
`train.batch_loss`, `train.evaluate`), so the same file profiles an older tree (run it with that
tree first on PYTHONPATH); `--label` names the tree and the numerics pins in the heading.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from lib.companion import params
from lib.spike_htr import data, train
from lib.spike_htr.model import Arch


def job(cfg, spiking: bool) -> train.Job:
    """The notebook's ANN (CTC alone) or SNN job at the profile's sizes."""
    arch = Arch(channels=tuple(cfg.channels), d=cfg.d, blocks=cfg.blocks, width=128,
                spiking=spiking, T=cfg.T, tau=cfg.tau, v_th=cfg.v_th, alpha=cfg.alpha,
                attn_div=cfg.attn_div)
    return train.Job("snn" if spiking else "ann", arch, stream=cfg.stream, batch=cfg.batch,
                     lr=cfg.lr, aux_weight=cfg.plain_aux_weight, n_train=cfg.n_train)


def profile_model(cfg, spiking: bool, steps: int) -> None:
    spec = job(cfg, spiking)
    lines = data.load("train", spec.n_train)
    held = data.load("test_same", cfg.n_eval)
    net = train.build(spec)
    opt = torch.optim.Adam(net.parameters(), lr=spec.lr)
    rng = np.random.default_rng(0)
    phase = dict.fromkeys(("forward", "backward", "adam"), 0.0)

    def step() -> None:
        part = lines.take(rng.integers(0, spec.n_train, spec.batch))
        t0 = time.process_time()
        loss = train.batch_loss(net, part.images, part.texts, spec.stream, spec.aux_weight)
        t1 = time.process_time()
        opt.zero_grad()
        loss.backward()
        t2 = time.process_time()
        opt.step()
        t3 = time.process_time()
        for name, dt in zip(phase, (t1 - t0, t2 - t1, t3 - t2)):
            phase[name] += dt

    step()
    phase.update(dict.fromkeys(phase, 0.0))
    blocks = []
    for _ in range(4):
        t = time.process_time()
        for _ in range(steps):
            step()
        blocks.append((time.process_time() - t) / steps)
    t = time.process_time()
    train.evaluate(net, held, spec.stream)
    evaluation = time.process_time() - t
    name = f"{spec.name.upper()} ({'LIF, T = ' + str(cfg.T) if spiking else 'ReLU'})"
    print(f"## {name}: batch {spec.batch}, channels {cfg.channels}, d {cfg.d}, "
          f"{cfg.blocks} blocks\n")
    print(f"CPU per training step: min {min(blocks) * 1e3:.1f} ms, median "
          f"{statistics.median(blocks) * 1e3:.1f} ms (4 blocks of {steps} steps)")
    total = sum(phase.values())
    print("phases of a step: " + ", ".join(f"{k} {v / total:.0%}" for k, v in phase.items()))
    print(f"one evaluation ({cfg.n_eval} held-out lines, eval mode): {evaluation * 1e3:.0f} ms\n")
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=14,
                                      max_name_column_width=40)
    print("operators by self time (wall-clock shares):\n")
    print("\n".join(line for line in table.splitlines()
                    if not line.startswith("Self CPU time total")) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--label", default="this tree")
    args = ap.parse_args()
    torch.set_num_threads(1)
    cfg = params.resolve("spike_htr/01_synthetic_lines_ctc", "default")
    print(f"# spike_htr/01_synthetic_lines_ctc, {args.label}: a training step, profiled (torch "
          f"{torch.__version__}, one thread)\n")
    for spiking in (False, True):
        profile_model(cfg, spiking, args.steps)


if __name__ == "__main__":
    main()
