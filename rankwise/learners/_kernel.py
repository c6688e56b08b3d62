r"""A kernel scorer trained on an exact all-pairs pairwise surrogate: the SVM-type ranker of
S. Clémençon, G. Lugosi and N. Vayatis ("Ranking and empirical minimization of
U-statistics", Annals of Statistics 36(2), 2008), a convex risk minimiser over an RKHS."""

from __future__ import annotations

import numpy as np
from scipy import sparse
from sklearn.metrics.pairwise import KERNEL_PARAMS, pairwise_kernels
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from ..io import register_model
from .._validation import check_choice, check_param
from ._base import (INPUT_SCALE, BinaryLinearRanker, DegenerateScorerWarning, check_extra_state, check_score_bound,
                    check_scorer, common_state, finite_array, lbfgs, restore_common_state, state_param, store_params,
                    threshold_offset, warn_if_degenerate)
from ._objectives import linear_pairwise, pairwise_surrogate, ridge

__all__ = ["KernelRanker"]

_KERNELS = ("rbf", "poly", "linear", "laplacian", "sigmoid")
_DEFAULT_LANDMARKS = 1000


def _dense(X):
    return X.toarray() if sparse.issparse(X) else np.asarray(X, dtype=np.float64)


@register_model
class KernelRanker(BinaryLinearRanker):
    r"""Scorer :math:`s(x) = \sum_j \beta_j k(x_j, x)` minimising a pairwise surrogate over all pairs.

    Parameters
    ----------
    kernel : str or callable, default "rbf"
        ``"rbf"``, ``"poly"``, ``"linear"``, ``"laplacian"``, ``"sigmoid"`` (computed by
        :func:`sklearn.metrics.pairwise.pairwise_kernels`) or a callable ``k(X, Y)``
        returning the ``(len(X), len(Y))`` kernel matrix. A model with a callable kernel
        cannot be saved with :func:`rankwise.save_model`.
    gamma : float > 0 or None, default None
        Kernel coefficient of rbf, poly, laplacian and sigmoid (None: ``1 / n_features``).
    degree : int >= 1, default 3
        Degree of the polynomial kernel.
    coef0 : float, default 1.0
        Constant term of the poly and sigmoid kernels.
    loss : str, default "squared_hinge"
        ``"hinge"``, ``"squared_hinge"``, ``"squared"``, ``"exponential"`` or ``"logistic"``
        (see :func:`rankwise.losses.pairwise`).
    alpha : float > 0, default 1e-3
        RKHS penalty :math:`\tfrac{\alpha}{2}\|s\|_{\mathcal H}^2 = \tfrac{\alpha}{2}\beta^\top K\beta`.
    n_components : int >= 1 or None, default None
        Number of Nyström landmarks. None: the exact kernel problem when ``n <= max_exact``,
        else 1000 landmarks.
    max_exact : int >= 1, default 10000
        Largest training set solved exactly (an ``n x n`` kernel matrix) when
        ``n_components`` is None.
    max_iter : int, default 500
    tol : float, default 1e-8
        L-BFGS tolerance on the projected gradient.
    random_state : int, RandomState or None
        Draws the Nyström landmarks (uniformly, without replacement).

    Attributes
    ----------
    X_fit_ : ndarray (n_basis, d)
        The training points (exact mode) or the Nyström landmarks.
    dual_coef_ : ndarray (n_basis,)
        :math:`\beta`: ``decision_function(X) = k(X, X_fit_) @ dual_coef_ + intercept_``.
    coef_ : ndarray (n_components_,)
        Nyström mode only: the linear coefficients on the features
        :math:`\Phi = K_{nm} K_{mm}^{-1/2}`.
    projection_ : ndarray (n_basis, n_components_)
        Nyström mode only: :math:`K_{mm}^{-1/2}` (eigenvalues below ``1e-12`` times the
        largest are dropped), so ``dual_coef_ = projection_ @ coef_``.
    mode_ : str
        ``"exact"`` or ``"nystroem"``.
    n_components_ : int
        The rank used: ``n`` in exact mode, the number of kept eigenvalues of
        :math:`K_{mm}` in Nyström mode.
    n_iter_ : int
    objective_ : float
        The surrogate's value at the solution (without the penalty).
    intercept_ : float
        Not seen by a pairwise loss; set so that ``decision_function > 0`` marks the top
        share of the training ranking equal to the share of positives.

    Notes
    -----
    Exact mode minimises, by L-BFGS over :math:`\beta`,

    .. math:: F(K\beta) + \frac{\alpha}{2}\beta^\top K \beta, \qquad
              \nabla_\beta = K\bigl(\nabla_s F + \alpha\beta\bigr),

    with :math:`F` the exact all-pairs surrogate (mean over the pair mass, no loop over
    pairs). By the representer theorem this is the minimiser over the whole RKHS. Nyström
    mode draws ``m`` landmarks, forms :math:`\Phi = K_{nm}K_{mm}^{-1/2}` and minimises
    :math:`F(\Phi w) + \tfrac{\alpha}{2}\|w\|^2`: the same problem restricted to the span of
    the landmarks' kernel functions (:math:`\|w\|^2` is the RKHS norm there). Input is
    densified. The exact problem needs a positive semi-definite kernel (``"sigmoid"`` is not
    one in general: a diverging exact fit raises ``ValueError``); Nyström mode drops the
    negative eigenvalues of :math:`K_{mm}` and works with any symmetric kernel.
    """

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=1.0, loss: str = "squared_hinge",
                 alpha: float = 1e-3, n_components=None, max_exact: int = 10_000, max_iter: int = 500,
                 tol: float = 1e-8, random_state=None):
        store_params(self, locals())

    # --- the kernel ---------------------------------------------------------------------
    def _check_kernel(self):
        if callable(self.kernel):
            return
        check_choice(self.kernel, "kernel", "KernelRanker", _KERNELS)
        if self.gamma is not None:
            check_param(self.gamma, "gamma", "KernelRanker", low=0.0, low_inclusive=False)
        check_param(self.degree, "degree", "KernelRanker", low=1, integer=True)
        check_param(self.coef0, "coef0", "KernelRanker")

    def _kernel(self, X, Y):
        if callable(self.kernel):
            K = np.asarray(self.kernel(X, Y), dtype=np.float64)
            if K.shape != (X.shape[0], Y.shape[0]):
                raise ValueError(f"KernelRanker: the kernel callable returned shape {K.shape}, "
                                 f"expected {(X.shape[0], Y.shape[0])}.")
            return K
        allowed = KERNEL_PARAMS[self.kernel]
        params = {k: v for k, v in (("gamma", self.gamma), ("degree", self.degree), ("coef0", self.coef0))
                  if k in allowed}
        return np.asarray(pairwise_kernels(X, Y, metric=self.kernel, **params), dtype=np.float64)

    # --- fitting ------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        surrogate = pairwise_surrogate(self, "KernelRanker", takes=())
        self._check_kernel()
        alpha = check_param(self.alpha, "alpha", "KernelRanker", low=0.0, low_inclusive=False)
        max_iter = check_param(self.max_iter, "max_iter", "KernelRanker", low=1, integer=True)
        max_exact = check_param(self.max_exact, "max_exact", "KernelRanker", low=1, integer=True)
        tol = check_param(self.tol, "tol", "KernelRanker", low=0.0, low_inclusive=False)
        if self.n_components is not None:
            check_param(self.n_components, "n_components", "KernelRanker", low=1, integer=True)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        X = _dense(X)
        n = X.shape[0]
        weights = None if np.all(sw == 1.0) else sw
        state = {}

        def solve(objective, dim):
            res = lbfgs(objective, np.zeros(dim), max_iter, tol, "KernelRanker")
            return res

        if self.n_components is None and n <= max_exact:
            K = self._kernel(X, X)
            K = 0.5 * (K + K.T)
            if n > 1 and not np.any(K[~np.eye(n, dtype=bool)]):
                # every training point is "infinitely far" from the others (e.g. an RBF
                # kernel on features of size 1e150): the fit memorises the training labels
                # and scores every new point alike
                import warnings

                warnings.warn("KernelRanker: the kernel matrix is diagonal (every training point is unrelated to "
                              "the others, e.g. features on an extreme scale for the kernel's gamma): the scorer "
                              "memorises the training rows and gives every new row the same score; standardise "
                              "the features or set gamma.", DegenerateScorerWarning, stacklevel=2)

            def objective(beta):
                Kb = K @ beta
                r = surrogate.evaluate(is_pos, Kb, weights)
                state["value"] = r.value
                return r.value + 0.5 * alpha * float(beta @ Kb), K @ (r.grad + alpha * beta)

            res = solve(objective, n)
            if not np.all(np.isfinite(res.x)) or not np.isfinite(state.get("value", np.nan)):
                raise ValueError(
                    "KernelRanker: the exact fit diverged; the kernel is probably not positive "
                    "semi-definite (e.g. 'sigmoid'), which makes beta^T K beta unbounded below. Use "
                    "n_components (Nyström drops the negative eigenvalues) or a positive kernel.")
            self.X_fit_ = X
            self.dual_coef_ = res.x.copy()
            self.mode_ = "exact"
            self.n_components_ = n
            for attr in ("coef_", "projection_"):
                if hasattr(self, attr):
                    delattr(self, attr)
            scores = K @ self.dual_coef_
        else:
            m = min(int(self.n_components or _DEFAULT_LANDMARKS), n)
            rng = check_random_state(self.random_state)
            idx = np.sort(rng.choice(n, size=m, replace=False))
            L = X[idx]
            Kmm = self._kernel(L, L)
            Kmm = 0.5 * (Kmm + Kmm.T)
            evals, evecs = np.linalg.eigh(Kmm)
            top = float(evals.max()) if evals.size else 0.0
            keep = evals > max(top, 0.0) * 1e-12
            if not np.any(keep):
                raise ValueError("KernelRanker: the landmarks' kernel matrix is zero; no Nyström features.")
            proj = evecs[:, keep] / np.sqrt(evals[keep])
            Phi = self._kernel(X, L) @ proj

            res = solve(ridge(linear_pairwise(Phi, is_pos, surrogate, weights), alpha, state), Phi.shape[1])
            self.X_fit_ = L
            self.coef_ = res.x.copy()
            self.projection_ = proj
            self.dual_coef_ = proj @ self.coef_
            self.mode_ = "nystroem"
            self.n_components_ = int(proj.shape[1])
            scores = Phi @ self.coef_
        self.n_iter_ = int(res.nit)
        self.objective_ = float(state.get("value", np.nan))
        warn_if_degenerate(self, X, scores, is_pos, sw)
        self.intercept_ = threshold_offset(scores, is_pos, sw)
        return self

    def decision_function(self, X) -> np.ndarray:
        """The learned scores ``k(X, X_fit_) @ dual_coef_ + intercept_``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        return self._kernel(_dense(X), self.X_fit_) @ self.dual_coef_ + self.intercept_

    # --- the safe model format ----------------------------------------------------------
    _extra_state_names = ("n_iter_", "objective_", "mode_", "n_components_")

    def _extra_state(self):
        return {"n_iter_": int(self.n_iter_), "objective_": float(self.objective_), "mode_": str(self.mode_),
                "n_components_": int(self.n_components_)}

    def _array_names(self, mode):
        return {"X_fit_", "dual_coef_"} | ({"coef_", "projection_"} if mode == "nystroem" else set())

    def _get_model_state(self):
        attrs = common_state(self)
        attrs.update(self._extra_state())
        arrays = {name: np.asarray(getattr(self, name), dtype=np.float64) for name in sorted(self._array_names(self.mode_))}
        return attrs, arrays

    def _set_model_state(self, attributes, arrays):
        name = "KernelRanker"
        attributes = dict(attributes)
        expected = {"intercept_", "n_features_in_", "classes_", "feature_names_in_"} | set(self._extra_state_names)
        unknown = set(attributes) - expected
        missing = (set(self._extra_state_names) | {"intercept_", "n_features_in_", "classes_"}) - set(attributes)
        mode = attributes.get("mode_")
        if mode not in ("exact", "nystroem"):
            raise ValueError(f"KernelRanker model state: mode_ must be 'exact' or 'nystroem', got {mode!r:.60}.")
        want = self._array_names(mode)
        if unknown or missing or set(arrays) != want:
            raise ValueError(
                f"KernelRanker model state has unexpected fields: attributes {sorted(unknown)}, missing "
                f"{sorted(missing)}, arrays {sorted(set(arrays) ^ want)}."
            )
        # the kernel's parameters are read at every score: checked as fit checks them (a
        # file cannot hold a callable kernel, so the kernel must be one of the names)
        if callable(self.kernel):
            raise ValueError("KernelRanker model state: the kernel must be one of the kernel names.")
        state_param(name, "kernel", check_choice, self.kernel, "kernel", name, _KERNELS)
        if self.gamma is not None:
            state_param(name, "gamma", check_param, self.gamma, "gamma", name, low=0.0, low_inclusive=False)
        state_param(name, "degree", check_param, self.degree, "degree", name, low=1, integer=True)
        state_param(name, "coef0", check_param, self.coef0, "coef0", name)
        restore_common_state(self, attributes)
        check_extra_state(name, attributes, {"n_iter_": "count", "objective_": "number", "n_components_": "count"})
        d = self.n_features_in_
        Xf = np.asarray(arrays["X_fit_"])
        if Xf.ndim != 2 or Xf.shape[1] != d or Xf.shape[0] < 1:
            raise ValueError(f"KernelRanker model state: X_fit_ {Xf.shape} must hold at least one row of "
                             f"n_features_in_ = {d} columns.")
        Xf = finite_array(name, "X_fit_", Xf, Xf.shape)
        beta = finite_array(name, "dual_coef_", arrays["dual_coef_"], (Xf.shape[0],))
        if mode == "nystroem":
            coef = np.asarray(arrays["coef_"])
            if coef.ndim != 1 or coef.shape[0] < 1:
                raise ValueError(f"KernelRanker model state: coef_ must be 1-D and not empty; got shape {coef.shape}.")
            coef = finite_array(name, "coef_", coef, coef.shape)
            proj = finite_array(name, "projection_", arrays["projection_"], (Xf.shape[0], coef.shape[0]))
            rank = coef.shape[0]
            with np.errstate(all="ignore"):
                implied = proj @ coef
                scale = float((np.abs(proj) @ np.abs(coef)).max())  # the size of the terms of the product
            if not np.isfinite(scale) or not np.all(np.isfinite(implied)):
                # (whether |projection_| @ |coef_| overflows depends on the BLAS's order of additions:
                # one message for both)
                raise ValueError("KernelRanker model state: projection_ @ coef_ (the Nystrom weights) leaves "
                                 "float64's range.")
            if not np.allclose(beta, implied, rtol=1e-6, atol=1e-9 * scale):
                raise ValueError("KernelRanker model state: dual_coef_ must equal projection_ @ coef_ "
                                 "(the Nystrom weights).")
        else:
            rank = Xf.shape[0]
        if attributes["n_components_"] != rank:
            raise ValueError(f"KernelRanker model state: n_components_ = {attributes['n_components_']} does not match "
                             f"the saved arrays ({rank}).")
        self._check_kernel_bound(Xf, beta, float(self.intercept_))
        if mode == "nystroem":
            self.coef_, self.projection_ = coef, proj
        self.X_fit_, self.dual_coef_ = Xf, beta
        for k, v in attributes.items():
            setattr(self, k, v)
        check_scorer(self)

    def _check_kernel_bound(self, Xf, beta, intercept) -> None:
        """Refuse weights and landmarks with which a row of features of size up to
        ``S = INPUT_SCALE`` can score beyond float64's range (:func:`check_score_bound`).
        For such a row ``x`` and a landmark ``z``, ``|x . z| <= S r(z)`` with
        ``r(z) = sum_j |z_j|``, so ``|k(x, z)|`` is at most 1 (rbf, laplacian, sigmoid),
        ``S r(z)`` (linear) or ``(gamma S r(z) + |coef0|)^degree`` (poly), and
        ``|score| <= sum_i |beta_i| |k(x, z_i)| + |intercept_|``. The rbf kernel is
        computed from squared norms, so each landmark's squared norm must be finite too,
        and the dot-product kernels need a finite ``r(z)``."""
        name = "KernelRanker"
        gamma = 1.0 / Xf.shape[1] if self.gamma is None else float(self.gamma)
        with np.errstate(over="ignore", invalid="ignore"):
            ab = np.abs(beta)
            if self.kernel == "rbf" and not np.all(np.isfinite(np.einsum("ij,ij->i", Xf, Xf))):
                raise ValueError(f"{name} model state: X_fit_ holds rows whose squared norm overflows float64; "
                                 "the rbf kernel of such a row is not finite.")
            if self.kernel in ("linear", "poly", "sigmoid"):
                r = np.abs(Xf).sum(axis=1)
                if not np.all(np.isfinite(r)):
                    raise ValueError(f"{name} model state: X_fit_ holds rows whose sum of absolute values overflows "
                                     "float64; their dot product with a row of features is not finite.")
            if self.kernel == "linear":
                bound = float(ab @ (INPUT_SCALE * r))
            elif self.kernel == "poly":
                base = gamma * INPUT_SCALE * r + abs(float(self.coef0))
                # in logs, so that a large degree does not overflow before the sum
                with np.errstate(divide="ignore"):
                    logk = float(self.degree) * np.log(base)
                    logt = np.log(ab) + logk
                top = float(np.max(logt))
                bound = 0.0 if top == -np.inf else float(np.exp(top) * np.exp(logt - top).sum())
            else:
                bound = float(ab.sum())
            bound += abs(intercept)
        check_score_bound(name, bound, "dual_coef_ and the kernel's values")
