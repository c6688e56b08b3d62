"""Coverage study of the confidence intervals of ``rankwise.stats.estimate`` (issue 3).

Binormal scores with a known answer: negatives ``s ~ N(0, 1)``, positives
``s ~ N(mu, 1)`` with ``mu = 1`` (AUC = Phi(1/sqrt 2) = 0.760), continuous, so no ties.
For every ``n`` in {100, 1000} and share of positives ``balance`` in {0.5, 0.1}, the
class sizes are fixed (``n_pos = round(balance * n)``, ``n_neg = n - n_pos``: stratified
sampling, which is what the intervals assume). ``R`` replications are drawn and, for each,
nominal 95% intervals are built for nine criteria by up to four methods:

* criteria: ``auc``; ``local_auc`` with ``top=0.1``; ``pnorm_push`` with ``p=4`` (Rudin's
  height form, normalised: a loss); ``dcg`` with ``k = n // 10``; ``gini`` (``2 AUC - 1``);
  ``average_precision`` (scikit-learn's step form); ``ks_statistic``
  (``max |TPR - FPR|``); ``partial_auc_tpr`` = ``partial_auc(min_tpr=0.8)`` (the area
  between the ROC curve and ``FPR = 1`` over TPR in [0.8, 1], pROC's sensitivity focus);
  ``partial_auc_fpr`` = ``partial_auc(min_fpr=0.05, max_fpr=0.2)`` (the area under the ROC
  curve over FPR in [0.05, 0.2]);
* methods: ``analytic`` (the criterion's default analytic method, read from
  ``rw.criteria.get(spec).methods``: DeLong for the AUC and the Gini coefficient, Hajek
  for the others), ``analytic_logit`` (the same with ``transform="logit"``),
  ``bootstrap_percentile`` and ``bootstrap_bca`` (the same ``B`` stratified resamples for
  both: ``Estimate.bootstrap_distribution`` is cached for an integer ``random_state``).
  A criterion without an analytic method (the KS statistic: a maximum over thresholds
  has no projection) gets the bootstrap methods only; its analytic cells are "not
  applicable" (absent from the cells, listed as such in the tables), and its
  ``bootstrap_bca`` is the bias-corrected percentile interval ("boot BC": no
  acceleration without influence values).

True values (the estimands), with ``pi = n_pos / n``, ``G = N(mu, 1)`` and ``H = N(0, 1)``:

* AUC: ``Phi(mu / sqrt 2)``.
* local AUC (Clemencon & Vayatis 2007): ``P{s(X) > s(X'), s(X) >= Q | Y = 1, Y' = -1}``
  with ``Q`` the upper ``top``-quantile of the pooled ``F = pi G + (1 - pi) H``, i.e.
  ``int_Q^inf H(t) g(t) dt`` (``Q`` by root finding, the integral by ``quad``); it
  depends on ``pi``.
* p-norm push (normalised): ``(int G(t)^p h(t) dt)^(1/p)``, the population value of
  ``((1/n-) sum_neg (Height_k / n+)^p)^(1/p)``.
* DCG@k, ``k = n // 10``: not a fixed functional (it grows with ``n``); the estimand is
  ``E[DCG@k]`` at these ``n``, class sizes and ``k``, by Monte Carlo (200,000 samples
  for ``n = 100``, 50,000 for ``n = 1000``: ``max(50_000, 2e7 // n)``; a tenth of that in
  quick mode), with its Monte Carlo standard error. The values are cached in
  ``<out>/dcg_truth.json`` (reused when a cached entry has at least as many Monte Carlo
  samples as asked; recomputed otherwise). The vectorised DCG is checked against
  ``rw.dcg`` on the first samples.
* Gini: ``2 Phi(mu / sqrt 2) - 1``.
* KS: ``sup_t |G(t) - H(t)| = 2 Phi(mu / 2) - 1``, attained at ``t = mu / 2``.
* average precision: the population limit
  ``int pi Gbar(t) / (pi Gbar(t) + (1 - pi) Hbar(t)) g(t) dt`` (``quad``; it depends on
  ``pi``). AP is biased by O(1/n+) (+0.5 SD with 10 positives), so its expectation
  ``E[AP]`` at these ``n`` and class sizes is also computed by Monte Carlo (seeds and
  sizes as for DCG, cached in ``<out>/ap_truth.json``, the vectorised AP checked against
  ``rw.average_precision``), and the coverage of ``E[AP]`` is reported beside that of
  the population value, which stays the truth: an interval for AP is read as one for
  the population AP, and the bias is the estimator's.
* partial AUC over the TPR band ``[a, b]``: ``int_a^b Phi(mu - Phi^{-1}(u)) du``; over the
  FPR band ``[a, b]``: ``int_a^b Gbar(Hbar^{-1}(x)) dx = int_a^b Phi(mu + Phi^{-1}(x)) dx``
  (``quad``).

Each of the new truths is also computed by a second route (an integral over the
threshold instead of a rate, or the reverse; a numerical maximisation for KS).

The truths are also checked: the mean of the estimates over the replications against the
truth (bias in units of the empirical SD, and as a z statistic with the Monte Carlo error
of the mean), and, in full mode, every criterion but DCG on one large sample (2e6, per
balance), where the same statistic is also computed by scikit-learn / SciPy / NumPy.

Per cell (n, balance, criterion, method): coverage (share of the ``R`` intervals that
contain the truth; an undefined or NaN interval counts as a miss) with its Monte Carlo
standard error ``sqrt(c (1 - c) / R)``, the shares missing low (interval above the
truth) and high, the mean width, the mean standard error (analytic: ``std_error``;
bootstrap: the SD of the resamples) against the empirical SD of the estimates, and the
shares of replications where the criterion was undefined or the interval degenerate
(zero width, NaN, or a ``DegenerateIntervalWarning``).

Seeds (explicit, ``--seed``, default 2025): the replications of cell ``(n, balance)``
come from ``np.random.default_rng([seed, n, n_pos])``: for each replication, the
``n_pos`` positive scores, then the ``n_neg`` negative scores, then one integer
``random_state`` for the bootstrap of that replication (shared by the criteria). Adding
criteria changes neither the data nor the bootstrap seeds of the others.
The first ``R`` replications of a run with more are the same data. The DCG Monte Carlo
uses ``np.random.default_rng([seed, n, n_pos, k, 1])``, the E[AP] Monte Carlo
``np.random.default_rng([seed, n, n_pos, 3])``; the large-sample check
``np.random.default_rng([seed, 2])``.

Usage::

    python experiments/coverage.py --quick                 # R = 60, B = 200, about 20 s
    python experiments/coverage.py                         # R = 1000, B = 1000, see REPRODUCTION.md
    python experiments/coverage.py --reps 500 --resamples 500 --out out/cov500
    python experiments/coverage.py --band-edge             # the partial AUC band-edge check

Writes ``<out>/coverage.json`` (settings, truths, every cell), ``<out>/coverage.md`` (the
tables), ``<out>/coverage_raw.npz`` (every replication's estimate and interval) and
``<out>/dcg_truth.json`` and ``<out>/ap_truth.json`` (the caches), each atomically. BLAS threads are pinned to 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import subprocess
import sys
import time
import warnings

import numpy as np
from scipy import integrate, optimize, stats

import rankwise as rw
from rankwise.io import write_atomic
from rankwise.stats import DegenerateIntervalWarning

NS = (100, 1000)
BALANCES = (0.5, 0.1)
CRITERIA = ("auc", "local_auc", "pnorm_push", "dcg", "gini", "average_precision", "ks_statistic",
            "partial_auc_tpr", "partial_auc_fpr")
METHODS = ("analytic", "analytic_logit", "bootstrap_percentile", "bootstrap_bca")
ANALYTIC = ("analytic", "analytic_logit")
MU = 1.0
TOP = 0.1
P_PUSH = 4
TPR_BAND = (0.8, 1.0)     # partial_auc_tpr: partial_auc(min_tpr=0.8), pROC's sensitivity focus
FPR_BAND = (0.05, 0.2)    # partial_auc_fpr: partial_auc(min_fpr=0.05, max_fpr=0.2)
LEVEL = 0.95
SEED = 2025
FULL = {"reps": 1000, "resamples": 1000}
QUICK = {"reps": 60, "resamples": 200}


def criterion_name(criterion: str) -> str:
    """The registered name of a study criterion (the two partial AUC bands are one
    criterion, ``partial_auc``, with different parameters)."""
    if criterion in ("partial_auc_tpr", "partial_auc_fpr"):
        return "partial_auc"
    if criterion in ("auc", "local_auc", "pnorm_push", "dcg", "gini", "average_precision", "ks_statistic"):
        return criterion
    raise ValueError(criterion)


def criterion_args(criterion: str, n: int) -> dict:
    """The parameters of ``criterion`` at sample size ``n``."""
    if criterion in ("auc", "gini", "average_precision", "ks_statistic"):
        return {}
    if criterion == "local_auc":
        return {"top": TOP}
    if criterion == "pnorm_push":
        return {"p": P_PUSH}
    if criterion == "dcg":
        return {"k": n // 10}
    if criterion == "partial_auc_tpr":
        return {"min_tpr": TPR_BAND[0]}
    if criterion == "partial_auc_fpr":
        return {"min_fpr": FPR_BAND[0], "max_fpr": FPR_BAND[1]}
    raise ValueError(criterion)


def analytic_methods(criterion: str, n: int = 100) -> tuple[str, ...]:
    """The criterion's analytic methods as the library declares them, the default first
    (``()``: bootstrap intervals only)."""
    return tuple(rw.criteria.get((criterion_name(criterion), criterion_args(criterion, n))).methods)


def applicable(criterion: str, method: str, n: int = 100) -> bool:
    """Whether ``method`` exists for ``criterion``: the analytic ones need an analytic
    method of the library (the KS statistic has none: bootstrap only)."""
    return method not in ANALYTIC or bool(analytic_methods(criterion, n))


def criterion_display(criterion: str) -> str:
    """``name(params)`` as the tables show it (parameters that depend on ``n`` as formulas)."""
    if criterion == "dcg":
        return "dcg(k=n//10)"
    args = criterion_args(criterion, 100)
    name = criterion_name(criterion)
    return name + ("(" + ", ".join(f"{k}={v:g}" for k, v in args.items()) + ")" if args else "")


def class_sizes(n: int, balance: float) -> tuple[int, int]:
    n_pos = int(round(balance * n))
    return n_pos, n - n_pos


# --- true values ---------------------------------------------------------------------------

def true_auc(mu: float = MU) -> float:
    return float(stats.norm.cdf(mu / math.sqrt(2.0)))


def pooled_quantile(mu: float, pi: float, top: float) -> float:
    """``Q`` with ``P_F(s >= Q) = top`` for ``F = pi N(mu, 1) + (1 - pi) N(0, 1)``."""
    def f(q):
        return pi * stats.norm.sf(q - mu) + (1.0 - pi) * stats.norm.sf(q) - top
    return float(optimize.brentq(f, -20.0, 20.0 + mu, xtol=1e-14, rtol=1e-14))


def true_local_auc(mu: float, pi: float, top: float = TOP) -> float:
    """``int_Q^inf H(t) g(t) dt``: the local AUC of Clemencon & Vayatis (2007, "Ranking the
    best instances") at the pooled upper ``top``-quantile."""
    q = pooled_quantile(mu, pi, top)
    val, _ = integrate.quad(lambda t: stats.norm.cdf(t) * stats.norm.pdf(t - mu), q, np.inf,
                            epsabs=1e-13, epsrel=1e-12)
    return float(val)


def true_pnorm_push(mu: float = MU, p: float = P_PUSH) -> float:
    """``(int G(t)^p h(t) dt)^(1/p)``, ``G = N(mu, 1)`` cdf, ``h = N(0, 1)`` density."""
    val, _ = integrate.quad(lambda t: stats.norm.cdf(t - mu) ** p * stats.norm.pdf(t), -np.inf, np.inf,
                            epsabs=1e-14, epsrel=1e-12)
    return float(val ** (1.0 / p))


def true_gini(mu: float = MU) -> float:
    """``2 AUC - 1 = 2 Phi(mu / sqrt 2) - 1``."""
    return 2.0 * true_auc(mu) - 1.0


def true_ks(mu: float = MU) -> float:
    """``sup_t |G(t) - H(t)| = 2 Phi(mu / 2) - 1``, attained at ``t = mu / 2`` (the two
    densities cross there)."""
    return float(2.0 * stats.norm.cdf(mu / 2.0) - 1.0)


def true_average_precision(mu: float, pi: float) -> float:
    """The population AP: ``int pi Gbar(t) / (pi Gbar(t) + (1 - pi) Hbar(t)) g(t) dt``,
    the precision at each positive's own threshold averaged over the positives (the limit
    of the step form). ``Hbar / Gbar`` in logs: both underflow in the right tail."""
    def f(t):
        r = math.exp(stats.norm.logsf(t) - stats.norm.logsf(t - mu))
        return stats.norm.pdf(t - mu) / (1.0 + (1.0 - pi) / pi * r)
    val, _ = integrate.quad(f, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12, limit=200)
    return float(val)


def true_partial_auc_tpr(mu: float, a: float, b: float) -> float:
    """Area between the ROC curve and the right edge over true-positive rates in
    ``[a, b]``: ``int_a^b (1 - FPR(tpr)) dtpr = int_a^b Phi(mu - Phi^{-1}(tpr)) dtpr``."""
    val, _ = integrate.quad(lambda u: stats.norm.cdf(mu - stats.norm.ppf(u)), a, b,
                            epsabs=1e-14, epsrel=1e-12, limit=200)
    return float(val)


def true_partial_auc_fpr(mu: float, a: float, b: float) -> float:
    """Area under the ROC curve over false-positive rates in ``[a, b]``:
    ``int_a^b Gbar(Hbar^{-1}(x)) dx = int_a^b Phi(mu + Phi^{-1}(x)) dx``."""
    val, _ = integrate.quad(lambda x: stats.norm.cdf(mu + stats.norm.ppf(x)), a, b,
                            epsabs=1e-14, epsrel=1e-12, limit=200)
    return float(val)


def true_value(criterion: str, mu: float, pi: float) -> tuple[float, str]:
    """The population value of a criterion with a fixed functional (every one but DCG),
    and how it is computed."""
    if criterion == "auc":
        return true_auc(mu), "Phi(mu/sqrt2)"
    if criterion == "local_auc":
        return true_local_auc(mu, pi), "quad, Q = pooled upper 0.1-quantile"
    if criterion == "pnorm_push":
        return true_pnorm_push(mu), "quad, (int G^p h)^(1/p)"
    if criterion == "gini":
        return true_gini(mu), "2 Phi(mu/sqrt2) - 1"
    if criterion == "ks_statistic":
        return true_ks(mu), "2 Phi(mu/2) - 1"
    if criterion == "average_precision":
        return true_average_precision(mu, pi), "quad, population limit (E[AP] at this n in its own column)"
    if criterion == "partial_auc_tpr":
        return true_partial_auc_tpr(mu, *TPR_BAND), "quad, int Phi(mu - Phi^-1(tpr)) dtpr over [0.8, 1]"
    if criterion == "partial_auc_fpr":
        return true_partial_auc_fpr(mu, *FPR_BAND), "quad, int Phi(mu + Phi^-1(fpr)) dfpr over [0.05, 0.2]"
    raise ValueError(criterion)


def truth_second_route(criterion: str, mu: float, pi: float) -> float:
    """The same population value by another route, to check the formulas above: an
    integral over the threshold ``t`` where the formula integrates over a rate (or the
    reverse), or a numerical maximisation for the KS statistic."""
    quad = dict(epsabs=1e-14, epsrel=1e-12, limit=200)
    if criterion == "gini":
        auc, _ = integrate.quad(lambda t: stats.norm.cdf(t) * stats.norm.pdf(t - mu), -np.inf, np.inf, **quad)
        return 2.0 * auc - 1.0
    if criterion == "ks_statistic":
        res = optimize.minimize_scalar(lambda t: -(stats.norm.cdf(t) - stats.norm.cdf(t - mu)),
                                       bounds=(-10.0, 10.0 + mu), method="bounded", options={"xatol": 1e-10})
        return float(-res.fun)
    if criterion == "average_precision":
        # over recall r = Gbar(t): precision pi r / (pi r + (1 - pi) Hbar(t)), t = mu + Phi^-1(1 - r)
        def f(r):
            return pi * r / (pi * r + (1.0 - pi) * stats.norm.sf(mu + stats.norm.isf(r)))
        return float(integrate.quad(f, 0.0, 1.0, **quad)[0])
    if criterion == "partial_auc_tpr":
        # the thresholds with TPR = Gbar(t) in [a, b]: t in [mu + isf(b), mu + isf(a)]; 1 - FPR = H(t)
        a, b = TPR_BAND
        return float(integrate.quad(lambda t: stats.norm.cdf(t) * stats.norm.pdf(t - mu),
                                    mu + stats.norm.isf(b), mu + stats.norm.isf(a), **quad)[0])
    if criterion == "partial_auc_fpr":
        # the thresholds with FPR = Hbar(t) in [a, b]: t in [isf(b), isf(a)]; TPR = Gbar(t)
        a, b = FPR_BAND
        return float(integrate.quad(lambda t: stats.norm.sf(t - mu) * stats.norm.pdf(t),
                                    stats.norm.isf(b), stats.norm.isf(a), **quad)[0])
    raise ValueError(criterion)


def _dcg_rows(s: np.ndarray, n_pos: int, k: int, disc: np.ndarray) -> np.ndarray:
    """DCG@k of each row of ``s`` (columns ``< n_pos`` are the positives; no ties)."""
    idx = np.argpartition(-s, k - 1, axis=1)[:, :k] if k < s.shape[1] else np.tile(np.arange(s.shape[1]), (s.shape[0], 1))
    top = np.take_along_axis(s, idx, axis=1)
    idx = np.take_along_axis(idx, np.argsort(-top, axis=1), axis=1)
    return (idx < n_pos).astype(np.float64) @ disc


def _mc_mean(n: int, n_pos: int, mu: float, n_mc: int, seed_key: list, rows, reference, tol, label: str) -> dict:
    """The mean of a statistic over ``n_mc`` stratified binormal samples (``rows``: the
    statistic of each row of an (m, n) score matrix, positives first), checked against
    ``reference(y, s)`` (rankwise) on the first 20 samples to ``tol(value)``."""
    rng = np.random.default_rng(seed_key)
    chunk = max(1, 2_000_000 // n)
    total = total2 = 0.0
    done = 0
    checked = False
    while done < n_mc:
        m = min(chunk, n_mc - done)
        s = np.empty((m, n))
        s[:, :n_pos] = rng.normal(mu, 1.0, size=(m, n_pos))
        s[:, n_pos:] = rng.normal(0.0, 1.0, size=(m, n - n_pos))
        v = rows(s)
        if not checked:
            y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n - n_pos, dtype=int)]
            for i in range(min(20, m)):
                ref = reference(y, s[i])
                if not abs(ref - v[i]) <= tol(ref):
                    raise AssertionError(f"vectorised {label} {v[i]} != rankwise {ref} (n={n}, row {i})")
            checked = True
        total += float(v.sum())
        total2 += float(np.dot(v, v))
        done += m
    mean = total / n_mc
    var = (total2 - n_mc * mean * mean) / (n_mc - 1)
    return {"value": mean, "mcse": math.sqrt(max(var, 0.0) / n_mc), "sd": math.sqrt(max(var, 0.0)),
            "n_mc": int(n_mc), "seed": list(seed_key)}


def dcg_truth_mc(n: int, n_pos: int, k: int, mu: float, n_mc: int, seed: int) -> dict:
    """``E[DCG@k]`` by Monte Carlo over ``n_mc`` samples, checked against ``rw.dcg``."""
    disc = 1.0 / np.log2(2.0 + np.arange(k))
    return _mc_mean(n, n_pos, mu, n_mc, [seed, n, n_pos, k, 1], lambda s: _dcg_rows(s, n_pos, k, disc),
                    lambda y, s: rw.dcg(y, s, k=k), lambda ref: 1e-10 * max(1.0, abs(ref)), "DCG")


def dcg_mc_size(n: int, quick: bool) -> int:
    full = max(50_000, 20_000_000 // n)
    return full // 10 if quick else full


def _dcg_key(n: int, n_pos: int, k: int, mu: float, seed: int) -> str:
    return f"n={n},n_pos={n_pos},k={k},mu={mu!r},seed={seed}"


def _cached_mc(items, cache_path: str | None, log=None, what: str = "") -> dict:
    """``{out_key: truth dict}`` for ``items = [(out_key, cache_key, need, compute)]``, from
    the JSON cache at ``cache_path`` when an entry has at least ``need`` Monte Carlo samples,
    otherwise from ``compute()`` (then written back)."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    changed = False
    out = {}
    for out_key, key, need, compute in items:
        hit = cache.get(key)
        if hit is None or hit["n_mc"] < need:
            t0 = time.perf_counter()
            hit = compute()
            hit["seconds"] = round(time.perf_counter() - t0, 2)
            cache[key] = hit
            changed = True
            if log:
                log(f"{what} truth {key}: {hit['value']:.5f} (MC se {hit['mcse']:.1e}, "
                    f"{need} samples, {hit['seconds']} s)")
        out[out_key] = hit
    if changed and cache_path:
        write_atomic(cache_path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return out


def dcg_truths(cells, mu: float, seed: int, quick: bool, cache_path: str | None, log=None) -> dict:
    """``{(n, n_pos): truth dict}`` for DCG@(n // 10), from the cache when it is good enough."""
    items = []
    for n, n_pos in cells:
        k = n // 10
        need = dcg_mc_size(n, quick)
        items.append(((n, n_pos), _dcg_key(n, n_pos, k, mu, seed), need,
                      lambda n=n, n_pos=n_pos, k=k, need=need: dcg_truth_mc(n, n_pos, k, mu, need, seed)))
    return _cached_mc(items, cache_path, log, "DCG")


def _ap_rows(s: np.ndarray, n_pos: int) -> np.ndarray:
    """AP (step form) of each row of ``s`` (columns ``< n_pos`` are the positives; no
    ties): the mean over the positives of the precision at their rank."""
    order = np.argsort(-s, axis=1)
    hit = order < n_pos
    prec = np.cumsum(hit, axis=1) / np.arange(1, s.shape[1] + 1)
    return (prec * hit).sum(axis=1) / n_pos


def ap_truth_mc(n: int, n_pos: int, mu: float, n_mc: int, seed: int) -> dict:
    """``E[AP]`` at these class sizes by Monte Carlo over ``n_mc`` samples, checked
    against ``rw.average_precision`` on the first samples."""
    return _mc_mean(n, n_pos, mu, n_mc, [seed, n, n_pos, 3], lambda s: _ap_rows(s, n_pos),
                    rw.average_precision, lambda ref: 1e-12, "AP")


def ap_truths(cells, mu: float, seed: int, quick: bool, cache_path: str | None, log=None) -> dict:
    """``{(n, n_pos): E[AP] dict}`` (same Monte Carlo sizes as DCG), cached like DCG's."""
    items = []
    for n, n_pos in cells:
        need = dcg_mc_size(n, quick)
        items.append(((n, n_pos), f"n={n},n_pos={n_pos},mu={mu!r},seed={seed}", need,
                      lambda n=n, n_pos=n_pos, need=need: ap_truth_mc(n, n_pos, mu, need, seed)))
    return _cached_mc(items, cache_path, log, "E[AP]")


def _band_area(x: np.ndarray, y: np.ndarray, a: float, b: float) -> float:
    """``int_a^b y dx`` along the polyline through ``(x, y)`` (``x`` nondecreasing), each
    segment linear: segments of zero width add nothing."""
    x0, x1, y0, y1 = x[:-1], x[1:], y[:-1], y[1:]
    dx = x1 - x0
    keep = dx > 0
    x0, x1, y0, y1, dx = x0[keep], x1[keep], y0[keep], y1[keep], dx[keep]
    lo, hi = np.clip(x0, a, b), np.clip(x1, a, b)
    ylo = y0 + (y1 - y0) * (lo - x0) / dx
    yhi = y0 + (y1 - y0) * (hi - x0) / dx
    return float(np.sum((hi - lo) * (ylo + yhi) / 2.0))


def independent_value(criterion: str, y: np.ndarray, s: np.ndarray) -> float:
    """The criterion by code outside rankwise (scikit-learn, SciPy, NumPy), for the
    large-sample check; NaN where there is none (local AUC, p-norm push, DCG) or
    scikit-learn is missing."""
    try:
        from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve
    except ImportError:  # pragma: no cover - scikit-learn is a test dependency
        return float("nan")
    if criterion == "auc":
        return float(roc_auc_score(y, s))
    if criterion == "gini":
        return float(2.0 * roc_auc_score(y, s) - 1.0)
    if criterion == "average_precision":
        return float(average_precision_score(y, s))
    if criterion == "ks_statistic":
        return float(stats.ks_2samp(s[y], s[~y]).statistic)
    if criterion in ("partial_auc_tpr", "partial_auc_fpr"):
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        if criterion == "partial_auc_tpr":
            return _band_area(tpr, 1.0 - fpr, *TPR_BAND)
        return _band_area(fpr, tpr, *FPR_BAND)
    return float("nan")


def ks_asymptotic_se(mu: float, n_pos: int, n_neg: int) -> float:
    """SD of the KS statistic to first order (unique maximiser ``t* = mu / 2``):
    ``sqrt(G(1 - G) / n+ + H(1 - H) / n-)`` at ``t*``."""
    g = stats.norm.cdf(mu / 2.0 - mu)
    h = stats.norm.cdf(mu / 2.0)
    return math.sqrt(g * (1.0 - g) / n_pos + h * (1.0 - h) / n_neg)


LARGE_SAMPLE_CRITERIA = ("auc", "local_auc", "pnorm_push", "gini", "average_precision", "ks_statistic",
                         "partial_auc_tpr", "partial_auc_fpr")


def large_sample_check(mu: float, seed: int, n_big: int = 2_000_000, criteria=LARGE_SAMPLE_CRITERIA,
                       independent: bool = True) -> list[dict]:
    """Every criterion with a population value (all but DCG) on one large stratified
    sample per balance against that value (a check of the integrals above); ``z`` is the
    difference over the sample's own analytic standard error (for the KS statistic, which
    has none, over its first-order SD ``ks_asymptotic_se``). ``independent``: the same
    statistic on the same sample by scikit-learn / SciPy / NumPy, where there is one."""
    rng = np.random.default_rng([seed, 2])
    rows = []
    for balance in BALANCES:
        n_pos, n_neg = class_sizes(n_big, balance)
        s = np.r_[rng.normal(mu, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
        y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
        pi = n_pos / n_big
        for crit in criteria:
            truth = true_value(crit, mu, pi)[0]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = rw.stats.estimate(y, s, criterion_name(crit), **criterion_args(crit, n_big))
            se = e.std_error if np.isfinite(e.std_error) else ks_asymptotic_se(mu, n_pos, n_neg)
            row = {"n": n_big, "balance": balance, "criterion": crit, "sample": float(e.value),
                   "truth": truth, "diff": float(e.value) - truth, "z": (float(e.value) - truth) / se}
            if independent:
                row["independent"] = independent_value(crit, y, s)
            rows.append(row)
    return rows


# --- the study -----------------------------------------------------------------------------

def _interval(e, method: str, resamples: int, boot_seed: int):
    if method == "analytic":
        return e.confidence_interval(LEVEL)
    if method == "analytic_logit":
        return e.confidence_interval(LEVEL, transform="logit")
    kind = "percentile" if method == "bootstrap_percentile" else "bca"
    return e.confidence_interval(LEVEL, method="bootstrap", kind=kind, n_resamples=resamples,
                                 random_state=boot_seed)


def simulate_cell(n: int, balance: float, criteria, methods, reps: int, resamples: int,
                  seed: int = SEED, mu: float = MU) -> dict:
    """``reps`` replications of one (n, balance) cell: per criterion, the estimates, their
    standard errors, and per method the interval ends, the interval's standard error and a
    degenerate flag."""
    n_pos, n_neg = class_sizes(n, balance)
    rng = np.random.default_rng([seed, n, n_pos])
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    # Per criterion only the methods it has (no analytic interval for the KS statistic).
    own = {c: [m for m in methods if applicable(c, m, n)] for c in criteria}
    raw = {c: {"value": np.full(reps, np.nan), "std_error": np.full(reps, np.nan),
               "low": {m: np.full(reps, np.nan) for m in own[c]},
               "high": {m: np.full(reps, np.nan) for m in own[c]},
               "ci_se": {m: np.full(reps, np.nan) for m in own[c]},
               "degenerate": {m: np.zeros(reps, dtype=bool) for m in own[c]}} for c in criteria}
    args = {c: criterion_args(c, n) for c in criteria}
    names = {c: criterion_name(c) for c in criteria}
    for r in range(reps):
        s = np.r_[rng.normal(mu, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
        boot_seed = int(rng.integers(0, 2**31 - 1))
        for c in criteria:
            d = raw[c]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = rw.stats.estimate(y, s, names[c], **args[c])
            d["value"][r] = e.value
            d["std_error"][r] = e.std_error
            for m in own[c]:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    ci = _interval(e, m, resamples, boot_seed)
                lo, hi = float(ci.low), float(ci.high)
                d["low"][m][r], d["high"][m][r] = lo, hi
                d["ci_se"][m][r] = np.nan if ci.std_error is None else float(ci.std_error)
                d["degenerate"][m][r] = (not (np.isfinite(lo) and np.isfinite(hi) and hi > lo)
                                         or any(issubclass(w.category, DegenerateIntervalWarning) for w in caught))
    return raw


def method_label(criterion: str, method: str) -> str:
    """The method as the tables name it: the criterion's default analytic method
    (``delong`` for the AUC and the Gini coefficient, ``hajek`` for the others), and
    ``boot BC`` instead of ``boot BCa`` where there is no projection to give the
    acceleration (the library then returns the bias-corrected percentile interval)."""
    methods = analytic_methods(criterion)
    if method in ANALYTIC:
        if not methods:
            raise ValueError(f"{criterion} has no analytic method")
        return methods[0] + ("+logit" if method == "analytic_logit" else "")
    if method == "bootstrap_percentile":
        return "boot percentile"
    if method == "bootstrap_bca":
        return "boot BCa" if methods else "boot BC"
    raise ValueError(method)


def summarise(raw: dict, truth: float, truth_mcse: float, n: int, balance: float, criterion: str,
              methods, alt: dict | None = None) -> list[dict]:
    """One row per applicable method. ``alt``: a second estimand (``{"value", "mcse"}``;
    for AP its expectation at this ``n``), whose coverage is reported beside the truth's."""
    d = raw[criterion]
    v = d["value"]
    reps = v.shape[0]
    ok = np.isfinite(v)
    sd = float(np.std(v[ok], ddof=1)) if ok.sum() > 1 else float("nan")
    mean = float(np.mean(v[ok])) if ok.any() else float("nan")
    bias = mean - truth
    bias_z = bias / math.sqrt(sd * sd / max(ok.sum(), 1) + truth_mcse ** 2) if sd > 0 else float("nan")
    n_pos, n_neg = class_sizes(n, balance)
    rows = []
    for m in methods:
        if m not in d["low"]:
            continue  # not applicable to this criterion (an analytic method of the KS statistic)
        lo, hi = d["low"][m], d["high"][m]
        fin = np.isfinite(lo) & np.isfinite(hi)
        cover = fin & (lo <= truth) & (truth <= hi)
        c = float(cover.mean())
        se_m = d["ci_se"][m]
        mean_se = float(np.nanmean(se_m)) if np.isfinite(se_m).any() else float("nan")
        rows.append({
            "n": n, "balance": balance, "n_pos": n_pos, "n_neg": n_neg, "criterion": criterion,
            "params": criterion_args(criterion, n), "method": m, "method_label": method_label(criterion, m),
            "reps": reps, "truth": truth, "truth_mcse": truth_mcse,
            "coverage": c, "coverage_mcse": math.sqrt(c * (1.0 - c) / reps),
            "miss_low": float((fin & (lo > truth)).mean()),    # interval entirely above the truth
            "miss_high": float((fin & (hi < truth)).mean()),   # interval entirely below the truth
            "mean_width": float(np.mean((hi - lo)[fin])) if fin.any() else float("nan"),
            "mean_estimate": mean, "bias": bias, "bias_over_sd": bias / sd if sd > 0 else float("nan"),
            "bias_z": bias_z, "sd_estimates": sd, "mean_std_error": mean_se,
            "se_ratio": mean_se / sd if sd > 0 else float("nan"),
            "undefined": float((~ok).mean()), "degenerate": float(d["degenerate"][m].mean()),
        })
        if alt is not None:
            ca = float((fin & (lo <= alt["value"]) & (alt["value"] <= hi)).mean())
            rows[-1].update({"truth_alt": alt["value"], "truth_alt_mcse": alt["mcse"], "coverage_alt": ca,
                             "coverage_alt_mcse": math.sqrt(ca * (1.0 - ca) / reps),
                             "bias_alt_over_sd": (mean - alt["value"]) / sd if sd > 0 else float("nan")})
    return rows


def run_study(ns=NS, balances=BALANCES, criteria=CRITERIA, methods=METHODS, reps: int = FULL["reps"],
              resamples: int = FULL["resamples"], seed: int = SEED, mu: float = MU, quick: bool = False,
              dcg_cache: str | None = None, ap_cache: str | None = None, log=None) -> dict:
    """The study's core: simulate every (n, balance) cell and summarise per criterion and
    method. Returns ``{"settings", "truths", "cells", "raw", "timing"}`` (``raw`` holds the
    per-replication arrays, keyed ``(n, balance)``)."""
    t_start = time.perf_counter()
    grid = [(n, b) for n in ns for b in balances]
    dcg = {}
    if "dcg" in criteria:
        dcg = dcg_truths([(n, class_sizes(n, b)[0]) for n, b in grid], mu, seed, quick, dcg_cache, log)
    ap = {}
    if "average_precision" in criteria:
        ap = ap_truths([(n, class_sizes(n, b)[0]) for n, b in grid], mu, seed, quick, ap_cache, log)
    truths, cells, raws, timing = [], [], {}, {}
    for n, b in grid:
        n_pos, n_neg = class_sizes(n, b)
        t0 = time.perf_counter()
        raw = simulate_cell(n, b, criteria, methods, reps, resamples, seed, mu)
        timing[f"n={n},balance={b}"] = round(time.perf_counter() - t0, 2)
        raws[(n, b)] = raw
        for c in criteria:
            alt = None
            if c == "dcg":
                t = dcg[(n, n_pos)]
                truth, mcse, how = t["value"], t["mcse"], f"E[DCG@{n // 10}] by Monte Carlo ({t['n_mc']} samples)"
            else:
                (truth, how), mcse = true_value(c, mu, n_pos / n), 0.0
                if c == "average_precision":
                    t = ap[(n, n_pos)]
                    alt = {"value": t["value"], "mcse": t["mcse"], "n_mc": t["n_mc"],
                           "how": f"E[AP] at n by Monte Carlo ({t['n_mc']} samples)"}
            row = {"n": n, "balance": b, "n_pos": n_pos, "criterion": c, "truth": truth,
                   "truth_mcse": mcse, "how": how}
            if c not in ("auc", "local_auc", "pnorm_push", "dcg"):
                second = truth_second_route(c, mu, n_pos / n)
                row.update({"second_route": second, "second_route_diff": second - truth})
            if alt is not None:
                row["alt"] = alt
            truths.append(row)
            cells.extend(summarise(raw, truth, mcse, n, b, c, methods, alt))
        if log:
            log(f"cell n={n} balance={b}: {timing[f'n={n},balance={b}']} s")
    settings = {"ns": list(ns), "balances": list(balances), "criteria": list(criteria),
                "criterion_params": {c: {str(n): criterion_args(c, n) for n in ns} for c in criteria},
                "criterion_names": {c: criterion_name(c) for c in criteria},
                "methods_by_criterion": {c: [m for m in methods if applicable(c, m)] for c in criteria},
                "methods": list(methods), "reps": reps, "resamples": resamples, "level": LEVEL, "mu": mu,
                "seed": seed, "quick": quick,
                "distribution": "negatives N(0,1), positives N(mu,1); class sizes fixed (stratified)",
                "seed_scheme": "data of cell (n, balance): np.random.default_rng([seed, n, n_pos]); per replication "
                               "positives, negatives, then one int bootstrap random_state; DCG truth: "
                               "default_rng([seed, n, n_pos, k, 1]); E[AP]: default_rng([seed, n, n_pos, 3])"}
    timing["total"] = round(time.perf_counter() - t_start, 2)
    return {"settings": settings, "truths": truths, "cells": cells, "raw": raws, "timing": timing}


def band_edge_check(reps: int = 3000, seed: int = SEED) -> list[dict]:
    """The Hajek SE of a partial AUC against the SD of its estimates when the band edge
    sits at, just below, just above or between the grid points ``k / m`` of the class
    with few observations (``m = 10``): 10 positives and 90 negatives for TPR bands
    (``default_rng([seed, 4])``), 90 positives and 10 negatives for FPR bands
    (``default_rng([seed, 5])``), ``mu = 1``, ``reps`` samples shared by the bands of a
    kind. ``1 - 0.8`` is ``0.19999999999999996`` in floating point, so ``min_tpr=0.8``
    is mirrored to a false-positive band ending just below the grid point 2/10. Since
    the edges are read over a window one observation wide, the SE / SD no longer depends
    on the edge's position (it did: 0.63 on one side of a grid point, 1.00 on the other);
    ``experiments/pauc_edge.py`` is the full study (m from 10 to 10^4, coverage too)."""
    rows = []
    for kind, n_pos, n_neg, bands, tag in (
            ("min_tpr", 10, 90, (0.8, 0.8 - 1e-9, 0.8 + 1e-9, 0.75, 0.85), 4),
            ("max_fpr", 90, 10, (0.2, 0.2 - 1e-12, 0.2 + 1e-12, 0.25, 0.15), 5)):
        rng = np.random.default_rng([seed, tag])
        y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
        vals = {b: np.empty(reps) for b in bands}
        ses = {b: np.empty(reps) for b in bands}
        for r in range(reps):
            s = np.r_[rng.normal(MU, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
            for b in bands:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    e = rw.stats.estimate(y, s, "partial_auc", **{kind: b})
                vals[b][r], ses[b][r] = e.value, e.std_error
        for b in bands:
            sd = float(np.std(vals[b], ddof=1))
            rows.append({"param": kind, "edge": b, "n_pos": n_pos, "n_neg": n_neg, "reps": reps,
                         "mean_value": float(np.mean(vals[b])), "sd": sd, "mean_se": float(np.mean(ses[b])),
                         "se_ratio": float(np.mean(ses[b])) / sd})
    return rows


# --- output --------------------------------------------------------------------------------

def _f(x, spec=".3f") -> str:
    return "nan" if x is None or not np.isfinite(x) else format(x, spec)


def _criterion_note(criterion: str) -> str:
    notes = {"pnorm_push": "pnorm_push(p=4, normalised, a loss)",
             "ks_statistic": "ks_statistic (bootstrap intervals only; no acceleration, so 'boot BC' is "
                             "the bias-corrected percentile interval)",
             "partial_auc_tpr": "partial_auc_tpr = partial_auc(min_tpr=0.8) (area between the ROC curve "
                                "and FPR = 1 over TPR in [0.8, 1])",
             "partial_auc_fpr": "partial_auc_fpr = partial_auc(min_fpr=0.05, max_fpr=0.2) (area under the "
                                "ROC curve over FPR in [0.05, 0.2])"}
    return notes.get(criterion, criterion_display(criterion))


def markdown(result: dict) -> str:
    st = result["settings"]
    lines = [
        "# Coverage of nominal 95% intervals (rankwise.stats.estimate)",
        "",
        f"Binormal scores: negatives N(0, 1), positives N({st['mu']:g}, 1); class sizes fixed. "
        f"R = {st['reps']} replications per cell, B = {st['resamples']} bootstrap resamples "
        f"(percentile and BCa on the same resamples), seed {st['seed']}"
        + (" (quick mode)." if st["quick"] else "."),
        "Criteria: " + "; ".join(_criterion_note(c) for c in st["criteria"]) + ".",
        "",
        "Columns: coverage (± its Monte Carlo SE sqrt(c(1-c)/R)); lo-miss / hi-miss = share of intervals "
        "entirely above / below the truth; mean width; mean SE (analytic std_error, or the SD of the "
        "bootstrap resamples) over the empirical SD of the estimates; bias of the estimates in units of "
        "that SD; share of degenerate intervals (zero width, NaN or DegenerateIntervalWarning). No "
        "replication had an undefined criterion unless a row says so.",
        "",
        "## True values",
        "",
        "| n | balance | n+ | criterion | truth | MC SE | how | mean estimate | bias / SD | bias z |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    first = {(c["n"], c["balance"], c["criterion"]): c for c in result["cells"]}
    for t in result["truths"]:
        c = first[(t["n"], t["balance"], t["criterion"])]
        lines.append(f"| {t['n']} | {t['balance']:g} | {t['n_pos']} | {t['criterion']} | {t['truth']:.5f} | "
                     f"{_f(t['truth_mcse'], '.1e') if t['truth_mcse'] else '0'} | {t['how']} | "
                     f"{c['mean_estimate']:.5f} | {_f(c['bias_over_sd'], '+.3f')} | {_f(c['bias_z'], '+.2f')} |")
    second = [t for t in result["truths"] if "second_route" in t and t["n"] == st["ns"][0]]
    if second:
        lines += ["", "The same population values by a second route (an integral over the threshold "
                  "instead of a rate, or the reverse; a numerical maximisation for KS):", "",
                  "| balance | criterion | truth | second route | difference |", "|---|---|---|---|---|"]
        for t in second:
            lines.append(f"| {t['balance']:g} | {t['criterion']} | {t['truth']:.10f} | {t['second_route']:.10f} | "
                         f"{t['second_route_diff']:+.1e} |")
    alts = [t for t in result["truths"] if "alt" in t]
    if alts:
        lines += ["", "Average precision: the population limit (the truth above) against its expectation "
                  "E[AP] at this n (Monte Carlo; AP is biased by O(1/n+)). The intervals are scored "
                  "against the population value; their coverage of E[AP] is in the last columns, "
                  "to separate the bias from the standard error.", "",
                  "| n | balance | n+ | population AP | E[AP] at n (MC SE) | (E[AP] - AP) / SD | method | "
                  "coverage of AP | coverage of E[AP] |", "|---|---|---|---|---|---|---|---|---|"]
        for t in alts:
            for c in result["cells"]:
                if (c["n"], c["balance"], c["criterion"]) == (t["n"], t["balance"], t["criterion"]):
                    lines.append(
                        f"| {t['n']} | {t['balance']:g} | {t['n_pos']} | {t['truth']:.5f} | "
                        f"{t['alt']['value']:.5f} ({t['alt']['mcse']:.1e}) | "
                        f"{(t['alt']['value'] - t['truth']) / c['sd_estimates']:+.3f} | {c['method_label']} | "
                        f"{c['coverage']:.3f} ± {c['coverage_mcse']:.3f} | "
                        f"{c['coverage_alt']:.3f} ± {c['coverage_alt_mcse']:.3f} |")
    if result.get("large_sample_check"):
        lines += ["", "Large-sample check of the integrals (one stratified sample of 2e6; z: difference over "
                  "the sample's analytic SE, for KS over its first-order SD; independent: the same statistic "
                  "on the same sample by scikit-learn / SciPy / NumPy where one exists):", "",
                  "| balance | criterion | sample value | truth | difference | z (difference / SE) | "
                  "independent - sample |", "|---|---|---|---|---|---|---|"]
        for r in result["large_sample_check"]:
            ind = r.get("independent", float("nan"))
            lines.append(f"| {r['balance']:g} | {r['criterion']} | {r['sample']:.5f} | {r['truth']:.5f} | "
                         f"{r['diff']:+.1e} | {r['z']:+.2f} | "
                         f"{format(ind - r['sample'], '+.1e') if np.isfinite(ind) else '-'} |")
    lines += ["", "## Coverage", "",
              "| n | balance | criterion | method | coverage | lo-miss | hi-miss | mean width | mean SE / SD | "
              "bias / SD | degenerate |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    by_crit = st.get("methods_by_criterion", {})
    for i, c in enumerate(result["cells"]):
        key = (c["n"], c["balance"], c["criterion"])
        if i == 0 or key != (result["cells"][i - 1]["n"], result["cells"][i - 1]["balance"],
                             result["cells"][i - 1]["criterion"]):
            missing = [m for m in st["methods"] if m not in by_crit.get(c["criterion"], st["methods"])]
            if missing:
                lines.append(f"| {c['n']} | {c['balance']:g} | {c['criterion']} | {', '.join(missing)} | "
                             "not applicable (no analytic method: bootstrap only) | | | | | | |")
        cov = f"{c['coverage']:.3f} ± {c['coverage_mcse']:.3f}"
        if c["coverage"] < LEVEL - 2.0 * math.sqrt(LEVEL * (1.0 - LEVEL) / c["reps"]):
            cov = f"**{cov}**"
        deg = f"{c['degenerate']:.3f}" + (f" (undef. {c['undefined']:.3f})" if c["undefined"] else "")
        lines.append(
            f"| {c['n']} | {c['balance']:g} | {c['criterion']} | {c['method_label']} | {cov} | "
            f"{c['miss_low']:.3f} | {c['miss_high']:.3f} | {_f(c['mean_width'], '.4g')} | "
            f"{_f(c['mean_std_error'], '.4g')} / {_f(c['sd_estimates'], '.4g')} = {_f(c['se_ratio'], '.2f')} | "
            f"{_f(c['bias_over_sd'], '+.2f')} | {deg} |")
    lines += ["", "Bold: coverage more than 2 Monte Carlo SEs (at the nominal 0.95) below 0.95.", "",
              f"Runtime {result['timing']['total']:.0f} s; per cell: "
              + ", ".join(f"{k} {v:.0f} s" for k, v in result["timing"].items() if k != "total") + "."]
    return "\n".join(lines) + "\n"


def source_state() -> dict:
    """The code the run uses, taken when the run starts: the git commit, whether
    ``rankwise/`` differs from it, and a SHA-256 of every ``rankwise/**/*.py`` as read now."""
    pkg = os.path.dirname(os.path.abspath(rw.__file__))
    h = hashlib.sha256()
    for root, dirs, files in os.walk(pkg):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(root, name)
                h.update(os.path.relpath(path, pkg).encode() + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read())
    state = {"rankwise_source_sha256": h.hexdigest()}
    try:
        def git(*a):
            return subprocess.run(["git", *a], cwd=pkg, capture_output=True, text=True, timeout=10).stdout.strip()
        state["commit"] = git("rev-parse", "HEAD")
        state["rankwise_dirty"] = bool(git("status", "--porcelain", "--", "."))
    except (OSError, subprocess.SubprocessError):
        pass
    return state


def save(result: dict, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    meta = {"python": sys.version.split()[0], "numpy": np.__version__, "platform": platform.platform(),
            "rankwise": getattr(rw, "__version__", None), **result.get("source", {})}
    doc = {k: v for k, v in result.items() if k not in ("raw", "source")}
    doc["environment"] = meta
    write_atomic(os.path.join(out, "coverage.json"), json.dumps(doc, indent=1, allow_nan=True) + "\n")
    write_atomic(os.path.join(out, "coverage.md"), markdown(result))
    arrays = {}
    for (n, b), raw in result["raw"].items():
        for c, d in raw.items():
            pre = f"n{n}_b{b:g}_{c}"
            arrays[pre + "_value"] = d["value"]
            arrays[pre + "_std_error"] = d["std_error"]
            for m in d["low"]:
                arrays[f"{pre}_{m}_low"] = d["low"][m]
                arrays[f"{pre}_{m}_high"] = d["high"][m]
                arrays[f"{pre}_{m}_se"] = d["ci_se"][m]
                arrays[f"{pre}_{m}_degenerate"] = d["degenerate"][m]
    write_atomic(os.path.join(out, "coverage_raw.npz"), lambda f: np.savez_compressed(f, **arrays), binary=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="R = 60, B = 200 (defaults; --reps/--resamples override)")
    ap.add_argument("--reps", type=int, default=None, help="replications per cell (full: 1000)")
    ap.add_argument("--resamples", type=int, default=None, help="bootstrap resamples (full: 1000)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=os.path.join("out", "coverage"))
    ap.add_argument("--band-edge", action="store_true",
                    help="only print the partial AUC band-edge check (band_edge_check; about 1 min; "
                         "the full study is experiments/pauc_edge.py)")
    args = ap.parse_args(argv)
    if args.band_edge:
        print("| band | n+ | n- | mean value | SD of estimates | mean Hajek SE | SE / SD |")
        print("|---|---|---|---|---|---|---|")
        for r in band_edge_check(seed=args.seed):
            print(f"| {r['param']}={r['edge']!r} | {r['n_pos']} | {r['n_neg']} | {r['mean_value']:.5f} | "
                  f"{r['sd']:.5f} | {r['mean_se']:.5f} | {r['se_ratio']:.2f} |")
        return 0
    base = QUICK if args.quick else FULL
    reps = base["reps"] if args.reps is None else args.reps
    resamples = base["resamples"] if args.resamples is None else args.resamples

    def log(msg):
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    from threadpoolctl import threadpool_limits

    source = source_state()
    with threadpool_limits(limits=1):
        log(f"coverage study: R={reps}, B={resamples}, seed={args.seed}, out={args.out}"
            + (" (quick)" if args.quick else ""))
        result = run_study(reps=reps, resamples=resamples, seed=args.seed, quick=args.quick,
                           dcg_cache=os.path.join(args.out, "dcg_truth.json"),
                           ap_cache=os.path.join(args.out, "ap_truth.json"), log=log)
        t0 = time.perf_counter()
        result["large_sample_check"] = large_sample_check(MU, args.seed)
        result["timing"]["large_sample_check"] = round(time.perf_counter() - t0, 2)
    result["source"] = source
    save(result, args.out)
    log(f"done in {result['timing']['total']:.1f} s; wrote {args.out}/coverage.json, coverage.md, coverage_raw.npz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
