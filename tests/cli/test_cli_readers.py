"""rankwise.cli._readers: every format, header detection, column selection, and each error."""

import gzip
import hashlib
import os
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from rankwise.cli import _readers
from rankwise.cli._readers import Table, read_table

from _support.engines import engine  # noqa: F401  (the fixture)

pd = pytest.importorskip("pandas")


def _write(path, text):
    with open(path, "w", newline="") as fh:
        fh.write(text)
    return str(path)


def _digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest(), os.stat(path).st_mtime_ns


@pytest.fixture
def frame():
    rng = np.random.default_rng(0)
    n = 50
    return pd.DataFrame({
        "y": rng.integers(0, 2, n),
        "score": rng.normal(size=n),
        "other": rng.uniform(size=n),
    })


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("ext,sep", [(".csv", ","), (".tsv", "\t"), (".tab", "\t"), (".txt", " "), (".txt", "\t"),
                                     (".txt", ",")])
def test_text_round_trip(tmp_path, frame, engine, ext, sep):
    path = str(tmp_path / f"data{ext}")
    frame.to_csv(path, sep=sep, index=False, float_format="%.17g")
    t = read_table(path)
    assert isinstance(t, Table)
    assert t.columns == ["y", "score", "other"] and t.n_rows == 50 and t.header is True
    np.testing.assert_array_equal(t.numeric("score"), frame["score"].to_numpy())
    np.testing.assert_array_equal(t.labels("y"), frame["y"].to_numpy())
    assert t.labels("y").dtype.kind == "i"
    assert t.numeric("y").dtype == np.float64
    np.testing.assert_array_equal(t.matrix(exclude=["y"]), frame[["score", "other"]].to_numpy())


def test_gzip_csv(tmp_path, frame, engine):
    path = str(tmp_path / "data.csv.gz")
    with gzip.open(path, "wt", newline="") as fh:
        frame.to_csv(fh, index=False, float_format="%.17g")
    t = read_table(path, columns=["score"])
    np.testing.assert_array_equal(t.numeric("score"), frame["score"].to_numpy())


def test_whitespace_runs(tmp_path, engine):
    path = _write(tmp_path / "w.txt", "  1   2.5  3\n4 5\t 6\n")
    t = read_table(path)
    assert t.columns == ["0", "1", "2"] and t.header is False
    np.testing.assert_array_equal(t.matrix(), [[1, 2.5, 3], [4, 5, 6]])


def test_parquet_round_trip(tmp_path, frame):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    frame = frame.assign(lab=np.where(frame["y"] == 1, "pos", "neg"))
    path = str(tmp_path / "d.parquet")
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)
    t = read_table(path, columns=["score", "lab"])
    assert t.columns == ["y", "score", "other", "lab"]
    assert set(t._data) == {"score", "lab"}  # only what was asked for
    np.testing.assert_array_equal(t.numeric("score"), frame["score"])
    assert list(t.labels("lab")) == list(frame["lab"])
    np.testing.assert_array_equal(t.numeric("2"), frame["other"])  # read on first use
    os.rename(path, tmp_path / "d.pq")
    assert read_table(str(tmp_path / "d.pq")).n_rows == 50


def test_parquet_without_pyarrow(tmp_path, monkeypatch):
    path = _write(tmp_path / "d.parquet", "not really parquet")
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(ValueError, match="pip install pyarrow"):
        read_table(path)


@pytest.mark.parametrize("ext", [".svm", ".svmlight", ".libsvm"])
def test_svmlight_round_trip(tmp_path, ext):
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(1)
    X = np.round(rng.normal(size=(30, 4)), 6)
    X[rng.uniform(size=X.shape) < 0.5] = 0.0
    y = rng.integers(0, 2, 30)
    path = str(tmp_path / f"d{ext}")
    dump_svmlight_file(X, y, path, zero_based=False)
    t = read_table(path)
    assert t.columns == ["label", "f1", "f2", "f3", "f4"]
    M = t.matrix()
    assert sp.isspmatrix_csr(M) or isinstance(M, sp.csr_array)
    np.testing.assert_array_equal(M.toarray(), X)
    np.testing.assert_array_equal(t.labels("label"), y)
    np.testing.assert_array_equal(t.numeric("f3"), X[:, 2])
    np.testing.assert_array_equal(t.matrix(["f2", "f4"]).toarray(), X[:, [1, 3]])
    np.testing.assert_array_equal(t.matrix(exclude=["label", "f1"]).toarray(), X[:, 1:])


def test_npy_round_trip(tmp_path):
    X = np.arange(12, dtype=np.float64).reshape(4, 3)
    np.save(tmp_path / "m.npy", X)
    t = read_table(str(tmp_path / "m.npy"), columns=["2"])
    assert t.columns == ["0", "1", "2"] and t.n_rows == 4
    np.testing.assert_array_equal(t.numeric("2"), X[:, 2])
    np.testing.assert_array_equal(t.matrix(), X)
    np.save(tmp_path / "v.npy", np.array([1, 0, 1]))
    v = read_table(str(tmp_path / "v.npy"))
    assert v.columns == ["0"]
    np.testing.assert_array_equal(v.labels("0"), [1, 0, 1])


def test_npz_round_trip(tmp_path):
    X = np.arange(10, dtype=np.float64).reshape(5, 2)
    y = np.array([0, 1, 0, 1, 1])
    s = np.linspace(0, 1, 5)
    np.savez(tmp_path / "a.npz", X=X, y=y, s=s)
    t = read_table(str(tmp_path / "a.npz"), columns=["y", "s"])
    assert t.columns == ["X0", "X1", "y", "s"]
    np.testing.assert_array_equal(t.labels("y"), y)
    np.testing.assert_array_equal(t.numeric("s"), s)
    np.testing.assert_array_equal(t.matrix(["X0", "X1"]), X)
    np.savez(tmp_path / "b.npz", y=y, s=s[:3])
    with pytest.raises(ValueError, match="has 3 rows"):
        read_table(str(tmp_path / "b.npz"))


def test_fmt_overrides_extension(tmp_path, frame, engine):
    path = str(tmp_path / "data.dat.bin")
    frame.to_csv(path, sep="\t", index=False)
    t = read_table(path, fmt="tsv")
    assert t.columns == ["y", "score", "other"]


# ------------------------------------------------------------------ header, columns


def test_header_detection_and_forcing(tmp_path, engine):
    path = _write(tmp_path / "h.csv", "1,0.5,2\n0,0.25,3\n")
    t = read_table(path)
    assert t.header is False and t.columns == ["0", "1", "2"] and t.n_rows == 2
    np.testing.assert_array_equal(t.numeric("1"), [0.5, 0.25])
    t = read_table(path, header=True)
    assert t.columns == ["1", "0.5", "2"] and t.n_rows == 1
    # a numeric name wins over a position
    assert t.resolve("1") == "1" and t.resolve("2") == "2"
    path = _write(tmp_path / "h2.csv", "y,score\n1,0.5\n")
    t = read_table(path, header=False, columns=["1"])
    assert t.columns == ["0", "1"] and t.n_rows == 2
    with pytest.raises(ValueError, match="non-numeric values at rows 1"):
        t.numeric("1")
    # empty / nan / inf fields in the first line count as numbers
    path = _write(tmp_path / "h3.csv", "1,,nan,inf\n0,1,2,3\n")
    assert read_table(path).header is False


def test_columns_by_name_and_position(tmp_path, frame, engine):
    path = str(tmp_path / "d.csv")
    frame.to_csv(path, index=False, float_format="%.17g")
    t = read_table(path, columns=["1", "y"])
    assert set(t._data) == {"score", "y"}
    assert t.resolve("1") == "score" and t.resolve(2) == "other" and t.resolve("y") == "y"
    np.testing.assert_array_equal(t.numeric("1"), frame["score"])
    np.testing.assert_array_equal(t.matrix(["y", "2"]), frame[["y", "other"]].to_numpy(dtype=float))


def test_wide_file_only_two_columns_read(tmp_path, engine):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 300))
    cols = [f"c{j}" for j in range(300)]
    path = str(tmp_path / "wide.csv")
    pd.DataFrame(X, columns=cols).to_csv(path, index=False, float_format="%.17g")
    t = read_table(path, columns=["c7", "250"])
    assert len(t.columns) == 300 and t.n_rows == 40
    assert set(t._data) == {"c7", "c250"}
    assert all(a.dtype == np.float64 for a in t._data.values())
    np.testing.assert_array_equal(t.numeric("c7"), X[:, 7])
    np.testing.assert_array_equal(t.numeric("c250"), X[:, 250])
    with pytest.raises(ValueError) as err:
        t.resolve("nope")
    msg = str(err.value)
    assert "unknown column 'nope'" in msg and "c0, c1" in msg and "..." in msg and "c299" not in msg


def test_text_labels(tmp_path, engine):
    path = _write(tmp_path / "l.csv", "label,s\npos,0.9\nneg,0.1\npos,0.4\n")
    t = read_table(path)
    lab = t.labels("label")
    assert lab.dtype == object and list(lab) == ["pos", "neg", "pos"]
    assert t.numeric("s").dtype == np.float64
    with pytest.raises(ValueError, match="column 'label' has non-numeric values at rows 1, 2, 3"):
        t.numeric("label")
    path = _write(tmp_path / "l2.csv", "label,s\npos,0.9\n,0.1\nneg,0.4\n\"\",0.5\n")
    with pytest.raises(ValueError, match="column 'label' has empty values at rows 2, 4"):
        read_table(path).labels("label")


def test_numeric_labels_with_missing(tmp_path, engine):
    path = _write(tmp_path / "m.csv", "y,s\n1,0.1\n,0.2\n0,0.3\n")
    with pytest.raises(ValueError, match="column 'y' has NaN or infinite values at rows 2$"):
        read_table(path).labels("y")


def test_input_file_unchanged(tmp_path, frame, engine):
    path = str(tmp_path / "d.csv")
    frame.to_csv(path, index=False)
    before = _digest(path)
    t = read_table(path, columns=["score"])
    t.numeric("score"), t.labels("y"), t.matrix()
    assert _digest(path) == before
    assert sorted(os.listdir(tmp_path)) == ["d.csv"]


# ------------------------------------------------------------------ bad values


def test_nan_inf_empty_rows_reported(tmp_path, engine):
    vals = ["0.1", "nan", "0.3", "inf", "", "0.6", "-inf", "NaN", "0.9", ""]
    path = _write(tmp_path / "n.csv", "y,score\n" + "".join(f"{i % 2},{v}\n" for i, v in enumerate(vals)))
    t = read_table(path, columns=["score"])
    with pytest.raises(ValueError) as err:
        t.numeric("score")
    assert str(err.value) == "column 'score' has NaN or infinite values at rows 2, 4, 5, 7, 8 (6 rows in all)"
    with pytest.raises(ValueError, match="NaN or infinite values at rows 2, 4, 5"):
        t.matrix()


def test_non_numeric_rows_reported(tmp_path, engine):
    lines = [f"{i % 2},{i / 10}" for i in range(30)]
    lines[2] = "0,abc"
    lines[16] = "1,0.5x"
    path = _write(tmp_path / "b.csv", "y,score\n" + "\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="column 'score' has non-numeric values at rows 3, 17, e.g. 'abc'"):
        read_table(path).numeric("score")


def test_non_numeric_far_down_large_file(tmp_path):
    """Text far past pyarrow's type-inference block: still reported by row."""
    pytest.importorskip("pyarrow")
    n = 300_000
    s = np.round(np.linspace(0, 1, n), 6).astype(str).astype(object)
    s[n - 5] = "oops"
    path = str(tmp_path / "big.csv")
    pd.DataFrame({"y": np.arange(n) % 2, "score": s}).to_csv(path, index=False)
    t = read_table(path, columns=["y", "score"])
    assert t.labels("y").dtype.kind == "i"
    with pytest.raises(ValueError, match=f"non-numeric values at rows {n - 4}, e.g. 'oops'"):
        t.numeric("score")


# ------------------------------------------------------------------ file errors


def test_missing_file(tmp_path):
    p = str(tmp_path / "nope.csv")
    with pytest.raises(FileNotFoundError, match=f"no such file: {p}"):
        read_table(p)


def test_empty_file_and_header_only(tmp_path, engine):
    with pytest.raises(ValueError, match="is empty"):
        read_table(_write(tmp_path / "e.csv", ""))
    with pytest.raises(ValueError, match="has no data rows"):
        read_table(_write(tmp_path / "h.csv", "y,score\n"))
    with pytest.raises(ValueError, match="has no data"):
        read_table(_write(tmp_path / "b.csv", "\n\n"))
    np.save(tmp_path / "z.npy", np.empty((0, 2)))
    with pytest.raises(ValueError, match="has no data rows"):
        read_table(str(tmp_path / "z.npy"))


@pytest.mark.parametrize("text,line,got", [
    ("y,score\n1,0.5\n0,0.2,7\n1,0.3\n", 3, 3),
    ("y,score\n1,0.5\n0,0.2\n1\n", 4, 1),
])
def test_malformed_row(tmp_path, engine, text, line, got):
    if engine == "pandas" and got < 2:
        pytest.skip("the pandas fallback reads short rows as missing values: test_short_row_pandas_...")
    path = _write(tmp_path / "m.csv", text)
    with pytest.raises(ValueError) as err:
        read_table(path)
    msg = str(err.value)
    assert f"line {line} has {got} fields, expected 2" in msg and "\n" not in msg


def test_short_row_pandas_reported_as_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(_readers, "_has_pyarrow", lambda: False)
    path = _write(tmp_path / "m.csv", "y,score\n1,0.5\n0,0.2\n1\n")
    t = read_table(path)
    with pytest.raises(ValueError, match="column 'score' has NaN or infinite values at rows 3"):
        t.numeric("score")


def test_unknown_extension(tmp_path):
    path = _write(tmp_path / "d.xlsx", "a,b\n1,2\n")
    with pytest.raises(ValueError) as err:
        read_table(path)
    msg = str(err.value)
    assert "'.xlsx'" in msg and ".csv" in msg and ".parquet" in msg and ".npz" in msg and "\n" not in msg
    with pytest.raises(ValueError, match="unknown format 'xls'; supported formats are: csv, tsv"):
        read_table(path, fmt="xls")


def test_unknown_column_in_columns_argument(tmp_path, engine):
    path = _write(tmp_path / "d.csv", "a,b,c\n1,2,3\n")
    with pytest.raises(ValueError, match=r"unknown column 'x' in .*d\.csv; columns are: a, b, c$"):
        read_table(path, columns=["a", "x"])
    with pytest.raises(ValueError, match="unknown column '3'"):
        read_table(path, columns=["3"])


def test_corrupt_binary_files(tmp_path):
    for name in ("c.npy", "c.npz", "c.svm", "c.csv.gz"):
        path = _write(tmp_path / name, "garbage\x01 here\n")
        with pytest.raises(ValueError) as err:
            read_table(path)
        assert "\n" not in str(err.value)
