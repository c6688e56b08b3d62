"""The command line's help (issue 15, item 2): every option documented, and ``--help``
without loading scikit-learn, SciPy or matplotlib (the package root loads its
submodules on first use)."""

from __future__ import annotations

import subprocess
import sys

import pytest


# --- help ----------------------------------------------------------------------------------------

def _actions(parser, where="rankwise"):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"rankwise {name}")
        elif not isinstance(action, argparse._HelpAction):
            yield where, action


def test_every_option_of_every_subcommand_has_help():
    from rankwise.cli import build_parser

    actions = list(_actions(build_parser()))
    assert {w for w, _ in actions} >= {f"rankwise {c}" for c in ("evaluate", "compare", "fit", "score", "report",
                                                                 "demo")}
    missing = [f"{w} {'/'.join(a.option_strings) or a.dest}" for w, a in actions if not (a.help or "").strip()]
    assert missing == []


HEAVY = ("sklearn", "scipy", "matplotlib", "pandas", "pyarrow", "dask")
#: ``--help`` and ``--version`` load nothing outside the standard library and rankwise's
#: parser: NumPy alone took 0.16 s of their 0.21 s (issue 16: under 0.3 s).
HEAVY_OR_NUMPY = HEAVY + ("numpy", "threadpoolctl", "joblib")

HELP_SCRIPT = """
import contextlib, io, sys
import rankwise.cli
parser = rankwise.cli.build_parser()
with contextlib.redirect_stdout(io.StringIO()):
    for argv in (["--help"], *([c, "--help"] for c in ("evaluate", "compare", "fit", "score", "report", "demo"))):
        try:
            parser.parse_args(argv)
        except SystemExit:
            pass
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))))
"""


def test_help_loads_no_heavy_library():
    # `rankwise --help` took 1.5 s: the package root imported scikit-learn and SciPy first
    r = subprocess.run([sys.executable, "-c", HELP_SCRIPT, *HEAVY], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "", r.stdout + r.stderr
    # the command itself, as `python -m rankwise --help` runs it: what -X importtime lists
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "rankwise", "--help"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and "evaluate" in r.stdout
    loaded = {line.split("|")[-1].strip().split(".")[0] for line in r.stderr.splitlines() if "|" in line}
    assert "rankwise" in loaded and not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_package_names_load_on_first_use():
    code = ("import sys, rankwise as rw; assert 'sklearn' not in sys.modules; "
            "print(rw.auc([0, 1, 1], [0.1, 0.9, 0.4]), rw.BBRRanker.__name__, callable(rw.stats.estimate), "
            "callable(rw.compute), set(rw.__all__) <= set(dir(rw)), 'auc' in dir(rw))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["1.0", "BBRRanker", "True", "True", "True", "True"], r.stderr
    r = subprocess.run([sys.executable, "-c", "import rankwise; rankwise.no_such_name"], capture_output=True,
                       text=True, timeout=120)
    assert "AttributeError: module 'rankwise' has no attribute 'no_such_name'" in r.stderr


def _imported(argv: list[str]) -> tuple[subprocess.CompletedProcess, set]:
    """Run ``python -X importtime -m rankwise ARGV`` and list the top-level packages it imported."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "rankwise", *argv], capture_output=True, text=True,
                       timeout=120)
    return r, {line.split("|")[-1].strip().split(".")[0] for line in r.stderr.splitlines() if "|" in line}


def test_help_and_version_load_no_numpy():
    from rankwise.cli import build_parser

    commands = [[]] + [[c] for c in _subcommands(build_parser())]
    assert len(commands) >= 8  # the top level, evaluate, compare, points, fit, score, report, demo
    for argv in [["--version"]] + [c + ["--help"] for c in commands]:
        r, loaded = _imported(argv)
        assert r.returncode == 0 and r.stdout.strip(), (argv, r.stderr[-300:])
        assert "rankwise" in loaded and not loaded & set(HEAVY_OR_NUMPY), (argv, sorted(loaded & set(HEAVY_OR_NUMPY)))
    r, _ = _imported(["--version"])
    assert r.stdout.startswith("rankwise ")


def _subcommands(parser) -> list[str]:
    import argparse

    return [name for a in parser._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices]


def test_undefined_metric_warning_is_one_class_loaded_on_first_use():
    code = ("import sys, rankwise as rw; assert 'numpy' not in sys.modules; w = rw.UndefinedMetricWarning; "
            "from rankwise._validation import UndefinedMetricWarning as v; "
            "from rankwise import UndefinedMetricWarning as u; print(w is v is u, issubclass(w, UserWarning))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["True", "True"], r.stderr


def test_criteria_and_intervals_load_neither_sklearn_nor_scipy():
    # rw.auc imported scikit-learn (the learners, looked up first: 6 s cold) and rankwise.stats
    # scipy.stats (0.9 s) for a few normal quantiles: every `rankwise evaluate` paid both.
    code = ("import sys, rankwise as rw; v = rw.auc([0, 1, 1], [0.1, 0.9, 0.4]); "
            "e = rw.stats.estimate([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5]).confidence_interval(); "
            "c = rw.stats.compare([0, 1, 1, 0], [[0.1, 0.9, 0.4, 0.5], [0.2, 0.3, 0.9, 0.1]]); "
            "print(v, sorted({m.split('.')[0] for m in sys.modules} & {'sklearn', 'scipy'}))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["1.0", "[]"], r.stdout + r.stderr


def test_evaluate_with_pyarrow_does_not_import_pandas(tmp_path):
    # pyarrow's to_numpy imports pandas when it is installed (0.2-0.5 s a command); the reader
    # copies Arrow buffers itself. Text labels with a missing score exercise codes and nulls.
    pytest.importorskip("pyarrow")
    f = tmp_path / "d.csv"
    f.write_text("id,label,score,flag\n1,pos,0.9,true\n2,neg,0.1,false\n3,neg,,true\n4,pos,0.4,false\n"
                 "5,neg,0.3,true\n6,pos,0.2,false\n")
    r, loaded = _imported(["evaluate", str(f), "--label", "label", "--score", "score", "--pos-label", "pos",
                           "--ci", "none"])
    assert r.returncode == 1 and "score" in r.stderr and "row" in r.stderr  # the missing score, named
    r, loaded = _imported(["evaluate", str(f), "--label", "label", "--score", "id", "--pos-label", "pos",
                           "--ci", "none"])
    assert r.returncode == 0 and "auc" in r.stdout, r.stderr[-400:]
    assert "pyarrow" in loaded and "pandas" not in loaded, sorted(loaded)


def test_commands_keep_freed_memory_on_glibc():
    # Each NumPy temporary above glibc's mmap threshold paid its page faults again: half of
    # `rankwise evaluate` on 10^7 rows (BENCHMARKS.md). The command raises the threshold.
    import platform

    from rankwise.cli._main import keep_freed_memory

    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert keep_freed_memory() is glibc
