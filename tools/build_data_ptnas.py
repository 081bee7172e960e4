"""Build data/ptnas/{digits,synthetic,breast_cancer}.npz from scikit-learn's bundled data.

Run once by a maintainer (never at run time): `python tools/build_data_ptnas.py`, then
`dvc add data`. Nothing is downloaded: `load_digits` and `load_breast_cancer` ship inside
scikit-learn, and the synthetic task is `make_classification` with the spec's arguments
(spec §3 common set-up: 1,500 x 20, 6 informative, 4 redundant, class_sep 0.8, flip_y 0.05,
random_state 0). Features are float32, labels int64; rows in the generator's order.
"""
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits, make_classification

OUT = Path(__file__).resolve().parent.parent / "data" / "ptnas"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    sets = {"digits": load_digits(return_X_y=True),
            "breast_cancer": load_breast_cancer(return_X_y=True),
            "synthetic": make_classification(n_samples=1500, n_features=20, n_informative=6,
                                             n_redundant=4, class_sep=0.8, flip_y=0.05,
                                             random_state=0)}
    for name, (X, y) in sets.items():
        path = OUT / f"{name}.npz"
        np.savez_compressed(path, X=X.astype(np.float32), y=y.astype(np.int64))
        print(f"wrote {path}: {X.shape[0]} rows x {X.shape[1]} features, "
              f"{len(np.unique(y))} classes")


if __name__ == "__main__":
    main()
