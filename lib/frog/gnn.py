"""The heterogeneous mean-aggregation GNN in three modes: fixed node role, fixed edge role, and
the learned role gate (spec §1.1 [RECON]). Replicas (seeds x tasks) run side by side: each
replica has its own database and its own weights, tensors carry a leading replica axis R, and the
graph indices are flattened with per-replica offsets so one index_add serves all replicas.

One layer, from the previous layer's states (so one layer is one hop):
- node path: h_tx <- relu(h_tx A_t + (h_u[tx] + h_i[tx]) B_t + b_t), m_u^node = mean_tx h_tx;
- edge path: m_u^edge = mean over (u, i, tx) of psi([h_i, e_tx]) (psi: linear + relu), e_tx the
  encoded row attributes (the edge features, fixed across layers);
- user update: h_u <- relu(h_u A_u + ((1 - p) m_u^node + p m_u^edge) B_u + b_u), items alike;
  p = 0 is the node mode, p = 1 the edge mode, p = sigmoid(a) the gated mode.
The fixed modes compute only their own path; with shared weights the gated forward at p = 0 or
1 equals them exactly (tests/frog/test_gnn.py).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.frog import choices, roles
from lib.frog.rdb import ITEM_FEATURES, TX_FEATURES, USER_FEATURES, Database

MODES = ("node", "edge", "gate")


@dataclass(frozen=True)
class Stacked:
    """R replicas' tables as tensors; index tensors are global (offset by replica)."""

    user_x: torch.Tensor      # (R, U, 2)
    item_x: torch.Tensor      # (R, I, 3)
    tx_x: torch.Tensor        # (R, T, 2) node role: tx rows in table order
    tx_user: torch.Tensor     # (R T,) into the flattened (R U) users
    tx_item: torch.Tensor     # (R T,) into the flattened (R I) items
    edge_x: torch.Tensor      # (R, T, 2) edge role: edge features in the edge list's order
    edge_user: torch.Tensor   # (R T,)
    edge_item: torch.Tensor   # (R T,)
    labels: torch.Tensor      # (R, U) 0/1
    test: torch.Tensor        # (R, U) bool

    @property
    def sizes(self) -> tuple[int, int, int, int]:
        r, u, _ = self.user_x.shape
        return r, u, self.item_x.shape[1], self.tx_x.shape[1]


def stack(dbs: list[Database], labels: list[np.ndarray], tests: list[np.ndarray],
          dtype: torch.dtype = torch.float32) -> Stacked:
    """Stack replicas of equal table sizes, building each one's edge-role graph."""
    if len({db.sizes for db in dbs}) != 1:
        raise ValueError("replicas must share their table sizes")
    n_users, n_items, _ = dbs[0].sizes
    graphs = [roles.edge_role_graph(db) for db in dbs]
    t = lambda arrays: torch.as_tensor(np.stack(arrays), dtype=dtype)        # noqa: E731
    flat = lambda arrays, n: torch.as_tensor(np.concatenate(                 # noqa: E731
        [a + r * n for r, a in enumerate(arrays)]))
    return Stacked(t([db.user_x for db in dbs]), t([db.item_x for db in dbs]),
                   t([db.tx_x for db in dbs]), flat([db.tx_user for db in dbs], n_users),
                   flat([db.tx_item for db in dbs], n_items), t([g.attr for g in graphs]),
                   flat([g.user for g in graphs], n_users), flat([g.item for g in graphs], n_items),
                   t(labels), torch.as_tensor(np.stack(tests)))


def _linear(gen: torch.Generator, r: int, n_in: int, n_out: int, dtype: torch.dtype):
    """nn.Linear's uniform(+-1/sqrt(n_in)) init, per replica: (R, in, out) and (R, 1, out)."""
    bound = n_in ** -0.5
    w = (torch.rand(r, n_in, n_out, generator=gen, dtype=dtype) * 2 - 1) * bound
    b = (torch.rand(r, 1, n_out, generator=gen, dtype=dtype) * 2 - 1) * bound
    return w, b


def init_weights(seeds: list[int], hidden: int, depth: int,
                 dtype: torch.dtype = torch.float32) -> dict[str, torch.Tensor]:
    """Every weight of every mode, replica r drawn from seed seeds[r] in a fixed order, so the
    three modes of one seed share the weights they have in common. The gate logit starts at 0
    (p = 0.5)."""
    names = [("enc_user", USER_FEATURES, hidden), ("enc_item", ITEM_FEATURES, hidden),
             ("enc_tx", TX_FEATURES, hidden), ("readout", hidden, 1), ("fd", 2 * hidden, hidden)]
    for layer in range(depth):
        names += [(f"{k}{layer}", hidden, hidden) for k in
                  ("tx_self", "tx_nb", "user_self", "user_nb", "item_self", "item_nb")]
        names += [(f"psi_{k}{layer}", 2 * hidden, hidden) for k in ("user", "item")]
    per_seed = []
    for seed in seeds:
        gen = torch.Generator().manual_seed(seed)
        per_seed.append({n: _linear(gen, 1, a, b, dtype) for n, a, b in names})
    weights = {}
    for n, _, _ in names:
        weights[n] = torch.cat([w[n][0] for w in per_seed])
        weights[n + "_b"] = torch.cat([w[n][1] for w in per_seed])
    weights["gate"] = torch.zeros(len(seeds), dtype=dtype)
    return weights


def lin(x: torch.Tensor, w: dict[str, torch.Tensor], name: str, bias: bool = True) -> torch.Tensor:
    """(R, n, in) @ (R, in, out) [+ (R, 1, out)]."""
    return torch.baddbmm(w[name + "_b"], x, w[name]) if bias else torch.bmm(x, w[name])


def gather(h: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """(R, n, H) states at global indices (R m,) -> (R, m, H) (index_select: its backward is one
    index_add)."""
    r, _, hid = h.shape
    return h.reshape(-1, hid).index_select(0, index).reshape(r, -1, hid)


def mean_to(values: torch.Tensor, index: torch.Tensor, n: int) -> torch.Tensor:
    """(R, m, H) messages to global indices -> (R, n, H) means."""
    r, _, hid = values.shape
    return roles.mean_aggregate(values.reshape(-1, hid), index, r * n).reshape(r, n, hid)


@dataclass
class Forward:
    """Logits of every user (R, U), and the node path's (h_u, h_i, h_tx) after each layer but
    the last (the tx states the users read; the last layer updates users only)."""

    logits: torch.Tensor
    states: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]


def gate_probability(w: dict[str, torch.Tensor], mode: str) -> torch.Tensor | None:
    """p (R, 1, 1) of the edge role in the gated mode; None in the fixed modes."""
    return torch.sigmoid(w["gate"])[:, None, None] if mode == "gate" else None


def mix(mode: str, p: torch.Tensor | None, node_msg: torch.Tensor | None,
        edge_msg: torch.Tensor | None) -> torch.Tensor:
    """The message a user or item receives: one path's in a fixed mode, (1 - p) m^node +
    p m^edge in the gated one."""
    if mode == "node":
        return node_msg
    if mode == "edge":
        return edge_msg
    return (1 - p) * node_msg + p * edge_msg


def forward(st: Stacked, w: dict[str, torch.Tensor], depth: int, mode: str,
            p: torch.Tensor | None = None) -> Forward:
    """Run `depth` layers in `mode`; `p` overrides the gated mode's sigmoid(a) (tests)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {MODES}")
    _, n_users, n_items, _ = st.sizes
    node, edge = mode in ("node", "gate"), mode in ("edge", "gate")
    p = gate_probability(w, mode) if p is None and mode == "gate" else p
    relu = torch.relu
    hu, hi = relu(lin(st.user_x, w, "enc_user")), relu(lin(st.item_x, w, "enc_item"))
    htx = relu(lin(st.tx_x, w, "enc_tx")) if node else None
    ex = relu(lin(st.edge_x, w, "enc_tx")) if edge else None
    states = []
    for layer in range(depth):
        last = layer == depth - 1      # the readout needs only h_u: skip what nothing reads
        # a linear map commutes with the gather: apply it on the U or I entity rows, then gather
        if node:
            mu_node = mean_to(htx, st.tx_user, n_users)
            if not last:
                mi_node = mean_to(htx, st.tx_item, n_items)
                htx = relu(lin(htx, w, f"tx_self{layer}")
                           + gather(lin(hu, w, f"tx_nb{layer}", bias=False), st.tx_user)
                           + gather(lin(hi, w, f"tx_nb{layer}", bias=False), st.tx_item))
        if edge:
            pu, pi = w[f"psi_user{layer}"], w[f"psi_item{layer}"]
            hid = hu.shape[-1]
            to_user = gather(torch.bmm(hi, pu[:, :hid]), st.edge_item) + torch.baddbmm(
                w[f"psi_user{layer}_b"], ex, pu[:, hid:])
            mu_edge = mean_to(relu(to_user), st.edge_user, n_users)
            if not last:
                to_item = gather(torch.bmm(hu, pi[:, :hid]), st.edge_user) + torch.baddbmm(
                    w[f"psi_item{layer}_b"], ex, pi[:, hid:])
                mi_edge = mean_to(relu(to_item), st.edge_item, n_items)
        mu = mix(mode, p, mu_node if node else None, mu_edge if edge else None)
        new_hu = relu(lin(hu, w, f"user_self{layer}") + lin(mu, w, f"user_nb{layer}", bias=False))
        if not last:
            mi = mix(mode, p, mi_node if node else None, mi_edge if edge else None)
            hi = relu(lin(hi, w, f"item_self{layer}") + lin(mi, w, f"item_nb{layer}", bias=False))
            if node:
                states.append((new_hu, hi, htx))
        hu = new_hu
    return Forward(lin(hu, w, "readout")[..., 0], states)


def fd_penalty(st: Stacked, w: dict[str, torch.Tensor], out: Forward) -> torch.Tensor:
    """(R,) the functional-dependency regulariser over the tx states the users read (layers 1 ..
    depth - 1; spec §1.1 [RECON], the formula in `choices.fd_residual`)."""
    read = out.states
    if not read:
        return out.logits.new_zeros(out.logits.shape[0])
    return torch.stack([choices.fd_residual(
        lin(torch.cat([gather(hu, st.tx_user), gather(hi, st.tx_item)], -1), w, "fd"), htx)
        for hu, hi, htx in read]).mean(0)
