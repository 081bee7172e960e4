"""Benchmark: the TTFS layer vectorised over time (running sums as products with a triangular
matrix, one first-crossing mask) against its per-step loop (spec §1.2, §6).

    python bench/ttfs_snn_neuron.py [--T 16] [--batch 128] [--neurons 256] [--repeats 5]

Each run is what one training step asks of a layer of TTFS neurons: the forward pass over the T
steps and the backward pass of a loss on its spikes and potentials. `neuron.ttfs_step_loop`
integrates and fires one step at a time (Python loop over t, vectorised over neurons);
`neuron.ttfs` does all steps at once. Checks that the two give bit-equal spikes and gradients
equal to 1e-5 (float32, sums in two orders) before timing; writes
results/bench/ttfs_snn_neuron.json.
"""
import argparse

import torch

from lib.companion import benchmark
from lib.ttfs_snn import neuron


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--T", type=int, default=16)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--neurons", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(0)
    shape = (args.T, args.batch, args.neurons)
    I0 = 0.4 * torch.randn(shape, generator=gen)                     # about half fire
    g_s, g_v = torch.randn(shape, generator=gen), torch.randn(shape, generator=gen)

    def layer(fn):
        def run():
            I = I0.clone().requires_grad_()
            s, V = fn(I, 1.0, 4.0)
            torch.autograd.backward([s, V], [g_s, g_v])
            return s.detach(), I.grad
        return run

    def agree(a, b) -> bool:
        return torch.equal(a[0], b[0]) and bool((a[1] - b[1]).abs().max() <= 1e-5)

    runs = {"loop": layer(neuron.ttfs_step_loop), "vectorised": layer(neuron.ttfs)}
    benchmark.compare("ttfs_snn_neuron", "ttfs_snn TTFS layer, forward + backward: per-step loop "
                      "vs vectorised over time", runs, agree, args.repeats, T=args.T,
                      batch=args.batch, neurons=args.neurons,
                      fired=float(runs["vectorised"]()[0].sum() / (args.batch * args.neurons)))


if __name__ == "__main__":
    main()
