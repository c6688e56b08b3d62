"""Coverage and size of the group intervals and tests of ``rankwise.stats.by_group`` and
``rankwise.stats.stratified_auc`` (issue 29), by simulation.

The model (binormal scores in groups). Four groups ``g = 0, 1, 2, 3`` with population
shares ``pi = (0.4, 0.3, 0.2, 0.1)`` and prevalences ``p = (0.3, 0.5, 0.2, 0.4)``. A
negative's score is ``N(0, 1)`` in every group, a positive's in group ``g`` is
``N(mu_g, 1)``:

* ``alt``: ``mu = (1.0, 0.8, 1.2, 0.5)`` (the groups differ);
* ``null``: ``mu = (1, 1, 1, 1)`` (every group the same, sizes and prevalences unequal).

``n = 1000`` rows per replication (and ``n = 4000`` in two diagnostic designs, below),
drawn in one of four layouts:

* ``random``: each row's group drawn from ``pi``, then its label from ``p_g``, rows
  independent (the cells' sizes vary between replications: the intervals, which are
  conditional on the cells' sizes, are tested against unconditional sampling);
* ``fixed``: the cells' sizes fixed at their expectations (positives 120, 150, 40, 40;
  negatives 280, 150, 160, 60), rows independent;
* ``clusters-within``: 250 clusters of 4 rows, each cluster in one group (drawn from
  ``pi``), labels drawn per row;
* ``clusters-across``: 250 clusters of 4 rows, each row's group drawn on its own (a
  cluster spans groups).

With clusters the score is ``mu_g y + sqrt(rho) b_k + sqrt(1 - rho) e`` with ``b_k`` shared
by the rows of cluster ``k``, ``rho = 0.5`` (intra-cluster correlation), ``b, e ~ N(0, 1)``:
the marginal laws stay ``N(0, 1)`` and ``N(mu_g, 1)``. The clustered designs are analysed
with ``clusters=`` and, at ``n = 1000``, as a contrast, without (``ignored``).

The estimands. With ``a_g = Phi(mu_g / sqrt 2)`` (``P(X > Y)`` for ``X ~ N(mu_g, 1)`` and
``Y ~ N(0, 1)`` independent):

* group ``g``'s AUC (subgroup AUC): ``a_g``;
* BNSP AUC (group's positives over the other groups' negatives): ``a_g`` (the negatives
  have one law in every group);
* BPSN AUC (the other groups' positives over the group's negatives) and the AUC of the
  rest: ``r_g = sum_{h != g} w_h a_h / sum_{h != g} w_h`` with ``w_h = pi_h p_h`` (the
  rest's positives are a mixture with weights their population masses);
* xAUC disparity ``BNSP - BPSN = xAUC(g, rest) - xAUC(rest, g)``: ``a_g - r_g``, and the
  difference against the rest ``AUC_g - AUC_rest``: the same number;
* stratified AUC (strata = groups): ``sum_g c_g a_g`` with ``c_g`` normalised population
  weights, ``pi_g^2 p_g (1 - p_g)`` (pairs), ``pi_g p_g`` (positives), ``pi_g`` (size) or
  1 (uniform).

These are the *population* truths. Each statistic is also compared with its *conditional*
truth, its expectation given the sample's labels, groups and clusters: every
(positive, negative) pair's ``P(s_i > s_j)``, averaged as the statistic averages the
pairs, ``Phi((m_i - m_j) / sqrt 2)`` for rows of different clusters (or independent rows)
and ``Phi((m_i - m_j) / sqrt(2 (1 - rho)))`` within a cluster (``m_i = mu_g y_i`` the
row's mean); for the stratified AUC with the sample's weights. In the ``random`` layout
the conditional truth of BPSN and of the rest's AUC moves with the composition of the
rest's positives (the share of each group); in the clustered layouts the pairs within a
cluster shift every conditional truth a little (the design bias of the cluster
experiment, ``cluster_coverage.py``). In the ``fixed`` layout the two truths are equal.

Per replication, one call of ``rw.stats.by_group(y, s, groups[, clusters=])`` (holm,
95%) gives each group's AUC interval, the BPSN, BNSP (Borkan et al. 2019, "Nuanced metrics
for measuring unintended bias with real data") and xAUC disparity (Kallus & Zhou 2019,
"The fairness of risk scores beyond classification") intervals (the bias table), each group against the rest, and the global Wald test that all groups are
equal; four calls of ``rw.stats.stratified_auc(y, s, groups, weighting=w[, clusters=])``
give the stratified AUC with its total standard error (strata part plus the part for
weights estimated from the sample) and its strata part alone. Reported per design: the
coverage of the population truth and of the conditional truth by every interval (the
interval from the strata part alone against the conditional truth, for the stratified
AUC), with the Monte Carlo standard error, misses by side, the mean standard error over
the empirical SD of the estimates (``SE ratio``); the rejection rates at 5% of the
global test, of the holm-adjusted group-vs-rest tests (family-wise: any group rejected)
and of the holm-adjusted bias tests (BPSN and BNSP against the overall AUC, xAUC
disparity against 0). Under ``null`` these are the test's size and the family-wise error
(targets: 4-6% and at most 5%); under ``alt``, power. An undefined interval counts as a
miss (none occurred in the runs reported).

Diagnosis. Two designs are rerun at ``n = 4000`` (``null``, ``fixed`` and
``clusters-within``): a shortfall that comes from the small groups (40 positives in groups
2 and 3 at ``n = 1000``; about 25 clusters in group 3) should shrink there. And the
intervals of the statistics bounded by [0, 1] (group, BPSN and BNSP AUCs, stratified AUC)
are also rebuilt from the same value and standard error on the logit scale (as
``transform="logit"`` builds an ``Estimate``'s interval): when the standard error is right
on average but falls as the estimate rises (high estimates get narrow intervals, low ones
wide), the Wald interval misses on one side and the logit interval evens it out; likewise the global test is recomputed on
the logit scale (``logit`` of the groups' AUCs, their covariance ``res.cov`` by the delta
method, the successive differences against chi-square with ``G - 1`` degrees of freedom).

Pooled coverage. The coverages of one statistic over the four groups are averaged; its
Monte Carlo standard error is the SD of the per-replication averages over ``sqrt R``
(the groups' intervals are correlated, so this is not ``sqrt(c (1 - c) / 4R)``).

Seeds: replication ``r`` of design ``(hypothesis, layout, n)`` draws from
``np.random.default_rng([seed, h, l, n, r])`` (``h``: 0 alt, 1 null; ``l``: the layout's
index in ``LAYOUTS``): the quick mode's replications are the full run's first ones, and
any replication can be redrawn alone. Within a replication: groups (per row or per
cluster), labels, then the cluster effects, then the row noise.

Usage::

    python experiments/group_coverage.py --quick           # R = 50, three designs, a few seconds
    python experiments/group_coverage.py --out experiments/results   # R = 2000, ten designs

Prints the tables; with ``--out DIR`` writes ``DIR/group_coverage.json`` (settings,
truths, every number, runtime) and ``DIR/group_coverage.md`` (the tables). BLAS threads
are pinned to 1.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import functools
import json
import math
import platform
import sys
import time
import warnings

import numpy as np
from scipy import stats

import rankwise as rw
from rankwise.io import write_atomic

SEED = 2029
N_ROWS = 1000
SHARES = (0.4, 0.3, 0.2, 0.1)
PREVALENCES = (0.3, 0.5, 0.2, 0.4)
MU = {"alt": (1.0, 0.8, 1.2, 0.5), "null": (1.0, 1.0, 1.0, 1.0)}
HYPOTHESES = ("alt", "null")
LAYOUTS = ("random", "fixed", "clusters-within", "clusters-across")
CLUSTER_SIZE = 4
RHO = 0.5
LEVEL = 0.95
ALPHA = 0.05
WEIGHTINGS = ("pairs", "positives", "size", "uniform")
#: The group statistics, in table order: (key, text).
GROUP_STATS = (("auc", "group AUC"), ("bpsn_auc", "BPSN AUC"), ("bnsp_auc", "BNSP AUC"),
               ("xauc_disparity", "xAUC disparity"), ("diff_rest", "AUC - rest"))
#: The holm-adjusted families whose rejection rates are reported: (key, text).
FAMILIES = (("global", "global test"), ("global_logit", "global test, logit scale (diagnosis)"),
            ("rest", "vs rest (holm, FWER)"),
            ("rest_raw", "vs rest, one test (unadjusted)"),
            ("bpsn_auc", "BPSN vs overall (holm, FWER)"), ("bnsp_auc", "BNSP vs overall (holm, FWER)"),
            ("xauc_disparity", "xAUC disparity (holm, FWER)"))
#: (hypothesis, layout, n): every design at n = 1000, and two at n = 4000 (the diagnosis of
#: the small groups' shortfall: does it shrink as the groups grow?).
FULL_DESIGNS = tuple((h, lay, N_ROWS) for h in HYPOTHESES for lay in LAYOUTS) + (
    ("null", "fixed", 4 * N_ROWS), ("null", "clusters-within", 4 * N_ROWS))
QUICK_DESIGNS = (("alt", "random", N_ROWS), ("null", "fixed", N_ROWS), ("null", "clusters-across", N_ROWS))
#: The statistics bounded by [0, 1], whose intervals are also built on the logit scale.
LOGIT_STATS = ("auc", "bpsn_auc", "bnsp_auc")
FULL_REPS = 2000
QUICK_REPS = 50


def _check_design(hypothesis: str, layout: str) -> None:
    if hypothesis not in HYPOTHESES:
        raise ValueError(f"hypothesis must be one of {HYPOTHESES}; got {hypothesis!r}")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}; got {layout!r}")


# --- the model -------------------------------------------------------------------------------

def fixed_cells(n: int = N_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """The ``fixed`` layout's positives and negatives per group, ``n pi_g p_g`` and
    ``n pi_g (1 - p_g)`` rounded."""
    pi, p = np.asarray(SHARES), np.asarray(PREVALENCES)
    pos = np.rint(n * pi * p).astype(int)
    neg = np.rint(n * pi).astype(int) - pos
    return pos, neg


def simulate(hypothesis: str, layout: str, rng: np.random.Generator, n: int = N_ROWS) -> tuple:
    """One replication: labels (bool), scores, group codes (0..3) and cluster ids (None
    for independent rows)."""
    _check_design(hypothesis, layout)
    pi, p, mu = np.asarray(SHARES), np.asarray(PREVALENCES), np.asarray(MU[hypothesis])
    G = pi.shape[0]
    ids = None
    if layout == "fixed":
        pos, neg = fixed_cells(n)
        g = np.repeat(np.arange(G), pos + neg)
        y = np.concatenate([np.repeat([True, False], [a, b]) for a, b in zip(pos, neg)])
    elif layout == "random":
        g = rng.choice(G, size=n, p=pi)
        y = rng.random(n) < p[g]
    else:
        K = n // CLUSTER_SIZE
        ids = np.repeat(np.arange(K), CLUSTER_SIZE)
        if layout == "clusters-within":
            g = rng.choice(G, size=K, p=pi)[ids]
        else:
            g = rng.choice(G, size=K * CLUSTER_SIZE, p=pi)
        y = rng.random(K * CLUSTER_SIZE) < p[g]
    m = y.shape[0]
    if ids is None:
        s = mu[g] * y + rng.standard_normal(m)
    else:
        b = rng.standard_normal(int(ids[-1]) + 1)
        s = mu[g] * y + math.sqrt(RHO) * b[ids] + math.sqrt(1.0 - RHO) * rng.standard_normal(m)
    return y, s, g, ids


# --- the truths ------------------------------------------------------------------------------

def _levels(mu) -> np.ndarray:
    """The rows' means by level code: a positive of group g has code g, a negative code G."""
    return np.append(np.asarray(mu, dtype=float), 0.0)


@functools.lru_cache(maxsize=16)
def _pair_tables(mu: tuple, rho: float) -> tuple[np.ndarray, np.ndarray]:
    """``P(s_i > s_j)`` for every pair of levels, rows of different clusters, and what a
    shared cluster adds to it."""
    lv = _levels(mu)
    d = lv[:, None] - lv[None, :]
    E = stats.norm.cdf(d / math.sqrt(2.0))
    D = stats.norm.cdf(d / math.sqrt(2.0 * (1.0 - rho))) - E if 0 < rho < 1 else np.zeros_like(E)
    return E, D


def pair_expectation(in_p: np.ndarray, in_n: np.ndarray, codes: np.ndarray, mu, ids=None,
                     rho: float = 0.0) -> float:
    """``E[A(P, N) | labels, groups, clusters]``: the mean over the pairs of ``P x N`` of
    ``P(s_i > s_j)``, ``Phi((m_i - m_j) / sqrt 2)``, or ``Phi((m_i - m_j) / sqrt(2 (1 -
    rho)))`` when ``i`` and ``j`` share a cluster (``codes``: the rows' level codes;
    ``P`` and ``N`` disjoint). nan when a side is empty."""
    E, D = _pair_tables(tuple(float(v) for v in mu), float(rho))
    L = E.shape[0]
    cP = np.bincount(codes[in_p], minlength=L).astype(float)
    cN = np.bincount(codes[in_n], minlength=L).astype(float)
    if cP.sum() == 0 or cN.sum() == 0:
        return float("nan")
    total = cP @ E @ cN
    if ids is not None and rho > 0:
        K = int(ids.max()) + 1
        CP = np.bincount(ids[in_p] * L + codes[in_p], minlength=K * L).reshape(K, L)
        CN = np.bincount(ids[in_n] * L + codes[in_n], minlength=K * L).reshape(K, L)
        total += float(np.sum((CP @ D) * CN))
    return float(total / (cP.sum() * cN.sum()))


def stratum_weights(pos: np.ndarray, neg: np.ndarray, weighting: str) -> np.ndarray:
    """Normalised stratum weights from the class masses (0 for a stratum with one class)."""
    pos, neg = np.asarray(pos, dtype=float), np.asarray(neg, dtype=float)
    used = (pos > 0) & (neg > 0)
    v = {"pairs": pos * neg, "positives": pos, "size": pos + neg, "uniform": np.ones_like(pos)}[weighting]
    v = np.where(used, v, 0.0)
    return v / v.sum()


def _truths(count_p, count_n, pair) -> dict:
    """Every estimand from ``pair(P-set, N-set)`` and the class masses per group."""
    G = len(SHARES)
    out = {k: np.full(G, np.nan) for k, _ in GROUP_STATS}
    out["rest_auc"] = np.full(G, np.nan)
    for g in range(G):
        rest = [h for h in range(G) if h != g]
        out["auc"][g] = pair([g], [g])
        out["bpsn_auc"][g] = pair(rest, [g])
        out["bnsp_auc"][g] = pair([g], rest)
        out["rest_auc"][g] = pair(rest, rest)
    out["xauc_disparity"] = out["bnsp_auc"] - out["bpsn_auc"]
    out["diff_rest"] = out["auc"] - out["rest_auc"]
    aucs = np.where(np.isfinite(out["auc"]), out["auc"], 0.0)
    out["stratified"] = {w: float(stratum_weights(count_p, count_n, w) @ aucs) for w in WEIGHTINGS}
    return out


def population_truths(hypothesis: str) -> dict:
    """The population value of every statistic (exact, from the binormal model)."""
    pi, p, mu = np.asarray(SHARES), np.asarray(PREVALENCES), np.asarray(MU[hypothesis])
    a = stats.norm.cdf(mu / math.sqrt(2.0))
    wpos = pi * p

    def pair(gp, gn):
        # negatives are N(0, 1) in every group: only the positives' mixture matters
        return float(wpos[gp] @ a[gp] / wpos[gp].sum())

    # the stratified weights from the population masses: pairs pi^2 p (1 - p), positives pi p, ...
    return _truths(pi * p, pi * (1 - p), pair)


def conditional_truths(y: np.ndarray, g: np.ndarray, ids, mu, rho: float = 0.0) -> dict:
    """Every statistic's expectation given the sample's labels, groups and clusters."""
    G = len(SHARES)
    codes = np.where(y, g, G)
    pos = np.bincount(g[y], minlength=G)
    neg = np.bincount(g[~y], minlength=G)

    def pair(gp, gn):
        return pair_expectation(y & np.isin(g, gp), ~y & np.isin(g, gn), codes, mu, ids, rho)

    return _truths(pos, neg, pair)


# --- one replication ---------------------------------------------------------------------------

def analyse(y: np.ndarray, s: np.ndarray, g: np.ndarray, clusters=None) -> dict:
    """Every interval and test of one sample, by ``rankwise`` calls only."""
    G = len(SHARES)
    nan = np.full(G, np.nan)
    out = {k: {"value": nan.copy(), "se": nan.copy(), "low": nan.copy(), "high": nan.copy()}
           for k, _ in GROUP_STATS}
    p_adj = {k: nan.copy() for k in ("rest", "bpsn_auc", "bnsp_auc", "xauc_disparity")}
    p_raw = nan.copy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = rw.stats.by_group(y, s, g, clusters=clusters, adjust="holm", confidence_level=LEVEL)
        strat = {w: rw.stats.stratified_auc(y, s, g, weighting=w, clusters=clusters) for w in WEIGHTINGS}
    for r in res.rows:
        k = int(r.group)
        for f, v in (("value", r.value), ("se", r.std_error), ("low", r.low), ("high", r.high)):
            out["auc"][f][k] = v
    for d in res.differences:
        k = int(d.group)
        for f, v in (("value", d.difference), ("se", d.std_error), ("low", d.low), ("high", d.high)):
            out["diff_rest"][f][k] = v
        p_adj["rest"][k], p_raw[k] = d.p_adjusted, d.p_value
    for b in res.bias:
        if b.statistic in ("bpsn_auc", "bnsp_auc", "xauc_disparity"):
            k = int(b.group)
            for f, v in (("value", b.value), ("se", b.std_error), ("low", b.low), ("high", b.high)):
                out[b.statistic][f][k] = v
            p_adj[b.statistic][k] = b.p_adjusted
    z = float(stats.norm.ppf(0.5 + LEVEL / 2))
    st = {}
    for w, e in strat.items():
        if np.isfinite(e.std_error):
            lo, hi = e.confidence_interval(LEVEL)
        else:
            lo = hi = float("nan")
        se_s = e.std_error_strata
        st[w] = {"value": e.value, "se": e.std_error, "low": lo, "high": hi, "se_strata": se_s,
                 "low_strata": max(e.value - z * se_s, 0.0), "high_strata": min(e.value + z * se_s, 1.0)}
    gt = res.global_tests[0]
    return {"groups": out, "stratified": st, "p_global": gt.p_value,
            "p_global_logit": global_test_logit(out["auc"]["value"], res.cov[(res.scorers[0], "auc")]),
            "p_adjusted": p_adj, "p_rest_raw": p_raw,
            "warnings": sorted({w.category.__name__ for w in caught})}


def global_test_logit(values: np.ndarray, cov: np.ndarray) -> float:
    """The Wald test that all groups' AUCs are equal, on the logit scale (a diagnosis, not a
    rankwise method): ``x = logit(v)``, covariance ``J cov J`` with ``J = diag(1 / (v (1 -
    v)))`` (the delta method), the ``G - 1`` successive differences of ``x`` against
    chi-square with ``G - 1`` degrees of freedom."""
    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v) & (v > 0) & (v < 1)
    if ok.sum() < 2:
        return float("nan")
    v = v[ok]
    jac = 1.0 / (v * (1.0 - v))
    C = cov[np.ix_(ok, ok)] * np.outer(jac, jac)
    k = v.shape[0]
    A = np.eye(k)[1:] - np.eye(k)[:-1]
    d = A @ np.log(v / (1.0 - v))
    stat = float(d @ np.linalg.solve(A @ C @ A.T, d))
    return float(stats.chi2.sf(stat, k - 1))


# --- one design --------------------------------------------------------------------------------

def logit_interval(value, se, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The Wald interval built on the logit scale, ``expit(logit(v) +- z se / (v (1 - v)))``
    (what ``transform="logit"`` gives for an ``Estimate``; the value itself on the
    boundary), for arrays."""
    v, se = np.asarray(value, dtype=float), np.asarray(se, dtype=float)
    z = float(stats.norm.ppf(0.5 + level / 2))
    inside = (v > 0) & (v < 1)
    vv = np.where(inside, v, 0.5)
    g = np.log(vv / (1 - vv))
    half = z * se / (vv * (1 - vv))
    lo = np.where(inside, 1 / (1 + np.exp(-(g - half))), v)
    hi = np.where(inside, 1 / (1 + np.exp(-(g + half))), v)
    return lo, hi


def _cover_stats(est, se, low, high, pop, cond, logit: bool = False) -> dict:
    """Coverage of the population and conditional truths by one interval over R
    replications (arrays (R,) or (R, G); truths broadcast); with ``logit``, also by the
    interval built on the logit scale."""
    R = est.shape[0]
    pop = np.broadcast_to(np.asarray(pop, dtype=float), est.shape)
    cond = np.broadcast_to(np.asarray(cond, dtype=float), est.shape)
    cp = (low <= pop) & (pop <= high)
    cc = (low <= cond) & (cond <= high)
    ok = np.isfinite(est)
    sd = np.nanstd(est, axis=0, ddof=1)

    def mc(c):
        return np.sqrt(c * (1 - c) / R)

    out = {"coverage": cp.mean(axis=0), "mc_se": mc(cp.mean(axis=0)),
           "coverage_cond": cc.mean(axis=0), "mc_se_cond": mc(cc.mean(axis=0)),
           "miss_low": (low > pop).mean(axis=0), "miss_high": (high < pop).mean(axis=0),
           "mean_se": np.nanmean(se, axis=0), "sd_estimate": sd, "se_ratio": np.nanmean(se, axis=0) / sd,
           "bias_sd": (np.nanmean(est, axis=0) - np.mean(pop, axis=0)) / sd,
           "cond_minus_pop": np.mean(cond - pop, axis=0), "sd_cond": np.std(cond, axis=0, ddof=1),
           "undefined": (~ok).sum(axis=0)}
    if logit:
        lo_l, hi_l = logit_interval(est, se)
        cl = (lo_l <= pop) & (pop <= hi_l)
        out["coverage_logit"] = cl.mean(axis=0)
        out["miss_low_logit"] = (lo_l > pop).mean(axis=0)
        out["miss_high_logit"] = (hi_l < pop).mean(axis=0)
        if cl.ndim == 2:
            ml = cl.mean(axis=1)
            out["pooled_logit"] = float(ml.mean())
            out["pooled_logit_mc_se"] = float(ml.std(ddof=1) / math.sqrt(R))
    if cp.ndim == 2:  # pooled over the groups, SE from the per-replication means
        m = cp.mean(axis=1)
        mcnd = cc.mean(axis=1)
        out["pooled"] = float(m.mean())
        out["pooled_mc_se"] = float(m.std(ddof=1) / math.sqrt(R))
        out["pooled_cond"] = float(mcnd.mean())
        out["pooled_cond_mc_se"] = float(mcnd.std(ddof=1) / math.sqrt(R))
    return {k: (v.tolist() if isinstance(v, np.ndarray) else (float(v) if not isinstance(v, float) else v))
            for k, v in out.items()}


def run_design(hypothesis: str, layout: str, reps: int, seed: int = SEED, n: int = N_ROWS) -> dict:
    """All replications of one design; with clusters, analysed with ``clusters=`` and (at
    ``n = N_ROWS``) without."""
    _check_design(hypothesis, layout)
    mu = MU[hypothesis]
    pop = population_truths(hypothesis)
    clustered = layout.startswith("clusters")
    analyses = ("clusters", "ignored") if clustered and n == N_ROWS else (
        ("clusters",) if clustered else ("independent",))
    keep = {a: [] for a in analyses}
    conds = []
    h, lay = HYPOTHESES.index(hypothesis), LAYOUTS.index(layout)
    t0 = time.perf_counter()
    for r in range(reps):
        rng = np.random.default_rng([seed, h, lay, n, r])
        y, s, g, ids = simulate(hypothesis, layout, rng, n)
        conds.append(conditional_truths(y, g, ids, mu, RHO if clustered else 0.0))
        for a in analyses:
            keep[a].append(analyse(y, s, g, ids if a == "clusters" else None))
    wall = time.perf_counter() - t0
    cond = {k: np.array([c[k] for c in conds]) for k, _ in GROUP_STATS}
    cond_strat = {w: np.array([c["stratified"][w] for c in conds]) for w in WEIGHTINGS}
    out = {"hypothesis": hypothesis, "layout": layout, "mu": list(mu), "reps": reps, "n": n,
           "wall_s": wall, "analyses": {}}
    for a in analyses:
        res = keep[a]
        ga = {}
        for k, _ in GROUP_STATS:
            arr = {f: np.array([x["groups"][k][f] for x in res]) for f in ("value", "se", "low", "high")}
            ga[k] = _cover_stats(arr["value"], arr["se"], arr["low"], arr["high"], pop[k][None, :], cond[k],
                                 logit=k in LOGIT_STATS)
        sa = {}
        for w in WEIGHTINGS:
            arr = {f: np.array([x["stratified"][w][f] for x in res])
                   for f in ("value", "se", "low", "high", "se_strata", "low_strata", "high_strata")}
            total = _cover_stats(arr["value"], arr["se"], arr["low"], arr["high"], pop["stratified"][w],
                                 cond_strat[w], logit=True)
            part = _cover_stats(arr["value"], arr["se_strata"], arr["low_strata"], arr["high_strata"],
                                pop["stratified"][w], cond_strat[w])
            sa[w] = {"total": total, "strata_part": part}
        rej = {"global": np.array([x["p_global"] for x in res]) < ALPHA,
               "global_logit": np.array([x["p_global_logit"] for x in res]) < ALPHA}
        for k in ("rest", "bpsn_auc", "bnsp_auc", "xauc_disparity"):
            rej[k] = np.any(np.array([x["p_adjusted"][k] for x in res]) < ALPHA, axis=1)
        raw = np.array([x["p_rest_raw"] for x in res]) < ALPHA
        rates = {}
        for k, v in rej.items():
            c = float(v.mean())
            rates[k] = {"rate": c, "mc_se": math.sqrt(c * (1 - c) / reps)}
        c = float(raw.mean())
        rates["rest_raw"] = {"rate": c, "mc_se": float(raw.mean(axis=1).std(ddof=1) / math.sqrt(reps)),
                             "by_group": raw.mean(axis=0).tolist()}
        warned = sorted({w for x in res for w in x["warnings"]})
        ga_undef = int(sum(sum(v["undefined"]) for v in ga.values()))
        out["analyses"][a] = {"groups": ga, "stratified": sa, "rejection": rates, "warnings": warned,
                              "undefined": ga_undef}
    out["truth"] = {"population": {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in pop.items()},
                    "conditional_sd": {k: np.std(cond[k], axis=0, ddof=1).tolist() for k, _ in GROUP_STATS}}
    return out


def run(designs=FULL_DESIGNS, reps: int = FULL_REPS, seed: int = SEED) -> list:
    return [run_design(h, lay, reps, seed, n) for h, lay, n in designs]


# --- tables ------------------------------------------------------------------------------------

def _rows(results: list):
    for d in results:
        for a, res in d["analyses"].items():
            yield d, a, res


def _name(d, a) -> str:
    return f"{d['hypothesis']} | {d['layout']} | {d['n']} | {a}"


def tables(results: list) -> str:
    """The Markdown tables: pooled coverage of the group statistics (population and
    conditional truths), the stratified AUC, the rejection rates, and every group."""
    parts = []
    head = "| hypothesis | layout | n | analysis | " + " | ".join(t for _, t in GROUP_STATS) + " |"
    sep = "|" + "---|" * (4 + len(GROUP_STATS))
    for key, title in (("", "Coverage of the population truth, pooled over the 4 groups (MC se) "
                            "[lowest, highest group]"),
                       ("_cond", "Coverage of the conditional truth (given labels, groups, clusters), pooled (MC se)")):
        lines = [f"{title}:", "", head, sep]
        for d, a, res in _rows(results):
            cells = []
            for k, _ in GROUP_STATS:
                c = res["groups"][k]
                per = c["coverage" + key]
                cells.append(f"{c['pooled' + key]:.3f} ({c['pooled' + key + '_mc_se']:.3f}) "
                             f"[{min(per):.3f}, {max(per):.3f}]")
            lines.append(f"| {_name(d, a)} | " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    lines = ["Stratified AUC (strata = groups): coverage of the population truth by the interval from the total "
             "standard error; of the conditional truth by the interval from the strata part alone; SE ratio "
             "(total SE over the SD of the estimates), (MC se):", "",
             "| hypothesis | layout | n | analysis | " + " | ".join(WEIGHTINGS) + " |", "|" + "---|" * 8]
    for d, a, res in _rows(results):
        cells = []
        for w in WEIGHTINGS:
            t, sp = res["stratified"][w]["total"], res["stratified"][w]["strata_part"]
            cells.append(f"{t['coverage']:.3f} ({t['mc_se']:.3f}); {sp['coverage_cond']:.3f}; {t['se_ratio']:.3f}")
        lines.append(f"| {_name(d, a)} | " + " | ".join(cells) + " |")
    parts.append("\n".join(lines))
    lines = ["Diagnosis: the same standard errors with the interval built on the logit scale (as "
             "transform=\"logit\" builds it), coverage of the population truth pooled over the groups (MC se) "
             "[lowest, highest group]; the stratified AUC with its total SE:", "",
             "| hypothesis | layout | n | analysis | " + " | ".join(t for k, t in GROUP_STATS if k in LOGIT_STATS)
             + " | " + " | ".join(f"stratified ({w})" for w in WEIGHTINGS) + " |",
             "|" + "---|" * (4 + len(LOGIT_STATS) + len(WEIGHTINGS))]
    for d, a, res in _rows(results):
        cells = [f"{res['groups'][k]['pooled_logit']:.3f} ({res['groups'][k]['pooled_logit_mc_se']:.3f}) "
                 f"[{min(res['groups'][k]['coverage_logit']):.3f}, {max(res['groups'][k]['coverage_logit']):.3f}]"
                 for k in LOGIT_STATS]
        cells += [f"{res['stratified'][w]['total']['coverage_logit']:.3f}" for w in WEIGHTINGS]
        lines.append(f"| {_name(d, a)} | " + " | ".join(cells) + " |")
    parts.append("\n".join(lines))
    lines = [f"Rejection rates at {ALPHA:g} (MC se): size and family-wise error under null, power under alt:", "",
             "| hypothesis | layout | n | analysis | " + " | ".join(t for _, t in FAMILIES) + " |",
             "|" + "---|" * (4 + len(FAMILIES))]
    for d, a, res in _rows(results):
        cells = [f"{res['rejection'][k]['rate']:.4f} ({res['rejection'][k]['mc_se']:.4f})" for k, _ in FAMILIES]
        lines.append(f"| {_name(d, a)} | " + " | ".join(cells) + " |")
    parts.append("\n".join(lines))
    lines = ["Every group (population truth): coverage (MC se), misses low/high, SE ratio, bias/SD, mean of "
             "(conditional - population truth), SD of the conditional truth:", "",
             "| hypothesis | layout | n | analysis | statistic | group | truth | coverage | miss lo/hi | SE ratio "
             "| bias/SD | cond - pop | SD cond | coverage cond | logit coverage, miss lo/hi |", "|" + "---|" * 15]
    for d, a, res in _rows(results):
        for k, text in GROUP_STATS:
            c = res["groups"][k]
            truth = d["truth"]["population"][k]
            for g in range(len(SHARES)):
                lines.append(f"| {_name(d, a)} | {text} | {g} | {truth[g]:.5f} | {c['coverage'][g]:.3f} "
                             f"({c['mc_se'][g]:.3f}) | {c['miss_low'][g]:.3f}/{c['miss_high'][g]:.3f} "
                             f"| {c['se_ratio'][g]:.3f} | {c['bias_sd'][g]:+.3f} | {c['cond_minus_pop'][g]:+.5f} "
                             f"| {c['sd_cond'][g]:.5f} | {c['coverage_cond'][g]:.3f} | " + (
                                 f"{c['coverage_logit'][g]:.3f}, {c['miss_low_logit'][g]:.3f}/"
                                 f"{c['miss_high_logit'][g]:.3f} |" if "coverage_logit" in c else " |"))
    parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"R = {QUICK_REPS}, designs {QUICK_DESIGNS}")
    p.add_argument("--reps", type=int, default=None, help="replications per design")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", default=None, help="write group_coverage.json and group_coverage.md to this folder")
    a = p.parse_args(argv)
    designs = QUICK_DESIGNS if a.quick else FULL_DESIGNS
    reps = a.reps if a.reps is not None else (QUICK_REPS if a.quick else FULL_REPS)
    if reps < 2:
        p.error("--reps must be at least 2")
    t0 = time.perf_counter()
    results = run(designs, reps, a.seed)
    wall = time.perf_counter() - t0
    head = (f"Binormal scores in {len(SHARES)} groups (shares {SHARES}, prevalences {PREVALENCES}; mu alt "
            f"{MU['alt']}, null {MU['null']}); clusters of {CLUSTER_SIZE} rows, rho = {RHO}; "
            f"R = {reps} per design, seed {a.seed}; nominal {LEVEL:.0%} intervals, tests at {ALPHA:g}.\n\n")
    md = head + tables(results) + f"\nwall time {wall:.1f} s\n"
    print(md)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        doc = {"shares": SHARES, "prevalences": PREVALENCES, "mu": MU, "cluster_size": CLUSTER_SIZE,
               "rho": RHO, "level": LEVEL, "alpha": ALPHA, "seed": a.seed, "reps": reps, "wall_s": wall,
               "rankwise": rw.__version__, "python": platform.python_version(), "numpy": np.__version__,
               "designs": results}
        write_atomic(os.path.join(a.out, "group_coverage.json"), json.dumps(doc, indent=1) + "\n", force=True)
        write_atomic(os.path.join(a.out, "group_coverage.md"), "# Group coverage (issue 29)\n\n" + md, force=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
