r"""Sums over all positive-negative pairs for the pairwise surrogates, without the pairs.

The exact all-pairs (squared) hinge of :func:`rankwise.losses.pairwise` and its Dask
version (:func:`rankwise.distributed.fit_pairwise`) both reduce the sum over pairs to
prefix and suffix sums over scores sorted by class: with the positives and negatives
each in an order where the negatives active with a positive are a suffix of the
negatives and the positives active with a negative a prefix of the positives, every
element's sum over its active partners is a difference of two cumulative sums.
:func:`hinge_pair_sums` is that computation, written once; the callers decide the
order and the active sets (the single-machine kernel on the sorted scores, the Dask
pass on range-partitioned keys) and normalise by the pair mass.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cumsum0", "suffix0", "hinge_pair_sums", "log_weights"]


def cumsum0(x: np.ndarray) -> np.ndarray:
    """Prefix sums with a leading 0: ``out[k] = sum(x[:k])``."""
    out = np.empty(x.shape[0] + 1)
    out[0] = 0.0
    np.cumsum(x, out=out[1:])
    return out


def suffix0(x: np.ndarray) -> np.ndarray:
    """Suffix sums with a trailing 0: ``out[k] = sum(x[k:])``, summed from the top (no
    subtraction of prefix sums, so a short suffix is not swamped by the total)."""
    out = np.empty(x.shape[0] + 1)
    out[-1] = 0.0
    np.cumsum(x[::-1], out=out[-2::-1])
    return out


def hinge_pair_sums(tp, vp, tn, vn, kn, kp, margin: float, squared: bool, outside=None):
    r"""Hinge (``squared=False``) or squared hinge summed over the active pairs, with its
    gradient, in O(n) after the sort.

    Parameters
    ----------
    tp, vp : ndarray
        The positives' scores (centred: margins are translation invariant, and centring
        keeps the cancellation in ``a S0 + S1`` at the scale of the score spread) and
        weights, in the order the index arrays refer to.
    tn, vn : ndarray
        The same for the negatives.
    kn : ndarray of int
        Per positive ``i``, the first index of its active negatives: they are
        ``tn[kn[i]:]`` (the pairs with ``t_i - t_j < margin``).
    kp : ndarray of int
        Per negative ``j``, the number of its active positives: they are ``tp[:kp[j]]``.
    margin : float
        ``c`` of ``phi(m) = max(0, c - m)`` (squared: ``max(0, c - m)^2``).
    squared : bool
    outside : tuple of 5 floats, optional
        Partners that are not in these arrays but active with every element of them (the
        other buckets of a range partition): the totals ``(sum w, sum w t, sum w t^2)``
        of such negatives and ``(sum w, sum w t)`` of such positives, added to every
        element's sums.

    Returns
    -------
    value : float
        :math:`\sum_i \sum_{j\ \mathrm{active}} v_i v_j \phi(t_i - t_j)`, not normalised.
    grad_pos, grad_neg : ndarray
        Its derivatives in ``tp`` and ``tn``, in the order of the inputs.

    Notes
    -----
    With :math:`a_i = c - t_i`, a positive's active sum is
    :math:`\sum_j v_j (a_i + t_j) = a_i S_0 + S_1` (hinge) and
    :math:`a_i^2 S_0 + 2 a_i S_1 + S_2` (squared), with the suffix sums
    :math:`S_k = \sum_{j \ge kn_i} v_j t_j^k`; a negative's derivative needs the prefix
    sums :math:`P_k = \sum_{i < kp_j} v_i t_i^k`, ``k = 0, 1``.
    """
    c = margin
    S0 = suffix0(vn)[kn]
    S1 = suffix0(vn * tn)[kn]
    P0 = cumsum0(vp)[kp]
    if outside is not None:
        N0, N1, N2, Q0, Q1 = outside
        S0 = S0 + N0
        S1 = S1 + N1
        P0 = P0 + Q0
    a = c - tp                          # per positive: phi's argument is a + t_j
    lin = a * S0 + S1                   # sum over active negatives of w_j (c - m_ij)
    if not squared:
        return float(np.dot(vp, lin)), -vp * S0, vn * P0
    S2 = suffix0(vn * tn * tn)[kn]
    P1 = cumsum0(vp * tp)[kp]
    if outside is not None:
        S2 = S2 + N2
        P1 = P1 + Q1
    value = float(np.dot(vp, a * a * S0 + 2.0 * a * S1 + S2))
    return value, -2.0 * vp * lin, 2.0 * vn * ((c + tn) * P0 - P1)


def log_weights(w: np.ndarray) -> np.ndarray:
    """``log w``, ``-inf`` where the weight is 0 (no warning): the exponential surrogate's
    sums are taken in log space."""
    lw = np.full(w.shape, -np.inf)
    pos = w > 0
    lw[pos] = np.log(w[pos])
    return lw
