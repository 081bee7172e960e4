"""The notebooks' runs (spec §3 NB1): replicas built from the params seed, one training call per
(mode, depth) over all replicas, and the exact probes of the hop-count mechanism."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import torch

from lib.companion import sweep
from lib.frog import gnn, rdb, roles, train
from lib.frog.gnn import Stacked

TASKS = tuple(rdb.TARGETS)           # ("direct", "copurchase")
HOPS = {"direct": {"node": 2, "edge": 1}, "copurchase": {"node": 4, "edge": 2}}   # spec §1.2


def database(cfg, s: int) -> tuple[rdb.Database, np.ndarray]:
    """Seed s's database and its test mask, drawn from (params seed, s)."""
    rng = np.random.default_rng([cfg.seed, s])
    db = rdb.make_database(cfg.n_users, cfg.n_items, cfg.n_tx, rng)
    return db, rdb.split_users(cfg.n_users, cfg.test_fraction, rng)


def weight_seed(cfg, s: int) -> int:
    """The torch seed of seed s's weights (the same in every mode: paired comparisons)."""
    return 10_000 * cfg.seed + s


def replicas(cfg) -> tuple[Stacked, pd.DataFrame]:
    """Every (seed, task) pair as one replica; the frame names each replica's seed and task."""
    dbs, labels, tests, rows = [], [], [], []
    for s in range(cfg.n_seeds):
        db, test = database(cfg, s)
        for task in TASKS:
            dbs.append(db)
            labels.append(rdb.binarise(rdb.TARGETS[task](db)))
            tests.append(test)
            rows.append({"seed": s, "task": task, "weight_seed": weight_seed(cfg, s)})
    return gnn.stack(dbs, labels, tests), pd.DataFrame(rows)


def run_grid(st: Stacked, reps: pd.DataFrame, runs: list[tuple[str, str, train.Setup]],
             cfg: sweep.SweepParams, notebook: str) -> tuple[pd.DataFrame, dict[str, train.Run]]:
    """Train each named (label, mode, setup) over all replicas, one sweep run each (the
    notebook's `executor`); one row per (label, replica)."""
    trained = sweep.run_params(train.train, [(st, reps.weight_seed.tolist(), mode, setup)
                                             for _, mode, setup in runs], cfg, notebook,
                               labels=[label for label, _, _ in runs])
    rows, out = [], {}
    for (label, mode, setup), run in zip(runs, trained):
        out[label] = run
        for r, rep in reps.iterrows():
            rows.append({"run": label, "mode": mode, "depth": setup.depth, "seed": rep.seed,
                         "task": rep.task, "test_accuracy": float(run.test_accuracy[r]),
                         "train_loss": float(run.train_loss[r]), "fd_r2": float(run.fd_r2[r]),
                         "tx_energy": float(run.tx_energy[r]),
                         "gate_final": float(run.gate[-1, r]) if run.gate is not None
                         else float("nan")})
    return pd.DataFrame(rows), out


def cobuyers(db: rdb.Database, user: int) -> set[int]:
    """Users other than `user` who bought one of its items (a join on the tables)."""
    items = set(db.tx_item[db.tx_user == user].tolist())
    return set(db.tx_user[np.isin(db.tx_item, list(items))].tolist()) - {user}


def hop_check(db: rdb.Database, probes: np.ndarray) -> dict[str, object]:
    """Hop distances from the probe users in both roles: to their own items, to their co-buyers,
    and whether the users within 4 (node) / 2 (edge) hops are exactly the co-buyers."""
    n_users = db.sizes[0]
    out: dict[str, object] = {}
    for role, reach in (("node", 4), ("edge", 2)):
        dist = roles.hop_distances(roles.adjacency(db, role), probes, reach)
        own, co, ball = [], [], True
        for row, u in enumerate(probes.tolist()):
            items = np.unique(db.tx_item[db.tx_user == u])
            own += dist[row, n_users + items].tolist()
            buyers = cobuyers(db, u)
            co += dist[row, sorted(buyers)].tolist()
            near = set(np.flatnonzero((dist[row, :n_users] > 0)).tolist())
            ball &= near == buyers
        out[role] = (min(own), max(own), min(co), max(co), ball)
    return out


def receptive_field(db: rdb.Database, mode: str, depth: int, hidden: int, seed: int,
                    probes: np.ndarray) -> list[set[int]]:
    """For each probe user, the users whose features its logit depends on at initialisation
    (nonzero autograd rows, float64): the K-layer receptive field, read off the model."""
    st = gnn.stack([db], [np.zeros(db.sizes[0])], [np.zeros(db.sizes[0], bool)], torch.float64)
    w = gnn.init_weights([seed], hidden, depth, torch.float64)
    fields = []
    for u in probes.tolist():
        x = st.user_x.clone().requires_grad_(True)
        logits = gnn.forward(dataclasses.replace(st, user_x=x), w, depth, mode).logits
        (grad,) = torch.autograd.grad(logits[0, u], x)
        fields.append(set(torch.nonzero(grad[0].abs().sum(-1) > 0).flatten().tolist()))
    return fields


def hop_ball(db: rdb.Database, role: str, depth: int, probes: np.ndarray) -> list[set[int]]:
    """For each probe user, the users within `depth` hops in the role's graph (itself included)."""
    dist = roles.hop_distances(roles.adjacency(db, role), probes, depth)[:, :db.sizes[0]]
    return [set(np.flatnonzero(row >= 0).tolist()) for row in dist]
