"""Benchmark: the TTFS layer vectorised over time (running sums as products with a triangular
matrix, one first-crossing mask) against its per-step loop (spec §1.2, §6), as a cost curve over
the number of time steps T.

    python bench/ttfs_snn_neuron.py [--T 2 4 ... 1024] [--batch 128] [--neurons 256]
                                    [--repeats 3] [--cap 2.0]

Each run is what one training step asks of a layer of TTFS neurons: the forward pass over the T
steps and the backward pass of a loss on its spikes and potentials. Three sides:
`neuron.ttfs_step_loop` ("loop", one Python step per time step, vectorised over neurons),
`neuron.ttfs` ("vectorised", all steps at once) and "loop_unbind", the same recurrence as the
loop with the steps taken by `I.unbind(0)` instead of `I[t]` (bench-only, `step_loop_unbind`):
the backward of `I[t]` writes a zero gradient of the whole (T, B, n) input for every step, so
the loop's backward grows as T^2; unbind's backward stacks the T step gradients once. At every
size the live sides must give bit-equal spikes and input gradients equal to 32 T u (u = 2^-24:
float32 running sums of T terms in two orders; observed 3-5 T u) before anything is timed;
glibc's fastbins are off (`benchmark.no_fastbins`) so that no side pays for another's frees. Writes
results/bench/ttfs_snn_neuron.json, with the share of neurons that fire at each T.

Bound (float32, one thread, N = batch x neurons): every side must at least copy the input (read and
write), read the two output gradients and write the spikes, potentials and input gradient: 7 (T, N)
float32 arrays, 28 T N bytes. The loop adds 8 T^2 N bytes (each step's full-size gradient of the
input, written once and read once to accumulate it); the vectorised side adds three dense T x T by T
x N products (two running sums forward, the transposed one backward), 6 T^2 N flops, the triangle's
zeros included; the loops' ~20 T N flops stay below their traffic. Flops are read against the
machine's one-thread float32 GEMM rate (`benchmark.machine`'s gemm32_flops_per_s), bytes against its
copy bandwidth. The vectorised side is GEMM-bound from T ~ 256, at 0.4-0.75 of its bound; the loops
run at ~1/10 (loop_unbind) to ~1/2 (loop, whose T^2 gradients dominate) of theirs: each of their ~20
elementwise ops per step reads and writes its (B, n) slice, several times the compulsory traffic,
and below T ~ 8 dispatch adds. Both the vectorised side and the loop grow as T^2, so they never
cross: the vectorised side gains with T. loop_unbind grows as T and crosses the vectorised side near
T = 128 (see the curves): below it the vectorised side wins by doing all steps in a few large ops,
above it its T^2 GEMM flops cost more than the loop's T steps."""
import argparse
from typing import Callable

import torch

from lib.companion import benchmark
from lib.spiking.surrogate import SpikeSurrogate
from lib.ttfs_snn import neuron

THETA, ALPHA = 1.0, 4.0
U32 = 2.0 ** -24     # float32 unit roundoff
BOUND = ("N = batch x neurons; all sides: 28 T N bytes (the input copied, two output gradients "
         "read, spikes, potentials and input gradient written, float32); loop: + 16 T^2 N bytes "
         "(a full-size gradient per step, written and read); vectorised: + 6 T^2 N flops "
         "(three dense T x T by T x N products); loops' ~20 T N flops; flops against one "
         "thread's float32 GEMM rate (gemm32_flops_per_s), bytes against its copy bandwidth")

Layer = Callable[[torch.Tensor, float, float], tuple[torch.Tensor, torch.Tensor]]





def step_loop_unbind(I: torch.Tensor, theta: float, alpha: float
                     ) -> tuple[torch.Tensor, torch.Tensor]:
    """`neuron.ttfs_step_loop` with the steps taken by unbind: the same arithmetic in the same
    order, a backward linear in T."""
    V = torch.zeros_like(I[0])
    fired = torch.zeros_like(I[0])
    spikes, potentials = [], []
    for current in I.unbind(0):                                   # (B, n) each
        V = V + current
        s = SpikeSurrogate.apply(V - theta, alpha) * (1.0 - fired)
        fired = fired + s.detach()
        spikes.append(s)
        potentials.append(V)
    return torch.stack(spikes), torch.stack(potentials)


def bound(n: int) -> Callable[[int, str], benchmark.Bound]:
    """The work of one run of each side at T steps, N = n neurons in all (float32)."""

    def work(T: int, side: str) -> benchmark.Bound:
        traffic = 28 * T * n + (8 * T * T * n if side == "loop" else 0)
        flops = 6 * T * T * n + 20 * T * n if side == "vectorised" else 20 * T * n
        return benchmark.Bound(flops=flops, bytes=traffic, dtype="float32")
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--T", type=int, nargs="+", default=[2 ** k for k in range(1, 11)],
                        help="time steps (the axis)")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--neurons", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    fired: dict[int, float] = {}

    def prepare(T: int) -> dict[str, benchmark.Run]:
        gen = torch.Generator().manual_seed(T)
        shape = (T, args.batch, args.neurons)
        I0 = 0.4 * torch.randn(shape, generator=gen)                 # about half fire at T = 16
        g_s, g_v = torch.randn(shape, generator=gen), torch.randn(shape, generator=gen)
        fired[T] = float(neuron.ttfs_closed_form(I0, THETA).sum()) / (args.batch * args.neurons)

        def layer(fn: Layer) -> benchmark.Run:
            def run() -> tuple[torch.Tensor, torch.Tensor]:
                I = I0.clone().requires_grad_()
                s, V = fn(I, THETA, ALPHA)
                torch.autograd.backward([s, V], [g_s, g_v])
                return s.detach(), I.grad
            return run
        return {"loop": layer(neuron.ttfs_step_loop), "vectorised": layer(neuron.ttfs),
                "loop_unbind": layer(step_loop_unbind)}

    def agree(a: tuple, b: tuple) -> bool:
        T = a[0].shape[0]
        return torch.equal(a[0], b[0]) and bool((a[1] - b[1]).abs().max() <= 32 * T * U32)

    curve = benchmark.curve("T", args.T, prepare, agree, repeats=args.repeats, cap_s=args.cap,
                            bound=bound(args.batch * args.neurons), label="layer")
    benchmark.write_curves("ttfs_snn_neuron", "ttfs_snn TTFS layer, forward + backward: per-step "
                           "loop vs vectorised over time (and the loop with unbind)", BOUND,
                           {"layer": curve}, batch=args.batch, neurons=args.neurons,
                           fired=fired)


if __name__ == "__main__":
    main()
