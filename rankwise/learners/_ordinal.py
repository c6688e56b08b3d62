r"""A scorer for ordered classes built from bipartite rankers of the classes' pairs.

S. Clémençon, S. Robbiano and N. Vayatis ("Ranking data with ordinal labels: optimality
and pairwise aggregation", Machine Learning 91, 2013) carry the bipartite theory over to
K ordered classes: when the likelihood ratio of each class against the one below it is a
nondecreasing function of one scoring function, that function is optimal for every
bipartite subproblem at once and maximises the volume under the ROC surface (VUS), and an
optimal scorer can be obtained by aggregating scorers learned on the subproblems of
consecutive classes. :class:`OrdinalRanker` learns those K - 1 bipartite scorers with any
rankwise learner and combines them into one score by a consensus of their ranks.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, has_fit_parameter, validate_data

from .._validation import check_choice, format_values
from ..metrics import vus
from ._base import store_params

__all__ = ["OrdinalRanker"]

_PAIRS = ("consecutive", "cumulative")
_AGGREGATIONS = ("mean_rank", "median_rank", "sum")


def _mid_cdf(values: np.ndarray, cum: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The reference sample's mid-distribution function, read continuously at ``s``.

    ``values`` are the sample's distinct values, sorted; ``cum`` the cumulative shares of
    its mass up to and including each (ending at 1). At a value ``values[j]`` the result
    is the share of mass strictly below it plus half the share equal to it; between two
    consecutive values it is interpolated linearly; below the smallest and above the
    largest it stays at theirs. Continuity matters: a row scored twice may get scores
    one rounding apart (a matrix product in another batch size), and a step function
    would turn that into a jump of half a value's mass. NaN stays NaN."""
    mid = cum - 0.5 * np.diff(np.concatenate(([0.0], cum)))
    return np.interp(s, values, mid)  # NaN in, NaN out


#: Training scores closer than this, relative to the largest |score|, are one value: the
#: same row scored in two batches (or a row and its repeat) can differ by a few roundings,
#: and the reference distribution must not split them into two values.
_MERGE = 1e-12


#: Decimals the mean and median ranks are rounded to (see OrdinalRanker._aggregate).
_DECIMALS = 12


def _reference(s: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of the scores ``s`` (weights ``w``), sorted, with scores within
    ``_MERGE`` times the largest ``|s|`` of their neighbour counted as one value (placed at
    the lowest of them), and the cumulative shares of weight up to each (ending at 1)."""
    order = np.argsort(s, kind="stable")
    s, w = s[order], w[order]
    new = np.concatenate(([True], np.diff(s) > _MERGE * float(np.max(np.abs(s)))))
    cum = np.cumsum(np.bincount(np.cumsum(new) - 1, weights=w))
    return s[new], cum / cum[-1]


def _cut_points(score: np.ndarray, index: np.ndarray, sw: np.ndarray, K: int) -> np.ndarray:
    """Cut points ``t_1 <= ... <= t_{K-1}`` of the training ``score`` such that
    ``score > t_j`` holds for the top of the training ranking carrying the (weighted)
    share of rows of classes ``j`` and above: ``t_j`` lies halfway between the lowest
    score of that top and the next lower one (scores one rounding apart count as one,
    as in :func:`_reference`)."""
    keep = sw > 0
    values, cum = _reference(score[keep], sw[keep])
    above = 1.0 - np.concatenate(([0.0], cum[:-1]))  # the share at or above each value
    total = float(sw.sum())
    cuts = []
    for j in range(1, K):
        share = float(sw[index >= j].sum()) / total
        g = int(np.searchsorted(-above, -share * (1.0 - 1e-12), side="right")) - 1  # last value reaching it
        g = max(g, 0)
        cuts.append(0.5 * (values[g] + values[g - 1]) if g > 0 else values[0] - 1.0)
    return np.maximum.accumulate(np.asarray(cuts, dtype=np.float64))


class OrdinalRanker(ClassifierMixin, BaseEstimator):
    r"""One score for K ordered classes, aggregated from bipartite rankers of the classes' pairs.

    Parameters
    ----------
    base_estimator : estimator, optional
        The bipartite learner fitted on each subproblem (cloned, labels 0 and 1, 1 for the
        higher classes); it must give ``decision_function`` (higher = label 1) or
        ``predict_proba``. Default: :class:`rankwise.ProperLossRanker` with the logistic
        loss, whose scores are log-odds.
    classes : sequence of labels, optional
        The classes in their order, lowest first. Default: the order of an ordered
        pandas ``Categorical`` ``y`` (its categories that occur), else the sorted
        distinct values of ``y`` (so string labels such as "low" < "mid" < "high" need
        ``classes``: sorted, they would read "high" < "low" < "mid").
    pairs : {"consecutive", "cumulative"}, default "consecutive"
        The K - 1 subproblems. ``"consecutive"``: class k + 1 against class k, on the
        rows of those two classes only (the subproblems of Clémençon, Robbiano & Vayatis).
        ``"cumulative"``: the classes above k against class k and those below, on every
        row.
    aggregation : {"mean_rank", "median_rank", "sum"}, default "mean_rank"
        How the K - 1 scores of a row become one. ``"mean_rank"``: the mean of the row's
        normalised ranks (each bipartite score read through the mid-distribution function
        of that scorer's training scores, a value in [0, 1]); ``"median_rank"``: their
        median; ``"sum"``: the sum of the raw bipartite scores, meaningful when they share
        a scale (the log-odds of the default learner).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The classes in their order.
    estimators_ : list of K - 1 fitted estimators
        ``estimators_[k]`` ranks class ``classes_[k + 1]`` (consecutive) or the classes
        above ``classes_[k]`` (cumulative) above the others.
    reference_values_, reference_cdf_ : lists of K - 1 ndarrays
        For each bipartite scorer, the distinct values of its scores on the training rows
        of positive weight, sorted, and the cumulative share of the training weight up to
        and including each: the distribution the normalised ranks are read from.
    thresholds_ : ndarray of shape (K - 1,)
        Nondecreasing cut points of ``decision_function`` used by ``predict``.
    n_features_in_, feature_names_in_
        As in scikit-learn.

    Notes
    -----
    With classes :math:`1 < \dots < K`, let :math:`s_k` (k = 1..K-1) be the bipartite
    scorer of subproblem k, and :math:`F_k` the mid-distribution function of its scores
    on the training rows, weighted: :math:`F_k(t) = \sum_i w_i ([s_k(x_i) < t] +
    \tfrac12 [s_k(x_i) = t]) / \sum_i w_i` at the training scores, interpolated linearly
    between them and held at the end values beyond them (training scores closer than
    :math:`10^{-12}` times the largest :math:`|s_k|` count as one value). The
    interpolation makes :math:`F_k` continuous, so that a row scored one rounding away
    from a training score (in another batch) gets the same rank. The score of a row
    :math:`x` is (the mean and the median rounded to 12 decimals, so that rows whose
    ranks average to the same fraction tie exactly instead of being ordered by the last
    bit of a float sum)

    .. math:: s(x) = \frac{1}{K-1}\sum_{k=1}^{K-1} F_k(s_k(x)) \quad (\text{mean\_rank}),
              \qquad \operatorname{median}_k F_k(s_k(x)), \qquad \sum_k s_k(x) \quad (\text{sum}).

    Higher = higher class. ``score`` is the VUS (K > 3: the hypervolume; K = 2: the AUC)
    of ``decision_function`` in the order of ``classes_`` (:func:`rankwise.vus`), ties
    counted as the share of tie-breakings that order the chain.

    What this is, and what it is not. Clémençon, Robbiano & Vayatis (2013) show that an
    optimal scoring function for K ordered classes (one whose ROC surface dominates
    every other's, hence maximising the VUS) exists when the class-conditional laws have
    monotone likelihood ratios, :math:`dF_{k+1}/dF_k` a nondecreasing function of one
    scorer :math:`s^*`; the optimal scorer of each consecutive subproblem is then an
    increasing transform of :math:`s^*`, so the K - 1 bipartite rankings coincide. With
    learned scorers they do not, and the paper aggregates them into a median ranking in
    the sense of Kendall's tau (a scorer minimising the summed probability of discordance
    with the K - 1 scorers), for which it proves that consistency of the bipartite
    scorers carries over to the VUS. That median is a hard combinatorial problem; this
    class uses practical consensuses instead: the mean of normalised ranks is an analogue
    of Borda's count, which is a constant-factor approximation of the Kendall median
    (Coppersmith, Fleischer & Rudra 2010, "Ordering by weighted number of wins gives a
    good ranking for weighted tournaments", ACM Transactions on Algorithms 6), and the
    median of ranks is the per-item median aggregation studied by Fagin, Kumar &
    Sivakumar (2003, "Efficient similarity search and classification via rank
    aggregation", SIGMOD). Each row's ranks are read against the training sample, not
    against the rows being scored, so the result is a scoring function: a row's score
    does not depend on the other rows scored with it. The paper's consistency result is
    not claimed for these aggregations. Under the same monotone likelihood ratio
    condition the cumulative subproblems' optimal scorers are increasing transforms of
    :math:`s^*` too, which is why ``pairs="cumulative"`` (not the paper's choice) is
    offered; it fits every subproblem on all rows.

    ``predict`` gives the class whose slot the score falls in, the cut points
    (``thresholds_``) set so that on the training rows each class is predicted for the
    (weighted) share of rows it holds. There is no ``predict_proba``: the score is a
    ranking, not a probability.

    Examples
    --------
    Six rows on one feature, two per class. Each bipartite scorer increases with ``x``,
    so each row's normalised rank is its mid-rank among the six training rows,
    ``(i + 1/2) / 6``, and the mean of the two is the same:

    >>> import numpy as np, rankwise as rw
    >>> X = np.arange(6.0).reshape(-1, 1)
    >>> y = np.array(["lo", "lo", "mid", "mid", "hi", "hi"])
    >>> m = rw.OrdinalRanker(classes=["lo", "mid", "hi"]).fit(X, y)
    >>> m.decision_function(X).round(4).tolist()
    [0.0833, 0.25, 0.4167, 0.5833, 0.75, 0.9167]
    >>> m.score(X, y), m.predict([[-3.0], [2.4], [9.0]]).tolist()
    (1.0, ['lo', 'mid', 'hi'])
    """

    def __init__(self, base_estimator=None, *, classes=None, pairs: str = "consecutive",
                 aggregation: str = "mean_rank"):
        store_params(self, locals())

    # --- fitting --------------------------------------------------------------------------
    def _base(self):
        if self.base_estimator is None:
            from ._proper import ProperLossRanker

            return ProperLossRanker(loss="logistic")
        if not (hasattr(self.base_estimator, "fit") and hasattr(self.base_estimator, "get_params")):
            raise TypeError("The 'base_estimator' parameter of OrdinalRanker must be a scikit-learn estimator "
                            f"(with fit and get_params) or None. Got {type(self.base_estimator).__name__} instead.")
        return self.base_estimator

    def _order(self, y_raw, y: np.ndarray) -> np.ndarray:
        """The classes in their order: ``classes``, an ordered Categorical's order, or sorted."""
        if self.classes is not None:
            if isinstance(self.classes, (str, bytes)) or not hasattr(self.classes, "__len__"):
                raise TypeError("The 'classes' parameter of OrdinalRanker must be a sequence of labels in their "
                                f"order, lowest first, or None. Got {self.classes!r} instead.")
            classes = np.asarray(list(self.classes), dtype=object)
            items = classes.tolist()
            if len(items) < 2:
                raise ValueError("The 'classes' parameter of OrdinalRanker must hold at least two labels. "
                                 f"Got {items!r} instead.")
            try:
                distinct = len(set(items)) == len(items)
            except TypeError:
                raise TypeError("The 'classes' parameter of OrdinalRanker must hold hashable labels.") from None
            if not distinct:
                raise ValueError(f"The 'classes' parameter of OrdinalRanker names a label twice: {items!r}.")
            # the labels' own dtype (numbers, strings) where they share one
            plain = np.asarray(items)
            return plain if plain.dtype.kind in "biufUS" and plain.shape == (len(items),) else classes
        dtype = getattr(y_raw, "dtype", None)
        if getattr(dtype, "ordered", False):  # an ordered pandas Categorical: its order
            present = set(np.unique(y).tolist())
            return np.asarray([c for c in dtype.categories if c in present])
        return np.unique(y)

    def fit(self, X, y, sample_weight=None):
        """Fit the K - 1 bipartite scorers on ``X`` (n, d) and ordered labels ``y``."""
        check_choice(self.pairs, "pairs", "OrdinalRanker", _PAIRS)
        check_choice(self.aggregation, "aggregation", "OrdinalRanker", _AGGREGATIONS)
        base = self._base()
        y_raw = y
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=np.float64)
        check_classification_targets(y)
        classes = self._order(y_raw, y)
        index = np.full(y.shape[0], -1, dtype=np.int64)
        for k, c in enumerate(classes.tolist()):
            index[y == c] = k
        if np.any(index < 0):
            unknown = np.unique(y[index < 0])
            raise ValueError(f"OrdinalRanker: y holds labels that are not among the ordered classes "
                             f"{format_values(classes)}: {format_values(unknown)}.")
        K = classes.shape[0]
        if K < 2:
            raise ValueError(f"OrdinalRanker needs at least two ordered classes; y holds one class "
                             f"({format_values(classes)}).")
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        mass = np.bincount(index, weights=sw, minlength=K)
        if np.any(mass <= 0):
            empty = classes[mass <= 0]
            raise ValueError(f"OrdinalRanker: each ordered class needs rows of positive total weight in y; "
                             f"{format_values(empty)} has none.")
        if sample_weight is not None and not has_fit_parameter(base, "sample_weight"):
            raise TypeError(f"OrdinalRanker: the base estimator {type(base).__name__} does not take sample_weight "
                            "in fit; fit without weights or choose a base estimator that takes them.")

        self.classes_ = classes
        self.estimators_ = []
        for k in range(K - 1):
            if self.pairs == "consecutive":
                rows = np.flatnonzero((index == k) | (index == k + 1))
            else:
                rows = np.arange(y.shape[0])
            target = (index[rows] > k).astype(np.int64)
            est = clone(base)
            if sample_weight is not None:
                est.fit(X[rows], target, sample_weight=sw[rows])
            else:
                est.fit(X[rows], target)
            self.estimators_.append(est)

        S = self._bipartite(X)
        keep = sw > 0
        self.reference_values_, self.reference_cdf_ = [], []
        for k in range(K - 1):
            s, w = S[keep, k], sw[keep]
            if not np.all(np.isfinite(s)):
                raise ValueError(f"OrdinalRanker: the bipartite scorer of subproblem {k} gives scores that are "
                                 "not all finite on the training rows; no ranks can be read from them.")
            values, cum = _reference(s, w)
            self.reference_values_.append(values)
            self.reference_cdf_.append(cum)
        agg = self._aggregate(S)
        if not np.all(np.isfinite(agg[keep])):
            raise ValueError("OrdinalRanker: the sum of the bipartite scores overflows on the training rows; "
                             "use aggregation='mean_rank' or 'median_rank'.")
        self.thresholds_ = _cut_points(agg, index, sw, K)
        return self

    # --- scoring --------------------------------------------------------------------------
    def _bipartite(self, X) -> np.ndarray:
        cols = []
        for k, est in enumerate(self.estimators_):
            if hasattr(est, "decision_function"):
                s = np.asarray(est.decision_function(X), dtype=np.float64)
                if s.ndim == 2 and s.shape[1] == 1:
                    s = s[:, 0]
            elif hasattr(est, "predict_proba"):
                labels = np.asarray(est.classes_).tolist()
                s = np.asarray(est.predict_proba(X), dtype=np.float64)[:, labels.index(1)]
            else:
                raise TypeError(f"OrdinalRanker: the base estimator {type(est).__name__} has neither "
                                "decision_function nor predict_proba; a bipartite scorer is needed.")
            if s.shape != (X.shape[0],):
                raise ValueError(f"OrdinalRanker: the bipartite scorer of subproblem {k} gave scores of shape "
                                 f"{s.shape}; one score per row, shape ({X.shape[0]},), is needed.")
            cols.append(s)
        return np.column_stack(cols)

    def _aggregate(self, S: np.ndarray) -> np.ndarray:
        if self.aggregation == "sum":
            return S.sum(axis=1)
        R = np.column_stack([_mid_cdf(v, c, S[:, k])
                             for k, (v, c) in enumerate(zip(self.reference_values_, self.reference_cdf_))])
        agg = R.mean(axis=1) if self.aggregation == "mean_rank" else np.median(R, axis=1)
        # Rows whose ranks average to the same value tie: ranks at training values are
        # fractions of the training weight, and two rows whose ranks sum alike would
        # otherwise be ordered by the last bit of a float sum (which a machine's BLAS, or
        # another batch, decides). Ranks lie in [0, 1]; 12 decimals keep every real difference.
        return np.round(agg, _DECIMALS)

    def bipartite_scores(self, X) -> np.ndarray:
        """The K - 1 bipartite scores of each row, shape (n, K - 1): column k from
        ``estimators_[k]`` (its ``decision_function``, or its probability of label 1)."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        return self._bipartite(X)

    def normalised_ranks(self, X) -> np.ndarray:
        """Each bipartite score read through the mid-distribution function of that scorer's
        training scores, shape (n, K - 1), values in [0, 1]."""
        S = self.bipartite_scores(X)
        return np.column_stack([_mid_cdf(v, c, S[:, k])
                                for k, (v, c) in enumerate(zip(self.reference_values_, self.reference_cdf_))])

    def decision_function(self, X) -> np.ndarray:
        """The aggregated score, shape (n,): higher = higher class in the order of ``classes_``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        check_choice(self.aggregation, "aggregation", "OrdinalRanker", _AGGREGATIONS)
        return self._aggregate(self._bipartite(X))

    def predict(self, X) -> np.ndarray:
        """The class of each row: ``classes_[j]`` with ``j`` the number of ``thresholds_``
        below its score."""
        s = self.decision_function(X)
        if np.any(np.isnan(s)):
            raise ValueError("OrdinalRanker: a bipartite scorer gave NaN scores; these rows have no class.")
        return self.classes_[np.searchsorted(self.thresholds_, s, side="left")]

    def score(self, X, y, sample_weight=None) -> float:
        """VUS of the scores on ``(X, y)`` in the order of ``classes_`` (the AUC for two
        classes, the hypervolume for more than three): :func:`rankwise.vus`."""
        check_is_fitted(self)
        return vus(y, self.decision_function(X), labels=self.classes_.tolist(), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
