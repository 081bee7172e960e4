"""Build data/fashion_mnist/subset.npz from Debian's `dataset-fashion-mnist` package.

Run once by a maintainer (never at run time): `python tools/build_data.py`, then
`dvc add data && dvc push`. Keeps the first PER_CLASS training images of every class, in file
order, as uint8, so the subset is deterministic and small enough to ship in the bundled remote.
"""
import gzip
from pathlib import Path

import numpy as np

SOURCE = Path("/usr/share/datasets/fashion-mnist")
OUT = Path(__file__).resolve().parent.parent / "data" / "fashion_mnist" / "subset.npz"
PER_CLASS = 2500
CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
           "Bag", "Ankle boot")


def read_idx(path: Path) -> np.ndarray:
    """Parse an IDX file (big-endian header: magic, dims) into a uint8 array."""
    raw = gzip.open(path).read()
    ndim = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def main() -> None:
    images = read_idx(SOURCE / "train-images-idx3-ubyte.gz")
    labels = read_idx(SOURCE / "train-labels-idx1-ubyte.gz")
    keep = np.concatenate([np.flatnonzero(labels == c)[:PER_CLASS] for c in range(10)])
    keep.sort()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, images=images[keep], labels=labels[keep],
                        source_index=keep.astype(np.int32), class_names=np.array(CLASSES))
    print(f"wrote {OUT}: {keep.size} images")


if __name__ == "__main__":
    main()
