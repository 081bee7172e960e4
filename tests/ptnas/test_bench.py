"""lib/ptnas/bench.py: the masked stack trains each net as if alone (spec B1, T3), deterministic."""
import numpy as np
import pytest
import torch

from lib.ptnas import bench, checks, data


@pytest.fixture(scope="module")
def split():
    return data.load_split("synthetic", 0, 150)


def test_masked_equals_separate(split):
    # float32: only the summation order of bmm against mm differs (spec B1: 1e-5)
    gap, same = checks.masked_vs_separate([(8,), (32, 8), (8, 32, 16)], split, 0, 32, 1e-3,
                                          [8, 32])
    assert gap <= 1e-5 and same


def test_group_of_one_reproduces_group_of_many(split):
    many = bench.train_masked([(8,), (16, 8), (32,)], split, 1, (2,), 32, 1e-3, [32])
    one = bench.train_masked([(16, 8)], split, 1, (2,), 32, 1e-3, [32])
    assert torch.allclose(many.test_logits[1], one.test_logits[0], atol=1e-5)


def test_deterministic(split):
    a = bench.train_masked([(8,), (16, 8)], split, 0, (1, 2), 32, 1e-3, [16])
    b = bench.train_masked([(8,), (16, 8)], split, 0, (1, 2), 32, 1e-3, [16])
    assert np.array_equal(a.val, b.val) and np.array_equal(a.test, b.test)


def test_pad_width_refuses_too_wide():
    with pytest.raises(ValueError, match="exceeds every padding bin"):
        bench.pad_width(64, [8, 32])


def test_bench_table_reads_back_exactly(split, tmp_path):
    # 03_proxies_search reads the bench 02_minibench wrote: the same archs, order and bits
    archs = [(8,), (16, 8), (32,)]
    res = bench.train_masked(archs, split, 0, (1, 2), 32, 1e-3, [32])
    bench.bench_table(archs, res, [1, 2, 3]).to_csv(tmp_path / "b.csv", index=False)
    back = bench.read_bench(tmp_path / "b.csv")
    assert back.archs == archs and back.epochs == (1, 2)
    assert np.array_equal(back.val, res.val) and np.array_equal(back.test, res.test)
    assert back.n_params.tolist() == [1, 2, 3]


def test_read_bench_refuses_other_tables(tmp_path):
    (tmp_path / "t.csv").write_text("arch,depth,n_params,val_1\n8,1,10,0.5\n")
    with pytest.raises(ValueError, match="not a bench table"):
        bench.read_bench(tmp_path / "t.csv")
