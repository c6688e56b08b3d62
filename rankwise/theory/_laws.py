"""Laws of a linear score under the Gaussian families (finite mixtures of normals on the line),
the exact AUC and ``W_phi`` they give, and what quadrature needs to know about ``phi``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate, optimize
from scipy.special import ndtr

from .. import phi as _phi

_QUAD = dict(limit=400, epsabs=1e-13, epsrel=1e-11)


@dataclass(frozen=True)
class _Mixture:
    """A finite mixture of normals on the real line (weights sum to 1)."""

    weights: np.ndarray
    means: np.ndarray
    sds: np.ndarray

    @classmethod
    def normal(cls, mean: float, sd: float) -> "_Mixture":
        """The single normal N(mean, sd^2)."""
        return cls(np.ones(1), np.array([mean]), np.array([sd]))

    def cdf(self, s: float) -> float:
        return float(np.dot(self.weights, ndtr((s - self.means) / self.sds)))


def _mixture_error(pos: _Mixture, neg: _Mixture) -> float:
    """P(S1 < S0) for independent mixtures: sum_kl w_k w_l Phi(-(m1k - m0l) / sqrt(s1k^2 + s0l^2))."""
    diff = pos.means[:, None] - neg.means[None, :]
    sd = np.sqrt(pos.sds[:, None] ** 2 + neg.sds[None, :] ** 2)
    return float(pos.weights @ ndtr(-diff / sd) @ neg.weights)


def _is_auc_phi(phi: _phi.Phi) -> bool:
    """``phi(u) = u``, for which ``W_phi`` is an affine function of the AUC."""
    return phi == _phi.auc()


def _phi_jumps(phi: _phi.Phi) -> list[float]:
    """Where ``phi`` jumps (the threshold ``u0`` of the local AUC): break points for quadrature."""
    u0 = phi.params.get("u0")
    if isinstance(u0, float) and 0.0 < u0 < 1.0 and phi == _phi.local_auc(u0):
        return [u0]
    return []


def _mixture_w_phi(pos: _Mixture, neg: _Mixture, p: float, phi: _phi.Phi) -> tuple[float, float]:
    r"""``W_phi = int phi(F(s)) dG(s)``, ``G`` the positive law, ``F = p G + (1-p) H``, by quadrature
    per positive component (``s = m + sd z``, ``z`` in [-12, 12]: the rest has mass < 1e-32)."""
    def F(s: float) -> float:
        return p * pos.cdf(s) + (1.0 - p) * neg.cdf(s)

    breaks = []
    for u0 in _phi_jumps(phi):
        lo = float(min(pos.means.min(), neg.means.min()) - 40 * max(pos.sds.max(), neg.sds.max()))
        hi = float(max(pos.means.max(), neg.means.max()) + 40 * max(pos.sds.max(), neg.sds.max()))
        breaks.append(optimize.brentq(lambda s: F(s) - u0, lo, hi, xtol=1e-14, rtol=1e-15))
    total, err = 0.0, 0.0
    for w, m, sd in zip(pos.weights, pos.means, pos.sds):
        pts = [(b - m) / sd for b in breaks if -12.0 < (b - m) / sd < 12.0]
        val, e = integrate.quad(lambda z: float(phi(F(m + sd * z))) * math.exp(-0.5 * z * z),
                                -12.0, 12.0, points=pts or None, **_QUAD)
        total += w * val / math.sqrt(2.0 * math.pi)
        err += w * e / math.sqrt(2.0 * math.pi)
    return total, err
