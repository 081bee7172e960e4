"""Benchmark: the batched disc-flux residual (spec §1.3, the kernel every weak-form step calls)
against its per-disc, per-node loop, as a cost curve over the number of discs.

    python bench/musa_pinn_disc_flux.py [--discs 4 16 ... 4096] [--q 16] [--repeats 5] [--cap 2.0]

`residuals.disc_flux` turns values (m, Q, 3) and gradients (m, Q, 3, 2) at the quadrature nodes
into the three area-normalised fluxes of each disc in a dozen whole-array torch ops;
`naive.disc_flux` walks discs and nodes in Python floats (the `tolist` included). Inputs are
random float64 (the kernel is linear in them apart from the u_i (u.n) products); both sides must
agree to 1e-12 of the largest flux before anything is timed. Bound (one thread, float64): about
30 flops per node (u.n, two normal derivatives, two momentum integrands, the sums) and 72 bytes
read per node (3 values + 6 gradients), against the machine's GEMM rate and copy bandwidth.
Writes results/bench/musa_pinn_disc_flux.json.

Measured once on the development machine (2 cores shared by many jobs, one thread, Q = 16): the
loop is 1.1x slower at 4 discs (the batched side's dozen ops cost as much as 64 nodes of Python),
3-4x at 16-64 and about 40-46x from 256 discs (NB2's 64 discs per member, 8 members = 512).
"""
import argparse

import torch

from lib.companion import benchmark
from lib.musa_pinn import naive, residuals

FLOPS_PER_NODE, BYTES_PER_NODE = 30, 72
BOUND = ("~30 float64 flops and 72 bytes read per quadrature node (3 values, 6 gradients), m Q "
         "nodes; against one thread's float64 GEMM rate and copy bandwidth")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--discs", type=int, nargs="+", default=[4 ** k for k in range(1, 7)])
    parser.add_argument("--q", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cap", type=float, default=2.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    normals = residuals.circle_normals(args.q)

    def prepare(m: int) -> dict[str, benchmark.Run]:
        gen = torch.Generator().manual_seed(m)
        values = torch.randn(m, args.q, 3, generator=gen, dtype=torch.float64)
        grads = torch.randn(m, args.q, 3, 2, generator=gen, dtype=torch.float64)
        radii = 0.02 + 0.1 * torch.rand(m, generator=gen, dtype=torch.float64)
        return {"loop": lambda: naive.disc_flux(values, grads, normals, radii, 0.05),
                "batched": lambda: residuals.disc_flux(values, grads, normals, radii, 0.05)}

    def agree(a: torch.Tensor, b: torch.Tensor) -> bool:
        return bool((a - b).abs().max() <= 1e-12 * a.abs().max())

    def work(m: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=FLOPS_PER_NODE * m * args.q, bytes=BYTES_PER_NODE * m * args.q)

    curve = benchmark.curve("discs", args.discs, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=work, label="disc_flux")
    benchmark.write_curves("musa_pinn_disc_flux", "musa_pinn disc-flux residual: per-disc loop vs "
                           "batched", BOUND, {"disc_flux": curve}, quadrature=args.q)


if __name__ == "__main__":
    main()
