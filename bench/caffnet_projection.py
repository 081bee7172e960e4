"""Benchmark: the batched CAffine layer against the per-instance loop (spec §4, §6), as a cost
curve over the number of instances, one curve per constraint family.

    python bench/caffnet_projection.py [--instances 1 2 4 ... 1024] [--repeats 3] [--cap 1.5]

On the over-complete (m = 8, n = 3, 92 row subsets) and the equalities-as-pairs (m = 11, n = 5, 1023
subsets) families of spec §3.1, with input-dependent A: `naive.caffine_project` ("loop", over
instances and subsets, scipy lstsq + null_space) against `projection.caffine_project` ("batched",
one batched pinv per subset size). At every size where both run they must agree (atol 1e-10,
float64) before anything is timed; both sides stop at the cap (the batched side too, on the m = 11
family); glibc's fastbins are off (`benchmark.no_fastbins`) so that neither side pays for the
other's frees. Writes results/bench/caffnet_projection.json.

Bound (float64, one thread, B instances, K = 1 + sum_k C(m, k) candidates): both sides do the
same small linear algebra per instance. For each of the C(m, k) subsets of k <= n rows: two
SVDs of the k x n block A_g (the pseudo-inverse and the rank; lstsq and null_space in the loop),
counted as 14 n k^2 + 8 k^3 flops each (Golub-Van Loan's count with both singular-vector sets),
the pseudo-inverse and null projector products 2 n k^2 + 2 n^2 k, and the candidate
2 (2 n k + n^2); then the feasibility test of the K candidates, 4 K m n. That is 1.0e5 flops per
instance on m = 8 and 4.7e6 on m = 11 (written per family), against the machine's one-thread
float64 GEMM rate. The batched side runs at ~1/300 of that bound and the loop at ~1/2000 to
1/6000, because the matrices are 1 x 3 to 5 x 5: the batched side makes one LAPACK call per
small matrix (torch loops over the batch of a batched SVD; a 3 x 3 and a 5 x 5 SVD are timed per
matrix in a batch of 1000 and written as svd_per_matrix_s, ~6 and ~13 us, and the layer makes
2 (K - 1) calls per instance on blocks up to that size, most of its ~0.5 and ~15 ms per
instance), and the loop adds scipy's Python wrappers (~0.1 ms per subset).
"""
import argparse
import time
from math import comb

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from lib.caffnet import naive, problems, projection
from lib.companion import benchmark

FAMILIES = ("over_complete", "equality_pairs")
BOUND = ("both sides, per instance: for each of the C(m, k) row subsets (k <= n) two SVDs of the "
         "k x n block at 14 n k^2 + 8 k^3 flops, the products 2 n k^2 + 2 n^2 k + 4 n k + 2 n^2, "
         "then 4 K m n for the feasibility of the K = 1 + sum_k C(m, k) candidates; times B "
         "instances; against one thread's float64 GEMM rate")



def instance_flops(m: int, n: int) -> int:
    """The flops of one instance of the layer (same count for both sides)."""
    k_cands = projection.candidate_count(m, n)
    per_size = [comb(m, k) * (2 * (14 * n * k ** 2 + 8 * k ** 3) + 2 * n * k ** 2
                              + 2 * n ** 2 * k + 4 * n * k + 2 * n ** 2)
                for k in range(1, min(m, n) + 1)]
    return sum(per_size) + 4 * k_cands * m * n


def svd_per_matrix_seconds(n: int, batch: int = 1000) -> float:
    """Wall time per matrix of torch's batched SVD of (batch, n, n) float64 (the batched side's
    unit of work)."""
    a = torch.randn(batch, n, n, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    torch.linalg.svd(a)
    start = time.perf_counter()
    torch.linalg.svd(a)
    return (time.perf_counter() - start) / batch


def family_curve(family: str, sizes: list[int], repeats: int, cap: float) -> dict:
    """The curve of one family over the number of instances."""
    m, n = problems.FAMILIES[family][:2]

    def prepare(count: int) -> dict[str, benchmark.Run]:
        A, b, f, w = problems.family_instances(family, count, np.random.default_rng(count))
        t = [torch.as_tensor(a) for a in (f, w, A, b)]
        return {"loop": lambda: naive.caffine_project(f, w, A, b),
                "batched": lambda: projection.caffine_project(*t).y.numpy()}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= 1e-10)

    def bound(count: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=count * instance_flops(m, n))

    return benchmark.curve("instances", sizes, prepare, agree, repeats=repeats, cap_s=cap,
                           bound=bound, label=family)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, nargs="+",
                        default=[2 ** k for k in range(11)], help="instances (the axis)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=1.5, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    with threadpool_limits(1):              # scipy's LAPACK in the loop, one thread too
        curves = {f: family_curve(f, args.instances, args.repeats, args.cap) for f in FAMILIES}
        svd = {f"{n}x{n}": svd_per_matrix_seconds(n) for n in (3, 5)}
    shapes = {f: {"m": m, "n": n, "candidates": projection.candidate_count(m, n),
                  "flops_per_instance": instance_flops(m, n)}
              for f in FAMILIES for m, n in [problems.FAMILIES[f][:2]]}
    benchmark.write_curves("caffnet_projection", "caffnet CAffine layer, per-instance loop vs "
                           "batched", BOUND, curves, families=shapes, svd_per_matrix_s=svd)


if __name__ == "__main__":
    main()
