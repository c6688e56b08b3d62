"""The main job and the command line."""

import json
import math
import os
import subprocess
import sys

import pytest

import rankwise as rw
from rankwise.cli import main


def test_demo_writes_report_and_prints_table(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["demo", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "AUC" in printed and "NDCG@100" in printed and str(out) in printed
    result = json.loads((out / "demo.json").read_text())
    assert (out / "demo.txt").read_text() in printed
    assert result["n_test"] == 1337 and result["n_train"] == 3117  # 4454 loans, 30% held out
    crit = result["criteria"]
    assert set(crit) >= {"AUC", "partial AUC, FPR<=0.1 (McClish)", "local AUC, top 10%", "p-norm push, p=4 (loss)",
                         "DCG@100", "NDCG@100", "W_phi, phi=u (minmax)"}
    for item in crit.values():
        assert math.isfinite(item["value"])
    # A logistic regression ranks defaults well above chance on this table.
    assert 0.75 < crit["AUC"]["value"] < 0.95
    # The minmax linear rank statistic with phi(u) = u is the AUC; ranking risk is 1 - AUC.
    assert crit["W_phi, phi=u (minmax)"]["value"] == pytest.approx(crit["AUC"]["value"], abs=1e-12)
    assert result["ranking_risk (comparable pairs)"] == pytest.approx(1 - crit["AUC"]["value"], abs=1e-12)


def test_demo_is_reproducible(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    main(["demo", "--out", str(a)])
    main(["demo", "--out", str(b)])
    ja, jb = json.loads((a / "demo.json").read_text()), json.loads((b / "demo.json").read_text())
    assert ja["criteria"] == jb["criteria"]


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--seed", "x"])
    assert exc.value.code == 2
    assert main([]) == 2


def test_console_script_version():
    res = subprocess.run([sys.executable, "-m", "rankwise.cli", "--version"], capture_output=True, text=True)
    assert res.returncode == 0 and rw.__version__ in res.stdout


def test_demo_output_directory_unwritable_is_one_line_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["demo", "--out", str(blocker / "sub")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankwise demo: error:") and err.count("\n") == 1 and "Traceback" not in err
