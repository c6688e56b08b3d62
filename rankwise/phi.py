"""Score-generating functions ``phi`` of the linear rank statistics of Clémençon & Vayatis
(2008), "Empirical performance maximization for linear rank statistics", NIPS.

A ranking criterion of the family is ``W_n = sum over positives of
phi(Rank_i / (n + 1))`` (Clémençon & Vayatis, NIPS 2008), with ``phi: [0, 1] ->
[0, 1]`` nondecreasing. This module builds the members of the family:

========================  =====================================================
``auc()``                 ``phi(u) = u`` (Wilcoxon-Mann-Whitney, the AUC)
``local_auc(u0)``         ``phi(u) = u * 1{u >= u0}``; ``u0`` is the rank
                          threshold, the top fraction kept is ``1 - u0``
``pnorm_push(p)``         ``phi(u) = u**p``, ``p >= 1`` (pooled-rank form of
                          the p-norm push; Rudin's height form is
                          :func:`rankwise.pnorm_push`)
``dcg(k, discount)``      ``phi(u) = c((n+1) u) 1{(n+1) u >= n - k + 1}``,
                          ``c(r) = discount(n + 1 - r)``, standard discount
                          ``1 / log2(1 + position)``
``from_callable(f)``      any vectorised nondecreasing ``f: [0,1] -> [0,1]``
========================  =====================================================

Every object is callable on an array ``u`` (DCG also needs the sample size
``n``) and is checked on a grid when built. The statistic, its tie conventions and
scales: ``docs/criteria.md``; its Hájek variance: ``docs/inference.md``.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from ._kernels import check_positions, power_inplace
from ._validation import check_param, parse_spec

__all__ = ["Phi", "auc", "local_auc", "pnorm_push", "dcg", "from_callable", "resolve", "parse_spec", "NAMES"]

_GRID = np.linspace(0.0, 1.0, 2049)
_TOL = 1e-12


class Phi:
    """A nondecreasing score-generating function ``phi: [0, 1] -> [0, 1]``.

    Use the factories of this module (:func:`auc`, :func:`local_auc`,
    :func:`pnorm_push`, :func:`dcg`, :func:`from_callable`) rather than this class.
    """

    needs_n = False
    #: ``phi`` computed in place on a fresh array of ``u`` (None: :attr:`_func` on a copy).
    _inplace = None

    def __init__(self, func: Callable[[np.ndarray], np.ndarray], name: str, params: dict | None = None,
                 text: str | None = None, inplace: Callable[[np.ndarray], np.ndarray] | None = None):
        self._func = func
        self._inplace = inplace
        self.name = name
        self.params = dict(params or {})
        self._text = text

    def describe(self) -> str:
        """``phi`` in words for tables and figures, e.g. ``"φ(u) = u^4"``."""
        return self._text or f"φ = {self.name}"

    def __call__(self, u, n: int | float | None = None) -> np.ndarray:
        u = np.asarray(u, dtype=np.float64)
        return np.asarray(self._func(u), dtype=np.float64)

    def at_ranks(self, ranks: np.ndarray, n: float) -> np.ndarray:
        """``phi(rank / (n + 1))`` for pooled ranks in ``[0, n]`` (mass units)."""
        u = ranks / (n + 1.0)
        if self._inplace is not None:  # u is ours: no second copy
            return self._inplace(u)
        return self(u, n)

    #: The number of top positions ``phi`` varies on (None: the whole list). The Hájek
    #: variance differentiates ``phi`` over a window of ``sqrt(positions)`` observations.
    positions = None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"phi.{self.name}({args})"

    def __eq__(self, other: Any) -> bool:
        return (
            isinstance(other, Phi)
            and type(self) is type(other)
            and self.name == other.name
            and self.params == other.params
            and (self.name != "callable" or self._func is other._func)
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


def auc() -> Phi:
    """``phi(u) = u``: ``W_n`` is then an affine function of the AUC.

    Without ties, ``W_n = [n+ n- AUC + n+ (n+ + 1) / 2] / (n + 1)`` (Clémençon & Vayatis 2008).
    """
    return Phi(lambda u: u, "auc", text="φ(u) = u")


def local_auc(u0: float) -> Phi:
    """``phi(u) = u * 1{u >= u0}``: only positives ranked in the top ``1 - u0`` count.

    ``u0`` is the *rank threshold* in (0, 1) (Clémençon & Vayatis's 2008 convention); Clémençon &
    Vayatis (JMLR 2007) write the same criterion with the top fraction ``1 - u0``,
    which is the ``top`` parameter of :func:`rankwise.local_auc`.
    """
    u0 = check_param(u0, "u0", "phi.local_auc", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    return Phi(lambda u: np.where(u >= u0, u, 0.0), "local_auc", {"u0": u0}, text=f"φ(u) = u 1{{u \u2265 {u0:g}}}")


def pnorm_push(p: float) -> Phi:
    """``phi(u) = u**p`` with ``p >= 1``: larger ``p`` weighs the top of the list more.

    This is the pooled-rank form of the p-norm push of Clémençon & Vayatis (2008); Rudin's
    height-based statistic (JMLR 2009) is :func:`rankwise.pnorm_push`.
    """
    p = check_param(p, "p", "phi.pnorm_push", low=1.0)
    # On a copy (u may be the caller's array): integer powers by multiplication, several
    # times faster than np.power with a float exponent.
    return Phi(lambda u: power_inplace(np.array(u, dtype=np.float64), p), "pnorm_push", {"p": p},
               text=f"φ(u) = u^{p:g}", inplace=lambda u: power_inplace(u, p))


def standard_discount(position: np.ndarray) -> np.ndarray:
    """The DCG discount ``1 / log2(1 + position)`` (position 1 = top)."""
    return 1.0 / np.log2(1.0 + np.asarray(position, dtype=np.float64))


class _DCGPhi(Phi):
    needs_n = True

    def __init__(self, k: int | None, discount: Callable | None):
        self.k = k
        self.positions = k
        self.discount = standard_discount if discount is None else discount
        params = {"k": k}
        if discount is not None:
            params["discount"] = getattr(discount, "__name__", "callable")
        super().__init__(None, "dcg", params, text="φ = DCG" + ("" if k is None else f"@{k}") + " weights")

    def _cut(self, n: float) -> float:
        return float(n) if self.k is None else float(min(self.k, n))

    def at_ranks(self, ranks: np.ndarray, n: float) -> np.ndarray:
        check_positions(n)
        # Position from the top, computed from the rank exactly (no round trip through u).
        position = (n + 1.0) - np.asarray(ranks, dtype=np.float64)
        out = np.zeros_like(position)
        keep = position <= self._cut(n) + _TOL
        if keep.any():
            out[keep] = _call_discount(self.discount, np.maximum(position[keep], 1.0))
        return out

    def __call__(self, u, n: int | float | None = None) -> np.ndarray:
        if n is None:
            raise TypeError("phi.dcg depends on the sample size: call it as phi(u, n).")
        u = np.asarray(u, dtype=np.float64)
        return self.at_ranks(u * (n + 1.0), float(n))


def _call_discount(discount: Callable, position: np.ndarray) -> np.ndarray:
    out = np.asarray(discount(position), dtype=np.float64)
    if out.shape != position.shape:
        out = np.broadcast_to(out, position.shape).astype(np.float64)
    return out


def dcg(k: int | None = None, discount: Callable[[np.ndarray], np.ndarray] | None = None) -> Phi:
    """DCG with binary relevance as a linear rank statistic.

    ``phi(u) = c((n+1) u) * 1{(n+1) u >= n - k + 1}`` with ``c(r) = discount(n + 1 - r)``:
    a positive at position ``q = n + 1 - Rank`` from the top (1 = top) gains
    ``discount(q)`` if ``q <= k``. The standard discount is ``1 / log2(1 + q)``;
    a user ``discount`` must be vectorised, nonincreasing in the position and take
    values in [0, 1] for positions >= 1.
    """
    if k is not None:
        k = check_param(k, "k", "phi.dcg", low=1, integer=True)
    if discount is not None:
        if not callable(discount):
            raise TypeError(f"The 'discount' parameter of phi.dcg must be a callable. Got {type(discount).__name__} instead.")
        pos = np.unique(np.concatenate([np.arange(1.0, 1001.0), np.geomspace(1.0, 1e9, 200), np.linspace(1.0, 2.0, 101)]))
        try:
            vals = _call_discount(discount, pos)
        except Exception as exc:  # noqa: BLE001 - re-raised with context
            raise TypeError(f"The 'discount' callable of phi.dcg failed on an array of positions: {exc}") from exc
        if not np.isfinite(vals).all() or vals.min() < -_TOL or vals.max() > 1 + _TOL:
            raise ValueError("The 'discount' callable of phi.dcg must map positions >= 1 into [0, 1]; it does not.")
        if (np.diff(vals) > _TOL).any():
            raise ValueError("The 'discount' callable of phi.dcg must be nonincreasing in the position; it is not.")
    return _DCGPhi(k, discount)


def from_callable(func: Callable[[np.ndarray], np.ndarray], name: str | None = None) -> Phi:
    """Wrap a vectorised ``phi`` after checking it on a grid of 2049 points of [0, 1].

    Raises ``TypeError`` if ``func`` cannot be called on an array and
    ``ValueError`` if it is not nondecreasing or leaves [0, 1].
    """
    if isinstance(func, Phi):
        return func
    if not callable(func):
        raise TypeError(f"phi must be a name, a rankwise.phi object or a callable. Got {type(func).__name__} instead.")
    label = name or getattr(func, "__name__", "callable")
    try:
        with np.errstate(all="ignore"):
            vals = np.asarray(func(_GRID.copy()), dtype=np.float64)
    except Exception as exc:  # noqa: BLE001 - re-raised with context
        raise TypeError(
            f"phi {label!r} must be vectorised: calling it on an array of 2049 points in [0, 1] failed ({exc})."
        ) from exc
    if vals.shape == ():
        vals = np.full(_GRID.shape, float(vals))
    if vals.shape != _GRID.shape:
        raise TypeError(
            f"phi {label!r} must be vectorised: called on an array of shape {_GRID.shape} it returned shape {vals.shape}."
        )
    if not np.isfinite(vals).all():
        raise ValueError(f"phi {label!r} must be finite on [0, 1]; it returned NaN or infinite values.")
    if vals.min() < -_TOL or vals.max() > 1 + _TOL:
        bad = _GRID[(vals < -_TOL) | (vals > 1 + _TOL)][0]
        raise ValueError(
            f"phi {label!r} must map [0, 1] into [0, 1]; phi({bad:.4g}) = {float(func(np.array([bad]))[0]):.6g}."
        )
    d = np.diff(vals)
    if (d < -_TOL).any():
        i = int(np.flatnonzero(d < -_TOL)[0])
        raise ValueError(
            f"phi {label!r} must be nondecreasing on [0, 1]; phi({_GRID[i]:.4g}) = {vals[i]:.6g} > "
            f"phi({_GRID[i + 1]:.4g}) = {vals[i + 1]:.6g}."
        )

    def _vectorised(u: np.ndarray, _f=func) -> np.ndarray:
        with np.errstate(all="ignore"):
            out = np.asarray(_f(u), dtype=np.float64)
        out = out if out.shape == u.shape else np.broadcast_to(out, u.shape).astype(np.float64)
        _check_used(label, u, out)
        return out

    return Phi(_vectorised, "callable", {"func": label}, text=f"φ = {label}")


def _check_used(label: str, u: np.ndarray, vals: np.ndarray) -> None:
    """The grid check of :func:`from_callable` again, at the points a computation actually
    uses: a user ``phi`` may be NaN, leave [0, 1] or decrease between grid points, and the
    criterion would then be a wrong number with no error."""
    uf, vf = u.ravel(), vals.ravel()
    finite = np.isfinite(vf)
    if not finite.all():
        at = float(uf[~finite][0])
        raise ValueError(f"phi {label!r} must be finite on [0, 1]; phi({at:.10g}) = {float(vf[~finite][0])!r} "
                         f"at a rank this sample uses.")
    out = (vf < -_TOL) | (vf > 1 + _TOL)
    if out.any():
        at = float(uf[out][0])
        raise ValueError(f"phi {label!r} must map [0, 1] into [0, 1]; phi({at:.10g}) = {float(vf[out][0]):.6g} "
                         f"at a rank this sample uses.")
    if uf.shape[0] > 1:
        if not (uf[1:] >= uf[:-1]).all():
            order = np.argsort(uf, kind="stable")
            uf, vf = uf[order], vf[order]
        drop = (vf[1:] < vf[:-1] - _TOL) & (uf[1:] > uf[:-1])
        if drop.any():
            i = int(np.flatnonzero(drop)[0])
            raise ValueError(f"phi {label!r} must be nondecreasing on [0, 1]; phi({uf[i]:.10g}) = {vf[i]:.6g} > "
                             f"phi({uf[i + 1]:.10g}) = {vf[i + 1]:.6g} at ranks this sample uses.")


NAMES: dict[str, Callable[..., Phi]] = {
    "auc": auc,
    "local_auc": local_auc,
    "pnorm_push": pnorm_push,
    "dcg": dcg,
}


def resolve(phi: Any, func: str = "rank_statistic") -> Phi:
    """Turn a name, a ``"name:param=value"`` string, a factory of this module,
    a :class:`Phi` or a vectorised callable into a validated :class:`Phi`."""
    if isinstance(phi, Phi):
        return phi
    if isinstance(phi, str):
        name, params = parse_spec(phi)
        if name not in NAMES:
            raise ValueError(
                f"The 'phi' parameter of {func} must be one of {', '.join(repr(k) for k in NAMES)}, "
                f"a rankwise.phi object or a callable. Got {phi!r} instead."
            )
        return _call_factory(NAMES[name], params, func)
    if callable(phi) and any(phi is f for f in NAMES.values()):
        return _call_factory(phi, {}, func)
    if callable(phi):
        return from_callable(phi)
    raise TypeError(
        f"The 'phi' parameter of {func} must be a name, a rankwise.phi object or a callable. "
        f"Got {type(phi).__name__} instead."
    )


def _call_factory(factory: Callable[..., Phi], params: dict, func: str) -> Phi:
    sig = inspect.signature(factory)
    unknown = set(params) - set(sig.parameters)
    if unknown:
        raise ValueError(
            f"phi {factory.__name__!r} takes parameters {list(sig.parameters)}; got unknown {sorted(unknown)}."
        )
    missing = [
        p.name for p in sig.parameters.values() if p.default is inspect.Parameter.empty and p.name not in params
    ]
    if missing:
        example = f"rankwise.phi.{factory.__name__}({missing[0]}=...)"
        raise ValueError(
            f"phi {factory.__name__!r} needs the parameter(s) {missing} in {func}: pass {example} "
            f"or the string '{factory.__name__}:{missing[0]}=...'."
        )
    return factory(**params)
