"""FILE ``-``: evaluate, compare and score read CSV/TSV (gzipped or not) from standard
input (issue 15, item 2), with the same numbers as from the file, errors naming
``standard input`` and no temporary file left behind."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import numpy as np
import pytest


def _run(args, data: bytes, tmp):
    env = dict(os.environ, TMPDIR=str(tmp))
    return subprocess.run([sys.executable, "-m", "rankwise.cli", *map(str, args)], input=data, capture_output=True,
                          env=env, timeout=300)


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(5)
    y = (rng.random(200) < 0.4).astype(int)
    a, b = y + rng.normal(size=200), rng.normal(size=200)
    text = "id,y,a,b\n" + "".join(f"r{i},{u},{v!r},{w!r}\n" for i, (u, v, w) in enumerate(zip(y, a.tolist(),
                                                                                              b.tolist())))
    path = tmp_path / "d.csv"
    path.write_text(text)
    spool = tmp_path / "spool"
    spool.mkdir()
    return path, text.encode(), spool


@pytest.mark.parametrize("packed", ["plain", "gzip", "tsv"])
def test_evaluate_and_compare_read_standard_input(table, packed):
    path, data, spool = table
    if packed == "gzip":
        data = gzip.compress(data)
    elif packed == "tsv":
        data = data.replace(b",", b"\t")
    for command in (["evaluate", "--criteria", "auc,pnorm_push:p=4"], ["compare", "--score", "b"]):
        args = [command[0], "{}", "--label", "y", "--score", "a", *command[1:], "--format", "json"]
        piped = _run(["-" if a == "{}" else a for a in args], data, spool)
        read = _run([path if a == "{}" else a for a in args], b"", spool)
        assert piped.returncode == 0 and read.returncode == 0, piped.stderr + read.stderr
        assert json.loads(piped.stdout) == json.loads(read.stdout)
    assert os.listdir(spool) == []  # the copy of standard input is removed


def test_score_reads_standard_input(table, tmp_path):
    path, data, spool = table
    model = tmp_path / "m.rwm"
    assert _run(["fit", path, "--label", "y", "--features", "a,b", "--learner", "bbr", "--model", model],
                b"", spool).returncode == 0
    piped = _run(["score", model, "-", "--keep", "id"], data, spool)
    read = _run(["score", model, path, "--keep", "id"], b"", spool)
    assert piped.returncode == 0 and piped.stdout == read.stdout and piped.stdout.startswith(b"id,score\nr0,")
    assert os.listdir(spool) == []


@pytest.mark.parametrize("data, message", [(b"", "standard input is empty"),
                                           (b"y,s\n0,0.1\n1,high\n", "non-numeric values at rows 2")])
def test_errors_name_standard_input(table, data, message):
    spool = table[2]
    r = _run(["evaluate", "-", "--label", "y", "--score", "s"], data, spool)
    err = r.stderr.decode()
    assert r.returncode == 1 and message in err and err.count("\n") == 1 and "rankwise-stdin" not in err, err
    assert os.listdir(spool) == []


def test_dask_refuses_standard_input(table):
    pytest.importorskip("distributed")
    r = _run(["evaluate", "-", "--label", "y", "--score", "a", "--dask"], table[1], table[2])
    assert r.returncode == 1 and b"standard input (-)" in r.stderr and r.stderr.count(b"\n") == 1, r.stderr
