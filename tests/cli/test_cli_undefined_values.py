"""The command line on samples where a number is undefined: one line per warning, a
documented value, and strict JSON (reproductions from issue 14)."""

from __future__ import annotations

import json

import pytest

from rankwise.cli import main


def _strict(text):
    def refuse(const):
        raise ValueError(f"non-standard JSON constant {const}")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def one_positive(tmp_path):
    p = tmp_path / "one.csv"
    p.write_text("id,y,a,b\nr1,no,.1,.3\nr2,no,.2,.1\nr3,no,.3,.2\nr4,yes,.4,.25\n")
    return p


def test_repro_one_positive_interval_is_warned_and_json_is_strict(one_positive, capsys):
    args = ["evaluate", str(one_positive), "--label", "y", "--pos-label", "yes", "--score", "a",
            "--criteria", "auc,pnorm_push:p=4"]
    assert main(args + ["--format", "json"]) == 0
    out, err = capsys.readouterr()
    rows = _strict(out)["rows"]  # was: NaN, which strict parsers reject
    auc = rows[0]
    assert auc["value"] == 1.0 and auc["std_error"] is None
    assert (auc["low"], auc["high"]) == (0.0, 1.0)  # no variance estimate: the whole range
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(l.startswith("rankwise evaluate: warning: ") for l in lines)
    assert "DegenerateIntervalWarning" in lines[0] and "at most one observation" in lines[0]
    assert "Traceback" not in err


def test_compare_json_is_strict_when_a_p_value_is_undefined(one_positive, capsys):
    assert main(["compare", str(one_positive), "--label", "y", "--pos-label", "yes", "--score", "a",
                 "--score", "b", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    pair = _strict(out)["pairs"][0]
    assert pair["difference"] == 1.0 - 2 / 3
    # One positive: no variance, so no p-value (null, with the reason), never 0.0 from a nan.
    assert pair["p_value"] is None and pair["std_error"] is None
    assert "rankwise compare: warning:" in err and "cannot be estimated" in err
