"""Training the recognizers with CTC (spec §1.2, §3, §6): Adam, random mini-batches, the
auxiliary head's CTC term, the held-out CER every few steps, and optional top-r reduction in
training. Chains of jobs are independent (each job seeds its own generators), so the sweep engine
runs them as separate runs (one torch thread each) and they give the same weights on any executor.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from lib.companion import sweep
from lib.spike_htr import coder, ctc, data, reducer
from lib.spike_htr.model import Arch, Recognizer


@dataclass(frozen=True)
class Job:
    """One training run. `resume` names an earlier job of the same chain and the step whose
    snapshot (weights and optimiser) this one starts from; `reduce_r` < 1 trains the mixer on
    the top-r positions of the auxiliary head's blank scores."""

    name: str
    arch: Arch
    stream: str = "static"
    steps: int = 800
    batch: int = 32
    lr: float = 1e-3
    aux_weight: float = 0.5
    seed: int = 0
    n_train: int = 4000
    eval_every: int = 100
    n_eval: int = 100
    fonts: tuple[str, ...] | None = None
    snapshot_at: int | None = None
    resume: tuple[str, int] | None = None
    reduce_r: float = 1.0


@dataclass
class Result:
    """A finished job: its final weights, the snapshot it was asked for, its history rows."""

    name: str
    state: dict
    snapshot: dict | None
    history: list[dict]


def build(job: Job) -> Recognizer:
    """The job's network, initialised from its seed."""
    torch.manual_seed(job.seed)
    return Recognizer(job.arch)


def batch_loss(net: Recognizer, images: torch.Tensor, texts: list[str], stream: str,
               aux_weight: float, reduce_r: float = 1.0) -> torch.Tensor:
    """CTC(main) + aux_weight CTC(aux) on one batch; with reduce_r < 1 the mixer sees only the
    top-r positions of the aux head's blank probability (infeasible lines count 0)."""
    y, n = data.targets(texts)
    z = net.encode(coder.input_stream(images, net.steps(), stream))
    aux = net.readout(net.aux_head, z)
    if reduce_r < 1.0:
        keep = reducer.select_topr(aux.detach()[..., 0].exp().T, reduce_r)
        z = reducer.gather(z, keep.repeat(net.steps(), 1))
    main = net.readout(net.head, net.mix(z))
    loss = ctc.loss(main, y, n, zero_infinity=reduce_r < 1.0)
    if aux_weight == 0.0:              # CTC alone (spec NB01): the aux head gets no gradient
        return loss
    return loss + aux_weight * ctc.loss(aux, y, n)


@torch.no_grad()
def evaluate(net: Recognizer, lines: data.Lines, stream: str, chunk: int = 100) -> dict:
    """CER of the main and the auxiliary head on lines (greedy decoding), in eval mode."""
    was = net.training
    net.eval()
    main, aux = [], []
    for start in range(0, len(lines), chunk):
        part = lines.images[start:start + chunk]
        m, a = net(coder.input_stream(part, net.steps(), stream))
        main += ctc.greedy_decode(m)
        aux += ctc.greedy_decode(a)
    net.train(was)
    truth = [data.alphabet.encode(t) for t in lines.texts]
    return {"cer": ctc.cer(main, truth), "cer_aux": ctc.cer(aux, truth)}


def run(job: Job, start: dict | None = None) -> Result:
    """Train one job (from `start`, a snapshot, when it resumes one)."""
    train = data.load("train", job.n_train, fonts=job.fonts)
    held = data.load("test_same", job.n_eval)
    net = build(job)
    opt = torch.optim.Adam(net.parameters(), lr=job.lr)
    rng = np.random.default_rng([job.seed, 1])
    first = 0
    if start is not None:
        net.load_state_dict(start["model"])
        opt.load_state_dict(start["optim"])
        rng.bit_generator.state = start["rng"]
        first = start["step"]
    history, snapshot, order = [], None, np.empty(0, dtype=np.int64)
    for step in range(first, job.steps):
        if len(order) < job.batch:
            order = np.concatenate([order, rng.permutation(job.n_train)])
        rows, order = order[:job.batch], order[job.batch:]
        part = train.take(rows)
        loss = batch_loss(net, part.images, part.texts, job.stream, job.aux_weight,
                          job.reduce_r)
        opt.zero_grad()
        loss.backward()
        opt.step()
        row = {"job": job.name, "step": step + 1, "loss": float(loss.detach())}
        if (step + 1) % job.eval_every == 0 or step + 1 == job.steps:
            row |= evaluate(net, held, job.stream)
        history.append(row)
        if job.snapshot_at == step + 1:
            snapshot = {"model": _copy(net.state_dict()), "optim": _copy(opt.state_dict()),
                        "rng": rng.bit_generator.state, "step": step + 1}
    return Result(job.name, _copy(net.state_dict()), snapshot, history)


def _copy(state):
    """A deep copy of a state dict (tensors cloned), safe to keep past further steps."""
    if isinstance(state, torch.Tensor):
        return state.detach().clone()
    if isinstance(state, dict):
        return {k: _copy(v) for k, v in state.items()}
    if isinstance(state, list):
        return [_copy(v) for v in state]
    return state


def run_chain(chain: list[Job]) -> list[Result]:
    """Jobs one after another; a job that resumes starts from the snapshot an earlier one of
    the chain took at that step."""
    results: dict[str, Result] = {}
    for job in chain:
        start = None
        if job.resume is not None:
            source, step = job.resume
            if source not in results or results[source].snapshot is None \
                    or results[source].snapshot["step"] != step:
                raise ValueError(f"job {job.name} resumes {source} at step {step}: no earlier "
                                 "job of its chain took that snapshot")
            start = results[source].snapshot
        results[job.name] = run(job, start)
    return list(results.values())


def run_all(chains: list[list[Job]], cfg: sweep.SweepParams, notebook: str) -> dict[str, Result]:
    """Every chain as one sweep run on the notebook's `executor` (`workers` at once): the results
    by job name; they do not depend on the executor."""
    out = sweep.run_params(run_chain, [(chain,) for chain in chains], cfg, notebook,
                           labels=[" > ".join(job.name for job in chain) for chain in chains])
    return {r.name: r for results in out for r in results}


def save(path: Path, job: Job, state: dict) -> None:
    """A checkpoint: the job (its architecture included) and the weights."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"job": asdict(job), "state": state}, path)


def load(path: Path) -> tuple[Recognizer, Job]:
    """The network of a checkpoint, in eval mode, and the job that trained it."""
    saved = torch.load(path, weights_only=True)
    spec = dict(saved["job"])
    arch = spec.pop("arch")
    arch = Arch(**{**arch, "channels": tuple(arch["channels"])})
    for key in ("fonts", "resume"):
        spec[key] = None if spec[key] is None else tuple(spec[key])
    job = Job(arch=arch, **spec)
    net = Recognizer(arch)
    net.load_state_dict(saved["state"])
    return net.eval(), job
