"""``--time COL --event COL``: ``evaluate``, ``compare`` and ``report`` on censored times.

With a time column and an event column instead of ``--label``, every ``--score`` column is
a **risk score: higher risk = earlier event** (never flipped; every output says so), and
the criterion is the concordance index of :mod:`rankwise.survival`: Harrell's C and Uno's
C (``--concordance``), each with its infinitesimal-jackknife standard error and interval,
``n``, the events and the comparable pairs; ``compare`` gives the joint comparison of
:func:`rankwise.survival.compare` (every difference with its test, Holm-adjusted p-values)
for each C. ``--strata`` keeps the pairs within strata, ``--cluster`` takes the standard
errors over clusters, ``--tau`` truncates the pairs at a time.

``--times T1,T2,...`` (or ``auto``) adds the cumulative/dynamic AUC(t) of every score at
those times (:func:`rankwise.survival.cumulative_dynamic_auc`; with two scores or more one
call of :func:`rankwise.survival.compare_cumulative_dynamic_auc`), each with its standard
error and pointwise interval, and the mean AUC over the times; ``compare`` adds every
difference at each time and of the mean AUC with its test. ``evaluate`` and ``compare``
show AUC(t) only when ``--times`` is given; ``report`` always does (``auto`` by default:
the rounded 10%, 25%, 50% and 75% quantiles of the observed event times,
:func:`rankwise.report.auto_times`). ``--tau`` does not apply to AUC(t).

The rows are read as the binary commands read them (:mod:`rankwise.cli._readers`): a
missing or non-numeric time or score, or a missing event, is a one-line error naming the
column and the rows; negative times too. The events are 0/1 or true/false, or, with
``--event-value VALUE``, the rows whose event field is VALUE (``dead``, ``2``); every other
value is a censoring, and the output names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._text import quoted, shown
from ._common import CLIError

#: ``--concordance``'s choices, and the Cs each one computes.
CONCORDANCES = {"harrell": ("harrell",), "uno": ("uno",), "both": ("harrell", "uno")}
#: Each C's name in the outputs.
NAMES = {"harrell": "Harrell's C", "uno": "Uno's C"}
#: What every output says about the direction of the scores.
RISK = "higher risk = earlier event"

TIME_HELP = ("the follow-up time column (non-negative numbers): with --event, the rows are censored times "
             "instead of binary labels (no --label), every --score column is a RISK score, higher = earlier "
             "event, and the criterion is the concordance index: Harrell's C and Uno's C with "
             "infinitesimal-jackknife standard errors (rankwise.survival)")
EVENT_HELP = ("with --time: the column saying whether each follow-up ended in the event: 0/1 or true/false "
              "(1 or true: the event), or any two values with --event-value")
EVENT_VALUE_HELP = ("with --event: the value of the event column that means the event, e.g. dead or 2 (R's "
                    "status coded 1 = censored, 2 = dead); every other value is a censoring, and the output "
                    "names them")
TAU_HELP = ("with --time: truncation time: only pairs whose earlier follow-up ends by T count (R survival's "
            "ymax), for both Cs; Uno's C needs it when the censoring leaves few rows at risk late")
TIMES_HELP = ("with --time: also the time-dependent AUC(t) (cumulative cases: events by t; dynamic controls: "
              "still followed after t) of every score at these times, comma-separated, each in [first event time, "
              "last follow-up time), with standard errors (Blanche et al. 2013), pointwise intervals and the mean "
              "AUC over the times; compare adds the difference of each pair at each time with its test. auto: the "
              "10%%, 25%%, 50%% and 75%% quantiles of the observed event times, rounded. evaluate and compare show "
              "AUC(t) only with --times; report always does (auto by default). --tau does not apply to AUC(t); "
              "not with --strata")
CONCORDANCE_HELP = ("with --time: harrell (all comparable pairs alike), uno (pairs weighted by the inverse "
                    "squared Kaplan-Meier probability of being uncensored at the earlier time, Uno et al. 2011) "
                    "or both (default)")

#: Options of the binary commands that have no meaning with --time: (attribute, option, why).
_NOT_WITH_TIME = (
    ("pos_label", "--pos-label", "with --event, --event-value names the value that means the event"),
    ("group", "--group", "there is no section by group for censored times yet"),
    ("reference_group", "--reference-group", "there is no section by group for censored times yet"),
    ("weighting", "--weighting", "it weights the strata of the stratified AUC; with --time, --strata keeps "
                                 "the pairs within strata and pools them"),
    ("criteria", "--criteria", "the criterion is the concordance index (--concordance harrell|uno|both)"),
    ("criterion", "--criterion", "the criterion is the concordance index (--concordance harrell|uno|both)"),
    ("ci", "--ci", "the intervals are the infinitesimal jackknife's (normal, clipped to [0, 1])"),
    ("rank_by", "--rank-by", "the scorers are listed by Harrell's C"),
    ("model", "--model", "score the rows first (rankwise score) and give the risk scores as --score columns"),
)


def add_arguments(p) -> None:
    """``--time``, ``--event``, ``--event-value``, ``--tau`` and ``--concordance`` of
    evaluate, compare and report."""
    g = p.add_argument_group("censored times (instead of --label; risk scores: higher = earlier event)")
    g.add_argument("--time", metavar="COL", help=TIME_HELP)
    g.add_argument("--event", metavar="COL", help=EVENT_HELP)
    g.add_argument("--event-value", metavar="VALUE", help=EVENT_VALUE_HELP)
    g.add_argument("--tau", metavar="T", type=float, help=TAU_HELP)
    g.add_argument("--concordance", choices=list(CONCORDANCES), default=None, help=CONCORDANCE_HELP)
    g.add_argument("--times", metavar="T1,T2,...|auto", help=TIMES_HELP)


def wanted(args) -> bool:
    """Whether the command runs on censored times (``--time`` or ``--event`` given)."""
    return getattr(args, "time", None) is not None or getattr(args, "event", None) is not None


def usage(args) -> str | None:
    """What is wrong with ``--label``/``--time``/``--event`` and the options that go with
    them (one line, exit status 2), before any file is read; None when nothing is."""
    if not hasattr(args, "time"):
        return None
    if not wanted(args):
        if getattr(args, "label", None) is None:
            return "give --label COL (binary labels) or --time COL and --event COL (censored times)"
        for attr, option in (("event_value", "--event-value"), ("tau", "--tau"), ("concordance", "--concordance"),
                             ("times", "--times")):
            if getattr(args, attr, None) is not None:
                return f"{option} goes with --time and --event"
        return None
    if args.time is None:
        return "--event needs --time (the follow-up time column)"
    if args.event is None:
        return "--time needs --event (the column saying whether each follow-up ended in the event)"
    if args.label is not None:
        return "--label and --time/--event do not combine: --label for binary labels, --time and --event for " \
               "censored times"
    if getattr(args, "dask", False) or getattr(args, "scheduler", None):
        return (f"--time/--event are not supported with {'--dask' if args.dask else '--scheduler'} yet; drop it "
                "(10^6 rows take seconds on one machine)")
    for attr, option, why in _NOT_WITH_TIME:
        value = getattr(args, attr, None)
        if value is not None and value != []:
            return f"{option} is not used with --time: {why}"
    if getattr(args, "times", None) is not None and getattr(args, "strata", None) is not None:
        return "--times is not used with --strata: AUC(t) is not computed within strata (drop one of them)"
    return None


def parse_times(text: str | None):
    """``--times``: None (not given), ``"auto"``, or the times (a sorted list without
    repeats); a one-line error when it is empty or holds anything but finite numbers."""
    import math

    if text is None:
        return None
    if text.strip().lower() == "auto":
        return "auto"
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if not values or not all(math.isfinite(v) for v in values):
        raise CLIError(f"--times takes comma-separated times (numbers) or auto; got {text!r}")
    return sorted(set(values))


# --- the rows ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Censored:
    """The rows of a command on censored times, checked: ``time`` (float64), ``event``
    (bool), ``scores`` ({column: risk scores}), ``strata`` (a
    :class:`rankwise.cli._common.GroupColumn` or None), ``clusters`` (``(codes, n)`` or
    None), ``tau``, ``weightings`` (the Cs asked for) and ``info`` (what every output
    states)."""

    time: Any
    event: Any
    scores: dict
    strata: Any
    clusters: Any
    tau: float | None
    weightings: tuple
    info: dict
    table: Any = None
    cluster_column: str | None = None
    times: Any = None

    def kw(self, weighting: str) -> dict:
        """The keywords of :func:`rankwise.survival.estimate` and ``compare`` for one C."""
        out: dict = {}
        if self.strata is not None:
            out["strata"] = self.strata.codes
        if self.clusters is not None:
            out["clusters"] = self.clusters[0]
        return {**out, "weighting": weighting, "tau": self.tau}


def read(args) -> Censored:
    """The time, event, risk score, strata and cluster columns of ``args.file``, checked
    (one-line errors naming the column and the 1-based rows)."""
    import numpy as np

    from ._common import _read, cluster_ids, group_column
    from ._readers import _MAX_LISTED_ROWS, _fmt_rows

    times = parse_times(getattr(args, "times", None))
    table = _read(args.file, [args.time, args.event, *args.score])
    tcol, ecol = table.resolve(args.time), table.resolve(args.event)
    if tcol == ecol:
        raise CLIError(f"--time and --event name the same column {quoted(tcol)}")
    names = [table.resolve(s) for s in args.score]
    if len(set(names)) != len(names):
        raise CLIError(f"a score column is given twice: {', '.join(map(shown, args.score))}")
    for n in names:
        if n in (tcol, ecol):
            raise CLIError(f"--score names the {'time' if n == tcol else 'event'} column {quoted(n)}; a risk score "
                           "needs a column of its own")
    time = table.numeric(tcol)  # text, empty, NaN and infinite refused with the rows
    if time.shape[0] == 0:
        raise CLIError(f"{shown(args.file)} has no rows")
    neg = np.flatnonzero(time < 0)
    if neg.size:
        raise CLIError(f"column {quoted(tcol)} (--time) has negative times at rows "
                       f"{_fmt_rows(neg[:_MAX_LISTED_ROWS] + 1, neg.shape[0])}; follow-up times are >= 0")
    if args.tau is not None and not 0 < args.tau <= time.max():
        raise CLIError(f"--tau must be a time in (0, {time.max():g}], the last follow-up time of column "
                       f"{quoted(tcol)}; got {args.tau:g}")
    event, value, censored = event_flags(table, ecol, args.event_value)
    scores = {n: table.scores(n) for n in names}
    used = {tcol: "the time column", ecol: "the event column", **{n: "the score column" for n in names}}
    clusters = cluster_ids(table, args.cluster, used)
    strata = group_column(table, args.strata, used, "--strata")
    n_events = int(np.count_nonzero(event))
    info: dict = {"time_column": tcol, "event_column": ecol, "event_value": value, "censored_values": censored,
                  "risk_scores": RISK, "n": int(time.shape[0]), "n_events": n_events,
                  "n_censored": int(time.shape[0]) - n_events}
    if clusters is not None:
        info["n_clusters"] = int(clusters[1])
    if strata is not None:
        info.update(strata_column=strata.name, n_strata=len(strata.names))
    if args.tau is not None:
        info["tau"] = float(args.tau)
    weightings = CONCORDANCES[args.concordance or "both"]
    return Censored(time=time, event=event, scores=scores, strata=strata, clusters=clusters, tau=args.tau,
                    weightings=weightings, info=info, table=table,
                    cluster_column=None if clusters is None else table.resolve(args.cluster), times=times)


def _plain(v):
    import numpy as np

    return v.item() if isinstance(v, np.generic) else v


def _true_false(v) -> bool | None:
    """An event field read as a boolean without ``--event-value``: 0/1 (numbers),
    booleans, or the text true/false in any case; None for anything else."""
    v = _plain(v)
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return {0: False, 1: True}.get(v)
    if isinstance(v, str):
        return {"true": True, "false": False}.get(v.strip().lower())
    return None


def event_flags(table, column: str, given: str | None) -> tuple:
    """``(event, value, censored)`` of the event column: one bool a row, the value (as
    read) that means the event, and the other values present (censorings).

    Without ``given`` the values must be 0/1 or true/false; with it, the rows whose value
    is ``given`` (matched as ``--pos-label`` matches: the same text, or the same number)
    are the events and every other value is a censoring. A missing value is refused with
    its rows (:meth:`rankwise.cli._readers.Table.labels`)."""
    import numpy as np

    from ._common import _distinct, _same_label, _show

    coded = table.label_codes(column)  # text held as codes: decided on the few distinct values
    if coded is not None:
        codes, values = coded
        distinct = sorted(set(values.tolist()))
    else:
        y = table.labels(column)
        distinct = [_plain(v) for v in _distinct(y)]
    if given is not None:
        found = [v for v in distinct if _same_label(v, given)]
        if not found:
            raise CLIError(f"--event-value {given!r} is not a value of the event column {quoted(column)} "
                           f"({_show(distinct)})")
        value = found[0]
    else:
        flags = [_true_false(v) for v in distinct]
        if any(f is None for f in flags):
            example = distinct[-1] if len(distinct) == 2 else "VALUE"
            raise CLIError(f"the event column {quoted(column)} holds {_show(distinct)}; they are not 0/1 or "
                           f"true/false, so pass --event-value to say which value means the event (e.g. "
                           f"--event-value {example})")
        found = [v for v, f in zip(distinct, flags) if f]
        value = found[0] if found else True
    censored = [v for v in distinct if v != value] if found else list(distinct)
    if coded is not None:
        hit = [k for k, v in enumerate(values.tolist()) if v == value]
        event = np.isin(codes, hit) if hit else np.zeros(codes.shape[0], dtype=bool)
    elif found:
        event = _equal(y, value)
    else:
        event = np.zeros(y.shape[0], dtype=bool)
    return event, value, censored


def _equal(y, value):
    """``y == value`` as one bool a row (element by element for object arrays)."""
    import numpy as np

    if y.dtype != object:
        return np.asarray(y == value, dtype=bool)
    return np.fromiter((v == value for v in y), dtype=bool, count=y.shape[0])


# --- evaluate -------------------------------------------------------------------------------

class library_messages:
    """``with library_messages():`` a ValueError of :mod:`rankwise.survival` in the
    command line's words (``--tau`` for the parameter ``tau=``)."""

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, ValueError) and not isinstance(exc, CLIError):
            import re

            text = re.sub(r"The 'times' parameter of \w+", "--times", str(exc).replace("Pass tau= ", "Pass --tau "))
            raise CLIError(text) from exc
        return False


def estimate_rows(data: Censored, level: float) -> list[dict]:
    """One row a score column and C: the value, its interval and standard error
    (infinitesimal jackknife, over clusters with ``--cluster``), the comparable pairs."""
    from .. import survival

    rows = []
    for col, r in data.scores.items():
        for w in data.weightings:
            with library_messages():
                est = survival.estimate(data.time, data.event, r, **data.kw(w))
            iv = est.confidence_interval(level)
            rows.append({"score": col, "concordance": w, "value": float(est.value), "low": float(iv.low),
                         "high": float(iv.high), "std_error": float(est.std_error), "method": "ij",
                         "comparable": float(est.comparable)})
    return rows


def evaluate(args) -> int:
    """``rankwise evaluate --time COL --event COL`` (and ``--times``)."""
    from ._common import _emit, output_path

    output_path(args.out, args.force, [args.file])
    data = read(args)
    curves = time_auc(data, args.level)  # first: a time outside the follow-up fails before the Cs
    rows = estimate_rows(data, args.level)
    _emit(format_rows(rows, args.format, args.level, data.info, curves), args.out, args.force, [args.file],
          data=args.format != "table")
    return 0


# --- AUC(t) -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TimeAUC:
    """The AUC(t) of every score: ``times``, ``how`` (``"auto"`` or ``"given"``),
    ``estimates`` ({score: :class:`rankwise.survival.TimeDependentAUC`}), ``differences``
    (rows of :attr:`rankwise.survival.TimeAUCComparison.differences`, each score minus
    ``--reference`` when given; None for evaluate or one score) and ``level``."""

    times: list
    how: str
    estimates: dict
    differences: list | None
    level: float


def time_auc(data: Censored, level: float, *, differences: bool = False, reference: str | None = None
             ) -> TimeAUC | None:
    """AUC(t) at ``--times`` (None without it): one call of the library for all scores."""
    from .. import survival
    from ..report import auto_times, versus_reference

    if data.times is None:
        return None
    how = "auto" if data.times == "auto" else "given"
    times = auto_times(data.time, data.event) if how == "auto" else data.times
    if not times:
        raise CLIError("--times auto: no time qualifies for AUC(t), which needs an event by t and a row still "
                       "followed after t")
    kw = {} if data.clusters is None else {"clusters": data.clusters[0]}
    with library_messages():
        if len(data.scores) == 1:
            (name, r), = data.scores.items()
            ests = {name: survival.cumulative_dynamic_auc(data.time, data.event, r, times, **kw)}
            diffs = None
        else:
            comp = survival.compare_cumulative_dynamic_auc(data.time, data.event, dict(data.scores), times,
                                                           confidence_level=level, **kw)
            ests = dict(zip(comp.names, comp.aucs))
            diffs = versus_reference(comp.differences, reference) if differences else None
    first = next(iter(ests.values()))
    return TimeAUC(times=first.times.tolist(), how=how, estimates=ests, differences=diffs, level=level)


def time_auc_json(ta: TimeAUC) -> dict:
    """The ``"time_dependent_auc"`` entry of the JSON outputs."""
    from ..report import time_auc_dict

    out = {"times": ta.times, "how": ta.how, "confidence_level": ta.level, "risk_scores": RISK,
           "estimates": [{"score": n, **time_auc_dict(e, ta.level)} for n, e in ta.estimates.items()]}
    if ta.differences is not None:
        out["differences"] = [dict(d) for d in ta.differences]
    return out


#: The CSV's columns with --times (evaluate): the Cs' and the AUC(t)'s rows in one table.
_TIME_KEYS = ["score", "criterion", "time", "value", "low", "high", "std_error", "method", "comparable", "cases",
              "controls"]


def time_auc_csv_rows(ta: TimeAUC) -> list[list]:
    """evaluate's CSV rows of AUC(t): one per score and time (criterion ``auc(t)``), and one
    per score for the mean AUC (criterion ``mean auc(t)``, no time)."""
    out = []
    for name, e in ta.estimates.items():
        lo, hi = e.confidence_intervals(ta.level)
        for j, t in enumerate(e.times.tolist()):
            out.append([name, "auc(t)", t, float(e.values[j]), float(lo[j]), float(hi[j]), float(e.std_errors[j]),
                        "iid", "", float(e.n_cases[j]), float(e.n_controls[j])])
        m = e.mean_confidence_interval(ta.level)
        out.append([name, "mean auc(t)", "", float(e.mean_value), float(m.low), float(m.high),
                    float(e.mean_std_error), "iid", "", "", ""])
    return out


def time_auc_text(ta: TimeAUC, info: dict) -> str:
    """A block per score: AUC(t) at each time with its interval, standard error, cases and
    controls, and the mean AUC; then how they are computed."""
    from ._common import _text_table

    blocks = []
    for name, e in ta.estimates.items():
        lo, hi = e.confidence_intervals(ta.level)
        head = ["time", "AUC(t)", f"{ta.level:.0%} CI low", "high", "std. error", "cases", "controls"]
        rows = [[f"{t:g}", _num(v), _num(a), _num(b), _num(se), _count(c), _count(k)]
                for t, v, a, b, se, c, k in zip(e.times.tolist(), e.values, lo, hi, e.std_errors, e.n_cases,
                                                e.n_controls)]
        m = e.mean_confidence_interval(ta.level)
        rows.append(["mean", _num(e.mean_value), _num(m.low), _num(m.high), _num(e.mean_std_error), "", ""])
        blocks.append(f"AUC(t) of {name} ({RISK})\n" + _text_table([head] + rows, left=1))
    where = ("the 10%, 25%, 50% and 75% quantiles of the observed event times, rounded (--times auto)"
             if ta.how == "auto" else "the times of --times")
    notes = [f"AUC(t) at {where}: cumulative cases (events by t, each weighted by 1/G(T-), G the Kaplan-Meier "
             f"estimate of the censoring), dynamic controls (followed beyond t); tied risks count 1/2",
             "mean: AUC(t) weighted by the drop of the Kaplan-Meier survival up to each time (weights held fixed); "
             "standard errors: i.i.d. representation (Blanche et al. 2013)"
             + (f" over {info['n_clusters']:,} clusters" if "n_clusters" in info else "")
             + "; intervals pointwise, normal, clipped to [0, 1]"]
    if "tau" in info:
        notes.append("--tau truncates the concordance pairs only; it does not apply to AUC(t)")
    return "\n\n".join(blocks) + "\n" + "\n".join(notes) + "\n"


def time_auc_differences_text(ta: TimeAUC) -> str:
    """compare's table of the AUC(t) differences."""
    from ._common import _text_table

    head = ["difference", "time", "estimate", "std. error", "z", "p-value", f"{ta.level:.0%} CI"]
    rows = [[f"{d['a']} - {d['b']}", "mean" if d["time"] is None else f"{d['time']:g}", _signed(d["difference"]),
             _num(d["std_error"]), _num3(d["z"]), _p(d["p_value"]), f"[{_signed(d['low'])}, {_signed(d['high'])}]"]
            for d in ta.differences]
    return (f"AUC(t) differences ({RISK}): two-sided z tests, p-values not adjusted for the times or pairs\n"
            + _text_table([head] + rows) + "\n")


def _signed(x: float) -> str:
    return "nan" if x != x else f"{x:+.4f}"


def _num3(x: float) -> str:
    return "nan" if x != x else f"{x:.3f}"


def _p(x: float) -> str:
    return "nan" if x != x else ("< 0.0001" if x < 1e-4 else f"{x:.4f}")


#: The CSV's columns after each row's own: the rows' description (clusters, strata and
#: tau when given).
_INFO_COLUMNS = ("time_column", "event_column", "event_value", "risk_scores", "n", "n_events")


def _info_columns(info: dict) -> list[str]:
    return [*_INFO_COLUMNS, *(k for k in ("n_clusters", "strata_column", "tau") if k in info)]


def _csv(keys: list[str], rows: list[list], info: dict) -> str:
    from ._common import _csv_cell

    cols = _info_columns(info)
    lines = [",".join([*keys, *cols])]
    lines += [",".join(_csv_cell(v) for v in [*r, *(info[c] for c in cols)]) for r in rows]
    return "\n".join(lines) + "\n"


def format_rows(rows: list[dict], fmt: str, level: float, info: dict, curves: TimeAUC | None = None) -> str:
    """evaluate's output on censored times: JSON (``info`` beside ``rows``, and
    ``time_dependent_auc`` with ``--times``), CSV (the description as further columns; with
    ``--times`` the column ``concordance`` is ``criterion`` and the AUC(t) rows follow) or
    a table with the direction above it and the description under it."""
    from ._common import _text_table, json_text

    if fmt == "json":
        return json_text({**info, "rows": rows, **({} if curves is None else
                                                   {"time_dependent_auc": time_auc_json(curves)})})
    keys = ["score", "concordance", "value", "low", "high", "std_error", "method", "comparable"]
    if fmt == "csv":
        if curves is None:
            return _csv(keys, [[r[k] for k in keys] for r in rows], info)
        cs = [[r["score"], r["concordance"], "", r["value"], r["low"], r["high"], r["std_error"], r["method"],
               r["comparable"], "", ""] for r in rows]
        return _csv(_TIME_KEYS, cs + time_auc_csv_rows(curves), info)
    head = ["score", "C", "value", f"{level:.0%} CI low", "high", "std. error", "comparable pairs"]
    table = [head] + [[r["score"], NAMES[r["concordance"]], _num(r["value"]), _num(r["low"]), _num(r["high"]),
                       _num(r["std_error"]), _count(r["comparable"])] for r in rows]
    return (f"concordance of each risk score with the censored times ({RISK})\n" + _text_table(table) + "\n"
            + method_note(info, sorted({r["concordance"] for r in rows}, key=list(NAMES).index))
            + ("" if curves is None else "\n" + time_auc_text(curves, info)) + counts(info))


def _num(x: float) -> str:
    return "nan" if x != x else f"{x:.4f}"


def _count(x: float) -> str:
    """A number of pairs (a weight total for weighted pairs)."""
    from ..stats.blocks import fmt_count

    if x != x:
        return "nan"
    return f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e15 else fmt_count(x)


def method_note(info: dict, weightings) -> str:
    """The lines on how the Cs and their standard errors are computed."""
    lines = []
    if "harrell" in weightings:
        lines.append("Harrell's C: every comparable pair alike (an event before a later follow-up; tied risks "
                     "count 1/2, tied event times are not comparable)")
    if "uno" in weightings:
        lines.append("Uno's C: each pair weighted by 1/G(t-)^2, G the Kaplan-Meier estimate of the censoring at "
                     "the earlier time t (Uno et al. 2011" + ("; G within each stratum" if "strata_column" in info
                                                              else "") + ")")
    if "tau" in info:
        lines.append(f"pairs truncated at tau = {info['tau']:g}: the earlier follow-up ends by tau")
    if "strata_column" in info:
        lines.append(f"pairs within strata of column {quoted(info['strata_column'])} only "
                     f"({info['n_strata']:,} strata)")
    where = (f" over {info['n_clusters']:,} clusters (cluster-robust)" if "n_clusters" in info else "")
    lines.append(f"standard errors: infinitesimal jackknife{where}, as R survival's concordance")
    return "\n".join(lines) + "\n"


def counts(info: dict) -> str:
    """The footer: the columns, the event's value and the counts."""
    censored = ", ".join(repr(v) for v in info["censored_values"])
    value = info["event_value"]
    what = f"event when = {value!r}" + (f", censored when {censored}" if censored else "")
    clusters = f", clusters = {info['n_clusters']:,}" if "n_clusters" in info else ""
    return (f"time column {quoted(info['time_column'])}, event column {quoted(info['event_column'])} ({shown(what)}): "
            f"n = {info['n']:,}, events = {info['n_events']:,}, censored = {info['n_censored']:,}{clusters}\n")


# --- compare ----------------------------------------------------------------------------------

def compare(args) -> int:
    """``rankwise compare --time COL --event COL``: for each C, the joint comparison of the
    score columns (:func:`rankwise.survival.compare`)."""
    from .. import survival
    from ._common import _comparison_dict, _emit, json_text, output_path

    if len(args.score) < 2:
        raise CLIError("compare needs at least two --score columns")
    output_path(args.out, args.force, [args.file])
    data = read(args)
    reference = None
    if args.reference is not None:
        reference = args.reference if args.reference in data.scores else data.table.resolve(args.reference)
        if reference not in data.scores:
            raise CLIError(f"--reference {args.reference!r} is not one of the --score columns "
                           f"({', '.join(data.scores)})")
    curves = time_auc(data, args.level, differences=True, reference=reference)
    with library_messages():
        comps = {w: survival.compare(data.time, data.event, data.scores, adjust=args.adjust,
                                     confidence_level=args.level, reference=reference, alternative=args.alternative,
                                     margin=getattr(args, "margin", None),
                                     **data.kw(w)) for w in data.weightings}
    if args.format == "json":
        text = json_text({**data.info, "comparisons": [{"concordance": w, **_comparison_dict(c, "concordance")}
                                                       for w, c in comps.items()],
                          **({} if curves is None else {"time_dependent_auc": time_auc_json(curves)})})
    elif args.format == "csv":
        first = next(iter(comps.values()))
        fields = list(type(first.pairs[0])._fields)
        if curves is None:
            text = _csv(["concordance", *fields], [[w, *p] for w, c in comps.items() for p in c.pairs], data.info)
        else:
            rows = [[w, "", *p] for w, c in comps.items() for p in c.pairs]
            rows += [["auc(t)" if d["time"] is not None else "mean auc(t)", "" if d["time"] is None else d["time"],
                      *(d["z"] if f == "statistic" else d.get(f, "") for f in fields)] for d in curves.differences]
            text = _csv(["criterion", "time", *fields], rows, data.info)
    else:
        parts = [f"{NAMES[w]} of each risk score ({RISK}), compared\n" + c.summary() + "\n"
                 for w, c in comps.items()]
        if curves is not None:
            parts.append(time_auc_text(curves, data.info) + "\n" + time_auc_differences_text(curves))
        text = "\n".join(parts) + method_note(data.info, data.weightings) + counts(data.info)
    _emit(text, args.out, args.force, [args.file], data=args.format != "table")
    return 0


# --- report -----------------------------------------------------------------------------------

def report(args) -> int:
    """``rankwise report --time COL --event COL``: the page with the survival section."""
    import os

    from ..io import file_fingerprint
    from ..report import output_paths, write_report
    from ._common import Ticker, _check_resamples, command_line, output_path, say, stage_lines, stdin_file
    from ._demo import check_writable_folder

    _check_resamples(args.resamples)
    for path in output_paths(args.out, kind="censored"):
        output_path(path, args.force, [args.file])
    for folder in dict.fromkeys(os.path.dirname(p) or "." for p in output_paths(args.out, kind="censored")):
        check_writable_folder(folder)
    if not args.score:
        raise CLIError("report needs at least one --score column (a risk score: higher = earlier event)")
    data = read(args)
    info = data.info
    if args.reference is not None and args.reference not in data.scores:
        raise CLIError(f"--reference {args.reference!r} is not one of the scorers: {', '.join(data.scores)}")
    quiet = getattr(args, "quiet", False)
    with Ticker("report", quiet) as ticker:
        name = "standard input" if args.file == "-" else os.path.basename(args.file)
        source = file_fingerprint(stdin_file() if args.file == "-" else args.file, name=name)
        source.update(time=info["time_column"], event=info["event_column"], event_value=str(info["event_value"]))
        if data.clusters is not None:
            source.update(clusters=data.cluster_column)
        if data.strata is not None:
            source.update(strata=data.strata.name)
        with library_messages():
            res = write_report(args.out, title=args.title or f"rankwise report: {name}", scores=data.scores,
                               time=data.time, event=data.event, tau=data.tau, concordance=data.weightings,
                               times="auto" if data.times is None else data.times,
                               reference=args.reference, data=source, command=command_line(args),
                               n_resamples=args.resamples, random_state=args.seed, force=args.force,
                               progress=stage_lines("report", quiet, ticker),
                               **({} if data.strata is None else {"strata": data.strata.codes}),
                               **({} if data.clusters is None else {"clusters": data.clusters[0]}))
    say(f"report: {args.out}\n")
    return 0 if res is not None else 1

