"""Weighted moments that combine exactly across pieces of a sample.

A piece is summarised by its mass ``W``, its weighted mean and its centred sums of
powers (``M2 = sum w (x - mean)^2``, and ``M3`` for the third power). Two pieces combine
exactly (Chan, Golub & LeVeque 1979 for ``M2``; Pébay 2008 for ``M3``)::

    W = Wa + Wb,  delta = mean_b - mean_a,
    mean = mean_a + delta Wb / W,
    M2 = M2a + M2b + delta^2 Wa Wb / W,
    M3 = M3a + M3b + delta^3 Wa Wb (Wa - Wb) / W^2 + 3 delta (Wa M2b - Wb M2a) / W.

``M2`` also works for vectors (``mean`` a vector, ``M2`` the centred scatter matrix
``sum w (x - mean)(x - mean)^T``, ``delta^2`` the outer product). The Dask fits combine
the class moments of their parts with it, the distributed inference the per-bucket
moments of the projection terms.
"""

from __future__ import annotations

from typing import Iterable, Optional, Tuple

import numpy as np

__all__ = ["moments", "merge_moments", "moments3", "merge_moments3"]

Moments = Tuple[float, object, object]


def moments(x: np.ndarray, w: np.ndarray | None) -> Optional[Moments]:
    """``(W, mean, M2)`` of the values ``x`` with weights ``w`` (rows of a 2-D ``x`` are
    observations: the mean is then a vector and ``M2`` the scatter matrix); ``w`` None:
    every weight 1. None when the total weight is 0."""
    W = float(x.shape[0] if w is None else w.sum())
    if W == 0:
        return None
    mean = (x.sum(axis=0) if w is None else w @ x) / W
    dev = x - mean
    if dev.ndim == 1:
        if w is None:
            return W, float(mean), float(np.dot(dev, dev))
        np.multiply(dev, dev, out=dev)  # in place: a second temporary costs its page faults
        return W, float(mean), float(np.dot(w, dev))
    return W, mean, (dev.T if w is None else dev.T * w) @ dev


def merge_moments(parts: Iterable[Optional[Moments]]) -> Moments:
    """Combine ``(W, mean, M2)`` pieces; ``None`` and zero-mass pieces are skipped. Returns
    ``(0.0, None, None)`` when every piece is empty."""
    W, mean, M2 = 0.0, None, None
    for p in parts:
        if p is None or p[0] == 0:
            continue
        wb, mb, m2b = p
        if mean is None:
            W, mean, M2 = wb, mb, m2b
            continue
        tot = W + wb
        delta = mb - mean
        M2 = M2 + m2b + np.multiply.outer(delta, delta) * (W * wb / tot)
        mean = mean + delta * (wb / tot)
        W = tot
    return W, mean, M2


def moments3(x: np.ndarray, w: np.ndarray) -> Optional[Tuple[float, float, float, float]]:
    """``(W, mean, M2, M3)`` of scalar values ``x`` with weights ``w``; None when empty."""
    W = float(w.sum())
    if W == 0:
        return None
    mean = float(np.dot(w, x) / W)
    dev = x - mean
    return W, mean, float(np.dot(w, dev ** 2)), float(np.dot(w, dev ** 3))


def merge_moments3(parts: Iterable[Optional[Tuple[float, float, float, float]]]) -> Tuple[float, float, float, float]:
    """Combine ``(W, mean, M2, M3)`` pieces of scalar values (zeros when all are empty)."""
    W = mean = M2 = M3 = 0.0
    for p in parts:
        if p is None or p[0] == 0:
            continue
        wb, mb, m2b, m3b = p
        if W == 0:
            W, mean, M2, M3 = wb, mb, m2b, m3b
            continue
        tot = W + wb
        delta = mb - mean
        M3 = (M3 + m3b + delta ** 3 * W * wb * (W - wb) / (tot * tot)
              + 3.0 * delta * (W * m2b - wb * M2) / tot)
        M2 = M2 + m2b + delta * delta * W * wb / tot
        mean = mean + delta * wb / tot
        W = tot
    return W, mean, M2, M3
