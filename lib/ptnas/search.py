"""Anytime search on the cached bench (spec §1.5, §3 NB3): random search, regularised evolution,
successive halving (SH) and pTNAS's filter-and-refine with its budget coordinator.

Nothing trains here: a searcher reads the bench's validation metric at the epoch it has paid
for. Cost model (spec §3 NB3, a decision): one training epoch of any net is one time unit, one
proxy evaluation `t_proxy` units; SH reuses checkpoints, so rung r costs |C_r| (e_r − e_{r−1}).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lib.ptnas.space import Arch, mutate


def sh_sizes(k: int, n_rungs: int, eta: int) -> list[int]:
    """Candidates alive at each rung of SH from k (⌊|C|/η⌋ kept, at least 1; stop at one)."""
    sizes, c = [], k
    while c > 1 and len(sizes) < n_rungs:
        sizes.append(c)
        c = max(1, c // eta) if len(sizes) < n_rungs else 1
    return sizes


def sh_cost(k: int, epochs: Sequence[int], eta: int) -> int:
    """Training epochs SH spends on k candidates with checkpoint reuse (0 for k = 1)."""
    steps = np.diff([0, *epochs])
    return int(sum(n * s for n, s in zip(sh_sizes(k, len(epochs), eta), steps)))


def successive_halving(cands: Sequence[int], val: np.ndarray, epochs: Sequence[int],
                       eta: int) -> tuple[int, int]:
    """(winner, cost) of SH over `cands` on the table val (archs, rungs) recorded at `epochs`:
    each rung trains the alive nets on to its epoch (cost |C| (e_r − e_{r−1})), ranks them by
    the metric there (ties: earlier candidate first) and keeps ⌊|C|/η⌋, at least 1; the last
    rung keeps the best one. One candidate is returned untrained."""
    alive, cost, done = list(cands), 0, 0
    for r, epoch in enumerate(epochs):
        if len(alive) == 1:
            break
        cost += len(alive) * (epoch - done)
        done = epoch
        keep = 1 if r == len(epochs) - 1 else max(1, len(alive) // eta)
        order = sorted(range(len(alive)), key=lambda i: (-val[alive[i], r], i))
        alive = [alive[i] for i in order[:keep]]
    return alive[0], cost


@dataclass(frozen=True)
class Plan:
    """What the coordinator runs for one K: M proxy evaluations, then SH on the top K."""

    k: int
    m: int
    cost: float


def plans(k_grid: Sequence[int], n_space: int, ratio: int, t_proxy: float,
          epochs: Sequence[int], eta: int) -> list[Plan]:
    """The cost of each K of the grid (K capped at |space|): M = min(ratio·K, |space|) proxies
    plus SH's workload."""
    ks = sorted({min(k, n_space) for k in k_grid})
    return [Plan(k, min(ratio * k, n_space), min(ratio * k, n_space) * t_proxy
                 + sh_cost(k, epochs, eta)) for k in ks]


def coordinator(budget: float, options: Sequence[Plan]) -> Plan | None:
    """The plan with the largest K whose cost fits the budget (None when none fits)."""
    fitting = [p for p in options if p.cost <= budget]
    return max(fitting, key=lambda p: p.k) if fitting else None


def filter_refine(order: np.ndarray, score: np.ndarray | None, plan: Plan, val: np.ndarray,
                  epochs: Sequence[int], eta: int) -> int:
    """The winner of one plan: the first M archs of a random `order`, the top K of them by
    `score` (None: no filter, the first K), then SH."""
    pool = order[:plan.m] if score is not None else order[:plan.k]
    if score is not None:
        pool = pool[np.argsort(-score[pool], kind="stable")[:plan.k]]
    return successive_halving([int(i) for i in pool], val, epochs, eta)[0]


def random_search_trace(order: np.ndarray, final: np.ndarray, full_cost: int
                        ) -> tuple[np.ndarray, np.ndarray]:
    """(costs, incumbent) of random search: nets trained fully in `order`, best so far."""
    costs = full_cost * np.arange(1, len(order) + 1)
    return costs, np.maximum.accumulate(final[order])


def evolution_trace(archs: Sequence[Arch], final: np.ndarray, rng: np.random.Generator,
                    widths: Sequence[int], depth_min: int, depth_max: int, full_cost: int,
                    max_cost: float, population: int = 10, tournament: int = 5,
                    max_steps: int = 5000) -> tuple[np.ndarray, np.ndarray]:
    """(costs, incumbent) of regularised evolution: a random population, then children of the
    best of a random tournament by one mutation; a new net costs `full_cost`, a repeat is read
    from the cache for free; the oldest member dies."""
    index = {a: i for i, a in enumerate(archs)}
    seen: set[int] = set()
    costs, best, spent, inc = [], [], 0.0, -np.inf
    pop = [int(i) for i in rng.choice(len(archs), size=min(population, len(archs)),
                                      replace=False)]

    def visit(i: int) -> None:
        nonlocal spent, inc
        if i not in seen:
            seen.add(i)
            spent += full_cost
            inc = max(inc, final[i])
            costs.append(spent)
            best.append(inc)
    for i in pop:
        visit(i)
    for _ in range(max_steps):
        if spent >= max_cost or len(seen) == len(archs):
            break
        contenders = rng.choice(len(pop), size=min(tournament, len(pop)), replace=False)
        parent = pop[max(contenders, key=lambda j: final[pop[j]])]
        child = index[mutate(archs[parent], rng, widths, depth_min, depth_max)]
        visit(child)
        pop = pop[1:] + [child]
    return np.array(costs), np.array(best)


def incumbent_at(costs: np.ndarray, incumbent: np.ndarray, budgets: Sequence[float],
                 empty: float) -> np.ndarray:
    """The incumbent of a trace at each budget (`empty` before the first result)."""
    k = np.searchsorted(costs, np.asarray(budgets, dtype=float), side="right")
    return np.where(k > 0, incumbent[np.maximum(k - 1, 0)], empty)


def first_reach(costs: np.ndarray, incumbent: np.ndarray, target: float) -> float:
    """The first cost at which the incumbent reaches `target` (inf if never)."""
    hit = np.flatnonzero(incumbent >= target)
    return float(costs[hit[0]]) if hit.size else float("inf")
