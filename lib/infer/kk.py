"""Discrete Kramers-Kronig relations (spec §1.2) in torch, differentiable.

A real sequence h of even length N is causal in its window when h[n] = 0 for N/2 < n < N. Its
spectrum is then fixed by the real part alone (`kk_project`), and the non-causal energy fraction
`kk_residual` is zero. The log-magnitude/phase form holds only for minimum-phase spectra:
`minphase_phase` gives -H{ln |H|} by the folded cepstrum. Half spectra are the N/2 + 1 bins of
an rFFT, last axis.
"""
from __future__ import annotations

import math

import torch


def hermitian_full(half: torch.Tensor, n: int) -> torch.Tensor:
    """The full N-bin spectrum of a real sequence from its N/2 + 1 rFFT bins (DC and Nyquist
    taken real, as a real sequence forces): (..., N/2 + 1) -> (..., N)."""
    ends = half[..., [0, n // 2]].real.to(half.dtype)
    inner = half[..., 1:n // 2]
    return torch.cat([ends[..., :1], inner, ends[..., 1:], inner.flip(-1).conj()], dim=-1)


def causal_window(n: int, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """u[0] = u[N/2] = 1, u[1..N/2-1] = 2, u = 0 elsewhere: doubles the positive-time part of
    the even part of h, which gives back h when h is causal."""
    u = torch.zeros(n, dtype=dtype)
    u[0] = u[n // 2] = 1.0
    u[1:n // 2] = 2.0
    return u


def kk_residual(half: torch.Tensor, n: int) -> torch.Tensor:
    """r = sum_{N/2 < t < N} |h[t]|^2 / sum_t |h[t]|^2 of h = IDFT of the Hermitian-extended
    spectrum: 0 for a causal sequence, 1 for one living in negative time only. (..., K) -> (...)."""
    h = torch.fft.irfft(half, n=n)
    energy = (h ** 2).sum(-1)
    return (h[..., n // 2 + 1:] ** 2).sum(-1) / energy


def kk_project(real_part: torch.Tensor, n: int) -> torch.Tensor:
    """The causal spectrum whose real part is `real_part` (N/2 + 1 bins): H = DFT(u * h_e) with
    h_e = IDFT(Re H), the even part of h. Equals H exactly when H is causal."""
    h_even = torch.fft.irfft(real_part, n=n)
    return torch.fft.rfft(causal_window(n, h_even.dtype) * h_even, n=n)


def hilbert_imag(real_part: torch.Tensor, n: int) -> torch.Tensor:
    """Im H = -H_d{Re H}, the discrete Hilbert transform of the real part (via `kk_project`)."""
    return kk_project(real_part, n).imag


def fold(cepstrum: torch.Tensor) -> torch.Tensor:
    """Fold a real cepstrum onto positive quefrency (c[0], 2 c[1..M/2-1], c[M/2], 0...): the
    cepstrum of the minimum-phase spectrum with the same magnitude. (..., M) -> (..., M)."""
    m = cepstrum.shape[-1]
    return cepstrum * causal_window(m, cepstrum.dtype)


def minphase_phase(log_mag: torch.Tensor) -> torch.Tensor:
    """-H{ln |H|}: the phase of the minimum-phase spectrum with log-magnitude `log_mag` (the
    M/2 + 1 rFFT bins of an M-point grid), by the folded cepstrum. Exact up to cepstral aliasing,
    which the caller controls by zero-padding h to a long M."""
    m = 2 * (log_mag.shape[-1] - 1)
    cep = torch.fft.irfft(log_mag, n=m)
    return torch.fft.rfft(fold(cep), n=m).imag


def wrap(phase: torch.Tensor) -> torch.Tensor:
    """Phase wrapped to (-pi, pi]."""
    return phase - 2 * math.pi * torch.ceil((phase - math.pi) / (2 * math.pi))


def log_form_residual(half: torch.Tensor) -> torch.Tensor:
    """wrap(arg H + H{ln |H|}): zero where the log-form KK relation holds (minimum phase),
    -omega T for a delay of T samples times a minimum-phase factor. (..., K) -> (..., K)."""
    return wrap(torch.angle(half) - minphase_phase(torch.log(half.abs())))
