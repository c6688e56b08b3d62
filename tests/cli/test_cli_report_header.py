"""``rankwise report`` names what it measured (issue 15, item 7): the data file's name,
size and SHA-256 (of the bytes read, standard input included), the label column and the
positive label, the command line; ``--reference`` and ``--rank-by`` reach the overview."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from rankwise.cli import main

pytest.importorskip("matplotlib")


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(4)
    y = rng.random(150) < 0.4
    a, b, c = rng.normal(size=150) + y, rng.normal(size=150) + 0.5 * y, rng.normal(size=150)
    p = tmp_path / "loans.csv"
    p.write_text("default,a,b,c\n" + "".join(f"{'yes' if t else 'no'},{u!r},{v!r},{w!r}\n"
                                              for t, u, v, w in zip(y, a.tolist(), b.tolist(), c.tolist())))
    return p


def test_header_names_the_file_its_fingerprint_and_the_command(data, tmp_path):
    out = tmp_path / "r.html"
    argv = ["report", str(data), "--label", "default", "--pos-label", "yes", "--score", "a", "--score", "b",
            "--score", "c", "--reference", "b", "--criteria", "auc,pnorm_push:p=2", "--resamples", "30",
            "--out", str(out), "--quiet"]
    assert main(argv) == 0
    page = out.read_text(encoding="utf-8")
    raw = data.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    assert f"loans.csv &middot; {len(raw) / 1024:.1f} kB ({len(raw):,} bytes) &middot; SHA-256" in page
    assert f'<code title="{digest}">{digest[:16]}</code>' in page
    assert "<dt>positive class</dt><dd><code>default</code> = yes</dd>" in page
    assert f"<code>rankwise report {data} --label default --pos-label yes --score a" in page
    assert "&Delta; AUC<small>vs b</small>" in page and "Holm-adjusted over the 2 comparisons with b" in page


def test_standard_input_is_fingerprinted_as_read(data, tmp_path):
    out = tmp_path / "s.html"
    raw = data.read_bytes()
    r = subprocess.run([sys.executable, "-m", "rankwise.cli", "report", "-", "--label", "default", "--pos-label",
                        "yes", "--score", "a", "--resamples", "20", "--out", str(out), "--quiet"], input=raw,
                       capture_output=True, timeout=300, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    assert f"standard input &middot; {len(raw) / 1024:.1f} kB" in page
    assert hashlib.sha256(raw).hexdigest()[:16] in page


@pytest.mark.parametrize("option, value, words", [("--reference", "zz", "--reference 'zz' is not one of the scorers"),
                                                  ("--rank-by", "dcg", "--rank-by 'dcg' is not one of the criteria")])
def test_unknown_reference_or_rank_by_is_one_line_and_writes_nothing(data, tmp_path, capsys, option, value, words):
    out = tmp_path / "x.html"
    assert main(["report", str(data), "--label", "default", "--pos-label", "yes", "--score", "a", "--score", "b",
                 option, value, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
    assert sorted(os.listdir(tmp_path)) == ["loans.csv"]
