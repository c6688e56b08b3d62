"""``--scores`` with ``--classes`` (several classes) and ``--score`` with ``--order`` (ordered
classes): ``evaluate``, ``compare`` and ``report`` on a label column with K classes.

Several classes: ``--scores [NAME=]COL,COL,...`` names one model's probability columns, one
per class, in the order of ``--classes A,B,C`` (default: the label column's distinct values,
sorted); repeat ``--scores`` for several models. The criterion is the multiclass AUC of
:func:`rankwise.multiclass_auc` (``--multi-class ovr|ovo``, ``--average
macro|weighted|micro``; one-vs-rest macro by default, Hand & Till's M is ``--multi-class ovo``)
with its K-sample DeLong standard error and interval (:func:`rankwise.stats.estimate`), and
each class's one-vs-rest AUC (or each pair's one-vs-one AUC) with its own interval;
``compare`` gives :func:`rankwise.stats.compare` of the models (every difference with its
test, adjusted p-values, the global test).

Ordered classes: ``--score COL`` (one score a row, higher = a higher class) with ``--order
LOW,MID,HIGH``: the volume under the ROC surface (three classes) or the hypervolume (more)
of :func:`rankwise.vus` with its standard error and interval, and the AUC of each pair of
consecutive classes.

The label column is read as the binary commands read it: a class is matched to
``--classes``/``--order`` as ``--pos-label`` is (the same text, or the same number: ``1``
names the label read as 1.0); a missing label or score is a one-line error naming the
column and the rows, and so is a label that is not one of ``--classes``, a class of
``--classes`` with no row, and a row of probabilities that does not sum to 1 (the rule of
:func:`rankwise.multiclass_auc`, scikit-learn's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .._text import quoted, shown
from ._common import CLIError

MULTI_CLASS = ("ovr", "ovo")
AVERAGES = ("macro", "weighted", "micro")

SCORES_HELP = ("several classes: one model's probability columns, one per class in the order of --classes, "
               "comma-separated, optionally named: --scores A=p_a,p_b,p_c (repeat for several models; compare "
               "needs two or more). Each row must sum to 1. The criterion is the multiclass AUC (--multi-class, "
               "--average) with its K-sample DeLong standard error, and each class's (or pair's) AUC with its "
               "interval")
CLASSES_HELP = ("with --scores: the classes of the probability columns, in their order, comma-separated, as "
                "written in the label column (a number matches the same number: 1 names 1.0). Default: the label "
                "column's distinct values, sorted; their number must equal the number of columns. Every row's "
                "label must be one of them, and every class needs rows")
MULTI_CLASS_HELP = ("with --scores: ovr (each class against the rest, default) or ovo (each pair of classes; with "
                    "--average macro it is Hand & Till's M)")
AVERAGE_HELP = ("with --scores: macro (the plain mean over classes or pairs, default), weighted (by the class "
                "prevalences) or micro (all (row, class) entries pooled; ovr only)")
ORDER_HELP = ("ordered classes: the label column's classes from lowest to highest, comma-separated (e.g. "
              "low,mid,high), matched as --classes; each --score is one score a row, higher = a higher class, and "
              "the criterion is the volume under the ROC surface (3 classes; the hypervolume for more) with its "
              "standard error, and the AUC of each pair of consecutive classes")

#: Options with no meaning here: (attribute, option, why).
_NOT_WITH = (
    ("time", "--time", "--time/--event are for censored times"),
    ("event", "--event", "--time/--event are for censored times"),
    ("pos_label", "--pos-label", "the classes are named by --classes or --order"),
    ("group", "--group", "there is no section by group for several classes yet"),
    ("reference_group", "--reference-group", "there is no section by group for several classes yet"),
    ("strata", "--strata", "the stratified AUC is for binary labels"),
    ("weighting", "--weighting", "it weights the strata of the stratified AUC"),
    ("criteria", "--criteria", "the criterion is the multiclass AUC (--multi-class, --average) or, with --order, "
                               "the VUS"),
    ("criterion", "--criterion", "the criterion is the multiclass AUC (--multi-class, --average) or, with "
                                 "--order, the VUS"),
    ("rank_by", "--rank-by", "the scorers are listed by the criterion"),
    ("model", "--model", "score the rows first and give the probability columns as --scores (or the score as "
                         "--score with --order)"),
)


def add_arguments(p) -> None:
    """``--scores``, ``--classes``, ``--multi-class``, ``--average`` and ``--order`` of
    evaluate, compare and report."""
    g = p.add_argument_group("several classes (--scores) or ordered classes (--order), with --label")
    g.add_argument("--scores", action="append", default=[], metavar="[NAME=]COL,COL,...", help=SCORES_HELP)
    g.add_argument("--classes", metavar="A,B,C", help=CLASSES_HELP)
    g.add_argument("--multi-class", choices=list(MULTI_CLASS), default=None, help=MULTI_CLASS_HELP)
    g.add_argument("--average", choices=list(AVERAGES), default=None, help=AVERAGE_HELP)
    g.add_argument("--order", metavar="LOW,...,HIGH", help=ORDER_HELP)


def wanted(args) -> bool:
    """Whether the command runs on several classes or ordered classes."""
    return bool(getattr(args, "scores", None)) or any(
        getattr(args, a, None) is not None for a in ("classes", "order", "multi_class", "average"))


def usage(args) -> str | None:
    """What is wrong with the options of several classes or ordered classes (one line, exit
    status 2), before any file is read; None when nothing is. Also the ``--score`` that
    evaluate and compare need otherwise."""
    if not hasattr(args, "scores"):
        return None
    if not wanted(args):
        if args.command in ("evaluate", "compare") and not args.score:
            return ("the following arguments are required: --score (or --scores COL,COL,... for several classes)")
        return None
    if args.label is None:
        return "--scores and --order need --label COL: the column of each row's class"
    if getattr(args, "dask", False) or getattr(args, "scheduler", None):
        return (f"several classes are not supported with {'--dask' if args.dask else '--scheduler'} yet; drop it "
                f"(10^6 rows take seconds on one machine)")
    for attr, option, why in _NOT_WITH:
        value = getattr(args, attr, None)
        if value is not None and value != []:
            return f"{option} is not used with {'--order' if args.order is not None else '--scores'}: {why}"
    if getattr(args, "ci", None) == "hajek":
        return ("--ci hajek is for the binary criteria: here the intervals are the K-sample DeLong's (--ci delong, "
                "the default) or the bootstrap's within each class (--ci bootstrap)")
    if args.order is not None:
        for attr, option in (("scores", "--scores"), ("classes", "--classes"), ("multi_class", "--multi-class"),
                             ("average", "--average")):
            if getattr(args, attr) not in (None, []):
                return (f"--order (ordered classes, one --score each) does not combine with {option} (several "
                        f"unordered classes, one probability column each)")
        if not args.score:
            return "--order needs --score COL: one score a row, higher = a higher class"
        return None
    if not args.scores:
        given = next(o for a, o in (("classes", "--classes"), ("multi_class", "--multi-class"),
                                    ("average", "--average")) if getattr(args, a) is not None)
        return f"{given} goes with --scores COL,COL,... (one probability column per class)"
    if args.score:
        return ("--score is one score column: with several classes give the probability columns as --scores "
                "COL,COL,... (or --order LOW,...,HIGH with --score for ordered classes)")
    if args.average == "micro" and args.multi_class == "ovo":
        return "--average micro is defined for --multi-class ovr only"
    return None


# --- parsing ----------------------------------------------------------------------------------

def split_list(text: str, option: str) -> list[str]:
    """``a,b,c`` -> ``["a", "b", "c"]``: at least two, none empty, none repeated."""
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        raise CLIError(f"{option} takes comma-separated values, none empty; got {text!r}")
    seen = set()
    for p in parts:
        if p in seen:
            raise CLIError(f"{option} lists {p!r} twice")
        seen.add(p)
    if len(parts) < 2:
        raise CLIError(f"{option} needs at least two classes; got {text!r}")
    return parts


def parse_scores(specs: list[str]) -> list[tuple[str, list[str]]]:
    """``--scores`` specs -> ``[(name, [columns])]``: ``NAME=c1,c2,...`` or ``c1,c2,...``
    (then named by its columns as written)."""
    out = []
    for spec in specs:
        name, cols = None, spec
        if "=" in spec:
            name, cols = spec.split("=", 1)
            name = name.strip()
            if not name:
                raise CLIError(f"--scores {spec!r}: the name before '=' is empty")
        parts = [c.strip() for c in cols.split(",")]
        if not all(parts) or len(parts) < 2:
            raise CLIError(f"--scores takes one probability column per class, comma-separated (at least two), "
                           f"optionally named: NAME=COL,COL,...; got {spec!r}")
        out.append((name if name is not None else ",".join(parts), parts))
    names = [n for n, _ in out]
    for n in names:
        if names.count(n) > 1:
            raise CLIError(f"two --scores have the same name {n!r}; name them: --scores A=... --scores B=...")
    return out


# --- the rows ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Classes:
    """The rows of a command on several classes or ordered classes, checked: ``codes``
    (each row's class, ``0 .. K-1``), ``names`` (the classes as the outputs write them, in
    the columns' order or lowest first), ``scores`` ({model: (n, K) matrix or (n,)
    score}), ``columns`` ({model: its columns}), ``clusters`` (``(codes, n)`` or None) and
    ``info`` (what every output states)."""

    ordinal: bool
    codes: Any
    names: list
    scores: dict
    columns: dict
    clusters: Any
    multi_class: str | None
    average: str | None
    info: dict
    table: Any = None
    label: str = ""
    cluster_column: str | None = None

    @property
    def K(self) -> int:
        return len(self.names)

    @property
    def criterion(self) -> str:
        return "vus" if self.ordinal else "multiclass_auc"

    def params(self) -> dict:
        """The keywords of :func:`rankwise.stats.estimate` and ``compare`` (the classes as
        the codes 0 .. K-1; the outputs name them)."""
        kw: dict = {"labels": list(range(self.K))}
        if not self.ordinal:
            kw.update(multi_class=self.multi_class, average=self.average)
        if self.clusters is not None:
            kw["clusters"] = self.clusters[0]
        return kw

    def criterion_name(self) -> str:
        """The criterion's name in the outputs (the report's words)."""
        if self.ordinal:
            return {2: "AUC", 3: "VUS"}.get(self.K, "HUM")
        if self.multi_class == "ovo" and self.average == "macro":
            return "M (Hand & Till, one-vs-one macro AUC)"
        return f"{'one-vs-rest' if self.multi_class == 'ovr' else 'one-vs-one'} {self.average} AUC"


def read(args) -> Classes:
    """The label, score and cluster columns of ``args.file``, checked (one-line errors
    naming the column and the 1-based rows)."""
    import numpy as np

    from ._common import _read, cluster_ids

    ordinal = args.order is not None
    given = split_list(args.order, "--order") if ordinal else (
        split_list(args.classes, "--classes") if args.classes is not None else None)
    specs = [(c, [c]) for c in args.score] if ordinal else parse_scores(args.scores)
    wanted_cols = [c for _, cols in specs for c in cols]
    table = _read(args.file, [args.label, *wanted_cols])
    label = table.resolve(args.label)
    columns: dict = {}
    for name, cols in specs:
        resolved = [table.resolve(c) for c in cols]
        if label in resolved:
            raise CLIError(f"{'--score' if ordinal else '--scores'} names the label column {quoted(label)}; a score "
                           "needs a column of its own")
        if len(set(resolved)) != len(resolved):
            raise CLIError(f"--scores {shown(name)} names a column twice: {', '.join(map(shown, cols))}")
        columns[resolved[0] if ordinal else name] = resolved
    if ordinal and len(columns) != len(specs):
        raise CLIError(f"a score column is given twice: {', '.join(map(shown, args.score))}")
    if not ordinal:
        counts = {len(c) for c in columns.values()}
        if len(counts) > 1:
            raise CLIError("every --scores needs one column per class; they name " + ", ".join(
                f"{len(c)} ({shown(n)})" for n, c in columns.items()))
    k_cols = None if ordinal else len(next(iter(columns.values())))
    if given is not None and k_cols is not None and len(given) != k_cols:
        first = next(iter(columns))
        raise CLIError(f"--classes names {len(given)} classes but --scores {shown(first)} names {k_cols} columns; "
                       f"give one probability column per class, in the order of --classes")
    codes, names = class_codes(table, label, given, "--order" if ordinal else "--classes", k_cols,
                               next(iter(columns)) if not ordinal else None)
    if given is None and not ordinal:
        for model, cols in columns.items():
            _check_column_names(model, cols, names)
    if ordinal:
        scores = {n: table.scores(cols[0]) for n, cols in columns.items()}
    else:
        scores = {n: np.column_stack([table.numeric(c) for c in cols]) for n, cols in columns.items()}
    used = {label: "the label column", **{c: "a score column" for cols in columns.values() for c in cols}}
    clusters = cluster_ids(table, args.cluster, used)
    sizes = np.bincount(codes, minlength=len(names))
    mc = None if ordinal else (args.multi_class or "ovr")
    av = None if ordinal else (args.average or "macro")
    info: dict = {"label_column": label, "n": int(codes.shape[0]),
                  ("order" if ordinal else "classes"): list(names), "class_sizes": [int(k) for k in sizes]}
    if clusters is not None:
        info["n_clusters"] = int(clusters[1])
    data = Classes(ordinal=ordinal, codes=codes, names=list(names), scores=scores, columns=columns, clusters=clusters,
                   multi_class=mc, average=av, info=info, table=table, label=label,
                   cluster_column=None if clusters is None else table.resolve(args.cluster))
    if not ordinal:
        check_probabilities(data)
    return data


def _named_class(column: str, names: list[str]) -> list[int]:
    """The classes whose name ends (or starts) the column's name, set off by a separator
    or the whole name: ``p_low`` -> low."""
    col = column.lower()
    hits = []
    for j, c in enumerate(names):
        c = c.lower()
        if col == c or (col.endswith(c) and not col[-len(c) - 1].isalnum()) or (
                col.startswith(c) and not col[len(c)].isalnum()):
            hits.append(j)
    return hits


def _check_column_names(model: str, cols: list[str], names: list[str]) -> None:
    """Without ``--classes`` the columns are taken in the sorted order of the labels: when
    the columns are visibly named by class in another order, a one-line error (the
    classes would be paired with other classes' probabilities)."""
    found = [_named_class(c, names) for c in cols]
    if not all(len(h) == 1 for h in found):
        return
    order = [h[0] for h in found]
    if sorted(order) != list(range(len(names))) or order == list(range(len(names))):
        return
    pairs = ", ".join(f"{c} -> {names[j]}" for c, j in zip(cols, order))
    raise CLIError(f"--scores {shown(model)}: the columns look named by class ({pairs}), but without --classes they "
                   f"are taken in the sorted order of the labels ({', '.join(names)}); give --classes "
                   f"{','.join(names[j] for j in order)}")


def _plain(v):
    import numpy as np

    return v.item() if isinstance(v, np.generic) else v


def _sort_key(values: list):
    """Numbers by value, anything else as text."""
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return lambda i: values[i]
    return lambda i: str(values[i])


def class_codes(table, label: str, given: list[str] | None, option: str, n_columns: int | None,
                model: str | None) -> tuple:
    """``(codes, names)``: each row's class ``0 .. K-1`` (intp) and the classes' names, from
    the label column matched to ``given`` (``--classes``/``--order``; None: the distinct
    values, sorted, whose number must be ``n_columns``). One-line errors: a label not in
    ``given`` (with its rows), a class of ``given`` with no row, a label matching two of
    ``given``, a number of classes that is not the number of columns."""
    import numpy as np

    from ._common import _same_label
    from ._readers import _MAX_LISTED_ROWS, _fmt_rows

    coded = table.label_codes(label)  # text held as codes: decided on the few distinct values
    if coded is not None:
        codes0, values = coded
        values = [_plain(v) for v in values]
    else:
        y = table.labels(label)  # missing values refused with their rows
        try:
            uniq, codes0 = np.unique(y, return_inverse=True)
            values = [_plain(v) for v in uniq]
        except TypeError:  # text and numbers mixed in a binary format: by equality
            index: dict = {}
            codes0 = np.fromiter((index.setdefault(v, len(index)) for v in y), dtype=np.intp, count=y.shape[0])
            values = [_plain(v) for v in index]
    codes0 = np.asarray(codes0).reshape(-1)
    where = f"column {quoted(label)}"
    if given is None:
        order = sorted(range(len(values)), key=_sort_key(values))
        names = [str(values[i]) for i in order]
        if n_columns is not None and len(values) != n_columns:
            listed = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            raise CLIError(f"the label {where} holds {len(values)} classes ({listed}) but --scores {shown(model)} "
                           f"names {n_columns} columns; give one probability column per class and --classes in the "
                           f"order of the columns")
        if len(values) < 2:
            raise CLIError(f"the label {where} holds one class only ({names[0]!r}); several classes are needed")
        mapping = np.empty(len(values), dtype=np.intp)
        mapping[order] = np.arange(len(values))
    else:
        mapping = np.full(len(values), -1, dtype=np.intp)
        unknown = []
        for i, v in enumerate(values):
            hits = [j for j, g in enumerate(given) if _same_label(v, g)]
            if len(hits) > 1:
                raise CLIError(f"the label {v!r} of {where} matches {len(hits)} classes of {option}: "
                               f"{', '.join(given[j] for j in hits)}")
            if hits:
                mapping[i] = hits[0]
            else:
                unknown.append(i)
        if unknown:
            rows = np.flatnonzero(np.isin(codes0, unknown))
            shown_values = ", ".join(repr(values[i]) for i in unknown[:6]) + (", ..." if len(unknown) > 6 else "")
            raise CLIError(f"{where} holds label(s) {shown_values} not in {option} ({', '.join(given)}) at rows "
                           f"{_fmt_rows(rows[:_MAX_LISTED_ROWS] + 1, rows.shape[0])}; every row's class must be one "
                           f"of {option}")
        absent = [g for j, g in enumerate(given) if j not in set(mapping.tolist())]
        if absent:
            present = ", ".join(str(values[i]) for i in sorted(range(len(values)), key=_sort_key(values)))
            raise CLIError(f"{option} class(es) {', '.join(map(repr, absent))} have no row in {where} (its values: "
                           f"{present}); every class needs rows")
        names = list(given)
    return mapping[codes0], names


def check_probabilities(data: Classes) -> None:
    """Every model's rows sum to 1 over the classes, checked before any work: the rule of
    :func:`rankwise.multiclass_auc` (scikit-learn's; ``np.isclose``), which the library
    applies again when it computes."""
    from ..metrics.blocks import PROBABILITY_RULE, rows_off_one

    for name, S in data.scores.items():
        off = rows_off_one(S)
        if off is not None:
            bad, sums = off
            raise CLIError(f"the columns of --scores {shown(name)} ({', '.join(data.columns[name])}) must hold "
                           f"probabilities: {PROBABILITY_RULE}; {bad.size:,} row(s) do not (first at row "
                           f"{bad[0] + 1}, sum {float(sums[bad[0]])!r})")


class library_messages:
    """``with library_messages(data, model):`` a ValueError of the library in the command
    line's words: ``--scores NAME (columns)`` for the parameter ``y_score``, rows counted
    from 1."""

    def __init__(self, data: Classes | None = None, model: str | None = None):
        self.data, self.model = data, model

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is None or not issubclass(kind, ValueError) or isinstance(exc, CLIError):
            return False
        text = re.sub(r"^write_report: scores\[.*?\]: ", "", str(exc))
        if self.data is not None and self.model is not None:
            cols = ", ".join(self.data.columns[self.model])
            what = (f"the score --score {self.model}" if self.data.ordinal
                    else f"the columns of --scores {self.model} ({cols})")
            text = text.replace("The 'y_score' argument", what)
            text = re.sub(r"first at (?:index|row) (\d+)", lambda m: f"first at row {int(m.group(1)) + 1}", text)
        text = re.sub(r"np\.\w+\(([^()]*)\)", r"\1", text)  # a NumPy scalar's repr, as its number
        raise CLIError(text) from exc


# --- numbers ----------------------------------------------------------------------------------

def _component_names(data: Classes, est) -> list[str]:
    """The estimate's components (classes coded 0 .. K-1) under the classes' names."""
    out = []
    for c in est.components:
        if " vs " in c:
            a, b = c.split(" vs ")
            out.append(f"{data.names[int(a)]} vs {data.names[int(b)]}")
        else:
            out.append(data.names[int(c)])
    return out


def component_kind(data: Classes) -> str:
    """What the components of the outputs are: ``class`` (one-vs-rest), ``pair``
    (one-vs-one), ``consecutive`` (ordered classes) or None (micro)."""
    if data.ordinal:
        return "consecutive" if data.K > 2 else None
    if data.average == "micro":
        return None
    return "class" if data.multi_class == "ovr" else "pair"


def _interval_row(est, level: float, **kw) -> dict:
    """An estimate's value, standard error, interval and the interval's method (a
    degenerate interval is said by its value: nan, or a point)."""
    import warnings

    from ..stats import DegenerateIntervalWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateIntervalWarning)
        ci = est.confidence_interval(level, **kw)
    return {"value": float(est.value), "low": float(ci.low), "high": float(ci.high),
            "std_error": float(est.std_error), "method": ci.method}


def _consecutive(data: Classes, score, level: float) -> list[dict]:
    """The AUC of each pair of consecutive ordered classes, the higher over the lower, on
    their rows only (DeLong; over clusters with --cluster)."""
    import numpy as np

    from .. import stats

    out = []
    for k in range(data.K - 1):
        sel = (data.codes == k) | (data.codes == k + 1)
        kw = {} if data.clusters is None else {"clusters": data.clusters[0][sel]}
        est = stats.estimate(data.codes[sel] == k + 1, np.asarray(score)[sel], "auc", **kw)
        out.append(_interval_row(est, level))
    return out


def estimate_rows(data: Classes, args) -> list[dict]:
    """One row a model: the criterion with its interval, standard error and method, and
    its components (each class, pair or pair of consecutive classes) with theirs."""
    from .. import metrics, stats

    level, ci = args.level, args.ci
    rows = []
    kw = data.params()
    for name, S in data.scores.items():
        row: dict = {"score": name, "columns": list(data.columns[name]), "criterion": data.criterion}
        with library_messages(data, name):
            if ci == "none":
                value = (metrics.vus(data.codes, S, labels=kw["labels"]) if data.ordinal else
                         metrics.multiclass_auc(data.codes, S, multi_class=data.multi_class, average=data.average,
                                                labels=kw["labels"]))
                row["value"] = float(value)
                rows.append(row)
                continue
            est = stats.estimate(data.codes, S, criterion=data.criterion, **kw)
        row.update(_interval_row(est, level, **({"method": "bootstrap", "n_resamples": args.resamples,
                                                  "random_state": args.seed} if ci == "bootstrap" else {})))
        if data.average == "weighted":
            row["std_error_prevalence"] = float(est.std_error_prevalence)
        what = component_kind(data)
        if data.ordinal and what is not None:
            comps = _consecutive(data, S, level)
            labels = [f"{data.names[k + 1]} over {data.names[k]}" for k in range(data.K - 1)]
        elif what is not None:
            cis = est.component_intervals(level)
            comps = [{"value": float(v), "low": float(lo), "high": float(hi), "std_error": float(se),
                      "method": "delong"}
                     for v, se, (lo, hi) in zip(est.component_values, est.component_std_errors, cis)]
            labels = _component_names(data, est)
        else:
            comps, labels = [], []
        row["components"] = [{what: lab, **c} for lab, c in zip(labels, comps)]
        rows.append(row)
    return rows


# --- outputs ----------------------------------------------------------------------------------

def _num(x: float) -> str:
    return "nan" if x != x else f"{x:.4f}"


def describe(data: Classes) -> dict:
    """The criterion's fields of the JSON outputs."""
    out: dict = {"criterion": data.criterion, "criterion_name": data.criterion_name()}
    if not data.ordinal:
        out.update(multi_class=data.multi_class, average=data.average)
    return out


def method_note(data: Classes, ci: str | None = None, components: bool = True) -> str:
    """The lines on how the numbers are computed (``components``: the outputs show each
    class's, pair's or pair of consecutive classes' AUC)."""
    import math

    lines = []
    if data.ordinal:
        chain = " < ".join(data.names)
        lines.append(f"{data.criterion_name()}: the share of chains of one row per class ({chain}) whose scores rise "
                     f"along the chain; tied scores count by the share of tie-breakings that order the chain; a "
                     f"random score gives 1/{data.K}! = {1 / math.factorial(data.K):.4g}")
    else:
        lines.append(f"{data.criterion_name()} over the classes {', '.join(data.names)} (probability columns in this "
                     f"order); tied probabilities count 1/2")
    if ci != "none":
        where = f" over {data.info['n_clusters']:,} clusters (cluster-robust)" if "n_clusters" in data.info else ""
        lines.append(f"standard errors: K-sample DeLong{where}; intervals: "
                     + ("bootstrap within each class (BCa) for the criterion, DeLong for its components"
                        if ci == "bootstrap" else "DeLong (normal, clipped to [0, 1])")
                     + ("; the components' intervals are not adjusted for multiplicity"
                        if components and component_kind(data) is not None else ""))
    return "\n".join(lines) + "\n"


def counts(data: Classes) -> str:
    sizes = ", ".join(f"{c}: {k:,}" for c, k in zip(data.names, data.info["class_sizes"]))
    clusters = f", clusters = {data.info['n_clusters']:,}" if "n_clusters" in data.info else ""
    return f"label column {quoted(data.label)}: n = {data.info['n']:,} ({sizes}){clusters}\n"


_CSV_KEYS = ["score", "criterion", "component", "value", "low", "high", "std_error", "method"]


def _csv(keys: list[str], rows: list[list], info: dict) -> str:
    from ._common import _csv_cell

    cols = ["label_column", "n", *(["n_clusters"] if "n_clusters" in info else [])]
    lines = [",".join([*keys, *cols])]
    lines += [",".join(_csv_cell(v) for v in [*r, *(info[c] for c in cols)]) for r in rows]
    return "\n".join(lines) + "\n"


def format_rows(data: Classes, rows: list[dict], fmt: str, level: float, ci: str | None) -> str:
    """evaluate's output: JSON (the description beside ``rows``), CSV (one line for each
    model's criterion and one for each component) or tables with notes."""
    from ._common import _text_table, json_text

    if fmt == "json":
        return json_text({**describe(data), **data.info, "confidence_level": level, "rows": rows})
    what = component_kind(data)
    comp_crit = {"class": "ovr auc", "pair": "ovo auc", "consecutive": "consecutive auc"}.get(what)
    if fmt == "csv":
        out = []
        for r in rows:
            out.append([r["score"], r["criterion"], "", r["value"], r.get("low", ""), r.get("high", ""),
                        r.get("std_error", ""), r.get("method", "")])
            for c in r.get("components", []):
                out.append([r["score"], comp_crit, c[what], c["value"], c["low"], c["high"], c["std_error"],
                            c["method"]])
        return _csv(_CSV_KEYS, out, data.info)
    name = data.criterion_name()
    if ci == "none":
        table = [["score", name]] + [[r["score"], _num(r["value"])] for r in rows]
    else:
        table = [["score", "value", f"{level:.0%} CI low", "high", "std. error", "method"]]
        table += [[r["score"], _num(r["value"]), _num(r["low"]), _num(r["high"]), _num(r["std_error"]), r["method"]]
                  for r in rows]
    parts = [f"{name} of each model\n" + _text_table(table, left=1) + "\n"]
    if what is not None and ci != "none":
        title = {"class": "each class against the rest (one-vs-rest AUC)",
                 "pair": "each pair of classes (one-vs-one AUC, Hand & Till's A(a, b))",
                 "consecutive": "each pair of consecutive classes (AUC of the higher over the lower, on their rows)"
                 }[what]
        head = ["score", "class" if what == "class" else "classes", "AUC", f"{level:.0%} CI low", "high",
                "std. error"]
        comp = [head] + [[r["score"], c[what], _num(c["value"]), _num(c["low"]), _num(c["high"]),
                          _num(c["std_error"])] for r in rows for c in r["components"]]
        parts.append(title + "\n" + _text_table(comp) + "\n")
    return "\n".join(parts) + "\n" + method_note(data, ci) + counts(data)


# --- commands ---------------------------------------------------------------------------------

def evaluate(args) -> int:
    """``rankwise evaluate --label COL --scores ... | --score COL --order ...``."""
    from ._common import _check_resamples, _emit, output_path

    _check_resamples(args.resamples)
    output_path(args.out, args.force, [args.file])
    data = read(args)
    rows = estimate_rows(data, args)
    _emit(format_rows(data, rows, args.format, args.level, args.ci), args.out, args.force, [args.file],
          data=args.format != "table")
    return 0


def _reference(args, data: Classes) -> str | None:
    if args.reference is None:
        return None
    if args.reference in data.scores:
        return args.reference
    if data.ordinal:
        resolved = data.table.resolve(args.reference)
        if resolved in data.scores:
            return resolved
    raise CLIError(f"--reference {args.reference!r} is not one of the models: {', '.join(data.scores)}")


def compare(args) -> int:
    """``rankwise compare``: the joint comparison of the models
    (:func:`rankwise.stats.compare`)."""
    import dataclasses

    from .. import stats
    from ._common import _comparison_dict, _emit, json_text, output_path

    n = len(args.score) if args.order is not None else len(args.scores)
    if n < 2:
        raise CLIError("compare needs at least two models: " + (
            "--score COL --score COL with --order" if args.order is not None else
            "--scores A=COL,COL,... --scores B=COL,COL,..."))
    output_path(args.out, args.force, [args.file])
    data = read(args)
    reference = _reference(args, data)
    with library_messages(data):
        cmp_ = stats.compare(data.codes, dict(data.scores), criterion=data.criterion, adjust=args.adjust,
                             confidence_level=args.level, reference=reference, alternative=args.alternative,
                             margin=getattr(args, "margin", None),
                             **data.params())
    if data.ordinal:  # the classes under their names, not the codes 0 .. K-1
        cmp_ = dataclasses.replace(cmp_, params={"order": " < ".join(data.names)})
    if args.format == "json":
        text = json_text({**describe(data), **data.info, **_comparison_dict(cmp_, data.criterion)})
    elif args.format == "csv":
        fields = list(type(cmp_.pairs[0])._fields)
        margin = [] if cmp_.margin is None else [cmp_.margin]  # a margin column only when one was given
        text = _csv(["criterion", *fields, *(["margin"] if margin else [])],
                    [[data.criterion, *p, *margin] for p in cmp_.pairs], data.info)
    else:
        text = (f"{data.criterion_name()} of each model, compared\n" + cmp_.summary() + "\n"
                + method_note(data, components=False) + counts(data))
    _emit(text, args.out, args.force, [args.file], data=args.format != "table")
    return 0


def report(args) -> int:
    """``rankwise report``: the page with the section on several classes or ordered
    classes."""
    import os

    import numpy as np

    from ..io import file_fingerprint
    from ..report import output_paths, write_report
    from ._common import Ticker, _check_resamples, command_line, output_path, say, stage_lines, stdin_file
    from ._demo import check_writable_folder

    _check_resamples(args.resamples)
    kind = "ordinal" if args.order is not None else "multiclass"
    for path in output_paths(args.out, kind=kind):
        output_path(path, args.force, [args.file])
    for folder in dict.fromkeys(os.path.dirname(p) or "." for p in output_paths(args.out, kind=kind)):
        check_writable_folder(folder)
    data = read(args)
    reference = _reference(args, data)
    quiet = getattr(args, "quiet", False)
    with Ticker("report", quiet) as ticker:
        name = "standard input" if args.file == "-" else os.path.basename(args.file)
        source = file_fingerprint(stdin_file() if args.file == "-" else args.file, name=name)
        source.update(label=data.label)
        if data.clusters is not None:
            source.update(clusters=data.cluster_column)
        y = np.asarray(data.names)[data.codes]
        kw: dict = {"order": data.names} if data.ordinal else {
            "classes": data.names, "multi_class": data.multi_class, "average": data.average}
        with library_messages(data):
            res = write_report(args.out, title=args.title or f"rankwise report: {name}", scores=dict(data.scores),
                               y_true=y, ci_method=None if args.ci in (None, "delong") else args.ci,
                               reference=reference, data=source, command=command_line(args),
                               n_resamples=args.resamples, random_state=args.seed, force=args.force,
                               progress=stage_lines("report", quiet, ticker),
                               **({} if data.clusters is None else {"clusters": data.clusters[0]}), **kw)
    say(f"report: {args.out}\n")
    return 0 if res is not None else 1
