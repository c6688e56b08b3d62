"""Golden values from scikit-survival's ``cumulative_dynamic_auc`` (its AUC(t) and
``mean_auc``, no standard error), for ``rw.survival.cumulative_dynamic_auc`` to be checked
against (tests/survival/test_time_auc_golden.py).

Run from the project root, with scikit-survival installed::

    python tests/golden/make_sksurv_time_auc_golden.py   # writes tests/golden/sksurv_time_auc_golden.json

The call: ``cumulative_dynamic_auc(survival_train, survival_test, risk, times)`` with
``survival_train = survival_test`` (the censoring curve from the rows themselves) and with a
separate training sample (rankwise's ``censoring=(time, event)``; it ends with an event
after every test time, else scikit-survival refuses it). Its conventions: cases
the events with ``T <= t``, weighted by ``1 / G(T_i)`` (G after the censorings at ``T_i``);
controls ``T > t``; risks within 1e-8 tied; ``mean_auc`` the Kaplan-Meier-weighted mean.
rankwise weighs a case by ``1 / G(T_i-)``: the same wherever no censoring shares an event's
time, which the "float" cases ensure; the "tied" cases (times rounded up, events and
censorings at one time) show the difference, and the tests check them against the literal
definition with scikit-survival's weight instead. Cases drawn here from fixed numpy seeds
(at most 400 rows, stored with the outputs); CI needs neither scikit-survival nor this script.
"""

from __future__ import annotations

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "sksurv_time_auc_golden.json")


def draw(n, seed, tied):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    te = rng.exponential(1.0 / np.exp(x))
    tc = rng.exponential(1.5, size=n)
    t = np.minimum(te, tc)
    e = te <= tc
    r = x + rng.normal(size=n)
    if tied:
        t = np.ceil(t * 4)
        r = np.round(r, 1)
    return t, e, r


def main() -> None:
    import sklearn
    import sksurv
    from sksurv.metrics import cumulative_dynamic_auc
    from sksurv.util import Surv

    cases = {}
    for name, n, seed, tied in (("float_n200", 200, 1, False), ("float_n400", 400, 2, False),
                                ("tied_n300", 300, 3, True)):
        t, e, r = draw(n, seed, tied)
        t2, e2, _ = draw(n, seed + 100, tied)
        # scikit-survival weighs every event of the test rows, so the training sample's
        # censoring curve must stay positive beyond them: it ends with an event.
        t2, e2 = np.r_[t2, max(t.max(), t2.max()) + 1.0], np.r_[e2, True]
        times = np.quantile(t[e], [0.1, 0.3, 0.5, 0.7, 0.9])
        if tied:
            times = np.unique(times) + 0.5
        times = times[times < min(t.max(), t2.max())]
        y, y2 = Surv.from_arrays(e, t), Surv.from_arrays(e2, t2)
        auc, mean = cumulative_dynamic_auc(y, y, r, times)
        auc2, mean2 = cumulative_dynamic_auc(y2, y, r, times)
        cases[name] = {"time": t.tolist(), "event": e.astype(int).tolist(), "risk": r.tolist(),
                       "train_time": t2.tolist(), "train_event": e2.astype(int).tolist(), "times": times.tolist(),
                       "auc": auc.tolist(), "mean_auc": float(mean), "auc_train": auc2.tolist(),
                       "mean_auc_train": float(mean2), "tied": tied}
    doc = {"producer": f"tests/golden/make_sksurv_time_auc_golden.py; scikit-survival {sksurv.__version__}, "
                       f"scikit-learn {sklearn.__version__}, numpy {np.__version__}",
           "call": "sksurv.metrics.cumulative_dynamic_auc(survival_train, survival_test, risk, times) -> (auc, mean_auc); "
                   "auc/mean_auc: survival_train = survival_test; auc_train/mean_auc_train: survival_train = the train_* rows",
           "cases": cases}
    with open(OUT, "w") as fh:
        json.dump(doc, fh)


if __name__ == "__main__":
    main()
