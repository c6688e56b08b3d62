"""``rankwise report --resamples`` and its progress lines off a terminal (issue 15, item 2:
a report on a large file spent minutes in 1,000-resample ROC bands with no option and no
word of progress outside a terminal)."""

from __future__ import annotations

import numpy as np
import pytest

from rankwise.cli import main
from rankwise.report import write_report


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(2)
    y = rng.random(120) < 0.4
    a, b = rng.normal(size=120) + y, rng.normal(size=120) + 0.5 * y
    p = tmp_path / "d.csv"
    p.write_text("y,a,b\n" + "".join(f"{int(t)},{float(u)!r},{float(v)!r}\n" for t, u, v in zip(y, a, b)))
    return p


def test_resamples_reach_the_bands_and_stages_are_printed(data, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(data), "--label", "y", "--score", "a", "--score", "b", "--out", str(out),
                 "--resamples", "150"]) == 0
    err = capsys.readouterr().err.splitlines()
    # stderr is not a terminal here: one line per stage, the bands of each scorer named.
    assert err == ["report: criteria of 2 scorer(s)", "report: comparisons",
                   "report: ROC bands 1/2 (150 resamples): a", "report: ROC bands 2/2 (150 resamples): b",
                   "report: operating points 1/2: a", "report: operating points 2/2: b", "report: figures and page"]
    assert "150 class-stratified resamples" in out.read_text()


def test_quiet_prints_no_stage(data, tmp_path, capsys):
    assert main(["report", str(data), "--label", "y", "--score", "a", "--out", str(tmp_path / "q.html"),
                 "--resamples", "50", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("n", ["1", "1000001"])
def test_resamples_out_of_range_is_one_line_before_any_work(data, tmp_path, capsys, n):
    out = tmp_path / "x.html"
    assert main(["report", str(data), "--label", "y", "--score", "a", "--out", str(out), "--resamples", n]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resamples must be between 2 and 1,000,000" in err
    assert not out.exists()


def test_write_report_calls_progress_per_stage(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.random(80) < 0.5
    seen = []
    write_report(tmp_path / "p.html", title="t", scores={"s": rng.normal(size=80) + y}, y_true=y,
                 n_resamples=20, progress=seen.append)
    assert seen == ["criteria of 1 scorer(s)", "comparisons", "ROC bands 1/1 (20 resamples): s",
                    "operating points 1/1: s", "figures and page"]
    seen.clear()
    write_report(tmp_path / "q.html", title="t", scores={"p": rng.random(80)}, y_true=y, n_resamples=20,
                 progress=seen.append)
    assert "calibration 1/1: p" in seen  # scores in [0, 1]: read as probabilities
