"""Spike census over a test set (notebook 01; spec D1, D2): per TTFS layer the neurons that fire
more than once, per pooling site the pooled spike trains counted two ways.

Route 1 counts the pooled tensor itself (its mass sum_t P, its active steps, its values). Route 2
never pools: it takes the first-spike times of each window's k^2 neurons and counts distinct
steps, fired neurons and the earliest time by sorting. D2 says what route 2 must give:

    avg:    k^2 mass = fired,        active steps = distinct steps
    max:    count = distinct steps   (held transmission: 1 if any fired)
    first:  count = 1 if any fired,  first pooled spike at the earliest window spike

Masses are compared in units of 1/k^2 for avg pooling (exact for k = 2; for other k within the
float32 rounding of at most T terms, 1e-4), counts for max and first pooling. Everything is
accumulated as integer histograms, chunk by chunk of images.
"""
from __future__ import annotations

from collections import Counter

import torch

from lib.spiking.counting import first_spike_time
from lib.ttfs_snn import pooling
from lib.ttfs_snn.models import TTFSNet, pool_sites

UNIT_TOL = 1e-4            # float32 sum of <= T multiples of 1/k^2, scaled back by k^2


def expected_counts(times: torch.Tensor, kind: str, T: int, transmission: str
                    ) -> dict[str, torch.Tensor]:
    """Route 2: what each pooled unit must carry (spike units, active steps, first step), from
    its window's first-spike times (..., k*k)."""
    distinct = pooling.distinct_steps(times, T)
    fired = pooling.fired_count(times, T)
    if kind == "avg":
        return {"units": fired, "active": distinct}
    if kind == "max" and transmission == "pulse":
        return {"units": distinct, "active": distinct}
    return {"units": (fired > 0).long(), "active": (fired > 0).long(),
            "first": times.min(dim=-1).values}


def measured_counts(train: torch.Tensor, kind: str, k: int) -> dict[str, torch.Tensor]:
    """Route 1: the pooled spike train (T, B, C, h, w) counted as it is."""
    mass = pooling.pooled_mass(train).double()
    return {"mass": mass, "units": mass * k ** 2 if kind == "avg" else mass,
            "active": pooling.active_steps(train), "first": first_spike_time(train),
            "off_grid": ((train != 0) & (train != 1)).sum(dim=0)}


def _add(hist: Counter, values: torch.Tensor) -> None:
    for v, c in pooling.histogram(values):
        hist[v] += c


def _site() -> dict:
    return {"measured_units": Counter(), "expected_units": Counter(),
            "measured_active": Counter(), "expected_active": Counter(),
            "mismatch_units": 0, "mismatch_active": 0, "mismatch_first": 0, "off_grid": 0,
            "above_one": 0, "max_mass": 0.0, "units": 0}


@torch.no_grad()
def census(model: TTFSNet, x: torch.Tensor, chunk: int = 64) -> dict:
    """Counts over the images x (T, B, 1, H, W): per layer its neurons, those that fired and
    those with more than one spike; per pool site the histograms of both routes, their
    mismatches, the units above mass 1, and (max, first) values other than 0 and 1."""
    T, k, kind, tr = x.shape[0], model.k, model.pool_kind, model.transmission
    L = len(model.layers)
    out = {"fired": [0] * L, "units": [0] * L, "multi": [0] * L, "max_spikes": [0] * L,
           "sites": {l: _site() for l in pool_sites(model)}}
    for i in range(0, x.shape[1], chunk):
        trace = model.run(x[:, i:i + chunk], record=True)
        for l, s in enumerate(trace.spikes):
            per_neuron = s.sum(dim=0)                               # spikes of each neuron
            out["fired"][l] += int((per_neuron > 0).sum())
            out["units"][l] += per_neuron.numel()
            out["multi"][l] += int((per_neuron > 1).sum())
            out["max_spikes"][l] = max(out["max_spikes"][l], int(per_neuron.max()))
        for l, site in out["sites"].items():
            spikes = trace.spikes[l - 1]                            # (T, B, C, H, W) pulses
            T_, B, C, H, W = spikes.shape
            pooled = trace.inputs[l].reshape(T_, B, C, H // k, W // k)   # the model's pooling
            got = measured_counts(pooling.spike_train(pooled, tr), kind, k)
            want = expected_counts(pooling.window_first_times(spikes, k), kind, T, tr)
            _add(site["measured_units"], got["units"].round())
            _add(site["expected_units"], want["units"])
            _add(site["measured_active"], got["active"])
            _add(site["expected_active"], want["active"])
            site["mismatch_units"] += int(((got["units"] - want["units"]).abs()
                                           > UNIT_TOL).sum())
            site["mismatch_active"] += int((got["active"] != want["active"]).sum())
            if "first" in want:
                site["mismatch_first"] += int((got["first"] != want["first"]).sum())
            if kind != "avg":
                site["off_grid"] += int(got["off_grid"].sum())
            site["above_one"] += int((got["mass"] > 1 + 1e-6).sum())
            site["max_mass"] = max(site["max_mass"], float(got["mass"].max()))
            site["units"] += got["mass"].numel()
    return out


def hist_text(hist: Counter) -> str:
    """A histogram as 'value: count' pairs in value order, e.g. '0: 812, 1: 97, 2: 3'."""
    return ", ".join(f"{v:g}: {hist[v]}" for v in sorted(hist))


def merged(hists: list[Counter]) -> Counter:
    out: Counter = Counter()
    for h in hists:
        out.update(h)
    return out


def find_window(times: torch.Tensor, T: int) -> tuple[int, ...]:
    """(b, c, i, j) of the first window whose k^2 neurons fire at the most distinct steps
    (times (B, C, h, w, k*k) from pooling.window_first_times)."""
    distinct = pooling.distinct_steps(times, T)
    flat = int(torch.argmax(distinct.flatten()))
    return tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), distinct.shape))
