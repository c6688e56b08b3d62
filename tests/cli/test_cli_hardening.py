"""Issue 27 on the command line: outputs that are not files, duplicate column names,
models without ``decision_function``, text from files shown escaped, and a hostile
user's flags and files. Every failure is exit status 1 with one line on stderr, and
nothing the user gave is lost or replaced.

Calls that a regression could make block (a named pipe opened for writing or reading)
run in a child process with a timeout and an address-space limit."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

from rankwise.cli import _common, _dask, main
from rankwise._text import quoted, shown, terminal_text


def _run(capsys, *args):
    """``rankwise ARGS`` in-process: (exit status, stdout, stderr)."""
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_line_error(capsys, *args, command=None):
    code, out, err = _run(capsys, *args)
    command = command or args[0]
    assert code == 1, (code, out, err)
    assert err.startswith(f"rankwise {command}: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def _child(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    prelude = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)


def _csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        fh.write(",".join(header) + "\n")
        for r in rows:
            fh.write(",".join(map(str, r)) + "\n")
    return str(path)


@pytest.fixture
def folder(monkeypatch):
    """A short-named folder (AF_UNIX socket paths are limited) holding ``s.csv`` (label y,
    scores a and b, features x1 and x2) and ``m.rwm`` (bbr on x1, x2), as the current
    directory."""
    d = tempfile.mkdtemp(prefix="rw27c-", dir="/tmp")
    rng = np.random.default_rng(3)
    n = 60
    y = np.r_[np.zeros(n // 2, int), np.ones(n // 2, int)]
    cols = [y + rng.normal(size=n), rng.normal(size=n), y + rng.normal(size=n), rng.normal(size=n)]
    _csv(os.path.join(d, "s.csv"), ["y", "a", "b", "x1", "x2"],
         [[int(y[i])] + [repr(float(c[i])) for c in cols] for i in range(n)])
    monkeypatch.chdir(d)
    assert main(["fit", "s.csv", "--label", "y", "--features", "x1,x2", "--learner", "bbr", "--model", "m.rwm",
                 "--quiet"]) == 0
    yield d
    shutil.rmtree(d)


# ----------------------------------------------------------------- outputs that are not files


def _make(kind: str, path: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.close()
    else:
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
        except (PermissionError, OSError) as exc:
            pytest.skip(f"cannot make a device node here: {exc}")


_IS = {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}

WRITERS = {
    "evaluate": ["evaluate", "s.csv", "--label", "y", "--score", "a", "--ci", "none", "--out", "{out}", "--force"],
    "compare": ["compare", "s.csv", "--label", "y", "--score", "a", "--score", "b", "--out", "{out}", "--force"],
    "points": ["points", "s.csv", "--label", "y", "--score", "a", "--ci", "none", "--out", "{out}", "--force"],
    "fit": ["fit", "s.csv", "--label", "y", "--features", "x1,x2", "--learner", "bbr", "--model", "{out}",
            "--force"],
    "score": ["score", "m.rwm", "s.csv", "--out", "{out}", "--force"],
    "report": ["report", "s.csv", "--label", "y", "--score", "a", "--out", "{out}", "--force"],
}


def test_every_command_refuses_an_output_that_is_not_a_file(folder):
    """A FIFO for every command that writes (and a socket, a device and links to each for
    two of them), with --force: exit 1, one line, the node untouched. All in one child:
    a regression opening the FIFO would block it, not the test run."""
    cases = []
    for i, (name, argv) in enumerate(WRITERS.items()):
        node = f"n{i}"
        _make("fifo", node)
        cases.append((name, "fifo", node, node, argv))
    for kind in ("socket", "device"):
        for name in ("evaluate", "fit"):
            node = f"{kind[:3]}{name[:3]}"
            _make(kind, node)
            cases.append((name, kind, node, node, WRITERS[name]))
    for kind, node in (("fifo", "n0"), ("device", "devfit")):
        link = f"l{node}"
        os.symlink(node, link)
        for name in ("evaluate", "score", "report"):
            cases.append((name, kind, node, link, WRITERS[name]))
    # report: a figure file that is a pipe; demo: one of its files is a pipe
    os.mkdir("page_files")
    _make("fifo", os.path.join("page_files", "roc.png"))
    cases.append(("report", "fifo", os.path.join("page_files", "roc.png"), "page.html", WRITERS["report"]))
    os.mkdir("demo_out")
    _make("fifo", os.path.join("demo_out", "demo.json"))
    cases.append(("demo", "fifo", os.path.join("demo_out", "demo.json"), "demo_out",
                  ["demo", "--out", "{out}", "--quick"]))
    calls = [[a.replace("{out}", out) for a in argv] for _, _, _, out, argv in cases]
    code = f"""
        import contextlib, io, json
        from rankwise.cli import main
        results = []
        for argv in {calls!r}:
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                status = main(argv + ["--quiet"] if argv[0] != "demo" else argv)
            results.append([status, err.getvalue()])
        print(json.dumps(results))
    """
    r = _child(code, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    results = json.loads(r.stdout)
    for (name, kind, node, out, _), (status, err) in zip(cases, results):
        assert status == 1, (name, kind, out, err)
        assert err.startswith(f"rankwise {name}: error:") and err.count("\n") == 1, err
        assert "not a regular file" in err and "force" in err, err
        assert _IS[kind](os.lstat(node).st_mode), (name, node)
        if out != node and os.path.islink(out):
            assert os.readlink(out) == node
    assert not os.path.exists("page.html") and sorted(os.listdir("demo_out")) == ["demo.json"]


def test_force_help_states_the_rule(capsys):
    for command in ("evaluate", "fit", "report", "score"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "never what is not a regular file" in text and "pipe" in text and "device" in text, command


def test_output_path_mistakes_are_one_line_before_any_work(folder, capsys):
    err = _one_line_error(capsys, "evaluate", "s.csv", "--label", "y", "--score", "a", "--out", "")
    assert "empty" in err
    err = _one_line_error(capsys, "evaluate", "s.csv", "--label", "y", "--score", "a", "--out", "s.csv/x/o.txt",
                          "--force")
    assert "is not a folder" in err
    before = open("s.csv").read()
    for out in ("s.csv", "./s.csv", "m.rwm"):
        _one_line_error(capsys, "score", "m.rwm", "s.csv", "--out", out, "--force")
    assert open("s.csv").read() == before
    # a missing folder is made, as before
    assert _run(capsys, "evaluate", "s.csv", "--label", "y", "--score", "a", "--ci", "none",
                "--out", "new/sub/o.txt")[0] == 0
    assert os.path.isfile("new/sub/o.txt")


def test_a_pipe_or_device_as_input_is_refused_without_blocking(folder):
    os.mkfifo("in.csv")
    _make("device", "dev.csv")
    code = """
        import contextlib, io, json
        from rankwise.cli import main
        out = []
        for argv in (["evaluate", "in.csv", "--label", "y", "--score", "a"],
                     ["evaluate", "dev.csv", "--label", "y", "--score", "a"],
                     ["score", "m.rwm", "in.csv"]):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                out.append([main(argv), err.getvalue()])
        print(json.dumps(out))
    """
    r = _child(code, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    for status, err in json.loads(r.stdout):
        assert status == 1 and err.count("\n") == 1 and "not a file" in err and "FILE -" in err, err
    assert stat.S_ISFIFO(os.lstat("in.csv").st_mode)


# ----------------------------------------------------------------- duplicate column names


def _dup_files(d):
    """The same table (y, s, then s again with other values) in every format."""
    y = [0, 1, 0, 1, 0, 1]
    s1 = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # AUC of the first s: 2/3
    s2 = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]  # the second s: 1/3
    rows = list(zip(y, s1, s2))
    files = {"csv": _csv(os.path.join(d, "dup.csv"), ["y", "s", "s"], rows)}
    tsv = os.path.join(d, "dup.tsv")
    with open(tsv, "w") as fh:
        fh.write("y\ts\ts\n" + "".join("\t".join(map(str, r)) + "\n" for r in rows))
    files["tsv"] = tsv
    gz = os.path.join(d, "dup.csv.gz")
    with gzip.open(gz, "wt") as fh:
        fh.write("y,s,s\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    files["gz"] = gz
    files["spaces"] = _csv(os.path.join(d, "sp.csv"), ["y", " s", "s "], rows)  # names are stripped
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_arrays([pa.array(y), pa.array(s1), pa.array(s2)], names=["y", "s", "s"]),
                   os.path.join(d, "dup.parquet"))
    files["parquet"] = os.path.join(d, "dup.parquet")
    # .npz: a 2-D array 's' gives columns s0, s1; a 1-D array named 's0' clashes
    np.savez(os.path.join(d, "dup.npz"), y=np.array(y), s=np.c_[s1, s1], s0=np.array(s2))
    files["npz"] = os.path.join(d, "dup.npz")
    return files


@pytest.mark.parametrize("fmt", ["csv", "tsv", "gz", "spaces", "parquet", "npz"])
def test_duplicate_columns_are_refused_with_the_name_in_every_reader(folder, capsys, fmt):
    pytest.importorskip("pyarrow")
    path = _dup_files(folder)[fmt]
    name = "s0" if fmt == "npz" else "s"
    for selector in (name, "1"):  # by name, and by the position of either copy
        for command in (["evaluate", path, "--label", "y", "--score", selector, "--ci", "none"],
                        ["compare", path, "--label", "y", "--score", selector, "--score", "y"],
                        ["points", path, "--label", "y", "--score", selector, "--ci", "none"]):
            err = _one_line_error(capsys, *command)
            assert f"named '{name}'" in err and "positions" in err, err
    err = _one_line_error(capsys, "evaluate", path, "--label", name, "--score", "y")  # the label too
    assert f"named '{name}'" in err


def test_duplicates_are_refused_by_fit_score_report_and_keep(folder, capsys):
    _csv("d.csv", ["y", "x1", "x2", "x2", "id"], [[i % 2, i, i * 2, -i, f"r{i}"] for i in range(20)])
    for argv in (["fit", "d.csv", "--label", "y", "--learner", "bbr", "--model", "o.rwm"],
                 ["fit", "d.csv", "--label", "y", "--features", "x1,x2", "--learner", "bbr", "--model", "o.rwm"],
                 ["score", "m.rwm", "d.csv"],
                 ["report", "d.csv", "--label", "y", "--model", "m.rwm", "--out", "o.html"]):
        err = _one_line_error(capsys, *argv)
        assert "named 'x2'" in err, err
    assert not os.path.exists("o.rwm") and not os.path.exists("o.html")
    _csv("k.csv", ["x1", "x2", "id", "id"], [[i, -i, f"r{i}", f"q{i}"] for i in range(20)])
    err = _one_line_error(capsys, "score", "m.rwm", "k.csv", "--keep", "id")
    assert "named 'id'" in err


def test_duplicates_elsewhere_do_not_stop_a_command_that_does_not_read_them(folder, capsys):
    _csv("e.csv", ["y", "s", "note", "note"], [[i % 2, i, "a", "b"] for i in range(10)])
    code, out, err = _run(capsys, "evaluate", "e.csv", "--label", "y", "--score", "s", "--ci", "none",
                          "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rows"][0]["criterion"] == "auc"


def test_duplicates_on_standard_input_are_refused(folder, capsys, monkeypatch):
    data = b"y,s,s\n0,1,6\n1,2,5\n0,3,4\n1,4,3\n"

    class Stdin:
        buffer = io.BytesIO(data)

        def isatty(self):
            return False

    monkeypatch.setattr(sys, "stdin", Stdin())
    monkeypatch.setattr(_common, "_stdin_copy", [])
    err = _one_line_error(capsys, "evaluate", "-", "--label", "y", "--score", "s")
    assert "standard input are named 's'" in err and "rankwise-stdin" not in err


def test_duplicates_are_refused_on_the_dask_reading_path(folder):
    """The columns Dask would read: its CSV reader renames the second 's' to 's.1' and its
    Parquet reader fails without saying why; both are refused with the name, before any
    cluster starts."""
    pytest.importorskip("dask.dataframe")
    files = _dup_files(folder)
    os.mkdir("parts")
    shutil.copy(files["parquet"], os.path.join("parts", "part.0.parquet"))
    for path in (files["csv"], files["tsv"], files["parquet"], "parts", os.path.join(folder, "dup*.csv")):
        for columns in (["y", "s"], None):
            with pytest.raises(ValueError, match="named 's'"):
                _dask.frame(path, columns, ["s"] if columns else ())
    _dask.frame(files["csv"], ["y"], ())  # the label alone is unambiguous


# ----------------------------------------------------------------- models without decision_function


def _fitted(kind):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 2)), columns=["x1", "x2"])
    y = (X["x1"] + rng.normal(size=80) > 0).astype(int)
    model = {"forest": RandomForestClassifier(n_estimators=5, random_state=0),
             "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
             "ridge_pipe": make_pipeline(StandardScaler(), Ridge()),
             "linreg": LinearRegression(),
             "tree_reg": DecisionTreeRegressor(max_depth=3, random_state=0),
             "three_classes": LogisticRegression(),
             "scaler_only": make_pipeline(StandardScaler())}[kind]
    if kind == "three_classes":
        model.fit(X, np.arange(80) % 3)
    elif kind == "scaler_only":
        model.fit(X)
    else:
        model.fit(X, y)
    return model


@pytest.mark.parametrize("kind,used", [("forest", "predict_proba"), ("tree", "predict_proba"),
                                       ("ridge_pipe", "predict"), ("linreg", "predict"),
                                       ("tree_reg", "predict")])
def test_models_without_decision_function_score_with_what_they_have(folder, capsys, kind, used):
    import pandas as pd

    from rankwise.io import save_model

    model = _fitted(kind)
    save_model(model, "x.rwm")
    code, _, err = _run(capsys, "score", "x.rwm", "s.csv", "--out", "x.csv")
    assert code == 0, err
    assert err.count("\n") == 1 and "note:" in err and used in err and "Traceback" not in err, err
    # before pandas 3 the default float parser may be 1 ulp off the digits written
    exact = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
    X = pd.read_csv("s.csv", **exact)[["x1", "x2"]]
    expected = model.predict_proba(X)[:, 1] if used == "predict_proba" else model.predict(X)
    # The command line predicts on a C-ordered array, the DataFrame here is Fortran-ordered:
    # BLAS may round the two layouts' dot products differently in the last bit (seen with
    # the pipeline's Ridge, numpy 2.4 / OpenBLAS): equal to a few ulp, not bit for bit.
    np.testing.assert_allclose(pd.read_csv("x.csv", **exact)["score"].to_numpy(), expected, rtol=2.0 ** -50,
                               atol=2.0 ** -50 * np.abs(expected).max())  # a prediction near 0 is a difference
    if kind not in ("forest", "ridge_pipe"):  # the report, for one of each kind (time)
        return
    code, _, err = _run(capsys, "report", "s.csv", "--label", "y", "--model", "x.rwm", "--out", "r.html",
                        "--resamples", "20", "--quiet")
    assert code == 0 and "note:" in err and used in err and "Traceback" not in err, err
    assert used in open("r.html", encoding="utf-8").read()


@pytest.mark.parametrize("kind,message", [("three_classes", "ranks rows by one score each"),
                                          ("scaler_only", "gives no score")])
def test_models_that_give_no_single_score_are_refused_in_one_line(folder, capsys, kind, message):
    from rankwise.io import save_model

    save_model(_fitted(kind), "x.rwm")
    assert message in _one_line_error(capsys, "score", "x.rwm", "s.csv", "--out", "x.csv")
    assert message in _one_line_error(capsys, "report", "s.csv", "--label", "y", "--model", "x.rwm",
                                      "--out", "r.html")
    assert not os.path.exists("x.csv") and not os.path.exists("r.html")


# ----------------------------------------------------------------- text from files, escaped


HOSTILE = ["\x1b[2J\x1b[31mred", "a\rforged", "two\nlines", "bidi\u202ereversed", "bell\x07", "nel\x85x",
           "ls\u2028x", "del\x7f"]


def test_shown_escapes_every_non_printable_character_and_keeps_the_rest():
    for text in HOSTILE:
        out = shown(text)
        assert out.isprintable(), out
        assert "\\" in out
    assert shown("\x1b[31m") == "\\x1b[31m" and shown("a\nb") == "a\\nb" and shown("\u202e") == "\\u202e"
    for plain in ("score", "prix en €", "日本語", "a\\b", "naïve", "--force", ""):
        assert shown(plain) == plain
    assert quoted("a\x1bb") == "'a\\x1bb'"
    assert terminal_text("col\x1b[2J\n\tnext") == "col\\x1b[2J\n\tnext"


def _no_raw_controls(text: str) -> None:
    assert all(ch.isprintable() or ch in "\n\t" for ch in text), repr(text)


@pytest.mark.parametrize("name", [h for h in HOSTILE if "\n" not in h and "\r" not in h])
def test_column_names_reach_the_terminal_escaped(folder, capsys, name):
    path = "h.csv"
    with open(path, "w", newline="") as fh:
        fh.write(f'y,"{name}"\n' + "".join(f"{i % 2},{i}\n" for i in range(10)))
    # an error naming the columns
    err = _one_line_error(capsys, "evaluate", path, "--label", "y", "--score", "nope")
    _no_raw_controls(err)
    assert shown(name) in err
    # a table naming the score column
    code, out, err = _run(capsys, "evaluate", path, "--label", "y", "--score", "1", "--ci", "none")
    assert code == 0, err
    _no_raw_controls(out)
    assert shown(name) in out
    # text columns that do not parse, named in the error
    with open("t.csv", "w", newline="") as fh:
        fh.write(f'y,"{name}"\n' + "".join(f"{i % 2},x{i}\n" for i in range(10)))
    _no_raw_controls(_one_line_error(capsys, "evaluate", "t.csv", "--label", "y", "--score", "1"))


def test_parquet_names_with_newlines_reach_the_terminal_escaped(folder, capsys):
    """A header line cannot hold a raw newline, a Parquet schema can."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    names = ["y", "two\nlines", "a\rforged", "\x1b[2Jx"]
    cols = [pa.array([i % 2 for i in range(10)])] + [pa.array([float(i)] * 10) for i in range(3)]
    pq.write_table(pa.Table.from_arrays(cols, names=names), "h.parquet")
    err = _one_line_error(capsys, "evaluate", "h.parquet", "--label", "y", "--score", "nope")
    _no_raw_controls(err)
    assert all(shown(n) in err for n in names)
    pq.write_table(pa.Table.from_arrays([pa.array(["a", None] * 5), cols[1]], names=["y", "two\nlines"]), "e.parquet")
    err = _one_line_error(capsys, "evaluate", "e.parquet", "--label", "two\nlines", "--score", "1")
    _no_raw_controls(err)


def test_csv_and_json_outputs_keep_the_data_as_it_is_off_a_terminal(folder, capsys):
    name = "\x1b[31mred"
    with open("h.csv", "w", newline="") as fh:
        fh.write(f"y,{name}\n" + "".join(f"{i % 2},{i}\n" for i in range(10)))
    code, out, _ = _run(capsys, "evaluate", "h.csv", "--label", "y", "--score", "1", "--ci", "none",
                        "--format", "csv")
    assert code == 0 and out.splitlines()[1].startswith(name)  # data, written to a pipe
    code, out, _ = _run(capsys, "evaluate", "h.csv", "--label", "y", "--score", "1", "--ci", "none",
                        "--format", "json")
    assert code == 0 and json.loads(out)["rows"][0]["score"] == name and "\x1b" not in out


def test_csv_output_to_a_terminal_is_escaped(folder, capsys, monkeypatch):
    name = "\x1b[31mred"
    with open("h.csv", "w", newline="") as fh:
        fh.write(f"y,{name}\n" + "".join(f"{i % 2},{i}\n" for i in range(10)))
    monkeypatch.setattr(_common, "_isatty", lambda stream: True)
    code, out, _ = _run(capsys, "evaluate", "h.csv", "--label", "y", "--score", "1", "--ci", "none",
                        "--format", "csv")
    assert code == 0
    _no_raw_controls(out)
    assert shown(name) in out


def test_strings_of_a_model_file_reach_the_terminal_escaped(folder, capsys):
    """A model whose feature names carry escape sequences: scoring a file without those
    columns names them in the error, escaped; an error raised while loading is escaped
    as well (the one place every error line is written)."""
    from rankwise import BBRRanker
    from rankwise.io import save_model

    bad = ["\x1b]0;owned\x07x", "y\ninjected line"]
    m = BBRRanker().fit(np.random.default_rng(0).normal(size=(30, 2)), np.arange(30) % 2)
    m.feature_names_in_ = np.asarray(bad, dtype=object)
    save_model(m, "evil.rwm")
    err = _one_line_error(capsys, "score", "evil.rwm", "s.csv")
    _no_raw_controls(err)
    assert shown(bad[0]) in err and shown(bad[1]) in err


def test_every_error_line_is_escaped(folder, capsys, monkeypatch):
    from rankwise.cli import _main

    def boom(args):
        raise ValueError("bad \x1b[2Jthing\x85 from a file")

    monkeypatch.setattr(_main, "_cmd_evaluate", boom)  # build_parser reads the name when called
    parser_args = ["evaluate", "s.csv", "--label", "y", "--score", "a"]
    err = _one_line_error(capsys, *parser_args)
    _no_raw_controls(err)
    assert "\\x1b[2J" in err


# ----------------------------------------------------------------- a hostile user's headers and flags


def test_hostile_headers_and_flags(folder, capsys):
    rows = "".join(f"{i % 2},{i}\n" for i in range(10))
    with open("bom.csv", "wb") as fh:  # a byte-order mark before the header
        fh.write(b"\xef\xbb\xbfy,s\n" + rows.encode())
    code, out, err = _run(capsys, "evaluate", "bom.csv", "--label", "y", "--score", "s", "--ci", "none",
                          "--format", "json")
    assert code == 0 and json.loads(out)["rows"][0]["value"] == 0.6, err
    with open("flag.csv", "w") as fh:  # a column named like a flag
        fh.write("y,--force\n" + rows)
    code, out, err = _run(capsys, "evaluate", "flag.csv", "--label", "y", "--score=--force", "--ci", "none",
                          "--format", "json")
    assert code == 0 and json.loads(out)["rows"][0]["score"] == "--force", err
    with open("nul.csv", "w") as fh:  # a NUL byte in a value and in the header
        fh.write("y,s\x00t\n" + "0,1\x00\n" + rows)
    _no_raw_controls(_one_line_error(capsys, "evaluate", "nul.csv", "--label", "y", "--score", "1"))
    with open("blank.csv", "w") as fh:  # an empty header field named by its position clashes with '1'
        fh.write("y,,1\n" + "".join(f"{i % 2},{i},{-i}\n" for i in range(10)))
    assert "named '1'" in _one_line_error(capsys, "evaluate", "blank.csv", "--label", "y", "--score", "1")
    with open("empty.csv", "w") as fh:  # an empty score column
        fh.write("y,s\n" + "".join(f"{i % 2},\n" for i in range(10)))
    assert "NaN" in _one_line_error(capsys, "evaluate", "empty.csv", "--label", "y", "--score", "s")
