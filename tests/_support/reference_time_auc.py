"""Literal definitions of the cumulative/dynamic AUC(t), its i.i.d. representation and the
mean AUC, for tests (O(n^2) memory, loops; small n only).

Written from the definitions in docs/survival.md ("Time-dependent AUC") and Blanche,
Dartigues & Jacqmin-Gadda (2013), "Estimating and comparing time-dependent areas under
receiver operating characteristic curves for censored event times with competing risks",
Statistics in Medicine 32: the influence of row k is the sum of three averages of the
kernel h_t(i, j) with one index fixed, the one over (i, j) carrying the term of the
estimated censoring curve, int_0^{T_i-} dM_C,k(u) / y(u), built here as a full matrix.

``tie_rule="rows"`` reproduces how timeROC 0.4.1 breaks ties of censoring times in that
martingale term (rows in the order of the sorted times, the input order within a tie: each
censored row its own hazard 1 / (number of rows from it on), its jump counted from the
first row of its tie), which is what makes timeROC's standard error depend on the order of
tied rows; ``tie_rule="times"`` (rankwise's) counts the censorings of one time together.
Without censoring times tied to another observed time the two agree.
"""

from __future__ import annotations

import numpy as np


def psi(a, b):
    return 1.0 if a > b else 0.5 if a == b else 0.0


def censoring_km(time, event, w=None):
    """Distinct times, weight at risk of censoring (events at a time leave first), the
    censorings' weight, and G at each distinct time, by a loop."""
    time = np.asarray(time, float)
    event = np.asarray(event, bool)
    w = np.ones(len(time)) if w is None else np.asarray(w, float)
    grid = np.unique(time)
    yc, cc, G = [], [], []
    g = 1.0
    for u in grid:
        at = sum(w[k] for k in range(len(time)) if time[k] > u or (time[k] == u and not event[k]))
        c = sum(w[k] for k in range(len(time)) if time[k] == u and not event[k])
        if c > 0:
            g *= 1.0 - c / at
        yc.append(at)
        cc.append(c)
        G.append(g)
    return grid, np.array(yc), np.array(cc), np.array(G)


def g_left(grid, G, s):
    """G(s-): the product over the censoring times strictly before s."""
    below = [G[j] for j in range(len(grid)) if grid[j] < s]
    return below[-1] if below else 1.0


def g_right(grid, G, s):
    below = [G[j] for j in range(len(grid)) if grid[j] <= s]
    return below[-1] if below else 1.0


def auc_t(time, event, risk, t, w=None, censoring=None, case_weight="left"):
    """AUC(t) = sum_{i case, j control} w_i/G(T_i-) w_j psi(r_i, r_j) / (sum w_i/G(T_i-) sum w_j):
    cases the events with T_i <= t, controls the rows with T_j > t. nan without both.
    ``censoring=(time, event, w)``: G from that sample. ``case_weight="right"``: 1/G(T_i)
    instead (scikit-survival's weight)."""
    time, event, risk = np.asarray(time, float), np.asarray(event, bool), np.asarray(risk, float)
    n = len(time)
    w = np.ones(n) if w is None else np.asarray(w, float)
    ct, ce, cw = (time, event, w) if censoring is None else censoring
    grid, _, _, G = censoring_km(ct, ce, cw)
    num = den_c = den_k = 0.0
    for i in range(n):
        if event[i] and time[i] <= t:
            wi = w[i] / (g_left if case_weight == "left" else g_right)(grid, G, time[i])
            den_c += wi
            for j in range(n):
                if time[j] > t:
                    num += wi * w[j] * psi(risk[i], risk[j])
    for j in range(n):
        if time[j] > t:
            den_k += w[j]
    if den_c == 0 or den_k == 0:
        return float("nan")
    return num / (den_c * den_k)


def martingale_integrals(time, event, w=None, tie_rule="times"):
    """I[s_index, k] = int_{[0, grid[s_index])} dM_C,k(u) / y(u) over the distinct times
    (``tie_rule="times"``), with y(u) the weight at risk of censoring at u over the total
    weight; returns (grid, I) with I of shape (len(grid) + 1, n): row j integrates over the
    first j distinct times. ``tie_rule="rows"``: timeROC's row-wise version (unweighted),
    returned as (sorted row times, I_rows) with I_rows[r, k] the integral up to and
    including sorted row r."""
    time = np.asarray(time, float)
    event = np.asarray(event, bool)
    n = len(time)
    w = np.ones(n) if w is None else np.asarray(w, float)
    W = w.sum()
    if tie_rule == "times":
        grid, yc, cc, _ = censoring_km(time, event, w)
        m = len(grid)
        I = np.zeros((m + 1, n))
        for j, u in enumerate(grid):
            hz = cc[j] / yc[j] if cc[j] > 0 else 0.0
            for k in range(n):
                dN = 1.0 if (time[k] == u and not event[k]) else 0.0
                atr = 1.0 if (time[k] > u or (time[k] == u and not event[k])) else 0.0
                dM = dN - atr * hz
                I[j + 1, k] = I[j, k] + (dM / (yc[j] / W) if yc[j] > 0 else 0.0)
        return grid, I
    assert tie_rule == "rows"
    o = np.argsort(time, kind="stable")
    ts, cs = time[o], ~event[o]
    lam = np.array([cs[r] / (n - r) for r in range(n)])  # row r (0-based): n - r rows from it on
    Lam = np.cumsum(lam)
    M = np.zeros((n, n))  # M[r, k]: martingale of sorted row k at the time of sorted row r
    for r in range(n):
        for k in range(n):
            M[r, k] = cs[k] * (ts[k] <= ts[r]) - Lam[min(r, k)]
    dM = np.vstack([M[:1], np.diff(M, axis=0)])
    y = np.array([(n - r) / n for r in range(n)])
    I_sorted = np.cumsum(dM / y[:, None], axis=0)
    # back to the input's columns (k) and rows indexed by sorted position
    I_rows = np.empty_like(I_sorted)
    I_rows[:, o] = I_sorted
    return (o, ts), I_rows


def influence(time, event, risk, t, w=None, tie_rule="times", censoring=None):
    """Per-row i.i.d. terms IF_k of AUC(t) (AUC - AUC_0 ~ sum_k (w_k/W) IF_k), literally:
    (1/(F S)) [ avg_{i,j} h_ij (1 + I_k(T_i)) - h (1 + (avg_i f_i (1 + I_k(T_i)) - F) / F)
                + avg_i h_ik - h
                + avg_j h_kj - h (v_k + (f_k - F) / F) ],
    with h_ij = 1{i case} 1{j control} psi(r_i, r_j) / (G(T_i-) G(t)), h its average,
    f_i = 1{i case} / G(T_i-), F its average, S the average of 1{control} / G(t),
    v_k = 1{k control} / (share of controls). Averages weighted by w / W.

    ``censoring=(time, event)``: G and its martingales come from that separate sample; the
    first line then belongs to its rows (returned second, unweighted: AUC - AUC_0 also
    gets sum_k IF_ref_k / m) and the sample's rows keep the other two."""
    time, event, risk = np.asarray(time, float), np.asarray(event, bool), np.asarray(risk, float)
    n = len(time)
    w = np.ones(n) if w is None else np.asarray(w, float)
    W = w.sum()
    p = w / W
    if censoring is None:
        grid, _, _, G = censoring_km(time, event, w)
    else:
        ct, ce = np.asarray(censoring[0], float), np.asarray(censoring[1], bool)
        grid, _, _, G = censoring_km(ct, ce)
    Gt = g_right(grid, G, t)
    case = event & (time <= t)
    ctrl = time > t
    f = np.array([1.0 / g_left(grid, G, time[i]) if case[i] else 0.0 for i in range(n)])
    P = (risk[:, None] > risk[None, :]) + 0.5 * (risk[:, None] == risk[None, :])  # psi(r_i, r_j)
    h = f[:, None] * ctrl[None, :] * P / Gt
    hbar = p @ h @ p
    F = p @ f
    S = p @ (ctrl / Gt)
    v = ctrl / (p @ ctrl)
    if censoring is not None:
        grid2, I = martingale_integrals(ct, ce, None, "times")
        Iki = np.array([I[np.searchsorted(grid2, time[i], side="left")] for i in range(n)])  # (i, k of ref)
    elif tie_rule == "times":
        grid2, I = martingale_integrals(time, event, w, "times")
        Iki = np.array([I[np.searchsorted(grid2, time[i], side="left")] for i in range(n)])  # (i, k)
    else:
        (o, ts), I_rows = martingale_integrals(time, event, None, "rows")
        pos = np.empty(n, int)
        pos[o] = np.arange(n)
        Iki = np.array([I_rows[pos[i]] for i in range(n)])
    # The three averages with one index fixed, as matrices (h: (i, j); Iki: (i, k)).
    t1 = (p * (h @ p)) @ (1 + Iki) - hbar * (1 + ((p * f) @ (1 + Iki) - F) / F)   # k in the censoring term
    t2 = p @ h - hbar                                                              # k as the control j
    t3 = h @ p - hbar * (v + (f - F) / F)                                          # k as the case i
    if censoring is not None:
        return (t2 + t3) / (F * S), t1 / (F * S)
    return (t1 + t2 + t3) / (F * S)


def _unit_variance(u, clusters=None):
    if clusters is not None:
        _, codes = np.unique(np.asarray(clusters), return_inverse=True)
        u = np.bincount(codes.reshape(-1), weights=u)
    m = len(u)
    return m / (m - 1) * np.sum((u - u.mean()) ** 2)


def terms(time, event, risk, t, w=None, tie_rule="times", censoring=None):
    """(u, u_ref): u_k = w_k IF_k / W on the sample's rows, u_ref on the censoring sample's
    rows (None without one)."""
    n = len(time)
    w_ = np.ones(n) if w is None else np.asarray(w, float)
    out = influence(time, event, risk, t, w, tie_rule, censoring)
    if censoring is None:
        return w_ * out / w_.sum(), None
    return w_ * out[0] / w_.sum(), out[1] / len(out[1])


def std_error(time, event, risk, t, w=None, clusters=None, tie_rule="times", censoring=None):
    """sqrt(m/(m-1) sum_g (U_g - mean U)^2), U_g the sum over a unit's rows of w_k IF_k / W,
    m the number of units (rows, or clusters): timeROC's sd(IF)/sqrt(n) without weights.
    With a separate censoring sample its rows' terms add their own such variance."""
    u, ur = terms(time, event, risk, t, w, tie_rule, censoring)
    var = _unit_variance(u, clusters) + (0.0 if ur is None else _unit_variance(ur))
    return float(np.sqrt(var))


def mean_auc(time, event, risk, times, w=None, clusters=None, censoring=None):
    """(mean AUC, its standard error): sum_k omega_k AUC(t_k) with omega from
    :func:`mean_weights`, the terms sum_k omega_k u^(k) (weights held fixed)."""
    om = mean_weights(time, event, times, w)
    vals = [auc_t(time, event, risk, t, w, None if censoring is None else
                  (np.asarray(censoring[0], float), np.asarray(censoring[1], bool), np.ones(len(censoring[0]))))
            for t in times]
    parts = [terms(time, event, risk, t, w, "times", censoring) for t in times]
    u = sum(o * p_[0] for o, p_ in zip(om, parts))
    var = _unit_variance(u, clusters)
    if censoring is not None:
        var += _unit_variance(sum(o * p_[1] for o, p_ in zip(om, parts)))
    return float(np.dot(om, vals)), float(np.sqrt(var))


def km_survival(time, event, w=None):
    """Kaplan-Meier S(t) of the events (everyone with time >= u at risk at u): (grid, S)."""
    time = np.asarray(time, float)
    event = np.asarray(event, bool)
    w = np.ones(len(time)) if w is None else np.asarray(w, float)
    grid = np.unique(time)
    s, out = 1.0, []
    for u in grid:
        at = w[time >= u].sum()
        d = w[(time == u) & event].sum()
        if d > 0:
            s *= 1.0 - d / at
        out.append(s)
    return grid, np.array(out)


def mean_weights(time, event, times, w=None):
    """omega_k = (S(t_{k-1}) - S(t_k)) / (1 - S(t_K)), S(t_0) = 1 (scikit-survival's mean_auc)."""
    grid, S = km_survival(time, event, w)
    s = np.array([g_right(grid, S, t) for t in times])
    if len(times) == 1:
        return np.ones(1)
    return -np.diff(np.r_[1.0, s]) / (1.0 - s[-1])
