"""The federated loop of spec §3 NB2: local-only, FedAvg, FedProx, FRPA and FRPA with topology
rectification, every client of every arm one model on a leading axis M = arms x clients, so one
batched step trains all of them. FRPA reading 1 aligns by the closed form of spec §1.3 on
arrival of the global model; reading 2 (EWC) trains against the global Fisher instead."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.graphp_fl import choices, gcn, sbm, topology

ARMS = ("local", "fedavg", "fedprox", "frpa", "frpa_topo")
FRPA_ARMS = ("frpa", "frpa_topo")


@dataclass(frozen=True)
class SeedResult:
    """One seed's measurements; axes (arm, client) follow ARMS and the client order."""

    acc: np.ndarray            # (A, K) personalised test accuracy after the last round
    forgetting: np.ndarray     # (A, K) mean over rounds >= 1 of acc(before) - acc(on arrival)
    curve: np.ndarray          # (R, A) mean personalised test accuracy after each round
    global_acc: np.ndarray     # (K,) FedAvg's last global model on each client's test nodes
    prec_obs: np.ndarray       # (K,) edge precision of the observed A
    prec_rect: np.ndarray      # (K,) edge precision of the last rectified A~
    noise: np.ndarray          # (K,) r_k
    swapped: np.ndarray        # (K,) bool


def accuracy(params: gcn.Params, a_hat: torch.Tensor, ax: torch.Tensor, y: torch.Tensor,
             nodes: torch.Tensor) -> torch.Tensor:
    """Per model (M,): the fraction of `nodes` (M, b) classified correctly."""
    with torch.no_grad():
        pred = gcn.forward(params, a_hat, ax).argmax(-1)
    return (torch.gather(pred, 1, nodes) == torch.gather(y, 1, nodes)).float().mean(1)


def local_train(params: gcn.Params, a_hat: torch.Tensor, ax: torch.Tensor, y: torch.Tensor,
                nodes: torch.Tensor, anchor: gcn.Params, penalty: gcn.Params, steps: int,
                lr: float) -> gcn.Params:
    """`steps` full-batch Adam steps (a fresh Adam each round) of the mean cross-entropy on
    `nodes` plus sum_i penalty_i (theta_i - anchor_i)^2 / 2, every model at once."""
    theta = [p.clone().requires_grad_() for p in params]
    opt = torch.optim.Adam(theta, lr=lr)
    labels = torch.gather(y, 1, nodes)
    for _ in range(steps):
        opt.zero_grad()
        logits = torch.gather(gcn.forward(tuple(theta), a_hat, ax), 1,
                              nodes[..., None].expand(-1, -1, y.max().item() + 1))
        ce = torch.nn.functional.cross_entropy(logits.transpose(1, 2), labels,
                                               reduction="none").mean(1)       # (M,)
        prox = sum((w * (t - a) ** 2).flatten(1).sum(1) for t, a, w in
                   zip(theta, anchor, penalty)) / 2
        (ce + prox).sum().backward()
        opt.step()
    return tuple(t.detach() for t in theta)


def server_mean(params: gcn.Params, n_arms: int, clients: int) -> gcn.Params:
    """Each arm's FedAvg mean over its clients, broadcast back to every client (M, ...)."""
    return tuple(p.view(n_arms, clients, *p.shape[1:]).mean(1, keepdim=True)
                 .expand(n_arms, clients, *p.shape[1:]).reshape(p.shape) for p in params)


def arm_mask(names: tuple[str, ...], clients: int, shape: int) -> torch.Tensor:
    """(M, 1, ..., 1) float mask, 1 on the models of the named arms."""
    on = torch.tensor([a in names for a in ARMS], dtype=torch.float32)
    return on.repeat_interleave(clients).view(-1, *[1] * shape)


def run_seed(cfg, seed: int) -> SeedResult:
    """One seed of the federated experiment under the Federated parameters `cfg`."""
    rng = np.random.default_rng([cfg.seed, seed])
    gen = torch.Generator().manual_seed(int(rng.integers(2 ** 31)))
    data = sbm.make_clients(rng, n_clients=cfg.n_clients, n_nodes=cfg.n_nodes,
                            n_comm=cfg.n_comm, p_in=cfg.p_in, p_out=cfg.p_out, dim=cfg.dim,
                            feature_skew=cfg.feature_skew, feature_noise=cfg.feature_noise,
                            swap_frac=cfg.swap_frac, noise_levels=cfg.noise_levels,
                            train_frac=cfg.train_frac)
    k, n_arms = cfg.n_clients, len(ARMS)

    def per_model(a: np.ndarray) -> torch.Tensor:
        return torch.as_tensor(a).repeat(n_arms, *[1] * (a.ndim - 1))        # (M, ...)
    adj, x, y = per_model(data.adj), per_model(data.x), per_model(data.y)
    train, test = per_model(data.train), per_model(data.test)
    a_hat = gcn.normalise(adj)
    ax = a_hat @ x
    topo = [ARMS.index("frpa_topo") * k + c for c in range(k)]
    scorer = topology.make_scorer(gen, k, cfg.dim, cfg.embed, cfg.tau, cfg.topo_lr)
    x_k, adj_k = torch.as_tensor(data.x), torch.as_tensor(data.adj)

    params = tuple(p[None].expand(n_arms * k, *p.shape).clone()
                   for p in gcn.init(gen, cfg.dim, cfg.hidden, cfg.n_comm))
    local = slice(ARMS.index("local") * k, (ARMS.index("local") + 1) * k)
    frpa = [ARMS.index(a) * k + c for a in FRPA_ARMS for c in range(k)]
    prox = [cfg.prox_mu * arm_mask(("fedprox",), k, p.dim() - 1).expand_as(p) for p in params]
    forget = torch.zeros(n_arms * k)
    curve = np.zeros((cfg.rounds, n_arms))
    rect = adj_k
    for rnd in range(cfg.rounds):
        if rnd % cfg.topo_every == 0:
            topology.train(scorer, x_k, adj_k, cfg.topo_steps, cfg.smooth)
            with torch.no_grad():
                rect = topology.rectify(topology.logits(scorer, x_k), adj_k, cfg.threshold,
                                        cfg.add_frac)
            a_hat[topo] = gcn.normalise(rect)
            ax[topo] = a_hat[topo] @ x_k
        penalty, anchor = prox, params
        if rnd > 0:
            glob = server_mean(params, n_arms, k)
            recv = tuple(g.clone() for g in glob)
            for r, p in zip(recv, params):
                r[local] = p[local]
            fisher = choices.fisher_scale(gcn.fisher(tuple(p[frpa] for p in params),
                                                       a_hat[frpa], ax[frpa], train[frpa],
                                                       y[frpa]))
            if cfg.frpa_variant == "interpolate":
                for r, p, g, f in zip(recv, params, glob, fisher):
                    r[frpa] = (f * p[frpa] + cfg.frpa_lambda * g[frpa]) / (f + cfg.frpa_lambda)
            else:
                f_glob = server_mean(fisher, len(FRPA_ARMS), k)
                penalty = [w.clone() for w in prox]
                for w, fg in zip(penalty, f_glob):
                    w[frpa] = cfg.frpa_lambda * fg
            forget += accuracy(params, a_hat, ax, y, test) - accuracy(recv, a_hat, ax, y, test)
            params, anchor = recv, glob
        params = local_train(params, a_hat, ax, y, train, anchor, penalty, cfg.local_epochs,
                             cfg.lr)
        curve[rnd] = accuracy(params, a_hat, ax, y, test).view(n_arms, k).mean(1).numpy()
    glob = server_mean(params, n_arms, k)
    fa = slice(ARMS.index("fedavg") * k, (ARMS.index("fedavg") + 1) * k)
    global_acc = accuracy(tuple(g[fa] for g in glob), a_hat[fa], ax[fa], y[fa], test[fa])
    return SeedResult(
        acc=accuracy(params, a_hat, ax, y, test).view(n_arms, k).numpy(),
        forgetting=(forget / max(cfg.rounds - 1, 1)).view(n_arms, k).numpy(),
        curve=curve, global_acc=global_acc.numpy(),
        prec_obs=sbm.edge_precision(data.adj, data.adj_true),
        prec_rect=sbm.edge_precision(rect.numpy(), data.adj_true),
        noise=data.noise, swapped=data.swapped)
