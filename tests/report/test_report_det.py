"""The report's DET figure: written and embedded beside the ROC, precision-recall and gain
figures, and drawn from rw.det_curve exactly (the same bytes as the display's own figure)."""

import base64

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise.display import DetCurveDisplay  # noqa: E402
from rankwise.report import write_report  # noqa: E402
from rankwise.report._draw import curve_size, curve_styles, new_figure, png  # noqa: E402


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 160
    y = rng.integers(0, 2, n)
    scores = {"strong": np.round(y + rng.normal(size=n), 1), "weak": 0.3 * y + rng.normal(size=n)}
    path = tmp_path_factory.mktemp("det") / "r.html"
    out = write_report(path, title="t", scores=scores, y_true=y, criteria=["auc"], n_resamples=10)
    return y, scores, out, path.read_text(encoding="utf-8")


def test_det_figure_is_written_and_embedded_in_the_curves_section(written):
    _, _, out, page = written
    data = open(out["paths"]["det"], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and out["paths"]["det"].endswith("r_files/det.png")
    section = page[page.index('<section id="curves">'):page.index("</section>", page.index('<section id="curves">'))]
    figs = section[:section.index("</div>")]
    # four curve figures side by side (ROC, PR, gain, DET), in that order; the forest after them
    assert figs.count("<img ") == 4 and section.count("<img ") == 5
    srcs = [figs.index(f'src="data:image/png;base64,{base64.b64encode(open(out["paths"][k], "rb").read()).decode()}"')
            for k in ("roc", "pr", "gain", "det")]
    assert srcs == sorted(srcs)
    assert "Detection error trade-off: the false negative rate (misses)" in section


def test_det_figure_is_the_displays_drawing_of_det_curve(written):
    y, scores, out, _ = written
    order = out["ranking"]
    styles = curve_styles(order)
    fig, ax = new_figure(*curve_size(len(order)))
    for i, name in enumerate(order):
        c = rw.det_curve(y, scores[name], drop_intermediate=True)
        DetCurveDisplay(fpr=c.fpr, fnr=c.fnr, thresholds=c.thresholds, name=name).plot(
            ax=ax, legend=i == len(order) - 1, **styles[name])
    assert png(fig) == open(out["paths"]["det"], "rb").read()
