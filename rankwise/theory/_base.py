"""The :class:`Distribution` base class: sampling, the ranking quantities and their routes (exact
where a subclass provides one, else Monte Carlo), and the shared base of the class-conditional
(Gaussian) families."""

from __future__ import annotations

import abc
import math
from typing import Any, Callable

import numpy as np
from scipy.special import expit

from .. import losses as _losses
from .. import phi as _phi
from .._validation import check_choice
from ._checks import _check_method, _check_n, _check_X, _rng
from ._laws import _is_auc_phi, _Mixture, _mixture_error, _mixture_w_phi
from ._montecarlo import _CHUNK, _JACKKNIFE_GROUPS, _N_MC, _U_DETAIL, _pair_projection, _w_phi_jackknife
from ._results import TheoryResult, _closed, _no_exact_route, _quadrature, _u_result, _weaker
from ._scores import _eval_score, _is_constant, _is_linear, _resolve_score


class Distribution(abc.ABC):
    r"""A joint law of :math:`(X, Y)`, :math:`Y \in \{0, 1\}`, with :math:`\eta` in closed form.

    Subclasses: :class:`BinormalShared`, :class:`BinormalDifferent`, :class:`SingleIndex`,
    :class:`GaussianMixtures`. They share the methods below; the package docstring says
    which are exact for which distribution.

    Attributes
    ----------
    p : float
        :math:`P(Y = 1)`.
    dim : int
        The dimension of :math:`X`.

    Notes
    -----
    Definitions (ties count 1/2):

    - ranking error :math:`\mathrm{er}_{rank}[f] = E[\mathbf 1((Y - Y')(f(X) - f(X')) < 0)
      + \frac12 \mathbf 1(f(X) = f(X')) \mid Y \ne Y'] = 1 - \mathrm{AUC}(f)`;
    - Bayes ranking error :math:`\mathrm{er}^*_{rank} = \frac{1}{2p(1-p)}
      E_{X,X'}[\min(\eta(X)(1-\eta(X')), \eta(X')(1-\eta(X)))] = \mathrm{er}_{rank}[\eta]`;
    - ranking regret (identity of Clémençon, Lugosi & Vayatis; Agarwal's Theorem 11)
      :math:`\mathrm{er}_{rank}[f] - \mathrm{er}^*_{rank} = \frac{1}{2p(1-p)} E[|\eta(X) -
      \eta(X')| (\mathbf 1((f(X) - f(X'))(\eta(X) - \eta(X')) < 0) + \frac12 \mathbf 1(f(X) = f(X')))]`;
    - surrogate regret of a proper composite loss :math:`\ell`:
      :math:`E[L(\eta(X), f(X))] - E[H(\eta(X))]`;
    - :math:`W_\phi(s) = E[\phi(F_s(s(X))) \mid Y = 1]`, :math:`F_s` the cdf of :math:`s(X)`.

    The Monte Carlo route for the three ranking quantities is one U-statistic over
    all pairs of ``n_mc`` i.i.d. draws of :math:`X`: the pair kernel is the
    probability, given :math:`(X, X')`, that the pair is a positive-negative pair ranked
    the wrong way, :math:`\eta(X)(1-\eta(X'))\mathbf 1(f(X) < f(X')) + \ldots`, so the
    labels never need drawing. Sorting by the score computes it in O(n log n); its
    standard error is :math:`2\,\mathrm{sd}(h_1)/\sqrt{n}`, :math:`h_1` the Hoeffding
    projection (the degenerate part is O(1/n)). Bayes error, error and regret drawn with
    the same ``random_state`` and ``n_mc`` use the same draws, and then
    ``ranking_error - bayes_ranking_error == ranking_regret`` holds pair by pair (to
    rounding): the regret kernel is the difference of the two error kernels.
    """

    # -- what subclasses provide ---------------------------------------------

    @property
    @abc.abstractmethod
    def p(self) -> float:
        """P(Y = 1)."""

    @property
    @abc.abstractmethod
    def dim(self) -> int:
        """Dimension of X."""

    @abc.abstractmethod
    def _eta(self, X: np.ndarray) -> np.ndarray:
        """eta on validated X."""

    @abc.abstractmethod
    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n i.i.d. draws of X."""

    def _sample_joint(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Default: Y ~ Bernoulli(eta(X)) given X from the marginal."""
        X = self._sample_marginal(n, rng)
        y = (rng.random(n) < self._eta(X)).astype(np.int64)
        return X, y

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Default: rejection from the marginal, accepting with probability eta (or 1 - eta)."""
        out, have = [], 0
        while have < n:
            m = max(1024, int(1.2 * (n - have) / max(self.p if label else 1.0 - self.p, 1e-3)))
            X = self._sample_marginal(min(m, 4 * _CHUNK), rng)
            e = self._eta(X)
            keep = rng.random(X.shape[0]) < (e if label else 1.0 - e)
            out.append(X[keep])
            have += int(keep.sum())
        return np.concatenate(out)[:n]

    def _exact_bayes(self) -> TheoryResult | None:
        return None

    def _linear_laws(self, coef: np.ndarray) -> tuple[_Mixture, _Mixture] | None:
        """Class-conditional laws of ``coef^T X`` when they are normal mixtures (Gaussian families)."""
        return None

    def _exact_error(self, score: Callable) -> TheoryResult | None:
        if self._is_own_eta(score):
            return self._exact_bayes()
        if _is_linear(score, self.dim):
            if _is_constant(score):
                return _closed(0.5, "a constant score: every positive-negative pair is tied")
            laws = self._linear_laws(score.coef)
            if laws is not None:
                return _closed(_mixture_error(*laws),
                               "linear score, Gaussian (mixture) class laws: "
                               "sum_kl w_k w_l Phi(-(m1k - m0l) / sqrt(s1k^2 + s0l^2))")
        return None

    def _exact_regret(self, score: Callable) -> TheoryResult | None:
        if self._is_own_eta(score):
            return _closed(0.0, "score_fn is eta: every pair is ranked as eta ranks it")
        err = self._exact_error(score)
        bayes = self._exact_bayes() if err is not None else None
        if err is None or bayes is None:
            return None
        return TheoryResult(max(err.value - bayes.value, 0.0), 0.0, _weaker(err, bayes), None,
                            err.error_bound + bayes.error_bound,
                            "difference of the exact ranking error and Bayes ranking error")

    def _exact_w_phi(self, score: Callable, phi: _phi.Phi) -> TheoryResult | None:
        if _is_linear(score, self.dim) and not _is_constant(score):
            laws = self._linear_laws(score.coef)
            if laws is not None:
                val, err = _mixture_w_phi(*laws, self.p, phi)
                return _quadrature(val, err, "linear score, Gaussian (mixture) class laws: "
                                             "int phi(F(s)) dG(s) by quadrature per positive component")
        return None

    def _is_own_eta(self, score: Callable) -> bool:
        return getattr(score, "__self__", None) is self and getattr(score, "__func__", None) is Distribution.eta

    # -- sampling --------------------------------------------------------------

    def eta(self, X: Any) -> np.ndarray:
        r"""The class probability :math:`\eta(x) = P(Y = 1 \mid X = x)`, in closed form.

        Parameters
        ----------
        X : array-like of shape (n, dim)
            (A 1-D array is read as ``n`` points when ``dim == 1``.)

        Returns
        -------
        ndarray of shape (n,)

        Examples
        --------
        >>> from rankwise.theory import BinormalShared
        >>> d = BinormalShared([1.0], [-1.0], 1.0)        # eta(x) = expit(2 x)
        >>> d.eta([0.0, 1.0]).round(6)                      # expit(0), expit(2)
        array([0.5     , 0.880797])
        """
        return self._eta(_check_X(X, self.dim, f"{type(self).__name__}.eta"))

    def sample(self, n: int, random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``n`` i.i.d. draws of ``(X, Y)`` from the joint law.

        Parameters
        ----------
        n : int >= 1
        random_state : None, int, numpy Generator or RandomState
            The same seed gives the same sample.

        Returns
        -------
        X : ndarray of shape (n, dim), float64
        y : ndarray of shape (n,), int64 in {0, 1}

        Examples
        --------
        >>> from rankwise.theory import BinormalShared
        >>> X, y = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0).sample(4, random_state=0)
        >>> X.shape, y.shape
        ((4, 2), (4,))
        """
        func = f"{type(self).__name__}.sample"
        n = _check_n(n, "n", func)
        return self._sample_joint(n, _rng(random_state, func))

    def sample_stratified(self, n_pos: int, n_neg: int, random_state: Any = None,
                          *, shuffle: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``n_pos`` i.i.d. draws from the law of ``X | Y = 1`` and ``n_neg`` from ``X | Y = 0``.

        Parameters
        ----------
        n_pos, n_neg : int >= 0
            Class sizes (at least one of them positive).
        random_state : None, int, numpy Generator or RandomState
        shuffle : bool, default True
            Shuffle the rows; otherwise the positives come first.

        Returns
        -------
        X : ndarray of shape (n_pos + n_neg, dim)
        y : ndarray of shape (n_pos + n_neg,), int64 in {0, 1}

        Notes
        -----
        The Gaussian families draw each class directly; :class:`SingleIndex` draws
        :math:`X` from its marginal and keeps it with probability :math:`\\eta(X)` (or
        :math:`1 - \\eta(X)`), which is exact rejection sampling.
        """
        func = f"{type(self).__name__}.sample_stratified"
        n_pos = _check_n(n_pos, "n_pos", func, low=0)
        n_neg = _check_n(n_neg, "n_neg", func, low=0)
        if n_pos + n_neg == 0:
            raise ValueError(f"{func} needs n_pos + n_neg >= 1. Got n_pos = n_neg = 0.")
        rng = _rng(random_state, func)
        X1 = self._sample_class(1, n_pos, rng) if n_pos else np.empty((0, self.dim))
        X0 = self._sample_class(0, n_neg, rng) if n_neg else np.empty((0, self.dim))
        X = np.concatenate([X1, X0])
        y = np.concatenate([np.ones(n_pos, np.int64), np.zeros(n_neg, np.int64)])
        if shuffle:
            perm = rng.permutation(X.shape[0])
            X, y = X[perm], y[perm]
        return X, y

    # -- Monte Carlo draws --------------------------------------------------------

    def _draw(self, n: int, rng: np.random.Generator, score: Callable | None, func: str):
        """eta (and the scores) at n i.i.d. draws of X, in chunks; the same draws for
        the same rng whatever the score."""
        etas, fs = [], []
        left = n
        while left > 0:
            m = min(left, _CHUNK)
            X = self._sample_marginal(m, rng)
            etas.append(self._eta(X))
            if score is not None:
                fs.append(_eval_score(score, X, func))
            left -= m
        eta = np.concatenate(etas)
        return eta, (np.concatenate(fs) if score is not None else None)

    def _pair_quantity(self, name: str, score_fn: Any, exact: Callable, kernel: Callable, *, n_mc: Any,
                       random_state: Any, method: Any, detail: str = _U_DETAIL, clip: bool = False) -> TheoryResult:
        """The route shared by the three ranking quantities: the exact result ``exact(score)`` where
        ``method`` allows and one exists, else the pair U-statistic of ``kernel(eta, f)`` (the
        Hoeffding projections) over ``n_mc`` draws, scaled by ``1 / (2 p (1 - p))``.
        ``score_fn=None`` is the Bayes error (no score to resolve)."""
        func = f"{type(self).__name__}.{name}"
        method = _check_method(method, func)
        n_mc = _check_n(n_mc, "n_mc", func, low=10)
        score = None if score_fn is None else _resolve_score(score_fn, func)
        if method != "monte_carlo":
            result = exact(score)
            if result is not None:
                return result
            if method == "exact":
                raise _no_exact_route(func, "this distribution" if score_fn is None
                                      else "this score function and distribution")
        eta, f = self._draw(n_mc, _rng(random_state, func), score, func)
        return _u_result(kernel(eta, f), 1.0 / (2.0 * self.p * (1.0 - self.p)), detail, clip)

    # -- ranking quantities --------------------------------------------------------

    def bayes_ranking_error(self, *, n_mc: int = _N_MC, random_state: Any = None,
                            method: str = "auto") -> TheoryResult:
        r"""The Bayes ranking error :math:`\mathrm{er}^*_{rank}`, the smallest ranking error of any scorer.

        Parameters
        ----------
        n_mc : int >= 10, default 200000
            Draws for the Monte Carlo route.
        random_state : None, int, numpy Generator or RandomState
            Seed of the Monte Carlo route.
        method : {"auto", "exact", "monte_carlo"}
            ``"auto"``: exact where available, else Monte Carlo; ``"exact"`` raises where
            no exact route exists.

        Returns
        -------
        TheoryResult

        Notes
        -----
        .. math:: \mathrm{er}^*_{rank} = \frac{1}{2p(1-p)} E_{X,X'}\left[\min\left(\eta(X)(1-\eta(X')),
                  \eta(X')(1-\eta(X))\right)\right] = \frac12 - \frac{E|\eta(X) - \eta(X')|}{4p(1-p)},

        which is the ranking error of :math:`\eta` itself (Agarwal 2014, section 4).
        Exact routes: :class:`BinormalShared`
        (:math:`\Phi(-\Delta/\sqrt2)`, :math:`\Delta` the Mahalanobis distance between
        the means) and :class:`SingleIndex` (one-dimensional integral; closed form for
        the noise link). Otherwise the U-statistic of the class docstring with
        :math:`f = \eta`.
        """
        return self._pair_quantity("bayes_ranking_error", None, lambda _: self._exact_bayes(),
                                   lambda eta, _: _pair_projection(eta, eta),
                                   n_mc=n_mc, random_state=random_state, method=method)

    def bayes_auc(self, *, n_mc: int = _N_MC, random_state: Any = None, method: str = "auto") -> TheoryResult:
        r"""The optimal AUC :math:`1 - \mathrm{er}^*_{rank} = \frac12 + \frac{E|\eta(X) - \eta(X')|}{4p(1-p)}`.

        Same parameters as :meth:`bayes_ranking_error`.
        """
        r = self.bayes_ranking_error(n_mc=n_mc, random_state=random_state, method=method)
        return r._shift(1.0 - r.value)

    def ranking_error(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
                      method: str = "auto") -> TheoryResult:
        r"""The ranking error :math:`\mathrm{er}_{rank}[f] = 1 - \mathrm{AUC}(f)` of a score function.

        Parameters
        ----------
        score_fn : callable
            ``X -> scores`` (higher = more likely positive), or an object with a
            ``decision_function``.
        n_mc : int >= 10, default 200000
        random_state : None, int, numpy Generator or RandomState
        method : {"auto", "exact", "monte_carlo"}

        Returns
        -------
        TheoryResult

        Notes
        -----
        .. math:: \mathrm{er}_{rank}[f] = E\left[\mathbf 1((Y - Y')(f(X) - f(X')) < 0)
                  + \tfrac12 \mathbf 1(f(X) = f(X')) \,\middle|\, Y \ne Y'\right]

        (Agarwal 2014). Exact routes: ``score_fn`` is this distribution's
        ``eta`` and the Bayes error is exact; a :class:`LinearScore` :math:`a^\top x`
        under the Gaussian families, whose class laws are normal mixtures, so that
        :math:`\mathrm{er} = \sum_{kl} w_k w_l \Phi(-(m_{1k} - m_{0l}) / \sqrt{s_{1k}^2 +
        s_{0l}^2})` (for two Gaussians :math:`\Phi(-a^\top(\mu_1 - \mu_0) /
        \sqrt{a^\top(\Sigma_1 + \Sigma_0) a})`); in :class:`SingleIndex` a linear score
        along :math:`w`. Otherwise the U-statistic of the class docstring.

        Examples
        --------
        Unit-variance classes at (1, 0) and (-1, 0), score :math:`x_1 + x_2`:
        :math:`\Phi(-2/\sqrt{4}) = \Phi(-1)`.

        >>> from rankwise.theory import BinormalShared, LinearScore
        >>> d = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0)
        >>> r = d.ranking_error(LinearScore([1.0, 1.0]))
        >>> round(r.value, 6), r.method
        (0.158655, 'closed_form')
        """
        return self._pair_quantity("ranking_error", score_fn, self._exact_error, _pair_projection,
                                   n_mc=n_mc, random_state=random_state, method=method)

    def auc(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
            method: str = "auto") -> TheoryResult:
        r"""The population AUC of a score function, :math:`1 - \mathrm{er}_{rank}[f]` (ties 1/2).

        Same parameters and routes as :meth:`ranking_error`.

        Examples
        --------
        Two unit-variance classes two apart: :math:`\Phi(2/\sqrt 2) = \Phi(1.4142)`.

        >>> from rankwise.theory import BinormalShared, LinearScore
        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> round(d.auc(LinearScore([1.0])).value, 6)
        0.92135
        """
        r = self.ranking_error(score_fn, n_mc=n_mc, random_state=random_state, method=method)
        return r._shift(1.0 - r.value)

    def ranking_regret(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
                       method: str = "auto") -> TheoryResult:
        r"""The ranking regret :math:`\mathrm{er}_{rank}[f] - \mathrm{er}^*_{rank} \ge 0`.

        Same parameters as :meth:`ranking_error`; returns a :class:`TheoryResult`.

        Notes
        -----
        The regret identity (Clémençon, Lugosi & Vayatis 2008; Agarwal 2014, Theorem 11):

        .. math:: \mathrm{regret}_{rank}[f] = \frac{1}{2p(1-p)} E\left[|\eta(X) - \eta(X')|
                  \left(\mathbf 1((f(X) - f(X'))(\eta(X) - \eta(X')) < 0)
                  + \tfrac12 \mathbf 1(f(X) = f(X'))\right)\right].

        Exact route: the difference of the exact ranking and Bayes errors (0 for
        ``score_fn = dist.eta``). Monte Carlo route: the U-statistic of this kernel over
        all pairs of ``n_mc`` draws, computed as the difference of the two error kernels
        on the same draws (the identity holds pair by pair), so that with the same
        ``random_state`` it equals ``ranking_error(f, method="monte_carlo") -
        bayes_ranking_error(method="monte_carlo")`` to rounding; its standard error comes
        from the Hoeffding projection of the regret kernel.

        Examples
        --------
        The score :math:`x_1 + x_2` of the :meth:`ranking_error` example against the optimal
        :math:`x_1`: :math:`\Phi(\sqrt 2) - \Phi(1)`.

        >>> from rankwise.theory import BinormalShared, LinearScore
        >>> d = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0)
        >>> round(d.ranking_regret(LinearScore([1.0, 1.0])).value, 6)
        0.080006
        >>> d.ranking_regret(d.eta).value
        0.0
        """
        return self._pair_quantity(
            "ranking_regret", score_fn, self._exact_regret,
            lambda eta, f: _pair_projection(eta, f) - _pair_projection(eta, eta),
            n_mc=n_mc, random_state=random_state, method=method, clip=True,
            detail="regret identity: U-statistic over all pairs of n_mc i.i.d. draws of the kernel "
                   "|eta - eta'| (1{discordant} + 1/2 1{tie}); standard error from its Hoeffding projection")

    def surrogate_regret(self, score_fn: Any, loss: Any, *, balanced: bool = False, n_mc: int = _N_MC,
                         random_state: Any = None) -> TheoryResult:
        r"""The surrogate regret :math:`E[L(\eta(X), f(X))] - E[H(\eta(X))]` of a proper composite loss.

        Parameters
        ----------
        score_fn : callable
            Its output is the loss's prediction :math:`\hat y = f(x)` (for a bounded
            prediction space, clipped by the loss; see :mod:`rankwise.losses`).
        loss : str or ProperCompositeLoss
            A loss of :data:`rankwise.losses.LOSSES` (``"logistic"``, ``"exponential"``,
            ``"squared"``, ...).
        balanced : bool, default False
            Use the balanced loss of Kotlowski et al. (each class weighed to total
            mass 1/2), the one :func:`balanced_bound` needs.
        n_mc : int >= 2, default 200000
        random_state : None, int, numpy Generator or RandomState

        Returns
        -------
        TheoryResult
            Monte Carlo: the mean of the conditional regret over ``n_mc`` i.i.d. draws of
            :math:`X`, standard error ``sd / sqrt(n_mc)``. Non-negative; 0 (to rounding)
            for ``f = loss.link(eta)``; ``inf`` if the loss is infinite somewhere.

        Notes
        -----
        :math:`L(\eta, \hat y) = \eta \ell(1, \hat y) + (1 - \eta) \ell(-1, \hat y)`,
        :math:`H(\eta) = \inf_{\hat y} L(\eta, \hat y)` (Agarwal 2014, section 3); the
        conditional regret is the loss's own :meth:`~rankwise.losses.ProperCompositeLoss.conditional_regret`.
        The balanced loss :math:`\ell(1, \hat y)/(2p)` on positives, :math:`\ell(-1, \hat y)/(2(1-p))`
        on negatives has conditional regret :math:`c(x) (L(\tilde\eta, \hat y) -
        H(\tilde\eta))` with :math:`c = \eta/(2p) + (1-\eta)/(2(1-p))` and
        :math:`\tilde\eta = \eta (1-p) / (\eta (1-p) + (1-\eta) p)`.

        Examples
        --------
        The log-odds is the logistic loss's link of :math:`\eta`: zero regret.

        >>> from rankwise.theory import BinormalShared
        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> r = d.surrogate_regret(d.bayes_scorer(), "logistic", n_mc=1000, random_state=0)
        >>> r.value < 1e-12, r.method
        (True, 'monte_carlo')
        """
        func = f"{type(self).__name__}.surrogate_regret"
        loss = _losses.get(loss)
        n_mc = _check_n(n_mc, "n_mc", func, low=2)
        if not isinstance(balanced, (bool, np.bool_)):
            raise TypeError(f"The 'balanced' parameter of {func} must be a bool. Got {balanced!r} instead.")
        score = _resolve_score(score_fn, func)
        eta, f = self._draw(n_mc, _rng(random_state, func), score, func)
        if balanced:
            p = self.p
            c = eta / (2.0 * p) + (1.0 - eta) / (2.0 * (1.0 - p))
            tilde = np.clip(eta * (1.0 - p) / (eta * (1.0 - p) + (1.0 - eta) * p), 0.0, 1.0)
            reg = c * np.asarray(loss.conditional_regret(tilde, f))
        else:
            reg = np.asarray(loss.conditional_regret(eta, f))
        value = float(reg.mean())
        with np.errstate(invalid="ignore"):
            se = float(reg.std(ddof=1)) / math.sqrt(n_mc) if np.isfinite(value) else math.inf
        detail = (f"mean over n_mc i.i.d. draws of X of the {'balanced ' if balanced else ''}{loss.name} "
                  f"conditional regret L(eta, f) - H(eta); standard error sd/sqrt(n_mc)")
        return TheoryResult(value, se, "monte_carlo", n_mc, 0.0, detail)

    def w_phi(self, score_fn: Any, phi: Any = "auc", *, ties: str = "average", n_mc: int = _N_MC,
              n_ref: int | None = None, random_state: Any = None, method: str = "auto") -> TheoryResult:
        r"""The population linear rank statistic :math:`W_\phi(s) = E[\phi(F_s(s(X))) \mid Y = 1]`.

        Parameters
        ----------
        score_fn : callable
        phi : str, rankwise.phi object or callable, default "auc"
            As for :func:`rankwise.rank_statistic` (``"auc"``, ``rw.phi.local_auc(u0)``,
            ``rw.phi.pnorm_push(p)``, a vectorised nondecreasing callable). DCG depends on
            the sample size and has no population version here.
        ties : {"average", "max"}
            :math:`F_s(t)`: ``"average"`` is the mid-cdf :math:`P(s(X) < t) + \frac12 P(s(X) = t)`
            (the limit of the mid-rank statistic, rankwise's default); ``"max"`` the cdf
            :math:`P(s(X) \le t)` (the rank of Clémençon & Vayatis 2008). They agree for
            continuous scores.
        n_mc : int >= 40, default 200000
            Positives drawn for the Monte Carlo route.
        n_ref : int >= 40, optional
            Size of the independent sample that estimates :math:`F_s` (default ``n_mc``).
        random_state, method
            As in :meth:`ranking_error`.

        Returns
        -------
        TheoryResult

        Notes
        -----
        Exact routes: for :math:`\phi(u) = u`, :math:`W_\phi = (1-p)\mathrm{AUC} + p/2`
        (mid-cdf; the population form of the identity between :math:`W_n` and the AUC of
        Clémençon & Vayatis 2008) wherever the AUC is exact; for any
        :math:`\phi`, a :class:`LinearScore` under the Gaussian families
        (:math:`\int \phi(F(s))\, dG(s)` by quadrature, :math:`G` the positive law,
        :math:`F = pG + (1-p)H`), and in :class:`SingleIndex` ``eta`` or a linear score
        along :math:`w`, :math:`W_\phi = \frac1p \int_0^1 G(u) \phi(u)\, du` with
        :math:`G` the quantile function of :math:`\eta(X)`.

        Monte Carlo route: ``n_mc`` draws from :math:`X \mid Y = 1` and an independent
        reference sample of ``n_ref`` draws of :math:`X` that gives the empirical
        :math:`\hat F_s`; the value is the mean of :math:`\phi(\hat F_s(s(X_i)))` over the
        positives. Its standard error is the delete-a-group jackknife over 20 groups
        (each group removing a twentieth of both samples), which covers both sources of
        error; as a deterministic check, :math:`\sup_t |\hat F_s - F_s| \le
        \sqrt{\log(2/\delta)/(2 n_{ref})}` with probability :math:`1-\delta` (DKW-Massart),
        so for an :math:`L`-Lipschitz :math:`\phi` the reference sample moves the value by
        at most :math:`L` times that (0.0043 at ``n_ref = 1e5``, ``delta = 0.05``).

        Examples
        --------
        :math:`W = (1-p)\mathrm{AUC} + p/2 = \frac12 \Phi(\sqrt 2) + \frac14`:

        >>> from rankwise.theory import BinormalShared, LinearScore
        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> round(d.w_phi(LinearScore([1.0])).value, 6)
        0.710675
        """
        func = f"{type(self).__name__}.w_phi"
        method = _check_method(method, func)
        ties = check_choice(ties, "ties", func, ("average", "max"))
        n_mc = _check_n(n_mc, "n_mc", func, low=2 * _JACKKNIFE_GROUPS)
        n_ref = n_mc if n_ref is None else _check_n(n_ref, "n_ref", func, low=2 * _JACKKNIFE_GROUPS)
        score = _resolve_score(score_fn, func)
        phi = _phi.resolve(phi, func)
        if phi.needs_n:
            raise ValueError(f"The 'phi' parameter of {func} cannot be {phi!r}: it depends on the sample size, "
                             f"so it has no population W_phi.")
        if method != "monte_carlo":
            exact = self._exact_w_phi_any(score, phi, ties)
            if exact is not None:
                return exact
            if method == "exact":
                raise _no_exact_route(func, "this score function, phi and distribution")
        rng = _rng(random_state, func)
        s_ref = self._draw(n_ref, rng, score, func)[1]
        pos = []
        left = n_mc
        while left > 0:
            m = min(left, _CHUNK)
            pos.append(_eval_score(score, self._sample_class(1, m, rng), func))
            left -= m
        s_pos = np.concatenate(pos)
        return _w_phi_jackknife(s_pos, s_ref, phi, ties, rng)

    def _exact_w_phi_any(self, score: Callable, phi: _phi.Phi, ties: str) -> TheoryResult | None:
        """The exact routes of :meth:`w_phi`, in order: the AUC identity, a constant score, then
        the subclass's :meth:`_exact_w_phi`."""
        if _is_auc_phi(phi):
            err = self._exact_error(score)
            if err is not None:
                if _is_constant(score) and ties == "max":
                    return _closed(1.0, "a constant score: F_s = 1 under the 'max' convention")
                return TheoryResult((1.0 - self.p) * (1.0 - err.value) + self.p / 2.0, 0.0, err.method,
                                    None, (1.0 - self.p) * err.error_bound, "W = (1 - p) AUC + p/2")
        if _is_constant(score):
            return _closed(float(phi(0.5 if ties == "average" else 1.0)), "a constant score: F_s is one value")
        return self._exact_w_phi(score, phi)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, p={self.p:.6g})"


# ----------------------------------------------------------------------------
# The class-conditional families: Y ~ Bernoulli(p), then X | Y from a class law
# ----------------------------------------------------------------------------


def _logit(p: float) -> float:
    return math.log(p) - math.log1p(-p)


class _ClassConditional(Distribution):
    """A law given by ``p`` and the two class-conditional laws of ``X`` (the Gaussian families):
    ``eta = expit(log-odds)``, the log-odds in closed form (``_log_odds``), and ``X`` drawn
    by first drawing ``Y``."""

    _p: float

    @property
    def p(self) -> float:
        return self._p

    @abc.abstractmethod
    def _log_odds(self, X: np.ndarray) -> np.ndarray:
        """log(eta / (1 - eta)) on validated X."""

    def log_odds(self, X: Any) -> np.ndarray:
        r"""The log-odds :math:`\log\frac{\eta(x)}{1 - \eta(x)}`, exact (its form is in the class docstring).

        Parameters
        ----------
        X : array-like of shape (n, dim)

        Returns
        -------
        ndarray of shape (n,)
        """
        return self._log_odds(_check_X(X, self.dim, f"{type(self).__name__}.log_odds"))

    def _eta(self, X: np.ndarray) -> np.ndarray:
        return expit(self._log_odds(X))

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self._sample_joint(n, rng)[0]

    def _sample_joint(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Y ~ Bernoulli(p), then X | Y from the class law."""
        y = rng.random(n) < self.p
        n1 = int(y.sum())
        X = np.empty((n, self.dim))
        X[y] = self._sample_class(1, n1, rng)
        X[~y] = self._sample_class(0, n - n1, rng)
        return X, y.astype(np.int64)
