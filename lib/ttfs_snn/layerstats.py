"""Signal and gradient per layer at initialisation (notebook 02; spec §1.5, D3, D4).

For every weight layer l on a batch: the fraction of its inputs that fired (p_{l-1}), the
fraction of its neurons that fired (p_l), the fraction whose final potential reaches theta, the
neurons that reach theta at T-1 without having fired (D3 says none can), a sample of V[T-1], and
the norm of dL/dW_hat on the batch with a flag for exact zeros and for a silent input (D4: a
layer whose input never fires gets the gradient 0.0).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from lib.ttfs_snn import decode
from lib.ttfs_snn.models import TTFSNet


@torch.no_grad()
def signal(model: TTFSNet, x: torch.Tensor, sample: int = 2000) -> list[dict]:
    """Per layer: fan_in, units, input_fraction, fired (and fired_count), above (V[T-1] >=
    theta), violations (above but never fired), a sample of the potentials V[T-1]."""
    trace = model.run(x, record=True)
    rows = []
    for l, (layer, inp, s, V) in enumerate(zip(model.layers, trace.inputs, trace.spikes,
                                               trace.potentials)):
        fired = s.sum(dim=0) > 0
        above = V[-1] >= model.theta
        rows.append({"layer": l + 1, "fan_in": layer.fan_in, "units": V[-1][0].numel(),
                     "input_fraction": float((inp.sum(dim=0) > 0).double().mean()),
                     "fired": float(fired.double().mean()), "fired_count": int(fired.sum()),
                     "above": float(above.double().mean()),
                     "violations": int((above & ~fired).sum()),
                     "potentials": V[-1].flatten()[:sample].tolist()})
    return rows


def gradients(model: TTFSNet, x: torch.Tensor, y: torch.Tensor, decoder: str,
              lam: float = 10.0) -> list[dict]:
    """Per layer: the norm of dL/dW_hat of the batch's cross-entropy, whether it is exactly 0,
    and whether the layer's input is silent on the whole batch."""
    for layer in model.layers:
        layer.keep_grad = True
    model.zero_grad(set_to_none=True)
    trace = model.run(x, record=True)
    loss = F.cross_entropy(decode.logits(trace.spikes[-1], trace.potentials[-1], decoder, lam), y)
    loss.backward()
    rows = []
    for l, (layer, inp) in enumerate(zip(model.layers, trace.inputs)):
        g = layer.last_weight.grad
        rows.append({"layer": l + 1, "grad_norm": float(g.double().norm()),
                     "exact_zero": bool((g == 0).all()),
                     "input_silent": bool((inp == 0).all())})
        layer.keep_grad, layer.last_weight = False, None
    model.zero_grad(set_to_none=True)
    return rows
