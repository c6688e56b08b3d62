"""Golden values: how lifelines, scikit-survival and R survival count the concordance on
small tied datasets (issue 30, tie conventions).

Usage (from the project root, with lifelines, scikit-survival and R's survival + jsonlite
installed): .venv/bin/python tests/golden/make_anchor_conventions.py

Writes tests/golden/anchor_conventions.json: each dataset (time, event, risk[, strata,
tau]) with each package's value and the exact call that produced it. The tests
(tests/survival/test_conventions_anchors.py) read the JSON (CI has none of these packages)
and check that rankwise reproduces every value under the mapped options documented in
docs/survival.md.

Datasets: one tiny set per tie case (tied risks, two events at one time, an event and a
censoring at one time, ...), the five datasets of survival_golden.json (R survival's
golden values) and two stratified sets for Uno's C with strata in R.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "anchor_conventions.json")

TINY = {
    # name: (time, event, risk)
    "tied_risk": ([1, 2, 3], [1, 1, 1], [0.5, 0.5, 0.0]),
    "two_events_one_time": ([1, 1, 2], [1, 1, 1], [3.0, 2.0, 1.0]),
    "event_and_censoring_one_time": ([1, 1, 2], [1, 0, 1], [1.0, 2.0, 0.0]),
    "event_and_censoring_one_time_tied_risk": ([1, 1, 2], [1, 0, 1], [1.0, 1.0, 0.0]),
    "censored_before_event": ([1, 2, 3], [0, 1, 1], [5.0, 1.0, 0.0]),
    "tied_events_tied_risk": ([1, 1, 2, 3], [1, 1, 0, 1], [1.0, 1.0, 0.0, 2.0]),
    "near_tied_risk": ([1, 2, 3], [1, 1, 0], [1.0 + 1e-10, 1.0, 0.5]),
    "censoring_ties_event_for_uno": ([1, 2, 2, 3, 4, 5, 6], [1, 1, 0, 1, 0, 1, 0],
                                     [0.3, 0.9, 0.1, 0.5, 0.2, 0.4, 0.0]),
    "untied_for_uno": ([1.5, 2.1, 2.7, 3.3, 4.2, 5.0, 6.4, 7.7], [1, 0, 1, 1, 0, 1, 0, 1],
                       [0.8, 0.1, 0.9, 0.2, 0.4, 0.6, 0.3, 0.5]),
}


def strata_sets() -> dict:
    """Two stratified sets: every stratum with two or more events, and one stratum with a
    single event (where R survival's n/G2 falls back to unit weights)."""
    out = {}
    for name, seed, single in (("strata_all_multi_event", 11, False), ("strata_one_single_event", 12, True)):
        rng = np.random.default_rng(seed)
        n = 45
        t = np.ceil(rng.exponential(5.0, n))
        e = (rng.random(n) < 0.6).astype(int)
        s = rng.integers(1, 4, n)
        if single:
            e[s == 3] = 0
            e[np.flatnonzero(s == 3)[0]] = 1
        else:
            for g in (1, 2, 3):
                e[np.flatnonzero(s == g)[:2]] = 1
        r = np.round(rng.normal(size=n) - np.log(t), 1)
        out[name] = dict(time=t.tolist(), event=e.tolist(), risk=r.tolist(), strata=s.tolist(),
                         tau=float(np.quantile(t[e == 1], 0.8)))
    return out


def datasets() -> dict:
    sets = {k: dict(time=[float(v) for v in t], event=list(e), risk=list(r)) for k, (t, e, r) in TINY.items()}
    sets["censoring_ties_event_for_uno"]["tau"] = 5.0
    sets["untied_for_uno"]["tau"] = 7.0
    with open(os.path.join(HERE, "survival_golden.json")) as fh:
        golden = json.load(fh)["cases"]
    for name, case in golden.items():
        x = case["inputs"]
        sets["golden_" + name] = dict(time=x["time"], event=x["status"], risk=x["risk"], tau=case["ymax"])
    sets.update(strata_sets())
    return sets


def python_anchors(d: dict) -> dict:
    import lifelines
    import sksurv
    from lifelines.utils import concordance_index
    from sksurv.metrics import concordance_index_censored, concordance_index_ipcw
    from sksurv.util import Surv

    t = np.asarray(d["time"], dtype=float)
    e = np.asarray(d["event"], dtype=bool)
    r = np.asarray(d["risk"], dtype=float)
    res = {}

    def run(key, call, f):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = f()
            res[key] = dict(value=float(v), call=call)
        except Exception as exc:  # noqa: BLE001 - the anchor's refusal is a result too
            res[key] = dict(error=f"{type(exc).__name__}: {exc}", call=call)

    run("lifelines", f"lifelines {lifelines.__version__}: concordance_index(time, -risk, event)",
        lambda: concordance_index(t, -r, e))
    run("sksurv_censored", f"scikit-survival {sksurv.__version__}: concordance_index_censored(event, time, risk)",
        lambda: concordance_index_censored(e, t, r)[0])
    run("sksurv_censored_tol0",
        f"scikit-survival {sksurv.__version__}: concordance_index_censored(event, time, risk, tied_tol=0)",
        lambda: concordance_index_censored(e, t, r, tied_tol=0.0)[0])
    y = Surv.from_arrays(e, t)
    run("sksurv_ipcw", f"scikit-survival {sksurv.__version__}: concordance_index_ipcw(y, y, risk, tied_tol=0) "
        "with y = Surv.from_arrays(event, time)", lambda: concordance_index_ipcw(y, y, r, tied_tol=0.0)[0])
    if "tau" in d:
        run("sksurv_ipcw_tau", f"scikit-survival {sksurv.__version__}: concordance_index_ipcw(y, y, risk, "
            f"tau=tau, tied_tol=0)", lambda: concordance_index_ipcw(y, y, r, tau=d["tau"], tied_tol=0.0)[0])
    return res


R_SCRIPT = r"""
suppressPackageStartupMessages({library(survival); library(jsonlite)})
args <- commandArgs(trailingOnly = TRUE)
sets <- fromJSON(args[1], simplifyVector = TRUE)
out <- list()
one <- function(d, timewt, ymax, strata) {
  df <- data.frame(time = d$time, event = d$event, risk = d$risk)
  if (strata) df$s <- d$strata
  form <- if (strata) Surv(time, event) ~ risk + strata(s) else Surv(time, event) ~ risk
  a <- list(object = form, data = df, reverse = TRUE, timewt = timewt, timefix = FALSE)
  if (!is.null(ymax)) a$ymax <- ymax
  f <- tryCatch(do.call(concordance, a), error = function(e) e)
  if (inherits(f, "error")) return(list(error = conditionMessage(f)))
  list(value = unname(f$concordance), var = unname(f$var))
}
ver <- as.character(packageVersion("survival"))
for (k in names(sets)) {
  d <- sets[[k]]
  st <- !is.null(d$strata)
  r <- list()
  call <- paste0("R survival ", ver, ": concordance(Surv(time, event) ~ risk", if (st) " + strata(s)" else "",
                 ", reverse = TRUE, timefix = FALSE")
  r$r_harrell <- c(one(d, "n", NULL, st), call = paste0(call, ")"))
  r$r_uno <- c(one(d, "n/G2", NULL, st), call = paste0(call, ", timewt = 'n/G2')"))
  if (!is.null(d$tau)) {
    r$r_harrell_tau <- c(one(d, "n", d$tau, st), call = paste0(call, ", ymax = tau)"))
    r$r_uno_tau <- c(one(d, "n/G2", d$tau, st), call = paste0(call, ", timewt = 'n/G2', ymax = tau)"))
  }
  out[[k]] <- r
}
cat(toJSON(out, digits = NA, auto_unbox = TRUE))
"""


def r_anchors(sets: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "sets.json")
        with open(src, "w") as fh:
            json.dump(sets, fh)
        script = os.path.join(tmp, "run.R")
        with open(script, "w") as fh:
            fh.write(R_SCRIPT)
        done = subprocess.run(["Rscript", script, src], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    sets = datasets()
    r = r_anchors(sets)
    cases = {}
    for name, d in sets.items():
        cases[name] = dict(inputs=d, results={**python_anchors(d), **r[name]})
    out = dict(producer="tests/golden/make_anchor_conventions.py (" + sys.version.split()[0] + ")",
               note="Risk scores: higher = earlier event. lifelines is given -risk (its score is a predicted "
                    "survival time). R: reverse = TRUE, timefix = FALSE.",
               cases=cases)
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
