"""Benchmark: the converted SNN's forward (spec §1.1, §6) against its per-step loop, as a cost
curve over the number of time steps T.

    python bench/ann2snn_cka_forward.py [--T 1 2 4 ... 64] [--batch 25 100] [--repeats 3]
                                        [--cap 5]

Three sides, each the evaluation of one batch of images for T steps (no gradient):
`SpikingNet.run_step_loop` ("loop": every synapse at every step, the reference), `run` with one
step per synapse call ("run_block1": the first layer's current computed once, the IF recurrence
from lib/spiking) and `run` with all T steps folded into the batch of every synapse
("run_folded", the form a GPU wants). Their outputs must agree (float32, atol 1e-4) before
anything is timed; glibc keeps freed memory (`lib.spiking.memory.reuse_freed_memory`, as the
notebooks do) and its fastbins are off. One curve per batch size (25, the notebooks' chunk, and
100). Writes results/bench/ann2snn_cka_forward.json.

Bound (float32, one thread, B images): the synapses' flops per image and step, conv1 0.23 M,
conv2 1.81 M, fc1 0.40 M, fc2 2.6 k (2 per multiply-add), against one thread's float32 GEMM rate;
the run sides compute conv1 once instead of T times. Measured on the development machine (2
cores, one thread; two runs): run_block1 and the loop cost the same to within 10 % at every T
(loop/run_block1 0.91-1.03 at T = 64: the synapses dominate and are already batched over the
images), and folding all T steps into one call is 1.3-1.5 times slower at T = 64 with batch 25
and 3.4 times slower with batch 100, its (T B, 16, 28, 28) tensors leaving the caches.
On one CPU thread the time axis has nothing left to give; the folded form is kept for hardware
that wants large batches.
"""
import argparse

import torch

from lib.ann2snn_cka import ann, convert
from lib.companion import benchmark
from lib.spiking import memory

FLOPS = {"conv1": 2 * 28 * 28 * 16 * 9, "conv2": 2 * 14 * 14 * 32 * 16 * 9,
         "fc1": 2 * 1568 * 128, "fc2": 2 * 128 * 10}
BOUND = ("synapse flops per image and step (conv1 0.23 M once for the run sides, T times for "
         "the loop; conv2 1.81 M, fc1 0.40 M, fc2 2.6 k every step), against one thread's "
         "float32 GEMM rate")


def bound(batch: int):
    """The flops of one forward of each side at T steps."""
    def work(T: int, side: str) -> benchmark.Bound:
        per_step = FLOPS["conv2"] + FLOPS["fc1"] + FLOPS["fc2"]
        first = FLOPS["conv1"] * (T if side == "loop" else 1)
        return benchmark.Bound(flops=batch * (T * per_step + first), dtype="float32")
    return work


def sides(snn: convert.SpikingNet, x: torch.Tensor, T: int) -> dict[str, benchmark.Run]:
    """The three forwards of the images x for T steps, without gradient."""
    @torch.no_grad()
    def loop():
        return snn.run_step_loop(x, T)

    @torch.no_grad()
    def block1():
        return snn.run(x, T, 1).outputs

    @torch.no_grad()
    def folded():
        return snn.run(x, T, None).outputs
    return {"loop": loop, "run_block1": block1, "run_folded": folded}


def agree(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Outputs equal up to float32 rounding of the synapses."""
    return bool((a - b).abs().max() <= 1e-4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--T", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64])
    parser.add_argument("--batch", type=int, nargs="+", default=[25, 100])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=5.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    memory.reuse_freed_memory()
    torch.manual_seed(0)
    snn = convert.SpikingNet(ann.CNN().eval(), [0.3, 0.3, 1.0], 0.0)   # about half fire
    curves = {}
    for batch in args.batch:
        x = torch.rand(batch, 1, 28, 28, generator=torch.Generator().manual_seed(1))
        curves[f"batch_{batch}"] = benchmark.curve(
            "T", args.T, lambda T, x=x: sides(snn, x, T), agree, repeats=args.repeats,
            cap_s=args.cap, bound=bound(batch), label=f"forward, batch {batch}")
    benchmark.write_curves("ann2snn_cka_forward", "ann2snn_cka converted SNN forward: per-step "
                           "loop vs run (one step per synapse call) vs run (all steps folded)",
                           BOUND, curves, batches=args.batch)


if __name__ == "__main__":
    main()
