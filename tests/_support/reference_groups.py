"""Literal definitions of the group, bias, xAUC and stratified AUC statistics and of their
variances, for the tests only.

Written from the definitions with plain loops over pairs, rows, cells and clusters,
sharing no code with rankwise. Rows are numbered ``0 .. n-1``; ``y[i]`` is 1 (positive)
or 0 (negative); ``w[i]`` a frequency weight (1 when ``w`` is None). A *cell* is a pair
``(group, cls)``: the rows of ``group`` with label ``cls``.

* ``psi(a, b) = 1`` if ``a > b``, ``1/2`` if ``a == b``, 0 otherwise; for row sets ``P``
  and ``N``, ``A(P, N) = sum_{i in P, j in N} w_i w_j psi(s_i, s_j) / (w(P) w(N))``.
* DeLong's terms of ``A(P, N)``: a row ``i`` of ``P`` gets ``sum_{j in N} w_j psi(s_i, s_j) / w(N)``
  (its share of ``N`` below it, ties 1/2), a row ``j`` of ``N`` gets
  ``sum_{i in P} w_i psi(s_i, s_j) / w(P)`` (the share of ``P`` above it).
* A statistic is ``(P_cells, N_cells, sign)``: its value is ``A(P, N)`` (sign +1) or
  ``1/2 - A(P, N)`` (sign -1, the equality gaps), ``P`` and ``N`` the rows of the cells.
  Its term on a row of cell ``c`` on side ``P`` is ``sign * h_i * w(c) / w(P)`` (likewise
  on side ``N``): the variance conditional on the cells' sizes. A cell without mass holds
  no pair and is no part of the statistic.
* Joint covariance over independent rows: ``sum_c S_c / n_c`` over the cells, ``S_c`` the
  weighted sample covariance of the cell's terms (denominator ``n_c - 1``, ``n_c`` the
  cell's mass); nan for a statistic with a cell of mass at most 1.
* Over clusters (Obuchowski 1997, "Nonparametric analysis of clustered ROC curve data",
  Biometrics 53): ``U_{gck} = sum_{i in g, i in c} w_i (t_{ik} - tbar_{ck}) / n_c``,
  ``I_c`` the clusters holding mass of cell ``c``, ``I`` those holding mass of any cell,
  ``cov_kl = sum_c I_c/(I_c-1) sum_g U_gck U_gcl + I/(I-1) sum_{c != c'} sum_g U_gck U_gc'l``
  (terms of a statistic not spanning a cell are 0 there); nan for a statistic with a cell
  held by fewer than two clusters.
* Stratified AUC: ``sum_g c_g AUC_g`` over the strata with both classes, ``c_g = v_g / sum v``
  with ``v_g`` = ``p_g q_g`` (pairs), ``p_g`` (positives), ``p_g + q_g`` (size) or 1
  (uniform), ``p_g``, ``q_g`` the stratum's class masses. Variance: the strata part (terms
  ``c_g h_i`` on the stratum's two cells, the covariance above) plus the weights part
  (a row of class ``cls`` in stratum ``g`` gets ``N_cls * dv_g/dn_{g,cls} * (AUC_g - AUC_S) / sum v``,
  the two classes as two cells, the covariance above; 0 when every such term is 0).
"""

from __future__ import annotations

import math

NAN = float("nan")

#: The bias statistics, in the order of rankwise's tables.
BIAS = ("subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative")


def psi(a: float, b: float) -> float:
    """1 if a > b, 1/2 if a == b, 0 otherwise."""
    if a > b:
        return 1.0
    if a == b:
        return 0.5
    return 0.0


def weights(y, w) -> list:
    return [1.0] * len(y) if w is None else [float(v) for v in w]


def ids_in_order(values) -> list:
    """The distinct values in order of first appearance."""
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def cell_rows(y, groups, cell) -> list:
    """The rows of ``cell = (group, cls)``."""
    g, cls = cell
    return [i for i in range(len(y)) if groups[i] == g and int(y[i]) == cls]


def rows_of(y, groups, cells) -> list:
    out = []
    for c in cells:
        out.extend(cell_rows(y, groups, c))
    return out


def mass(w, rows) -> float:
    return sum(w[i] for i in rows)


def pair_auc(s, w, P, N) -> float:
    """``A(P, N)`` by the double loop (nan when a side has no mass)."""
    mp, mn = mass(w, P), mass(w, N)
    if not (mp > 0 and mn > 0):
        return NAN
    num = 0.0
    for i in P:
        for j in N:
            num += w[i] * w[j] * psi(s[i], s[j])
    return num / (mp * mn)


def delong_terms(s, w, P, N) -> dict:
    """DeLong's term of every row of ``P`` and ``N`` (row -> term)."""
    mp, mn = mass(w, P), mass(w, N)
    h = {}
    for i in P:
        h[i] = sum(w[j] * psi(s[i], s[j]) for j in N) / mn
    for j in N:
        h[j] = sum(w[i] * psi(s[i], s[j]) for i in P) / mp
    return h


# --- statistics --------------------------------------------------------------------------

def subgroup(g):
    return ([(g, 1)], [(g, 0)], 1.0)


def rest_auc(g, ids):
    others = [h for h in ids if h != g]
    return ([(h, 1) for h in others], [(h, 0) for h in others], 1.0)


def overall(ids):
    return ([(h, 1) for h in ids], [(h, 0) for h in ids], 1.0)


def bias_specs(g, ids) -> dict:
    """Borkan et al.'s (2019) statistics of group g as ``(P_cells, N_cells, sign)``."""
    others = [h for h in ids if h != g]
    return {
        "subgroup_auc": ([(g, 1)], [(g, 0)], 1.0),
        "bpsn_auc": ([(h, 1) for h in others], [(g, 0)], 1.0),
        "bnsp_auc": ([(g, 1)], [(h, 0) for h in others], 1.0),
        "aeg_positive": ([(g, 1)], [(h, 1) for h in others], -1.0),
        "aeg_negative": ([(g, 0)], [(h, 0) for h in others], -1.0),
    }


def value(y, s, groups, spec, w=None) -> float:
    """A statistic's value: ``A(P, N)`` or ``1/2 - A(P, N)``."""
    w = weights(y, w)
    Pc, Nc, sign = spec
    a = pair_auc(s, w, rows_of(y, groups, Pc), rows_of(y, groups, Nc))
    return a if sign > 0 else 0.5 - a


def bias_aucs(y, s, groups, w=None) -> dict:
    """``{group: {statistic: value}}`` for every group (ids in order of first appearance)."""
    ids = ids_in_order(groups)
    return {g: {k: value(y, s, groups, spec, w) for k, spec in bias_specs(g, ids).items()} for g in ids}


def xauc(y, s, groups, a, b, w=None) -> dict:
    """Kallus & Zhou's (2019) xAUC of a over b, the reverse, the disparity and the
    balanced xAUCs, from their definitions."""
    w = weights(y, w)
    pos = [i for i in range(len(y)) if int(y[i]) == 1]
    neg = [i for i in range(len(y)) if int(y[i]) == 0]
    pa, pb = cell_rows(y, groups, (a, 1)), cell_rows(y, groups, (b, 1))
    na, nb = cell_rows(y, groups, (a, 0)), cell_rows(y, groups, (b, 0))
    x, r = pair_auc(s, w, pa, nb), pair_auc(s, w, pb, na)
    return {"xauc": x, "reverse": r, "disparity": x - r,
            "balanced_positive_a": pair_auc(s, w, pa, neg), "balanced_positive_b": pair_auc(s, w, pb, neg),
            "balanced_negative_a": pair_auc(s, w, pos, na), "balanced_negative_b": pair_auc(s, w, pos, nb)}


# --- covariance over cells -----------------------------------------------------------------

def cell_covariance(cells: list, terms: list, K: int, w, clusters=None, thin_in_I: bool = True) -> list:
    """The (K, K) covariance (a list of lists) of K statistics whose terms live on cells.

    ``cells``: a list of row lists; ``terms[k]``: a dict ``cell index -> {row: term}`` for
    the cells statistic k spans. Independent rows (``clusters`` None) or Obuchowski's form
    over clusters (one id per row), both as in this module's docstring. ``thin_in_I``:
    whether the clusters of a cell held by fewer than two clusters count in ``I`` (they
    do: ``I`` is every cluster holding the statistics' rows; False leaves them out, the
    convention rankwise's cluster path follows at the time of writing, for the tests to
    isolate that one difference)."""
    spans = [set(terms[k]) for k in range(K)]
    n_c = [mass(w, rows) for rows in cells]
    means = [{c: sum(w[i] * terms[k][c][i] for i in cells[c]) / n_c[c] for c in terms[k]} for k in range(K)]
    cov = [[0.0] * K for _ in range(K)]
    bad = [False] * K
    if clusters is None:
        for k in range(K):
            bad[k] = any(not n_c[c] > 1 for c in spans[k])
        for k in range(K):
            for l in range(K):
                for c, rows in enumerate(cells):
                    if c in spans[k] and c in spans[l] and n_c[c] > 1:
                        total = sum(w[i] * (terms[k][c][i] - means[k][c]) * (terms[l][c][i] - means[l][c])
                                    for i in rows)
                        cov[k][l] += total / ((n_c[c] - 1.0) * n_c[c])
    else:
        ids = ids_in_order(clusters)
        held = [[g for g in ids if sum(w[i] for i in rows if clusters[i] == g) > 0] for rows in cells]
        I_c = [len(h) for h in held]
        every = set()
        for h in held:
            if thin_in_I or len(h) >= 2:
                every |= set(h)
        I = len(every)
        for k in range(K):
            bad[k] = any(I_c[c] < 2 for c in spans[k])

        def U(g, c, k):
            if c not in spans[k]:
                return 0.0
            return sum(w[i] * (terms[k][c][i] - means[k][c]) for i in cells[c] if clusters[i] == g) / n_c[c]

        for k in range(K):
            for l in range(K):
                if bad[k] or bad[l]:
                    continue
                total = 0.0
                for c in range(len(cells)):
                    if c in spans[k] and c in spans[l]:
                        total += I_c[c] / (I_c[c] - 1.0) * sum(U(g, c, k) * U(g, c, l) for g in ids)
                for c in range(len(cells)):
                    for d in range(len(cells)):
                        if c != d and c in spans[k] and d in spans[l]:
                            total += I / (I - 1.0) * sum(U(g, c, k) * U(g, d, l) for g in ids)
                cov[k][l] = total
    for k in range(K):
        for l in range(K):
            if bad[k] or bad[l]:
                cov[k][l] = NAN
    return cov


def joint_cov(y, s, groups, specs, w=None, clusters=None, thin_in_I: bool = True) -> list:
    """The joint covariance of the statistics ``specs`` (each ``(P_cells, N_cells, sign)``),
    their terms weighted by each cell's share of its side (``thin_in_I``: as in
    :func:`cell_covariance`)."""
    w = weights(y, w)
    cell_keys: list = []
    terms: list = []
    for Pc, Nc, sign in specs:
        P, N = rows_of(y, groups, Pc), rows_of(y, groups, Nc)
        mp, mn = mass(w, P), mass(w, N)
        h = delong_terms(s, w, P, N) if mp > 0 and mn > 0 else {}
        on: dict = {}
        for side, m_side in ((Pc, mp), (Nc, mn)):
            for cell in side:
                rows = cell_rows(y, groups, cell)
                m_c = mass(w, rows)
                if not m_c > 0:
                    continue  # no mass: no pair, no part of the statistic
                if cell not in cell_keys:
                    cell_keys.append(cell)
                on[cell_keys.index(cell)] = {i: sign * h[i] * m_c / m_side for i in rows}
        terms.append(on)
    cells = [cell_rows(y, groups, c) for c in cell_keys]
    return cell_covariance(cells, terms, len(specs), w, clusters, thin_in_I)


def diff_var(cov, a: int, b: int) -> float:
    return cov[a][a] + cov[b][b] - 2.0 * cov[a][b]


# --- the stratified AUC --------------------------------------------------------------------

WEIGHTINGS = ("pairs", "positives", "size", "uniform")


def _raw_weight(p, q, weighting):
    return {"pairs": p * q, "positives": p, "size": p + q, "uniform": 1.0}[weighting]


def _weight_derivative(p, q, weighting):
    """(dv/dp, dv/dq): the weight's derivative in the stratum's positive and negative mass."""
    return {"pairs": (q, p), "positives": (1.0, 0.0), "size": (1.0, 1.0), "uniform": (0.0, 0.0)}[weighting]


def strata_parts(y, s, strata, weighting, w=None) -> dict:
    """``{stratum: (AUC_g, c_g, p_g, q_g)}`` for the strata with both classes."""
    w = weights(y, w)
    out = {}
    raw = {}
    for g in ids_in_order(strata):
        P, N = cell_rows(y, strata, (g, 1)), cell_rows(y, strata, (g, 0))
        p, q = mass(w, P), mass(w, N)
        if p > 0 and q > 0:
            out[g] = [pair_auc(s, w, P, N), None, p, q]
            raw[g] = _raw_weight(p, q, weighting)
    total = sum(raw.values())
    for g in out:
        out[g][1] = raw[g] / total
    return {g: tuple(v) for g, v in out.items()}


def stratified_auc(y, s, strata, weighting="pairs", w=None) -> float:
    parts = strata_parts(y, s, strata, weighting, w)
    if not parts:
        return NAN
    return sum(c * a for a, c, _, _ in parts.values())


def pairs_within_strata(y, s, strata, w=None) -> float:
    """The share of the within-stratum (positive, negative) pairs ordered right (ties
    1/2): what the "pairs" weighting is."""
    w = weights(y, w)
    num = den = 0.0
    for i in range(len(y)):
        for j in range(len(y)):
            if int(y[i]) == 1 and int(y[j]) == 0 and strata[i] == strata[j]:
                num += w[i] * w[j] * psi(s[i], s[j])
                den += w[i] * w[j]
    return num / den


def stratified_variance(y, s, strata, weighting="pairs", w=None, clusters=None) -> tuple:
    """``(var_strata, var_weights)`` of the stratified AUC."""
    w = weights(y, w)
    parts = strata_parts(y, s, strata, weighting, w)
    value = sum(c * a for a, c, _, _ in parts.values())
    # the strata part: stratum g's two cells carry c_g times its DeLong terms
    cells, on = [], {}
    for g, (_, c, _, _) in parts.items():
        P, N = cell_rows(y, strata, (g, 1)), cell_rows(y, strata, (g, 0))
        h = delong_terms(s, w, P, N)
        for rows in (P, N):
            on[len(cells)] = {i: c * h[i] for i in rows}
            cells.append(rows)
    var_strata = cell_covariance(cells, [on], 1, w, clusters)[0][0]
    # the weights part: the derivative of the weights in each stratum's class mass
    total = sum(_raw_weight(p, q, weighting) for _, _, p, q in parts.values())
    N_pos = sum(p for _, _, p, _ in parts.values())
    N_neg = sum(q for _, _, _, q in parts.values())
    pos_rows, neg_rows, t = [], [], {}
    for g, (a, _, p, q) in parts.items():
        dp, dq = _weight_derivative(p, q, weighting)
        for i in cell_rows(y, strata, (g, 1)):
            pos_rows.append(i)
            t[i] = N_pos * dp * (a - value) / total
        for i in cell_rows(y, strata, (g, 0)):
            neg_rows.append(i)
            t[i] = N_neg * dq * (a - value) / total
    if all(v == 0.0 for v in t.values()):
        return var_strata, 0.0
    on = {0: {i: t[i] for i in pos_rows}, 1: {i: t[i] for i in neg_rows}}
    var_weights = cell_covariance([pos_rows, neg_rows], [on], 1, w, clusters)[0][0]
    return var_strata, var_weights


def janes_pepe_weights_part(y, s, strata, w=None) -> float:
    """Janes & Pepe's (2009) multinomial term of the "positives" weighting:
    ``sum_g (p_g / N+) (AUC_g - AUC_S)^2 / (N+ - 1)``."""
    parts = strata_parts(y, s, strata, "positives", w)
    value = sum(c * a for a, c, _, _ in parts.values())
    n_pos = sum(p for _, _, p, _ in parts.values())
    return sum(p / n_pos * (a - value) ** 2 for a, _, p, _ in parts.values()) / (n_pos - 1.0)


# --- tests -------------------------------------------------------------------------------

def norm_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def two_sided_p(diff: float, se: float) -> float:
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return 2.0 * norm_sf(abs(diff / se))


def holm(p: list) -> list:
    """Holm's step-down adjustment, written out: the i-th smallest of the m finite
    p-values gets ``max_{j <= i} min(1, (m - j + 1) p_(j))``; nan stays nan."""
    finite = [(v, k) for k, v in enumerate(p) if not math.isnan(v)]
    finite.sort(key=lambda t: t[0])
    m = len(finite)
    out = [NAN] * len(p)
    running = 0.0
    for j, (v, k) in enumerate(finite, start=1):
        running = max(running, min(1.0, (m - j + 1) * v))
        out[k] = running
    return out
