"""The result type of every population quantity: :class:`TheoryResult`, and its builders."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from .._validation import check_param


@dataclass(frozen=True)
class TheoryResult:
    r"""A population quantity with how it was computed.

    Attributes
    ----------
    value : float
        The quantity (an error, a regret, an AUC, ``W_phi``, ...).
    std_error : float
        Monte Carlo standard error; 0.0 for the exact routes.
    method : str
        ``"closed_form"``, ``"quadrature"`` or ``"monte_carlo"``.
    n_mc : int or None
        Number of i.i.d. draws behind a Monte Carlo value.
    error_bound : float
        Numerical error of an exact route: the absolute error estimate of the quadrature
        (0.0 for a closed form and for Monte Carlo).
    detail : str
        One line on the estimator (which formula, which U-statistic, ...).

    Examples
    --------
    >>> r = TheoryResult(0.25, 0.01, "monte_carlo", n_mc=10_000)
    >>> [round(v, 4) for v in r.confidence_interval(0.95)]    # 0.25 -+ 1.96 * 0.01
    [0.2304, 0.2696]
    >>> float(r)
    0.25
    """

    value: float
    std_error: float
    method: str
    n_mc: int | None = None
    error_bound: float = 0.0
    detail: str = ""

    @property
    def exact(self) -> bool:
        """True for the closed-form and quadrature routes."""
        return self.method != "monte_carlo"

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        r"""Normal interval ``value -+ (z std_error + error_bound)``, ``z`` the normal quantile.

        Parameters
        ----------
        confidence_level : float in (0, 1)

        Returns
        -------
        (low, high) : tuple of float
            For an exact route, ``value -+ error_bound``.
        """
        cl = check_param(confidence_level, "confidence_level", "TheoryResult.confidence_interval",
                         low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        half = float(ndtri(0.5 + cl / 2.0)) * self.std_error + self.error_bound
        return (self.value - half, self.value + half)

    def __float__(self) -> float:
        return float(self.value)

    def _shift(self, value: float, detail: str | None = None) -> "TheoryResult":
        return TheoryResult(float(value), self.std_error, self.method, self.n_mc, self.error_bound,
                            self.detail if detail is None else detail)


def _closed(value: float, detail: str) -> TheoryResult:
    return TheoryResult(float(value), 0.0, "closed_form", None, 0.0, detail)


def _quadrature(value: float, abserr: float, detail: str) -> TheoryResult:
    return TheoryResult(float(value), 0.0, "quadrature", None, float(abserr), detail)


def _weaker(a: TheoryResult, b: TheoryResult) -> str:
    """The method of a quantity computed from two exact ones."""
    return "quadrature" if "quadrature" in (a.method, b.method) else "closed_form"


def _u_result(h1: np.ndarray, scale: float, detail: str, clip: bool = False) -> TheoryResult:
    """U-statistic ``scale * mean(h1)`` with the first-order (Hoeffding) standard error
    ``scale * 2 sd(h1) / sqrt(n)``."""
    n = h1.size
    value = scale * float(h1.mean())
    if clip:
        value = max(value, 0.0)
    se = scale * 2.0 * float(h1.std(ddof=1)) / math.sqrt(n)
    return TheoryResult(value, se, "monte_carlo", n, 0.0, detail)


def _no_exact_route(func: str, what: str) -> ValueError:
    """The error of ``method="exact"`` where no exact route exists for ``what``."""
    return ValueError(f"{func} has no exact route for {what}; use method='auto' or 'monte_carlo'.")
