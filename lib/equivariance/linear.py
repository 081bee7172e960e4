"""E0: linear networks f(x) = W_2 W_1 x, whose latent group is GL(r) (spec §4 E0, §2.1).

An equivariant low-rank map M = W_2 W_1 for C_n on R^n is a circulant matrix with only a few
Fourier modes; a rank factorization is identifiable up to GL(r), and the recovered action
k(g) = W_1 rho_in(g)^{-1} W_1^+ is unique. Inflated or rank-deficient factorizations break it.
"""
from __future__ import annotations

import numpy as np


def low_rank_circulant(n: int, freqs: list[int], rng: np.random.Generator) -> np.ndarray:
    """Real circulant M (commutes with the cyclic shift) whose spectrum is supported on the
    frequencies ±freqs; rank = number of distinct frequencies in {±f}."""
    keep = sorted({f % n for f in freqs} | {(-f) % n for f in freqs})
    spec = np.zeros(n, dtype=complex)
    for f in keep:
        if spec[f] == 0:
            z = rng.normal() + 1j * rng.normal()
            spec[f] = z
            spec[(-f) % n] = np.conj(z) if (-f) % n != f else z.real + 1.0
    c = np.real(np.fft.ifft(spec))                              # first column
    return np.array([[c[(i - j) % n] for j in range(n)] for i in range(n)])


def kept_frequencies(n: int, freqs: list[int]) -> list[int]:
    return sorted({f % n for f in freqs} | {(-f) % n for f in freqs})


def fourier_character(n: int, freqs: list[int]) -> np.ndarray:
    """Closed-form character of the shift s^j on the span of the kept Fourier modes:
    sum over kept k of exp(2 pi i j k / n) (real, since the set is closed under k -> -k)."""
    ks = np.array(kept_frequencies(n, freqs))
    j = np.arange(n)[:, None]
    return np.real(np.exp(2j * np.pi * j * ks[None, :] / n).sum(axis=1))


def rank_factorization(M: np.ndarray, rng: np.random.Generator, tol: float = 1e-10):
    """W_2 (m x r), W_1 (r x n) with W_2 W_1 = M and r = rank M, a random point of the GL(r)
    orbit: W_1 = G^T P for a Gaussian G (n x r) and P the orthogonal projector onto the row space
    of M, W_2 = M W_1^+. P, unlike the singular vectors (arbitrary within the pairs of equal
    singular values a circulant has), does not depend on the LAPACK or BLAS kernel, so neither
    does the draw."""
    _, s, Vt = np.linalg.svd(M)
    r = int((s > tol * s[0]).sum())
    P = Vt[:r].T @ Vt[:r]
    W1 = rng.normal(size=(M.shape[1], r)).T @ P
    return M @ np.linalg.pinv(W1), W1


def recover_action(W1: np.ndarray, R_in: np.ndarray) -> np.ndarray:
    """rho_1(g) = k(g)^{-1}, k(g) = W_1 rho_in(g)^{-1} W_1^+ (unique when W_1 has full row rank),
    for a stack R_in of shape (|G|, n, n)."""
    pinv = np.linalg.pinv(W1)
    K = np.einsum("ij,gjk,kl->gil", W1, np.linalg.inv(R_in), pinv)
    return np.linalg.inv(K)


def intertwining_residual(W1: np.ndarray, R_in: np.ndarray) -> float:
    """min over linear A of ||W_1 rho(g)^{-1} - A W_1|| / ||W_1||, max over g: zero iff some
    linear A(g) makes layer 1 equivariant (row space of W_1 rho(g)^{-1} within that of W_1)."""
    pinv = np.linalg.pinv(W1)
    out = 0.0
    for R in R_in:
        T = W1 @ np.linalg.inv(R)
        out = max(out, float(np.linalg.norm(T - T @ pinv @ W1) / np.linalg.norm(W1)))
    return out


def inflate(W2: np.ndarray, W1: np.ndarray, extra: int, rng: np.random.Generator):
    """Add `extra` inner units with random incoming rows and zero outgoing columns."""
    return (np.hstack([W2, np.zeros((W2.shape[0], extra))]),
            np.vstack([W1, rng.normal(size=(extra, W1.shape[1]))]))


def arbitrary_solutions(W1: np.ndarray, R_in: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """When W_1 lacks full row rank, k(g) = W_1 rho(g)^{-1} W_1^+ + Z_g (I - W_1 W_1^+) solves
    W_1 rho(g)^{-1} = k W_1 for any Z_g; a random choice per g (identity kept at I)."""
    pinv = np.linalg.pinv(W1)
    r = W1.shape[0]
    proj = np.eye(r) - W1 @ pinv
    K = np.einsum("ij,gjk,kl->gil", W1, np.linalg.inv(R_in), pinv)
    Z = rng.normal(size=K.shape)
    Z[0] = 0.0
    return K + Z @ proj


def mix(W2: np.ndarray, W1: np.ndarray, rng: np.random.Generator):
    """The same function through a random GL(r') element B: (W_2 B^{-1}, B W_1). After mixing no
    inner unit is visibly dead: the dead directions hide in the kernel of W_2."""
    B = rng.normal(size=(W1.shape[0], W1.shape[0]))
    return W2 @ np.linalg.inv(B), B @ W1


def reduce_factorization(W2: np.ndarray, W1: np.ndarray, tol: float = 1e-10):
    """The linear submodel (spec §1.4): drop the inner directions W_2 kills. With Q an orthonormal
    basis of the row space of W_2 (range of W_2^T), alpha* = Q^T and alpha = Q give
    (W_2 Q, Q^T W_1), the same function W_2 Q Q^T W_1 = W_2 W_1, read off the parameters alone."""
    U, s, _ = np.linalg.svd(W2.T, full_matrices=False)
    Q = U[:, s > tol * s[0]]                                           # (r', rank W_2)
    return W2 @ Q, Q.T @ W1


def solution_dimension(W1: np.ndarray, tol: float = 1e-10) -> int:
    """Dimension of the solution set {k : k W_1 = T} (an affine space when non-empty): the kernel
    of the linear map k -> k W_1 on r' x r' matrices, r' * (r' - rank W_1), computed as
    r'^2 minus the rank of its matrix kron(W_1^T, I) (row-major vec of k)."""
    r = W1.shape[0]
    L = np.kron(np.eye(r), W1.T)                                       # vec(k W_1) = L vec(k)
    s = np.linalg.svd(L, compute_uv=False)
    return int(r * r - (s > tol * s[0]).sum())
