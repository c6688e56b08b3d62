"""The partial AUC's analytic standard error wherever the band's edge falls on the ROC grid.

The empirical ROC curve of a sample with ``m`` observations of a class moves in steps of
``1 / m`` along that class's axis, so a band's edge lies on a step, just beside one, or
between two. The standard error of ``rw.stats.estimate(..., "partial_auc", ...)`` (Hajek's
projection, the negatives' terms their placements clipped to the curve read at the band's
edges over a window of one observation) must not depend on which: this script measures it
at seven edge positions around a grid point, for ``m`` from 10 to 10^4.

The model. Binormal scores, negatives ``N(0, 1)``, positives ``N(mu, 1)`` with ``mu = 1``,
``m`` of each class (fixed class sizes: the intervals assume stratified sampling), so one
sample serves a band whose edge crosses the negatives and one whose edge crosses the
positives. Three bands, the moving edge ``x`` at seven positions around a grid point
``x0`` (offsets ``-1/(2m)``, ``-1/(4m)``, ``-1e-9``, ``0``, ``+1e-9``, ``+1/(4m)``,
``+1/(2m)``):

* ``max_fpr``: false-positive rates in ``[0, x]``, ``x0 = 0.2`` (the edge crosses negatives);
* ``min_fpr``: false-positive rates in ``[x, 0.6]``, ``x0 = 0.2`` (the band's lower edge);
* ``min_tpr``: true-positive rates in ``[x, 1]``, ``x0 = 0.8`` (pROC's sensitivity focus;
  the edge crosses positives; ``1 - 0.8`` is ``0.19999999999999996`` in floating point).

Truths by quadrature: ``int_a^b Phi(mu + Phi^-1(u)) du`` over a false-positive band and
``int_a^b Phi(mu - Phi^-1(u)) du`` over a true-positive band (the functions of
``experiments/coverage.py``).

Per cell (m, band, edge): the mean standard error over the standard deviation of the
estimates (``SE / SD``), the coverage of the nominal 95% Wald interval (the estimate's
default, clipped to the criterion's range) and of the logit interval
(``transform="logit"``) with their Monte Carlo standard errors ``sqrt(c (1 - c) / R)``, the
misses by side, the bias of the estimates over their SD, and the share of degenerate
intervals (zero width or NaN).

Seeds: cell ``m`` draws from ``np.random.default_rng([seed, m])``, per replication the
``m`` positives then the ``m`` negatives; every band of a cell reads the same samples.

Usage::

    python experiments/pauc_edge.py --out experiments/results   # R = 2000 per m
    python experiments/pauc_edge.py --quick                      # m in {10, 100}, R = 100
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import math
import os
import platform
import sys
import time
import warnings

import numpy as np

import rankwise as rw
from rankwise.io import write_atomic

SEED = 2033
LEVEL = 0.95
MU = 1.0
FULL_MS = (10, 100, 1000, 10_000)
QUICK_MS = (10, 100)
FULL_REPS = 2000
QUICK_REPS = 100
#: (label, steps of 1/m, absolute shift) of the moving edge from its grid point.
OFFSETS = (("half step below", -0.5, 0.0), ("quarter step below", -0.25, 0.0), ("1e-9 below", 0.0, -1e-9),
           ("on the grid", 0.0, 0.0), ("1e-9 above", 0.0, 1e-9), ("quarter step above", 0.25, 0.0),
           ("half step above", 0.5, 0.0))
#: (band, grid point x0, the fixed parameters).
BANDS = (("max_fpr", 0.2, {}), ("min_fpr", 0.2, {"max_fpr": 0.6}), ("min_tpr", 0.8, {}))


@functools.lru_cache(maxsize=None)
def _coverage_module():
    """experiments/coverage.py (its truths), loaded under another name: ``coverage`` is
    also a package on PyPI."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coverage.py")
    spec = importlib.util.spec_from_file_location("experiment_coverage", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def edge(x0: float, m: int, steps: float, shift: float) -> float:
    """The moving edge: ``x0`` moved by ``steps`` grid steps of ``1 / m`` and by ``shift``."""
    return x0 + steps / m + shift


def band_params(band: str, x: float, fixed: dict) -> dict:
    return {band: x, **fixed}


def truth(params: dict, mu: float = MU) -> float:
    """The population partial AUC of the band ``params``."""
    cov = _coverage_module()
    if "min_tpr" in params or "max_tpr" in params:
        return cov.true_partial_auc_tpr(mu, params.get("min_tpr", 0.0), params.get("max_tpr", 1.0))
    return cov.true_partial_auc_fpr(mu, params.get("min_fpr", 0.0), params.get("max_fpr", 1.0))


def cells_of(m: int) -> list[dict]:
    out = []
    for band, x0, fixed in BANDS:
        for label, steps, shift in OFFSETS:
            params = band_params(band, edge(x0, m, steps, shift), fixed)
            out.append({"band": band, "x0": x0, "offset": label, "params": params,
                        "spec": "partial_auc:" + ",".join(f"{k}={v!r}" for k, v in params.items())})
    return out


def simulate(m: int, reps: int, seed: int, cells: list[dict]) -> dict:
    """Every replication's value, standard error and both intervals, per cell."""
    rng = np.random.default_rng([seed, m])
    y = np.r_[np.ones(m, dtype=int), np.zeros(m, dtype=int)]
    specs = [c["spec"] for c in cells]
    k = len(specs)
    out = {key: np.empty((reps, k)) for key in ("value", "se", "wald_lo", "wald_hi", "logit_lo", "logit_hi")}
    for r in range(reps):
        s = np.r_[rng.normal(MU, 1.0, m), rng.normal(0.0, 1.0, m)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # degenerate intervals are counted below
            for j, e in enumerate(rw.stats.estimate_many(y, s, specs)):
                wald = e.confidence_interval(LEVEL)
                logit = e.confidence_interval(LEVEL, transform="logit")
                out["value"][r, j], out["se"][r, j] = e.value, e.std_error
                out["wald_lo"][r, j], out["wald_hi"][r, j] = wald.low, wald.high
                out["logit_lo"][r, j], out["logit_hi"][r, j] = logit.low, logit.high
    return out


def summarise(raw: dict, cells: list[dict], m: int, reps: int) -> list[dict]:
    rows = []
    for j, c in enumerate(cells):
        t = truth(c["params"])
        v, se = raw["value"][:, j], raw["se"][:, j]
        sd = float(np.std(v, ddof=1))
        row = {"m": m, "band": c["band"], "offset": c["offset"], "params": c["params"], "truth": t,
               "reps": reps, "mean_value": float(np.mean(v)), "sd": sd, "mean_se": float(np.nanmean(se)),
               "se_over_sd": float(np.nanmean(se)) / sd if sd > 0 else float("nan"),
               "bias_over_sd": (float(np.mean(v)) - t) / sd if sd > 0 else float("nan")}
        for name in ("wald", "logit"):
            lo, hi = raw[f"{name}_lo"][:, j], raw[f"{name}_hi"][:, j]
            ok = np.isfinite(lo) & np.isfinite(hi)
            cov = float(np.mean(ok & (lo <= t) & (t <= hi)))
            row[name] = {"coverage": cov, "mcse": math.sqrt(cov * (1.0 - cov) / reps),
                         "miss_low": float(np.mean(ok & (lo > t))), "miss_high": float(np.mean(ok & (hi < t))),
                         "degenerate": float(np.mean(~ok | (hi <= lo))),
                         "mean_width": float(np.mean(np.where(ok, hi - lo, np.nan)))}
        rows.append(row)
    return rows


def run(ms, reps: int, seed: int, log=None) -> tuple[list[dict], dict]:
    rows, timing = [], {}
    for m in ms:
        t0 = time.perf_counter()
        cells = cells_of(m)
        rows += summarise(simulate(m, reps, seed, cells), cells, m, reps)
        timing[str(m)] = round(time.perf_counter() - t0, 1)
        if log:
            log(f"m={m}: {timing[str(m)]} s")
    return rows, timing


def table(rows: list[dict]) -> str:
    lines = ["| m | band | edge | SE / SD | Wald coverage | lo / hi miss | logit coverage | bias / SD | degenerate |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p = ", ".join(f"{k}={v:.10g}" for k, v in r["params"].items())
        w, lg = r["wald"], r["logit"]
        lines.append(f"| {r['m']} | {p} | {r['offset']} | {r['se_over_sd']:.3f} | {w['coverage']:.3f} ± {w['mcse']:.3f} | "
                     f"{w['miss_low']:.3f} / {w['miss_high']:.3f} | {lg['coverage']:.3f} ± {lg['mcse']:.3f} | "
                     f"{r['bias_over_sd']:+.2f} | {w['degenerate']:.3f} |")
    return "\n".join(lines) + "\n"


def overview(rows: list[dict]) -> str:
    """The range of SE / SD and of the Wald coverage over the edge positions, per m and band."""
    lines = ["| m | band | SE / SD (min - max over the 7 edges) | Wald coverage (min - max) | logit coverage (min - max) |",
             "|---|---|---|---|---|"]
    keys = []
    for r in rows:
        if (r["m"], r["band"]) not in keys:
            keys.append((r["m"], r["band"]))
    for m, band in keys:
        sel = [r for r in rows if r["m"] == m and r["band"] == band]
        ratio = [r["se_over_sd"] for r in sel]
        wald = [r["wald"]["coverage"] for r in sel]
        logit = [r["logit"]["coverage"] for r in sel]
        lines.append(f"| {m} | {band} | {min(ratio):.3f} - {max(ratio):.3f} | {min(wald):.3f} - {max(wald):.3f} | "
                     f"{min(logit):.3f} - {max(logit):.3f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"m in {QUICK_MS}, R = {QUICK_REPS}")
    p.add_argument("--reps", type=int, default=None, help="replications per m")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", default=None, help="write pauc_edge.json and pauc_edge.md to this folder")
    a = p.parse_args(argv)
    ms = QUICK_MS if a.quick else FULL_MS
    reps = a.reps if a.reps is not None else (QUICK_REPS if a.quick else FULL_REPS)
    if reps < 2:
        p.error("--reps must be at least 2")

    def log(msg):
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    from threadpoolctl import threadpool_limits

    t0 = time.perf_counter()
    with threadpool_limits(limits=1):
        rows, timing = run(ms, reps, a.seed, log)
    wall = time.perf_counter() - t0
    head = (f"Binormal scores, negatives N(0, 1), positives N({MU:g}, 1), m of each class (fixed); R = {reps} "
            f"replications per m, seed {a.seed}; nominal {LEVEL:.0%} intervals; the same samples for every "
            "band and edge of an m. Edges: the grid point x0 (0.2 of FPR, 0.8 of TPR) moved by half or a "
            "quarter of a step 1/m, or by 1e-9.\n\n")
    md = head + "## Overview\n\n" + overview(rows) + "\n## Every cell\n\n" + table(rows) + f"\nwall time {wall:.1f} s\n"
    print(md)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        doc = {"level": LEVEL, "mu": MU, "ms": list(ms), "reps": reps, "seed": a.seed, "quick": a.quick,
               "offsets": [list(o) for o in OFFSETS], "bands": [[b, x0, f] for b, x0, f in BANDS],
               "wall_s": round(wall, 1), "timing_s": timing, "rankwise": rw.__version__,
               "python": platform.python_version(), "numpy": np.__version__, "cells": rows}
        write_atomic(os.path.join(a.out, "pauc_edge.json"), json.dumps(doc, indent=1) + "\n", force=True)
        write_atomic(os.path.join(a.out, "pauc_edge.md"),
                     "# The partial AUC's standard error at the band's edges\n\n" + md, force=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
