"""The compiled fused AUC bootstrap (numba, optional): the loop of
:func:`rankwise._kernels._bootauc.boot_auc_sums`.

Imported only by :func:`rankwise._kernels._bootauc.boot_auc_kernel` when the numba
engine is in use; compiled once per input dtype and cached on disk (``cache=True``).
"""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, nogil=True)
def boot_auc_sums_into(idx_pos, idx_neg, n_p, orders, ends, mass, cnt, sums, n_pos, n_neg):  # pragma: no cover
    """For each resample ``r`` (row ``r`` of ``idx_pos`` and ``idx_neg``: drawn positions
    in each class's rows; the rows numbered positives ``0..n_p-1`` then negatives), count
    the draws of every row in ``cnt`` (zero on entry and on exit), then walk each scorer's
    rows in score order (``orders[j]``; ``ends[j, t]``: row ``t`` of the order closes a
    level): ``sums[r, j] = sum over levels of A (B below + B / 2)``, ``A``, ``B`` the
    level's drawn positive and negative masses. ``n_pos[r]``, ``n_neg[r]``: the class
    masses of the resample. ``mass``: each row's mass, or empty (1 each)."""
    k = idx_pos.shape[0]
    K, n = orders.shape
    weighted = mass.shape[0] > 0
    for r in range(k):
        tp = 0.0
        for t in range(idx_pos.shape[1]):
            i = idx_pos[r, t]
            cnt[i] += 1
            tp += mass[i] if weighted else 1.0
        tn = 0.0
        for t in range(idx_neg.shape[1]):
            i = idx_neg[r, t] + n_p
            cnt[i] += 1
            tn += mass[i] if weighted else 1.0
        n_pos[r] = tp
        n_neg[r] = tn
        for j in range(K):
            below = 0.0
            s = 0.0
            a = 0.0
            b = 0.0
            for t in range(n):
                i = orders[j, t]
                c = float(cnt[i])
                if weighted:
                    c *= mass[i]
                p = c if i < n_p else 0.0
                a += p
                b += c - p
                if ends[j, t]:
                    s += a * (below + 0.5 * b)
                    below += b
                    a = 0.0
                    b = 0.0
            sums[r, j] = s
        cnt[:] = 0
