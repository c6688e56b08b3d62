"""Coverage study of the confidence intervals of ``rankwise.stats.estimate`` (issue 3).

Binormal scores with a known answer: negatives ``s ~ N(0, 1)``, positives
``s ~ N(mu, 1)`` with ``mu = 1`` (AUC = Phi(1/sqrt 2) = 0.760), continuous, so no ties.
For every ``n`` in {100, 1000} and share of positives ``balance`` in {0.5, 0.1}, the
class sizes are fixed (``n_pos = round(balance * n)``, ``n_neg = n - n_pos``: stratified
sampling, which is what the intervals assume). ``R`` replications are drawn and, for each,
nominal 95% intervals are built for four criteria by four methods:

* criteria: ``auc``; ``local_auc`` with ``top=0.1``; ``pnorm_push`` with ``p=4`` (Rudin's
  height form, normalised: a loss); ``dcg`` with ``k = n // 10``;
* methods: ``analytic`` (the default analytic method: DeLong for the AUC, Hajek for the
  others), ``analytic_logit`` (the same with ``transform="logit"``),
  ``bootstrap_percentile`` and ``bootstrap_bca`` (the same ``B`` stratified resamples for
  both: ``Estimate.bootstrap_distribution`` is cached for an integer ``random_state``).

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

The truths are also checked: the mean of the estimates over the replications against the
truth (bias in units of the empirical SD, and as a z statistic with the Monte Carlo error
of the mean), and, in full mode, the AUC / local AUC / p-norm push on one large sample.

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
``random_state`` for the bootstrap of that replication (shared by the four criteria).
The first ``R`` replications of a run with more are the same data. The DCG Monte Carlo
uses ``np.random.default_rng([seed, n, n_pos, k, 1])``; the large-sample check
``np.random.default_rng([seed, 2])``.

Usage::

    python experiments/coverage.py --quick                 # R = 60, B = 200, about 10 s
    python experiments/coverage.py                         # R = 1000, B = 1000, about 6 min on 2 cores
    python experiments/coverage.py --reps 500 --resamples 500 --out out/cov500

Writes ``<out>/coverage.json`` (settings, truths, every cell), ``<out>/coverage.md`` (the
tables), ``<out>/coverage_raw.npz`` (every replication's estimate and interval) and
``<out>/dcg_truth.json`` (the cache), each atomically. BLAS threads are pinned to 1.
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
CRITERIA = ("auc", "local_auc", "pnorm_push", "dcg")
METHODS = ("analytic", "analytic_logit", "bootstrap_percentile", "bootstrap_bca")
MU = 1.0
TOP = 0.1
P_PUSH = 4
LEVEL = 0.95
SEED = 2025
FULL = {"reps": 1000, "resamples": 1000}
QUICK = {"reps": 60, "resamples": 200}


def criterion_args(criterion: str, n: int) -> dict:
    """The parameters of ``criterion`` at sample size ``n``."""
    if criterion == "auc":
        return {}
    if criterion == "local_auc":
        return {"top": TOP}
    if criterion == "pnorm_push":
        return {"p": P_PUSH}
    if criterion == "dcg":
        return {"k": n // 10}
    raise ValueError(criterion)


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
    """``int_Q^inf H(t) g(t) dt`` (CV07's LocAUC at the pooled upper ``top``-quantile)."""
    q = pooled_quantile(mu, pi, top)
    val, _ = integrate.quad(lambda t: stats.norm.cdf(t) * stats.norm.pdf(t - mu), q, np.inf,
                            epsabs=1e-13, epsrel=1e-12)
    return float(val)


def true_pnorm_push(mu: float = MU, p: float = P_PUSH) -> float:
    """``(int G(t)^p h(t) dt)^(1/p)``, ``G = N(mu, 1)`` cdf, ``h = N(0, 1)`` density."""
    val, _ = integrate.quad(lambda t: stats.norm.cdf(t - mu) ** p * stats.norm.pdf(t), -np.inf, np.inf,
                            epsabs=1e-14, epsrel=1e-12)
    return float(val ** (1.0 / p))


def _dcg_rows(s: np.ndarray, n_pos: int, k: int, disc: np.ndarray) -> np.ndarray:
    """DCG@k of each row of ``s`` (columns ``< n_pos`` are the positives; no ties)."""
    idx = np.argpartition(-s, k - 1, axis=1)[:, :k] if k < s.shape[1] else np.tile(np.arange(s.shape[1]), (s.shape[0], 1))
    top = np.take_along_axis(s, idx, axis=1)
    idx = np.take_along_axis(idx, np.argsort(-top, axis=1), axis=1)
    return (idx < n_pos).astype(np.float64) @ disc


def dcg_truth_mc(n: int, n_pos: int, k: int, mu: float, n_mc: int, seed: int) -> dict:
    """``E[DCG@k]`` by Monte Carlo over ``n_mc`` samples, checked against ``rw.dcg``."""
    rng = np.random.default_rng([seed, n, n_pos, k, 1])
    disc = 1.0 / np.log2(2.0 + np.arange(k))
    chunk = max(1, 2_000_000 // n)
    total = 0.0
    total2 = 0.0
    done = 0
    checked = False
    while done < n_mc:
        m = min(chunk, n_mc - done)
        s = np.empty((m, n))
        s[:, :n_pos] = rng.normal(mu, 1.0, size=(m, n_pos))
        s[:, n_pos:] = rng.normal(0.0, 1.0, size=(m, n - n_pos))
        v = _dcg_rows(s, n_pos, k, disc)
        if not checked:
            y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n - n_pos, dtype=int)]
            for i in range(min(20, m)):
                ref = rw.dcg(y, s[i], k=k)
                if not abs(ref - v[i]) <= 1e-10 * max(1.0, abs(ref)):
                    raise AssertionError(f"vectorised DCG {v[i]} != rw.dcg {ref} (n={n}, row {i})")
            checked = True
        total += float(v.sum())
        total2 += float(np.dot(v, v))
        done += m
    mean = total / n_mc
    var = (total2 - n_mc * mean * mean) / (n_mc - 1)
    return {"value": mean, "mcse": math.sqrt(max(var, 0.0) / n_mc), "sd": math.sqrt(max(var, 0.0)),
            "n_mc": int(n_mc), "seed": [seed, n, n_pos, k, 1]}


def dcg_mc_size(n: int, quick: bool) -> int:
    full = max(50_000, 20_000_000 // n)
    return full // 10 if quick else full


def _dcg_key(n: int, n_pos: int, k: int, mu: float, seed: int) -> str:
    return f"n={n},n_pos={n_pos},k={k},mu={mu!r},seed={seed}"


def dcg_truths(cells, mu: float, seed: int, quick: bool, cache_path: str | None, log=None) -> dict:
    """``{(n, n_pos): truth dict}`` for DCG@(n // 10), from the cache when it is good enough."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    changed = False
    out = {}
    for n, n_pos in cells:
        k = n // 10
        key = _dcg_key(n, n_pos, k, mu, seed)
        need = dcg_mc_size(n, quick)
        hit = cache.get(key)
        if hit is None or hit["n_mc"] < need:
            t0 = time.perf_counter()
            hit = dcg_truth_mc(n, n_pos, k, mu, need, seed)
            hit["seconds"] = round(time.perf_counter() - t0, 2)
            cache[key] = hit
            changed = True
            if log:
                log(f"DCG truth n={n} n_pos={n_pos} k={k}: {hit['value']:.5f} (MC se {hit['mcse']:.1e}, "
                    f"{need} samples, {hit['seconds']} s)")
        out[(n, n_pos)] = hit
    if changed and cache_path:
        write_atomic(cache_path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return out


def large_sample_check(mu: float, seed: int, n_big: int = 2_000_000) -> list[dict]:
    """The AUC, local AUC and p-norm push on one large stratified sample per balance
    against the population values (a check of the integrals above); ``z`` is the
    difference over the sample's own analytic standard error."""
    rng = np.random.default_rng([seed, 2])
    rows = []
    for balance in BALANCES:
        n_pos, n_neg = class_sizes(n_big, balance)
        s = np.r_[rng.normal(mu, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
        y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
        pi = n_pos / n_big
        for crit, truth in (("auc", true_auc(mu)), ("local_auc", true_local_auc(mu, pi)),
                            ("pnorm_push", true_pnorm_push(mu))):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = rw.stats.estimate(y, s, crit, **criterion_args(crit, n_big))
            rows.append({"n": n_big, "balance": balance, "criterion": crit, "sample": float(e.value),
                         "truth": truth, "diff": float(e.value) - truth,
                         "z": (float(e.value) - truth) / e.std_error})
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
    raw = {c: {"value": np.full(reps, np.nan), "std_error": np.full(reps, np.nan),
               "low": {m: np.full(reps, np.nan) for m in methods},
               "high": {m: np.full(reps, np.nan) for m in methods},
               "ci_se": {m: np.full(reps, np.nan) for m in methods},
               "degenerate": {m: np.zeros(reps, dtype=bool) for m in methods}} for c in criteria}
    args = {c: criterion_args(c, n) for c in criteria}
    for r in range(reps):
        s = np.r_[rng.normal(mu, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
        boot_seed = int(rng.integers(0, 2**31 - 1))
        for c in criteria:
            d = raw[c]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = rw.stats.estimate(y, s, c, **args[c])
            d["value"][r] = e.value
            d["std_error"][r] = e.std_error
            for m in methods:
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
    base = "delong" if criterion == "auc" else "hajek"
    return {"analytic": base, "analytic_logit": base + "+logit",
            "bootstrap_percentile": "boot percentile", "bootstrap_bca": "boot BCa"}[method]


def summarise(raw: dict, truth: float, truth_mcse: float, n: int, balance: float, criterion: str,
              methods) -> list[dict]:
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
    return rows


def run_study(ns=NS, balances=BALANCES, criteria=CRITERIA, methods=METHODS, reps: int = FULL["reps"],
              resamples: int = FULL["resamples"], seed: int = SEED, mu: float = MU, quick: bool = False,
              dcg_cache: str | None = None, log=None) -> dict:
    """The study's core: simulate every (n, balance) cell and summarise per criterion and
    method. Returns ``{"settings", "truths", "cells", "raw", "timing"}`` (``raw`` holds the
    per-replication arrays, keyed ``(n, balance)``)."""
    t_start = time.perf_counter()
    grid = [(n, b) for n in ns for b in balances]
    dcg = {}
    if "dcg" in criteria:
        dcg = dcg_truths([(n, class_sizes(n, b)[0]) for n, b in grid], mu, seed, quick, dcg_cache, log)
    truths, cells, raws, timing = [], [], {}, {}
    for n, b in grid:
        n_pos, n_neg = class_sizes(n, b)
        t0 = time.perf_counter()
        raw = simulate_cell(n, b, criteria, methods, reps, resamples, seed, mu)
        timing[f"n={n},balance={b}"] = round(time.perf_counter() - t0, 2)
        raws[(n, b)] = raw
        for c in criteria:
            if c == "auc":
                truth, mcse, how = true_auc(mu), 0.0, "Phi(mu/sqrt2)"
            elif c == "local_auc":
                truth, mcse, how = true_local_auc(mu, n_pos / n), 0.0, "quad, Q = pooled upper 0.1-quantile"
            elif c == "pnorm_push":
                truth, mcse, how = true_pnorm_push(mu), 0.0, "quad, (int G^p h)^(1/p)"
            else:
                t = dcg[(n, n_pos)]
                truth, mcse, how = t["value"], t["mcse"], f"E[DCG@{n // 10}] by Monte Carlo ({t['n_mc']} samples)"
            truths.append({"n": n, "balance": b, "n_pos": n_pos, "criterion": c, "truth": truth,
                           "truth_mcse": mcse, "how": how})
            cells.extend(summarise(raw, truth, mcse, n, b, c, methods))
        if log:
            log(f"cell n={n} balance={b}: {timing[f'n={n},balance={b}']} s")
    settings = {"ns": list(ns), "balances": list(balances), "criteria": list(criteria),
                "criterion_params": {c: {str(n): criterion_args(c, n) for n in ns} for c in criteria},
                "methods": list(methods), "reps": reps, "resamples": resamples, "level": LEVEL, "mu": mu,
                "seed": seed, "quick": quick,
                "distribution": "negatives N(0,1), positives N(mu,1); class sizes fixed (stratified)",
                "seed_scheme": "data of cell (n, balance): np.random.default_rng([seed, n, n_pos]); per replication "
                               "positives, negatives, then one int bootstrap random_state; DCG truth: "
                               "default_rng([seed, n, n_pos, k, 1])"}
    timing["total"] = round(time.perf_counter() - t_start, 2)
    return {"settings": settings, "truths": truths, "cells": cells, "raw": raws, "timing": timing}


# --- output --------------------------------------------------------------------------------

def _f(x, spec=".3f") -> str:
    return "nan" if x is None or not np.isfinite(x) else format(x, spec)


def markdown(result: dict) -> str:
    st = result["settings"]
    lines = [
        "# Coverage of nominal 95% intervals (rankwise.stats.estimate)",
        "",
        f"Binormal scores: negatives N(0, 1), positives N({st['mu']:g}, 1); class sizes fixed. "
        f"R = {st['reps']} replications per cell, B = {st['resamples']} bootstrap resamples "
        f"(percentile and BCa on the same resamples), seed {st['seed']}"
        + (" (quick mode)." if st["quick"] else "."),
        "Criteria: auc; local_auc(top=0.1); pnorm_push(p=4, normalised, a loss); dcg(k=n//10).",
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
    if result.get("large_sample_check"):
        lines += ["", "Large-sample check of the integrals (one stratified sample of 2e6):", "",
                  "| balance | criterion | sample value | truth | difference | z (difference / SE) |", "|---|---|---|---|---|---|"]
        for r in result["large_sample_check"]:
            lines.append(f"| {r['balance']:g} | {r['criterion']} | {r['sample']:.5f} | {r['truth']:.5f} | "
                         f"{r['diff']:+.1e} | {r['z']:+.2f} |")
    lines += ["", "## Coverage", "",
              "| n | balance | criterion | method | coverage | lo-miss | hi-miss | mean width | mean SE / SD | "
              "bias / SD | degenerate |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in result["cells"]:
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
    args = ap.parse_args(argv)
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
                           dcg_cache=os.path.join(args.out, "dcg_truth.json"), log=log)
        t0 = time.perf_counter()
        result["large_sample_check"] = large_sample_check(MU, args.seed)
        result["timing"]["large_sample_check"] = round(time.perf_counter() - t0, 2)
    result["source"] = source
    save(result, args.out)
    log(f"done in {result['timing']['total']:.1f} s; wrote {args.out}/coverage.json, coverage.md, coverage_raw.npz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
