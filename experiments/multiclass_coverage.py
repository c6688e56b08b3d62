"""Coverage of the 95% intervals of the multiclass AUCs and of the VUS / HUM of
``rankwise.stats.estimate(..., criterion="multiclass_auc" | "vus")`` (issue 31): the
K-sample DeLong standard error, conditional on the class sizes, with the prevalence term of
``average="weighted"`` and the cluster-robust form of ``clusters=``.

Two models, each with K = 3 and K = 5 classes.

*Probabilities* (``softmax``: Hand & Till's M, the one-vs-rest macro and weighted
averages). A row of class ``k`` has features ``x ~ N(mu_k e_k, I_K)`` (``e_k`` the k-th unit
vector) and its scores are ``S = softmax(x)``, a probability vector; ``mu = (0.5, 1, 1.5)``
for K = 3 and ``(0.5, 0.75, 1, 1.25, 1.5)`` for K = 5, so that the classes separate
unequally and the directed AUCs differ (so do the macro and the weighted averages).

The estimand. Every criterion is linear in the directed AUCs

    A_a(a|b) = P(s_a(X) > s_a(X')),    X of class a, X' of class b, independent,

(``s_a`` the a-th softmax component, ties of probability 0):

    M        = 1 / (K (K - 1)) sum_{a != b} A_a(a|b),
    OvR_k    = sum_{c != k} pi_c / (1 - pi_k) A_k(k|c),
    macro    = mean_k OvR_k,      weighted = sum_k pi_k OvR_k,

with ``pi`` the class proportions: the design's ``n_c / n`` where the class sizes are fixed
(the empirical one-vs-rest AUC is unbiased for it given the sizes), the population
prevalences where the classes are drawn. The directed AUCs have no closed form: they are
computed once per K by Monte Carlo, 2 x 10^6 draws of each class, every cross-class pair of
draws counted (``pairwise_truth``), with the Monte Carlo covariance of the K (K - 1)
estimates from each draw's placements (their Hoeffding projections); each criterion's truth
is reported with its Monte Carlo standard error (0.9e-4 to 1.3e-4 in the full run, at most
0.013 of the SD of the estimates, the table's ``MC se / SD``: a truth off by ``delta``
lowers the coverage by about ``0.115 (delta / SD)^2``, under 1e-4 here). The directed AUCs
range over 0.73-0.88 (K = 3) and 0.67-0.88 (K = 5); M = 0.8104 (K = 3), 0.7894 (K = 5).
The truths are written to the results JSON (``truths``) and read back from it when K, mu,
the number of draws and the seed match (``--truth-cache``).

*Ordered classes* (``ordinal``: the VUS for K = 3, the HUM for K = 5). One score,
``s | class k ~ N(mu k, 1)``, ``mu = 1``, ``k = 1..K``. The estimand is the probability that K
independent scores, one of each class, come in the classes' order,

    HUM = P(X_1 < X_2 < ... < X_K),    X_k ~ N(mu k, 1) independent,

computed by the 1-D recursion ``F_1(x) = Phi(x - mu)``, ``F_j(x) = int_{-inf}^x
phi(t - mu j) F_{j-1}(t) dt``, ``HUM = F_K(+inf)``, on a uniform grid (``true_hum``:
trapezoid rule with steps 2e-3 and 1e-3, Richardson-extrapolated; the two trapezoid
values differ by 2e-8 to 3e-8, and the extrapolation agrees to 1e-14 with the nested
adaptive quadrature ``hum_quad``: K = 3 ``int phi(x - 2 mu) Phi(x - mu) (1 - Phi(x - 3
mu)) dx``, K = 5 split at the middle class), and within Monte Carlo error with 10^6
simulated chains (``hum_monte_carlo``; both checks in
tests/experiments/test_multiclass_coverage_quick.py).
VUS(K = 3) = 0.536152, HUM(K = 5) = 0.252368.

Designs (``(model, K, design, size)``):

* ``equal`` / ``unequal``: fixed class sizes, ``size`` rows per class, or ``size * (1, 2,
  ..., K)`` (1:2:3 and 1:2:3:4:5), the design the K-sample DeLong variance conditions on;
* ``iid`` (softmax): ``size`` rows, each class drawn with prevalences ``pi`` proportional to
  ``(1, 2, ..., K)``, so the class sizes vary between replications:
  ``average="weighted"`` against its population value, its standard error with the
  prevalence term (``std_error``) and, as a diagnosis, without it (``sqrt(std_error^2 -
  std_error_prevalence^2)``, the interval built here by the same Wald / logit formulas);
  M, free of ``pi``, too;
* ``clustered`` (ordinal, K = 3): ``size`` clusters of 3 rows per class, the rows of a
  cluster of one class and sharing a random effect, ``s = mu k + sqrt(rho) b_g + sqrt(1 -
  rho) e``, ``rho = 0.5`` (marginally ``N(mu k, 1)``: the same truth, and no chain lies
  within a cluster); ``estimate(..., clusters=ids)`` (Obuchowski's form) against the
  row-level interval that treats the 3 rows as independent.

Per cell, criterion and replication: the value, its standard error and the nominal 95% Wald
interval clipped to [0, 1] (``confidence_interval(0.95)``) and on the logit scale
(``transform="logit"``). Reported: the coverage of the truth with its Monte Carlo standard
error ``sqrt(c (1 - c) / R)``, the shares missing low (the interval above the truth) and
high, the SE ratio (mean standard error over the SD of the estimates), the bias in units of
that SD, the truth's Monte Carlo SE over that SD; for the iid design the smallest class size
met over the replications. An undefined interval counts as a miss (``defined``,
``undefined_se`` and ``zero_se`` count them; none occurred in the full run).

Seeds: the truths draw from ``np.random.default_rng([seed, 99, K])`` (class by class, in
chunks of 5 x 10^5 draws); cell ``(model, K, design, size)`` from ``default_rng([seed, m,
K, d, size])``, ``m`` and ``d`` the model's and the design's index in ``MODELS`` and
``DESIGNS``, replication after replication (the class labels where drawn, then the
features or scores; the clustered design draws the cluster effects, then the row noise).

Usage::

    python experiments/multiclass_coverage.py --quick      # R = 200, five cells, seconds
    python experiments/multiclass_coverage.py --out experiments/results   # R = 2000, 23 cells
    python experiments/multiclass_coverage.py --reps 500 --seed 7

Prints the table; with ``--out DIR`` writes ``DIR/multiclass_coverage.json`` (settings,
truths, every number) and ``DIR/multiclass_coverage.md``. The quick mode computes the
softmax truths from 2 x 10^5 draws per class (Monte Carlo SE about 5e-4) unless a cached
truth with at least that many draws matches. BLAS threads are pinned to 1.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import platform
import sys
import time
import warnings

import numpy as np
from scipy import integrate, special, stats

import rankwise as rw
from rankwise.io import write_atomic

SEED = 2031
LEVEL = 0.95
Z = float(stats.norm.ppf(0.5 + LEVEL / 2))
MODELS = ("softmax", "ordinal")
DESIGNS = ("equal", "unequal", "iid", "clustered")
#: Softmax model: class k's features N(mu_k e_k, I_K).
SOFTMAX_MU = {3: (0.5, 1.0, 1.5), 5: (0.5, 0.75, 1.0, 1.25, 1.5)}
#: Ordinal model: class k's score N(ORDINAL_MU k, 1).
ORDINAL_MU = 1.0
RHO = 0.5
CLUSTER_SIZE = 3
TRUTH_DRAWS = 2_000_000
QUICK_TRUTH_DRAWS = 200_000
FULL_REPS = 2000
QUICK_REPS = 200
DEFAULT_CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "multiclass_coverage.json")

FULL_CELLS = (
    ("softmax", 3, "equal", 30), ("softmax", 3, "equal", 100), ("softmax", 3, "equal", 300),
    ("softmax", 3, "unequal", 30), ("softmax", 3, "unequal", 100),
    ("softmax", 5, "equal", 30), ("softmax", 5, "equal", 100), ("softmax", 5, "equal", 300),
    ("softmax", 5, "unequal", 30),
    ("softmax", 3, "iid", 180), ("softmax", 3, "iid", 600), ("softmax", 5, "iid", 450), ("softmax", 5, "iid", 1500),
    ("ordinal", 3, "equal", 30), ("ordinal", 3, "equal", 100), ("ordinal", 3, "equal", 300),
    ("ordinal", 3, "unequal", 30),
    ("ordinal", 5, "equal", 30), ("ordinal", 5, "equal", 100), ("ordinal", 5, "equal", 300),
    ("ordinal", 5, "unequal", 30),
    ("ordinal", 3, "clustered", 20), ("ordinal", 3, "clustered", 60),
)
QUICK_CELLS = (("softmax", 3, "equal", 100), ("softmax", 3, "iid", 600), ("ordinal", 3, "equal", 100),
               ("ordinal", 5, "equal", 100), ("ordinal", 3, "clustered", 40))


# --- the truths -----------------------------------------------------------------------------

def softmax(x: np.ndarray) -> np.ndarray:
    """Row-wise softmax (in place on a float copy)."""
    x = np.array(x, dtype=np.float64)
    x -= x.max(axis=1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=1, keepdims=True)
    return x


def pairwise_truth(K: int, draws: int = TRUTH_DRAWS, seed: int = SEED, mu=None) -> dict:
    """The directed AUCs ``A[a, b] = P(s_a(X_a) > s_a(X_b))`` of the softmax model by Monte
    Carlo: ``draws`` rows of each class, every cross-class pair counted. Returns ``A`` (K, K)
    (nan diagonal), the pairs ``(a, b)`` in the order of ``cov``, the Monte Carlo covariance
    ``cov`` of the estimates of ``A`` over those pairs (``sum_c`` of the covariance of class
    c's placement terms over ``draws``), and the settings."""
    mu = tuple(float(v) for v in (SOFTMAX_MU[K] if mu is None else mu))
    rng = np.random.default_rng([seed, 99, K])
    chunk = 500_000
    S = []
    for c in range(K):
        out = np.empty((draws, K))
        for s in range(0, draws, chunk):
            z = rng.standard_normal((min(chunk, draws - s), K))
            z[:, c] += mu[c]
            out[s:s + z.shape[0]] = softmax(z)
        S.append(out)
    # srt[c][a]: class c's scores on column a, sorted.
    srt = [[np.sort(S[c][:, a]) for a in range(K)] for c in range(K)]
    pairs = [(a, b) for a in range(K) for b in range(K) if a != b]
    index = {p: i for i, p in enumerate(pairs)}
    A = np.full((K, K), np.nan)
    cov = np.zeros((len(pairs), len(pairs)))
    for c in range(K):
        cols, terms = [], []
        for b in range(K):       # pairs (c, b): class c's rows, the share of class b below them on column c
            if b != c:
                P = np.searchsorted(srt[b][c], S[c][:, c]) / draws
                A[c, b] = P.mean()
                cols.append(index[(c, b)])
                terms.append(P)
        for a in range(K):       # pairs (a, c): class c's rows, the share of class a above them on column a
            if a != c:
                cols.append(index[(a, c)])
                terms.append(1.0 - np.searchsorted(srt[a][a], S[c][:, a]) / draws)
        T = np.stack(terms, axis=1)
        T -= T.mean(axis=0)
        cov[np.ix_(cols, cols)] += (T.T @ T) / (draws - 1) / draws
    return {"K": K, "mu": list(mu), "draws": draws, "seed": seed, "A": A.tolist(), "pairs": pairs,
            "cov": cov.tolist()}


def criterion_weights(K: int, criterion: str, pi=None) -> np.ndarray:
    """``g`` (K, K) with the criterion ``= sum_{a != b} g[a, b] A[a, b]``: ``"M"``,
    ``"ovr_macro"`` or ``"ovr_weighted"`` at class proportions ``pi``."""
    g = np.zeros((K, K))
    if criterion == "M":
        g[:] = 1.0 / (K * (K - 1))
    else:
        pi = np.asarray(pi, dtype=np.float64)
        pi = pi / pi.sum()
        for k in range(K):
            w = 1.0 / K if criterion == "ovr_macro" else pi[k]
            for c in range(K):
                if c != k:
                    g[k, c] = w * pi[c] / (1.0 - pi[k])
    np.fill_diagonal(g, 0.0)
    return g


def linear_truth(truth: dict, g: np.ndarray) -> tuple[float, float]:
    """``sum g A`` and its Monte Carlo standard error ``sqrt(g' cov g)``."""
    A = np.asarray(truth["A"])
    vec = np.array([g[a, b] for a, b in truth["pairs"]])
    val = float(np.nansum(g * A))
    return val, float(math.sqrt(max(vec @ np.asarray(truth["cov"]) @ vec, 0.0)))


def _hum_trapezoid(means: np.ndarray, h: float) -> float:
    lo, hi = means.min() - 10.0, means.max() + 10.0
    x = np.linspace(lo, hi, int(round((hi - lo) / h)) + 1)
    F = stats.norm.cdf(x - means[0])
    for m in means[1:]:
        f = stats.norm.pdf(x - m) * F
        F = integrate.cumulative_trapezoid(f, x, initial=0.0)
    return float(F[-1])


def true_hum(K: int, mu: float = ORDINAL_MU) -> tuple[float, float]:
    """``P(X_1 < ... < X_K)``, ``X_k ~ N(mu k, 1)``, by the 1-D recursion on a grid: the
    trapezoid values at steps 2e-3 and 1e-3 Richardson-extrapolated; returns the value and
    the difference of the two trapezoid values (a bound on the extrapolation's error)."""
    means = mu * np.arange(1, K + 1, dtype=np.float64)
    coarse, fine = _hum_trapezoid(means, 2e-3), _hum_trapezoid(means, 1e-3)
    return (4.0 * fine - coarse) / 3.0, abs(fine - coarse)


def hum_quad(K: int, mu: float = ORDINAL_MU) -> float:
    """The same probability by nested adaptive quadrature, split at the middle class ``m``:
    ``int phi(x - mu m) L(x) U(x) dx``, ``L(x) = P(X_1 < ... < X_{m-1} < x)``,
    ``U(x) = P(x < X_{m+1} < ... < X_K)``, each by its own recursion of quadratures."""
    means = [mu * k for k in range(1, K + 1)]
    m = K // 2  # 0-based middle class
    pdf, cdf = (lambda t: math.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)), special.ndtr

    def below(j: int, x: float) -> float:  # P(X_0 < ... < X_j < x)
        if j == 0:
            return float(cdf(x - means[0]))
        return integrate.quad(lambda t: pdf(t - means[j]) * below(j - 1, t), -np.inf, x,
                              epsabs=1e-13, epsrel=1e-11)[0]

    def above(j: int, x: float) -> float:  # P(x < X_j < ... < X_{K-1})
        if j == K - 1:
            return float(cdf(means[-1] - x))
        return integrate.quad(lambda t: pdf(t - means[j]) * above(j + 1, t), x, np.inf,
                              epsabs=1e-13, epsrel=1e-11)[0]

    def L(x):
        return 1.0 if m == 0 else below(m - 1, x)

    def U(x):
        return 1.0 if m == K - 1 else above(m + 1, x)

    return integrate.quad(lambda x: pdf(x - means[m]) * L(x) * U(x), -np.inf, np.inf,
                          epsabs=1e-12, epsrel=1e-10)[0]


def hum_monte_carlo(K: int, n: int, seed: int, mu: float = ORDINAL_MU) -> tuple[float, float]:
    """The share of ``n`` simulated chains (one draw of each class) in order, and its
    standard error."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, K)) + mu * np.arange(1, K + 1)
    p = float(np.mean(np.all(np.diff(X, axis=1) > 0, axis=1)))
    return p, math.sqrt(p * (1.0 - p) / n)


# --- the samples ------------------------------------------------------------------------------

def class_sizes(K: int, design: str, size: int) -> np.ndarray:
    if design == "equal":
        return np.full(K, size)
    if design in ("unequal", "clustered"):
        return size * (np.arange(1, K + 1) if design == "unequal" else np.full(K, CLUSTER_SIZE))
    raise ValueError(f"design {design!r} has no fixed class sizes")


def prevalences(K: int) -> np.ndarray:
    """The iid design's class prevalences, proportional to 1, 2, ..., K."""
    p = np.arange(1, K + 1, dtype=np.float64)
    return p / p.sum()


def _rng(model: str, K: int, design: str, size: int, seed: int):
    return np.random.default_rng([seed, MODELS.index(model), K, DESIGNS.index(design), size])


def draw_softmax(rng, K: int, design: str, size: int):
    """One sample of the softmax model: labels (n,) and the score matrix (n, K)."""
    mu = np.asarray(SOFTMAX_MU[K])
    if design == "iid":
        y = rng.choice(K, size=size, p=prevalences(K))
    else:
        y = np.repeat(np.arange(K), class_sizes(K, design, size))
    x = rng.standard_normal((y.shape[0], K))
    x[np.arange(y.shape[0]), y] += mu[y]
    return y, softmax(x)


def draw_ordinal(rng, K: int, design: str, size: int):
    """One sample of the ordinal model: labels (n,), scores (n,) and, for the clustered
    design, the cluster of each row (else None)."""
    if design == "clustered":
        G = size * K
        ids = np.repeat(np.arange(G), CLUSTER_SIZE)
        y = np.repeat(np.arange(K), size * CLUSTER_SIZE)
        b = rng.standard_normal(G)
        e = rng.standard_normal(y.shape[0])
        s = ORDINAL_MU * (y + 1) + math.sqrt(RHO) * b[ids] + math.sqrt(1.0 - RHO) * e
        return y, s, ids
    y = np.repeat(np.arange(K), class_sizes(K, design, size))
    s = ORDINAL_MU * (y + 1) + rng.standard_normal(y.shape[0])
    return y, s, None


# --- one cell -------------------------------------------------------------------------------

def _wald(value: float, se: float, transform: str | None) -> tuple[float, float]:
    """The Wald interval ``value +- z se`` clipped to [0, 1], or on the logit scale (the
    formulas of ``confidence_interval``), for the diagnosis without the prevalence term."""
    if not (np.isfinite(value) and np.isfinite(se)):
        return float("nan"), float("nan")
    if transform is None:
        return max(value - Z * se, 0.0), min(value + Z * se, 1.0)
    if not 0.0 < value < 1.0:
        return value, value
    g, sg = math.log(value / (1.0 - value)), se / (value * (1.0 - value))
    return 1.0 / (1.0 + math.exp(-(g - Z * sg))), 1.0 / (1.0 + math.exp(-(g + Z * sg)))


class _Record:
    """Per replication: the estimate, its standard error and the two intervals."""

    def __init__(self, reps: int):
        self.value, self.se = np.full(reps, np.nan), np.full(reps, np.nan)
        self.ci = {k: np.full((reps, 2), np.nan) for k in ("delong", "logit")}

    def put(self, r: int, est=None, *, value=None, se=None) -> None:
        if est is not None:
            self.value[r], self.se[r] = est.value, est.std_error
            if np.isfinite(est.value):
                self.ci["delong"][r] = tuple(est.confidence_interval(LEVEL))
                self.ci["logit"][r] = tuple(est.confidence_interval(LEVEL, transform="logit"))
        else:
            self.value[r], self.se[r] = value, se
            self.ci["delong"][r] = _wald(value, se, None)
            self.ci["logit"][r] = _wald(value, se, "logit")

    def summary(self, name: str, truth: float, truth_mc_se: float) -> dict:
        reps = self.value.shape[0]
        ok = np.isfinite(self.value)
        sd = float(np.std(self.value[ok], ddof=1))
        mean = float(np.mean(self.value[ok]))
        finite_se = np.isfinite(self.se)
        out = {"criterion": name, "truth": truth, "truth_mc_se": truth_mc_se, "truth_mc_se_sd": truth_mc_se / sd,
               "defined": int(ok.sum()), "undefined_se": int(np.sum(ok & ~finite_se)),
               "zero_se": int(np.sum(self.se == 0)), "mean_estimate": mean, "sd_estimate": sd,
               "bias": mean - truth, "bias_sd": (mean - truth) / sd, "mean_se": float(np.mean(self.se[finite_se])),
               "se_ratio": float(np.mean(self.se[finite_se])) / sd}
        for key, ci in self.ci.items():
            lo, hi = ci[:, 0], ci[:, 1]
            cover = (lo <= truth) & (truth <= hi)     # nan: a miss
            c = float(np.mean(cover))
            out[key] = {"coverage": c, "mc_se": math.sqrt(c * (1.0 - c) / reps),
                        "miss_low": float(np.mean(lo > truth)), "miss_high": float(np.mean(hi < truth)),
                        "mean_width": float(np.nanmean(hi - lo))}
        return out


def _criteria(cell, truths):
    """The cell's criteria: (name, estimate keyword arguments or None for a derived one,
    truth, its Monte Carlo se)."""
    model, K, design, size = cell
    if model == "ordinal":
        value, _ = true_hum(K)
        name = "VUS" if K == 3 else "HUM"
        if design == "clustered":
            return [(f"{name}, clusters", {"clustered": True}, value, 0.0), (f"{name}, rows", {}, value, 0.0)]
        return [(name, {}, value, 0.0)]
    tr = truths[K]
    m_val, m_se = linear_truth(tr, criterion_weights(K, "M"))
    M = ("M (OvO macro)", {"multi_class": "ovo", "average": "macro"}, m_val, m_se)
    if design == "iid":
        w_val, w_se = linear_truth(tr, criterion_weights(K, "ovr_weighted", prevalences(K)))
        return [("OvR weighted", {"multi_class": "ovr", "average": "weighted"}, w_val, w_se),
                ("OvR weighted, no prevalence term", None, w_val, w_se), M]
    pi = class_sizes(K, design, size)
    o_val, o_se = linear_truth(tr, criterion_weights(K, "ovr_macro", pi))
    return [M, ("OvR macro", {"multi_class": "ovr", "average": "macro"}, o_val, o_se)]


def run_cell(cell, reps: int, seed: int = SEED, truths: dict | None = None) -> dict:
    """One cell's replications: per criterion, coverage of both intervals, misses by side,
    SE ratio, bias."""
    model, K, design, size = cell
    if model not in MODELS or design not in DESIGNS:
        raise ValueError(f"unknown cell {cell!r}")
    crits = _criteria(cell, truths)
    recs = [_Record(reps) for _ in crits]
    rng = _rng(model, K, design, size, seed)
    sizes = np.zeros((reps, K), dtype=np.int64)
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined / degenerate cases are counted from the numbers
        for r in range(reps):
            if model == "softmax":
                y, S = draw_softmax(rng, K, design, size)
                sizes[r] = np.bincount(y, minlength=K)
                weighted = None
                for (name, kw, _, _), rec in zip(crits, recs):
                    if kw is None:   # the weighted average's se without the prevalence term
                        se = weighted.std_error ** 2 - weighted.std_error_prevalence ** 2
                        rec.put(r, value=weighted.value, se=math.sqrt(max(se, 0.0)))
                        continue
                    est = rw.stats.estimate(y, S, criterion="multiclass_auc", labels=list(range(K)), **kw)
                    if kw["average"] == "weighted":
                        weighted = est
                    rec.put(r, est)
            else:
                y, s, ids = draw_ordinal(rng, K, design, size)
                sizes[r] = np.bincount(y, minlength=K)
                for (name, kw, _, _), rec in zip(crits, recs):
                    clusters = ids if kw.get("clustered") else None
                    rec.put(r, rw.stats.estimate(y, s, criterion="vus", labels=list(range(K)), clusters=clusters))
    cpu = time.process_time() - t0
    out = {"model": model, "K": K, "design": design, "size": size, "reps": reps,
           "n": int(sizes[0].sum()), "mean_class_sizes": sizes.mean(axis=0).tolist(),
           "min_class_size": int(sizes.min()), "cpu_s": cpu,
           "criteria": [rec.summary(name, truth, tse) for (name, _, truth, tse), rec in zip(crits, recs)]}
    if model == "softmax":
        out["mu"] = list(SOFTMAX_MU[K])
    if design == "iid":
        out["prevalences"] = prevalences(K).tolist()
    if design == "clustered":
        out.update(cluster_size=CLUSTER_SIZE, rho=RHO, clusters_per_class=size)
    return out


# --- truths cache, run, tables -------------------------------------------------------------

def load_cache(path: str | None) -> dict:
    """The cached softmax truths of a results JSON (``{K: truth}``), or {}."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as fh:
        doc = json.load(fh)
    out = {}
    for t in doc.get("truths", {}).values():
        t["pairs"] = [tuple(p) for p in t["pairs"]]
        out[int(t["K"])] = t
    return out


def get_truths(Ks, draws: int, seed: int, cache: dict | None = None) -> dict:
    """The softmax truths of each K: a cached one with the same mu and seed and at least
    ``draws`` draws, else computed."""
    cache = cache or {}
    out = {}
    for K in sorted(set(Ks)):
        t = cache.get(K)
        if (t is not None and t["seed"] == seed and t["draws"] >= draws
                and np.allclose(t["mu"], SOFTMAX_MU[K], rtol=0, atol=0)):
            out[K] = t
        else:
            out[K] = pairwise_truth(K, draws, seed)
    return out


def run(cells=FULL_CELLS, reps: int = FULL_REPS, seed: int = SEED, truth_draws: int = TRUTH_DRAWS,
        cache: dict | None = None) -> tuple[list, dict]:
    truths = get_truths([c[1] for c in cells if c[0] == "softmax"], truth_draws, seed, cache)
    return [run_cell(c, reps, seed, truths) for c in cells], truths


def _sizes_label(c: dict) -> str:
    if c["design"] == "iid":
        return f"n = {c['n']}, iid [{c['min_class_size']}]"
    if c["design"] == "clustered":
        return f"{c['size']} x {CLUSTER_SIZE} per class"
    s = class_sizes(c["K"], c["design"], c["size"])
    return f"{s[0]} each" if c["design"] == "equal" else ":".join(str(v) for v in s)


def table(results: list) -> str:
    head = ("| model | K | class sizes | criterion | truth | MC se / SD | bias / SD | SE ratio "
            "| coverage (MC se) | miss lo/hi | logit coverage | miss lo/hi |")
    lines = [head, "|" + "---|" * 12]
    for c in results:
        for r in c["criteria"]:
            d, lg = r["delong"], r["logit"]
            lines.append(f"| {c['model']} | {c['K']} | {_sizes_label(c)} | {r['criterion']} | {r['truth']:.4f} "
                         f"| {r['truth_mc_se_sd']:.3f} | {r['bias_sd']:+.3f} | {r['se_ratio']:.3f} "
                         f"| {d['coverage']:.3f} ({d['mc_se']:.3f}) | {d['miss_low']:.3f}/{d['miss_high']:.3f} "
                         f"| {lg['coverage']:.3f} | {lg['miss_low']:.3f}/{lg['miss_high']:.3f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"R = {QUICK_REPS}, cells {QUICK_CELLS}")
    p.add_argument("--reps", type=int, default=None, help="replications per cell")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--truth-draws", type=int, default=None,
                   help=f"Monte Carlo draws per class of the softmax truths ({TRUTH_DRAWS}; quick "
                        f"{QUICK_TRUTH_DRAWS})")
    p.add_argument("--truth-cache", default=DEFAULT_CACHE,
                   help="a results JSON whose softmax truths are reused where they match ('' for none)")
    p.add_argument("--out", default=None, help="write multiclass_coverage.json and .md to this folder")
    a = p.parse_args(argv)
    cells = QUICK_CELLS if a.quick else FULL_CELLS
    reps = a.reps if a.reps is not None else (QUICK_REPS if a.quick else FULL_REPS)
    draws = a.truth_draws if a.truth_draws is not None else (QUICK_TRUTH_DRAWS if a.quick else TRUTH_DRAWS)
    if reps < 2:
        p.error("--reps must be at least 2")
    if draws < 1000:
        p.error("--truth-draws must be at least 1000")
    t0 = time.perf_counter()
    results, truths = run(cells, reps, a.seed, draws, load_cache(a.truth_cache))
    wall = time.perf_counter() - t0
    head = (f"Softmax model: class k's features N(mu_k e_k, I), mu {SOFTMAX_MU[3]} (K = 3), {SOFTMAX_MU[5]} (K = 5), "
            f"iid prevalences proportional to 1..K; ordinal model: class k's score N({ORDINAL_MU:g} k, 1), clusters of "
            f"{CLUSTER_SIZE} rows of one class, rho = {RHO}. R = {reps} per cell, seed {a.seed}; nominal "
            f"{LEVEL:.0%} intervals (Wald clipped to [0, 1]; logit). Softmax truths from "
            + ", ".join(f"{t['draws']} draws per class (K = {K})" for K, t in truths.items())
            + "; MC se / SD: the truth's Monte Carlo se over the SD of the estimates; iid: the smallest class "
              "size over the replications in brackets.\n\n")
    md = head + table(results) + f"\n\nwall time {wall:.1f} s, CPU in the replications " \
                                 f"{sum(c['cpu_s'] for c in results):.1f} s\n"
    print(md)
    if a.out:
        doc = {"level": LEVEL, "seed": a.seed, "reps": reps, "softmax_mu": {str(k): v for k, v in SOFTMAX_MU.items()},
               "ordinal_mu": ORDINAL_MU, "rho": RHO, "cluster_size": CLUSTER_SIZE, "wall_s": wall,
               "rankwise": rw.__version__, "python": platform.python_version(), "numpy": np.__version__,
               "hum": {str(K): dict(zip(("value", "grid_difference"), true_hum(K))) for K in (3, 5)},
               "truths": {f"softmax K={K}": t for K, t in truths.items()}, "cells": results}
        write_atomic(os.path.join(a.out, "multiclass_coverage.json"), json.dumps(doc, indent=1) + "\n", force=True)
        write_atomic(os.path.join(a.out, "multiclass_coverage.md"),
                     "# Coverage of the multiclass AUC and VUS intervals (issue 31)\n\n"
                     "Command: `python experiments/multiclass_coverage.py --out experiments/results`\n\n" + md,
                     force=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
