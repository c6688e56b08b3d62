"""Input checks of the theory package: arguments become clean float64 arrays (or a clear error)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._validation import check_choice, check_param

_METHODS = ("auto", "exact", "monte_carlo")


def _rng(random_state: Any, func: str) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1, size=4))
    if random_state is None or (isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)):
        if random_state is not None and random_state < 0:
            raise ValueError(f"The 'random_state' parameter of {func} must be a non-negative integer. "
                             f"Got {random_state!r} instead.")
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    raise TypeError(
        f"The 'random_state' parameter of {func} must be None, an int, a numpy Generator or RandomState. "
        f"Got {type(random_state).__name__} instead."
    )


def _read_reals(x: Any, kinds: str) -> tuple[np.ndarray | None, str]:
    """``(x as a float64 array, "")`` when its dtype kind is one of ``kinds``, else ``(None, why not)``."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:
        return None, str(exc)
    if arr.dtype.kind not in kinds:
        return None, f"dtype {arr.dtype}"
    return arr.astype(np.float64), ""


def _as_real_array(x: Any, name: str, func: str) -> np.ndarray:
    arr, problem = _read_reals(x, "biuf")
    if arr is None:
        raise TypeError(
            f"The '{name}' parameter of {func} must hold real numbers. Got {type(x).__name__} that could not "
            f"be read as numbers: {problem}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"The '{name}' parameter of {func} must hold finite real numbers; it has NaN or infinite values.")
    return arr


def _as_vector(x: Any, name: str, func: str, d: int | None = None) -> np.ndarray:
    arr = _as_real_array(x, name, func)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"The '{name}' parameter of {func} must be a non-empty 1-D vector. Got shape {arr.shape} instead.")
    if d is not None and arr.size != d:
        raise ValueError(f"The '{name}' parameter of {func} must have length {d} (the dimension). Got length {arr.size} instead.")
    return arr


def _as_cov(cov: Any, d: int, name: str, func: str) -> tuple[np.ndarray, np.ndarray]:
    """A scalar (times I), a vector (diagonal) or a (d, d) matrix -> (cov, lower Cholesky factor)."""
    arr = _as_real_array(cov, name, func)
    if arr.ndim == 0:
        arr = np.eye(d) * float(arr)
    elif arr.ndim == 1:
        if arr.size != d:
            raise ValueError(f"The '{name}' parameter of {func} as a vector is the diagonal and must have length {d}. "
                             f"Got length {arr.size} instead.")
        arr = np.diag(arr)
    elif arr.shape != (d, d):
        raise ValueError(f"The '{name}' parameter of {func} must be a scalar, a length-{d} diagonal or a ({d}, {d}) "
                         f"matrix. Got shape {arr.shape} instead.")
    if not np.allclose(arr, arr.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(arr).max()))):
        raise ValueError(f"The '{name}' parameter of {func} must be a symmetric matrix; it is not.")
    arr = 0.5 * (arr + arr.T)
    try:
        chol = np.linalg.cholesky(arr)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"The '{name}' parameter of {func} must be positive definite; it is not.") from exc
    return arr, chol


def _check_X(X: Any, d: int, func: str) -> np.ndarray:
    arr = _as_real_array(X, "X", func)
    if arr.ndim == 1 and d == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"The 'X' argument of {func} must have shape (n, {d}). Got shape {arr.shape} instead.")
    return arr


def _check_p(p: Any, func: str) -> float:
    return check_param(p, "p", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _check_n(n: Any, name: str, func: str, low: int = 1) -> int:
    return check_param(n, name, func, low=low, integer=True)


def _check_method(method: Any, func: str) -> str:
    return check_choice(method, "method", func, _METHODS)


# -- the arguments of the bound functions: scalars or arrays --------------------------


def _param_array(value: Any, name: str, func: str, *, low: float | None = None, high: float | None = None,
                 low_inclusive: bool = True, high_inclusive: bool = True, integer: bool = False):
    """A scalar (checked by check_param) or an array of values in the same range."""
    if isinstance(value, numbers.Real) or (isinstance(value, np.ndarray) and value.ndim == 0):
        if isinstance(value, np.ndarray):
            value = value.item()
        return check_param(value, name, func, low=low, high=high, low_inclusive=low_inclusive,
                           high_inclusive=high_inclusive, integer=integer)
    lo_b = "[" if low_inclusive else "("
    hi_b = "]" if high_inclusive and high is not None else ")"
    rng_s = f"{lo_b}{'-inf' if low is None else low}, {'inf' if high is None else high}{hi_b}"
    what = "integers" if integer else "floats"
    arr, _ = _read_reals(value, "iuf")
    if arr is None:
        raise TypeError(f"The '{name}' parameter of {func} must be a number or an array of {what} in {rng_s}. "
                        f"Got {type(value).__name__} instead.")
    bad = ~np.isfinite(arr)
    if low is not None:
        bad |= (arr < low) if low_inclusive else (arr <= low)
    if high is not None:
        bad |= (arr > high) if high_inclusive else (arr >= high)
    if integer:
        bad |= np.isfinite(arr) & (arr != np.round(arr))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise ValueError(f"The '{name}' parameter of {func} must hold {what} in {rng_s}. "
                         f"Got {arr.ravel()[i]!r} (at flat index {i}) instead.")
    return arr


# ranges of _param_array
_NONNEG = dict(low=0.0)
_POSITIVE = dict(low=0.0, low_inclusive=False)
_PROB = dict(low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
_COUNT = dict(low=1, integer=True)


def _params(func: str, **specs: tuple[Any, dict]) -> list:
    """:func:`_param_array` of each ``name=(value, range keywords)``, in order, as float64 arrays
    (0-d for scalars)."""
    return [np.asarray(_param_array(value, name, func, **rng), dtype=np.float64) for name, (value, rng) in specs.items()]


def _float_or_array(arr: Any) -> float | np.ndarray:
    arr = np.asarray(arr, dtype=np.float64)
    return float(arr) if arr.ndim == 0 else arr
