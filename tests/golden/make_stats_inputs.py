"""Seeded inputs for the AUC-inference (DeLong) golden fixtures.

Run once (``python tests/golden/make_stats_inputs.py``), then
``Rscript tests/golden/make_proc_stats.R``; the first writes ``inputs_stats.json``,
the second reads it and writes ``proc_stats.json``. CI needs neither R nor this script.

Each case holds two scorers ``s1`` and ``s2`` on the same sample ``y`` (for paired
tests) and an independent second sample ``(y_b, s_b)`` (for unpaired tests).
Labels are 0/1, higher score = positive. Floats are written with ``repr`` (shortest
round-trip form), so R's JSON reader gets exactly the same doubles.
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def _labels(rng, n, n_pos):
    y = np.zeros(n, dtype=int)
    y[:n_pos] = 1
    return rng.permutation(y)


def _binormal(rng, y, shift=0.8):
    return y * shift + rng.normal(size=y.size)


def _second_sample(rng, n, n_pos, shift=0.8):
    y = _labels(rng, n, n_pos)
    return y, _binormal(rng, y, shift)


def cases():
    out = []

    # continuous: n=60, 25 positives, s2 correlated with s1
    rng = np.random.default_rng(20261201)
    y = _labels(rng, 60, 25)
    s1 = _binormal(rng, y)
    s2 = 0.6 * s1 + rng.normal(scale=0.8, size=y.size)
    y_b, s_b = _second_sample(rng, 50, 20, shift=0.4)
    out.append(("continuous", y, s1, s2, y_b, s_b))

    # continuous_large: n=400, 30% positives
    rng = np.random.default_rng(20261202)
    y = _labels(rng, 400, 120)
    s1 = _binormal(rng, y)
    s2 = 0.6 * s1 + 0.5 * y + rng.normal(scale=0.8, size=y.size)
    y_b, s_b = _second_sample(rng, 300, 90, shift=0.6)
    out.append(("continuous_large", y, s1, s2, y_b, s_b))

    # integer_ties: integer scores 1..5, heavy ties in both scorers
    rng = np.random.default_rng(20261203)
    y = _labels(rng, 80, 32)
    latent = _binormal(rng, y, 1.0)
    s1 = np.clip(np.round(3 + latent), 1, 5)
    s2 = np.clip(np.round(3 + 0.6 * latent + rng.normal(scale=0.8, size=y.size)), 1, 5)
    y_b = _labels(rng, 70, 30)
    s_b = np.clip(np.round(3 + _binormal(rng, y_b, 0.5)), 1, 5)
    out.append(("integer_ties", y, s1, s2, y_b, s_b))

    # mixed_ties: continuous, about half the values rounded to one decimal
    rng = np.random.default_rng(20261204)
    y = _labels(rng, 90, 40)
    s1 = _binormal(rng, y)
    s2 = 0.6 * s1 + rng.normal(scale=0.8, size=y.size)
    for s in (s1, s2):
        mask = rng.random(y.size) < 0.5
        s[mask] = np.round(s[mask], 1)
    y_b, s_b = _second_sample(rng, 60, 25)
    mask = rng.random(y_b.size) < 0.5
    s_b[mask] = np.round(s_b[mask], 1)
    out.append(("mixed_ties", y, s1, s2, y_b, s_b))

    # perfect_separation: s1 separates perfectly (AUC 1), s2 does not
    rng = np.random.default_rng(20261205)
    y = _labels(rng, 40, 15)
    s1 = np.where(y == 1, rng.uniform(1.0, 2.0, y.size), rng.uniform(-1.0, 0.5, y.size))
    s2 = _binormal(rng, y)
    y_b, s_b = _second_sample(rng, 40, 15)
    out.append(("perfect_separation", y, s1, s2, y_b, s_b))

    # constant: s1 all equal (AUC 0.5, zero variance), s2 continuous
    rng = np.random.default_rng(20261206)
    y = _labels(rng, 50, 20)
    s1 = np.full(y.size, 0.5)
    s2 = _binormal(rng, y)
    y_b, s_b = _second_sample(rng, 50, 20)
    out.append(("constant", y, s1, s2, y_b, s_b))

    # degenerate: zero-variance curves on both sides of each test. s1 separates perfectly
    # (AUC 1), s2 and s_b are constant (AUC 0.5): paired Z = 0.5/0, unpaired D = 0.5/0, df 0/0
    rng = np.random.default_rng(20261207)
    y = _labels(rng, 30, 12)
    s1 = np.where(y == 1, rng.uniform(1.0, 2.0, y.size), rng.uniform(-1.0, 0.5, y.size))
    s2 = np.full(y.size, 1.0)
    y_b = _labels(rng, 30, 12)
    s_b = np.full(y_b.size, 2.0)
    out.append(("degenerate", y, s1, s2, y_b, s_b))

    # tiny: n=7, 3 positives, a positive tied with a negative in both scorers
    y = np.array([0, 1, 0, 1, 0, 1, 0])
    s1 = np.array([0.1, 0.4, 0.4, 0.8, 0.3, 0.35, 0.9])
    s2 = np.array([0.2, 0.7, 0.5, 0.5, 0.1, 0.6, 0.3])
    y_b = np.array([1, 0, 0, 1, 0, 1, 0, 0])
    s_b = np.array([0.6, 0.2, 0.6, 0.9, 0.1, 0.3, 0.5, 0.25])
    out.append(("tiny", y, s1, s2, y_b, s_b))

    return out


def main():
    data = []
    for name, y, s1, s2, y_b, s_b in cases():
        y, y_b = np.asarray(y, dtype=int), np.asarray(y_b, dtype=int)
        assert y.size == len(s1) == len(s2) and y_b.size == len(s_b)
        assert 0 < y.sum() < y.size and 0 < y_b.sum() < y_b.size
        data.append({
            "name": name,
            "y": [int(v) for v in y],
            "s1": [float(v) for v in s1],
            "s2": [float(v) for v in s2],
            "y_b": [int(v) for v in y_b],
            "s_b": [float(v) for v in s_b],
        })
    path = os.path.join(HERE, "inputs_stats.json")
    # json uses float.__repr__ (shortest exact round-trip); one case per line
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(case) for case in data) + "\n]\n")


if __name__ == "__main__":
    main()
