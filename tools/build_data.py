"""Build data/fashion_mnist/{subset,t10k}.npz from Debian's `dataset-fashion-mnist` package.

Run once by a maintainer (never at run time): `python tools/build_data.py`, then
`dvc add data && dvc push`. subset.npz keeps the first PER_CLASS training images of every class,
in file order; t10k.npz the whole test file (10 000 images, 1 000 per class), in file order. Both
uint8, so they are deterministic and small enough to ship in the bundled remote.
"""
import gzip
from pathlib import Path

import numpy as np

SOURCE = Path("/usr/share/datasets/fashion-mnist")
OUT = Path(__file__).resolve().parent.parent / "data" / "fashion_mnist"
PER_CLASS = 2500
CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
           "Bag", "Ankle boot")


def read_idx(path: Path) -> np.ndarray:
    """Parse an IDX file (big-endian header: magic, dims) into a uint8 array."""
    raw = gzip.open(path).read()
    ndim = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def write(name: str, images: np.ndarray, labels: np.ndarray, keep: np.ndarray) -> None:
    """data/fashion_mnist/<name>.npz: the kept rows, their row in the source file, the classes."""
    out = OUT / f"{name}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, images=images[keep], labels=labels[keep],
                        source_index=keep.astype(np.int32), class_names=np.array(CLASSES))
    print(f"wrote {out}: {keep.size} images")


def main() -> None:
    labels = read_idx(SOURCE / "train-labels-idx1-ubyte.gz")
    keep = np.sort(np.concatenate([np.flatnonzero(labels == c)[:PER_CLASS] for c in range(10)]))
    write("subset", read_idx(SOURCE / "train-images-idx3-ubyte.gz"), labels, keep)
    labels = read_idx(SOURCE / "t10k-labels-idx1-ubyte.gz")
    write("t10k", read_idx(SOURCE / "t10k-images-idx3-ubyte.gz"), labels, np.arange(labels.size))


if __name__ == "__main__":
    main()
