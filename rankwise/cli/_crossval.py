"""``--fold COL``: ``evaluate`` and ``report`` on out-of-fold scores.

Each row of the file was scored by the model of one cross-validation fold, the one that
did not see it, and ``--fold`` names the column holding that fold's id (any text or
number, as written; ``007`` and ``7`` are two folds). ``evaluate --fold`` prints, for each
``--score`` column and criterion (``--criteria``; every criterion with a projection, the
AUC and the defaults included), the mean of the fold values with the influence-curve
standard error and interval of LeDell, Petersen & van der Laan (2015), the naive fold-SD
interval beside it for contrast, and the number of folds; each fold's class sizes and
value with ``--verbose`` (table) and always in ``--format json`` and ``csv``. The numbers
are :func:`rankwise.stats.cross_validated`'s. With ``--cluster`` the clusters are the
independent units (the pooled interval: a patient's rows, or an observation scored in each
repetition of a repeated cross-validation). ``report --fold`` adds the section on
cross-validation to the page (:mod:`rankwise.report._crossval`).

One-line errors (exit status 1): a missing fold id (an empty field; NaN or null in a binary
format), a fold holding one class only (named by its id as written), fewer than two
folds, a criterion without a projection. Options that do not combine with ``--fold`` are
refused before any file is read (exit status 2): ``compare --fold`` (the paired
comparison of fold-averaged criteria needs their joint influence-curve covariance, which
the library does not compute), several classes, censored times, ``--group``,
``--strata``, ``--ci``, Dask, and ``report --fold --model`` (a saved model's scores are
not out-of-fold).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._text import quoted
from ._common import CLIError

__all__ = ["add_arguments", "wanted", "usage", "evaluate", "report_folds", "FoldColumn", "fold_column"]

FOLD_HELP = {
    "evaluate": "the column of each row's cross-validation fold (ids as written, none missing; each row's score "
                "from the model that did not see it): per score column, each criterion averaged over the folds "
                "with its influence-curve interval (LeDell, Petersen & van der Laan 2015) and the naive fold-SD "
                "interval for contrast; every fold needs both classes; pooled over --cluster when given; not with "
                "--group, --strata, --ci or --dask",
    "report": "the column of each row's cross-validation fold (ids as written, none missing): adds a section on "
              "cross-validation (each scorer's criteria averaged over the folds with their influence-curve and "
              "naive intervals, each fold's values, the mean ROC curve of the folds with its band); the scores must "
              "be out-of-fold --score columns (not --model)",
    "compare": "not offered by compare: comparing fold-averaged criteria needs their joint influence-curve "
               "covariance, which rankwise does not compute yet (evaluate --fold gives each score column's "
               "cross-validated criteria with intervals); exits with status 2",
}
VERBOSE_HELP = "with --fold: also each fold's class sizes and value in the table (JSON and CSV always have them)"

#: Options ``--fold`` does not combine with: (attribute, option, why).
_NOT_WITH_FOLD = (
    ("group", "--group", "the folds are not analysed by group (report --group adds its own section)"),
    ("reference_group", "--reference-group", "it goes with --group"),
    ("strata", "--strata", "the stratified AUC is not averaged over folds"),
    ("weighting", "--weighting", "it goes with --strata"),
    ("ci", "--ci", "the intervals are the influence curve's (and the naive fold-SD one, for contrast)"),
)


def add_arguments(p, command: str) -> None:
    """``--fold`` (and on evaluate ``--verbose``) of evaluate, compare and report."""
    p.add_argument("--fold", metavar="COL", help=FOLD_HELP[command])
    if command == "evaluate":
        p.add_argument("--verbose", action="store_true", default=False, help=VERBOSE_HELP)
        p.add_argument("--variance", choices=("influence", "unbiased"), default=None,
                       help="with --fold: the influence curve's variance as LeDell et al. (default; R cvAUC's), "
                            "or 'unbiased': each fold's class variances over n - 1 (small folds)")


def wanted(args) -> bool:
    """Whether the command runs on out-of-fold scores (``--fold`` given)."""
    return getattr(args, "fold", None) is not None


def usage(args) -> str | None:
    """What is wrong with ``--fold`` and the options that go with it (one line, exit
    status 2), before any file is read; None when nothing is."""
    if not hasattr(args, "fold"):
        return None
    if not wanted(args):
        if getattr(args, "verbose", False):
            return "--verbose goes with --fold (each fold's values)"
        if getattr(args, "variance", None) is not None:
            return "--variance goes with --fold (the cross-validated interval's variance)"
        return None
    if args.command == "compare":
        return ("compare --fold is not offered: comparing fold-averaged criteria needs their joint influence-curve "
                "covariance, which rankwise does not compute yet; evaluate --fold gives each score column's "
                "cross-validated criteria with their intervals")
    if getattr(args, "time", None) is not None or getattr(args, "event", None) is not None:
        return "--fold is for binary labels (--label): censored times (--time/--event) are not averaged over folds"
    if getattr(args, "scores", None) or any(getattr(args, a, None) is not None
                                             for a in ("classes", "order", "multi_class", "average")):
        return ("--fold is for binary labels (--label and --score): several or ordered classes are not averaged "
                "over folds")
    if getattr(args, "dask", False) or getattr(args, "scheduler", None):
        return f"--fold is not available with {'--dask' if args.dask else '--scheduler'}"
    if args.command == "report":
        if getattr(args, "model", None):
            return ("--model is not used with --fold: a saved model's scores of the file are not out-of-fold; give "
                    "each row's out-of-fold score as a --score column")
        return None
    for attr, option, why in _NOT_WITH_FOLD:
        if getattr(args, attr, None) is not None:
            return f"{option} is not used with --fold: {why}"
    return None


# --- the fold column --------------------------------------------------------------------------

@dataclass(frozen=True)
class FoldColumn:
    """The rows' folds: ``name`` (the column), ``names`` (the distinct ids, sorted: ints
    when every id is an integer as Python writes it, floats likewise, else the text as
    written) and ``codes`` (each row's index into ``names``)."""

    name: str
    names: list
    codes: Any

    def sizes(self, is_pos) -> list[dict]:
        """``[{"fold": id, "n": rows, "n_positive": positives}, ...]`` in the order of ``names``."""
        import numpy as np

        V = len(self.names)
        n = np.bincount(self.codes, minlength=V)
        p = np.bincount(self.codes, weights=np.asarray(is_pos, dtype=np.float64), minlength=V)
        return [{"fold": f, "n": int(a), "n_positive": int(b)} for f, a, b in zip(self.names, n, p)]

    def note(self, is_pos, limit: int = 20) -> str:
        """``folds: column 'fold', 5 folds (1: n = 40, positives = 12; ...)``."""
        sizes = self.sizes(is_pos)
        each = "; ".join(f"{d['fold']}: n = {d['n']:,}, positives = {d['n_positive']:,}" for d in sizes[:limit])
        more = f"; ... ({len(sizes) - limit} more)" if len(sizes) > limit else ""
        return f"folds: column {quoted(self.name)}, {len(sizes):,} folds ({each}{more})\n"


def fold_column(table, column, used: dict, is_pos) -> FoldColumn:
    """The ``--fold`` column of ``table``, checked: not a column the command already uses
    (``used``: ``{column: what it is}``), no missing id, at least two folds, both classes
    in every fold (``is_pos``: one bool a row). One-line errors (:class:`CLIError`) name the
    column, the rows or the fold as written."""
    from ._common import id_column

    name, names, codes, _ = id_column(table, column, used, "--fold", "fold ids", "fold ids",
                                      "every row needs the fold whose model scored it")
    folds = FoldColumn(name, names, codes)
    if len(folds.names) < 2:
        raise CLIError(f"column {quoted(name)} holds one fold only ({quoted(folds.names[0])}); cross-validation "
                       "needs at least two folds")
    for d in folds.sizes(is_pos):
        if d["n_positive"] in (0, d["n"]):
            which = "positives" if d["n_positive"] == 0 else "negatives"
            raise CLIError(f"fold {quoted(d['fold'])} of column {quoted(name)} has no {which} (n = {d['n']:,}); "
                           "every fold needs both classes for its criterion")
    return folds


def _criteria(specs: list[str]) -> list[str]:
    """The specs, each a criterion of binary labels with a projection (the influence
    curve needs one); else a one-line error naming it."""
    from .. import criteria
    from .._labels import kind_of

    for spec in specs:
        unit = criteria.get(spec)
        if kind_of(unit).name != "binary" or not getattr(unit, "has_projection", False):
            raise CLIError(f"--fold averages criteria with a projection (their influence-curve interval needs one); "
                           f"{spec!r} has none: drop it from --criteria")
    return specs


def _used(label: str, scores, cluster: str | None) -> dict:
    used = {s: "the score column" for s in scores}
    used[label] = "the label column"
    if cluster is not None:
        used[cluster] = "the --cluster column"
    return used


# --- evaluate ---------------------------------------------------------------------------------

def cross_validated_rows(is_pos, scores: dict, folds: FoldColumn, specs: list[str], *, clusters=None,
                         level: float = 0.95, progress=None, variance: str = "influence") -> list[dict]:
    """One row a score column and criterion: :func:`rankwise.stats.cross_validated` on the
    rows' folds (pooled over ``clusters``, ``(codes, n)``, when given; ``variance`` as
    there): the value, the influence-curve interval and standard error, the naive ones,
    and each fold's values."""
    import warnings

    from .. import stats

    pooled = {} if clusters is None else {"pooled": True, "ids": clusters[0]}
    rows = []
    for col, s in scores.items():
        for spec in specs:
            r = stats.cross_validated(is_pos, s, folds.codes, criterion=spec, confidence_level=level,
                                      variance=variance, **pooled)
            ic = r.confidence_interval(level)
            with warnings.catch_warnings():  # a degenerate naive interval: the influence one has said it
                warnings.simplefilter("ignore", stats.DegenerateIntervalWarning)
                naive = r.confidence_interval(level, method="naive")
            rows.append({"score": col, "criterion": spec, "value": r.value, "low": ic.low, "high": ic.high,
                         "std_error": r.std_error, "method": "influence" if variance == "influence" else
                         "influence (unbiased)", "naive_low": naive.low,
                         "naive_high": naive.high, "naive_std_error": r.naive_std_error, "n_folds": r.n_folds,
                         "pooled": r.pooled, "n_units": r.n_units,
                         "folds": [{"fold": folds.names[int(k)], "n_pos": float(p), "n_neg": float(q),
                                    "value": float(v)}
                                   for k, p, q, v in zip(r.fold_ids, r.fold_n_pos, r.fold_n_neg, r.fold_values)]})
            if progress is not None:
                progress.step(f"{col} {spec}")
    if progress is not None:
        progress.close()
    return rows


#: The columns of ``evaluate --fold --format csv``: a score and criterion's average (fold
#: empty), then each fold's value (the intervals empty).
_CSV = ("score", "criterion", "fold", "value", "low", "high", "std_error", "method", "naive_low", "naive_high",
        "naive_std_error", "n_folds", "n_pos", "n_neg", "fold_column")


def _method_note(rows: list[dict], level: float, info: dict) -> str:
    V = rows[0]["n_folds"]
    unbiased = (", each fold's class variances over n - 1 (--variance unbiased)"
                if rows[0].get("method") == "influence (unbiased)" else "")
    units = (f"; standard errors over {info['n_clusters']:,} clusters (pooled: a cluster's rows are one independent "
             f"unit)" if info.get("n_clusters") is not None else "")
    return (f"value: the mean of the {V} fold values (each fold's criterion on its own rows); {level:.0%} CI: "
            f"influence curve (LeDell, Petersen & van der Laan 2015){unbiased}, normal, clipped to the criterion's "
            f"range{units}\n"
            f"naive: the fold values' standard deviation / sqrt({V}) with Student's t on {V - 1} df, for contrast "
            "only: the fold values are not independent (the training sets overlap)\n")


def format_rows(rows: list[dict], folds: FoldColumn, is_pos, fmt: str, level: float, info: dict,
                verbose: bool = False) -> str:
    """evaluate --fold's output: JSON (the rows with their folds, the folds' sizes), CSV
    (:data:`_CSV`, a row for each average and each fold) or tables with notes."""
    from ._common import _csv_cell, _text_table, counts_line, json_text

    if fmt == "json":
        return json_text({**info, "fold_column": folds.name, "n_folds": len(folds.names), "confidence_level": level,
                          "fold_sizes": folds.sizes(is_pos), "rows": rows})
    if fmt == "csv":
        cols = ["positive_label", "n", "n_positive", *(["n_clusters"] if "n_clusters" in info else [])]
        lines = [",".join([*_CSV, *cols])]
        extra = [info[c] for c in cols]
        for r in rows:
            n_pos = sum(f["n_pos"] for f in r["folds"])
            n_neg = sum(f["n_neg"] for f in r["folds"])
            out = [[r["score"], r["criterion"], "", r["value"], r["low"], r["high"], r["std_error"], r["method"],
                    r["naive_low"], r["naive_high"], r["naive_std_error"], r["n_folds"], n_pos, n_neg, folds.name]]
            out += [[r["score"], r["criterion"], f["fold"], f["value"], "", "", "", "", "", "", "", "", f["n_pos"],
                     f["n_neg"], folds.name] for f in r["folds"]]
            lines += [",".join(_csv_cell(v) for v in [*row, *extra]) for row in out]
        return "\n".join(lines) + "\n"

    def num(x: float) -> str:
        return "nan" if x != x else f"{x:.4f}"

    table = [["score", "criterion", "value", f"{level:.0%} CI low", "high", "std. error", "naive low", "naive high",
              "naive std. error"]]
    for r in rows:
        table.append([str(r["score"]), r["criterion"], num(r["value"]), num(r["low"]), num(r["high"]),
                      num(r["std_error"]), num(r["naive_low"]), num(r["naive_high"]), num(r["naive_std_error"])])
    V = len(folds.names)
    text = f"cross-validated over {V} folds (column {quoted(folds.name)})\n" + _text_table(table) + "\n"
    if verbose:
        cells = [["score", "criterion", "fold", "n+", "n-", "value"]]
        for r in rows:
            cells += [[str(r["score"]), r["criterion"], str(f["fold"]), f"{f['n_pos']:,.0f}", f"{f['n_neg']:,.0f}",
                       num(f["value"])] for f in r["folds"]]
        text += "\neach fold's value\n" + _text_table(cells, left=3) + "\n"
    return text + "\n" + _method_note(rows, level, info) + folds.note(is_pos) + counts_line(info)


def evaluate(args) -> int:
    """``rankwise evaluate --label COL --score COL --fold COL``."""
    from ._common import (DEFAULT_CRITERIA, Progress, _check_criteria, _emit, _labels_and_scores, class_counts,
                          cluster_ids, output_path, split_specs, with_clusters)

    specs = _criteria(_check_criteria(split_specs(args.criteria) if args.criteria else DEFAULT_CRITERIA))
    output_path(args.out, args.force, [args.file])
    table, label, is_pos, pos, scores = _labels_and_scores(args)
    cluster = None if args.cluster is None else table.resolve(args.cluster)
    if cluster is not None and cluster == table.resolve(args.fold):
        raise CLIError(f"--fold and --cluster name the same column {quoted(cluster)}; a cluster's rows lie in one "
                       "fold, but the folds are not the independent units")
    clusters = cluster_ids(table, args.cluster, _used(label, scores, None))
    folds = fold_column(table, args.fold, _used(label, scores, cluster), is_pos)
    info = with_clusters(class_counts(is_pos, pos), clusters)
    prog = Progress("evaluate", len(scores) * len(specs), args.quiet)
    rows = cross_validated_rows(is_pos, scores, folds, specs, clusters=clusters, level=args.level, progress=prog,
                                variance=args.variance or "influence")
    _emit(format_rows(rows, folds, is_pos, args.format, args.level, info, args.verbose), args.out, args.force,
          [args.file], data=args.format != "table")
    return 0


# --- report -----------------------------------------------------------------------------------

def report_folds(table, args, label: str, scores, is_pos) -> dict:
    """The keywords of ``report --fold`` for :func:`rankwise.report.write_report`: the
    rows' fold ids and the column's name (``{}`` without ``--fold``); the fold column
    checked as by ``evaluate --fold``."""
    if not wanted(args):
        return {}
    import numpy as np

    cluster = None if args.cluster is None else table.resolve(args.cluster)
    if cluster is not None and cluster == table.resolve(args.fold):
        raise CLIError(f"--fold and --cluster name the same column {quoted(cluster)}; a cluster's rows lie in one "
                       "fold, but the folds are not the independent units")
    folds = fold_column(table, args.fold, _used(label, scores, cluster), is_pos)
    ids = np.empty(len(folds.names), dtype=object)
    ids[:] = folds.names
    return {"folds": ids[folds.codes], "fold_name": folds.name}
