"""The report's section by group (``write_report(..., groups=)``, issue 29): the numbers
are those of ``rw.stats.by_group`` on the same rows (cluster-robust with clusters), a group
with one class shows as nan with a note, the header states the groups, the section is a
unit that computes and renders alone, and a report without groups is byte for byte what
it was before the section existed."""

import html
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise import stats  # noqa: E402
from rankwise.report import PAGE, output_paths, write_report  # noqa: E402
from rankwise.report._data import read_inputs  # noqa: E402
from rankwise.report._groups import GroupsSection, group_criteria  # noqa: E402
from rankwise.report._header import HeaderSection  # noqa: E402
from rankwise.report._page import Page  # noqa: E402

SPECS = ["auc", "pnorm_push:p=4", "ks_statistic"]


def _sample(n=160, seed=11):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    scores = {"good": y + rng.normal(0, 1, n), "weak": 0.3 * y + rng.normal(0, 1, n)}
    groups = rng.choice(["north", "south", "<i>east</i>"], n)
    return y, scores, groups


@pytest.fixture(scope="module")
def sample():
    return _sample()


@pytest.fixture(scope="module")
def unit(sample):
    """The section alone: its inputs read, its numbers computed, no page, nothing drawn."""
    y, scores, groups = sample
    data = read_inputs(title="t", scores=scores, y_true=y, criteria=SPECS, groups=groups, group_name="region")
    return data, GroupsSection().compute(data, {})


def _auc(y, s):
    """The AUC by its definition: every (positive, negative) pair, ties 1/2."""
    pos, neg = s[y == 1], s[y == 0]
    return sum((p > q) + 0.5 * (p == q) for p in pos for q in neg) / (len(pos) * len(neg))


def _cells(page: str, cls: str) -> list:
    """The ``data-value`` of every cell of the tables of class ``cls``, row by row."""
    out = []
    for tbl in re.findall(rf'<table class="{cls}">(.*?)</table>', page, flags=re.S):
        for row in re.findall(r"<tbody>(.*?)</tbody>", tbl, flags=re.S)[0].split("</tr>")[:-1]:
            values = (re.search(r' data-value="([^"]*)"', a) for a in re.findall(r"<td([^>]*)>", row))
            out.append([float(v.group(1)) if v else None for v in values])
    return out


def test_the_section_is_by_group_on_the_same_rows(sample, unit):
    y, scores, groups = sample
    data, res = unit
    # The AUC first, then the criteria with an analytic variance (the KS statistic has none).
    assert res.specs == ("auc", "pnorm_push:p=4") and res.column == "region"
    assert res.order == tuple(scores) and res.names == ("<i>east</i>", "north", "south")
    for name, s in scores.items():
        ref = stats.by_group(y, s, groups, list(res.specs), names=[name])
        got = res.estimates[name]
        assert got.rows == ref.rows and got.overall == ref.overall and got.differences == ref.differences
        assert got.global_tests == ref.global_tests and got.bias == ref.bias
        for g in res.names:  # exact first: each group's AUC is the pairs' share
            sel = groups == g
            assert got.value(g, "auc") == pytest.approx(_auc(y[sel], s[sel]), abs=1e-12)


def test_the_section_renders_the_library_numbers(sample, unit):
    data, res = unit
    page = GroupsSection().render(data, res, {})  # no figure drawn: the section renders without them
    assert page.startswith('<section id="groups"><h2>By group: <code>region</code></h2>')
    tables = _cells(page, "groups")
    for k, name in enumerate(res.order):
        est = res.estimates[name]
        rows = tables[k * (len(res.names) + 1):(k + 1) * (len(res.names) + 1)]
        overall = {r.criterion: r for r in est.overall}
        assert rows[0][4] == overall["auc"].value and rows[0][7] == overall["pnorm_push:p=4"].value
        diffs = {(d.criterion, d.group): d for d in est.differences}
        for row, g in zip(rows[1:], res.names):
            for j, spec in ((4, "auc"), (7, "pnorm_push:p=4")):
                r, d = next(r for r in est.rows if r.group == g and r.criterion == spec), diffs[spec, g]
                assert (row[j], row[j + 1], row[j + 2]) == (r.value, d.difference, d.p_adjusted)
        for t in est.global_tests:
            assert f"chi2 = {rw.stats.fmt(t.statistic, 3)}" in page
    bias = _cells(page, "bias")
    est = res.estimates[res.order[0]]
    for row, g in zip(bias, res.names):
        want = [next(b.value for b in est.bias if b.group == g and b.statistic == st)
                for st in stats._groups.BIAS_STATISTICS]
        assert row[1:] == want
    # Group ids are user text: escaped, never markup.
    assert "&lt;i&gt;east&lt;/i&gt;" in page and "<i>east</i>" not in page
    assert "Borkan et al. 2019" in page and "Kallus &amp; Zhou 2019" in page
    assert "one class only" not in page and "clusters" not in page


def test_the_returned_dict_holds_every_table(sample, unit):
    data, res = unit
    out = GroupsSection().summary(data, res)["groups"]
    assert out["names"] == list(res.names) and out["criteria"] == ["auc", "pnorm_push:p=4"]
    y, _, groups = sample
    assert out["sizes"] == [int((groups == g).sum()) for g in res.names] and out["one_class"] == []
    assert out["by_scorer"]["good"] == res.estimates["good"].to_dict()


def test_auc_first_whatever_the_criteria_order(sample):
    y, scores, groups = sample
    data = read_inputs(title="t", scores=scores, y_true=y, criteria=["average_precision", "ks_statistic"],
                       groups=groups)
    assert group_criteria(data) == (("auc", "average_precision"), {"auc": "AUC",
                                                                    "average_precision": "average precision"})


def test_a_group_with_one_class_is_nan_with_a_note(sample):
    y, scores, groups = sample
    y = y.copy()
    y[groups == "north"] = 1
    data = read_inputs(title="t", scores={"good": scores["good"]}, y_true=y, groups=groups)
    with pytest.warns(stats.OneClassGroupWarning, match="north"):
        res = GroupsSection().compute(data, {})
    assert res.one_class == ("north",)
    page = GroupsSection().render(data, res, {})
    assert "1 group (north) holds one class only: its criteria are undefined (nan)" in page
    assert "north <small>one class only</small>" in page
    rows = _cells(page, "groups")[1:]
    north = rows[res.names.index("north")]
    assert np.isnan(north[4]) and north[5:] == [None, None]  # no difference, no test
    assert all(np.isfinite(r[4]) and r[5] is not None for r in rows if r is not north)
    est = res.estimates["good"]
    assert np.isnan(est.value("north")) and next(t for t in est.global_tests).n_groups == 2


def test_clusters_make_every_number_cluster_robust(sample):
    y, scores, groups = sample
    ids = np.arange(len(y)) // 4
    data = read_inputs(title="t", scores={"good": scores["good"]}, y_true=y, groups=groups, clusters=ids)
    res = GroupsSection().compute(data, {})
    ref = stats.by_group(y, scores["good"], groups, ["auc"], clusters=ids, names=["good"])
    est = res.estimates["good"]
    assert est.rows == ref.rows and est.bias == ref.bias and est.n_clusters == res.n_clusters == 40
    plain = stats.by_group(y, scores["good"], groups, ["auc"], names=["good"])
    assert [r.std_error for r in est.rows] != [r.std_error for r in plain.rows]
    page = GroupsSection().render(data, res, {})
    assert "treats the 40 clusters as the sampling units" in page and "Cluster-robust over the 40 clusters" in page


def test_the_header_states_the_groups(sample):
    y, scores, groups = sample
    header = HeaderSection()
    data = read_inputs(title="t", scores=scores, y_true=y, groups=groups, group_name="region")
    h = header.compute(data, {})
    text = header.render(data, h, {})
    sizes = ", ".join(f"{html.escape(g)} ({(groups == g).sum()} rows, {y[groups == g].sum()} positives)"
                      for g in ("<i>east</i>", "north", "south"))
    assert f"<dt>groups</dt><dd><code>region</code>: 3 groups: {sizes}</dd>" in text
    assert "SHA-256 of labels, scores and groups" in text
    plain = read_inputs(title="t", scores=scores, y_true=y)
    assert header.compute(plain, {}).fingerprint != h.fingerprint and "groups" not in header.render(
        plain, header.compute(plain, {}), {})
    renamed = read_inputs(title="t", scores=scores, y_true=y, groups=np.char.upper(groups.astype(str)))
    assert header.compute(renamed, {}).fingerprint != h.fingerprint
    many = read_inputs(title="t", scores=scores, y_true=y, groups=np.arange(len(y)) % 20)
    text = header.render(many, header.compute(many, {}), {})
    assert "20 groups: 0 (8 rows" in text and ", and 8 more (8 to 8 rows)" in text


def test_bad_groups_are_refused_before_any_work(sample, tmp_path):
    y, scores, groups = sample
    target = tmp_path / "sub" / "r.html"
    with pytest.raises(ValueError, match="'groups' parameter of write_report must have one id per row"):
        write_report(target, title="t", scores=scores, y_true=y, groups=groups[:-1])
    bad = groups.astype(object)
    bad[3] = None
    with pytest.raises(ValueError, match="'groups' parameter of write_report has missing ids"):
        write_report(target, title="t", scores=scores, y_true=y, groups=bad)
    with pytest.raises(ValueError, match="'group_name'.*no 'groups'"):
        write_report(target, title="t", scores=scores, y_true=y, group_name="region")
    with pytest.raises(TypeError, match="'group_name' must be None or a string"):
        write_report(target, title="t", scores=scores, y_true=y, groups=groups, group_name=3)
    assert os.listdir(tmp_path) == []


def test_a_report_with_groups(sample, tmp_path):
    y, scores, groups = sample
    ids = np.arange(len(y)) // 4
    out = write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, groups=groups,
                       group_name="region", clusters=ids, n_resamples=10)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<a href="#groups">By group</a>' in page and page.count('<section id="groups">') == 1
    assert page.index('<section id="groups">') < page.index('<section id="details">')
    # One forest figure per scorer, embedded (not a file: the folder is what it is without groups).
    section = page[page.index('<section id="groups">'):page.index('<section id="details">')]
    assert section.count('<img src="data:image/png;base64,') == len(scores)
    assert sorted(os.listdir(tmp_path / "r_files")) == ["auc.png", "det.png", "gain.png", "pr.png", "roc.png"]
    assert out["groups"]["n_clusters"] == 40 and list(out["groups"]["by_scorer"]) == out["ranking"]
    assert out["metadata"]["command"].endswith("clusters=..., groups=...)")
    ref = stats.by_group(y, scores["weak"], groups, ["auc"], clusters=ids, names=["weak"]).to_dict()
    assert out["groups"]["by_scorer"]["weak"] == ref


def _without_time(path) -> str:
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "T", path.read_text(encoding="utf-8"))


def test_a_report_without_groups_is_unchanged(sample, tmp_path, monkeypatch):
    """The page, its figures and the returned dict are those of a page without the section."""
    y, scores, _ = sample
    kw = dict(title="t", scores=scores, y_true=y, criteria=["auc", "average_precision"], n_resamples=10,
              clusters=np.arange(len(y)) // 2)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    now = write_report(tmp_path / "a" / "r.html", **kw)
    monkeypatch.setattr("rankwise.report.PAGE", Page([s for s in PAGE.sections if s.key != "groups"]))
    before = write_report(tmp_path / "b" / "r.html", **kw)
    assert _without_time(tmp_path / "a" / "r.html") == _without_time(tmp_path / "b" / "r.html")
    for f in os.listdir(tmp_path / "a" / "r_files"):
        assert (tmp_path / "a" / "r_files" / f).read_bytes() == (tmp_path / "b" / "r_files" / f).read_bytes()
    for out in (now, before):
        del out["metadata"]["generated"], out["paths"]
    assert list(now) == list(before) and "groups" not in now
    assert repr(now) == repr(before)
    assert output_paths("x/r.html") == ["x/r.html"] + [f"x/r_files/{k}.png" for k in
                                                       ("roc", "pr", "gain", "det", "auc", "calibration",
                                                                                         "distributions")]


def test_computing_by_group_draws_nothing():
    code = ("import sys; import numpy as np; from rankwise.report._groups import GroupsSection; "
            "from rankwise.report._data import read_inputs; rng = np.random.default_rng(0); "
            "y = rng.integers(0, 2, 60); s = {'raw': y + rng.normal(size=60)}; "
            "d = read_inputs(title='t', scores=s, y_true=y, groups=np.arange(60) % 3); "
            "r = GroupsSection().compute(d, {}); assert len(r.names) == 3; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)


def test_a_criterion_of_real_valued_labels_is_left_out_of_the_group_section(tmp_path):
    """``criteria=[..., "ranking_risk"]`` with groups: the section shows the binary
    criteria with a projection and skips the ranking risk (it has no projection), rather
    than failing on it."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    g = rng.integers(0, 3, 200)
    out = write_report(str(tmp_path / "r.html"), title="t", y_true=y, scores={"m": s}, groups=g,
                       criteria=["auc", "ranking_risk", "pnorm_push:p=4"], n_resamples=20)
    assert out is not None and (tmp_path / "r.html").exists()
    data = read_inputs(title="t", y_true=y, scores={"m": s}, criteria=["auc", "ranking_risk", "pnorm_push:p=4"],
                       groups=g)
    specs, _ = group_criteria(data)
    assert "ranking_risk" not in specs and "pnorm_push:p=4" in specs
