"""Benchmark: the recognizer's hard-reset LIF layer (spec §1.2) as one autograd node
(`integrate.lif_hard_reset`, `LifHardReset`) against the plain expression differentiated node by
node by autograd (what it replaced), as a cost curve over the layer's size.

    python bench/spike_htr_lif.py [--neurons 4096 ... 4194304] [--T 2] [--repeats 3] [--cap 2.0]

Each run is what one training step asks of a LIF layer: the forward pass over T = 2 steps (the
model's) from a current of N neurons per step, and the backward pass of a loss on its spikes.
The axis is N; the recognizer's layers at the default sizes are N = 32 x 16 x 32 x 128 (2.1 M,
the first), 1.0 M and 0.4 M, float32. At every size both sides must give bit-equal spikes and
input gradients within 16 u max|gradient| (u = 2^-24: the same few operations per neuron in
another order; observed well below) before anything is timed. Writes
results/bench/spike_htr_lif.json, with the share of neurons that fire.

Bound (float32, one thread): every side must at least read the current and write the spikes
forward, read the spikes' gradient and write the current's backward: 16 T N bytes against the
machine's copy bandwidth (`benchmark.machine`); the ~30 T N flops of either side stay below it.
The plain side reads and writes a (T, N) or (N,) tensor a few dozen times a step (each autograd
node's output, the surrogate's and the reset's saved tensors, a stack); the one node about
fifteen, in place where it can.
"""
import argparse

import torch

from lib.companion import benchmark
from lib.spiking import integrate
from lib.spiking.surrogate import SpikeSurrogate

TAU, V_TH, ALPHA = 2.0, 1.0, 4.0
U32 = 2.0 ** -24     # float32 unit roundoff
BOUND = ("16 T N bytes (the current read and the spikes written forward, the spikes' gradient "
         "read and the current's written backward, float32) against one thread's copy "
         "bandwidth; ~30 T N flops below it")


def lif_plain(I: torch.Tensor, tau: float, v_th: float, alpha: float) -> torch.Tensor:
    """The hard-reset LIF as the plain expression, one autograd node per operation (bench-only:
    the form `lif_hard_reset` had before it became one node)."""
    v, spikes = torch.zeros_like(I[0]), []
    for t in range(I.shape[0]):
        v = v + (I[t] - v) / tau
        s = SpikeSurrogate.apply(v - v_th, alpha)
        v = v * (1.0 - s)
        spikes.append(s)
    return torch.stack(spikes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--neurons", type=int, nargs="+", default=[4 ** k for k in range(6, 12)],
                        help="neurons per time step (the axis)")
    parser.add_argument("--T", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    fired: dict[int, float] = {}

    def prepare(n: int) -> dict[str, benchmark.Run]:
        gen = torch.Generator().manual_seed(n)
        I0 = 0.8 + 1.5 * torch.randn(args.T, n, generator=gen)          # about a third fire
        g_s = torch.randn(args.T, n, generator=gen)

        def layer(fn) -> benchmark.Run:
            def run() -> tuple[torch.Tensor, torch.Tensor]:
                I = I0.clone().requires_grad_()
                s = fn(I, TAU, V_TH, ALPHA)
                s.backward(g_s)
                return s.detach(), I.grad
            return run
        fired[n] = float(integrate.lif_hard_reset(I0, TAU, V_TH, ALPHA).mean())
        return {"plain": layer(lif_plain), "one_node": layer(integrate.lif_hard_reset)}

    def agree(a: tuple, b: tuple) -> bool:
        scale = float(a[1].abs().max())
        return torch.equal(a[0], b[0]) and bool((a[1] - b[1]).abs().max() <= 16 * U32 * scale)

    def bound(n: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=30 * args.T * n, bytes=16 * args.T * n, dtype="float32")

    for run in prepare(64).values():          # torch's lazy initialisation is not a side's cost
        run()
    curve = benchmark.curve("N", args.neurons, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound, label="lif")
    benchmark.write_curves("spike_htr_lif", "spike_htr hard-reset LIF layer, forward + backward "
                           f"over T = {args.T}: autograd of the plain expression vs one node",
                           BOUND, {"lif": curve}, T=args.T, fired=fired)


if __name__ == "__main__":
    main()
