"""Issue 14, items 3 and 4 on the command line's readers: hostile or damaged files cost
memory in proportion to the columns asked for and end in one line naming the line, row
or array; integer scores stay exact through every reader; --resamples and a failed Dask
start are one-line errors.

Memory is never timed: a file that is small on disk but decompresses (or declares) GBs
is refused under an address-space limit far below its size, or with a tracemalloc peak
far below it."""

import gzip
import json
import os
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile
import zlib

import numpy as np
import pytest

from rankwise.cli import _readers, main
from rankwise.cli._readers import read_table

from _support.engines import engine  # noqa: F401  (the fixture)

MiB = 1 << 20
MAX_LINE_BYTES = MiB  # rankwise.cli._readers.MAX_LINE_BYTES, the documented limit


def _write(path, text, mode="w"):
    with open(path, mode, **({"newline": ""} if mode == "w" else {})) as fh:
        fh.write(text)
    return str(path)


def _evaluate(capsys, *args):
    """``rankwise evaluate`` in-process: (exit status, stdout, stderr)."""
    code = main(["evaluate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_line_error(capsys, *args):
    code, out, err = _evaluate(capsys, *args)
    assert code == 1 and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ------------------------------------------------------------------ integer scores


def test_integer_scores_above_2_53_exact(tmp_path, capsys, engine):
    """The issue's reproduction: 2**53 and 2**53 + 1 are one float64, so the command
    printed an AUC of 0.5; the library and --dask give 1.0."""
    path = _write(tmp_path / "b.csv", "y,a\n0,9007199254740992\n1,9007199254740993\n")
    assert read_table(path).scores("a").dtype == np.int64
    code, out, err = _evaluate(capsys, path, "--label", "y", "--score", "a", "--criteria", "auc", "--ci", "none",
                               "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rows"][0]["value"] == 1.0


def test_integer_scores_above_int64_are_uint64(tmp_path, engine):
    big = 2**63 + 1
    text = "y,a\n" + "".join(f"{i % 2},{big + i}\n" for i in range(20)) + "0,5\n"
    t = read_table(_write(tmp_path / "u.csv", text))
    s = t.scores("a")
    assert s.dtype == np.uint64
    assert s.tolist() == [big + i for i in range(20)] + [5]
    assert t.numeric("a").dtype == np.float64  # features stay floats


def test_int64_then_uint64_chunks_merge_exactly(tmp_path, engine):
    """Chunks typed apart (pandas, stdlib: 7 rows a chunk here) or a type widened after
    the head (pyarrow): an int64 part and a uint64 part make one exact uint64 column."""
    values = list(range(30)) + [2**64 - 1, 2**63]
    text = "y,a\n" + "".join(f"{i % 2},{v}\n" for i, v in enumerate(values))
    s = read_table(_write(tmp_path / "m.csv", text)).scores("a")
    assert s.dtype == np.uint64 and s.tolist() == values


def test_uint64_beyond_the_pyarrow_head(tmp_path):
    """Integers beyond int64 after pyarrow's first block (1 MiB, typed int64 from it):
    the column is read again as uint64, not as rounded floats."""
    pytest.importorskip("pyarrow")
    n = 200_000  # about 1.3 MB of small integers first
    with open(tmp_path / "late.csv", "w") as fh:
        fh.write("y,a\n")
        fh.write("".join(f"{i % 2},{i}\n" for i in range(n)))
        fh.write(f"1,{2**63 + 3}\n0,{2**63 + 2}\n")
    s = read_table(str(tmp_path / "late.csv")).scores("a")
    assert s.dtype == np.uint64 and s[-2:].tolist() == [2**63 + 3, 2**63 + 2] and s[n - 1] == n - 1


def test_uint64_beyond_the_head_when_pyarrow_names_the_row(tmp_path, monkeypatch):
    """pyarrow sometimes puts the row in its conversion error ("In CSV column #1: Row
    #200002: CSV conversion error to int64: ..."; seen after the Dask tests had run in the
    same process): the reader still widens the column instead of failing."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.csv as pcsv

    real = pcsv.open_csv

    class Reader:
        def __init__(self, inner):
            self._inner = inner

        def __iter__(self):
            try:
                yield from self._inner
            except pa.ArrowInvalid as exc:
                raise pa.ArrowInvalid(str(exc).replace("#1: CSV", "#1: Row #200002: CSV")) from None

        def __getattr__(self, name):
            return getattr(self._inner, name)

    monkeypatch.setattr(pcsv, "open_csv", lambda *a, **k: Reader(real(*a, **k)))
    test_uint64_beyond_the_pyarrow_head(tmp_path)


@pytest.mark.parametrize("values,message", [
    ([2**64 + 1, 2**64], "integers beyond 64 bits at rows 1, 2"),
    ([-1, 2**63 + 2], "fit neither int64 nor uint64"),
])
def test_integers_beyond_64_bits_refused(tmp_path, capsys, engine, values, message):
    path = _write(tmp_path / "o.csv", "y,a\n" + "".join(f"{i % 2},{v}\n" for i, v in enumerate(values)))
    with pytest.raises(ValueError, match=message):
        read_table(path).scores("a")
    err = _one_line_error(capsys, path, "--label", "y", "--score", "a", "--criteria", "auc", "--ci", "none")
    assert message in err


def test_integer_scores_exact_in_parquet_and_npz(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    y = np.array([0, 1, 0, 1])
    for dtype, base in ((np.int64, 2**53), (np.uint64, 2**63)):
        a = np.array([base, base + 1, base + 2, base + 3], dtype=dtype)
        pq.write_table(pa.table({"y": y, "a": a}), tmp_path / "d.parquet")
        np.savez(tmp_path / "d.npz", y=y, a=a)
        for name in ("d.parquet", "d.npz"):
            s = read_table(str(tmp_path / name)).scores("a")
            assert s.dtype == dtype and s.tolist() == a.tolist(), (name, dtype)


# ------------------------------------------------------------------ blank lines, long fields


def test_blank_lines_before_the_header_are_skipped(tmp_path, capsys, engine):
    path = _write(tmp_path / "b.csv", "\n\n  \ny,s\n0,0.1\n\n1,0.9\n0,0.3\n")
    t = read_table(path)
    assert t.header is True and t.columns == ["y", "s"] and t.n_rows == 3
    np.testing.assert_array_equal(t.numeric("s"), [0.1, 0.9, 0.3])
    code, out, err = _evaluate(capsys, path, "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none",
                               "--format", "json")
    assert code == 0 and json.loads(out)["rows"][0]["value"] == 1.0, err


def test_quoted_fields_longer_than_csv_default_limit(tmp_path, capsys, engine):
    """csv's default field limit is 131,072 characters; fields up to MAX_LINE_BYTES are read."""
    long = "x" * 200_000
    path = _write(tmp_path / "h.csv", f'y,s,"{long}"\n0,0.1,a\n1,0.9,"{long}"\n')
    t = read_table(path, columns=["y", "s"])
    assert t.columns == ["y", "s", long] and t.labels(long)[1] == long
    code, out, err = _evaluate(capsys, path, "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none")
    assert code == 0, err


def test_quoted_field_over_the_limit_is_one_line(tmp_path, monkeypatch):
    """A field spanning many short lines (an unclosed quote) stops at MAX_LINE_BYTES in
    the csv module, with the line where the row starts."""
    monkeypatch.setattr(_readers, "_has_pyarrow", lambda: False)
    monkeypatch.setattr(_readers, "_has_pandas", lambda: False)
    body = ("z" * 999 + "\n") * (MAX_LINE_BYTES // 1000 + 10)
    path = _write(tmp_path / "q.csv", f'y,s\n0,0.1\n1,"{body}"\n')
    with pytest.raises(ValueError) as err:
        read_table(path)
    assert str(err.value) == (f"line 3 of {path} has a field longer than 1,048,576 characters, the longest field "
                              "read (an unclosed quote?)")


def test_line_just_under_the_limit_is_read(tmp_path, engine):
    assert _readers.MAX_LINE_BYTES == MAX_LINE_BYTES
    note = "n" * (MAX_LINE_BYTES - 100)
    path = _write(tmp_path / "l.csv", f"y,s,note\n0,0.1,{note}\n1,0.9,b\n")
    t = read_table(path, columns=["y", "s"])
    assert t.n_rows == 2 and t.labels("note")[0] == note


# ------------------------------------------------------------------ huge lines, gzip bombs


def _gzip_bomb(path, prefix: bytes, size: int) -> str:
    """A gzip file of a few MB whose stream is ``prefix`` then ``size`` bytes without a
    newline: 1 MiB of 'x' deflated once with a full flush (byte-aligned, no back
    references) and the block repeated. Its trailer (CRC, size) is left zero: a reader
    must stop long before it."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = comp.compress(prefix) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(b"x" * MiB) + comp.flush(zlib.Z_FULL_FLUSH)
    with open(path, "wb") as fh:
        fh.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + head)
        for _ in range(size // MiB):
            fh.write(block)
        fh.write(comp.flush() + struct.pack("<II", 0, 0))
    return str(path)


def _sparse(path, prefix: bytes, size: int) -> str:
    """A file of ``size`` bytes, all NUL after ``prefix`` and no newline, taking no disk."""
    with open(path, "wb") as fh:
        fh.write(prefix)
        fh.truncate(size)
    return str(path)


LIMITED_READS = textwrap.dedent("""
    import json, resource, sys
    from rankwise.cli import _readers
    import pyarrow.csv, pandas  # imported before the limit: their size is not the point
    with open("/proc/self/status") as fh:
        vm = next(int(l.split()[1]) * 1024 for l in fh if l.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), resource.RLIM_INFINITY))
    out = {}
    for engine in ("arrow", "pandas", "stdlib"):
        _readers._has_pyarrow = lambda: engine == "arrow"
        _readers._has_pandas = lambda: engine != "stdlib"
        for path in sys.argv[1:]:
            try:
                _readers.read_table(path)
                out[f"{engine} {path}"] = "read"
            except BaseException as exc:
                out[f"{engine} {path}"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(out))
""")


def test_huge_lines_refused_in_bounded_memory(tmp_path):
    """The issue's 5 GB CSV without a newline and gzip bombs: 4 GiB lines, refused by
    every engine under an address-space limit of 1 GiB above the interpreter's, at the
    line that is too long (line 1, or line 2 after a header)."""
    pytest.importorskip("pyarrow")
    pytest.importorskip("pandas")
    size = 4 << 30
    files = {
        _sparse(tmp_path / "nul.csv", b"", size): 1,
        _sparse(tmp_path / "nul2.csv", b"y,s\n0,", size): 2,
        _gzip_bomb(tmp_path / "bomb.csv.gz", b"", size): 1,
        _gzip_bomb(tmp_path / "bomb2.csv.gz", b"y,s\n0,0.5\n1,", size): 3,
    }
    assert sum(os.stat(p).st_blocks * 512 for p in files) < 20 * MiB  # on disk
    r = subprocess.run([sys.executable, "-c", LIMITED_READS, *files], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    for engine in ("arrow", "pandas", "stdlib"):
        for path, line in files.items():
            assert got[f"{engine} {path}"] == (f"ValueError: line {line} of {path} is longer than 1,048,576 bytes, "
                                               "the longest line read (is it a text table, one row a line?)"), engine


def test_first_line_sniffer_is_bounded(tmp_path):
    """The header sniffer read the first line whole: its peak is now about one line's
    limit, not the file (tracemalloc: the sniffer is Python)."""
    path = _gzip_bomb(tmp_path / "b.csv.gz", b"", 256 * MiB)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="line 1 of .* is longer than 1,048,576 bytes"):
            read_table(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * MiB, peak


def _gzip_csv(path, n=20_000) -> bytes:
    rng = np.random.default_rng(0)
    raw = gzip.compress(("y,s\n" + "".join(f"{i % 2},{rng.normal():.6f}\n" for i in range(n))).encode())
    return raw


@pytest.mark.parametrize("damage", ["flipped", "truncated", "header"])
def test_corrupt_gzip_is_one_line(tmp_path, capsys, engine, damage):
    raw = bytearray(_gzip_csv(tmp_path))
    if damage == "flipped":
        for i in range(len(raw) // 2, len(raw) // 2 + 8):
            raw[i] ^= 0xA5
    elif damage == "truncated":
        raw = raw[: len(raw) // 2]
    else:
        raw[3] = 0xFF  # reserved flag bits set
    path = _write(tmp_path / "c.csv.gz", bytes(raw), mode="wb")
    with pytest.raises(ValueError) as err:
        read_table(path)
    msg = str(err.value)
    assert "\n" not in msg and "Traceback" not in msg
    assert "corrupt" in msg or "truncated" in msg or "malformed row" in msg or "cannot read" in msg, msg
    err = _one_line_error(capsys, path, "--label", "y", "--score", "s")
    assert "c.csv.gz" in err


def test_corrupt_gzip_names_the_line(tmp_path, engine):
    raw = _gzip_csv(tmp_path)
    path = _write(tmp_path / "t.csv.gz", raw[: len(raw) // 2], mode="wb")
    with pytest.raises(ValueError, match=r"t\.csv\.gz (is corrupt or truncated \(gzip\) after line \d+|cannot)"):
        read_table(path)


# ------------------------------------------------------------------ npz


def _npz(path, members: dict, *, compress=True):
    """An .npz written member by member; a value ``(header, nbytes)`` writes a .npy
    header and that many zero bytes, streamed (nothing that size in memory)."""
    mode = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", mode, compresslevel=1 if compress else None) as zf:
        for key, value in members.items():
            with zf.open(key + ".npy", "w", force_zip64=True) as fh:
                if isinstance(value, tuple):
                    header, nbytes = value
                    np.lib.format.write_array_header_1_0(fh, header)
                    zeros = bytes(MiB)
                    for start in range(0, nbytes, MiB):
                        fh.write(zeros[: min(MiB, nbytes - start)])
                else:
                    np.lib.format.write_array(fh, value, allow_pickle=False)
    return str(path)


def _peak(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_npz_unused_array_not_read(tmp_path, capsys):
    """The issue's .npz holding an unused big array (here 200 MB of zeros in 1 MB):
    evaluating two small columns must not decompress it, and one column of a 2-D array
    is decompressed a block at a time."""
    n, k = 25_600, 1000
    y = np.arange(n) % 2
    s = np.linspace(0, 1, n)
    path = _npz(tmp_path / "d.npz", {"y": y, "s": s,
                                     "big": ({"descr": "<f8", "fortran_order": False, "shape": (n, k)}, n * k * 8)})
    assert os.path.getsize(path) < 2 * MiB
    t, peak = _peak(lambda: read_table(path, columns=["y", "s"]))
    assert peak < 4 * MiB, peak
    assert t.columns[:2] == ["y", "s"] and len(t.columns) == 2 + k
    col, peak = _peak(lambda: t.numeric("big7"))
    assert peak < 8 * MiB, peak  # the column (0.2 MB) and a block, not the 200 MB array
    assert col.shape == (n,) and not col.any()
    code, out, err = _evaluate(capsys, path, "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none")
    assert code == 0, err


@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("dtype", ["<f8", ">f8", "<i4", ">u8"])
def test_npz_2d_columns_read_by_blocks(tmp_path, monkeypatch, fortran, dtype):
    monkeypatch.setattr(_readers, "_NPZ_BLOCK", 64)  # many blocks, rows cut across them
    X = np.asarray(np.arange(37 * 5).reshape(37, 5) * 3 + 1, dtype=dtype)
    X = np.asfortranarray(X) if fortran else X
    path = _npz(tmp_path / "x.npz", {"X": X, "y": np.arange(37) % 2})
    t = read_table(path, columns=["X3", "X0"])
    for j in range(5):
        assert t.raw(f"X{j}").dtype.isnative
        np.testing.assert_array_equal(t.raw(f"X{j}"), X[:, j])
    assert t.scores("X4").dtype.kind == np.dtype(dtype).kind


def test_npz_text_labels(tmp_path):
    path = _npz(tmp_path / "t.npz", {"lab": np.array(["pos", "neg", "pos"]), "s": np.array([0.9, 0.1, 0.5])})
    lab = read_table(path).labels("lab")
    assert lab.dtype == object and lab.tolist() == ["pos", "neg", "pos"]


def test_npz_header_declaring_more_than_it_holds(tmp_path):
    """A header declaring 5e8 float64 (4 GB) over 48 bytes of data is refused when the
    archive is opened, before anything that size (or its column names) is allocated."""
    header = {"descr": "<f8", "fortran_order": False, "shape": (500_000_000,)}
    path = _npz(tmp_path / "lie.npz", {"s": (header, 48)})
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as err:
            read_table(path, columns=["s"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(err.value) == (f"array 's' of {path} declares shape (500000000,) of float64 (4,000,000,000 bytes) "
                              "but holds 48 bytes: the file is corrupt")
    assert peak < MiB, peak


def test_npz_zip_bomb_sizes_refused(tmp_path):
    """A zip entry declaring (like its .npy header) 3.9 GB that its few compressed KB
    cannot hold (deflate expands at most ~1032x) is refused before it is read."""
    n = 487_500_000
    header = {"descr": "<f8", "fortran_order": False, "shape": (n,)}
    path = _npz(tmp_path / "bomb.npz", {"s": (header, 8 * MiB)})
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("s.npy")
    declared = info.file_size - 8 * MiB + 8 * n
    data = open(path, "rb").read()
    # the size in the local header's zip64 field, then in the central directory's
    for fmt in ("<Q", "<I"):
        assert data.count(struct.pack(fmt, info.file_size)) == 1
        data = data.replace(struct.pack(fmt, info.file_size), struct.pack(fmt, declared))
    _write(path, data, mode="wb")
    with zipfile.ZipFile(path) as zf:
        assert zf.getinfo("s.npy").file_size == declared
    with pytest.raises(ValueError) as err:
        read_table(path)
    assert str(err.value) == (f"array 's' of {path} declares {declared:,} bytes from {info.compress_size:,} "
                              "compressed ones, more than the archive can hold: the file is corrupt or a zip bomb")


def test_npz_object_array_refused(tmp_path):
    path = str(tmp_path / "o.npz")
    np.savez(path, s=np.array([0.1, 0.2]), o=np.array([{"a": 1}, None], dtype=object))
    with pytest.raises(ValueError, match="array 'o' of .* holds Python objects"):
        read_table(path, columns=["s"])


@pytest.mark.parametrize("damage", ["truncated", "flipped"])
def test_damaged_npz_is_one_line(tmp_path, capsys, damage):
    rng = np.random.default_rng(0)
    path = str(tmp_path / "d.npz")
    np.savez_compressed(path, y=np.arange(50_000) % 2, s=rng.normal(size=50_000))
    raw = bytearray(open(path, "rb").read())
    if damage == "truncated":
        raw = raw[: len(raw) // 2]
    else:
        for i in range(len(raw) // 2, len(raw) // 2 + 16):
            raw[i] ^= 0x5A
    _write(path, bytes(raw), mode="wb")
    err = _one_line_error(capsys, path, "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none")
    assert "d.npz" in err
    if damage == "flipped":
        assert "array 's'" in err or "array 'y'" in err, err


# ------------------------------------------------------------------ --resamples, --dask start


@pytest.mark.parametrize("n", ["1000000000000", "1000001", "1", "-5"])
def test_resamples_out_of_range_is_one_line(tmp_path, capsys, n):
    path = _write(tmp_path / "s.csv", "y,s\n0,0.1\n1,0.9\n0,0.3\n1,0.4\n")
    err = _one_line_error(capsys, path, "--label", "y", "--score", "s", "--ci", "bootstrap", "--resamples", n)
    assert f"--resamples must be between 2 and 1,000,000; got {int(n):,}" in err


def test_dask_cluster_failing_to_start_is_one_line(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    import contextlib

    import rankwise.distributed as rwd

    @contextlib.contextmanager
    def dying(**kwargs):
        raise RuntimeError("Nanny failed to start.")
        yield  # pragma: no cover

    monkeypatch.setattr(rwd, "local_cluster", dying)
    path = _write(tmp_path / "s.csv", "y,s\n0,0.1\n1,0.9\n")
    err = _one_line_error(capsys, path, "--label", "y", "--score", "s", "--dask", "--workers", "2")
    assert "cannot start the local Dask cluster (2 workers" in err and "Nanny failed to start." in err


def test_dask_csv_scores_exact_or_refused(tmp_path):
    """dask's read_csv types columns from the first rows and casts later blocks to them:
    integers beyond int64 further down wrapped to negative numbers, silently. Score
    columns now keep exact integers, or the command stops with one line."""
    pytest.importorskip("dask.dataframe")
    import dask

    from rankwise.cli import _dask

    n = 60_000  # past dask's 256 kB sample
    late = _write(tmp_path / "late.csv", "y,a\n" + "".join(f"{i % 2},{i}\n" for i in range(n)) + f"1,{2**63 + 3}\n")
    exact = _write(tmp_path / "b.csv", "y,a\n0,9007199254740992\n1,9007199254740993\n")
    beyond = _write(tmp_path / "o.csv", f"y,a\n0,{2**64 + 1}\n1,{2**64}\n")
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match="score column 'a' of .*late.csv holds values that are not int64 further "
                                             "down"):
            _dask.frame(late, ["y", "a"], ["a"])["a"].compute()
        a = _dask.frame(exact, ["y", "a"], ["a"])["a"].compute()
        assert a.dtype == np.int64 and a.tolist() == [2**53, 2**53 + 1]
        with pytest.raises(ValueError, match="score column 'a' of .*o.csv is not numeric"):
            _dask.frame(beyond, ["y", "a"], ["a"])
