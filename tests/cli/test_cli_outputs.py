"""The command line's outputs (issue 14, item 2): never an input, never an existing file or
link without --force, figure files included; user text drawn literally in the figures."""

import os

import numpy as np
import pytest

from rankwise.cli import main

pytest.importorskip("matplotlib")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with ``s.csv`` (label y, scores a and b, features x1 and x2) and ``m.rwm``
    (a model fitted on x1, x2), as the current directory."""
    rng = np.random.default_rng(1)
    n = 80
    y = np.r_[np.zeros(n // 2, int), np.ones(n // 2, int)]
    cols = [y + rng.normal(size=n), rng.normal(size=n), y + rng.normal(size=n), rng.normal(size=n)]
    lines = ["y,a,b,x1,x2"] + [",".join([str(v)] + [repr(float(c[i])) for c in cols]) for i, v in enumerate(y)]
    (tmp_path / "s.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["fit", "s.csv", "--label", "y", "--features", "x1,x2", "--learner", "bbr", "--model", "m.rwm"]) == 0
    return tmp_path


def _one_line_error(capsys, command):
    err = capsys.readouterr().err
    assert err.startswith(f"rankwise {command}: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


COMMANDS = {
    "evaluate": (["evaluate", "s.csv", "--label", "y", "--score", "a", "--out", "{out}"], "s.csv"),
    "compare": (["compare", "s.csv", "--label", "y", "--score", "a", "--score", "b", "--out", "{out}"], "s.csv"),
    "fit": (["fit", "s.csv", "--label", "y", "--features", "x1,x2", "--learner", "bbr", "--model", "{out}"], "s.csv"),
    "score-data": (["score", "m.rwm", "s.csv", "--out", "{out}"], "s.csv"),
    "score-model": (["score", "m.rwm", "s.csv", "--out", "{out}"], "m.rwm"),
    "report-data": (["report", "s.csv", "--label", "y", "--score", "a", "--out", "{out}"], "s.csv"),
    "report-model": (["report", "s.csv", "--label", "y", "--model", "m.rwm", "--out", "{out}"], "m.rwm"),
}


@pytest.mark.parametrize("spelling", ["dot", "symlink", "hardlink"])
@pytest.mark.parametrize("case", list(COMMANDS))
def test_output_that_is_an_input_is_refused_even_with_force(folder, capsys, case, spelling):
    # `rankwise evaluate s.csv ... --out ./s.csv --force` replaced the data with the results.
    argv, victim = COMMANDS[case]
    out = {"dot": f"./{victim}", "symlink": "alias", "hardlink": "alias"}[spelling]
    if spelling == "symlink":
        os.symlink(victim, "alias")
    elif spelling == "hardlink":
        os.link(victim, "alias")
    before = {name: (folder / name).read_bytes() for name in ("s.csv", "m.rwm")}
    listing = sorted(os.listdir(folder))
    assert main([a.format(out=out) for a in argv] + ["--force"]) == 1
    err = _one_line_error(capsys, argv[0])
    assert "is the input" in err and victim in err
    assert {name: (folder / name).read_bytes() for name in before} == before
    assert sorted(os.listdir(folder)) == listing


@pytest.mark.parametrize("case", ["evaluate", "fit", "score-data", "report-data"])
def test_dangling_symlink_at_the_output_is_refused_without_force(folder, capsys, case):
    argv, _ = COMMANDS[case]
    os.symlink("nowhere/result", "o.out")
    assert main([a.format(out="o.out") for a in argv]) == 1
    err = _one_line_error(capsys, argv[0])
    assert "symbolic link" in err and "--force" in err
    assert os.readlink("o.out") == "nowhere/result" and not os.path.exists("nowhere")


@pytest.mark.parametrize("figure", ["roc.png", "pr.png", "gain.png", "det.png", "auc.png"])
def test_report_figure_files_are_outputs_too(folder, capsys, figure):
    # `report --out rep.html` replaced an existing rep_files/roc.png without --force.
    os.mkdir("rep_files")
    (folder / "rep_files" / figure).write_bytes(b"my own figure")
    argv = ["report", "s.csv", "--label", "y", "--score", "a", "--out", "rep.html"]
    assert main(argv) == 1
    err = _one_line_error(capsys, "report")
    assert figure in err and "--force" in err
    assert (folder / "rep_files" / figure).read_bytes() == b"my own figure"
    assert not os.path.lexists("rep.html") and os.listdir("rep_files") == [figure]
    assert main(argv + ["--force"]) == 0
    assert (folder / "rep_files" / figure).read_bytes().startswith(b"\x89PNG")


def test_report_draws_a_column_name_with_dollars_literally(folder, capsys):
    # A score column named $\frac{a$ made matplotlib's mathtext parser fail the report.
    name = r"$\frac{a$"
    text = (folder / "s.csv").read_text().replace("y,a,", f"y,{name},", 1)
    (folder / "t.csv").write_text(text)
    assert main(["report", "t.csv", "--label", "y", "--score", name, "--score", "b", "--out", "rep.html"]) == 0, \
        capsys.readouterr().err
    assert name in (folder / "rep.html").read_text(encoding="utf-8")
    assert (folder / "rep_files" / "roc.png").read_bytes().startswith(b"\x89PNG")
