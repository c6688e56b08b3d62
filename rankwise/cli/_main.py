"""The ``rankwise`` command.

Subcommands: ``evaluate``, ``compare``, ``points``, ``fit``, ``score``, ``report``, ``demo``. Exit codes:
0 success, 1 bad data (one line on stderr, no traceback), 2 bad usage. Outputs follow the
rule of :mod:`rankwise.io` (``rankwise/io/_atomic.py``), checked before any work: an output
that is an input (however reached) is refused, even with ``--force``, and so is one that is
not a regular file (a folder, a named pipe, a socket, a device such as ``/dev/null``, or a
link to one); an existing file or link is replaced only with ``--force``; without it the
output is created exclusively, so a concurrent run writing the same file fails instead of
silently replacing it; writes are atomic and leave no temporary file behind. Text from
files (column names, a model's strings) is printed with its control characters escaped
(:mod:`rankwise.cli._text`).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Any

from .._version import __version__
from . import _crossval
from . import _curves
from . import _roctests
from . import _dask as _cli_dask
from . import _prep
from . import _multiclass
from . import _stream
from . import _survival
from .._text import quoted, shown
from ._common import (
    DEFAULT_CRITERIA,
    MAX_RESAMPLES,
    _check_resamples,
    _comparison_dict,
    _csv_cell,
    _text_table,
    command_line,
    CLIError,
    Progress,
    Ticker,
    stage_lines,
    _check_criteria,
    _emit,
    ci_method,
    json_text,
    _labels_and_scores,
    _read,
    output_path,
    say,
    class_counts,
    cluster_ids,
    clusters_note,
    counts_line,
    group_column,
    pos_label,
    split_specs,
    stdin_file,
    stdin_message,
    stratified_comparison,
    with_clusters,
)

LEARNERS = {
    "bbr": "BBRRanker",
    "lcbr": "LCBRRanker",
    "pairwise": "PairwiseRanker",
    "proper": "ProperLossRanker",
    "oam": "OAM",
    "adaoam": "AdaOAM",
    "pgd": "PGD",
    "spam": "SPAM",
    "rankboost": "RankBoost",
    "pnormpush": "PNormPush",
    "kernel": "KernelRanker",
    "rankstat": "RankStatisticRanker",
    "exact": "ExactLinearRankMaximizer",  # two features only
    "boosted": "BoostedPairwiseRanker",  # the 'boost' extra (XGBoost or LightGBM)
}


# --- evaluate -------------------------------------------------------------------------------

def evaluate_rows(y, scores: dict, specs: list[str], pos_label, ci: str | None, level: float,
                  n_resamples: int, seed: int, progress: Progress | None = None,
                  clusters: tuple | None = None) -> list[dict]:
    """One row a score column and criterion: the value and, unless ``ci`` is ``none``, its
    interval, standard error and method; with ``clusters`` (``(codes, n_clusters)`` of
    ``--cluster``) the standard errors and resamples are taken over the clusters
    (:func:`rankwise.stats.estimate` with ``clusters=``)."""
    import numpy as np

    is_pos = np.asarray(y) == pos_label
    methods = {spec: ci_method(spec, ci) for spec in specs}
    rows = []
    if all(m is None for m in methods.values()):
        # --ci none: the values alone, from one rank table per column (rw.evaluate, the
        # criterion functions' values), without the projections that standard errors need
        from .. import metrics

        for col, s in scores.items():
            values = metrics.evaluate(is_pos, s, {str(j): spec for j, spec in enumerate(specs)})
            for j, spec in enumerate(specs):
                rows.append({"score": col, "criterion": spec, "value": values[str(j)]})
                if progress is not None:
                    progress.step(f"{col} {spec}")
        if progress is not None:
            progress.close()
        return rows
    from .. import stats

    for col, s in scores.items():
        # One sort per score column; each estimate is dropped once its row is made.
        ests = (stats.iter_estimates(is_pos, s, specs) if clusters is None
                else (stats.estimate(is_pos, s, spec, clusters=clusters[0]) for spec in specs))
        for spec, est in zip(specs, ests):
            row = {"score": col, "criterion": spec, "value": est.value}
            method = methods[spec]
            if clusters is not None and method not in (None, "bootstrap"):
                # over clusters a criterion has one analytic standard error, the estimate's own
                method = est.method
            if method is not None:
                kw = {"method": method}
                if method == "bootstrap":
                    kw.update(n_resamples=n_resamples, random_state=seed)
                iv = est.confidence_interval(level, **kw)
                row.update(low=iv.low, high=iv.high, method=iv.method, std_error=iv.std_error)
            rows.append(row)
            del est
            if progress is not None:
                progress.step(f"{col} {spec}")
    if progress is not None:
        progress.close()
    return rows


def _format_rows(rows: list[dict], fmt: str, level: float, info: dict) -> str:
    """evaluate's output; every format states ``info`` (:func:`class_counts`): JSON as
    top-level fields beside ``rows``, CSV as three more columns (a plain header and rows
    any CSV reader takes), the table as a footer line."""
    if fmt == "json":
        return json_text({**info, "rows": rows})
    keys = ["score", "criterion", "value", "low", "high", "std_error", "method"]
    keys = [k for k in keys if any(k in r for r in rows)]
    if fmt == "csv":
        return _csv_text(keys, [[r.get(k, "") for k in keys] for r in rows], info)
    head = {"low": f"{level:.0%} CI low", "high": "high", "std_error": "std. error"}
    table = [[head.get(k, k) for k in keys]]
    for r in rows:
        table.append([f"{r[k]:.4f}" if isinstance(r.get(k), float) else str(r.get(k, "")) for k in keys])
    note = clusters_note(info, "standard errors and resamples") if "std_error" in keys else ""
    return _text_table(table) + "\n" + note + counts_line(info)


def _csv_text(keys: list[str], rows: list[list], info: dict) -> str:
    """CSV with the columns ``positive_label``, ``n``, ``n_positive`` after ``keys``, and
    ``n_clusters`` when the rows are clustered (``--cluster``)."""
    cols = [*_INFO_COLUMNS, *(["n_clusters"] if "n_clusters" in info else [])]
    extra = [info[c] for c in cols]
    lines = [",".join([*keys, *cols])]
    lines += [",".join(_csv_cell(v) for v in [*r, *extra]) for r in rows]
    return "\n".join(lines) + "\n"


_INFO_COLUMNS = ("positive_label", "n", "n_positive")


def split_columns(text: str) -> list[str]:
    """``--keep id,branch`` -> ``["id", "branch"]`` (names or 0-based positions)."""
    cols = [c.strip() for c in text.split(",")]
    if not all(cols):
        raise CLIError(f"--keep takes comma-separated column names; got {text!r}")
    return cols


def _used_columns(label: str, scores) -> dict:
    """``{column: what it is}`` of the label and score columns, which ``--cluster`` may
    not name."""
    used = {s: "the score column" for s in scores}
    used[label] = "the label column"
    return used


def _cmd_evaluate(args) -> int:
    if _multiclass.wanted(args):
        return _multiclass.evaluate(args)
    if _survival.wanted(args):
        return _survival.evaluate(args)
    if _crossval.wanted(args):  # --fold: out-of-fold scores (rankwise/cli/_crossval.py)
        return _crossval.evaluate(args)
    specs = _check_criteria(split_specs(args.criteria) if args.criteria else DEFAULT_CRITERIA)
    _check_resamples(args.resamples)
    output_path(args.out, args.force, [args.file])
    if _cli_dask.wanted(args):
        with Ticker("evaluate", args.quiet):
            rows, info = _cli_dask.evaluate(args, specs, ci_method)
        _emit(_format_rows(rows, args.format, args.level, info), args.out, args.force, [args.file],
              data=args.format != "table")
        return 0
    # --- the file in chunks, one rank accumulator per score column (rankwise/cli/_stream.py);
    # None: this file or these options take the whole-column path below
    streamed = _stream.evaluate(args, specs) if _stream.wanted(args, specs) else None
    if streamed is not None:
        rows, info = streamed
        _emit(_format_rows(rows, args.format, args.level, info), args.out, args.force, [args.file],
              data=args.format != "table")
        return 0
    # ---
    table, label, y, pos, scores = _labels_and_scores(args)  # y: one bool a row while the scores are ranked
    clusters = cluster_ids(table, args.cluster, _used_columns(label, scores))
    info = with_clusters(class_counts(y, pos), clusters)
    if args.group is not None:
        text = _evaluate_groups(args, specs, table, label, y, scores, clusters, info)
        _emit(text, args.out, args.force, [args.file], data=args.format != "table")
        return 0
    if args.strata is not None:
        text = _evaluate_strata(args, table, label, y, scores, clusters, info)
        _emit(text, args.out, args.force, [args.file], data=args.format != "table")
        return 0
    prog = Progress("evaluate", len(scores) * len(specs), args.quiet)
    rows = evaluate_rows(y, scores, specs, True, args.ci, args.level, args.resamples, args.seed, prog, clusters)
    _emit(_format_rows(rows, args.format, args.level, info), args.out, args.force, [args.file],
          data=args.format != "table")
    return 0


# --- --group and --strata ---------------------------------------------------------------------

def _by_group(is_pos, scores: dict, groups, specs: list[str], *, reference, clusters, adjust: str, level: float):
    """:func:`rankwise.stats.by_group` of the score columns on the rows' groups
    (:class:`rankwise.cli._common.GroupColumn`)."""
    from .. import stats

    cols = list(scores)
    y_score = scores[cols[0]] if len(cols) == 1 else scores
    return stats.by_group(is_pos, y_score, groups.values, specs, reference=reference,
                          clusters=None if clusters is None else clusters[0], adjust=adjust,
                          confidence_level=level, names=cols)


def _reference_group(args, groups):
    """The group id of ``--reference-group`` (None: each group against the rest)."""
    given = getattr(args, "reference_group", None)
    return None if given is None else groups.find(given, "--reference-group")


#: The columns of the per-group CSV: a group's row, then its difference from the rest (or
#: the reference group); the overall rows have an empty group and no difference.
_GROUP_CSV = ("scorer", "criterion", "group", "n_rows", "n_pos", "n_neg", "value", "std_error", "low", "high",
              "versus", "difference", "diff_std_error", "statistic", "p_value", "p_adjusted", "diff_low",
              "diff_high", "group_column")


def _group_csv_rows(res, column: str) -> list[list]:
    diffs = {(d.scorer, d.criterion, d.group): d for d in res.differences}
    out = []
    for r in (*res.overall, *res.rows):
        d = diffs.get((r.scorer, r.criterion, r.group)) if r.group is not None else None
        row = [r.scorer, r.criterion, "" if r.group is None else r.group, r.n_rows, float(r.n_pos), float(r.n_neg),
               r.value, r.std_error, r.low, r.high]
        row += ([d.versus, d.difference, d.std_error, d.statistic, d.p_value, d.p_adjusted, d.low, d.high]
                if d is not None else [""] * 8)
        out.append(row + [column])
    return out


def _evaluate_groups(args, specs, table, label, y, scores, clusters, info) -> str:
    """``evaluate --group``: every criterion in each group (:func:`rankwise.stats.by_group`),
    each group against the rest or ``--reference-group``, Holm-adjusted; the global test;
    the bias AUCs when the AUC is among the criteria."""
    import dataclasses

    groups = group_column(table, args.group, _used_columns(label, scores))
    ref = _reference_group(args, groups)
    res = _by_group(y, scores, groups, specs, reference=ref, clusters=clusters, adjust="holm", level=args.level)
    res = dataclasses.replace(res, scorer_comparisons=())  # comparing the scorers is compare's
    if args.format == "json":
        rows = evaluate_rows(y, scores, specs, True, args.ci, args.level, args.resamples, args.seed, None, clusters)
        return json_text({**info, "group_column": groups.name, "group_sizes": groups.sizes(y), "rows": rows,
                          "groups": res.to_dict()})
    if args.format == "csv":
        return _csv_text(list(_GROUP_CSV), _group_csv_rows(res, groups.name), info)
    return res.summary() + "\n\n" + groups.note(y) + counts_line(info)


def _evaluate_strata(args, table, label, y, scores, clusters, info) -> str:
    """``evaluate --strata``: each score column's stratified AUC (pairs within strata,
    :func:`rankwise.stats.stratified_auc`) with its interval, the strata used and skipped."""
    from .. import stats

    strata = group_column(table, args.strata, _used_columns(label, scores), "--strata")
    weighting = args.weighting or "pairs"
    rows, per_stratum, fits = [], [], {}
    for col, s in scores.items():
        r = stats.stratified_auc(y, s, strata.values, weighting=weighting,
                                 clusters=None if clusters is None else clusters[0])
        iv = r.confidence_interval(args.level)
        rows.append({"score": col, "criterion": "stratified_auc", "weighting": weighting, "value": r.value,
                     "low": iv.low, "high": iv.high, "std_error": r.std_error,
                     "std_error_strata": r.std_error_strata, "method": "delong", "n_strata": r.n_strata,
                     "n_skipped": r.n_skipped})
        per_stratum += [{"score": col, "stratum": g, "n_pos": float(p), "n_neg": float(q), "auc": float(v),
                         "weight": float(c)}
                        for g, p, q, v, c in zip(r.strata, r.n_pos, r.n_neg, r.values, r.weights)]
        fits[col] = r
    if args.format == "json":
        return json_text({**info, "strata_column": strata.name, "weighting": weighting, "rows": rows,
                          "strata": per_stratum})
    keys = ["score", "criterion", "weighting", "value", "low", "high", "std_error", "std_error_strata", "method",
            "n_strata", "n_skipped"]
    if args.format == "csv":
        return _csv_text(keys + ["strata_column"], [[r[k] for k in keys] + [strata.name] for r in rows], info)
    head = {"low": f"{args.level:.0%} CI low", "high": "high", "std_error": "std. error",
            "std_error_strata": "strata part", "n_strata": "strata used", "n_skipped": "skipped"}
    shown_keys = [k for k in keys if k not in ("criterion", "weighting", "method")]
    table_rows = [[head.get(k, k) for k in shown_keys]]
    for r in rows:
        table_rows.append([f"{r[k]:.4f}" if isinstance(r[k], float) else str(r[k]) for k in shown_keys])
    first = next(iter(fits.values()))
    limit = 30
    cells = [["stratum", "n_pos", "n_neg", "weight", *(f"AUC {c}" for c in fits)]]
    for j, g in enumerate(first.strata[:limit]):
        cells.append([str(g), f"{first.n_pos[j]:,.0f}", f"{first.n_neg[j]:,.0f}", f"{first.weights[j]:.4f}",
                      *("-" if f.values[j] != f.values[j] else f"{f.values[j]:.4f}" for f in fits.values())])
    more = f"\n... ({len(first.strata) - limit:,} more strata: --format json lists them all)" \
        if len(first.strata) > limit else ""
    what = {"pairs": "their positive-negative pairs", "positives": "their positives", "size": "their rows",
            "uniform": "equally"}[weighting]
    note = (f"stratified AUC: pairs within strata only, strata weighted by {what} ({weighting}); the standard "
            f"error includes the weights' estimation (Janes & Pepe 2009; the strata part holds them fixed)\n"
            f"{first.n_strata:,} strata used, {first.n_skipped:,} skipped (one class only)\n")
    return (_text_table(table_rows, left=1) + "\n\n" + _text_table(cells, left=1) + more + "\n" + note
            + clusters_note(info) + strata.note(y) + counts_line(info))


# --- compare ----------------------------------------------------------------------------------

def _cmd_compare(args) -> int:
    from .. import stats
    from .._validation import parse_spec

    if _multiclass.wanted(args):
        return _multiclass.compare(args)
    if _survival.wanted(args):
        return _survival.compare(args)
    if len(args.score) < 2:
        raise CLIError("compare needs at least two --score columns")
    if args.reference is not None and args.reference not in args.score:
        raise CLIError(f"--reference {args.reference!r} is not one of the --score columns ({', '.join(args.score)})")
    specs = _check_criteria([args.criterion or DEFAULT_CRITERION])
    output_path(args.out, args.force, [args.file])
    name, params = parse_spec(specs[0])
    groups = strata = res = curves = None
    if _cli_dask.wanted(args):
        with Ticker("compare", args.quiet):
            cmp_, info = _cli_dask.compare(args, name, params)
    else:
        table, label, is_pos, pos, scores = _labels_and_scores(args)
        used = _used_columns(label, scores)
        clusters = cluster_ids(table, args.cluster, used)
        info = with_clusters(class_counts(is_pos, pos), clusters)
        groups = group_column(table, args.group, used)
        strata = group_column(table, args.strata, used, "--strata")
        if strata is not None:
            cmp_ = stratified_comparison(is_pos, scores, strata, args.weighting or "pairs", clusters=clusters,
                                         adjust=args.adjust, confidence_level=args.level, reference=args.reference,
                                         alternative=args.alternative, margin=args.margin)
        else:
            cmp_ = stats.compare(is_pos, scores, name, adjust=args.adjust, confidence_level=args.level,
                                 reference=args.reference, alternative=args.alternative, margin=args.margin,
                                 **({} if clusters is None else {"clusters": clusters[0]}),
                                 **_roctests.compare_options(args), **params)
        if args.curve_test:
            curves = _roctests.curve_tests(is_pos, scores, cmp_, args)
        if groups is not None:
            res = _compare_groups(args, is_pos, scores, groups, specs[0], name, params, clusters)
    if args.format == "json":
        out = {**info, **_comparison_dict(cmp_, "stratified_auc" if strata is not None else specs[0])}
        if cmp_.method == "bootstrap":
            out.update(n_resamples=cmp_.n_resamples, interval=cmp_.interval)
        if curves is not None:
            out.update(curve_tests=curves, curve_test_note=_roctests.CURVE_TEST_NOTE)
        if strata is not None:
            out.update(strata_column=strata.name, weighting=args.weighting or "pairs",
                       strata=strata.sizes(is_pos))
        if res is not None:
            out.update(group_column=groups.name, group_sizes=groups.sizes(is_pos), groups=res.to_dict(),
                       group_comparisons=[{"criterion": crit, "group": g, **_comparison_dict(c, crit)}
                                          for crit, g, c in res.scorer_comparisons])
        text = json_text(out)
    elif args.format == "csv":
        fields = list(type(cmp_.pairs[0])._fields)
        # A margin column only when a margin was given (--alternative noninferiority/equivalence).
        margin = [] if cmp_.margin is None else [cmp_.margin]
        fields += ["margin"] if margin else []
        if curves is not None:  # each pair's curve test beside its row
            fields += ["curve_statistic", "curve_p_value", "curve_permutations"]
            margin = None
            rows = [[*p, *([] if cmp_.margin is None else [cmp_.margin]), c["statistic"], c["p_value"],
                     c["n_permutations"]] for p, c in zip(cmp_.pairs, curves)]
            text = _csv_text(fields, rows, info)
        elif res is None:
            text = _csv_text(fields, [[*p, *margin] for p in cmp_.pairs], info)
        else:  # the pairs on every row (group empty), then within each group
            rows = [["", *p, *margin] for p in cmp_.pairs]
            rows += [[g, *p, *margin] for _, g, c in res.scorer_comparisons for p in c.pairs]
            text = _csv_text(["group", *fields, "group_column"], [[*r, groups.name] for r in rows], info)
    else:
        text = cmp_.summary() + "\n"
        if curves is not None:
            text += "\n" + _roctests.curve_tests_text(curves)
        if strata is not None:
            text += _strata_compare_note(strata, is_pos, args.weighting or "pairs")
        if res is not None:
            text = "scorers compared on all rows\n" + text + "\n" + res.summary() + "\n\n" + groups.note(is_pos)
        text += counts_line(info)
    _emit(text, args.out, args.force, [args.file], data=args.format != "table")
    return 0


#: compare's criterion when ``--criterion`` is not given.
DEFAULT_CRITERION = "auc"


def _compare_groups(args, is_pos, scores: dict, groups, spec: str, name: str, params: dict, clusters):
    """``compare --group``: the criterion in each group for every score column
    (:func:`rankwise.stats.by_group`, ``--adjust``) and the score columns compared within
    each group: by_group's comparisons, or, with ``--reference`` or a one-sided
    ``--alternative``, :func:`rankwise.stats.compare` on each group's rows with them."""
    import dataclasses

    from .. import stats

    ref = _reference_group(args, groups)
    res = _by_group(is_pos, scores, groups, [spec], reference=ref, clusters=clusters, adjust=args.adjust,
                    level=args.level)
    if args.reference is not None or args.alternative != "two-sided":
        comps = []
        for k, g in enumerate(groups.names):
            if g in res.one_class:
                continue
            sel = groups.codes == k
            comps.append((spec, g, stats.compare(
                is_pos[sel], {c: s[sel] for c, s in scores.items()}, name, adjust=args.adjust,
                confidence_level=args.level, reference=args.reference, alternative=args.alternative,
                margin=args.margin, **({} if clusters is None else {"clusters": clusters[0][sel]}), **params)))
        res = dataclasses.replace(res, scorer_comparisons=tuple(comps))
    return res


def _strata_compare_note(strata, is_pos, weighting: str) -> str:
    """compare --strata's lines on the strata: the column, the weighting, the strata used."""
    both = [d for d in strata.sizes(is_pos) if 0 < d["n_positive"] < d["n"]]
    n = len(strata.names)
    return (f"stratified AUC: pairs within strata only, strata weighted by {weighting}; standard errors with the "
            f"weights' estimation (Janes & Pepe 2009)\n{len(both):,} strata used, {n - len(both):,} skipped "
            f"(one class only)\n" + strata.note(is_pos))


# --- fit / score -----------------------------------------------------------------------------

# --- points ---------------------------------------------------------------------------------

def _rates(text: str | None, option: str, exact: bool = False) -> list[float] | None:
    if text is None:
        return None
    try:
        # Thresholds written as integers stay exact Python ints (scores beyond 2^53).
        vals = [_int_or_float(v) if exact else float(v) for v in text.split(",")]
    except ValueError:
        raise CLIError(f"{option} takes comma-separated numbers; got {text!r}") from None
    return vals


def _int_or_float(text: str):
    try:
        return int(text)
    except ValueError:
        return float(text)


def _exact_text(v) -> str:
    """A threshold as text that reads back as the same number (ints in full, floats by repr)."""
    if isinstance(v, float):
        return "-" if v != v else ("inf" if v == float("inf") else "-inf" if v == float("-inf") else repr(v))
    return str(v)


def _cmd_points(args) -> int:
    given = [(k, _rates(getattr(args, k), f"--{k}", exact=k == "thresholds")) for k in ("fpr", "tpr", "thresholds")]
    given = [(k, v) for k, v in given if v is not None]
    if len(given) > 1:
        raise CLIError("give one of --fpr, --tpr, --thresholds")
    kind, at = given[0] if given else ("fpr", [0.01, 0.05, 0.1])
    _check_resamples(args.resamples)
    output_path(args.out, args.force, [args.file])
    table, label, y, pos, scores = _labels_and_scores(args)
    used = _used_columns(label, scores)
    clusters = cluster_ids(table, args.cluster, used)
    info = with_clusters(class_counts(y, pos), clusters)
    groups = group_column(table, args.group, used)
    rows = _points_rows(args, y, scores, kind, at, None if clusters is None else clusters[0])
    if groups is not None:
        import warnings

        import numpy as np

        from ..stats import OneClassGroupWarning

        rows = [{"group": None, **r} for r in rows]
        skipped = []
        for k, g in enumerate(groups.names):
            sel = groups.codes == k
            n_pos = int(np.count_nonzero(y[sel]))
            if n_pos in (0, int(np.count_nonzero(sel))):
                skipped.append(g)
                continue
            part = _points_rows(args, y[sel], {c: s[sel] for c, s in scores.items()}, kind, at,
                                None if clusters is None else clusters[0][sel])
            rows += [{"group": g, **r} for r in part]
        if skipped:
            warnings.warn(f"{len(skipped)} group{'s' if len(skipped) > 1 else ''} of column {groups.name!r} "
                          f"{'hold' if len(skipped) > 1 else 'holds'} one class only, so no operating points: "
                          f"{', '.join(map(str, skipped[:10]))}{' ...' if len(skipped) > 10 else ''}",
                          OneClassGroupWarning, stacklevel=2)
        info = {**info, "group_column": groups.name, "group_sizes": groups.sizes(y), "one_class": skipped}
    text = _format_points(rows, args.format, args.level, info, args.ci != "none", groups, y)
    _emit(text, args.out, args.force, [args.file], data=args.format != "table")
    return 0


def _points_rows(args, y, scores: dict, kind: str, at: list, clusters) -> list[dict]:
    """The operating points of each score column on these rows (points' rows), with their
    bootstrap intervals unless ``--ci none`` and Youden's cut with ``--youden``."""
    from .. import stats
    from ..metrics import optimal_threshold

    by_cluster = {} if clusters is None else {"clusters": clusters}
    rows = []
    for name, s in scores.items():
        est = stats.operating_points(y, s, **{kind: at}, **by_cluster)
        ci = None if args.ci == "none" else est.confidence_interval(
            args.level, n_resamples=args.resamples, random_state=args.seed).to_rows()
        for j, r in enumerate(est.to_rows()):
            row = {"score": name, "at": f"{kind}={_exact_text(at[j]) if kind == 'thresholds' else format(at[j], 'g')}",
                   **r}
            if ci is not None:
                row.update({k: v for k, v in ci[j].items() if k != "at"})
            rows.append(row)
        if args.youden:
            o = optimal_threshold(y, s, method="youden")
            row = {"score": name, "at": "youden", "threshold": o.threshold, "tpr": o.tpr, "fpr": o.fpr,
                   "specificity": 1.0 - o.fpr, "precision": o.precision}
            if args.ci != "none":  # pROC's ci.coords(x = "best"): the cut re-chosen in every resample
                ci = stats.coords_ci(y, s, "best", ret=("threshold", "tpr", "fpr", "precision"),
                                     confidence_level=args.level, n_resamples=args.resamples,
                                     random_state=args.seed, **by_cluster)
                for k in ("threshold", "tpr", "fpr", "precision"):
                    row[f"{k}_low"], row[f"{k}_high"] = float(ci.low[k][0]), float(ci.high[k][0])
            rows.append(row)
    return rows


def _format_points(rows: list[dict], fmt: str, level: float, info: dict, intervals: bool = False,
                   groups=None, y=None) -> str:
    if fmt == "json":
        return json_text({**info, "positive_when": "score >= threshold", "rows": rows})
    info = {k: v for k, v in info.items() if k not in ("group_column", "group_sizes", "one_class")}
    keys = ["group", "score", "at", "threshold", "tpr", "fpr", "precision",
            "tpr_low", "tpr_high", "fpr_low", "fpr_high", "precision_low", "precision_high", "threshold_low",
            "threshold_high"]
    keys = [k for k in keys if any(k in r for r in rows)]
    if fmt == "csv":
        def plain(r, k):
            v = r.get(k, "")
            return "" if v is None else v
        extra = [] if groups is None else ["group_column"]
        return _csv_text(keys + extra, [[plain(r, k) for k in keys] + ([groups.name] if extra else [])
                                        for r in rows], info)
    head = {"tpr_low": f"tpr {level:.0%} CI", "fpr_low": f"fpr {level:.0%} CI",
            "precision_low": f"precision {level:.0%} CI", "threshold_low": f"threshold {level:.0%} CI"}
    cols = [k for k in keys if not k.endswith("_high")]

    def cell(r, k):
        if k.endswith("_low"):
            hi = k[:-4] + "_high"
            if k not in r:
                return ""
            if k == "threshold_low":
                return f"[{r[k]:.6g}, {r[hi]:.6g}]"
            return f"[{r[k]:.4f}, {r[hi]:.4f}]"
        v = r.get(k, "")
        if k == "group":
            return "(all)" if v is None else str(v)
        if k == "threshold":
            return _exact_text(v)
        if isinstance(v, float):
            return "-" if v != v else f"{v:.4f}"
        return str(v)
    table = [[head.get(k, k) for k in cols]] + [[cell(r, k) for k in cols] for r in rows]
    note = ("positive when score >= threshold; threshold '-': the rate lies between two cuts of the curve "
            "and the point is interpolated")
    if intervals and info.get("n_clusters") is not None:
        note += f"\nintervals from bootstrap resamples of whole clusters ({info['n_clusters']:,} clusters)"
    if intervals and any(r.get("at") == "youden" and "tpr_low" in r for r in rows):
        note += ("\nyouden: the cut maximising tpr - fpr; its intervals re-choose the cut in every resample "
                 "(pROC's ci.coords(x = 'best'))")
    if groups is not None:
        note += "\n" + groups.note(y).rstrip("\n")
    return _text_table(table) + "\n" + note + "\n" + counts_line(info)


def make_learner(spec: str, params: list[str] | None = None):
    """``"bbr"``, ``"pairwise:loss=hinge"``, ``"proper:loss=logistic,alpha=0.01"`` plus
    ``--param k=v`` items -> an unfitted estimator."""
    import rankwise

    from .._validation import convert_value

    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name not in LEARNERS:
        raise CLIError(f"unknown learner {name!r}; valid learners: {', '.join(LEARNERS)}")
    kw = {}
    items = [t for t in rest.split(",") if t.strip()] + list(params or [])
    for item in items:
        if "=" not in item:
            raise CLIError(f"learner parameter {item!r} must look like key=value")
        k, v = item.split("=", 1)
        kw[k.strip()] = convert_value(v)
    cls = getattr(rankwise, LEARNERS[name])
    valid = cls().get_params()
    unknown = sorted(set(kw) - set(valid))
    if unknown:
        raise CLIError(f"learner {name!r} has no parameter {', '.join(unknown)}; its parameters: {', '.join(valid)}")
    return cls(**kw)


def _cmd_fit(args) -> int:
    import numpy as np

    from ..io import save_model
    from ..phi import parse_spec  # noqa: F401 - keeps the import cost of the command predictable

    model = make_learner(args.learner, args.param)
    output_path(args.model, args.force, [args.file])
    if _cli_dask.wanted(args):
        if args.categorical or args.impute is not None:
            raise CLIError("--categorical and --impute are not supported with --dask/--scheduler: the Dask fit takes "
                           "numeric, complete features only; drop --dask to fit a preprocessing pipeline")
        return _fit_dask(args, model)
    table = _read(args.file, None)
    label = table.resolve(args.label)
    feats = [table.resolve(c) for c in args.features.split(",")] if args.features else None
    used = [c for c in feats if c != label] if feats else [c for c in table.columns if c != label]
    if not used:
        raise CLIError(f"no feature columns left in {args.file}")
    categorical = [table.resolve(c) for c in split_columns(args.categorical)] if args.categorical else []
    stray = [c for c in categorical if c not in used]
    if stray:
        raise CLIError(f"--categorical names {', '.join(stray)}, which {'is' if len(stray) == 1 else 'are'} not "
                       "among the feature columns")
    impute = args.impute or "median"
    if table.fmt == "svmlight":  # a sparse numeric matrix: fitted as it is
        kinds = ["num"] * len(used)
    else:
        kinds = _prep.kinds(table, used, categorical)
    if "cat" in kinds or (impute != "none" and _prep.any_missing(table, used)):
        model, X = _prep.pipeline(model, kinds, impute), _prep.frame(table, used, kinds)
    else:
        X = table.matrix(used)
    y = table.labels(label)
    pos, neg = fit_classes(y, args.pos_label)
    # The learners rank classes_[1] (the larger label) high: they learn 0/1 with 1 for the
    # user's positive, and classes_ becomes [negative, positive] for the model file.
    ybin = (np.asarray(y) == pos).astype(np.int64)
    info = class_counts(ybin == 1, pos)
    holdout = args.holdout
    with Ticker("fit", getattr(args, "quiet", False)):
        if holdout:
            from sklearn.model_selection import train_test_split

            idx_tr, idx_te = train_test_split(np.arange(len(ybin)), test_size=holdout, stratify=ybin,
                                              random_state=args.seed)
            model.fit(X[idx_tr], ybin[idx_tr])
        else:
            model.fit(X, ybin)
    _prep.final_estimator(model).classes_ = _classes(neg, pos)
    names = np.asarray(used, dtype=object)
    if _prep.is_pipeline(model):  # the pipeline's feature_names_in_ is its first step's
        model.steps[0][1].feature_names_in_ = names
    else:
        model.feature_names_in_ = names
    meta = {"data": os.path.basename(args.file), "label": label, "features": used,
            "learner": args.learner, "positive_label": str(pos)}
    if _prep.is_pipeline(model):
        meta["categorical"] = [c for c, k in zip(used, kinds) if k == "cat"]
        meta["impute"] = impute
    save_model(model, args.model, overwrite=args.force, metadata=meta)
    what = type(model).__name__ if not _prep.is_pipeline(model) else (
        f"{type(model.steps[-1][1]).__name__} with preprocessing "
        f"({sum(k == 'cat' for k in kinds)} categorical columns one-hot encoded, numeric ones "
        f"{'imputed (' + impute + ') and ' if impute != 'none' else ''}standardised)")
    msg = (f"saved {what} on {len(used)} features to {args.model}\n" + counts_line(info))
    if holdout:
        rows = evaluate_rows(ybin[idx_te], {"held-out": _decide(model, X[idx_te])},
                             DEFAULT_CRITERIA, 1, None, 0.95, 0, args.seed)
        held = class_counts(ybin[idx_te] == 1, pos)
        msg += f"held-out part ({len(idx_te)} rows, {holdout:.0%}):\n" + _format_rows(rows, "table", 0.95, held)
    say(msg)
    return 0


def fit_classes(y, given: str | None) -> tuple:
    """``(positive, negative)`` labels of a training column: two values, the positive
    one under the rule of :func:`pos_label` (``--pos-label`` for any other labels)."""
    from ._common import _distinct

    values = _distinct(y)
    if values.shape[0] > 2:
        raise CLIError(f"the label column holds {values.shape[0]} values "
                       f"({', '.join(map(str, values[:6]))}{', ...' if values.shape[0] > 6 else ''}); "
                       "fit needs two classes")
    pos = pos_label(y, given)
    return pos, (values[0] if values[1] == pos else values[1])


def _classes(neg, pos) -> np.ndarray:
    """``classes_`` ``[negative, positive]``: the learners' rule, ``classes_[1]`` ranked high,
    then names the user's positive class."""
    import numpy as np

    out = np.asarray([neg, pos])
    return out if out.dtype.kind in "biuf" else np.asarray([str(neg), str(pos)])


def _fit_dask(args, model) -> int:
    import numpy as np

    from ..io import save_model

    with Ticker("fit", getattr(args, "quiet", False)):
        model, used, label, held, (pos, neg), info = _cli_dask.fit(args, model, fit_classes)
    model.classes_ = _classes(neg, pos)
    model.feature_names_in_ = np.asarray(used, dtype=object)
    save_model(model, args.model, overwrite=args.force,
               metadata={"data": os.path.basename(os.path.normpath(args.file)), "label": label, "features": used,
                         "learner": args.learner, "engine": "dask", "positive_label": str(pos)})
    msg = (f"saved {type(model).__name__} on {len(used)} features to {args.model} (fitted on Dask)\n"
           + counts_line(info))
    if held is not None:
        msg += (f"held-out part ({held[0]} rows, {args.holdout:.0%}):\n"
                + _format_rows(held[1], "table", 0.95, held[2]))
    say(msg)
    return 0


def scoring_method(model) -> tuple[str, str]:
    """``(method, what)``: how the command scores rows with ``model``, and in words what the
    scores are ("" for ``decision_function``, the usual case).

    A model with ``decision_function`` (every rankwise learner, linear classifiers) scores
    with it. A model without one scores with what it has, and the command says so on
    standard error: a two-class classifier (trees, forests) with ``predict_proba``'s column
    of ``classes_[1]``, the class ``decision_function`` ranks high by scikit-learn's
    convention; a regressor (``Ridge``, ``LinearRegression``, ``DecisionTreeRegressor``, or a
    pipeline ending in one) with ``predict``. Anything else (a classifier of more than two
    classes, a pipeline of transformers only) is refused in one line."""
    from sklearn.base import is_classifier

    kind = type(_prep.final_estimator(model)).__name__
    if hasattr(model, "decision_function"):
        return "decision_function", ""
    if hasattr(model, "predict_proba"):
        classes = getattr(model, "classes_", None)
        if classes is None or len(classes) != 2:
            n = "no" if classes is None else len(classes)
            raise CLIError(f"the model ({kind}) has {n} classes; rankwise scores with the probability of the "
                           "positive class of a two-class model")
        return "predict_proba", (f"{kind} has no decision_function: its scores are predict_proba's probability of "
                                 f"class {quoted(_plain(classes[1]))}")
    if hasattr(model, "predict") and not is_classifier(model):
        return "predict", f"{kind} is a regressor: its scores are its predictions (predict)"
    raise CLIError(f"the model ({kind}) has no decision_function, no predict_proba and is not a regressor: "
                   "it gives no score to rank rows by")


def _plain(v):
    import numpy as np

    return v.item() if isinstance(v, np.generic) else v


def _decide(model, X, method: str = "decision_function"):
    """The model's scores (one a row, from ``method``: :func:`scoring_method`) for a plain
    matrix whose columns were already matched to the model's feature names (scikit-learn
    would warn that the matrix carries no names)."""
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="X does not have valid feature names")
        s = np.asarray(getattr(model, method)(X))
    if method == "predict_proba":
        s = s[:, 1] if s.ndim == 2 and s.shape[1] == 2 else s
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim != 1 or s.shape[0] != X.shape[0]:
        raise CLIError(f"the model's {method} gives an array of shape {s.shape} for {X.shape[0]} rows; rankwise "
                       "ranks rows by one score each (a model of two classes, or a regressor of one target)")
    if s.dtype.kind not in "fiub":
        raise CLIError(f"the model's {method} gives {s.dtype} values, not numbers to rank")
    return s


def _note(command: str, what: str) -> None:
    if what:
        sys.stderr.write(f"rankwise {command}: note: {shown(what)}\n")


def _cmd_score(args) -> int:
    import numpy as np

    from ..io import load_model

    out = output_path(args.out, args.force, [args.model, args.file])
    model = load_model(args.model)
    with Ticker("score", getattr(args, "quiet", False)):
        table = _read(args.file, None)
    keep = [table.resolve(c) for c in split_columns(args.keep)] if args.keep else []
    if "score" in keep:
        raise CLIError("--keep cannot carry a column named 'score': the output's score column has that name")
    if len(set(keep)) != len(keep):
        raise CLIError(f"--keep names a column twice: {args.keep}")
    names = list(getattr(model, "feature_names_in_", []))
    if names:
        missing = [c for c in names if c not in table.columns]
        if missing:
            raise CLIError(f"{args.file} lacks the model's feature columns {', '.join(map(quoted, missing[:10]))}"
                           f"{', ...' if len(missing) > 10 else ''}")
        X = _prep.model_input(table, model, names)
    else:
        X = table.matrix(None, exclude=keep)
    if X.shape[1] != model.n_features_in_:
        raise CLIError(f"the model expects {model.n_features_in_} features; {args.file} gives {X.shape[1]}")
    method, what = scoring_method(model)
    _note("score", what)
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, with the row
        s = _decide(model, X, method)
    bad = np.flatnonzero(~np.isfinite(s))
    if bad.size:  # finite weights times huge features can still overflow: no such score is written
        others = f" and {bad.size - 1} more row{'s' if bad.size > 2 else ''}" if bad.size > 1 else ""
        raise CLIError(f"the model's score of row {bad[0] + 1}{others} of {args.file} is {float(s[bad[0]])!r} "
                       "(the features are too large for the model's weights); nothing was written")
    kept = [table.text(c) for c in keep]  # as written in the file: an id "007" stays "007"
    lines = [",".join(_csv_cell(c) for c in [*keep, "score"])]
    lines += [",".join([*(_csv_cell(col[i]) if col[i] is not None else "" for col in kept), repr(float(v))])
              for i, v in enumerate(s)]
    _emit("\n".join(lines) + "\n", out, args.force, [args.model, args.file], data=True)
    return 0


# --- report / demo ---------------------------------------------------------------------------

def _cmd_report(args) -> int:
    import numpy as np

    from ..io import file_fingerprint, load_model
    from ..report import output_paths, write_report
    from ._demo import check_writable_folder

    if _multiclass.wanted(args):
        return _multiclass.report(args)
    if _survival.wanted(args):
        return _survival.report(args)
    specs = _check_criteria(split_specs(args.criteria) if args.criteria else DEFAULT_CRITERIA)
    _check_resamples(args.resamples)
    if args.rank_by is not None and args.rank_by not in specs:
        raise CLIError(f"--rank-by {args.rank_by!r} is not one of the criteria: {', '.join(specs)}")
    for path in output_paths(args.out):  # the page and its figure files, before any work
        output_path(path, args.force, [args.file, *args.model])
    for folder in dict.fromkeys(os.path.dirname(p) or "." for p in output_paths(args.out)):
        check_writable_folder(folder)  # in folders it can write
    if not args.score and not args.model:
        raise CLIError("report needs at least one --score column or --model file")
    models = [(m, load_model(m)) for m in args.model]
    features: list[str] = []
    for path, m in models:
        names = [str(c) for c in getattr(m, "feature_names_in_", [])]
        if not names:
            raise CLIError(f"the model {path} does not record its feature columns; fit it with `rankwise fit`")
        features += [c for c in names if c not in features]
    table = _read(args.file, [args.label, *args.score, *features])
    label = table.resolve(args.label)
    y = table.labels(label)
    pos = pos_label(y, args.pos_label)
    info = class_counts(np.asarray(y) == pos, pos)
    scores = {table.resolve(c): table.scores(table.resolve(c)) for c in args.score}
    clusters = cluster_ids(table, args.cluster, _used_columns(label, scores))
    groups = group_column(table, args.group, _used_columns(label, scores))
    by_group = {} if groups is None else _report_groups(write_report, groups)
    by_fold = _crossval.report_folds(table, args, label, scores, np.asarray(y) == pos)  # --fold
    learners = []
    for path, m in models:
        name = f"{type(m).__name__} ({os.path.basename(path)})"
        X = _prep.model_input(table, m, [str(c) for c in m.feature_names_in_])
        method, what = scoring_method(m)
        _note("report", what)
        with np.errstate(over="ignore", invalid="ignore"):  # refused below, with the row
            scores[name] = _decide(m, X, method)
        bad = np.flatnonzero(~np.isfinite(scores[name]))
        if bad.size:
            raise CLIError(f"the score of {shown(path)} for row {bad[0] + 1} of {args.file} is "
                           f"{float(scores[name][bad[0]])!r}; a report needs finite scores")
        learners.append({"name": name, "model file": path,
                         **({"scores": what} if what else {}),
                         "params": {k: v for k, v in m.get_params().items()
                                    if isinstance(v, (int, float, str, bool, type(None)))}})
    if args.reference is not None and args.reference not in scores:
        raise CLIError(f"--reference {args.reference!r} is not one of the scorers: {', '.join(scores)}")
    quiet = getattr(args, "quiet", False)
    with Ticker("report", quiet) as ticker:
        shown = "standard input" if args.file == "-" else args.file
        # The bytes read (standard input's copy), fingerprinted for the page's header.
        source = file_fingerprint(stdin_file() if args.file == "-" else args.file,
                                  name="standard input" if args.file == "-" else os.path.basename(args.file))
        source.update(label=str(label), positive_label=info["positive_label"])
        if clusters is not None:
            source.update(clusters=table.resolve(args.cluster))
        res = write_report(args.out, title=args.title or f"rankwise report: {os.path.basename(shown)}",
                           scores=scores, y_true=(np.asarray(y) == pos).astype(int), criteria=specs,
                           ci_method=None if args.ci in (None, "delong", "hajek") else args.ci,
                           reference=args.reference, rank_by=args.rank_by,
                           data=source, command=command_line(args),
                           learners=learners or None, n_resamples=args.resamples, random_state=args.seed,
                           force=args.force, progress=stage_lines("report", quiet, ticker),
                           alternative=args.alternative, margin=args.margin,
                           compare_method="bootstrap" if args.compare_method == "bootstrap" else None,
                           curve_test=args.curve_test,
                           **({} if clusters is None else {"clusters": clusters[0]}), **by_group, **by_fold)
    say(f"report: {args.out}\n")
    return 0 if res is not None else 1


def _report_groups(write_report, groups) -> dict:
    """The keywords of ``report --group`` for :func:`rankwise.report.write_report`: the rows'
    group ids and the column's name; a one-line error where write_report takes no groups."""
    import inspect

    params = inspect.signature(write_report).parameters
    if "groups" not in params and not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        raise CLIError("report --group needs a rankwise.report.write_report that takes groups=; this version "
                       "has none yet (evaluate --group gives the same numbers as text or JSON)")
    return {"groups": groups.values, "group_name": groups.name}


def _cmd_demo(args) -> int:
    from ._demo import format_table, run_demo

    with Ticker("demo", getattr(args, "quiet", False)):
        result = run_demo(args.out, random_state=args.seed, quick=args.quick, command=command_line(args))
    say(format_table(result))
    extra = f", {result['report']}" if result.get("report") else ""
    say(f"\nreport: {args.out}/demo.txt and {args.out}/demo.json{extra} ({result['seconds']:.1f} s)\n")
    return 0


# --- parser ----------------------------------------------------------------------------------

POS_HELP = ("the label value of the positive class; needed unless the labels are 0/1, -1/1 or true/false "
            "(then 1 or true)")

def _add_io(p, score_required=True, survival=False):
    """FILE, ``--label``, ``--score``, ``--pos-label`` and ``--cluster``; with ``survival``
    (evaluate, compare, report) also the censored-times options (:mod:`._survival`), and
    ``--label`` is then required unless ``--time`` and ``--event`` are given (checked by
    :func:`rankwise.cli._survival.usage`)."""
    p.add_argument("file", metavar="FILE", help="CSV/TSV (header or not; .gz too), Parquet, svmlight, .npy or "
                   ".npz; - for CSV/TSV on standard input; a text line may be up to 1 MiB")
    if survival:
        p.add_argument("--label", help="the label column (name, or 0-based position); or --time and --event "
                                       "for censored times")
    else:
        p.add_argument("--label", required=True, help="the label column (name, or 0-based position)")
    # with survival (evaluate, compare, report) --score is checked by _multiclass.usage: --scores may stand for it
    p.add_argument("--score", action="append", required=score_required and not survival,
                   default=[] if not score_required or survival else None,
                   help="a score column (repeat for several)" + (
                       "; with --time, a risk score: higher = earlier event; with --order, a score of ordered "
                       "classes: higher = a higher class" if survival else ""))
    p.add_argument("--pos-label", help=POS_HELP)
    p.add_argument("--cluster", metavar="COL", help="the column of each row's cluster id (patient, user): standard "
                   "errors and resamples over clusters (Obuchowski 1997)")
    if survival:
        _survival.add_arguments(p)
        _multiclass.add_arguments(p)


#: ``--weighting``'s choices (:data:`rankwise.metrics.blocks.WEIGHTINGS`, written out here
#: so that ``--help`` loads no NumPy).
WEIGHTINGS = ("pairs", "positives", "size", "uniform")

_GROUP_HELP = {
    "evaluate": "every criterion in each group with its interval (groups with their sizes), each group against "
                "the rest or --reference-group (p-values Holm-adjusted), a Wald test that all groups are equal and, "
                "with the AUC, the bias AUCs (subgroup, BPSN, BNSP, the equality gaps and the xAUC disparity: "
                "Borkan et al. 2019, Kallus & Zhou 2019); JSON adds them under \"groups\", CSV gives one row a "
                "score, criterion and group",
    "compare": "the criterion in each group for every score column, each group against the rest or "
               "--reference-group (--adjust), and the score columns compared within each group",
    "points": "the operating points of each group's rows too, with the group in the output",
    "report": "a section on the groups in the page (each group's criteria, the bias AUCs)",
}


def _add_groups(p, command: str) -> None:
    """``--group`` (and on evaluate and compare ``--strata``, ``--weighting`` and
    ``--reference-group``; on points and report ``--strata`` refused, exit 2)."""
    p.add_argument("--group", metavar="COL", help="the column of each row's group (site, sex, age band; ids as "
                   "written, none missing): " + _GROUP_HELP[command] + "; with --cluster the standard errors are "
                   "cluster-robust; not available with --dask yet")
    if command in ("evaluate", "compare"):
        p.add_argument("--reference-group", metavar="VALUE",
                       help="with --group: compare each group with this one (its id as written) instead of with "
                            "the rest of the rows")
        p.add_argument("--strata", metavar="COL",
                       help="the column of each row's stratum (site, user, a discrete covariate): the stratified "
                            "AUC instead, pairs within strata only, strata weighted by --weighting, its standard "
                            "error including the weights' estimation (Janes & Pepe 2009); strata with one class "
                            "are skipped and counted; not with --group, --criteria/--criterion or --dask")
        p.add_argument("--weighting", choices=WEIGHTINGS, default=None,
                       help="with --strata: each stratum's weight, its positive-negative pairs (default: the AUC "
                            "of the pairs within strata), its positives (the covariate-adjusted AUC of Janes & "
                            "Pepe 2009), its rows (GAUC) or equal (uniform)")
    else:
        p.add_argument("--strata", metavar="COL",
                       help=f"not offered by {command}: " + (
                           "operating points have no stratified form (--group gives each group's points)"
                           if command == "points" else "the page has no stratified section (evaluate --strata "
                           "and compare --strata give the stratified AUC)") + "; exits with status 2" + (
                           "; with --time: pairs within strata only" if command == "report" else ""))


def _add_out(p, fmt=True):
    p.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="no progress output on stderr (progress shows only on a terminal)")
    if fmt:
        p.add_argument("--format", choices=["table", "json", "csv"], default="table",
                       help="output format (default table); each states the positive label, n and positives")
    p.add_argument("--out", help="write here instead of standard output (atomically)")
    p.add_argument("--force", action="store_true", help="replace an existing output file (never an input, and never what is not a regular file: "
                        "a folder, pipe, socket or device such as /dev/null, or a link to one)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rankwise", description="Bipartite ranking: exact ranking criteria, "
                                     "their uncertainty, and learners. Higher score = more likely positive; with --time "
                                     "and --event (censored times), higher risk score = earlier event.")
    parser.add_argument("--version", action="version", version=f"rankwise {__version__}")
    parser.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    fmt = argparse.RawDescriptionHelpFormatter

    ev = sub.add_parser("evaluate", help="criteria with confidence intervals for score columns", formatter_class=fmt,
                        description="Every criterion with its confidence interval for each score column. With "
                                    "--time and --event (censored times): each risk score's Harrell's and Uno's "
                                    "concordance index (higher risk = earlier event) with its interval.",
                        epilog="example:\n  rankwise evaluate scores.csv --label default --score model_a --score model_b "
                               "--criteria auc,local_auc:top=0.1,pnorm_push:p=4 --ci delong\n"
                               "  rankwise evaluate lung.csv --time time --event status --event-value 2 "
                               "--score model_a --score model_b\n"
                               "  rankwise evaluate penguins.csv --label species --scores p_adelie,p_chinstrap,p_gentoo "
                               "--classes Adelie,Chinstrap,Gentoo --multi-class ovo\n"
                               "  rankwise evaluate grades.csv --label grade --score model_a --order low,mid,high")
    _add_io(ev, survival=True)
    _add_groups(ev, "evaluate")
    _crossval.add_arguments(ev, "evaluate")
    ev.add_argument("--criteria", help=f"comma-separated criteria (default: {','.join(DEFAULT_CRITERIA)})")
    ev.add_argument("--ci", choices=["delong", "hajek", "bootstrap", "none"], default=None,
                    help="interval method (default: DeLong for the AUC, Hajek for the others); none: the values "
                         "alone, from one sort per score column (much faster on large files)")
    ev.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    ev.add_argument("--resamples", type=int, default=1000,
                    help=f"bootstrap resamples, 2 to {MAX_RESAMPLES:,} (default 1000)")
    ev.add_argument("--seed", type=int, default=0, help="random seed of the bootstrap (default 0)")
    _cli_dask.add_arguments(ev, "compute")
    _add_out(ev)
    ev.set_defaults(func=_cmd_evaluate)

    cp = sub.add_parser("compare", help="joint comparison of score columns with adjusted p-values",
                        formatter_class=fmt, description="Compare two or more score columns on the same rows. With --time and --event "
                                    "(censored times): the risk scores' concordance indexes (higher risk = "
                                    "earlier event), Harrell's and Uno's, compared.",
                        epilog="example:\n  rankwise compare scores.csv --label default --score model_a --score model_b\n"
                               "  rankwise compare lung.csv --time time --event status --event-value 2 "
                               "--score model_a --score model_b\n"
                               "  rankwise compare penguins.csv --label species --classes Adelie,Chinstrap,Gentoo "
                               "--scores A=a_adelie,a_chinstrap,a_gentoo --scores B=b_adelie,b_chinstrap,b_gentoo\n"
                               "  rankwise compare grades.csv --label grade --order low,mid,high --score model_a "
                               "--score model_b")
    _add_io(cp, survival=True)
    _add_groups(cp, "compare")
    _crossval.add_arguments(cp, "compare")
    cp.add_argument("--criterion", default=None, help="one criterion (default auc)")
    cp.add_argument("--adjust", choices=["holm", "bonferroni", "bh", "none"], default="holm",
                    help="multiple-testing adjustment of the p-values (bh: Benjamini-Hochberg), over the "
                         "comparisons made: all pairs, or each against --reference (default holm)")
    cp.add_argument("--reference", metavar="COLUMN",
                    help="compare every other --score column with this one only (many-to-one)")
    _roctests.add_arguments(cp)
    _add_margin_options(cp, "the tests' alternative for each difference a - b (default two-sided); noninferiority: "
                            "a - b > -MARGIN (a, the first column of each pair, not worse than b by MARGIN or "
                            "more; with --reference, b is the reference), equivalence: -MARGIN < a - b < MARGIN "
                            "(two one-sided tests, the interval at level 2 LEVEL - 1)")
    cp.add_argument("--level", type=float, default=0.95, help="confidence level of the intervals (default 0.95)")
    _cli_dask.add_arguments(cp, "compare")
    _add_out(cp)
    cp.set_defaults(func=_cmd_compare)

    pt = sub.add_parser("points", help="operating points: TPR, FPR, precision and threshold with intervals",
                        formatter_class=fmt,
                        description="Operating points of each score column at given false-positive rates, "
                                    "true-positive rates or thresholds, with stratified bootstrap intervals "
                                    "(positive when score >= threshold).",
                        epilog="example:\n  rankwise points scores.csv --label default --score model_a --fpr 0.01,0.05,0.1 "
                               "--youden")
    _add_io(pt)
    _add_groups(pt, "points")
    pt.add_argument("--fpr", help="comma-separated false-positive rates (default 0.01,0.05,0.1)")
    pt.add_argument("--tpr", help="comma-separated true-positive rates (sensitivities)")
    pt.add_argument("--thresholds", help="comma-separated score thresholds")
    pt.add_argument("--youden", action="store_true", help="add each score's Youden cut (max TPR - FPR)")
    pt.add_argument("--ci", choices=["bootstrap", "none"], default="bootstrap",
                    help="intervals: stratified bootstrap percentile (default) or none")
    pt.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    pt.add_argument("--resamples", type=int, default=1000,
                    help=f"bootstrap resamples, 2 to {MAX_RESAMPLES:,} (default 1000)")
    pt.add_argument("--seed", type=int, default=0, help="random seed of the bootstrap (default 0)")
    _add_out(pt)
    pt.set_defaults(func=_cmd_points)

    _curves.add_parser(sub, fmt, _add_io, _add_out)

    ft = sub.add_parser("fit", help="train a learner and save it (safe model file)", formatter_class=fmt,
                        description="Train a rankwise learner on a file and save it. " + _prep.HELP,
                        epilog="example:\n  rankwise fit train.csv --label default --learner pairwise:loss=squared_hinge "
                               "--model model.rwm --holdout 0.3")
    ft.add_argument("file", metavar="FILE", help="the training data: CSV/TSV (.gz too), Parquet, svmlight, .npy "
                    "or .npz")
    ft.add_argument("--label", required=True, help="the label column (name, or 0-based position)")
    ft.add_argument("--features", help="comma-separated feature columns (default: all but the label)")
    ft.add_argument("--pos-label", help=POS_HELP + "; the model ranks it high")
    ft.add_argument("--categorical", metavar="COL[,COL]",
                    help="feature columns to one-hot encode even if they hold numbers (text columns always are)")
    ft.add_argument("--impute", choices=_prep.IMPUTE, default=None,
                    help="missing numeric values: replaced by the training column's median (default) or mean, "
                         "or none: an error")
    ft.add_argument("--learner", required=True, help=f"one of {', '.join(LEARNERS)}, with parameters as "
                    "name:key=value,key=value")
    ft.add_argument("--param", action="append", default=[], help="a further learner parameter key=value")
    ft.add_argument("--model", required=True, help="the model file to write")
    ft.add_argument("--holdout", type=float, default=None, help="hold this share out and print its criteria")
    ft.add_argument("--seed", type=int, default=0, help="random seed of the held-out split (default 0)")
    _cli_dask.add_arguments(ft, "fit (bbr, proper or pairwise)")
    ft.add_argument("--force", action="store_true", help="replace an existing model file (never the data, and never what is not a regular file: a "
                         "folder, pipe, socket or device, or a link to one)")
    ft.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS, help="no progress output")
    ft.set_defaults(func=_cmd_fit)

    sc = sub.add_parser("score", help="apply a saved model to a file", formatter_class=fmt,
                        description="Score the rows of a file with a saved model; writes a CSV column 'score'.",
                        epilog="example:\n  rankwise score model.rwm new.csv --out scores.csv")
    sc.add_argument("model", metavar="MODEL", help="a model file written by `rankwise fit` or rankwise.save_model")
    sc.add_argument("file", metavar="FILE", help="the rows to score, with the model's feature columns (- for "
                    "CSV/TSV on standard input)")
    sc.add_argument("--keep", metavar="COL[,COL]",
                    help="columns to copy into the output before the score, e.g. an id to join back on")
    _add_out(sc, fmt=False)
    sc.set_defaults(func=_cmd_score)

    rp = sub.add_parser("report", help="a self-contained HTML report with figures", formatter_class=fmt,
                        description="Criteria with intervals, ROC curves with bands and the comparison, as one "
                                    "HTML page (PNG figures beside it). With --time and --event (censored times): "
                                    "each risk score's Harrell's and Uno's concordance index (higher risk = "
                                    "earlier event) with its interval, and their differences.",
                        epilog="example:\n  rankwise report scores.csv --label default --score model_a --score model_b "
                               "--out report.html\n"
                               "  rankwise report lung.csv --time time --event status --event-value 2 "
                               "--score model_a --score model_b --out report.html\n"
                               "  rankwise report penguins.csv --label species --classes Adelie,Chinstrap,Gentoo "
                               "--scores A=a_adelie,a_chinstrap,a_gentoo --scores B=b_adelie,b_chinstrap,b_gentoo "
                               "--out report.html")
    _add_io(rp, score_required=False, survival=True)
    _add_groups(rp, "report")
    _crossval.add_arguments(rp, "report")
    rp.add_argument("--model", action="append", default=[], help="a saved model to score the file with (repeat)")
    rp.add_argument("--criteria", help=f"comma-separated criteria (default: {','.join(DEFAULT_CRITERIA)})")
    rp.add_argument("--ci", choices=["delong", "hajek", "bootstrap"], default=None,
                    help="interval method (default: DeLong for the AUC, Hajek for the others)")
    rp.add_argument("--title", help="the page title (default: rankwise report: FILE)")
    rp.add_argument("--reference", metavar="NAME",
                    help="the scorer the others are compared with in the overview (default: the first --score, "
                         "else the first --model); p-values Holm-adjusted over those comparisons")
    _add_margin_options(rp, "the alternative of each scorer's test against --reference in the overview (default "
                            "two-sided); noninferiority: the scorer not worse than the reference by MARGIN or more, "
                            "equivalence: within MARGIN of it (two one-sided tests); binary labels only")
    rp.add_argument("--compare-method", choices=["delong", "bootstrap"], default=None,
                    help="how each scorer's difference to --reference is tested in the overview: the analytic "
                         "variance (default) or pROC's bootstrap test (--resamples, --seed; every criterion, the KS "
                         "statistic included); binary labels")
    rp.add_argument("--curve-test", action="store_true",
                    help="add Venkatraman's test that each scorer's ROC curve equals the reference's (--resamples "
                         "permutations, --seed); not a test of the AUCs; binary labels")
    rp.add_argument("--rank-by", metavar="SPEC",
                    help="the criterion (one of --criteria) the overview is ranked by (default: the first)")
    rp.add_argument("--resamples", type=int, default=1000,
                    help=f"bootstrap resamples of the ROC bands and operating-point intervals, of the calibration "
                         f"error's interval (scores in [0, 1]) and of --ci bootstrap, 2 to {MAX_RESAMPLES:,} "
                         f"(default 1000); they take most of a report's time on large files")
    rp.add_argument("--seed", type=int, default=0, help="random seed of the bootstrap (default 0)")
    rp.add_argument("--out", required=True, help="the HTML page to write; figures go to a folder beside it")
    rp.add_argument("--force", action="store_true",
                    help="replace an existing page and its figure files (never an input, and never what is not a "
                         "regular file: a folder, pipe, socket or device, or a link to one)")
    rp.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS, help="no progress output")
    rp.set_defaults(func=_cmd_report)

    demo = sub.add_parser("demo", help="the main job on the embedded credit-risk dataset", formatter_class=fmt,
                          description="Split the embedded credit data (modeldata/credit_data), fit every rankwise "
                                      "learner and a logistic regression, evaluate every criterion with intervals on "
                                      "the held-out part, compare the learners and write the report to OUT.",
                          epilog="example:\n  rankwise demo --out out")
    demo.add_argument("--out", default="out", help="output directory (default: out)")
    demo.add_argument("--seed", type=int, default=0, help="random_state of the split (default: 0)")
    demo.add_argument("--quick", action="store_true", help="a subsample, for tests")
    demo.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS, help="no progress output")
    demo.set_defaults(func=_cmd_demo)
    return parser


def _group_usage(args) -> str | None:
    """What is wrong with the use of ``--group``/``--strata`` and their options (one line,
    exit status 2), before any file is read; None when nothing is."""
    group, strata = getattr(args, "group", None), getattr(args, "strata", None)
    command = args.command
    if strata is not None and command in ("points", "report"):
        return (f"--strata is not offered by {command}: " + (
            "operating points have no stratified form; --group gives each group's points" if command == "points"
            else "the report has no stratified section; evaluate --strata and compare --strata give the "
                 "stratified AUC"))
    if group is not None and strata is not None:
        return "--group and --strata do not combine; give one of them"
    if (group is not None or strata is not None) and _cli_dask.wanted(args):
        return (f"{'--group' if group is not None else '--strata'} is not available with "
                f"{'--dask' if getattr(args, 'dask', False) else '--scheduler'} yet")
    if getattr(args, "reference_group", None) is not None and group is None:
        return "--reference-group needs --group"
    if getattr(args, "weighting", None) is not None and strata is None:
        return "--weighting needs --strata"
    if command == "evaluate" and (group is not None or strata is not None) and args.ci in ("bootstrap", "none"):
        return (f"--ci {args.ci} is not available with {'--group' if group is not None else '--strata'}: its "
                "intervals and tests are analytic (DeLong for the AUC, Hajek for the other criteria)")
    if strata is not None and (getattr(args, "criteria", None) or getattr(args, "criterion", None)):
        return (f"--strata gives the stratified AUC; {'--criteria' if command == 'evaluate' else '--criterion'} "
                "is not used with it")
    return None


def _warning_line(command: str):
    """Warnings (an undefined criterion, an interval that cannot be estimated) as one
    line on standard error, without Python's source-line echo. A few-clusters warning
    (``--cluster``) is about the data, the same for every criterion and score column: it
    is shown once, without the name of the function that raised it."""
    import re

    seen: set = set()

    def show(message, category, filename, lineno, file=None, line=None):
        text = str(message).strip().splitlines()[0] if str(message).strip() else category.__name__
        if category.__name__ == "FewClustersWarning":
            text = re.sub(r"^\w+(\('[^']*'\))?: ", "", text)
            if text in seen:
                return
            seen.add(text)
        sys.stderr.write(f"rankwise {command}: warning: {shown(text)} [{category.__name__}]\n")
    return show


def keep_freed_memory() -> bool:
    """Ask glibc's allocator to keep freed memory for reuse within this process.

    By default glibc gives every array above a few megabytes its own ``mmap`` and returns
    it to the system when freed, so each NumPy temporary of that size pays its page faults
    again: on 10^7 rows that was half of ``rankwise evaluate``'s time (16.2 s against 8.3 s,
    same peak memory). A command is a short-lived process of ours, so it raises the
    ``mmap`` threshold to glibc's maximum (32 MiB) and stops trimming the heap. Not done
    by the library, whose process belongs to the user; elsewhere than glibc, nothing.
    Returns whether both settings were accepted."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    ok = mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024) == 1
    return bool(mallopt(M_TRIM_THRESHOLD, 2 ** 31 - 1) == 1 and ok)


def _add_margin_options(p, alternative_help: str) -> None:
    """``--alternative`` and ``--margin`` (compare; the report's tests against the reference)."""
    p.add_argument("--alternative", choices=["two-sided", "greater", "less", "noninferiority", "equivalence"],
                   default="two-sided", help=alternative_help)
    p.add_argument("--margin", type=float, default=None,
                   help="with --alternative noninferiority or equivalence (required there, refused otherwise): "
                        "the largest difference, in the criterion's units, that still counts as acceptable, "
                        "e.g. 0.02 of AUC; exits with status 2 when missing, not positive or not finite")


def _margin_usage(args) -> str | None:
    """compare's and report's ``--margin``: required with ``--alternative noninferiority``
    or ``equivalence`` (a positive finite number), refused with the other alternatives
    (exit status 2); the report's tests against the reference are for binary labels only."""
    if getattr(args, "command", None) not in ("compare", "report"):
        return None
    alt, margin = args.alternative, args.margin
    if args.command == "report":
        asked = [o for o, v in (("--alternative", alt != "two-sided"), ("--compare-method", args.compare_method),
                                ("--curve-test", args.curve_test)) if v]
        for wanted, option in ((_multiclass.wanted(args), "--classes/--scores or --order"),
                               (_survival.wanted(args), "--time/--event")):
            if wanted and asked:
                return f"report {asked[0]} is for binary labels; it is not offered with {option}"
    if alt not in ("noninferiority", "equivalence"):
        if margin is not None:
            return f"--margin is only for --alternative noninferiority or equivalence; got --alternative {alt}"
        return None
    what = ("the largest shortfall of a below b that still counts as non-inferior" if alt == "noninferiority"
            else "the largest difference |a - b| that still counts as equivalent")
    if margin is None:
        return f"--alternative {alt} needs --margin: a positive number, {what}"
    if not (margin > 0 and margin != float("inf")):
        return f"--margin must be a positive number, {what}; got {margin!r}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    if getattr(args, "cluster", None) is not None and _cli_dask.wanted(args):
        parser.error(f"--cluster is not supported with {'--dask' if args.dask else '--scheduler'} yet")
    problem = _multiclass.usage(args)
    if problem is None and not _multiclass.wanted(args):
        problem = _survival.usage(args)
        if problem is None and not _survival.wanted(args):
            problem = _group_usage(args)
    if problem is None:
        problem = _crossval.usage(args)  # --fold
    if problem is None:
        problem = _margin_usage(args)
    if problem is None:
        problem = _curves.usage(args)
    if problem is None:
        problem = _roctests.usage(args)
    if problem is not None:
        sys.stderr.write(f"rankwise {args.command}: error: {problem}\n")
        return 2
    keep_freed_memory()
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _warning_line(args.command)
            return args.func(args)
    except (ValueError, TypeError, OSError, ImportError, KeyError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, KeyError):
            msg = f"missing {msg}"
        msg = stdin_message(msg)
        sys.stderr.write(f"rankwise {args.command}: error: {shown(msg)}\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
