"""The fused AUC bootstrap: each resample's AUC sums straight from the drawn rows.

A stratified bootstrap resample of a sample is a multiset of drawn rows of each class.
For the AUC the table path builds each scorer's resampled rank table (the masses of the
drawn positives and negatives at every score level, a batch of ``k x L`` arrays) and then
evaluates the criterion on the batch. The fused path does both in one compiled loop per
resample: the draws of every row are counted (one small array that stays in the cache),
and one walk over each scorer's rows in score order, pre-sorted once, gives the
Wilcoxon-Mann-Whitney sum (a tied run's positive and negative masses, the ties counting
one half). Nothing of size ``rows x resamples`` or ``levels x resamples`` is made. The
numbers are the table path's (the same draws, the same levels) up to the order of
floating-point additions (exactly equal without weights: every sum is an integer, or half
of one, far below 2**52).
"""

from __future__ import annotations

import numpy as np

from ._merge import engine

__all__ = ["BootAucPlan", "boot_auc_kernel", "boot_auc_sums"]

_STATE: dict = {}


def boot_auc_kernel():
    """The compiled loop, or None (numba missing, or the numpy engine selected with
    ``RANKWISE_ENGINE=numpy``)."""
    if engine() != "numba":
        return None
    if "fn" not in _STATE:
        try:
            from . import _numba_bootauc
        except ImportError:  # pragma: no cover - the engine says numba, so it imports
            return None
        _STATE["fn"] = _numba_bootauc.boot_auc_sums_into
    return _STATE["fn"]


class BootAucPlan:
    """The rows of both classes of a stratified bootstrap, prepared for
    :func:`boot_auc_sums`: numbered positives first, then negatives, and each scorer's
    order of them by level with the end of every level marked.

    Parameters
    ----------
    lev_pos, lev_neg : int ndarray (n_pos, K), (n_neg, K)
        Each row's level (0 = lowest score) under every scorer.
    mass_pos, mass_neg : float ndarray or None
        Each row's mass (None: 1 each; both None or both given).

    Notes
    -----
    Row ``i < n_pos`` is positive row ``i``, row ``n_pos + i`` negative row ``i``;
    ``orders[j]`` lists the rows by their level under scorer ``j`` (stable: row order
    within a level) and ``ends[j, t]`` says that ``orders[j, t]`` is the last row of its
    level, so one pass over ``orders[j]`` meets the tied runs whole.

    Examples
    --------
    >>> import numpy as np
    >>> plan = BootAucPlan(np.array([[1], [2]]), np.array([[0], [1]]), None, None)
    >>> plan.orders[0].tolist(), plan.ends[0].tolist()
    ([2, 0, 3, 1], [True, False, True, True])
    """

    def __init__(self, lev_pos: np.ndarray, lev_neg: np.ndarray, mass_pos: np.ndarray | None,
                 mass_neg: np.ndarray | None):
        self.n_p = int(lev_pos.shape[0])
        lev = np.concatenate([np.asarray(lev_pos, dtype=np.int64), np.asarray(lev_neg, dtype=np.int64)])
        n, K = lev.shape
        small = np.int32 if n < 2 ** 31 else np.int64
        self.orders = np.empty((K, n), dtype=small)
        self.ends = np.empty((K, n), dtype=np.bool_)
        for j in range(K):
            order = np.argsort(lev[:, j], kind="stable")
            sl = lev[order, j]
            self.orders[j] = order
            self.ends[j, :-1] = sl[1:] != sl[:-1]
            self.ends[j, -1:] = True
        self.mass = np.zeros(0) if mass_pos is None else np.concatenate([mass_pos, mass_neg]).astype(np.float64)
        self.cnt = np.zeros(n, dtype=np.int32 if n < 2 ** 31 else np.int64)


def boot_auc_sums(plan: BootAucPlan, idx_pos: np.ndarray, idx_neg: np.ndarray) -> tuple | None:
    r"""The AUC sums of ``k`` resamples under ``K`` scorers, or None when numba is not in
    use (the caller then takes the table path).

    Parameters
    ----------
    plan : BootAucPlan
        The rows, their levels and masses.
    idx_pos, idx_neg : int ndarray (k, n_pos), (k, n_neg)
        The drawn positions in each class's rows, one resample per row.

    Returns
    -------
    (sums, n_pos, n_neg) : ndarray (k, K), (k,), (k,)
        ``sums[r, j]`` = the sum over the levels of scorer ``j`` of ``A_l (B_{<l} + B_l /
        2)``, with ``A_l``, ``B_l`` the resample's positive and negative masses at level
        ``l`` and ``B_{<l}`` the negative mass below it; ``n_pos``, ``n_neg`` the
        resample's class masses.

    Notes
    -----
    The AUC of a resample is ``sums / (n_pos n_neg)``: the probability that a drawn
    positive scores above a drawn negative, ties counting one half (Mann and Whitney,
    1947, "On a test of whether one of two random variables is stochastically larger
    than the other"; Bamber, 1975, "The area above the ordinal dominance graph and the
    area below the receiver operating characteristic graph"). The resampling is Efron's
    stratified bootstrap (Efron and Tibshirani, 1993, "An Introduction to the
    Bootstrap"). Per resample the loop counts the draws of every row, then walks each
    scorer's rows in score order once; nothing of size rows x resamples is kept.

    Examples
    --------
    >>> import numpy as np
    >>> plan = BootAucPlan(np.array([[1], [2]]), np.array([[0], [1]]), None, None)
    >>> out = boot_auc_sums(plan, np.array([[0, 1]]), np.array([[0, 0]]))
    >>> out is None or (float(out[0][0, 0]), float(out[1][0]), float(out[2][0])) == (4.0, 2.0, 2.0)
    True

    The positives sit at levels 1 and 2, each drawn once; the first negative (level 0) is
    drawn twice: all ``2 x 2`` drawn pairs have the positive above, so the sum is 4 and
    the resample's AUC ``4 / (2 x 2) = 1`` (None instead where numba is not in use).
    """
    fn = boot_auc_kernel()
    if fn is None:
        return None
    k = idx_pos.shape[0]
    sums = np.empty((k, plan.orders.shape[0]))
    n_pos, n_neg = np.empty(k), np.empty(k)
    fn(idx_pos, idx_neg, plan.n_p, plan.orders, plan.ends, plan.mass, plan.cnt, sums, n_pos, n_neg)
    return sums, n_pos, n_neg
