"""Shared helpers of the musa_pinn tests."""
import numpy as np
import torch


def assert_close(name: str, ref, got, rtol: float, atol: float) -> None:
    """Fail with the name and the worst difference when got is not close to ref."""
    ref, got = (a.detach().double().numpy() if isinstance(a, torch.Tensor)
                else np.asarray(a, dtype=np.float64) for a in (ref, got))
    assert np.all(np.isfinite(ref)) and np.all(np.isfinite(got)), f"{name}: not finite"
    diff = np.abs(ref - got)
    ok = diff <= atol + rtol * np.abs(ref)
    assert ok.all(), f"{name} diff: max {diff.max():.3g} (atol {atol:g}, rtol {rtol:g})"
