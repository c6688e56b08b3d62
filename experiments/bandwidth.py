"""How wide a window the Hajek standard error of a non-smooth criterion needs (issue 3).

Criteria with a jump in ``phi`` (``W_phi`` with ``phi(u) = u 1{u >= u0}``; DCG@k, whose
discount is cut at k) need ``phi'`` at the ranks of the positives, which rankwise takes
as a secant slope over a window of ranks (``rankwise._kernels.phi_slope``). This
script compares, on binormal scores (negatives N(0, 1), positives N(1, 1), class sizes
fixed), the mean standard error of ``rw.stats.estimate`` under several windows with
the standard deviation of the estimates over ``R`` replications: a ratio of 1 means the
variance estimate is right on average.

Windows (``bandwidth`` as a fraction of the pooled sample):

* ``n^(-1/3)``: ``n^(2/3)`` observations (the first default);
* ``n^(-1/2)``: ``sqrt(n)`` observations (the shipped default);
* for DCG also ``sqrt(k)`` positions (the shipped DCG default) and ``k/2`` positions.

Usage::

    python experiments/bandwidth.py            # R = 300, the settings of the study
    python experiments/bandwidth.py --quick    # R = 40, two settings (the test suite)

Seeds: ``np.random.default_rng([seed, n, n_pos, k])`` per setting (``--seed``, default 7).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import rankwise as rw

SETTINGS = [
    # (criterion, params, n, share of positives)
    ("rank_statistic", {"phi": "local_auc:u0=0.9"}, 100, 0.5),
    ("rank_statistic", {"phi": "local_auc:u0=0.9"}, 1000, 0.5),
    ("rank_statistic", {"phi": "local_auc:u0=0.9"}, 1000, 0.1),
    ("rank_statistic", {"phi": "local_auc:u0=0.9"}, 5000, 0.5),
    ("dcg", {"k": 10}, 100, 0.5),
    ("dcg", {"k": 10}, 400, 0.3),
    ("dcg", {"k": 10}, 1000, 0.5),
    ("dcg", {"k": 100}, 1000, 0.5),
    ("dcg", {"k": 100}, 1000, 0.1),
    ("dcg", {"k": 50}, 5000, 0.2),
]


def windows(criterion: str, params: dict, n: int) -> dict:
    out = {"n^(-1/3)": n ** (-1.0 / 3.0), "n^(-1/2) [default]" if criterion != "dcg" else "n^(-1/2)":
           min(0.5, max(2.0, np.sqrt(n)) / (n + 1.0))}
    if criterion == "dcg":
        k = params["k"]
        out["sqrt(k) positions [default]"] = min(0.5, max(2.0, np.sqrt(k)) / (n + 1.0))
        out["k/2 positions"] = min(0.5, (k / 2.0) / (n + 1.0))
    return out


def run(settings=SETTINGS, reps: int = 300, seed: int = 7) -> list[dict]:
    rows = []
    for criterion, params, n, share in settings:
        n_pos = int(round(share * n))
        y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
        rng = np.random.default_rng([seed, n, n_pos, params.get("k", 0)])
        wins = windows(criterion, params, n)
        values = np.empty(reps)
        ses = {w: np.empty(reps) for w in wins}
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for r in range(reps):
                s = rng.normal(size=n) + y
                for w, bw in wins.items():
                    e = rw.stats.estimate(y, s, criterion, bandwidth=bw, **params)
                    ses[w][r] = e.std_error
                values[r] = e.value
        sd = float(np.std(values, ddof=1))
        rows.append({
            "criterion": criterion, "params": params, "n": n, "share": share, "reps": reps, "sd": sd,
            "se_over_sd": {w: float(np.mean(v)) / sd for w, v in ses.items()},
            "seconds": time.perf_counter() - t0,
        })
    return rows


def table(rows: list[dict]) -> str:
    lines = ["| criterion | n | positives | SD of estimates | mean SE / SD by window |", "|---|---|---|---|---|"]
    for r in rows:
        spec = r["criterion"] + "(" + ", ".join(f"{k}={v}" for k, v in r["params"].items()) + ")"
        ratios = "; ".join(f"{w}: {v:.2f}" for w, v in r["se_over_sd"].items())
        lines.append(f"| {spec} | {r['n']} | {r['share']:.0%} | {r['sd']:.4g} | {ratios} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    settings = SETTINGS if not args.quick else [SETTINGS[1], SETTINGS[7]]
    reps = args.reps or (40 if args.quick else 300)
    with threadpool_limits(1):
        rows = run(settings, reps, args.seed)
    print(f"R = {reps} replications per setting, seed {args.seed}")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
