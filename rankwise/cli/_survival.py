"""``--time COL --event COL``: ``evaluate``, ``compare`` and ``report`` on censored times.

With a time column and an event column instead of ``--label``, every ``--score`` column is
a **risk score: higher risk = earlier event** (never flipped; every output says so), and
the criterion is the concordance index of :mod:`rankwise.survival`: Harrell's C and Uno's
C (``--concordance``), each with its infinitesimal-jackknife standard error and interval,
``n``, the events and the comparable pairs; ``compare`` gives the joint comparison of
:func:`rankwise.survival.compare` (every difference with its test, Holm-adjusted p-values)
for each C. ``--strata`` keeps the pairs within strata, ``--cluster`` takes the standard
errors over clusters, ``--tau`` truncates the pairs at a time.

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
        for attr, option in (("event_value", "--event-value"), ("tau", "--tau"), ("concordance", "--concordance")):
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
    return None


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
                    cluster_column=None if clusters is None else table.resolve(args.cluster))


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
            raise CLIError(str(exc).replace("Pass tau= ", "Pass --tau ")) from exc
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
    """``rankwise evaluate --time COL --event COL``."""
    from ._common import _emit, output_path

    output_path(args.out, args.force, [args.file])
    data = read(args)
    rows = estimate_rows(data, args.level)
    _emit(format_rows(rows, args.format, args.level, data.info), args.out, args.force, [args.file],
          data=args.format != "table")
    return 0


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


def format_rows(rows: list[dict], fmt: str, level: float, info: dict) -> str:
    """evaluate's output on censored times: JSON (``info`` beside ``rows``), CSV (the
    description as further columns) or a table with the direction above it and the
    description under it."""
    from ._common import _text_table, json_text

    if fmt == "json":
        return json_text({**info, "rows": rows})
    keys = ["score", "concordance", "value", "low", "high", "std_error", "method", "comparable"]
    if fmt == "csv":
        return _csv(keys, [[r[k] for k in keys] for r in rows], info)
    head = ["score", "C", "value", f"{level:.0%} CI low", "high", "std. error", "comparable pairs"]
    table = [head] + [[r["score"], NAMES[r["concordance"]], _num(r["value"]), _num(r["low"]), _num(r["high"]),
                       _num(r["std_error"]), _count(r["comparable"])] for r in rows]
    return (f"concordance of each risk score with the censored times ({RISK})\n" + _text_table(table) + "\n"
            + method_note(info, sorted({r["concordance"] for r in rows}, key=list(NAMES).index)) + counts(info))


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
    with library_messages():
        comps = {w: survival.compare(data.time, data.event, data.scores, adjust=args.adjust,
                                     confidence_level=args.level, reference=reference, alternative=args.alternative,
                                     **data.kw(w)) for w in data.weightings}
    if args.format == "json":
        text = json_text({**data.info, "comparisons": [{"concordance": w, **_comparison_dict(c, "concordance")}
                                                       for w, c in comps.items()]})
    elif args.format == "csv":
        first = next(iter(comps.values()))
        fields = list(type(first.pairs[0])._fields)
        text = _csv(["concordance", *fields], [[w, *p] for w, c in comps.items() for p in c.pairs], data.info)
    else:
        parts = [f"{NAMES[w]} of each risk score ({RISK}), compared\n" + c.summary() + "\n"
                 for w, c in comps.items()]
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
    for path in output_paths(args.out):
        output_path(path, args.force, [args.file])
    for folder in dict.fromkeys(os.path.dirname(p) or "." for p in output_paths(args.out)):
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
        res = write_report(args.out, title=args.title or f"rankwise report: {name}", scores=data.scores,
                           time=data.time, event=data.event, tau=data.tau, concordance=data.weightings,
                           reference=args.reference, data=source, command=command_line(args),
                           n_resamples=args.resamples, random_state=args.seed, force=args.force,
                           progress=stage_lines("report", quiet, ticker),
                           **({} if data.strata is None else {"strata": data.strata.codes}),
                           **({} if data.clusters is None else {"clusters": data.clusters[0]}))
    say(f"report: {args.out}\n")
    return 0 if res is not None else 1

