"""Venkatraman's permutation tests that two ROC curves are equal (paired and unpaired).

:func:`curve_test` compares two scorers on the same rows (Venkatraman and Begg 1996);
:func:`curve_test_unpaired` compares two scorers on two independent samples (Venkatraman
2000). Both test that the two ROC *curves* are the same at every operating point, not
that their areas are equal: two curves that cross can have the same AUC and still be
told apart. The statistic equals R pROC's ``roc.test(method="venkatraman")`` for the same
data (ties broken by row order, pROC's ``ties.method = "first"``); the permutation
p-value follows the same permutation law. The mathematics is in ``docs/curve_test.md``.

Every permutation costs O(n) (integer sort keys placed in a dense array, no comparison
sort) and permutations run in batches of vectorised numpy; the random draws depend only
on ``random_state`` and the sample sizes, so a seed gives the same numbers everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._labels import check_sample
from .._validation import check_choice, check_param, check_scores, check_same_length
from ._results import fmt, format_rows, html_table

__all__ = ["CurveTest", "curve_test", "curve_test_unpaired", "MIXINGS", "PERMUTATIONS"]

#: How :func:`curve_test_unpaired` weighs positives against negatives in its mixture
#: axis: ``"pooled"``, the share of positives in both samples together (Venkatraman
#: 2000), or ``"proc"``, pROC 1.18's weight ``(positives_a + positives_b) / (2 n_a)``
#: (the same when the two samples have the same size).
MIXINGS = ("pooled", "proc")

#: What :func:`curve_test_unpaired` pools and deals back within each class: ``"ranks"``,
#: each row's rank within its own sample (pROC's scheme), or ``"mixture"``, each row's
#: position on the common mixture axis (its sample's share of positives and of negatives
#: at or below it, weighted by the pooled share of positives), which is on the same scale
#: in both samples whatever their sizes and shares of positives.
PERMUTATIONS = ("ranks", "mixture")

#: Rows times permutations drawn at once (about 2 MB of random bytes); the batch size
#: depends only on the sample size, so the draws of a seed never depend on the machine.
_BATCH_CELLS = 1 << 21


@dataclass(frozen=True, eq=False)
class CurveTest:
    """The result of :func:`curve_test` or :func:`curve_test_unpaired`.

    The null hypothesis is that the two ROC curves are equal at every operating point;
    the test is two-sided and does not compare the AUCs (equal AUCs do not make equal
    curves).

    Attributes
    ----------
    statistic : float
        Venkatraman's ``E`` on the data (equal to pROC's ``roc.test(method="venkatraman")``
        statistic).
    p_value : float
        The share of permutations whose statistic is at least ``statistic`` (as pROC;
        0 when none is: then p < 1 / n_permutations).
    n_permutations : int
    permutation_statistics : ndarray (n_permutations,)
        The statistic of each permutation, in the order drawn (read-only).
    paired : bool
    names : tuple of str
        The two scorers' names.
    n_pos, n_neg : int or (int, int)
        The class sizes (paired: one sample; unpaired: each sample's).
    mixing : float or None
        Unpaired only: the weight of the positives in the mixture axis (see
        :data:`MIXINGS`).
    permutation : str or None
        Unpaired only: what the permutations pooled (see :data:`PERMUTATIONS`).
    """

    statistic: float
    p_value: float
    n_permutations: int
    permutation_statistics: np.ndarray = field(repr=False)
    paired: bool
    names: tuple
    n_pos: Any
    n_neg: Any
    mixing: float | None = None
    permutation: str | None = None

    @property
    def method(self) -> str:
        kind = "paired" if self.paired else "unpaired"
        return f"Venkatraman's permutation test of two {kind} ROC curves"

    def _rows(self):
        p = fmt(self.p_value) if self.p_value > 0 else f"< {fmt(1.0 / self.n_permutations)}"
        null = self.permutation_statistics
        stat = int(self.statistic) if self.paired else self.statistic  # the paired E is a count
        rows = [["E (statistic)", fmt(stat)], ["p-value", p],
                ["permutations", str(self.n_permutations)],
                ["E under H0: mean (sd)", f"{fmt(float(null.mean()))} ({fmt(float(null.std(ddof=1)) if null.size > 1 else float('nan'))})"]]
        if self.paired:
            rows.append(["positives / negatives", f"{self.n_pos} / {self.n_neg}"])
        else:
            rows.append([f"positives / negatives ({self.names[0]})", f"{self.n_pos[0]} / {self.n_neg[0]}"])
            rows.append([f"positives / negatives ({self.names[1]})", f"{self.n_pos[1]} / {self.n_neg[1]}"])
            rows.append(["mixing weight of positives", fmt(self.mixing)])
            rows.append(["values permuted", "ranks within each sample (pROC)" if self.permutation == "ranks"
                         else "positions on the mixture axis"])
        notes = [f"H0: the ROC curves of {self.names[0]!r} and {self.names[1]!r} are equal at every operating "
                 "point; H1: they differ somewhere (two-sided). This is a test of the whole curves, not of the "
                 "AUCs: curves that cross can have equal AUCs and differ."]
        return rows, notes

    def summary(self) -> str:
        """The statistic, the p-value, the permutation law's mean and the hypotheses, in text."""
        rows, notes = self._rows()
        return "\n".join([self.method, format_rows(["", "value"], rows), *notes])

    def _repr_html_(self) -> str:
        rows, notes = self._rows()
        return html_table(self.method, ["", "value"], rows, notes)

    def __str__(self) -> str:
        return self.summary()


# --- the statistics ----------------------------------------------------------------------


def _signs(order: np.ndarray, is_pos: np.ndarray) -> np.ndarray:
    """+1 for a positive, -1 for a negative, in the order given."""
    return np.where(is_pos[order], 1, -1).astype(np.int8)


def _paired_stat(seq_a: np.ndarray, seq_b: np.ndarray) -> np.ndarray:
    """E of the paired test from each scorer's class signs in ascending rank order
    (``(..., n)``): the sum over ranks of |cumulative sign of b - cumulative sign of a|."""
    ca = np.cumsum(seq_a, axis=-1, dtype=np.int64)
    cb = np.cumsum(seq_b, axis=-1, dtype=np.int64)
    return np.abs(cb - ca).sum(axis=-1).astype(np.float64)


def _mixture_curve(seq: np.ndarray, mp: float) -> tuple[np.ndarray, np.ndarray]:
    """The knots ``(p, e)`` of one sample's curve on the mixture axis, from its class
    signs in ascending rank order: ``p = mp F + (1 - mp) G`` and
    ``e = mp F + (1 - mp)(1 - G)``, with F and G the shares of positives and negatives
    at or below each rank (computed in the order pROC computes them)."""
    k = np.arange(1, seq.shape[0] + 1, dtype=np.float64)
    a = np.cumsum(seq > 0, dtype=np.int64).astype(np.float64)
    n_pos = a[-1]
    b = k - a
    n_neg = b[-1]
    fx = a / n_pos
    gx = b / n_neg
    p = mp * fx + (1.0 - mp) * gx
    e = mp * fx + (1.0 - mp) * (1.0 - gx)
    if not np.all(p[1:] > p[:-1]):  # mp outside (0, 1) (mixing="proc"): R's approxfun regularisation
        order = np.argsort(p, kind="stable")
        p, e = p[order], e[order]
        uniq, start = np.unique(p, return_index=True)
        if uniq.shape[0] < p.shape[0]:
            counts = np.diff(np.append(start, p.shape[0]))
            e = np.add.reduceat(e, start) / counts
            p = uniq
    return p, e


def _at(v: np.ndarray, xp: np.ndarray, yp: np.ndarray) -> np.ndarray:
    """Linear interpolation through the knots ``(xp, yp)`` (``xp`` increasing) at ``v``,
    NaN outside them, as R's ``approxfun``: a knot gives its own value exactly."""
    out = np.interp(v, xp, yp)
    out[(v < xp[0]) | (v > xp[-1])] = np.nan
    return out


def _unpaired_stat(seq_a: np.ndarray, seq_b: np.ndarray, mp: float) -> float:
    """E of the unpaired test: the trapezoid sum of |e_a - e_b| over the sorted knots of
    both curves on the mixture axis, over the intervals where both curves are defined
    at both ends (pROC's quadrature)."""
    pa, ea = _mixture_curve(seq_a, mp)
    pb, eb = _mixture_curve(seq_b, mp)
    x = np.concatenate([pa, pb])
    y = np.abs(np.concatenate([ea - _at(pa, pb, eb), _at(pb, pa, ea) - eb]))
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    terms = (y[1:] + y[:-1]) * (x[1:] - x[:-1]) / 2.0
    return float(terms[~np.isnan(terms)].sum())


# --- the permutations ----------------------------------------------------------------------


def _compact(keys: np.ndarray, signs: np.ndarray, size: int, width: int) -> np.ndarray:
    """Class signs (``(B, n)``, nonzero) placed at their distinct integer keys in
    ``[0, size)``, read back in key order: ``(B, width)`` (O(size) a row)."""
    bsz = keys.shape[0]
    dense = np.zeros((bsz, size), dtype=np.int8)
    rows = np.arange(bsz, dtype=np.int64)[:, None] * size
    dense.ravel()[(keys + rows).ravel()] = np.broadcast_to(signs, keys.shape).ravel()
    return dense[dense != 0].reshape(bsz, width)


def _batch(n: int, total: int) -> int:
    return max(1, min(total, _BATCH_CELLS // max(n, 1)))


def _paired_permutations(rank_a: np.ndarray, rank_b: np.ndarray, sign: np.ndarray, n_perm: int,
                         rng: np.random.Generator) -> np.ndarray:
    """The statistic of each permutation: every row's two ranks swapped with probability
    1/2; a swapped rank tying an unswapped one of the same scorer is put before or after
    it by a fair coin (pROC's jitter of the unswapped ranks). Keys ``3 rank + {0, 1, 2}``
    are distinct, so each permutation is ordered by one O(n) placement."""
    n = rank_a.shape[0]
    size = 3 * n + 3
    out = np.empty(n_perm, dtype=np.float64)
    ka, kb = 3 * rank_a.astype(np.int64), 3 * rank_b.astype(np.int64)
    done = 0
    while done < n_perm:
        bsz = _batch(n, n_perm - done)
        bits = rng.integers(0, 8, size=(bsz, n), dtype=np.uint8)
        swap = (bits & 1).astype(bool)
        ja = ((bits >> 1) & 1).astype(np.int64) * 2
        jb = (bits >> 2).astype(np.int64) * 2
        key_a = np.where(swap, kb + 1, ka + ja)
        key_b = np.where(swap, ka + 1, kb + jb)
        seq_a = _compact(key_a, sign, size, n)
        seq_b = _compact(key_b, sign, size, n)
        out[done:done + bsz] = _paired_stat(seq_a, seq_b)
        done += bsz
    return out


def _mixture_levels(seq_a: np.ndarray, rank_a: np.ndarray, seq_b: np.ndarray, rank_b: np.ndarray) -> np.ndarray:
    """Each row's position on the common mixture axis (pooled share of positives), as the
    1-based index of its value among the distinct values of both samples (rounded to 12
    decimals, so that positions equal in exact arithmetic compare equal). Distinct within
    a sample; a level is shared by at most one row of each sample."""
    share = float((seq_a > 0).sum() + (seq_b > 0).sum()) / (seq_a.shape[0] + seq_b.shape[0])
    u = np.concatenate([_mixture_curve(seq_a, share)[0][rank_a - 1], _mixture_curve(seq_b, share)[0][rank_b - 1]])
    return np.unique(np.round(u, 12), return_inverse=True)[1].reshape(-1).astype(np.int64) + 1


def _unpaired_permutations(rank_a: np.ndarray, pos_a: np.ndarray, rank_b: np.ndarray, pos_b: np.ndarray,
                           mp: float, n_perm: int, rng: np.random.Generator,
                           levels: np.ndarray | None = None) -> np.ndarray:
    """The statistic of each permutation: the ranks of both samples' negatives pooled and
    dealt back at random (as many to each sample as it has), the same for the positives;
    each sample re-ranked, equal ranks from the two samples ordered by a fair coin
    (pROC's jitter). Keys ``2 rank + coin`` are distinct within a sample. ``levels``
    (one a pooled row, sample a's rows first) replaces the ranks as the pooled values
    (:func:`_mixture_levels`)."""
    n, m = rank_a.shape[0], rank_b.shape[0]
    rank = np.concatenate([rank_a, rank_b]).astype(np.int64) if levels is None else levels
    top = int(rank.max()) + 1
    size = 2 * top + 2
    origin_b = np.concatenate([np.zeros(n, dtype=np.int64), np.ones(m, dtype=np.int64)])
    pos = np.concatenate([pos_a, pos_b])
    neg_idx, pos_idx = np.flatnonzero(~pos), np.flatnonzero(pos)
    na_neg, na_pos = int((~pos_a).sum()), int(pos_a.sum())
    out = np.empty(n_perm, dtype=np.float64)
    done = 0
    while done < n_perm:
        bsz = _batch(n + m, n_perm - done)
        coin = rng.integers(0, 2, size=(bsz, top), dtype=np.int8).astype(np.int64)
        deal_neg = np.stack([rng.permutation(neg_idx) for _ in range(bsz)])
        deal_pos = np.stack([rng.permutation(pos_idx) for _ in range(bsz)])
        to_a = np.concatenate([deal_neg[:, :na_neg], deal_pos[:, :na_pos]], axis=1)
        to_b = np.concatenate([deal_neg[:, na_neg:], deal_pos[:, na_pos:]], axis=1)
        sign_a = np.concatenate([np.full(na_neg, -1, np.int8), np.full(na_pos, 1, np.int8)])
        sign_b = np.concatenate([np.full(neg_idx.shape[0] - na_neg, -1, np.int8),
                                 np.full(pos_idx.shape[0] - na_pos, 1, np.int8)])
        # every pooled row's key in this batch, then each sample's rows read from it (flat indices)
        flat_coin = (rank[None, :] + (np.arange(bsz, dtype=np.int64) * top)[:, None]).ravel()
        keys_all = 2 * rank[None, :] + (coin.ravel()[flat_coin].reshape(bsz, -1) ^ origin_b[None, :])
        base = (np.arange(bsz, dtype=np.int64) * (n + m))[:, None]
        keys = [keys_all.ravel()[(idx + base).ravel()].reshape(idx.shape) for idx in (to_a, to_b)]
        seq_a = _compact(keys[0], sign_a, size, n)
        seq_b = _compact(keys[1], sign_b, size, m)
        for t in range(bsz):
            out[done + t] = _unpaired_stat(seq_a[t], seq_b[t], mp)
        done += bsz
    return out


# --- the public functions ------------------------------------------------------------------


def _ranks(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ascending ranks 1..n, ties in row order (R's ``rank(ties.method = "first")``), and
    the order."""
    order = np.argsort(s, kind="stable")
    rank = np.empty(order.shape[0], dtype=np.int64)
    rank[order] = np.arange(1, order.shape[0] + 1)
    return rank, order


def _check_names(names: Any, func: str) -> tuple[str, str]:
    if isinstance(names, str) or not isinstance(names, (tuple, list)) or len(names) != 2 or not all(
            isinstance(x, str) for x in names) or names[0] == names[1]:
        raise ValueError(f"The 'names' argument of {func} must be two distinct strings. Got {names!r} instead.")
    return tuple(names)


def _two_classes(sample, arg: str, func: str) -> tuple[int, int]:
    n_pos = int(sample.is_pos.sum())
    n_neg = sample.n_rows - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError(f"The '{arg}' argument of {func} must contain both classes (at least one positive and "
                         f"one negative): got {n_pos} positive(s) and {n_neg} negative(s).")
    return n_pos, n_neg


def _rng(random_state: Any) -> np.random.Generator:
    try:
        return np.random.default_rng(random_state)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"The 'random_state' argument must be None, an integer, a SeedSequence or a numpy "
                        f"Generator. Got {random_state!r} instead.") from exc


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def curve_test(y_true, y_score_a, y_score_b, *, n_permutations: int = 2000, random_state=None,
               pos_label=None, names=("a", "b")) -> CurveTest:
    r"""Test that two scorers' ROC curves on the same rows are equal (Venkatraman and Begg).

    A permutation test of H0: the two ROC curves are equal at every operating point,
    against any difference (two-sided). It is **not** a test of the AUCs: two curves
    that cross can have equal AUCs and differ, and this test can reject them (see
    ``docs/curve_test.md``). For the AUCs use :func:`compare`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score_a, y_score_b : array-like of shape (n,)
        The two scorers' scores on the same rows (finite reals; higher = more likely
        positive).
    n_permutations : int, default 2000
        Number of permutations (at least 1).
    random_state : None, int, SeedSequence or numpy Generator
        Seed of the permutations; the same seed gives the same p-value on every machine.
    pos_label : object, optional
        The positive label (as in :func:`rankwise.auc`).
    names : (str, str), default ("a", "b")
        The scorers' names in the summary.

    Returns
    -------
    CurveTest

    Notes
    -----
    Rank each scorer's scores 1..n, ascending, ties broken by row order (pROC's
    ``ties.method = "first"``). For a scorer with ranks :math:`r` and a cut at rank
    :math:`x` (rows of rank :math:`\le x` called negative), the number of errors is
    :math:`\mathrm{err}(x) = \#\{\text{positives with } r \le x\} + \#\{\text{negatives
    with } r > x\}`. The statistic is

    .. math:: E = \sum_{x=1}^{n} \lvert \mathrm{err}_b(x) - \mathrm{err}_a(x) \rvert,

    the area between the two curves' error counts along the rank axis (Venkatraman and
    Begg 1996): the two ROC curves are equal exactly when the two scorers misclassify
    the same number of rows at every rank cut. Under H0 the two ranks of a row are
    exchangeable, so each permutation swaps the two ranks of every row with probability
    1/2 and recomputes :math:`E` on the re-ranked columns (a swapped rank that ties an
    unswapped one of the same column is placed before or after it by a fair coin, as
    pROC does). The p-value is the share of permutations with a statistic at least
    :math:`E` (pROC's convention). Each permutation costs O(n).

    Venkatraman, E. S. and Begg, C. B. (1996). A distribution-free procedure for
    comparing receiver operating characteristic curves from a paired experiment.
    Biometrika 83(4), 835-848.

    Robin, X. et al. (2011). pROC: an open-source package for R and S+ to analyze and
    compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 0, 1, 1]
    >>> t = rw.stats.curve_test(y, [1, 2, 3, 4], [3, 4, 1, 2], n_permutations=200, random_state=0)
    >>> t.statistic   # at x = 1..4, err_a = 1, 0, 1, 2 and err_b = 3, 4, 3, 2: 2 + 4 + 2 + 0
    8.0
    """
    func = "curve_test"
    names = _check_names(names, func)
    n_perm = check_param(n_permutations, "n_permutations", func, low=1, integer=True)
    sample = check_sample(y_true, y_score_a, pos_label=pos_label, func=func, score_name="y_score_a")
    s_b = check_scores(y_score_b, name="y_score_b")
    check_same_length(sample.n_rows, s_b.shape[0], "y_score_b")
    n_pos, n_neg = _two_classes(sample, "y_true", func)
    rng = _rng(random_state)
    is_pos = sample.is_pos
    rank_a, order_a = _ranks(sample.scores)
    rank_b, order_b = _ranks(s_b)
    stat = float(_paired_stat(_signs(order_a, is_pos), _signs(order_b, is_pos)))
    sign = np.where(is_pos, 1, -1).astype(np.int8)
    null = _paired_permutations(rank_a, rank_b, sign, n_perm, rng)
    p = float(np.count_nonzero(null >= stat)) / n_perm
    return CurveTest(stat, p, n_perm, _read_only(null), True, names, n_pos, n_neg, None)


def curve_test_unpaired(y_true_a, y_score_a, y_true_b, y_score_b, *, n_permutations: int = 2000,
                        random_state=None, pos_label=None, mixing: str = "pooled",
                        permutation: str = "ranks", names=("a", "b")) -> CurveTest:
    r"""Test that the ROC curves of two independent samples are equal (Venkatraman 2000).

    A permutation test of H0: the ROC curve of scorer ``a`` on sample ``a`` equals the
    ROC curve of scorer ``b`` on sample ``b`` at every operating point (two-sided); not
    a test of the AUCs. For the AUCs use :func:`compare_unpaired`.

    Parameters
    ----------
    y_true_a, y_score_a : array-like of shape (n_a,)
        The first sample's binary labels and scores (higher = more likely positive).
    y_true_b, y_score_b : array-like of shape (n_b,)
        The second sample's.
    n_permutations : int, default 2000
        Number of permutations (at least 1).
    random_state : None, int, SeedSequence or numpy Generator
        Seed of the permutations.
    pos_label : object, optional
        The positive label of both samples.
    mixing : {"pooled", "proc"}, default "pooled"
        The weight :math:`\pi` of the positives on the mixture axis: ``"pooled"`` the
        share of positives in both samples together; ``"proc"`` pROC 1.18's
        :math:`(n^+_a + n^+_b) / (2 n_a)` (its code counts the first sample's size
        twice; equal to ``"pooled"`` when ``n_a = n_b``). Any fixed weight gives a valid
        test; use ``"proc"`` to reproduce pROC's statistic on samples of different sizes.
    permutation : {"ranks", "mixture"}, default "ranks"
        What each permutation pools within each class and deals back: ``"ranks"``, the
        rows' ranks within their own samples (pROC's scheme); ``"mixture"``, the rows'
        positions on the common mixture axis (see Notes). The two behave alike for
        samples of one size and one share of positives; otherwise pooled ranks are on
        different scales, and pROC's scheme is conservative (rejecting about 2% of the time at 5%
        under H0 with 100 and 200 rows and 40% and 25% positives, 4% with 100 and 200 rows
        and equal shares: ``experiments/curve_test_size.py``), while ``"mixture"`` keeps
        the size near 5% there.
    names : (str, str), default ("a", "b")

    Returns
    -------
    CurveTest

    Notes
    -----
    Rank each sample's scores within the sample (1..n, ties by row order as pROC). Let
    :math:`F(x)` and :math:`G(x)` be the shares of the sample's positives and negatives
    with rank :math:`\le x`. On the mixture axis :math:`u = \pi F + (1 - \pi) G` a
    sample's curve is :math:`e(u) = \pi F + (1 - \pi)(1 - G)` (the mixture-weighted
    error rate of the cut at :math:`x`), linear between the knots :math:`x = 1..n`. The
    statistic is :math:`E = \int \lvert e_a(u) - e_b(u) \rvert \, du`, taken by the
    trapezoid rule over the sorted knots of both curves where both are defined (this
    is pROC's quadrature, reproduced exactly). pROC's scheme treats the ranks as
    exchangeable between the samples within each class: each permutation pools the ranks of both
    samples' negatives and deals them back at random, the same for the positives,
    re-ranks each sample (equal ranks from the two samples ordered by a fair coin) and
    recomputes :math:`E`. With ``permutation="mixture"`` the values pooled are the rows'
    positions :math:`\bar\pi F + (1 - \bar\pi) G` in their own samples with the pooled
    share of positives :math:`\bar\pi`: under H0 this is the same increasing function of
    the score's quantile among the negatives in both samples, so the positions are
    exchangeable between the samples within each class up to the estimation of F and G
    (equal positions from the two samples ordered by a fair coin). The p-value is the
    share of permutations with a statistic at least :math:`E` (pROC's convention;
    statistics within 1e-12 relative of :math:`E` count as equal, against rounding).

    Venkatraman, E. S. (2000). A permutation test to compare receiver operating
    characteristic curves. Biometrics 56(4), 1134-1138.

    Examples
    --------
    >>> import rankwise as rw
    >>> t = rw.stats.curve_test_unpaired([0, 1, 0, 1], [1, 2, 3, 4], [0, 1, 0, 1], [1, 2, 3, 4],
    ...                                  n_permutations=100, random_state=0)
    >>> t.statistic, t.p_value   # the same curve twice: E = 0, every permutation reaches it
    (0.0, 1.0)
    """
    func = "curve_test_unpaired"
    names = _check_names(names, func)
    n_perm = check_param(n_permutations, "n_permutations", func, low=1, integer=True)
    mixing = check_choice(mixing, "mixing", func, MIXINGS)
    permutation = check_choice(permutation, "permutation", func, PERMUTATIONS)
    sa = check_sample(y_true_a, y_score_a, pos_label=pos_label, func=func, score_name="y_score_a")
    sb = check_sample(y_true_b, y_score_b, pos_label=pos_label, func=func, score_name="y_score_b")
    npa, nna = _two_classes(sa, "y_true_a", func)
    npb, nnb = _two_classes(sb, "y_true_b", func)
    rng = _rng(random_state)
    n_a, n_b = sa.n_rows, sb.n_rows
    mp = (npa + npb) / (n_a + n_b) if mixing == "pooled" else (npa + npb) / (n_a + n_a)
    rank_a, order_a = _ranks(sa.scores)
    rank_b, order_b = _ranks(sb.scores)
    seq_a, seq_b = _signs(order_a, sa.is_pos), _signs(order_b, sb.is_pos)
    stat = _unpaired_stat(seq_a, seq_b, mp)
    levels = _mixture_levels(seq_a, rank_a, seq_b, rank_b) if permutation == "mixture" else None
    null = _unpaired_permutations(rank_a, sa.is_pos, rank_b, sb.is_pos, mp, n_perm, rng, levels)
    p = float(np.count_nonzero(null >= stat - 1e-12 * abs(stat))) / n_perm
    return CurveTest(stat, p, n_perm, _read_only(null), False, names, (npa, npb), (nna, nnb), mp, permutation)
