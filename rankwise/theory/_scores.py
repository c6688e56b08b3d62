"""Score functions: :class:`LinearScore`, which the exact routes recognise, and the resolution and
checked evaluation of any score callable."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._validation import check_param
from ._checks import _as_vector, _check_X


class LinearScore:
    r"""The linear score function :math:`s(x) = a^\top x + c`.

    A plain callable that the exact routes of the distributions recognise: under the
    Gaussian families a linear score has a Gaussian (mixture) law in each class, so its
    AUC and ``W_phi`` are exact.

    Parameters
    ----------
    coef : array-like of shape (d,)
        The weights :math:`a`.
    intercept : float, default 0.0
        The offset :math:`c` (no effect on rankings; it matters for surrogate regrets,
        where the score is the loss's prediction).

    Examples
    --------
    >>> import numpy as np
    >>> s = LinearScore([1.0, -2.0], intercept=0.5)
    >>> s(np.array([[1.0, 1.0], [0.0, 0.0]]))
    array([-0.5,  0.5])
    """

    def __init__(self, coef: Any, intercept: float = 0.0):
        coef = _as_vector(coef, "coef", "LinearScore")
        self.coef = coef
        self.intercept = check_param(intercept, "intercept", "LinearScore")

    def __call__(self, X: Any) -> np.ndarray:
        X = _check_X(X, self.coef.size, "LinearScore")
        return X @ self.coef + self.intercept

    def __repr__(self) -> str:
        return f"LinearScore(coef={self.coef.tolist()!r}, intercept={self.intercept!r})"


def _is_linear(score: Callable, dim: int) -> bool:
    """A :class:`LinearScore` on ``dim``-dimensional inputs."""
    return isinstance(score, LinearScore) and score.coef.size == dim


def _is_constant(score: Callable) -> bool:
    """A :class:`LinearScore` with all weights 0: every point gets the same score."""
    return isinstance(score, LinearScore) and not score.coef.any()


def _resolve_score(score_fn: Any, func: str) -> Callable:
    if callable(score_fn):
        return score_fn
    if hasattr(score_fn, "decision_function"):
        return score_fn.decision_function
    raise TypeError(
        f"The 'score_fn' argument of {func} must be a callable mapping X of shape (n, d) to n scores "
        f"(e.g. dist.eta, est.decision_function or a rankwise.theory.LinearScore). "
        f"Got {type(score_fn).__name__} instead."
    )


def _eval_score(score: Callable, X: np.ndarray, func: str) -> np.ndarray:
    try:
        out = np.asarray(score(X))
    except ValueError as exc:
        raise ValueError(f"The 'score_fn' of {func} failed on an array X of shape {X.shape}: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - re-raised with context
        raise TypeError(f"The 'score_fn' of {func} failed on an array X of shape {X.shape}: {exc}") from exc
    if out.ndim == 2 and out.shape[1] == 1:
        out = out[:, 0]
    if out.shape != (X.shape[0],):
        raise ValueError(
            f"The 'score_fn' of {func} must return one score per row of X: for X of shape {X.shape} it "
            f"returned an array of shape {out.shape}."
        )
    if out.dtype.kind not in "biuf":
        raise TypeError(f"The 'score_fn' of {func} must return real numbers. Got dtype {out.dtype} instead.")
    out = out.astype(np.float64, copy=False)
    if not np.isfinite(out).all():
        raise ValueError(
            f"The 'score_fn' of {func} returned {int((~np.isfinite(out)).sum())} NaN or infinite score(s); "
            f"scores must be finite."
        )
    return out
