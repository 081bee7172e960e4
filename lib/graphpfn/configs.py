"""The 40 structure-prior configs of the official code (bin/prior/configs/config_001..040.yaml,
spec §1.1) as the grid they form: 2 group families x 2 PA families x 10 sbm_divisor values. The
numbers live in params.yaml (schema `Prior`); this module only crosses them and scales them."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """One structure config, at scale 1 the official YAML's keys."""

    min_sbm_nodes: int
    max_sbm_nodes: int
    min_groups: int
    max_groups: int
    min_group_size: int
    max_group_size: int
    divisor: float
    min_first_level: int
    max_first_level: int
    min_ba_nodes: int
    max_ba_nodes: int
    max_ba_deg: int


def grid(sbm_nodes: list[int], first_level: list[int], group_families: list[list[int]],
         pa_families: list[list[int]], divisors: list[float]) -> list[Config]:
    """Every (group family, PA family, divisor) combination, in the official file order
    (divisor slowest, then group family, then PA family)."""
    return [Config(sbm_nodes[0], sbm_nodes[1], g[0], g[1], g[2], g[3], float(d),
                   first_level[0], first_level[1], p[0], p[1], p[2])
            for d in divisors for g in group_families for p in pa_families]


def scaled(cfg: Config, scale: float) -> Config:
    """Node counts, group sizes and PA node counts times `scale` (group counts, divisor and
    max_ba_deg kept; spec NB1 scale); sizes stay >= 1 and ranges stay ordered."""
    def s(v: int) -> int:
        return max(1, math.floor(v * scale))
    lo_size = s(cfg.min_group_size)
    return Config(s(cfg.min_sbm_nodes), s(cfg.max_sbm_nodes), cfg.min_groups, cfg.max_groups,
                  lo_size, max(lo_size, s(cfg.max_group_size)), cfg.divisor,
                  cfg.min_first_level, cfg.max_first_level,
                  math.floor(cfg.min_ba_nodes * scale), math.floor(cfg.max_ba_nodes * scale),
                  cfg.max_ba_deg)
