"""write_report's files follow the output rule of rankwise.io (issue 14, item 2), and user
text is drawn literally in its figures."""

import os

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from rankwise import report  # noqa: E402
from rankwise.report import write_report  # noqa: E402


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    y = np.r_[np.zeros(40, int), np.ones(40, int)]
    return y, {"a": y + rng.normal(size=80), "b": rng.normal(size=80)}


def test_output_paths_name_the_page_and_its_figures(tmp_path):
    page = tmp_path / "rep.html"
    files = tmp_path / "rep_files"
    figures = ["roc.png", "pr.png", "gain.png", "det.png", "auc.png", "calibration.png", "distributions.png"]
    assert report.output_paths(page) == [str(page)] + [str(files / f) for f in figures]
    assert report.output_paths(page, auc_plot=False) == [str(page)] + [str(files / f) for f in figures
                                                                        if f != "auc.png"]


@pytest.mark.parametrize("figure", ["roc.png", "pr.png", "gain.png", "det.png", "auc.png", "calibration.png"])
def test_an_existing_figure_file_is_not_replaced_without_force(data, tmp_path, figure):
    y, scores = data
    scores = {**scores, "p": 1.0 / (1.0 + np.exp(-scores["a"]))}  # a probability score: calibration.png
    (tmp_path / "rep_files").mkdir()
    mine = tmp_path / "rep_files" / figure
    mine.write_bytes(b"my own figure")
    with pytest.raises(FileExistsError, match="force=True"):
        write_report(tmp_path / "rep.html", title="t", scores=scores, y_true=y, n_resamples=20)
    assert mine.read_bytes() == b"my own figure" and sorted(os.listdir(tmp_path)) == ["rep_files"]
    out = write_report(tmp_path / "rep.html", title="t", scores=scores, y_true=y, n_resamples=20, force=True)
    assert mine.read_bytes().startswith(b"\x89PNG") and out["paths"][figure[:-4]] == str(mine)


def test_a_dangling_link_at_the_page_is_refused(data, tmp_path):
    y, scores = data
    (tmp_path / "rep.html").symlink_to(tmp_path / "gone.html")
    with pytest.raises(FileExistsError, match="symbolic link"):
        write_report(tmp_path / "rep.html", title="t", scores=scores, y_true=y, n_resamples=20)
    assert os.listdir(tmp_path) == ["rep.html"]


@pytest.mark.parametrize("name", [r"$\frac{a$", "$a^{$", r"$\undefined$", "$$"])
def test_score_names_are_not_mathtext(data, tmp_path, name):
    y, scores = data
    out = write_report(tmp_path / "rep.html", title=name, scores={name: scores["a"], "b": scores["b"]}, y_true=y,
                       n_resamples=20)
    assert name in out["criteria"]
    assert (tmp_path / "rep_files" / "roc.png").read_bytes().startswith(b"\x89PNG")
