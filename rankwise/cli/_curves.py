"""``rankwise curves``: the points of each score column's curve, to plot or to keep: the
ROC curve, the precision-recall curve, the detection error trade-off (DET), and the
smoothed ROC curves (binormal, kernel density) with their areas."""

from __future__ import annotations

from ._common import _csv_cell, _emit, _labels_and_scores, class_counts, counts_line, json_text, output_path

#: ``--curve`` choices: the columns each writes, and a line saying what they are.
CURVES = {
    "roc": (("fpr", "tpr", "threshold"),
            "ROC curve: fpr = false-positive rate, tpr = true-positive rate of the rule score >= threshold"),
    "pr": (("recall", "precision", "threshold"),
           "precision-recall curve: recall and precision of the rule score >= threshold"),
    "det": (("fpr", "fnr", "threshold"),
            "detection error trade-off: fpr = false-positive rate, fnr = false-negative rate of the rule "
            "score >= threshold (plot on normal-deviate axes)"),
    "binormal": (("fpr", "tpr"),
                 "smoothed ROC curve, binormal: tpr = Phi(a + b Phi^-1(fpr)), a and b fitted to the empirical "
                 "points (pROC's smooth(method = 'binormal'))"),
    "density": (("fpr", "tpr"),
                "smoothed ROC curve, kernel density estimates of each class's scores (pROC's "
                "smooth(method = 'density'))"),
}


def add_parser(sub, fmt, add_io, add_out) -> None:
    """The ``curves`` subcommand; ``add_io``/``add_out``: the options every command shares."""
    cv = sub.add_parser("curves", help="the points of each score's ROC, PR, DET or smoothed ROC curve",
                        formatter_class=fmt,
                        description="The points of each score column's curve (positive when score >= "
                                    "threshold): ROC, precision-recall, DET (false-positive against "
                                    "false-negative rate), or the ROC curve smoothed (binormal or kernel "
                                    "density, as pROC's smooth) with the smoothed curve's area.",
                        epilog="example:\n  rankwise curves scores.csv --label default --score model_a --curve det "
                               "--format csv --out det.csv\n"
                               "  rankwise curves scores.csv --label default --score model_a --curve binormal")
    add_io(cv)
    cv.add_argument("--curve", choices=list(CURVES), default="roc", help="which curve (default roc)")
    cv.add_argument("--all-points", action="store_true",
                    help="keep every threshold's point (default: ROC and DET drop the points that lie on a "
                         "straight line between their neighbours, as scikit-learn's drop_intermediate; the "
                         "curve drawn is the same)")
    cv.add_argument("--points", type=int, default=512,
                    help="smoothed curves: the number of points (default 512, as pROC)")
    add_out(cv)
    cv.set_defaults(func=run)


def usage(args) -> str | None:
    """One line for what is wrong with ``curves``' options (exit status 2), else None."""
    if getattr(args, "command", None) != "curves":
        return None
    if getattr(args, "cluster", None) is not None:
        return "--cluster does not change a curve's points; it is not an option of curves"
    if args.curve in ("binormal", "density"):
        if args.all_points:
            return f"--all-points is for the empirical curves; --curve {args.curve} has --points points"
        if args.points < 2:
            return f"--points must be at least 2; got {args.points}"
    elif args.points != 512:
        return f"--points is for the smoothed curves (--curve binormal or density), not --curve {args.curve}"
    return None


def _curve(kind: str, y, s, args) -> tuple[dict, dict]:
    """``(columns, extra)``: the curve's coordinate arrays by column name, and what else it
    reports (the smoothed curve's area and fitted parameters)."""
    import rankwise as rw

    drop = not args.all_points
    if kind == "roc":
        c = rw.roc_curve(y, s, drop_intermediate=drop)
        return {"fpr": c.fpr, "tpr": c.tpr, "threshold": c.thresholds}, {}
    if kind == "pr":
        c = rw.precision_recall_curve(y, s, drop_intermediate=drop)
        return {"recall": c.recall, "precision": c.precision, "threshold": c.thresholds}, {}
    if kind == "det":
        c = rw.det_curve(y, s, drop_intermediate=drop)
        return {"fpr": c.fpr, "fnr": c.fnr, "threshold": c.thresholds}, {}
    sm = rw.smooth_roc(y, s, method=kind, n=args.points)
    extra = {"area": float(sm.auc())}
    if sm.fit is not None:  # binormal: tpr = Phi(a + b Phi^-1(fpr))
        extra.update(a=float(sm.fit.a), b=float(sm.fit.b))
    else:
        extra.update(bandwidth=float(sm.bandwidth))
    return {"fpr": sm.fpr, "tpr": sm.tpr}, extra


def run(args) -> int:
    import numpy as np

    output_path(args.out, args.force, [args.file])
    _, label, y, pos, scores = _labels_and_scores(args)
    info = class_counts(y, pos)
    columns, what = CURVES[args.curve]
    curves = {}
    for name, s in scores.items():
        cols, extra = _curve(args.curve, y, s, args)
        curves[name] = ({k: np.asarray(v, dtype=np.float64) for k, v in cols.items()}, extra)
    if args.format == "json":
        text = json_text({**info, "curve": args.curve, "positive_when": "score >= threshold", "columns": list(columns),
                          "note": what + ("; a null threshold is +infinity (no row positive)" if "threshold" in columns
                                          else ""),
                          "curves": {n: {**{k: v.tolist() for k, v in c.items()}, **e} for n, (c, e) in curves.items()}})
    elif args.format == "csv":
        lines = [",".join(["score", *columns])]
        for n, (c, _) in curves.items():
            cell = _csv_cell(n)
            lines += [",".join([cell, *(repr(float(c[k][i])) for k in columns)]) for i in range(c[columns[0]].shape[0])]
        text = "\n".join(lines) + "\n"
    else:
        text = _table(curves, columns, what, info)
    _emit(text, args.out, args.force, [args.file], data=args.format != "table")
    return 0


def _table(curves: dict, columns: tuple, what: str, info: dict) -> str:
    from ._common import _text_table

    out = []
    for n, (c, extra) in curves.items():
        head = f"{n}: {c[columns[0]].shape[0]:,} points"
        if "area" in extra:
            head += f", area {extra['area']:.6f}"
        if "a" in extra:
            head += f" (a = {extra['a']:.6g}, b = {extra['b']:.6g})"
        if "bandwidth" in extra:
            head += f" (bandwidth {extra['bandwidth']:.6g})"
        rows = [[f"{float(c[k][i]):.6g}" for k in columns] for i in range(c[columns[0]].shape[0])]
        out.append(head + "\n" + _text_table([list(columns), *rows], left=0) + "\n")
    return "\n".join(out) + what + "\n" + counts_line(info)


__all__ = ["add_parser", "usage", "run", "CURVES"]
