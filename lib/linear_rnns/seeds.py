"""The seeds of one (task, family) trained as one batched model (spec §6.4, §7.3; issue 15).

The S seeds' parameters are stacked on a leading seed axis and the model runs once per step
through `torch.func.vmap(functional_call)`: each seed sees its own batch (padded to the longest
of the S; every model is causal, so padding past a sequence changes none of its positions) and
gets its own loss. Backward on the sum of the per-seed losses gives each seed's own gradient in
its slice. The update repeats `torch.optim.AdamW` and `clip_grad_norm_` of `train.train_run`
seed by seed: AdamW is elementwise, the clipping norm of seed s is computed from slice s only,
and a seed that has stopped early (or drew a non-finite loss) keeps its parameters and optimiser
state by masking. Validation, model selection and checkpoints follow `train.train_run`, so the
batched run equals S separate runs (bench/linear_rnns_batched_seeds.py measures both and checks
the per-seed losses agree to 1e-6 in float64). Every family is written in plain tensor ops, so
every family batches (no fallback to one run per seed is needed).
"""
from __future__ import annotations

import hashlib
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch.func import functional_call, vmap
from tqdm.auto import tqdm

from lib.linear_rnns import models, tasks, train

BETAS, EPS, CLIP_EPS = (0.9, 0.999), 1e-8, 1e-6      # torch.optim.AdamW / clip_grad_norm_ defaults


def group_key(rcs: list[train.RunConfig]) -> str:
    """Checkpoint name of a seed group: its runs' keys (settings and code) in order."""
    blob = "".join(rc.key() for rc in rcs)
    rc = rcs[0]
    return f"{rc.task}-{rc.family}-x{len(rcs)}-{hashlib.sha1(blob.encode()).hexdigest()[:10]}"


def _check_group(rcs: list[train.RunConfig]) -> None:
    """The runs of a group differ in their seed only."""
    if not rcs:
        raise ValueError("a seed group needs at least one run")
    ref = {k: v for k, v in asdict(rcs[0]).items() if k != "seed"}
    for rc in rcs[1:]:
        other = {k: v for k, v in asdict(rc).items() if k != "seed"}
        if other != ref:
            raise ValueError(f"runs {rcs[0].key()} and {rc.key()} differ beyond the seed: "
                             "only seeds can share a batched model")


def _pad_stack(splits: list[tasks.Split], device, dtype) -> tuple[torch.Tensor, ...]:
    """Per-seed batches -> (S, B, T[, F]) x, (S, B, T) y and mask, padded to the longest T."""
    T = max(s.x.shape[1] for s in splits)

    def pad(a: np.ndarray) -> np.ndarray:
        return np.pad(a, [(0, 0), (0, T - a.shape[1])] + [(0, 0)] * (a.ndim - 2))

    x = torch.as_tensor(np.stack([pad(s.x) for s in splits]), device=device)
    x = x.to(dtype) if x.is_floating_point() else x
    y = torch.as_tensor(np.stack([pad(s.y) for s in splits]), device=device)
    mask = torch.as_tensor(np.stack([pad(s.mask) for s in splits]), device=device)
    return x, y, mask


def seed_losses(base: models.SeqModel, params: dict[str, torch.Tensor], x: torch.Tensor,
                y: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """(S,) masked mean cross-entropy of each seed on its own batch (train.loss_fn, batched)."""
    logits = vmap(lambda p, xs: functional_call(base, p, (xs,)))(params, x)   # (S, B, T, C)
    ce = F.cross_entropy(logits.flatten(0, 2), y.flatten(), reduction="none").view(y.shape)
    m = mask.to(ce.dtype)
    return (ce * m).sum((1, 2)) / m.sum((1, 2))


@dataclass(frozen=True)
class Layout:
    """Where each parameter sits in a flat (S, P) buffer: its name and shape, in order."""

    names: tuple[str, ...]
    shapes: tuple[tuple[int, ...], ...]

    def views(self, flat: torch.Tensor) -> dict[str, torch.Tensor]:
        """The named (A, *shape) parameters of a flat (A, P) buffer, as views (one split)."""
        parts = flat.split([math.prod(shape) for shape in self.shapes], 1)
        return {k: z.view(len(flat), *shape) for k, z, shape in zip(self.names, parts, self.shapes)}


def _flatten(plain: list[models.SeqModel]) -> tuple[Layout, torch.Tensor]:
    """The S models' parameters as one (S, P) leaf: a step's update is then a handful of ops
    on one tensor instead of a dozen per parameter tensor (~20 of them)."""
    named = dict(plain[0].named_parameters())
    layout = Layout(tuple(named), tuple(tuple(p.shape) for p in named.values()))
    flat = torch.stack([torch.cat([p.detach().flatten() for p in m.parameters()]) for m in plain])
    return layout, flat.requires_grad_()


def _clip_and_step(flat: torch.Tensor, opt: dict, update: torch.Tensor,
                   rc: train.RunConfig) -> None:
    """Per-seed gradient clipping (each seed's norm from its own row) and AdamW, applied only
    where `update` (S,) is True: torch's formulas on the rows of the (S, P) buffer. The clipping
    norm is the norm of the row, which `clip_grad_norm_` computes as the norm of the
    per-parameter norms (equal up to rounding). Every parameter of every family receives a
    gradient (tests), so none is one that torch's AdamW would skip."""
    g = flat.grad
    if rc.clip > 0:                                                 # clip 0: no clipping
        g = g * torch.clamp(rc.clip / (torch.linalg.vector_norm(g, dim=1, keepdim=True) + CLIP_EPS),
                            max=1.0)
    opt["step"] += update.to(opt["step"].dtype)
    b1, b2 = BETAS
    on, step = update[:, None], opt["step"][:, None]
    m = opt["m"].lerp(g, 1 - b1)
    v = opt["v"] * b2 + (1 - b2) * g * g
    denom = v.sqrt() / (1 - b2 ** step).sqrt() + EPS
    new = flat * (1 - rc.lr * rc.weight_decay) - (rc.lr / (1 - b1 ** step)) * m / denom
    flat.copy_(torch.where(on, new, flat))
    opt["m"], opt["v"] = torch.where(on, m, opt["m"]), torch.where(on, v, opt["v"])


def _unstack(layout: Layout, flat: torch.Tensor, i: int, into: models.SeqModel) -> models.SeqModel:
    """Seed i's row loaded into a plain model (for validation, selection and evaluation)."""
    row = layout.views(flat[i:i + 1].detach())
    into.load_state_dict({k: v[0] for k, v in row.items()} | dict(into.named_buffers()))
    return into


def train_seeds(rcs: list[train.RunConfig], ckpt_dir: Path | None, device: str = "cpu",
                progress: bool = True) -> tuple[list[models.SeqModel], list[dict]]:
    """Train (or resume, or reload) the seeds of one group together; returns one model and one
    record per seed, as `train.train_run` would for each."""
    _check_group(rcs)
    rc, S, dev = rcs[0], len(rcs), train.resolve_device(device)
    if rc.select not in ("best", "last"):
        raise ValueError(f"select = {rc.select!r}: allowed are 'best' and 'last'")
    plain = [train.build_model(r).to(dev) for r in rcs]
    dtype = next(plain[0].parameters()).dtype
    base = plain[0]
    layout, flat = _flatten(plain)                                        # (S, P)
    opt = dict(step=torch.zeros(S, dtype=dtype, device=dev), m=torch.zeros_like(flat),
               v=torch.zeros_like(flat))
    rngs = [np.random.default_rng([r.seed, 1]) for r in rcs]
    vals = [tasks.sample(r.task, r.val_n, *r.train_bin, np.random.default_rng([r.seed, 2]),
                         **r.task_kw) for r in rcs]
    sts = [dict(step=0, streak=0, done=False, history=[], seconds=0.0, best_acc=-1.0, best_step=0)
           for _ in rcs]
    bests = [train._copy_state(m) for m in plain]
    path = None if ckpt_dir is None else Path(ckpt_dir) / f"{group_key(rcs)}.pt"
    if path is not None and path.exists():
        ck = torch.load(path, map_location=dev, weights_only=False)
        with torch.no_grad():
            flat.copy_(ck["params"])
        opt, sts, bests = ck["opt"], ck["states"], ck["bests"]
        for g, state in zip(rngs, ck["rngs"]):
            g.bit_generator.state = state
    bar = tqdm(total=rc.steps, initial=sts[0]["step"],
               disable=not progress or all(s["done"] for s in sts),
               desc=f"{rc.task}/{rc.family}/x{S}", leave=False)
    t0, elapsed = time.perf_counter(), max(s["seconds"] for s in sts)
    while not all(s["done"] for s in sts):
        idx = [i for i, s in enumerate(sts) if not s["done"]]            # active seeds
        batches = [train._trim(tasks.sample(rc.task, rc.batch, *rc.train_bin, rngs[i],
                                            **rc.task_kw)) for i in idx]
        x, y, mask = _pad_stack(batches, dev, dtype)
        sel = torch.as_tensor(idx, device=dev)
        flat.grad = None
        active = flat if len(idx) == S else flat[sel]                     # every seed: no copy
        losses = seed_losses(base, layout.views(active), x, y, mask)     # (A,)
        finite = torch.isfinite(losses.detach())
        if finite.any():
            losses[finite].sum().backward()
        update = torch.zeros(S, dtype=torch.bool, device=dev)
        update[sel[finite]] = True
        with torch.no_grad():
            if finite.any():
                _clip_and_step(flat, opt, update, rc)
        over_time = (rc.max_seconds is not None
                     and elapsed + time.perf_counter() - t0 >= rc.max_seconds)
        for j, i in enumerate(idx):
            st = sts[i]
            if not finite[j]:                                          # no update this step
                st["skipped"] = st.get("skipped", 0) + 1
            st["step"] += 1
        bar.update(1)
        step = sts[idx[0]]["step"]                                     # active seeds step together
        if step % rc.eval_every == 0 or step >= rc.steps or over_time:
            for j, i in enumerate(idx):
                st, model = sts[i], _unstack(layout, flat, i, plain[i])
                acc = train.accuracy(model, vals[i], dev)
                st["history"].append((st["step"], float(losses[j].detach()), acc))
                st["streak"] = st["streak"] + 1 if acc == 1.0 else 0
                if acc >= st["best_acc"]:
                    st["best_acc"], st["best_step"] = acc, st["step"]
                    bests[i] = train._copy_state(model)
                st["done"] = st["streak"] >= rc.patience or st["step"] >= rc.steps or over_time
            elapsed += time.perf_counter() - t0
            t0 = time.perf_counter()
            for i in idx:
                sts[i]["seconds"] = elapsed
            bar.set_postfix(val_acc=" ".join(f"{sts[i]['history'][-1][2]:.2f}" for i in idx))
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                train._save(path, dict(params=flat.detach(), opt=opt,
                                       states=sts, bests=bests,
                                       rngs=[g.bit_generator.state for g in rngs],
                                       configs=[asdict(r) for r in rcs]))
    bar.close()
    out = [_unstack(layout, flat, i, plain[i]) for i in range(S)]
    if rc.select == "best":
        for m, b in zip(out, bests):
            m.load_state_dict(b)
    return out, sts


def train_and_evaluate_seeds(rcs: list[train.RunConfig], splits: list[tasks.Split],
                             bins: list[list[int]], ckpt_dir: Path | None, device: str = "cpu",
                             progress: bool = False) -> list[dict]:
    """One sweep job: a seed group trained together (single-threaded on CPU, so results do not
    depend on the core count) and each seed evaluated on the task's test bins: one row per
    (seed, bin); `train_seconds` is the group's (shared) training time."""
    trained, sts = train_seeds(rcs, ckpt_dir, device, progress)
    res = [train.evaluate(m, splits, bins, device) for m in trained]
    return [dict(task=rc.task, family=rc.family, seed=rc.seed, steps=st["step"],
                 early_stop=st["streak"] >= rc.patience, train_seconds=st["seconds"],
                 batched_seeds=len(rcs), skipped_steps=st.get("skipped", 0),
                 best_step=st["best_step"],
                 val_acc=st["best_acc"] if rc.select == "best" else st["history"][-1][2], **r)
            for rc, st, rs in zip(rcs, sts, res) for r in rs]
