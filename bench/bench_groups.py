"""What the groups API costs (issue 29): ``rw.stats.by_group`` against one
``rw.stats.estimate`` on all rows and against fairlearn's ``MetricFrame`` with scikit-learn's
``roc_auc_score``, and the point functions ``rw.bias_aucs`` and ``rw.stratified_auc``.

Data (``make_data``): n rows in 10 groups of unequal size (group g with probability
proportional to g + 1: 1.8% to 18% of the rows); label ~ Bernoulli(0.3); binormal scores,
N(0, 1) for negatives and N(mu_g, 1) for positives with mu_g = 0.6 + 0.1 g (group AUCs
Phi(mu_g / sqrt 2), 0.66 to 0.87); clusters of 5 rows at scattered positions, each cluster
inside one group; seed 0. Two score variants: the float scores (no ties) and the same
rounded to 2 decimals (heavy ties: 930 distinct values at 10^6 rows). The strata of the
stratified AUC are the 10 groups.

Calls timed at each n, per score variant:

(a) ``rw.stats.estimate(y, s)`` (AUC with DeLong's standard error, all rows);
(b) ``rw.stats.by_group(y, s, g, bias=False)``;
(c) ``rw.stats.by_group(y, s, g)`` (with the bias AUCs);
(d) ``rw.stats.by_group(y, s, g, clusters=ids)`` (with the bias AUCs, clusters of 5);
(e) ``fairlearn.metrics.MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s,
    sensitive_features=g)`` (point values only; skipped when fairlearn is not installed);
(f) ``rw.bias_aucs(y, s, g)``;
(g) ``rw.stratified_auc(y, s, g)`` and ``rw.stats.stratified_auc(y, s, g)`` (10 strata).

Then, at a smaller n, fairlearn's bootstrap (``MetricFrame(..., n_boot=B,
ci_quantiles=[0.025, 0.975], random_state=0)``: B resamples of all rows, every group's
``roc_auc_score`` recomputed in each) against ``by_group`` (DeLong intervals, no resampling).

BLAS pinned to one thread (threadpoolctl); every call made once before the timings.
rankwise's calls of one (n, variant) are timed in interleaved rounds (each round calls each
once, in rotating order; best of ``--repeat`` rounds), so that a change of the machine's
load touches them alike; fairlearn's call is timed in ``--repeat`` rounds of its own after
them (a call made right after fairlearn's pays for fresh memory pages: by_group at 10^6
rows up to 0.3 s more). Agreement checks, all to 1e-12 absolute (standard errors against
``estimate``: 1e-9 relative): by_group's group AUCs against fairlearn's ``by_group`` and
against ``roc_auc_score`` on each group's rows; each group row against ``rw.stats.estimate``
on the group's rows; the overall row against (a); the clustered call's values against the
unclustered; ``rw.bias_aucs`` against by_group's bias rows; both stratified AUCs against
the pair-weighted mean of by_group's group AUCs. The script prints every check and exits
with status 1 when one fails.

    python bench/bench_groups.py              # n = 1e6, best of 5; bootstrap at 1e5, B = 100
    python bench/bench_groups.py --quick      # n = 2e4, 1 round; bootstrap at 2e4, B = 2
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_clusters import cpu_line, time_interleaved  # noqa: E402

G = 10
TOL = 1e-12
CALLS = ("estimate", "by_group, bias=False", "by_group", "by_group, clusters of 5", "fairlearn MetricFrame",
         "bias_aucs", "stratified_auc", "stats.stratified_auc")
LETTER = dict(zip(CALLS, "abcdefgg"))
BIAS_KEYS = ("subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative")


def make_data(n: int, seed: int = 0):
    """``(y, s, s_tied, g, ids)``: labels (int8), float scores, the scores rounded to 2
    decimals, group ids 0..9 and cluster ids (clusters of 5 rows inside one group)."""
    rng = np.random.default_rng(seed)
    n_clusters = -(-n // 5)
    ids = rng.permutation(np.arange(n) // 5)  # each cluster's 5 rows at scattered positions
    p = np.arange(1, G + 1, dtype=float)
    cluster_group = rng.choice(G, size=n_clusters, p=p / p.sum())
    g = cluster_group[ids]
    y = (rng.random(n) < 0.3).astype(np.int8)
    mu = 0.6 + 0.1 * np.arange(G)
    s = rng.normal(size=n) + mu[g] * y
    return y, s, np.round(s, 2), g, ids


def source_state(pkg_dir: str) -> str:
    """The commit of the rankwise checkout imported and its uncommitted files (the numbers
    belong to that state), or why it is not known."""
    def git(*a):
        return subprocess.run(["git", "-C", pkg_dir, *a], capture_output=True, text=True, timeout=30)

    try:
        head = git("rev-parse", "--short", "HEAD")
        if head.returncode != 0:
            return "not in a git checkout"
        changed = git("status", "--porcelain", "--", ".").stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "git not available"
    names = sorted(line[3:] for line in changed)
    if not names:
        return f"git {head.stdout.strip()}, no uncommitted changes in the package"
    return f"git {head.stdout.strip()} with uncommitted changes to {', '.join(names)}"


def load_fairlearn():
    """``(MetricFrame, version)``, or None when fairlearn is not importable."""
    try:
        import fairlearn
        from fairlearn.metrics import MetricFrame
    except ImportError:
        return None
    return MetricFrame, fairlearn.__version__


class Checks:
    """Agreement checks: each records its largest difference and whether it is within tolerance."""

    def __init__(self):
        self.items: list = []

    def add(self, what: str, diff: float, tol: float = TOL) -> None:
        self.items.append((what, float(diff), tol, bool(np.isfinite(diff) and diff <= tol)))

    @property
    def ok(self) -> bool:
        return all(item[3] for item in self.items)


def group_values(res, gnames) -> np.ndarray:
    by = {r.group: r.value for r in res.rows}
    return np.array([by[k] for k in gnames])


def check_variant(rw, checks: Checks, label: str, y, s, g, ids, out: dict, fair) -> None:
    """The agreement checks of one (n, variant), on the results of the timed calls."""
    from sklearn.metrics import roc_auc_score

    b, bb, bc, est = out["by_group, bias=False"], out["by_group"], out["by_group, clusters of 5"], out["estimate"]
    gnames = list(b.groups)
    vals = group_values(b, gnames)
    sk = np.array([roc_auc_score(y[g == k], s[g == k]) for k in gnames])
    checks.add(f"{label}: by_group group AUCs vs roc_auc_score on each group's rows", np.max(np.abs(vals - sk)))
    if fair is not None:
        fl = out["fairlearn MetricFrame"].by_group
        flv = np.array([float(fl.loc[k]) for k in gnames])
        checks.add(f"{label}: by_group group AUCs vs fairlearn MetricFrame.by_group", np.max(np.abs(vals - flv)))
        checks.add(f"{label}: by_group overall AUC vs fairlearn MetricFrame.overall",
                   abs(b.overall[0].value - float(out["fairlearn MetricFrame"].overall)))
    dv = ds = 0.0
    for r in b.rows:
        e = rw.stats.estimate(y[g == r.group], s[g == r.group])
        dv = max(dv, abs(r.value - e.value))
        ds = max(ds, abs(r.std_error - e.std_error) / e.std_error)
    checks.add(f"{label}: by_group group values vs rw.stats.estimate on the group's rows", dv)
    checks.add(f"{label}: by_group group std. errors vs rw.stats.estimate on the group's rows (relative)", ds, 1e-9)
    ov = b.overall[0]
    checks.add(f"{label}: by_group overall value vs (a) estimate", abs(ov.value - est.value))
    checks.add(f"{label}: by_group overall std. error vs (a) estimate (relative)",
               abs(ov.std_error - est.std_error) / est.std_error, 1e-9)
    checks.add(f"{label}: by_group with bias, and with clusters, group values vs bias=False",
               max(np.max(np.abs(group_values(bb, gnames) - vals)), np.max(np.abs(group_values(bc, gnames) - vals))))
    ba = out["bias_aucs"]
    worst = 0.0
    for res in (bb, bc):
        for r in res.bias:
            if r.statistic in BIAS_KEYS:
                worst = max(worst, abs(r.value - ba[r.group][r.statistic]))
    worst = max(worst, max(abs(ba[k]["subgroup_auc"] - v) for k, v in zip(gnames, vals)))
    checks.add(f"{label}: rw.bias_aucs vs by_group's bias rows (5 statistics x 10 groups)", worst)
    n_pos = np.array([r.n_pos for r in b.rows])
    n_neg = np.array([r.n_neg for r in b.rows])
    pairs = n_pos * n_neg
    want = float(np.dot(pairs, vals) / pairs.sum())
    checks.add(f"{label}: rw.stratified_auc vs the pair-weighted mean of the group AUCs",
               abs(out["stratified_auc"] - want))
    checks.add(f"{label}: rw.stats.stratified_auc vs the pair-weighted mean of the group AUCs",
               abs(out["stats.stratified_auc"].value - want))


def run_size(rw, n: int, repeat: int, fair, checks: Checks) -> list:
    """The timed rows at ``n``: (n, variant, call, seconds or None)."""
    y, s_float, s_tied, g, ids = make_data(n)
    rows = []
    for variant, s in (("float, no ties", s_float), ("2 decimals, tied", s_tied)):
        distinct = np.unique(s).shape[0]
        label = f"n = {n:.0e}, {variant} ({distinct} distinct scores)"
        calls = {
            "estimate": lambda: rw.stats.estimate(y, s),
            "by_group, bias=False": lambda: rw.stats.by_group(y, s, g, bias=False),
            "by_group": lambda: rw.stats.by_group(y, s, g),
            "by_group, clusters of 5": lambda: rw.stats.by_group(y, s, g, clusters=ids),
            "bias_aucs": lambda: rw.bias_aucs(y, s, g),
            "stratified_auc": lambda: rw.stratified_auc(y, s, g),
            "stats.stratified_auc": lambda: rw.stats.stratified_auc(y, s, g),
        }
        if fair is not None:
            from sklearn.metrics import roc_auc_score

            MetricFrame = fair[0]
            calls["fairlearn MetricFrame"] = lambda: MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s,
                                                                 sensitive_features=g)
        out = {name: f() for name, f in calls.items()}  # warm; the results are checked below
        # rankwise's calls in interleaved rounds; fairlearn in rounds of its own after them
        # (a call made right after fairlearn's pays for fresh memory pages: up to 0.3 s more
        # for by_group at 1e6)
        ours = [name for name in calls if not name.startswith("fairlearn")]
        times = dict(zip(ours, time_interleaved([calls[name] for name in ours], repeat)))
        if fair is not None:
            times["fairlearn MetricFrame"] = time_interleaved([calls["fairlearn MetricFrame"]], repeat)[0]
        check_variant(rw, checks, label, y, s, g, ids, out, fair)
        rows.extend((n, variant, name, times.get(name)) for name in CALLS)
    return rows


def run_bootstrap(rw, n: int, n_boot: int, repeat: int, fair, checks: Checks):
    """fairlearn's bootstrap intervals against by_group's DeLong intervals at ``n``."""
    y, s, _, g, _ = make_data(n, seed=1)
    t_bg = time_interleaved([lambda: rw.stats.by_group(y, s, g, bias=False)], repeat)[0]
    b = rw.stats.by_group(y, s, g, bias=False)
    if fair is None:
        return t_bg, None
    from sklearn.metrics import roc_auc_score

    MetricFrame = fair[0]
    t0 = time.perf_counter()
    mf = MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g, n_boot=n_boot,
                     ci_quantiles=[0.025, 0.975], random_state=0)
    t_fl = time.perf_counter() - t0
    gnames = list(b.groups)
    lo, hi = (np.array([float(q.loc[k]) for k in gnames]) for q in mf.by_group_ci)
    checks.add(f"n = {n:.0e}, bootstrap run: by_group group AUCs vs fairlearn MetricFrame.by_group",
               np.max(np.abs(group_values(b, gnames) - np.array([float(mf.by_group.loc[k]) for k in gnames]))))
    width_ratio = np.array([(r.high - r.low) for r in b.rows]) / (hi - lo)
    return t_bg, (t_fl, float(np.median(width_ratio)), float(width_ratio.min()), float(width_ratio.max()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=float, nargs="+", default=[1e6])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--boot-n", type=float, default=1e5, help="rows of the bootstrap comparison")
    ap.add_argument("--n-boot", type=int, default=100, help="fairlearn's bootstrap resamples")
    ap.add_argument("--no-fairlearn", action="store_true", help="run as if fairlearn were not installed")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    sizes = [20_000] if args.quick else [int(v) for v in args.n]
    repeat = 1 if args.quick else args.repeat
    boot_n = 20_000 if args.quick else int(args.boot_n)
    n_boot = 2 if args.quick else args.n_boot
    from threadpoolctl import threadpool_limits

    import rankwise as rw

    fair = None if args.no_fairlearn else load_fairlearn()
    checks = Checks()
    load0 = os.getloadavg()[0]
    rows = []
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.stats.FewClustersWarning)
        rw.auc([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8])
        for n in sizes:
            rows.extend(run_size(rw, n, repeat, fair, checks))
        t_bg, boot = run_bootstrap(rw, boot_n, n_boot, repeat, fair, checks)
    load1 = os.getloadavg()[0]

    import sklearn

    print(f"# {cpu_line()}")
    pkg = os.path.dirname(os.path.abspath(rw.__file__))
    print(f"# rankwise imported from .../{os.path.basename(os.path.dirname(pkg))}/rankwise: {source_state(pkg)}")
    print(f"# {datetime.date.today().isoformat()}; rankwise {rw.__version__}; numpy {np.__version__}; "
          f"scikit-learn {sklearn.__version__}; "
          + (f"fairlearn {fair[1]}" if fair is not None else "fairlearn not installed")
          + f"; BLAS threads 1; best of {repeat} rounds (rankwise's calls interleaved, fairlearn's apart); "
            f"load average {load0:.1f} at start, "
            f"{load1:.1f} at end")
    print()
    print("| n | scores | call | time (s) | / (a) estimate |")
    print("|---|---|---|---:|---:|")
    t = {(n, v, c): x for n, v, c, x in rows}
    for n, variant, call, sec in rows:
        name = f"({LETTER[call]}) {call}"
        if sec is None:
            print(f"| {n:.0e} | {variant} | {name} | skipped (fairlearn not installed) | - |")
        else:
            print(f"| {n:.0e} | {variant} | {name} | {sec:.4f} | {sec / t[(n, variant, 'estimate')]:.2f} |")
    print()
    print("| n | scores | (b) / (a): target at most 2 | (c) / (a) | (d) / (c) | (e) / (b): target at least 20 "
          "| (e) / (c) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for n, variant in dict.fromkeys((n, v) for n, v, _, _ in rows):
        a, b_, c, d, e = (t[(n, variant, k)] for k in CALLS[:5])
        r_ba = b_ / a
        fe = "-" if e is None else f"{e / b_:.1f} ({'met' if e / b_ >= 20 else 'missed'})"
        fc = "-" if e is None else f"{e / c:.1f}"
        print(f"| {n:.0e} | {variant} | {r_ba:.1f} ({'met' if r_ba <= 2 else 'missed'}) | {c / a:.1f} "
              f"| {d / c:.2f} | {fe} | {fc} |")
    print()
    print(f"Bootstrap at n = {boot_n:.0e} (float scores, seed 1): fairlearn MetricFrame(metrics=roc_auc_score, "
          f"..., n_boot={n_boot}, ci_quantiles=[0.025, 0.975], random_state=0), timed once, against "
          f"rw.stats.by_group(y, s, g, bias=False) (DeLong intervals), best of {repeat}")
    print()
    print("| n | call | time (s) | ratio to by_group |")
    print("|---|---|---:|---:|")
    print(f"| {boot_n:.0e} | by_group, bias=False (DeLong intervals) | {t_bg:.4f} | 1.0 |")
    if boot is None:
        print(f"| {boot_n:.0e} | fairlearn MetricFrame, n_boot={n_boot} | skipped (fairlearn not installed) | - |")
    else:
        t_fl, med, lo, hi = boot
        print(f"| {boot_n:.0e} | fairlearn MetricFrame, n_boot={n_boot} | {t_fl:.3f} | {t_fl / t_bg:.0f} |")
        print()
        print(f"DeLong interval width / fairlearn's bootstrap percentile interval width over the {G} groups: "
              f"median {med:.3f}, range {lo:.3f} to {hi:.3f} ({n_boot} resamples)")
    print()
    for what, diff, tol, ok in checks.items:
        print(f"check: {what}: largest difference {diff:.1e} ({'ok' if ok else 'FAILED'}, tolerance {tol:.0e})")
    if fair is None:
        print("check: fairlearn not installed: its comparisons skipped (scikit-learn's roc_auc_score per group is "
              "the anchor)")
    if not checks.ok:
        print("agreement checks: FAILED")
        return 1
    print(f"agreement checks: all {len(checks.items)} passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
