"""Direct definitions of the smoothed ROC curves, for the tests only.

Written from the definitions (docs/smoothing.md and R's ``density``), with plain loops and
no code shared with rankwise: the empirical ROC points by counting at each threshold, the
binormal line by least squares on the design matrix, R's ``density`` with its linear
binning observation by observation and the circular convolution summed term by term
(instead of the FFT), ``approx`` by searching the interval, the areas by clipping each
segment of the curve to the band. Classes are given as two lists of scores: ``controls``
(negatives) and ``cases`` (positives).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special


def empirical_points(controls, cases):
    """[(sensitivity, specificity)] at the thresholds -inf, the midpoints between
    consecutive distinct pooled scores, +inf (a score >= the threshold is called positive)."""
    u = sorted(set(controls) | set(cases))
    cuts = [-math.inf] + [(a + b) / 2 for a, b in zip(u[:-1], u[1:])] + [math.inf]
    out = []
    for t in cuts:
        se = sum(1 for x in cases if x >= t) / len(cases)
        sp = sum(1 for x in controls if x < t) / len(controls)
        out.append((se, sp))
    return out


def binormal(controls, cases, n):
    """(sensitivities, specificities, intercept, slope) of the binormal smoothing, the end
    points (0, 1) and (1, 0) included, ordered by increasing specificity; None when fewer
    than 2 empirical points lie strictly inside the square."""
    pts = [(se, sp) for se, sp in empirical_points(controls, cases) if 0 < se < 1 and 0 < sp < 1]
    if len(pts) < 2 or len({se for se, _ in pts}) < 2:
        return None
    X = np.array([[1.0, special.ndtri(se)] for se, _ in pts])
    y = np.array([special.ndtri(sp) for _, sp in pts])
    (c0, c1), *_ = np.linalg.lstsq(X, y, rcond=None)
    if len({sp for _, sp in pts}) < 2:  # a flat line: pROC stops (its ends are 0 * inf)
        return None
    ses, sps = [], []
    for k in range(n):
        p = min(k / (n - 1), 1.0)
        z = special.ndtri(p)
        ses.append(special.ndtr(z))
        sps.append(special.ndtr(c0 + c1 * z) if math.isfinite(z) else (1.0 if (c1 < 0) == (z < 0) else 0.0))
    if any(b < a for a, b in zip(sps[:-1], sps[1:])):
        ses, sps = ses[::-1], sps[::-1]
    return [1.0] + ses + [0.0], [0.0] + sps + [1.0], float(c0), float(c1)


def binormal_area(c0, c1):
    """The area under the binormal curve Sp = Phi(c0 + c1 Phi^-1(Se)), integrated
    numerically: TPR(FPR) = Phi(a + b Phi^-1(FPR)) with a = -c0/c1, b = -1/c1."""
    from scipy import integrate

    a, b = -c0 / c1, -1 / c1
    val, _ = integrate.quad(lambda u: special.ndtr(a + b * special.ndtri(u)), 0, 1, epsabs=1e-12, limit=200)
    return val


def quantile7(x, p):
    """R's type 7 quantile."""
    x = sorted(x)
    h = (len(x) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(x) - 1)
    return x[lo] + (h - lo) * (x[hi] - x[lo])


def bw_nrd0(x):
    sd = float(np.std(x, ddof=1))
    lo = min(sd, (quantile7(x, 0.75) - quantile7(x, 0.25)) / 1.34)
    if lo == 0:
        lo = sd or abs(x[0]) or 1.0
    return 0.9 * lo * len(x) ** -0.2


def bw_nrd(x):
    sd = float(np.std(x, ddof=1))
    return 1.06 * min(sd, (quantile7(x, 0.75) - quantile7(x, 0.25)) / 1.34) * len(x) ** -0.2


def kernel(name, x, bw):
    ax = abs(x)
    if name == "gaussian":
        return math.exp(-x * x / (2 * bw * bw)) / (bw * math.sqrt(2 * math.pi))
    a = {"rectangular": math.sqrt(3), "triangular": math.sqrt(6), "epanechnikov": math.sqrt(5),
         "biweight": math.sqrt(7), "cosine": 1 / math.sqrt(1 / 3 - 2 / math.pi ** 2),
         "optcosine": 1 / math.sqrt(1 - 8 / math.pi ** 2)}[name] * bw
    if ax >= a:
        return 0.0
    u = ax / a
    return {"rectangular": 0.5 / a, "triangular": (1 - u) / a, "epanechnikov": 0.75 * (1 - u * u) / a,
            "biweight": 15 / 16 * (1 - u * u) ** 2 / a, "cosine": (1 + math.cos(math.pi * u)) / (2 * a),
            "optcosine": math.pi / 4 * math.cos(math.pi * u / 2) / a}[name]


def density(x, bw, n, start, stop, kern="gaussian"):
    """R's ``density(x, bw=bw, n=n, from=start, to=stop, kernel=kern)$y``, literally: a
    point between grid cells -1 and 0 puts its share on cell 0 only, one beyond the last
    cell its share on the last, others are dropped (R's BinDist)."""
    m = max(n, 512)
    if m > 512:
        m = 2 ** math.ceil(math.log2(m))
    lo, up = start - 4 * bw, stop + 4 * bw
    delta = (up - lo) / (m - 1)
    y = [0.0] * (2 * m)
    for xi in x:  # linear binning, each observation split between its two grid points
        pos = (xi - lo) / delta
        ix = math.floor(pos)
        fx = pos - ix
        w = 1.0 / len(x)
        if 0 <= ix <= m - 2:
            y[ix] += (1 - fx) * w
            y[ix + 1] += fx * w
        elif ix == -1:
            y[0] += fx * w
        elif ix == m - 1:
            y[ix] += (1 - fx) * w
    # the kernel on the circular grid of 2m points of step delta: offsets 0..m, then -(m-1)..-1
    step = 2 * (up - lo) / (2 * m - 1)
    offs = [i * step for i in range(m + 1)] + [-(2 * m - i) * step for i in range(m + 1, 2 * m)]
    kv = np.array([kernel(kern, o, bw) for o in offs])
    ya = np.array(y)
    conv = []
    for i in range(m):  # conv[i] = sum_j y[j] k[(j - i) mod 2m]
        conv.append(max(0.0, float(np.dot(ya, np.roll(kv, i)))))  # np.roll(kv, i)[j] = kv[(j - i) mod 2m]
    grid = [lo + i * (up - lo) / (m - 1) for i in range(m)]
    out = []
    for k in range(n):
        v = start + k * (stop - start) / (n - 1) if n > 1 else start
        j = 0
        while j < m - 2 and grid[j + 1] < v:
            j += 1
        t = (v - grid[j]) / (grid[j + 1] - grid[j])
        out.append(conv[j] + t * (conv[j + 1] - conv[j]))
    return out


def density_curve(controls, cases, n=512, bw="nrd0", adjust=1.0, kern="gaussian", cut=3.0):
    """(sensitivities, specificities, bandwidth) of the density smoothing, end points
    included: at the threshold between grid points k and k + 1 the sensitivity is the
    positives' density mass at points > k, the specificity the negatives' at points <= k.
    None when a class's density is 0 at every point."""
    pooled = list(controls) + list(cases)
    h = ({"nrd0": bw_nrd0, "nrd": bw_nrd}[bw](pooled) if isinstance(bw, str) else bw) * adjust
    start, stop = min(pooled) - cut * h, max(pooled) + cut * h
    d0 = density(controls, h, n, start, stop, kern)
    d1 = density(cases, h, n, start, stop, kern)
    if math.fsum(d0) == 0 or math.fsum(d1) == 0:  # no density at any point: pROC gives NaN and stops
        return None
    ses = [math.fsum(d1[k:]) / math.fsum(d1) for k in range(n)]
    sps = [math.fsum(d0[:k]) / math.fsum(d0) for k in range(n)]
    return [1.0] + ses + [0.0], [0.0] + sps + [1.0], h


def area(sps, ses, lo=0.0, hi=1.0, focus="specificity"):
    """The area under the straight-line join of the points over the band [lo, hi] of the
    focus axis (specificity: the integral of Se dSp; sensitivity: of Sp dSe), each segment
    clipped to the band and integrated exactly. For curves whose focus coordinate never
    decreases along the points."""
    x, y = (sps, ses) if focus == "specificity" else (ses[::-1], sps[::-1])
    total = 0.0
    for (x0, y0), (x1, y1) in zip(zip(x[:-1], y[:-1]), zip(x[1:], y[1:])):
        a, b = max(x0, lo), min(x1, hi)
        if b <= a:
            continue
        ya = y0 + (y1 - y0) * (a - x0) / (x1 - x0)
        yb = y0 + (y1 - y0) * (b - x0) / (x1 - x0)
        total += (b - a) * (ya + yb) / 2
    return total
