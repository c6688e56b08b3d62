"""``compare``'s bootstrap comparison (``--method bootstrap``, ``--resamples``, ``--seed``,
``--interval``) and Venkatraman's test of equal ROC curves for each pair
(``--curve-test``, ``--permutations``): binary labels on one machine."""

from __future__ import annotations

#: ``--resamples`` of the bootstrap comparison when not given (pROC's ``boot.n``).
DEFAULT_RESAMPLES = 2000
#: ``--permutations`` of the curve test when not given (pROC's ``boot.n``).
DEFAULT_PERMUTATIONS = 2000

CURVE_TEST_NOTE = ("curve test: Venkatraman's permutation test that the two ROC curves are equal at every operating "
                   "point (Venkatraman & Begg 1996; pROC's roc.test(method = 'venkatraman')); it is not a test of "
                   "the AUCs: curves that cross can differ with equal AUCs; p-values not adjusted")


def add_arguments(p) -> None:
    p.add_argument("--method", choices=["delong", "hajek", "bootstrap"], default=None,
                   help="how the differences are tested: the criterion's analytic variance (default: DeLong for "
                        "the AUC, Hajek for the others) or the bootstrap (rows resampled within each class, or "
                        "whole clusters; every criterion, the KS statistic and average precision included)")
    p.add_argument("--resamples", type=int, default=None,
                   help=f"with --method bootstrap: the resamples (default {DEFAULT_RESAMPLES})")
    p.add_argument("--interval", choices=["bca", "percentile"], default=None,
                   help="with --method bootstrap: the intervals of the differences (default bca)")
    p.add_argument("--curve-test", action="store_true",
                   help="add Venkatraman's permutation test that each pair's ROC curves are equal (not their AUCs)")
    p.add_argument("--permutations", type=int, default=None,
                   help=f"with --curve-test: the permutations (default {DEFAULT_PERMUTATIONS})")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed of the bootstrap and the permutations (default 0)")


def usage(args) -> str | None:
    """One line for what is wrong with these options (exit status 2), else None."""
    if getattr(args, "command", None) != "compare":
        return None
    boot = args.method == "bootstrap"
    if not boot:
        for option, value in (("--resamples", args.resamples), ("--interval", args.interval)):
            if value is not None:
                return f"{option} goes with --method bootstrap"
    if args.permutations is not None and not args.curve_test:
        return "--permutations goes with --curve-test"
    if args.seed is not None and not (boot or args.curve_test):
        return "--seed goes with --method bootstrap or --curve-test"
    if args.resamples is not None and args.resamples < 2:
        return f"--resamples must be at least 2; got {args.resamples}"
    if args.permutations is not None and args.permutations < 1:
        return f"--permutations must be at least 1; got {args.permutations}"
    if boot or args.curve_test or args.method is not None:
        from . import _dask as _cli_dask
        from . import _multiclass, _survival

        what = "--method" if args.method is not None else "--curve-test"
        for wanted, option in ((_multiclass.wanted(args), "--classes/--scores or --order"),
                               (_survival.wanted(args), "--time/--event"), (_cli_dask.wanted(args), "--dask/--scheduler"),
                               (getattr(args, "strata", None) is not None, "--strata"),
                               (getattr(args, "group", None) is not None, "--group")):
            if wanted:
                return f"{what} is not offered with {option}"
    return None


def compare_options(args) -> dict:
    """The keywords of :func:`rankwise.stats.compare` these options ask for."""
    if args.method is None:
        return {}
    if args.method != "bootstrap":
        return {"method": args.method}
    return {"method": "bootstrap", "n_resamples": args.resamples or DEFAULT_RESAMPLES,
            "random_state": 0 if args.seed is None else args.seed, "interval": args.interval or "bca"}


def curve_tests(is_pos, scores: dict, comparison, args) -> list[dict]:
    """Venkatraman's test for each pair the comparison made (same pairs, same order)."""
    from .. import stats

    seed = 0 if args.seed is None else args.seed
    n_perm = args.permutations or DEFAULT_PERMUTATIONS
    out = []
    for p in comparison.pairs:
        t = stats.curve_test(is_pos, scores[p.a], scores[p.b], n_permutations=n_perm, random_state=seed,
                             names=(p.a, p.b))
        out.append({"a": p.a, "b": p.b, "statistic": float(t.statistic), "p_value": float(t.p_value),
                    "n_permutations": int(t.n_permutations)})
    return out


def curve_tests_text(rows: list[dict]) -> str:
    from ._common import _text_table

    table = [["curve test", "statistic E", "p-value", "permutations"]]
    for r in rows:
        n = r["n_permutations"]
        p = f"< {1 / n:.2g}" if r["p_value"] == 0 else f"{r['p_value']:.4f}"
        table.append([f"{r['a']} vs {r['b']}", f"{r['statistic']:.6g}", p, f"{n:,}"])
    return _text_table(table, left=1) + "\n" + CURVE_TEST_NOTE + "\n"


__all__ = ["add_arguments", "usage", "compare_options", "curve_tests", "curve_tests_text", "CURVE_TEST_NOTE"]
