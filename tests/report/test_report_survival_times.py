"""The AUC(t) part of the report on censored times (issue 30, item 4): the curves of every
scorer on one figure with pointwise bands (also <stem>_files/auc_t.png), the table of
AUC(t) with intervals per time and scorer and the mean AUC, and the differences with their
tests; every number is rw.survival.cumulative_dynamic_auc's or
compare_cumulative_dynamic_auc's on the same rows."""

from __future__ import annotations

import base64
import os
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise.report import auto_times, output_paths, write_report  # noqa: E402


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(32)
    n = 160
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, n)
    time = np.round(np.minimum(t, c), 1) + 0.1  # tied times
    event = t <= c
    scores = {"sharp": np.round(x + rng.normal(0, 0.5, n), 1), "vague": np.round(x + rng.normal(0, 1.5, n), 0),
              "noise": rng.normal(size=n)}
    return time, event, scores


def _page(path) -> str:
    return path.read_text(encoding="utf-8")


def _same(got: dict, ref, level: float):
    lo, hi = ref.confidence_intervals(level)
    m = ref.mean_confidence_interval(level)
    assert (got["times"], got["values"], got["std_errors"]) == (ref.times.tolist(), ref.values.tolist(),
                                                                ref.std_errors.tolist())
    assert (got["ci_low"], got["ci_high"], got["confidence_level"]) == (lo.tolist(), hi.tolist(), level)
    assert (got["n_cases"], got["n_controls"]) == (ref.n_cases.tolist(), ref.n_controls.tolist())
    assert (got["mean_value"], got["mean_std_error"], got["mean_low"], got["mean_high"]) == (
        ref.mean_value, ref.mean_std_error, m.low, m.high)


def test_the_numbers_are_the_librarys(sample, tmp_path):
    time, event, scores = sample
    clusters = np.arange(160) // 4
    out = write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, times=[1.0, 0.3, 0.6],
                       clusters=clusters, confidence_level=0.9, tau=1.5)
    ta = out["survival"]["time_dependent_auc"]
    assert ta["times"] == [0.3, 0.6, 1.0] and ta["how"] == "given" and ta["skipped"] is None
    assert list(ta["estimates"]) == out["survival"]["order"]  # the page's order: best first on Harrell's C
    ref = rw.survival.compare_cumulative_dynamic_auc(time, event, scores, [0.3, 0.6, 1.0], clusters=clusters,
                                                     confidence_level=0.9)
    for name in scores:
        one = rw.survival.cumulative_dynamic_auc(time, event, scores[name], [0.3, 0.6, 1.0], clusters=clusters)
        _same(ta["estimates"][name], one, 0.9)
    assert ta["differences"] == [dict(d) for d in ref.differences]
    assert len(ta["differences"]) == 3 * 4  # 3 pairs x (3 times + the mean)
    assert out["paths"]["auc_t"] == os.path.join(str(tmp_path), "r_files", "auc_t.png")


def test_auto_times_by_default(sample, tmp_path):
    time, event, scores = sample
    out = write_report(tmp_path / "r.html", title="s", scores={"sharp": scores["sharp"]}, time=time, event=event)
    ta = out["survival"]["time_dependent_auc"]
    assert ta["how"] == "auto" and ta["times"] == auto_times(time, event) and len(ta["times"]) == 4
    _same(ta["estimates"]["sharp"], rw.survival.cumulative_dynamic_auc(time, event, scores["sharp"], ta["times"]),
          0.95)
    assert ta["differences"] is None and "Differences: AUC(t)" not in _page(tmp_path / "r.html")


def test_the_page_shows_the_figure_the_table_and_the_differences(sample, tmp_path):
    time, event, scores = sample
    write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, times=[0.5, 1.0],
                 reference="noise")
    page = _page(tmp_path / "r.html")
    png = (tmp_path / "r_files" / "auc_t.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    embedded = re.search(r'<img src="data:image/png;base64,([^"]+)" alt="AUC\(t\) of every scorer with its '
                         r'pointwise band"', page)
    assert embedded is not None and base64.b64decode(embedded.group(1)) == png
    table = page.split('<table class="auc-t">')[1].split("</table>")[0]
    for name, s in scores.items():
        est = rw.survival.cumulative_dynamic_auc(time, event, s, [0.5, 1.0])
        lo, hi = est.confidence_intervals()
        m = est.mean_confidence_interval()
        assert f"<th>{name}<small>AUC(t), 95% CI</small></th>" in table
        for j in range(2):
            assert (f'data-value="{float(est.values[j])!r}" data-low="{float(lo[j])!r}" '
                    f'data-high="{float(hi[j])!r}" data-se="{float(est.std_errors[j])!r}"') in table
        assert f'data-value="{est.mean_value!r}" data-low="{m.low!r}" data-high="{m.high!r}"' in table
    assert table.count("<tr>") == 1 + 2 + 1  # header, two times, the mean
    diffs = page.split("<h3>Differences: AUC(t)</h3>")[1].split("</table>")[0]
    assert diffs.count("<tr>") == 1 + 2 * 3  # each scorer against noise, at 2 times and the mean
    ref = rw.survival.compare_cumulative_dynamic_auc(time, event, {"sharp": scores["sharp"], "noise": scores["noise"]},
                                                     [0.5, 1.0])
    d = ref.differences[1]  # sharp - noise at 1.0
    assert f'data-value="{d["difference"]!r}" data-low="{d["low"]!r}" data-high="{d["high"]!r}"' in diffs
    assert "noise - sharp" not in diffs and "sharp - noise" in diffs and "vague - noise" in diffs


def test_no_auc_with_times_none_or_strata(sample, tmp_path):
    time, event, scores = sample
    out = write_report(tmp_path / "a.html", title="s", scores=scores, time=time, event=event, times=None)
    assert out["survival"]["time_dependent_auc"] is None and not (tmp_path / "a_files").exists()
    assert "AUC(t)" not in _page(tmp_path / "a.html") and "PNG files" not in _page(tmp_path / "a.html")
    out = write_report(tmp_path / "b.html", title="s", scores=scores, time=time, event=event,
                       strata=np.arange(160) % 2)
    ta = out["survival"]["time_dependent_auc"]
    assert ta["estimates"] is None and "not computed within strata" in ta["skipped"]
    assert not (tmp_path / "b_files").exists() and "AUC(t) is not computed within strata" in _page(tmp_path / "b.html")


@pytest.mark.parametrize("times, error, match", [
    ([0.3, 99.0], ValueError, "'times' parameter of compare_cumulative_dynamic_auc must lie within the follow-up"),
    ([0.01], ValueError, "'times' parameter"),
    ([], ValueError, "'times' must be 'auto', None or finite times"),
    ([0.5, float("nan")], ValueError, "'times' must be 'auto', None or finite times"),
    (["0.5"], ValueError, "'times' must be 'auto', None or finite times"),
    ("soon", TypeError, "'times' must be 'auto', None or times"),
])
def test_bad_times_write_nothing(sample, tmp_path, times, error, match):
    time, event, scores = sample
    with pytest.raises(error, match=match):
        write_report(tmp_path / "sub" / "r.html", title="s", scores=scores, time=time, event=event, times=times)
    assert not (tmp_path / "sub").exists() or os.listdir(tmp_path / "sub") == []


def test_times_is_refused_with_binary_labels(tmp_path):
    with pytest.raises(ValueError, match="'times' goes with 'time' and 'event'"):
        write_report(tmp_path / "r.html", title="t", scores={"a": np.arange(4.0)}, y_true=[0, 1, 0, 1], times=[1.0])


def test_output_paths_by_kind(tmp_path):
    page = str(tmp_path / "r.html")
    assert output_paths(page, kind="censored") == [page, str(tmp_path / "r_files" / "auc_t.png")]
    assert "auc_t.png" not in " ".join(output_paths(page))
    with pytest.raises(ValueError, match="'kind' must be 'binary', 'censored', 'multiclass' or 'ordinal'"):
        output_paths(page, kind="other")


def test_an_existing_figure_file_is_refused_without_force(sample, tmp_path):
    time, event, scores = sample
    (tmp_path / "r_files").mkdir()
    (tmp_path / "r_files" / "auc_t.png").write_bytes(b"old")
    with pytest.raises(FileExistsError):
        write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event)
    assert not (tmp_path / "r.html").exists()
    write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, force=True)
    assert (tmp_path / "r_files" / "auc_t.png").read_bytes().startswith(b"\x89PNG")
    write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, times=None, force=True)
    assert not (tmp_path / "r_files" / "auc_t.png").exists()  # a forced run removes what its page does not show
