"""The written report in a real headless browser: no console errors, the figures
load, the criteria table shows the numbers; a screenshot goes to $RANKWISE_ARTIFACTS
(default ``out/ci-artifacts/``) for a human to look at.

Needs Chromium (Debian: ``apt-get install -y chromium``); skipped without it. Driven
with the standard library only (DevTools protocol over a pipe, see browser_check.py).
"""

import os
import pathlib

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from browser_check import find_chromium, inspect_page  # noqa: E402
from rankwise.report import write_report  # noqa: E402
from rankwise.stats._results import fmt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="chromium is not installed (Debian: apt-get install -y chromium)")


def _artifacts() -> pathlib.Path:
    folder = pathlib.Path(os.environ.get("RANKWISE_ARTIFACTS") or ROOT / "out" / "ci-artifacts")
    return folder if folder.is_absolute() else ROOT / folder


def test_report_renders_in_chromium(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    scores = {"model": y + rng.normal(0, 1, n), "baseline <b>": 0.5 * y + rng.normal(0, 1, n),
              "noise": rng.normal(0, 1, n)}
    criteria = ["auc", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=100", "partial_auc:max_fpr=0.1"]
    out = write_report(tmp_path / "report.html", title="rankwise report <browser check>", scores=scores, y_true=y,
                       criteria=criteria, notes=["data: synthetic, seed 0"], n_resamples=300,
                       learners=[{"name": "rankboost", "params": {"n_rounds": 50}, "fit_seconds": 0.5}])

    shot = _artifacts() / "report_screenshot.png"
    if shot.exists():
        shot.unlink()
    page = inspect_page(out["paths"]["html"], str(shot), width=1280, height=2000)

    assert page["errors"] == []
    assert page["scripts"] == 0
    assert page["title"] == "rankwise report <browser check>"
    assert len(page["images"]) == 2
    for img in page["images"]:
        assert img["complete"] and img["naturalWidth"] > 0 and img["naturalHeight"] > 0, img

    tables = {t["cls"]: t["rows"] for t in page["tables"]}
    assert set(tables) == {"criteria", "pairs", "matrix", "learners"}
    expected = [["scorer"] + criteria] + [
        [name] + [f"{fmt(r[c]['value'])} [{fmt(r[c]['low'])}, {fmt(r[c]['high'])}]" for c in criteria]
        for name, r in out["criteria"].items()]
    assert tables["criteria"] == expected
    assert [row[0] for row in tables["matrix"][1:]] == list(scores)
    assert len(tables["pairs"]) == 1 + 3

    assert shot.read_bytes()[:8] == PNG_MAGIC
