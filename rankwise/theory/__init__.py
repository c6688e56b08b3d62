r"""Distributions with a known ``eta``, their ranking quantities, and the bounds as functions.

Several of the results rankwise implements (the regret identity, the surrogate regret
bounds, the fast rates under a low-noise condition) are statements about *regret*, which
needs the class probability :math:`\eta(x) = P(Y = 1 \mid X = x)`. This package provides
joint laws of :math:`(X, Y)`, :math:`Y \in \{0, 1\}` (1 = positive), :math:`p = P(Y = 1)`,
whose :math:`\eta` is known in closed form, and for each of them the population quantities
that the bounds talk about:

==============================  ======================================================================
:class:`BinormalShared`         two Gaussians, shared covariance: :math:`\eta` logistic-linear
:class:`BinormalDifferent`      two Gaussians, different covariances: logistic-quadratic
:class:`SingleIndex`            :math:`\eta(x) = g(w^\top x + b)`, ``x`` Gaussian or uniform;
                                the ``"noise"`` link sets the low-noise exponent ``alpha``
:class:`GaussianMixtures`       the synthetic data of Gultekin & Paisley (2020): K isotropic
                                components per class
==============================  ======================================================================

and the bounds as plain vectorised functions: :func:`theorem13_bound`,
:func:`theorem15_bound`, :func:`regret_bound` (Agarwal 2014), :func:`theorem15_constant` and
:func:`theorem15_explicit_bound` (Theorem 15 with an explicit constant),
:func:`conditional_low_noise_bound`, the pairwise route of Agarwal (2014) section 5
(:func:`pair_eta`, :func:`pair_weight`, :func:`pairwise_bound`,
:func:`pairwise_surrogate_regret`), :func:`balanced_bound`
(Kotlowski et al. 2011), :func:`lcbr_subsample_size`, :func:`lcbr_sample_size`, :func:`bbr_tail_bound`,
:func:`lcbr_tail_bound` and :func:`ball_covering_number` (Gultekin & Paisley 2020), and
:func:`variance_condition`, which measures the variance condition of Clémençon, Lugosi &
Vayatis (2008) (the exponent ``kappa`` in :math:`\mathrm{Var}(h_r) \le c\,\Lambda(r)^{\kappa}`)
on a class of ranking rules.
:func:`theorem13_bound`, :func:`theorem15_bound`, :func:`regret_bound` and :func:`balanced_bound`
evaluate the formulas of :mod:`rankwise.losses`
(:meth:`~rankwise.losses.ProperCompositeLoss.regret_bound`,
:meth:`~rankwise.losses.ProperCompositeLoss.low_noise_bound`,
:func:`~rankwise.losses.balanced_regret_bound`), broadcast over arrays of every argument.
``import rankwise`` makes the package available as ``rankwise.theory``.

Every population quantity is returned as a :class:`TheoryResult` (``value``,
``std_error``, ``method``, ...). ``method`` says how it was computed:

- ``"closed_form"``: a formula (e.g. the binormal AUC :math:`\Phi(\Delta/\sqrt{2})`);
- ``"quadrature"``: a one-dimensional integral by adaptive quadrature
  (``scipy.integrate.quad``); ``error_bound`` holds its absolute error estimate;
- ``"monte_carlo"``: an average over ``n_mc`` i.i.d. draws, with its standard error.

Which applies, per distribution and method (``method="auto"`` takes the exact route
where one exists; ``"exact"`` raises where none does; ``"monte_carlo"`` forces the
simulation):

=======================  ==========================================  ==============================
quantity                 exact route                                 otherwise
=======================  ==========================================  ==============================
``bayes_ranking_error``  BinormalShared (closed form); SingleIndex   Monte Carlo U-statistic
                         (noise link: closed form; other links:
                         quadrature)
``ranking_error``        ``score_fn = dist.eta`` where the Bayes     Monte Carlo U-statistic
                         error is exact; a :class:`LinearScore`
                         under the three Gaussian families (closed
                         form) or, in SingleIndex, along ``w``
``ranking_regret``       both errors exact (their difference), or    regret identity, Monte Carlo
                         ``score_fn = dist.eta`` (0)                 U-statistic
``surrogate_regret``     none                                        Monte Carlo mean
``w_phi``                :class:`LinearScore` under the Gaussian     two-sample Monte Carlo,
                         families, ``eta`` or a score along ``w``    delete-a-group jackknife
                         in SingleIndex (quadrature); the AUC        standard error
                         ``phi`` wherever the AUC is exact
=======================  ==========================================  ==============================

``auc`` and ``bayes_auc`` are one minus the errors and take the same routes.

A *score function* is any callable mapping an array ``X`` of shape ``(n, d)`` to ``n``
real scores, higher = more likely positive: ``dist.eta``, ``est.decision_function`` of
a fitted estimator (or the estimator itself), or a :class:`LinearScore`, which the
exact routes recognise (wrap a fitted linear model as
``LinearScore(est.coef_, est.intercept_)`` to use them).

Conventions: ties between scores count 1/2; the scores are never flipped; numbers
accumulate in float64.

References
----------
Agarwal, S. (2014). Surrogate regret bounds for bipartite ranking via strongly proper
losses. Journal of Machine Learning Research 15, 1653-1674.

Bartlett, P. L., Jordan, M. I., & McAuliffe, J. D. (2006). Convexity, classification, and risk
bounds. Journal of the American Statistical Association 101(473), 138-156.

Clémençon, S., Lugosi, G., & Vayatis, N. (2008). Ranking and empirical minimization of
U-statistics. The Annals of Statistics 36(2), 844-874.

Clémençon, S., & Vayatis, N. (2008). Empirical performance maximization for linear rank
statistics. Advances in Neural Information Processing Systems 21 (NIPS 2008).

Gultekin, S., & Paisley, J. (2020). Risk bounds for low cost bipartite ranking.
arXiv:1912.00537 (UAI 2020).

Kotlowski, W., Dembczynski, K., & Hüllermeier, E. (2011). Bipartite ranking through
minimization of univariate loss. Proceedings of the 28th International Conference on
Machine Learning (ICML 2011).
"""

from ._agarwal import (conditional_low_noise_bound, pair_eta, pair_weight, pairwise_bound, pairwise_surrogate_regret,
                       theorem15_constant, theorem15_explicit_bound)
from ._base import Distribution
from ._binormal import BinormalDifferent, BinormalShared
from ._bounds import balanced_bound, regret_bound, theorem13_bound, theorem15_bound
from ._lcbr import ball_covering_number, bbr_tail_bound, lcbr_sample_size, lcbr_subsample_size, lcbr_tail_bound
from ._mixtures import GaussianMixtures
from ._montecarlo import _pair_projection  # noqa: F401  (the tests check the U-statistic kernel)
from ._results import TheoryResult
from ._scores import LinearScore
from ._single_index import SingleIndex, _UniformIndex  # noqa: F401  (the tests check the exact law)
from ._variance import VarianceCondition, variance_condition

__all__ = [
    "TheoryResult",
    "LinearScore",
    "Distribution",
    "BinormalShared",
    "BinormalDifferent",
    "SingleIndex",
    "GaussianMixtures",
    "theorem13_bound",
    "theorem15_bound",
    "theorem15_constant",
    "theorem15_explicit_bound",
    "conditional_low_noise_bound",
    "pair_eta",
    "pair_weight",
    "pairwise_bound",
    "pairwise_surrogate_regret",
    "regret_bound",
    "balanced_bound",
    "lcbr_sample_size",
    "lcbr_subsample_size",
    "bbr_tail_bound",
    "lcbr_tail_bound",
    "ball_covering_number",
    "variance_condition",
    "VarianceCondition",
]
