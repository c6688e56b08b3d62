"""``rankwise evaluate`` through the chunked reader (rankwise/cli/_stream.py): the same exit
code, standard output and standard error as the whole-column path, on CSV (plain and
gzipped) and Parquet files read a few rows at a time, for every output format and
interval method, label kind and positive-label rule; the files it leaves to the
whole-column path (errors, other formats) give that path's result."""

from __future__ import annotations

import gzip
import io
import json
import math
import contextlib

import numpy as np
import pytest

from rankwise.cli import _stream, main
from rankwise.stats import RankAccumulator

pytest.importorskip("pyarrow")

BASE = ["--criteria", "auc,local_auc:top=0.2,pnorm_push:p=4,partial_auc:max_fpr=0.3,ndcg:k=20"]


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def both(monkeypatch, argv, chunk=7, streamed=True):
    """``rankwise argv`` through the chunked reader (``chunk`` rows a chunk) and through the
    whole-column path; they must agree. ``streamed``: whether the chunked reader must have
    given the result itself (False: it must have left the file to the other path)."""
    calls = []
    real = _stream.evaluate

    def spy(args, specs):
        got = real(args, specs)
        calls.append(got is not None)
        return got

    monkeypatch.setattr(_stream, "CHUNK_ROWS", chunk)
    monkeypatch.setattr(_stream, "evaluate", spy)
    chunked = _run(argv)
    assert calls == [streamed], calls
    monkeypatch.setattr(_stream, "wanted", lambda args, specs: False)
    whole = _run(argv)
    monkeypatch.undo()
    assert chunked == whole
    return chunked


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    a = np.round(rng.normal(size=n) + y, 1)  # heavy ties
    b = rng.normal(size=n) + 0.5 * y  # untied
    return y, a, b


def _csv(path, header, rows):
    with open(path, "w") as fh:
        fh.write(",".join(header) + "\n")
        for r in rows:
            fh.write(",".join(map(str, r)) + "\n")
    return str(path)


@pytest.fixture
def table(tmp_path):
    y, a, b = _data()
    return _csv(tmp_path / "d.csv", ["y", "a", "b"], zip(y, a.tolist(), b.tolist()))


@pytest.mark.parametrize("extra", [[], ["--format", "json"], ["--format", "csv", "--ci", "none"],
                                   ["--format", "json", "--ci", "bootstrap", "--resamples", "30", "--seed", "3"],
                                   ["--ci", "hajek", "--level", "0.9"]])
def test_same_output_as_whole_columns(monkeypatch, table, extra):
    rc, out, err = both(monkeypatch, ["evaluate", table, "--label", "y", "--score", "a", "--score", "b", *BASE,
                                      *extra])
    assert rc == 0 and err == ""
    if "json" in extra:
        got = json.loads(out)
        assert got["n"] == 400 and len(got["rows"]) == 10


@pytest.mark.parametrize("chunk", [1, 13, 400, 1 << 20])
def test_chunk_sizes(monkeypatch, table, chunk):
    """One row a chunk up to the whole file in one chunk: the same output."""
    rc, _, _ = both(monkeypatch, ["evaluate", table, "--label", "y", "--score", "a", "--format", "json"], chunk=chunk)
    assert rc == 0


def test_one_accumulator_update_per_chunk(monkeypatch, table):
    """The file is read a chunk at a time: each score column's accumulator takes one
    update a chunk (never the whole column), and the numbers are the accumulator's."""
    seen = []
    real = RankAccumulator.update

    def update(self, y, s, *args, **kw):
        seen.append(len(s))
        return real(self, y, s, *args, **kw)

    monkeypatch.setattr(RankAccumulator, "update", update)
    monkeypatch.setattr(_stream, "CHUNK_ROWS", 50)
    rc, out, _ = _run(["evaluate", table, "--label", "y", "--score", "a", "--score", "b", "--format", "json",
                       "--criteria", "auc"])
    assert rc == 0
    assert seen == [50] * 16  # 400 rows, 8 chunks, two columns
    y, a, b = _data()
    got = json.loads(out)["rows"]
    acc = RankAccumulator().update(y, b)
    assert got[1]["value"] == acc.compute("auc") and got[1]["std_error"] == acc.estimate("auc").std_error


@pytest.mark.parametrize("labels,option,positive", [
    (("ham", "spam"), ["--pos-label", "spam"], "spam"),
    (("false", "true"), [], True),
    (("-1", "1"), [], 1),
    (("0.0", "1.0"), [], 1.0),
    (("0", "2"), ["--pos-label", "2"], 2),
])
def test_label_kinds(monkeypatch, tmp_path, labels, option, positive):
    y, a, b = _data(300, seed=1)
    path = _csv(tmp_path / "l.csv", ["label", "s"], ((labels[v], s) for v, s in zip(y, a.tolist())))
    rc, out, _ = both(monkeypatch, ["evaluate", path, "--label", "label", "--score", "s", "--format", "json",
                                    *option])
    assert rc == 0
    got = json.loads(out)
    assert got["positive_label"] == positive and type(got["positive_label"]) is type(positive)
    assert got["n_positive"] == int(y.sum())


def test_positive_label_first_seen_late(monkeypatch, tmp_path):
    """The first chunks hold negatives only: their rows are negatives whatever the positive
    label turns out to be, and the result is the whole file's."""
    y, a, _ = _data(200, seed=2)
    order = np.argsort(y, kind="stable")  # every negative first
    path = _csv(tmp_path / "late.csv", ["y", "s"], zip(y[order], a[order].tolist()))
    for option in ([], ["--pos-label", "1"]):
        rc, out, _ = both(monkeypatch, ["evaluate", path, "--label", "y", "--score", "s", "--format", "json", *option],
                          chunk=10)
        assert rc == 0 and json.loads(out)["n_positive"] == int(y.sum())


def test_a_chunk_classed_otherwise_is_read_again(monkeypatch, tmp_path):
    """When the label taken as positive for a chunk is not the whole column's, the file is
    left to the whole-column path (the check behind the chunks' classes)."""
    monkeypatch.setattr(_stream, "_tentative", lambda seen, given: next(iter(seen)))  # the first label seen
    y, a, _ = _data(100, seed=4)
    y[0] = 0
    path = _csv(tmp_path / "t.csv", ["y", "s"], zip(y, a.tolist()))
    assert both(monkeypatch, ["evaluate", path, "--label", "y", "--score", "s"], streamed=False)[0] == 0


def test_gzip_and_integer_scores(monkeypatch, tmp_path):
    y, a, _ = _data(250, seed=3)
    text = "y,s\n" + "".join(f"{u},{int(v * 10)}\n" for u, v in zip(y, a.tolist()))
    path = tmp_path / "g.csv.gz"
    path.write_bytes(gzip.compress(text.encode()))
    assert both(monkeypatch, ["evaluate", str(path), "--label", "y", "--score", "s", "--format", "csv"])[0] == 0


def test_headerless_columns_by_position(monkeypatch, tmp_path):
    y, a, b = _data(120, seed=5)
    path = tmp_path / "h.csv"
    path.write_text("".join(f"{u},{v!r},{w!r}\n" for u, v, w in zip(y, a.tolist(), b.tolist())))
    assert both(monkeypatch, ["evaluate", str(path), "--label", "0", "--score", "2", "--score", "1"])[0] == 0


def test_parquet_row_groups(monkeypatch, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    y, a, b = _data(500, seed=6)
    path = str(tmp_path / "d.parquet")
    pq.write_table(pa.table({"y": y.astype(bool), "a": a.astype(np.float32), "b": b}), path, row_group_size=64)
    for chunk in (11, 1 << 20):
        rc, out, _ = both(monkeypatch, ["evaluate", path, "--label", "y", "--score", "a", "--score", "b",
                                        "--format", "json", *BASE], chunk=chunk)
        assert rc == 0 and json.loads(out)["positive_label"] is True


@pytest.mark.parametrize("case", ["nan_score", "empty_label", "one_class", "three_labels", "text_score", "huge_int",
                                  "missing_column", "twice"])
def test_left_to_the_whole_column_path(monkeypatch, tmp_path, case):
    """Files the chunked reader leaves alone: the whole-column path's result or error."""
    y, a, _ = _data(60, seed=7)
    s = [repr(v) for v in a.tolist()]
    labels = [str(v) for v in y]
    score = ["--score", "s"]
    if case == "nan_score":
        s[40] = ""
    elif case == "empty_label":
        labels[33] = ""
    elif case == "one_class":
        labels = ["0"] * 60
    elif case == "three_labels":
        labels[50] = "2"
    elif case == "text_score":
        s[45] = "high"
    elif case == "huge_int":
        s = [str(2 ** 60 + 7 * i * (1 + v)) for i, v in enumerate(y)]
    elif case == "missing_column":
        score = ["--score", "nope"]
    elif case == "twice":
        score = ["--score", "s", "--score", "s"]
    path = _csv(tmp_path / f"{case}.csv", ["y", "s"], zip(labels, s))
    rc, out, err = both(monkeypatch, ["evaluate", path, "--label", "y", *score], chunk=8, streamed=False)
    assert (rc == 0) == (case == "huge_int"), err
    assert (err == "") == (case == "huge_int")


def test_not_streamed(monkeypatch, tmp_path):
    """Whitespace-separated text (the pandas engine) and options that need more than one
    rank table a column take the whole-column path."""
    y, a, _ = _data(80, seed=8)
    path = tmp_path / "w.txt"
    path.write_text("y s g\n" + "".join(f"{u} {v!r} {i % 3}\n" for i, (u, v) in enumerate(zip(y, a.tolist()))))
    assert both(monkeypatch, ["evaluate", str(path), "--label", "y", "--score", "s"], streamed=False)[0] == 0
    parser_args = [["--group", "g"], ["--cluster", "g"], ["--strata", "g"]]
    from rankwise.cli._main import build_parser

    for extra in parser_args:
        args = build_parser().parse_args(["evaluate", str(path), "--label", "y", "--score", "s", *extra])
        assert not _stream.wanted(args, ["auc"])
    args = build_parser().parse_args(["evaluate", str(path), "--label", "y", "--score", "s"])
    assert _stream.wanted(args, ["auc", "ndcg:k=5"])


def test_chunks_agree_with_the_sample(tmp_path):
    """A larger untied and tied file, default chunk size (several pyarrow blocks): the values
    are rw.stats.estimate's on the whole columns."""
    import rankwise as rw

    rng = np.random.default_rng(9)
    n = 60_000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    path = _csv(tmp_path / "big.csv", ["y", "s", "t"], zip(y.astype(int), s.tolist(), np.round(s, 2).tolist()))
    rc, out, _ = _run(["evaluate", path, "--label", "y", "--score", "s", "--score", "t", "--format", "json",
                       "--criteria", "auc,local_auc:top=0.1"])
    assert rc == 0
    rows = json.loads(out)["rows"]
    for r, (col, spec) in zip(rows, [(c, k) for c in (s, np.round(s, 2)) for k in ("auc", "local_auc:top=0.1")]):
        e = rw.stats.estimate(y, col, spec)
        assert math.isclose(r["value"], e.value, rel_tol=1e-12) and math.isclose(r["std_error"], e.std_error,
                                                                                   rel_tol=1e-12)
