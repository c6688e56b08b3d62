r"""Single-index models :math:`\eta(x) = g(w^\top x + b)`, ``x`` Gaussian or uniform: the exact law
of the index ``w^T x`` and :class:`SingleIndex`, whose ``"noise"`` link sets the low-noise exponent."""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable

import numpy as np
from scipy import integrate, optimize
from scipy.special import expit, ndtr, ndtri

from .. import phi as _phi
from .._validation import check_choice, check_param
from ._base import Distribution
from ._checks import _as_vector, _check_p
from ._laws import _QUAD, _phi_jumps
from ._results import TheoryResult, _closed, _quadrature
from ._scores import _is_constant, _is_linear

_MAX_UNIFORM_TERMS = 8   # exact law of w^T x for x uniform: 2^m terms, m nonzero weights


class _GaussianIndex:
    """t = w^T x, x ~ N(0, I): t ~ N(0, ||w||^2)."""

    def __init__(self, w: np.ndarray):
        self.sd = float(np.linalg.norm(w))
        self.support = (-12.0 * self.sd, 12.0 * self.sd)   # the rest has mass < 4e-33
        self.breaks: list[float] = []

    def cdf(self, t):
        return ndtr(np.asarray(t, dtype=np.float64) / self.sd)

    def pdf(self, t: float) -> float:
        z = t / self.sd
        return math.exp(-0.5 * z * z) / (self.sd * math.sqrt(2.0 * math.pi))

    def ppf(self, u: float) -> float:
        return self.sd * float(ndtri(u))

    def grid(self) -> np.ndarray:
        return self.sd * np.linspace(-8.0, 8.0, 2001)


class _UniformIndex:
    r"""t = w^T x, x uniform on [-1, 1]^d: t = sum_i a_i U_i, a_i = |w_i| > 0, U_i ~ U[-1, 1], with

    F(t) = 1/(m! prod(2 a_i)) sum_{eps in {-1,1}^m} prod(eps) (t + eps^T a)_+^m

    (the Irwin-Hall formula with unequal widths; the density has power m - 1 and
    (m - 1)!), evaluated on the lower tail and reflected (F(t) = 1 - F(-t)) to limit
    cancellation."""

    def __init__(self, w: np.ndarray, func: str):
        a = np.abs(w[w != 0.0])
        m = a.size
        if m > _MAX_UNIFORM_TERMS:
            raise ValueError(
                f"{func} with x_dist='uniform' computes the law of w^T x exactly from 2^m terms and accepts at "
                f"most {_MAX_UNIFORM_TERMS} nonzero weights. Got {m}; use x_dist='gaussian' or fewer nonzero weights."
            )
        self.a, self.m = a, m
        eps = np.array(list(itertools.product((-1.0, 1.0), repeat=m)))
        self.shifts = eps @ a
        self.signs = eps.prod(axis=1)
        self.norm = math.factorial(m) * float(np.prod(2.0 * a))
        self.half = float(a.sum())
        self.support = (-self.half, self.half)
        # kinks of the density (jumps for m = 1, where they are the ends of the support)
        self.breaks = sorted({float(v) for v in np.round(-self.shifts, 15) if abs(v) < self.half}) if m <= 4 else []

    def pdf(self, t: float) -> float:
        if abs(t) >= self.half:
            return 0.0
        if self.m == 1:
            return 0.5 / self.half
        z = np.maximum(-abs(t) + self.shifts, 0.0) ** (self.m - 1)
        return max(float(z @ self.signs) * self.m / self.norm, 0.0)

    def _lower(self, t: np.ndarray) -> np.ndarray:
        out = np.empty(t.shape)
        for start in range(0, t.size, 8192):
            tt = t[start:start + 8192]
            z = np.maximum(tt[:, None] + self.shifts[None, :], 0.0) ** self.m
            out[start:start + 8192] = z @ self.signs / self.norm
        return out

    def cdf(self, t):
        t = np.asarray(t, dtype=np.float64)
        flat = t.ravel()
        if self.m == 1:
            out = (np.clip(flat, -self.half, self.half) + self.half) / (2.0 * self.half)
        else:
            low = np.clip(self._lower(np.minimum(flat, -flat)), 0.0, 0.5)
            out = np.where(flat <= 0.0, low, 1.0 - low)
        out = np.clip(out, 0.0, 1.0)
        return out.reshape(t.shape) if t.ndim else out[0]

    def ppf(self, u: float) -> float:
        if self.m == 1:
            return self.half * (2.0 * u - 1.0)
        if u <= 0.0:
            return -self.half
        if u >= 1.0:
            return self.half
        return optimize.brentq(lambda t: float(self.cdf(np.array([t]))[0]) - u, -self.half, self.half,
                               xtol=1e-14, rtol=1e-15)

    def grid(self) -> np.ndarray:
        return np.linspace(-self.half, self.half, 2001)


class SingleIndex(Distribution):
    r"""A single-index model :math:`\eta(x) = g(w^\top x + b)` with :math:`x` Gaussian or uniform.

    Parameters
    ----------
    w : array-like of shape (d,)
        The index direction (nonzero).
    link : {"logistic", "noise"} or callable, default "logistic"
        ``"logistic"``: :math:`g(t) = \mathrm{expit}(\text{scale}\cdot t)`.
        ``"noise"``: the link that sets the low-noise exponent :math:`\alpha` (Notes).
        A callable: a vectorised nondecreasing :math:`g: \mathbb R \to [0, 1]` (checked
        on a grid).
    p : float in (0, 1), optional
        Target :math:`P(Y=1)`. ``None``: implied by the model (then ``b = intercept``, or
        0, and for the noise link ``p = 1/2``). Given: the logistic link solves for the
        intercept :math:`b`; the noise link moves its centre :math:`c` (Notes); a callable
        link does not accept it.
    x_dist : {"gaussian", "uniform"}, default "gaussian"
        :math:`x \sim N(0, I_d)` or uniform on :math:`[-1, 1]^d` (at most 8 nonzero
        weights: the law of :math:`w^\top x` is computed exactly from :math:`2^m` terms).
    alpha : float in (0, 1], optional
        Noise exponent of the ``"noise"`` link (default 1.0); not accepted by other links.
    scale : float > 0, default 1.0
        Slope of the logistic link.
    intercept : float, optional
        :math:`b` (logistic or callable link; default 0, or solved from ``p``).

    Attributes
    ----------
    noise_exponent : float or None
        The :math:`\alpha` of :math:`\sup_x P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha`:
        ``alpha`` for the noise link, 1.0 for the logistic link (:math:`\eta(X)` then has a
        bounded density), ``None`` for a callable link.
    noise_constant : float or None
        A valid :math:`C` for the noise link, :math:`2^{\alpha+1}\max(c, 1-c)`
        (:math:`= 2^\alpha`, attained, when :math:`c = 1/2`); ``None`` otherwise.

    Notes
    -----
    **The noise link.** With :math:`T = w^\top X` and :math:`F` its (continuous, exactly
    known) cdf, :math:`U = F(T)` is uniform on (0, 1), and

    .. math:: \eta(x) = G(F(w^\top x)), \qquad
              G(u) = \tfrac12 + \tfrac12\,\mathrm{sign}(u - c)
              \left(\frac{|u - c|}{c\,\mathbf 1\{u < c\} + (1-c)\,\mathbf 1\{u \ge c\}}\right)^{1/\alpha}.

    With :math:`c = 1/2` (the default, :math:`p = 1/2`), :math:`\eta(X) = \frac12 +
    \frac12\,\mathrm{sign}(V)|V|^{1/\alpha}`, :math:`V = 2U - 1` uniform on [-1, 1]; for
    :math:`x` uniform on [-1, 1] and :math:`w = T e_1` this is
    :math:`g(t) = \frac12 + \frac12\mathrm{sign}(t)|t/T|^{1/\alpha}`. Then
    :math:`P(|\eta(X) - \frac12| \le t) = \min(1, (2t)^\alpha)`, and since the density of
    :math:`\eta(X)` is symmetric and decreasing away from 1/2 no interval of length
    :math:`2t` holds more: :math:`\sup_x P(|\eta(X) - \eta(x)| \le t) = \min(1, (2t)^\alpha)`,
    the low-noise condition of Clémençon & Robbiano / Agarwal's Theorem 15 with exponent
    exactly :math:`\alpha` and :math:`C = 2^\alpha`. Exponents above 1 are impossible for
    a continuous :math:`\eta(X)` (its density is bounded near some point), hence
    :math:`\alpha \in (0, 1]`; :math:`\alpha = 1` makes :math:`\eta(X)` uniform. Another
    centre :math:`c` gives :math:`p = \frac12 + \frac{(1 - 2c)\alpha}{2(1 + \alpha)}`
    (so :math:`|p - \frac12| < \frac{\alpha}{2(1+\alpha)}`), the same exponent and
    :math:`C \le 2^{\alpha+1}\max(c, 1-c)`.

    **Exact routes.** :math:`G(u) = g(F^{-1}(u) + b)` (for the noise link, the :math:`G`
    above), the quantile function of :math:`\eta(X)`, reduces everything about scores increasing in :math:`w^\top x` to
    one dimension: :math:`p = \int_0^1 G`, :math:`E|\eta(X) - \eta(X')| = 2\int_0^1 G(u)(2u -
    1)\,du` (Gini mean difference), :math:`\mathrm{er}^* = \frac12 - \frac{E|\eta - \eta'|}{4p(1-p)}`,
    :math:`W_\phi(\eta) = \frac1p\int_0^1 G(u)\phi(u)\,du`, by quadrature; for the noise link
    :math:`E|\eta - \eta'| = \frac{2((1-c)^2 + c^2)}{1/\alpha + 2} - \frac{(1-2c)^2}{1/\alpha + 1}`
    in closed form (:math:`\frac{\alpha}{1 + 2\alpha}` at :math:`c = 1/2`, so
    :math:`\mathrm{er}^* = \frac{1}{2(1 + 2\alpha)}`). A :class:`LinearScore` along
    :math:`w` (a positive multiple) ranks as :math:`\eta`; along :math:`-w`, in reverse.
    Everything else: Monte Carlo.

    Examples
    --------
    >>> d = SingleIndex([1.0, 0.0], link="noise", alpha=0.5)
    >>> d.p, d.noise_exponent
    (0.5, 0.5)
    >>> r = d.bayes_ranking_error()                   # 1 / (2 (1 + 2 alpha)) = 1/4
    >>> r.value, r.method
    (0.25, 'closed_form')
    >>> float(d.eta(np.zeros((1, 2)))[0])              # eta = 1/2 at the median of the index
    0.5
    """

    def __init__(self, w: Any, link: Any = "logistic", p: float | None = None, x_dist: str = "gaussian",
                 alpha: float | None = None, *, scale: float = 1.0, intercept: float | None = None):
        func = "SingleIndex"
        self.w = _as_vector(w, "w", func)
        if not self.w.any():
            raise ValueError(f"The 'w' parameter of {func} must be a nonzero vector (eta depends on x through w^T x).")
        self.x_dist = check_choice(x_dist, "x_dist", func, ("gaussian", "uniform"))
        self._law = _GaussianIndex(self.w) if self.x_dist == "gaussian" else _UniformIndex(self.w, func)
        if callable(link):
            self.link = "callable"
            self._g = link
        else:
            self.link = check_choice(link, "link", func, ("logistic", "noise"))
            self._g = None
        if alpha is not None and self.link != "noise":
            raise ValueError(f"The 'alpha' parameter of {func} only applies to link='noise'. Got alpha={alpha!r} "
                             f"with link={self.link!r}.")
        self.scale = check_param(scale, "scale", func, low=0.0, low_inclusive=False)
        if scale != 1.0 and self.link != "logistic":
            raise ValueError(f"The 'scale' parameter of {func} only applies to link='logistic'.")
        p_target = None if p is None else _check_p(p, func)

        if self.link == "noise":
            self.alpha = 1.0 if alpha is None else check_param(alpha, "alpha", func, low=0.0, high=1.0,
                                                                  low_inclusive=False)
            if intercept is not None:
                raise ValueError(f"The 'intercept' parameter of {func} does not apply to link='noise' "
                                 f"(its p is set through p=).")
            self.intercept = 0.0
            self._p_err = 0.0
            bound = self.alpha / (2.0 * (1.0 + self.alpha))
            if p_target is None:
                self.center = 0.5
            else:
                if not abs(p_target - 0.5) < bound:
                    raise ValueError(
                        f"The 'p' parameter of {func} with link='noise' and alpha={self.alpha!r} must lie in "
                        f"({0.5 - bound!r}, {0.5 + bound!r}) (p = 1/2 + (1 - 2c) alpha / (2 (1 + alpha)), c in (0, 1)). "
                        f"Got {p_target!r} instead."
                    )
                self.center = 0.5 - (p_target - 0.5) * (1.0 + self.alpha) / self.alpha
            self._p = 0.5 + (1.0 - 2.0 * self.center) * self.alpha / (2.0 * (1.0 + self.alpha))
        else:
            self.alpha = None
            self.center = None
            if self.link == "callable":
                if p_target is not None:
                    raise ValueError(f"The 'p' parameter of {func} cannot be set with a callable link; "
                                     f"pass intercept= instead (p is then computed).")
                self._check_link(func)
            b = 0.0 if intercept is None else check_param(intercept, "intercept", func)
            if p_target is not None:
                if intercept is not None:
                    raise ValueError(f"{func} takes p= or intercept=, not both (p sets the intercept).")
                b = self._solve_intercept(p_target)
            self.intercept = b
            self._p, self._p_err = self._expect(lambda g, u: g)
            if p_target is not None:
                self._p = p_target if abs(self._p - p_target) < 1e-10 else self._p
            if not 0.0 < self._p < 1.0:
                raise ValueError(f"{func}: the implied P(Y = 1) = {self._p!r} is not in (0, 1); eta is constant 0 or 1.")

    # -- the link -------------------------------------------------------------------

    def _check_link(self, func: str) -> None:
        grid = self._law.grid()
        try:
            vals = np.asarray(self._g(grid.copy()), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001
            raise TypeError(f"The 'link' callable of {func} must be vectorised: calling it on an array failed ({exc}).") from exc
        if vals.shape != grid.shape:
            raise TypeError(f"The 'link' callable of {func} must be vectorised: on an array of shape {grid.shape} "
                            f"it returned shape {vals.shape}.")
        if not np.isfinite(vals).all() or vals.min() < 0.0 or vals.max() > 1.0:
            raise ValueError(f"The 'link' callable of {func} must map the index range into [0, 1]; it does not.")
        if (np.diff(vals) < -1e-12).any():
            raise ValueError(f"The 'link' callable of {func} must be nondecreasing; it is not.")

    def _g_of_t(self, t: np.ndarray) -> np.ndarray:
        """g(t + b) for the logistic and callable links."""
        if self.link == "logistic":
            return expit(self.scale * (t + self.intercept))
        return np.clip(np.asarray(self._g(t + self.intercept), dtype=np.float64), 0.0, 1.0)

    def _noise_G(self, u: np.ndarray) -> np.ndarray:
        c, beta = self.center, 1.0 / self.alpha
        below = u < c
        z = np.where(below, (c - u) / c, (u - c) / (1.0 - c))
        z = np.clip(z, 0.0, 1.0) ** beta
        return 0.5 + 0.5 * np.where(below, -z, z)

    def _expect(self, h: Callable[[float, float], float], points: list[float] | None = None) -> tuple[float, float]:
        r"""``int_0^1 h(G(u), u) du`` by quadrature, ``G`` the quantile function of eta(X).

        Noise link: directly in ``u``. Other links: in ``t = w^T x`` with the exact density,
        ``int h(g(t + b), F(t)) f(t) dt`` (no quantile function needed); ``points`` are
        values of ``u`` where ``h`` jumps."""
        pts_u = sorted({q for q in (points or []) if 0.0 < q < 1.0})
        if self.link == "noise":
            if 0.0 < self.center < 1.0:
                pts_u = sorted(set(pts_u) | {self.center})
            val, err = integrate.quad(lambda u: h(float(self._noise_G(np.array([u]))[0]), u), 0.0, 1.0,
                                      points=pts_u or None, **_QUAD)
            return float(val), float(err)
        law = self._law
        lo, hi = law.support
        pts = sorted({*law.breaks, *(law.ppf(u) for u in pts_u)})
        pts = [t for t in pts if lo < t < hi]

        def integrand(t: float) -> float:
            f = law.pdf(t)
            if f == 0.0:
                return 0.0
            g = float(self._g_of_t(np.array([t]))[0])
            return h(g, float(law.cdf(np.array(t)))) * f

        val, err = integrate.quad(integrand, lo, hi, points=pts or None, **_QUAD)
        return float(val), float(err)

    def _solve_intercept(self, p_target: float) -> float:
        def excess(b: float) -> float:
            self.intercept = b
            return self._expect(lambda g, u: g)[0] - p_target

        width = 1.0
        while excess(-width) > 0.0 or excess(width) < 0.0:
            width *= 2.0
            if width > 1e6:
                raise ValueError(f"SingleIndex could not find an intercept giving p = {p_target!r}.")
        return optimize.brentq(excess, -width, width, xtol=1e-13, rtol=1e-13)

    # -- the Distribution interface -------------------------------------------------

    @property
    def p(self) -> float:
        return self._p

    @property
    def dim(self) -> int:
        return self.w.size

    @property
    def noise_exponent(self) -> float | None:
        if self.link == "noise":
            return self.alpha
        return 1.0 if self.link == "logistic" else None

    @property
    def noise_constant(self) -> float | None:
        if self.link != "noise":
            return None
        return 2.0 ** (self.alpha + 1.0) * max(self.center, 1.0 - self.center)

    def _eta(self, X: np.ndarray) -> np.ndarray:
        t = X @ self.w
        if self.link == "noise":
            return self._noise_G(np.asarray(self._law.cdf(t)))
        return self._g_of_t(t)

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.x_dist == "gaussian":
            return rng.standard_normal((n, self.dim))
        return rng.uniform(-1.0, 1.0, size=(n, self.dim))

    def _gini_mean_difference(self) -> tuple[float, float, str]:
        if self.link == "noise":
            c, beta = self.center, 1.0 / self.alpha
            gmd = 2.0 * ((1.0 - c) ** 2 + c ** 2) / (beta + 2.0) - (1.0 - 2.0 * c) ** 2 / (beta + 1.0)
            return gmd, 0.0, "closed_form"
        val, err = self._expect(lambda g, u: g * (2.0 * u - 1.0))
        return 2.0 * val, 2.0 * err, "quadrature"

    def _exact_bayes(self) -> TheoryResult:
        gmd, err, how = self._gini_mean_difference()
        scale = 1.0 / (4.0 * self.p * (1.0 - self.p))
        value = 0.5 - gmd * scale
        detail = "1/2 - E|eta - eta'| / (4 p (1-p)), E|eta - eta'| = 2 int_0^1 G(u)(2u - 1) du"
        if how == "closed_form":
            return _closed(value, detail + " in closed form for the noise link")
        # error of E|eta - eta'| plus that of p propagated through 1 / (4 p (1 - p))
        p_term = self._p_err * gmd * scale * abs(1.0 - 2.0 * self.p) / (self.p * (1.0 - self.p))
        return _quadrature(value, err * scale + p_term, detail + " by quadrature")

    def _direction(self, score: Callable) -> int:
        """+1 / -1 if score is increasing / decreasing in w^T x (eta or a LinearScore along +-w), else 0."""
        if self._is_own_eta(score):
            return 1
        if _is_linear(score, self.dim) and not _is_constant(score):
            c = float(score.coef @ self.w) / float(self.w @ self.w)
            if c != 0.0 and np.linalg.norm(score.coef - c * self.w) <= 1e-12 * np.linalg.norm(score.coef):
                return 1 if c > 0 else -1
        return 0

    def _exact_error(self, score: Callable) -> TheoryResult | None:
        direction = self._direction(score)
        if direction == 0:
            return super()._exact_error(score)
        bayes = self._exact_bayes()
        if direction > 0:
            return bayes._shift(bayes.value, "a score increasing in w^T x ranks as eta: " + bayes.detail)
        return bayes._shift(1.0 - bayes.value, "a score decreasing in w^T x ranks in reverse: 1 - er*")

    def _exact_w_phi(self, score: Callable, phi: _phi.Phi) -> TheoryResult | None:
        direction = self._direction(score)
        if direction == 0:
            return None
        pts = _phi_jumps(phi)
        if direction > 0:
            val, err = self._expect(lambda g, u: g * float(phi(u)), pts)
        else:   # F_s(s(X)) = 1 - U: W = (1/p) int G(u) phi(1 - u) du
            val, err = self._expect(lambda g, u: g * float(phi(1.0 - u)), [1.0 - q for q in pts])
        return _quadrature(val / self.p, err / self.p,
                           "(1/p) int_0^1 G(u) phi(u) du, G the quantile function of eta(X), by quadrature")

    def __repr__(self) -> str:
        extra = f", alpha={self.alpha!r}" if self.link == "noise" else ""
        return f"SingleIndex(w={self.w.tolist()!r}, link={self.link!r}, x_dist={self.x_dist!r}{extra}, p={self.p:.6g})"

