r"""Pointwise proper composite losses and their ranking regret bounds (Agarwal 2014).

Losses: lower is better. A proper composite loss scores one prediction ``yhat``
against one binary label; minimising its expectation recovers the class
probability ``eta(x) = P(Y = 1 | X = x)`` through the loss's link, and a
*strongly* proper one turns a small surrogate regret into a small ranking regret
(Agarwal 2014, Theorem 13). Each loss of Table 1 of the paper is one frozen
:class:`ProperCompositeLoss` instance in :data:`LOSSES`; :func:`get` looks one up.

Conventions, common to every method:

- Labels ``y`` are {0, 1}, {-1, +1} or booleans; the positive class is 1 / True.
- Predictions ``yhat`` are real (``+-inf`` allowed: the paper's extended reals);
  higher means more likely positive.
- Losses whose prediction space is bounded (``[-1, 1]`` or ``[0, 1]``) are the
  *clipped* losses ``l(y, clip(yhat))``: a prediction outside the space is first
  moved to its nearest end, so the loss is flat there and its derivatives are 0.
  Theorem 13 is a statement about scorers with values in the prediction space;
  for these losses it bounds the ranking regret of the clipped scores
  ``clip(f(x))`` (equivalently of ``inverse_link(f(x))``).
- Everything is vectorised over numpy arrays (labels and predictions broadcast
  against each other), computed in float64 and stable at extreme margins: no
  overflow warning and no ``nan`` for any finite prediction. The exponential loss
  grows as ``exp(-y yhat)`` and is ``inf`` once that exceeds the float64 range
  (margins below about -709.78); every other loss stays finite for finite
  predictions.

References
----------
S. Agarwal. Surrogate regret bounds for bipartite ranking via strongly proper
losses. JMLR 15:1653-1674, 2014.

W. Kotlowski, K. Dembczynski, E. Huellermeier. Bipartite ranking through
minimization of univariate loss. ICML 2011 (the balanced-loss bounds).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np
from scipy.special import entr, expit

from .._validation import check_choice, check_param

__all__ = ["ProperCompositeLoss", "LOSSES", "get", "balanced_regret_bound"]

_INF = math.inf
_END_OFFSET = 1e-12   # from_bayes_risk: derivatives at e = 0, 1 are taken this far inside


# ----------------------------------------------------------------------------
# Input checks (one place; the per-loss kernels below assume clean arrays)
# ----------------------------------------------------------------------------


def _to_floats(x: Any, message: Callable[[Exception], str]) -> np.ndarray:
    """``x`` as a float64 array, or ``TypeError(message(cause))`` when it does not hold numbers."""
    try:
        arr = np.asarray(x)
        if arr.dtype.kind in "USV":       # numpy would parse "0.5"; strings are not numbers here
            raise TypeError(f"dtype {arr.dtype}")
        return arr.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(message(exc)) from exc


def _reject(bad: np.ndarray, message: Callable[[int, int], str]) -> None:
    """ValueError with ``message(first, count)`` if the mask ``bad`` holds anywhere: the flat
    index of its first True and the number of Trues."""
    if bad.any():
        idx = np.flatnonzero(bad.ravel())
        raise ValueError(message(int(idx[0]), idx.size))


def _as_float_array(x: Any, name: str, func: str) -> np.ndarray:
    arr = _to_floats(x, lambda exc: f"The '{name}' argument of {func} must be a real number or an array-like of "
                                    f"real numbers. Got {type(x).__name__} that could not be read as numbers: {exc}")
    _reject(np.isnan(arr), lambda first, count: f"The '{name}' argument of {func} contains {count} NaN value(s) "
                                                f"(first at flat index {first}); it must hold real numbers.")
    return arr


def _check_yhat(yhat: Any, func: str) -> np.ndarray:
    """Predictions: real numbers, +-inf allowed (the paper's extended reals)."""
    return _as_float_array(yhat, "yhat", func)


def _check_eta(eta: Any, func: str) -> np.ndarray:
    """Probabilities in [0, 1]."""
    arr = _as_float_array(eta, "eta", func)
    _reject((arr < 0.0) | (arr > 1.0),
            lambda first, count: f"The 'eta' argument of {func} must hold probabilities in [0, 1]. Got "
                                 f"{arr.ravel()[first]!r} (at flat index {first}, {count} value(s) out of range) "
                                 f"instead.")
    return arr


def _check_labels(y: Any, func: str) -> np.ndarray:
    """Labels in {0, 1}, {-1, +1} or booleans -> float64 array of -1.0 / +1.0."""
    arr = np.asarray(y)
    if arr.dtype.kind == "b":
        return np.where(arr, 1.0, -1.0)
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"The 'y' argument of {func} must hold labels in {{0, 1}} or {{-1, +1}} (or booleans). "
            f"Got an array of dtype {arr.dtype} instead."
        )
    pos = arr == 1
    zero = arr == 0
    minus = arr == -1
    ok = pos | zero | minus
    if not ok.all():
        bad = np.unique(arr[~ok])
        shown = ", ".join(repr(v) for v in bad[:5].tolist()) + (", ..." if bad.size > 5 else "")
        raise ValueError(
            f"The 'y' argument of {func} must hold labels in {{0, 1}} or {{-1, +1}} (or booleans). "
            f"Got the value(s) {shown} instead."
        )
    if zero.any() and minus.any():
        raise ValueError(
            f"The 'y' argument of {func} mixes the encodings {{0, 1}} and {{-1, +1}} (it holds both 0 and -1); "
            f"use one of them."
        )
    return np.where(pos, 1.0, -1.0)


def _broadcast(a: np.ndarray, b: np.ndarray, names: tuple[str, str], func: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        return np.broadcast_arrays(a, b)
    except ValueError as exc:
        raise ValueError(
            f"The '{names[0]}' and '{names[1]}' arguments of {func} have shapes {a.shape} and {b.shape}, "
            f"which do not broadcast together."
        ) from exc


def _check_regret(value: Any, func: str) -> float | np.ndarray:
    """A surrogate regret: a finite non-negative float, or an array of them."""
    if isinstance(value, numbers.Real) or (isinstance(value, np.ndarray) and value.ndim == 0):
        if isinstance(value, np.ndarray):
            value = value.item()
        return check_param(value, "surrogate_regret", func, low=0.0)
    arr = _to_floats(value, lambda exc: f"The 'surrogate_regret' parameter of {func} must be a float in [0, inf) or "
                                        f"an array of them. Got {type(value).__name__} instead.")
    _reject(~(np.isfinite(arr) & (arr >= 0.0)),
            lambda first, count: f"The 'surrogate_regret' parameter of {func} must hold floats in [0, inf). Got "
                                 f"{arr.ravel()[first]!r} (at flat index {first}) instead.")
    return arr


def _check_p(p: Any, func: str) -> float:
    return check_param(p, "p", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _out(arr: np.ndarray) -> np.ndarray | np.float64:
    """float64 array, or a numpy scalar for 0-d results (as numpy ufuncs do)."""
    arr = np.asarray(arr, dtype=np.float64)
    return arr[()] if arr.ndim == 0 else arr


# ----------------------------------------------------------------------------
# The class
# ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ProperCompositeLoss:
    r"""A binary proper composite loss with its link, Bayes risk and regret bounds.

    One instance per loss; get them from :data:`LOSSES` or :func:`get` (or build one
    from a concave Bayes risk with :meth:`from_bayes_risk`). Losses: lower is better.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"logistic"``.
    prediction_space : tuple of float
        ``(lo, hi)``, the interval of predictions ``yhat``; ``(-inf, inf)`` for the
        real line. Predictions outside a bounded space are clipped to it (see
        :meth:`loss`).
    strong_properness : float
        :math:`\lambda = \inf_{\eta \in (0, 1)} -H''(\eta)`, the largest constant with
        :math:`L(\eta, \psi(\hat\eta)) - H(\eta) \ge \frac{\lambda}{2} (\eta - \hat\eta)^2`.
    formula : str
        ``l(y, yhat)`` in words, for display.

    Notes
    -----
    A proper composite loss is :math:`\ell(y, \hat y) = c(y, \psi^{-1}(\hat y))` for
    :math:`y \in \{-1, +1\}`, a proper loss :math:`c` on probabilities and a strictly
    increasing link :math:`\psi` from a probability :math:`\hat\eta` to a prediction
    :math:`\hat y`. Its conditional risk is
    :math:`L(\eta, \hat y) = \eta\, \ell(1, \hat y) + (1 - \eta)\, \ell(-1, \hat y)`, its
    conditional Bayes risk :math:`H(\eta) = \inf_{\hat y} L(\eta, \hat y)`, attained at
    :math:`\hat y = \psi(\eta)`, and its conditional regret :math:`L(\eta, \hat y) - H(\eta)`.

    Table 1 of the paper (name: prediction space; loss; link; Bayes risk; lambda), the
    Bayes risks of the last four derived here and all checked numerically in
    ``tests/losses/test_losses_proper.py``:

    - ``exponential``: R; :math:`e^{-y \hat y}`; :math:`\frac12 \ln\frac{\eta}{1-\eta}`;
      :math:`2\sqrt{\eta(1-\eta)}`; 4.
    - ``logistic``: R; :math:`\ln(1 + e^{-y \hat y})`; :math:`\ln\frac{\eta}{1-\eta}`;
      :math:`-\eta\ln\eta - (1-\eta)\ln(1-\eta)`; 4.
    - ``squared``: [-1, 1]; :math:`(1 - y \hat y)^2`; :math:`2\eta - 1`;
      :math:`4\eta(1-\eta)`; 8.
    - ``squared_hinge``: [-1, 1]; :math:`\max(0, 1 - y \hat y)^2`; :math:`2\eta - 1`;
      :math:`4\eta(1-\eta)`; 8.
    - ``spherical``: [0, 1]; :math:`c(1, e) = 1 - e/\sqrt{e^2 + (1-e)^2}`,
      :math:`c(-1, e) = 1 - (1-e)/\sqrt{e^2 + (1-e)^2}` with :math:`e = \hat y`;
      :math:`\eta` (identity); :math:`1 - \sqrt{\eta^2 + (1-\eta)^2}`; 1.
    - ``canonical_exponential``: R; :math:`\sqrt{1 + (\hat y/2)^2} - y\hat y/2`;
      :math:`(2\eta-1)/\sqrt{\eta(1-\eta)}`; :math:`2\sqrt{\eta(1-\eta)}`; 4.
    - ``canonical_squared``: [-1, 1]; :math:`\frac14 (1 - y \hat y)^2`; :math:`2\eta - 1`;
      :math:`\eta(1-\eta)`; 2.
    - ``canonical_spherical``: [-1, 1]; :math:`1 - \frac12(\sqrt{2 - \hat y^2} + y \hat y)`;
      :math:`(2\eta-1)/\sqrt{\eta^2+(1-\eta)^2}`; :math:`1 - \sqrt{\eta^2 + (1-\eta)^2}`; 1.

    The canonical losses (and the logistic loss) use the canonical link
    :math:`\psi = -H'`, for which
    :math:`\partial_{\hat y} \ell(y, \hat y) = \psi^{-1}(\hat y) - \mathbf 1\{y = 1\}`.

    On its prediction space ``[-1, 1]`` the squared hinge loss *is* the squared loss
    (``1 - y yhat >= 0`` there), so the two clipped losses are the same function.

    References
    ----------
    S. Agarwal. Surrogate regret bounds for bipartite ranking via strongly proper
    losses. JMLR 15, 2014, section 5 and Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.losses._proper import get
    >>> logistic = get("logistic")
    >>> logistic.strong_properness
    4.0
    >>> logistic.loss([1, 0], [0.0, 0.0])           # ln 2 for either label at yhat = 0
    array([0.69314718, 0.69314718])
    >>> float(logistic.inverse_link(np.log(3.0)))   # odds 3 -> probability 3/4
    0.75
    """

    name: str
    prediction_space: tuple[float, float]
    strong_properness: float
    formula: str = field(repr=False)
    _value: Callable[[np.ndarray, np.ndarray], np.ndarray] = field(repr=False)
    _grad: Callable[[np.ndarray, np.ndarray], np.ndarray] = field(repr=False)
    _hess: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = field(repr=False)
    _link: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    _inverse_link: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    _bayes_risk: Callable[[np.ndarray], np.ndarray] = field(repr=False)

    # -- helpers ---------------------------------------------------------------

    @property
    def _bounded(self) -> bool:
        lo, hi = self.prediction_space
        return not (lo == -_INF and hi == _INF)

    def _clip(self, v: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Clip predictions to the prediction space; also return where they were inside."""
        if not self._bounded:
            return v, None
        lo, hi = self.prediction_space
        return np.clip(v, lo, hi), (v >= lo) & (v <= hi)

    def _labels_and_predictions(self, y: Any, yhat: Any, func: str):
        ypm = _check_labels(y, func)
        v = _check_yhat(yhat, func)
        ypm, v = _broadcast(ypm, v, ("y", "yhat"), func)
        vc, inside = self._clip(v)
        return ypm, vc, inside

    # -- the loss and its derivatives -----------------------------------------

    def loss(self, y: Any, yhat: Any) -> np.ndarray:
        r"""The loss :math:`\ell(y, \hat y)`, elementwise.

        Parameters
        ----------
        y : array-like
            Labels in {0, 1} or {-1, +1}, or booleans (positive = 1 / True).
        yhat : array-like
            Predictions (real, ``+-inf`` allowed); broadcast against ``y``. For a
            bounded prediction space they are clipped to it first.

        Returns
        -------
        ndarray of float64
            The broadcast shape of ``y`` and ``yhat`` (a numpy scalar for scalars).

        Notes
        -----
        The formula of Table 1 (see the class docstring) evaluated at
        :math:`\mathrm{clip}(\hat y)`. Written in forms that keep full relative
        precision where the loss is small (e.g. the logistic loss as
        ``logaddexp(0, -y yhat)``, the canonical exponential loss at large margins as
        ``1 / (sqrt(1 + m^2) + m)``). Only the exponential loss can overflow (to
        ``inf``, silently, for margins below about -709.78). Reference: Agarwal 2014,
        Table 1.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> get("squared").loss([1, -1, 1], [0.5, 0.5, 3.0])   # (1-0.5)^2, (1+0.5)^2, clipped to 1
        array([0.25, 2.25, 0.  ])
        """
        ypm, vc, _ = self._labels_and_predictions(y, yhat, "loss")
        with np.errstate(over="ignore"):
            return _out(self._value(ypm, vc))

    def dloss(self, y: Any, yhat: Any) -> np.ndarray:
        r"""Derivative of the loss with respect to the prediction, :math:`\partial \ell(y, \hat y) / \partial \hat y`
        (arguments and result as in :meth:`loss`).

        Notes
        -----
        For a bounded prediction space the loss is :math:`\ell(y, \mathrm{clip}(\hat y))`:
        its derivative is 0 strictly outside the space; at the two ends it is the
        derivative from inside. For the losses with the canonical link :math:`\psi = -H'`
        (logistic and the three canonical ones) the derivative is
        :math:`\psi^{-1}(\hat y) - \mathbf 1\{y = 1\}`.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> get("logistic").dloss([1, 0], [0.0, 0.0])
        array([-0.5,  0.5])
        """
        ypm, vc, inside = self._labels_and_predictions(y, yhat, "dloss")
        with np.errstate(over="ignore"):
            g = self._grad(ypm, vc)
        if inside is not None:
            g = np.where(inside, g, 0.0)
        return _out(g)

    def d2loss(self, y: Any, yhat: Any) -> np.ndarray:
        r"""Second derivative of the loss with respect to the prediction (arguments and result
        as in :meth:`loss`).

        Notes
        -----
        0 strictly outside a bounded prediction space (the clipped loss is flat there),
        the one-sided value from inside at its ends. On its prediction space every loss
        of Table 1 is convex in ``yhat`` except the spherical loss, whose second
        derivative is negative near the wrong end (the clipped losses are not convex on
        the whole real line: they are flat outside their space). Raises ``NotImplementedError`` for a loss built by
        :meth:`from_bayes_risk` without ``d3_bayes_risk``.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> float(get("logistic").d2loss(1, 0.0))    # sigmoid(0) sigmoid(-0)
        0.25
        """
        if self._hess is None:
            raise NotImplementedError(
                f"d2loss is not available for the '{self.name}' loss: build it with d3_bayes_risk."
            )
        ypm, vc, inside = self._labels_and_predictions(y, yhat, "d2loss")
        with np.errstate(over="ignore"):
            h = self._hess(ypm, vc)
        h = np.broadcast_to(h, ypm.shape)
        if inside is not None:
            h = np.where(inside, h, 0.0)
        return _out(np.array(h, dtype=np.float64))

    # -- link --------------------------------------------------------------------

    def link(self, eta: Any) -> np.ndarray:
        r"""The link :math:`\psi`: from a probability :math:`\eta` to a prediction.

        Parameters
        ----------
        eta : array-like
            Probabilities in [0, 1].

        Returns
        -------
        ndarray of float64
            ``psi(eta)``; for the losses on R, ``-inf`` at 0 and ``inf`` at 1.

        Notes
        -----
        :math:`\psi(\eta) = \arg\min_{\hat y} L(\eta, \hat y)`, strictly increasing; see the
        table in the class docstring.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> get("squared").link([0.0, 0.25, 1.0])
        array([-1. , -0.5,  1. ])
        """
        eta = _check_eta(eta, "link")
        with np.errstate(divide="ignore"):
            return _out(self._link(eta))

    def inverse_link(self, yhat: Any) -> np.ndarray:
        r"""The inverse link :math:`\psi^{-1}`: from a prediction to a probability.

        Parameters
        ----------
        yhat : array-like
            Predictions (real, ``+-inf`` allowed); clipped to a bounded prediction space
            first.

        Returns
        -------
        ndarray of float64
            Probabilities in [0, 1], never ``nan``.

        Notes
        -----
        Stable forms: the logistic sigmoid via ``scipy.special.expit``; for the
        canonical exponential link :math:`\psi^{-1}(\hat y) = \frac12 (1 + \hat y /
        \sqrt{4 + \hat y^2})`, the smaller of :math:`\hat\eta` and :math:`1 - \hat\eta` is
        computed as :math:`2 / (h (h + |\hat y|))`, :math:`h = \sqrt{4 + \hat y^2}`, with no
        cancellation; likewise for the canonical spherical link.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> get("squared").inverse_link([-1.0, 0.0, 0.5, 2.0])   # (1 + clip(yhat)) / 2
        array([0.  , 0.5 , 0.75, 1.  ])
        """
        v = _check_yhat(yhat, "inverse_link")
        vc, _ = self._clip(v)
        with np.errstate(over="ignore"):
            return _out(self._inverse_link(vc))

    # -- risks -------------------------------------------------------------------

    def conditional_risk(self, eta: Any, yhat: Any) -> np.ndarray:
        r"""Conditional risk :math:`L(\eta, \hat y) = \eta\, \ell(1, \hat y) + (1-\eta)\, \ell(-1, \hat y)`.

        Parameters
        ----------
        eta : array-like
            Probabilities of the positive class, in [0, 1].
        yhat : array-like
            Predictions; broadcast against ``eta``.

        Returns
        -------
        ndarray of float64

        Notes
        -----
        With the convention :math:`0 \cdot \infty = 0` (a label that has probability 0
        costs nothing, even where its loss is infinite), so that
        ``conditional_risk(eta, link(eta)) == bayes_risk(eta)`` at ``eta`` = 0 and 1 too.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> float(get("squared").conditional_risk(0.75, 0.0))   # 0.75 * 1 + 0.25 * 1
        1.0
        """
        eta = _check_eta(eta, "conditional_risk")
        v = _check_yhat(yhat, "conditional_risk")
        eta, v = _broadcast(eta, v, ("eta", "yhat"), "conditional_risk")
        vc, _ = self._clip(v)
        one = np.ones_like(vc)
        with np.errstate(over="ignore", invalid="ignore"):
            pos = self._value(one, vc)
            neg = self._value(-one, vc)
            risk = np.where(eta > 0.0, eta * pos, 0.0) + np.where(eta < 1.0, (1.0 - eta) * neg, 0.0)
        return _out(risk)

    def bayes_risk(self, eta: Any) -> np.ndarray:
        r"""Conditional Bayes risk :math:`H(\eta) = \inf_{\hat y} L(\eta, \hat y) = L(\eta, \psi(\eta))`.

        Parameters
        ----------
        eta : array-like
            As in :meth:`link`.

        Returns
        -------
        ndarray of float64
            Concave in ``eta``, 0 at ``eta`` = 0 and 1 for every loss of Table 1.

        Notes
        -----
        Closed forms (see the class docstring): exponential and canonical exponential
        :math:`2\sqrt{\eta(1-\eta)}`; logistic :math:`-\eta\ln\eta - (1-\eta)\ln(1-\eta)`;
        squared and squared hinge :math:`4\eta(1-\eta)`; canonical squared
        :math:`\eta(1-\eta)`; spherical and canonical spherical
        :math:`1 - \sqrt{\eta^2 + (1-\eta)^2}`, computed as
        :math:`2\eta(1-\eta) / (1 + \sqrt{\eta^2 + (1-\eta)^2})` (no cancellation near 0 and 1).
        A proper composite loss has the Bayes risk of its proper loss (Agarwal 2014,
        section 3).

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> get("exponential").bayes_risk([0.0, 0.5, 1.0])
        array([0., 1., 0.])
        """
        eta = _check_eta(eta, "bayes_risk")
        return _out(self._bayes_risk(eta))

    def conditional_regret(self, eta: Any, yhat: Any) -> np.ndarray:
        r"""Conditional regret :math:`L(\eta, \hat y) - H(\eta) \ge 0`.

        Parameters
        ----------
        eta, yhat : array-like
            As in :meth:`conditional_risk`.

        Returns
        -------
        ndarray of float64
            Non-negative (rounding errors of order 1e-16 below 0 are set to 0);
            ``inf`` where the risk is infinite.

        Notes
        -----
        The :math:`\ell`-regret of a scorer is the mean of this over
        :math:`X`: :math:`\mathrm{regret}_\ell[f] = E_X[L(\eta(X), f(X)) - H(\eta(X))]`
        (Agarwal 2014, Eqs. 10-12). For a :math:`\lambda`-strongly proper loss it is at
        least :math:`\frac{\lambda}{2}(\eta - \psi^{-1}(\hat y))^2`.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> float(get("squared").conditional_regret(0.75, 0.0))   # (yhat - psi(eta))^2 = 0.5^2
        0.25
        """
        eta = _check_eta(eta, "conditional_regret")
        v = _check_yhat(yhat, "conditional_regret")
        risk = np.asarray(self.conditional_risk(eta, v))
        with np.errstate(invalid="ignore"):
            regret = risk - self._bayes_risk(eta)
        return _out(np.maximum(regret, 0.0))

    # -- bounds --------------------------------------------------------------------

    def regret_bound(self, surrogate_regret: Any, p: float) -> float | np.ndarray:
        r"""Agarwal's Theorem 13: a bound on the ranking regret from the surrogate regret.

        Parameters
        ----------
        surrogate_regret : float or array-like
            :math:`\mathrm{regret}_\ell[f] = \mathrm{er}_\ell[f] - \mathrm{er}_\ell^*`, finite
            and non-negative.
        p : float
            :math:`P(Y = 1)`, in (0, 1).

        Returns
        -------
        float or ndarray
            The bound; values of 1 or more say nothing (a ranking regret is at most 1).

        Notes
        -----
        For a :math:`\lambda`-strongly proper composite loss and any scorer
        :math:`f` with values in the prediction space,

        .. math:: \mathrm{regret}_{rank}[f] \le \frac{\sqrt 2}{p(1-p)\sqrt\lambda}
                  \sqrt{\mathrm{regret}_\ell[f]}.

        For a bounded prediction space this bounds the ranking regret of the clipped
        scores :math:`\mathrm{clip}(f)`, whose surrogate regret :meth:`loss` measures.
        Reference: S. Agarwal, "Surrogate regret bounds for bipartite ranking via strongly
        proper losses", JMLR 15, 2014, Theorem 13.

        Examples
        --------
        Logistic loss (lambda = 4), balanced classes, surrogate regret 0.01:
        sqrt(2) / (0.25 * 2) * 0.1.

        >>> from rankwise.losses._proper import get
        >>> round(get("logistic").regret_bound(0.01, 0.5), 12)
        0.282842712475
        """
        func = "regret_bound"
        r = _check_regret(surrogate_regret, func)
        p = _check_p(p, func)
        factor = math.sqrt(2.0) / (p * (1.0 - p) * math.sqrt(self.strong_properness))
        return factor * np.sqrt(r) if isinstance(r, np.ndarray) else factor * math.sqrt(r)

    def low_noise_bound(self, surrogate_regret: Any, p: float, alpha: float, c_alpha: float) -> float | np.ndarray:
        r"""Agarwal's Theorem 15: the ranking regret bound under a low-noise condition.

        Parameters
        ----------
        surrogate_regret : float or array-like
            :math:`\mathrm{regret}_\ell[f]`, finite and non-negative.
        p : float
            :math:`P(Y = 1)`, in (0, 1).
        alpha : float
            The exponent :math:`\alpha \ge 0` of the low-noise condition.
        c_alpha : float
            The constant :math:`C_\alpha > 0`. The paper leaves it implicit: it depends on
            the constant :math:`C` of the low-noise condition and on :math:`\alpha` only
            (not on :math:`\ell`, :math:`p` or :math:`f`). With ``alpha = 0`` and
            ``c_alpha = 1`` the bound is Theorem 13's (:meth:`regret_bound`).

        Returns
        -------
        float or ndarray

        Notes
        -----
        If :math:`P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha` for all :math:`x` and
        :math:`t > 0`, then for a :math:`\lambda`-strongly proper composite loss

        .. math:: \mathrm{regret}_{rank}[f] \le \frac{C_\alpha}{p(1-p)}
                  \left(\frac{2}{\lambda}\right)^{\frac{1+\alpha}{2+\alpha}}
                  \mathrm{regret}_\ell[f]^{\frac{1+\alpha}{2+\alpha}}.

        The exponent grows from 1/2 (no condition) towards 1 as the noise gets lower.
        Reference: S. Agarwal, "Surrogate regret bounds for bipartite ranking via strongly
        proper losses", JMLR 15, 2014, Theorem 15.

        Examples
        --------
        >>> from rankwise.losses._proper import get
        >>> sq = get("squared")                                 # lambda = 8
        >>> round(sq.low_noise_bound(0.04, 0.5, alpha=0.0, c_alpha=1.0), 12)
        0.4
        >>> round(sq.regret_bound(0.04, 0.5), 12)              # the same
        0.4
        """
        func = "low_noise_bound"
        r = _check_regret(surrogate_regret, func)
        p = _check_p(p, func)
        alpha = check_param(alpha, "alpha", func, low=0.0)
        c_alpha = check_param(c_alpha, "c_alpha", func, low=0.0, low_inclusive=False)
        e = (1.0 + alpha) / (2.0 + alpha)
        factor = c_alpha / (p * (1.0 - p)) * (2.0 / self.strong_properness) ** e
        return factor * np.power(r, e) if isinstance(r, np.ndarray) else factor * r**e

    # -- construction from a Bayes risk ---------------------------------------------

    @classmethod
    def from_bayes_risk(
        cls,
        bayes_risk: Callable[[np.ndarray], np.ndarray],
        d_bayes_risk: Callable[[np.ndarray], np.ndarray],
        d2_bayes_risk: Callable[[np.ndarray], np.ndarray],
        *,
        strong_properness: float,
        d3_bayes_risk: Callable[[np.ndarray], np.ndarray] | None = None,
        name: str = "custom",
    ) -> "ProperCompositeLoss":
        r"""The proper loss on probabilities whose conditional Bayes risk is a given concave ``H``.

        Parameters
        ----------
        bayes_risk, d_bayes_risk, d2_bayes_risk : callable
            :math:`H`, :math:`H'` and :math:`H''`, vectorised over float64 arrays of
            probabilities (:math:`H'` may be infinite at 0 and 1).
        strong_properness : float
            :math:`\lambda > 0` with :math:`-H'' \ge \lambda` on (0, 1); checked on a grid
            of 9,999 points (``ValueError`` if :math:`-H''` falls below it).
        d3_bayes_risk : callable, optional
            :math:`H'''`, needed only by :meth:`d2loss`.
        name : str
            A name for display; the result is not added to :data:`LOSSES`.

        Returns
        -------
        ProperCompositeLoss
            Prediction space [0, 1], identity link (the prediction is the probability).

        Notes
        -----
        .. math:: c(1, e) = H(e) + (1 - e) H'(e), \qquad c(-1, e) = H(e) - e H'(e),

        so that :math:`L(\eta, e) = H(e) + (\eta - e) H'(e)`, the tangent of :math:`H` at
        :math:`e` evaluated at :math:`\eta`: by concavity it is minimised at :math:`e = \eta`,
        with value :math:`H(\eta)`, and a :math:`\lambda`-strongly concave :math:`H` gives a
        :math:`\lambda`-strongly proper loss. Derivatives:
        :math:`\partial_e c(y, e) = (\mathbf 1\{y=1\} - e) H''(e)`; at :math:`e` = 0 and 1, where
        :math:`H''` may be infinite, :meth:`dloss` and :meth:`d2loss` return their limits
        from inside, evaluated 1e-12 from the end. Reference: Agarwal 2014,
        section 5.

        Examples
        --------
        ``H(e) = 4 e (1 - e)`` gives ``c(1, e) = 4 (1 - e)^2``, the squared loss on
        probabilities:

        >>> import numpy as np
        >>> from rankwise.losses._proper import ProperCompositeLoss
        >>> brier = ProperCompositeLoss.from_bayes_risk(
        ...     lambda e: 4 * e * (1 - e), lambda e: 4 - 8 * e, lambda e: np.full_like(e, -8.0),
        ...     strong_properness=8.0, name="brier")
        >>> brier.loss([1, 0], [0.75, 0.75])     # 4 (1/4)^2, 4 (3/4)^2
        array([0.25, 2.25])
        """
        func = "from_bayes_risk"
        for arg, fn in (("bayes_risk", bayes_risk), ("d_bayes_risk", d_bayes_risk), ("d2_bayes_risk", d2_bayes_risk)):
            if not callable(fn):
                raise TypeError(f"The '{arg}' parameter of {func} must be callable. Got {type(fn).__name__} instead.")
        if d3_bayes_risk is not None and not callable(d3_bayes_risk):
            raise TypeError(
                f"The 'd3_bayes_risk' parameter of {func} must be callable or None. "
                f"Got {type(d3_bayes_risk).__name__} instead."
            )
        lam = check_param(strong_properness, "strong_properness", func, low=0.0, low_inclusive=False)
        grid = np.linspace(0.0, 1.0, 10001)[1:-1]
        w = -np.asarray(d2_bayes_risk(grid), dtype=np.float64)
        if w.ndim == 0:
            w = np.full(grid.shape, float(w))
        if w.shape != grid.shape or not np.all(np.isfinite(w)):
            raise ValueError(
                f"The 'd2_bayes_risk' parameter of {func} must return finite values, one per probability in (0, 1)."
            )
        if w.min() < lam * (1.0 - 1e-9):
            k = int(np.argmin(w))
            raise ValueError(
                f"The 'strong_properness' parameter of {func} must be at most inf -H'' over (0, 1); "
                f"-H''({grid[k]:.6g}) = {w[k]:.6g} < {lam!r}: H is not {lam!r}-strongly concave."
            )

        def value(y: np.ndarray, e: np.ndarray) -> np.ndarray:
            coef = (y > 0) - e                      # 1{y = 1} - e
            with np.errstate(invalid="ignore", divide="ignore"):
                tangent = np.where(coef == 0.0, 0.0, coef * d_bayes_risk(e))
            return bayes_risk(e) + tangent

        # H'' may be infinite at 0 and 1 (the entropy's is): the derivatives there are
        # their limits from inside, evaluated _END_OFFSET from the end.
        def grad(y: np.ndarray, e: np.ndarray) -> np.ndarray:
            e = np.clip(e, _END_OFFSET, 1.0 - _END_OFFSET)
            return ((y > 0) - e) * d2_bayes_risk(e)

        hess = None
        if d3_bayes_risk is not None:

            def hess(y: np.ndarray, e: np.ndarray) -> np.ndarray:
                e = np.clip(e, _END_OFFSET, 1.0 - _END_OFFSET)
                return -d2_bayes_risk(e) + ((y > 0) - e) * d3_bayes_risk(e)

        return cls(
            name=str(name),
            prediction_space=(0.0, 1.0),
            strong_properness=lam,
            formula="c(1,e) = H(e) + (1-e) H'(e), c(-1,e) = H(e) - e H'(e)",
            _value=value,
            _grad=grad,
            _hess=hess,
            _link=_identity,
            _inverse_link=_identity,
            _bayes_risk=lambda eta: np.asarray(bayes_risk(eta), dtype=np.float64),
        )


# ----------------------------------------------------------------------------
# Kernels of the eight losses. Arguments are clean float64 arrays: y in {-1., +1.},
# v already clipped to the prediction space. Called under np.errstate(over="ignore").
# ----------------------------------------------------------------------------


def _identity(x: np.ndarray) -> np.ndarray:
    return np.array(x, dtype=np.float64)


def _half_logit(eta: np.ndarray) -> np.ndarray:
    return 0.5 * (np.log(eta) - np.log1p(-eta))


def _logit(eta: np.ndarray) -> np.ndarray:
    return np.log(eta) - np.log1p(-eta)


def _two_eta_minus_one(eta: np.ndarray) -> np.ndarray:
    return 2.0 * eta - 1.0


def _half_one_plus(v: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + v)


def _H_exponential(eta: np.ndarray) -> np.ndarray:
    return 2.0 * np.sqrt(eta * (1.0 - eta))


def _H_entropy(eta: np.ndarray) -> np.ndarray:
    return entr(eta) + entr(1.0 - eta)


def _H_spherical(eta: np.ndarray) -> np.ndarray:
    # 1 - sqrt(eta^2 + (1-eta)^2) = 2 eta (1-eta) / (1 + sqrt(...)): no cancellation at the ends.
    return 2.0 * eta * (1.0 - eta) / (1.0 + np.hypot(eta, 1.0 - eta))


# exponential: exp(-y v) ---------------------------------------------------------


def _exp_value(y, v):
    return np.exp(-y * v)


def _exp_grad(y, v):
    return -y * np.exp(-y * v)


def _exp_hess(y, v):
    return np.exp(-y * v)


def _exp_inverse_link(v):
    return expit(2.0 * v)


# logistic: ln(1 + exp(-y v)) ------------------------------------------------------


def _log_value(y, v):
    return np.logaddexp(0.0, -y * v)


def _log_grad(y, v):
    return -y * expit(-y * v)


def _log_hess(y, v):
    return expit(v) * expit(-v)


# squared: (1 - y v)^2 on [-1, 1]; squared hinge: max(0, 1 - y v)^2 ---------------


def _sq_value(y, v):
    return (1.0 - y * v) ** 2


def _sq_grad(y, v):
    return -2.0 * y * (1.0 - y * v)


def _sq_hess(y, v):
    return np.full(np.broadcast_shapes(np.shape(y), np.shape(v)), 2.0)


def _sqh_value(y, v):
    return np.maximum(0.0, 1.0 - y * v) ** 2


def _sqh_grad(y, v):
    return -2.0 * y * np.maximum(0.0, 1.0 - y * v)


# spherical on [0, 1]: c(1, e) = 1 - e / n(e), c(-1, e) = 1 - (1-e) / n(e) ---------
# With q = e for y = 1 and q = 1 - e for y = -1 (n is symmetric under e <-> 1-e):
# c = 1 - q/n = (1-q)^2 / (n (n + q)), dc/dq = -(1-q)/n^3, d2c/dq2 = (-4q^2 + 7q - 2)/n^5;
# dq/de = y.


def _sph_value(y, e):
    q = np.where(y > 0, e, 1.0 - e)
    n = np.hypot(q, 1.0 - q)
    return (1.0 - q) ** 2 / (n * (n + q))


def _sph_grad(y, e):
    q = np.where(y > 0, e, 1.0 - e)
    n = np.hypot(q, 1.0 - q)
    return -y * (1.0 - q) / n**3


def _sph_hess(y, e):
    q = np.where(y > 0, e, 1.0 - e)
    n = np.hypot(q, 1.0 - q)
    return (-4.0 * q * q + 7.0 * q - 2.0) / n**5


def _sph_inverse_link(v):
    return np.array(v, dtype=np.float64)   # already clipped to [0, 1]


# canonical exponential: sqrt(1 + (v/2)^2) - y v / 2 on R ---------------------------
# With m = y v / 2 and h = sqrt(1 + m^2): l = h - m, = 1 / (h + m) for m > 0 (no
# cancellation). Canonical link: dl/dv = psi^{-1}(v) - 1{y = 1}; d2l/dv2 = 1 / (4 h^3).


def _cexp_small(v):
    """min(eta, 1 - eta) for eta = psi^{-1}(v) = (1 + v / sqrt(4 + v^2)) / 2, stably."""
    a = np.abs(v)
    h = np.hypot(2.0, a)
    return 2.0 / h / (h + a)


def _cexp_inverse_link(v):
    s = _cexp_small(v)
    return np.where(v < 0, s, 1.0 - s)


def _cexp_value(y, v):
    m = 0.5 * y * v
    a = np.abs(m)
    h = np.hypot(1.0, a)
    return np.where(m > 0, 1.0 / (h + a), h + a)


def _cexp_grad(y, v):
    # eta_hat - 1 for y = 1, eta_hat for y = -1; with s = min(eta_hat, 1 - eta_hat).
    s = _cexp_small(v)
    same_side = (y > 0) == (v >= 0)          # the label agrees with the sign of v
    return np.where(same_side, -y * s, -y * (1.0 - s))


def _cexp_hess(y, v):
    h = np.hypot(1.0, 0.5 * np.abs(v))
    return 0.25 * (1.0 / h) ** 3


def _cexp_link(eta):
    return (2.0 * eta - 1.0) / np.sqrt(eta * (1.0 - eta))


# canonical squared: (1 - y v)^2 / 4 on [-1, 1] -----------------------------------


def _csq_value(y, v):
    return 0.25 * (1.0 - y * v) ** 2


def _csq_grad(y, v):
    return -0.5 * y * (1.0 - y * v)


def _csq_hess(y, v):
    return np.full(np.broadcast_shapes(np.shape(y), np.shape(v)), 0.5)


# canonical spherical: 1 - (sqrt(2 - v^2) + y v) / 2 on [-1, 1] ----------------------
# With m = y v and s = sqrt(2 - v^2) (>= 1 on [-1, 1]):
# l = (1 - m)(s - m) / (2 (1 + s)) (no cancellation near m = 1); dl/dv = (v/s - y)/2;
# d2l/dv2 = s^-3.


def _csph_value(y, v):
    m = y * v
    s = np.sqrt(2.0 - v * v)
    return (1.0 - m) * (s - m) / (2.0 * (1.0 + s))


def _csph_grad(y, v):
    return 0.5 * (v / np.sqrt(2.0 - v * v) - y)


def _csph_hess(y, v):
    return (2.0 - v * v) ** -1.5


def _csph_link(eta):
    return (2.0 * eta - 1.0) / np.hypot(eta, 1.0 - eta)


def _csph_inverse_link(v):
    # psi^{-1}(v) = (1 + v / s) / 2; its smaller side (s - |v|) / (2 s) = (1 - |v|)(1 + |v|) / (s (s + |v|)).
    a = np.abs(v)
    s = np.sqrt(2.0 - a * a)
    small = (1.0 - a) * (1.0 + a) / (s * (s + a))
    return np.where(v < 0, small, 1.0 - small)


# ----------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------

_R = (-_INF, _INF)
_PM1 = (-1.0, 1.0)

# name, prediction space, lambda, formula, loss, derivative, second derivative, link,
# inverse link, Bayes risk.
_ALL = tuple(ProperCompositeLoss(*row) for row in (
    ("exponential", _R, 4.0, "exp(-y yhat)",
     _exp_value, _exp_grad, _exp_hess, _half_logit, _exp_inverse_link, _H_exponential),
    ("logistic", _R, 4.0, "ln(1 + exp(-y yhat))", _log_value, _log_grad, _log_hess, _logit, expit, _H_entropy),
    ("squared", _PM1, 8.0, "(1 - y yhat)^2, yhat clipped to [-1, 1]",
     _sq_value, _sq_grad, _sq_hess, _two_eta_minus_one, _half_one_plus, lambda eta: 4.0 * eta * (1.0 - eta)),
    ("squared_hinge", _PM1, 8.0, "max(0, 1 - y yhat)^2, yhat clipped to [-1, 1]",
     _sqh_value, _sqh_grad, _sq_hess, _two_eta_minus_one, _half_one_plus, lambda eta: 4.0 * eta * (1.0 - eta)),
    ("spherical", (0.0, 1.0), 1.0,
     "c(1, e) = 1 - e / sqrt(e^2 + (1-e)^2), c(-1, e) = 1 - (1-e) / sqrt(e^2 + (1-e)^2), e = yhat clipped to [0, 1]",
     _sph_value, _sph_grad, _sph_hess, _identity, _sph_inverse_link, _H_spherical),
    ("canonical_exponential", _R, 4.0, "sqrt(1 + (yhat/2)^2) - y yhat / 2",
     _cexp_value, _cexp_grad, _cexp_hess, _cexp_link, _cexp_inverse_link, _H_exponential),
    ("canonical_squared", _PM1, 2.0, "(1 - y yhat)^2 / 4, yhat clipped to [-1, 1]",
     _csq_value, _csq_grad, _csq_hess, _two_eta_minus_one, _half_one_plus, lambda eta: eta * (1.0 - eta)),
    ("canonical_spherical", _PM1, 1.0, "1 - (sqrt(2 - yhat^2) + y yhat) / 2, yhat clipped to [-1, 1]",
     _csph_value, _csph_grad, _csph_hess, _csph_link, _csph_inverse_link, _H_spherical),
))

#: The losses of Agarwal (2014), Table 1, by name (read-only).
LOSSES: Mapping[str, ProperCompositeLoss] = MappingProxyType({loss.name: loss for loss in _ALL})


def get(name: str | ProperCompositeLoss) -> ProperCompositeLoss:
    """Look up a proper composite loss by name.

    Parameters
    ----------
    name : str or ProperCompositeLoss
        One of ``"exponential"``, ``"logistic"``, ``"squared"``, ``"squared_hinge"``,
        ``"spherical"``, ``"canonical_exponential"``, ``"canonical_squared"``,
        ``"canonical_spherical"``; an instance is returned as it is.

    Returns
    -------
    ProperCompositeLoss

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid ones.

    Notes
    -----
    The losses of Table 1 of Agarwal (2014); see :class:`ProperCompositeLoss`.

    Examples
    --------
    >>> from rankwise.losses._proper import get
    >>> get("canonical_squared")
    ProperCompositeLoss(name='canonical_squared', prediction_space=(-1.0, 1.0), strong_properness=2.0)
    """
    if isinstance(name, ProperCompositeLoss):
        return name
    return LOSSES[check_choice(name, "name", "get", tuple(LOSSES))]


_BALANCED_FACTORS = {"exponential": 3.0 / math.sqrt(2.0), "logistic": 2.0}


def balanced_regret_bound(surrogate_regret: Any, loss: str | ProperCompositeLoss) -> float | np.ndarray:
    r"""Kotlowski et al.'s bound on the ranking regret from a *balanced* surrogate regret.

    Parameters
    ----------
    surrogate_regret : float or array-like
        The regret of the scorer under the balanced loss (below), finite and
        non-negative.
    loss : {"exponential", "logistic"} or ProperCompositeLoss
        The underlying loss (or its instance from :data:`LOSSES`); the bound is specific
        to these two.

    Returns
    -------
    float or ndarray

    Notes
    -----
    With :math:`p = P(Y = 1)`, the balanced loss weighs each class to total mass 1/2:

    .. math:: \ell_{bal}(y, \hat y) = \frac{\ell(1, \hat y)}{2p} \mathbf 1\{y = 1\}
              + \frac{\ell(-1, \hat y)}{2(1-p)} \mathbf 1\{y = -1\},

    and for every scorer :math:`f`

    .. math:: \mathrm{regret}_{rank}[f] \le \tfrac{3}{\sqrt 2} \sqrt{\mathrm{regret}_{exp,bal}[f]},
              \qquad \mathrm{regret}_{rank}[f] \le 2 \sqrt{\mathrm{regret}_{log,bal}[f]}.

    No :math:`p` appears: it is inside the balanced loss. Reference: Kotlowski,
    Dembczynski & Huellermeier, ICML 2011, as stated in Agarwal 2014, Eqs. 28-30.

    Examples
    --------
    >>> from rankwise.losses._proper import balanced_regret_bound
    >>> balanced_regret_bound(0.01, "logistic")     # 2 * sqrt(0.01)
    0.2
    """
    func = "balanced_regret_bound"
    if isinstance(loss, ProperCompositeLoss):
        key = loss.name if LOSSES.get(loss.name) is loss else None
        shown = f"the {loss.name!r} ProperCompositeLoss"
    else:
        key, shown = loss, repr(loss)
    if key not in _BALANCED_FACTORS:
        raise ValueError(
            f"The 'loss' parameter of {func} must be 'exponential' or 'logistic' (the only losses with a "
            f"balanced-loss bound, Kotlowski et al. 2011). Got {shown} instead."
        )
    r = _check_regret(surrogate_regret, func)
    factor = _BALANCED_FACTORS[key]
    return factor * np.sqrt(r) if isinstance(r, np.ndarray) else factor * math.sqrt(r)
