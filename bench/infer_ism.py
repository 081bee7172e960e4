"""Benchmark: the vectorised image-source IRs (`ism.impulse_responses`, spec §1.3, §4) against
the per-image, per-microphone, per-tap loop (`naive.impulse_responses`), as a cost curve over
the number of microphones at the notebooks' cabin and order.

    python bench/infer_ism.py [--mics 1 4 16 64 256] [--order 10] [--repeats 3] [--cap 3.0]

Both sides compute the same sums (each tap's beta^k / (4 pi d) sinc(x) window(x)), so they must
agree to 1e-15 absolute (IR peaks ~0.1, float64 sums of at most a few hundred overlapping
taps in a different order) before anything is timed. The loop visits (2K + 1)^3 index triples
per microphone and writes 41 taps for each of the (2K + 1)(2K^2 + 2K + 3)/3 images in Python;
the vectorised side forms (16, I, 41) blocks of delays, kernel values and flat indices and
scatters them with one `np.bincount` per block. Writes results/bench/infer_ism.json.

Bound (one thread): the vectorised side must at least evaluate the kernel, ~40 flops per tap
(sinc, cos^2, the gain), and write each tap's value and index (16 bytes) once and read them once
in the scatter: 40 M I taps flops and 32 M I taps bytes.
"""
import argparse

import numpy as np

from lib.companion import benchmark
from lib.infer import ism, naive, scene

ROOM, SOURCE = np.array([3.0, 1.6, 1.2]), np.array([0.5, 0.4, 0.9])
KW = dict(beta=0.55, fs=4000.0, c=343.0, n=1024, taps=41, bulk=20)
BOUND = ("vectorised: 40 M I taps flops and 32 M I taps bytes (kernel per tap, value + index "
         "written and read once); the loop's bound is the same arithmetic; M microphones, "
         "I images, 41 taps; against one thread's float64 GEMM rate and copy bandwidth")


def bound(order: int):
    """The work of one run of either side at M microphones."""
    per_mic = len(ism.lattice(order)) * KW["taps"]

    def work(m: int, side: str) -> benchmark.Bound:
        return benchmark.Bound(flops=40 * m * per_mic, bytes=32 * m * per_mic)
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mics", type=int, nargs="+", default=[1, 4, 16, 64, 256])
    parser.add_argument("--order", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=3.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    grid = scene.plane(16, (1.0, 0.9), (1.2, 0.35), 0.9)

    def prepare(m: int) -> dict[str, benchmark.Run]:
        mics = grid[np.linspace(0, len(grid) - 1, m).astype(int)]
        return {"loop": lambda: naive.impulse_responses(ROOM, SOURCE, mics, order=args.order,
                                                        **KW),
                "vectorised": lambda: ism.impulse_responses(ROOM, SOURCE, mics,
                                                            order=args.order, **KW)}

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= 1e-15)

    curve = benchmark.curve("mics", args.mics, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound(args.order), label="ism")
    benchmark.write_curves("infer_ism", "infer image-source IRs: per-image loop vs vectorised",
                           BOUND, {"ism": curve}, order=args.order, images=len(ism.lattice(
                               args.order)))


if __name__ == "__main__":
    main()
