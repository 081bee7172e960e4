"""Task generators T1-T5 (spec §6.1, §7.3) against independent plain-Python reference solvers."""
import numpy as np
import pytest

from lib.linear_rnns import tasks


def _decode_dgc(tokens: np.ndarray, length: int,
                id_bits: int) -> tuple[int, int, list[tuple[int, int]]]:
    """Parse the character stream back to (source, target, edges)."""
    s = "".join(tasks.DGC_CHARS[t - 1] for t in tokens[:length])
    parts = s.split(";")
    assert all(len(p) == id_bits for p in (parts[0], parts[-1]))
    edges = [tuple(int(v, 2) for v in p.split("-")) for p in parts[1:-1]]
    return int(parts[0], 2), int(parts[-1], 2), edges


def _reachable(src: int, tgt: int, edges: list[tuple[int, int]]) -> bool:
    succ = dict(edges)
    v = src
    while v != tgt and v in succ:
        v = succ[v]
    return v == tgt


@pytest.mark.parametrize("bug", [False, True])
def test_dgc_labels_equal_path_following(bug):
    rng = np.random.default_rng(1)
    s = tasks.dgc(200, 1, 13, rng, id_bits=4, released_bug=bug)
    for i in range(200):
        src, tgt, edges = _decode_dgc(s.x[i], s.length[i], 4)
        assert src == 0 and 1 <= tgt <= 13
        assert s.y[i, s.length[i] - 1] == _reachable(src, tgt, edges)
        assert s.mask[i].sum() == 1 and s.mask[i, s.length[i] - 1]
        assert (s.x[i, s.length[i]:] == 0).all()
    short = (s.shortcut == s.last_labels()).mean()
    # spec §6.1a: the endpoint shortcut is exact under the bug, near chance once repaired
    assert short == 1.0 if bug else short < 0.65


def test_dgc_rejects_ids_too_narrow():
    with pytest.raises(ValueError):
        tasks.dgc(2, 1, 16, np.random.default_rng(0), id_bits=4)


def _matmul(a, b, mod=None):
    out = [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return [[v % mod for v in r] for r in out] if mod else out


def test_imm_f2_prefix_entries():
    s = tasks.imm_f2(30, 1, 9, np.random.default_rng(2))
    for i in range(30):
        cur = [[int(i == j) for j in range(3)] for i in range(3)]
        for t in range(s.length[i]):
            code = int(s.x[i, t]) - 1
            m = [[(code >> (3 * r + c)) & 1 for c in range(3)] for r in range(3)]
            cur = _matmul(cur, m, 2)
            assert s.y[i, t] == cur[0][0]
        assert s.mask[i].sum() == s.length[i]


@pytest.mark.parametrize("task", ["imm_z_zero", "imm_z_pos"])
def test_imm_z_labels_exact(task):
    s = tasks.sample(task, 20, 1, 40, np.random.default_rng(3))   # T up to 40 > 35: object ints
    for i in range(20):
        cur = [[int(i == j) for j in range(3)] for i in range(3)]
        for t in range(s.length[i]):
            m = s.x[i, t].astype(int).reshape(3, 3).tolist()
            cur = _matmul(cur, m)
            want = cur[0][0] == 0 if task == "imm_z_zero" else cur[0][0] > 0
            assert s.y[i, t] == int(want)


def test_prefix_products_object_path_agrees_with_int64():
    m = np.random.default_rng(4).integers(-1, 2, size=(5, 36, 3, 3))
    big = tasks.prefix_products(m, None)                        # T = 36: object ints
    small = tasks.prefix_products(m[:, :30], None)              # int64
    assert big.dtype == object and (big[:, :30].astype(np.int64) == small).all()


def test_s5_prefix_products():
    s = tasks.s5(30, 1, 11, np.random.default_rng(5))
    perms = tasks.S5.tolist()
    for i in range(30):
        cur = list(range(5))                                     # identity map
        for t in range(s.length[i]):
            g = perms[int(s.x[i, t]) - 1]
            cur = [g[c] for c in cur]                            # sigma_t after the prefix
            assert perms[s.y[i, t]] == cur


def test_parity_prefixes():
    s = tasks.parity(50, 1, 17, np.random.default_rng(6))
    for i in range(50):
        bits = [int(v) - 1 for v in s.x[i, :s.length[i]]]
        assert [sum(bits[:t + 1]) % 2 for t in range(len(bits))] == s.y[i, :s.length[i]].tolist()


@pytest.mark.parametrize("task", tasks.TASKS)
def test_lengths_within_bin_and_size_one(task):
    size = 2 if task == "dgc_paper" else 1                      # the released DGC needs N >= 2
    s = tasks.sample(task, 7, size, size, np.random.default_rng(7),
                     **({"id_bits": 2} if task == "dgc" else {}))
    assert len(s.length) == 7 and (s.length >= 1).all()
    if task not in ("dgc", "dgc_paper"):
        assert (s.length == 1).all()


def test_test_sets_deterministic_and_frozen_files_match():
    a, _ = tasks.test_sets("parity", [[1, 3], [4, 5]], 5, 11)
    b = tasks.make_test_sets("parity", [[1, 3], [4, 5]], 5, 11)
    assert all((x.x == y.x).all() and (x.y == y.y).all() for x, y in zip(a, b))
    for task in tasks.TASKS:                                     # frozen sets regenerate exactly
        f = tasks.testset_file(task)
        if not f.exists():
            continue
        z = np.load(f)
        kw = {"id_bits": int(z["id_bits"])} if "id_bits" in z else {}
        fresh = tasks.make_test_sets(task, z["bins"].tolist(), int(z["n"]), int(z["seed"]), **kw)
        for i, s in enumerate(fresh):
            assert (z[f"b{i}_x"] == s.x).all() and (z[f"b{i}_y"] == s.y).all()


def test_gl3_is_the_168_invertible_matrices_and_imm_f2_uses_them():
    # |GL(3, F_2)| = (8-1)(8-2)(8-4) = 168 (standard count of ordered bases)
    assert len(tasks.GL3_CODES) == 168
    ref = set()
    for code in range(512):                                      # rank over F_2 by elimination
        rows = [[(code >> (3 * r + c)) & 1 for c in range(3)] for r in range(3)]
        rank = 0
        for c in range(3):
            piv = next((r for r in range(rank, 3) if rows[r][c]), None)
            if piv is None:
                continue
            rows[rank], rows[piv] = rows[piv], rows[rank]
            for r in range(3):
                if r != rank and rows[r][c]:
                    rows[r] = [a ^ b for a, b in zip(rows[r], rows[rank])]
            rank += 1
        if rank == 3:
            ref.add(code)
    assert set(tasks.GL3_CODES.tolist()) == ref
    s = tasks.imm_f2(20, 5, 9, np.random.default_rng(0))
    assert set((s.x[s.mask] - 1).tolist()) <= ref
    long = tasks.imm_f2(200, 60, 60, np.random.default_rng(1))
    assert 0.2 < long.last_labels().mean() < 0.8               # not collapsed to the zero matrix


def test_paper_variants_follow_the_released_generators():
    rng = np.random.default_rng(3)
    s = tasks.imm_mod(40, 1, 12, rng)
    m = np.rint(s.x.reshape(40, -1, 9, 3).argmax(-1) - 1).astype(np.int64)    # one-hot -> {-1,0,1}
    for i in range(40):                                          # plain loop over Z_29 products
        P = np.eye(3, dtype=np.int64)
        for t in range(s.length[i]):
            M = m[i, t].reshape(3, 3)
            assert round(np.linalg.det(M)) % tasks.IMM_MOD != 0  # invertible mod 29
            P = (P @ M) % tasks.IMM_MOD
            assert s.y[i, t] == P[0, 0] and s.mask[i, t]
    z = tasks.imm_z_paper(60, 3, 5, rng)
    for T in (3, 4, 5):                                          # 20 per length, 10 of each label
        assert (z.length == T).sum() == 20 and z.last_labels()[z.length == T].sum() == 10
    assert z.mask.sum() == 60                                     # one label, at the end
    for i in range(60):
        P = np.eye(3, dtype=np.int64)
        for t in range(z.length[i]):
            P = P @ z.x[i, t].astype(np.int64).reshape(3, 3)
        assert z.last_labels()[i] == int(P[0, 0] == 0)
    d = tasks.dgc_paper(30, 2, 9, rng)
    assert d.last_labels().sum() == 15 and d.mask.sum() == 30       # exactly balanced
    with pytest.raises(ValueError, match="N >= 2"):
        tasks.dgc_paper(4, 1, 3, rng)
