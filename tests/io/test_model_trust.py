"""Model files are trusted for nothing (issue 27): scikit-learn trees checked as trees,
runtime parameters never taken from a file, only the fitted attributes a class defines,
every string from a file escaped in messages, and the description parsed with bounded
memory. Each test crafts a file from a real one (the checksums recomputed, as an
attacker would) and expects a one-line ModelFileError, or a model that scores finite
values; what could crash the interpreter runs in a child process with limits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
import zipfile

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, PolynomialFeatures, StandardScaler
from sklearn.tree import DecisionTreeClassifier

from rankwise.io import _model as _model_io
from rankwise.io import _sklearn_state as sk
from rankwise.io._model import JSON_MEMBER, inspect_model, load_model, register_model, save_model
from _support import model_files

TAG = "__rankwise_type__"


def _data(seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=n) > 0).astype(int)
    return X, y


def _saved(model, tmp_path, name="m.rwm"):
    path = tmp_path / name
    save_model(model, path)
    return path


def _node(doc, *steps):
    """The node of the description at the given pipeline step indices."""
    node = {"params": doc["params"], "attributes": doc["attributes"]}
    for i in steps:
        node = node["params"]["steps"][i]["value"][1]["value"]
    return node


def _tree_spec(node):
    return node["attributes"]["tree_"]["value"]


# --------------------------------------------------------------------------------------
# trees, checked as trees
# --------------------------------------------------------------------------------------

@pytest.fixture
def tree_file(tmp_path):
    X, y = _data()
    return _saved(DecisionTreeClassifier(random_state=0).fit(X, y), tmp_path)


def _tree_arrays(path):
    doc = model_files.description(path)
    spec = _tree_spec({"attributes": doc["attributes"]})
    return spec


def _edit_tree_field(path, field, change):
    spec = _tree_arrays(path)
    name = (spec["values"] if field == "values" else spec["nodes"][field])["value"]
    arr = model_files.array(path, name)
    change(arr)
    model_files.rewrite(path, arrays={name: arr})


def test_understated_max_depth_is_refused(tree_file):
    """scikit-learn sizes decision_path's buffer from max_depth: an understated depth
    made it write past the buffer (heap corruption, seen as an abort)."""
    model_files.rewrite(tree_file, lambda doc: _tree_spec(doc).update(max_depth=1))
    model_files.refused(tree_file, "decision tree is refused", "max_depth is 1, the node table is")


def test_overstated_max_depth_is_refused(tree_file):
    model_files.rewrite(tree_file, lambda doc: _tree_spec(doc).update(max_depth=_tree_spec(doc)["max_depth"] + 5))
    model_files.refused(tree_file, "decision tree is refused", "max_depth is")


def test_understated_max_depth_in_a_child_process(tree_file):
    """The crafted file, loaded and walked in a child process with a memory limit: the
    child must end normally (refused, or every output finite), never die of a signal."""
    model_files.rewrite(tree_file, lambda doc: _tree_spec(doc).update(max_depth=0))
    code = textwrap.dedent(f"""
        import resource, numpy as np
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        from rankwise.io._model import load_model, ModelFileError
        X = np.random.default_rng(1).normal(size=(500, 4))
        try:
            m = load_model({str(tree_file)!r})
        except ModelFileError:
            print("refused")
        else:
            for _ in range(30):
                m.decision_path(X); m.apply(X)
            assert np.isfinite(m.predict_proba(X)).all()
            print("finite")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "refused", (proc.returncode, proc.stderr[-500:])


@pytest.mark.parametrize("field,change,fragment", [
    ("threshold", lambda a: a.__setitem__(0, np.nan), "split threshold is NaN"),
    ("values", lambda a: a.__setitem__((1, 0, 0), np.inf), "node value is not finite"),
    ("values", lambda a: a.__setitem__((0, 0, 1), np.nan), "node value is not finite"),
    ("impurity", lambda a: a.__setitem__(2, np.nan), "impurity is not finite"),
    ("weighted_n_node_samples", lambda a: a.__setitem__(1, -3.0), "negative or not finite"),
    ("n_node_samples", lambda a: a.__setitem__(1, -3), "negative or not finite"),
    ("missing_go_to_left", lambda a: a.__setitem__(0, 7), "missing_go_to_left must be 0 or 1"),
])
def test_tree_numbers_are_checked(tree_file, field, change, fragment):
    _edit_tree_field(tree_file, field, change)
    model_files.refused(tree_file, "decision tree is refused", fragment)


def test_node_reached_twice_is_refused(tree_file):
    """Both children of the root pointing at one node: every index in range and after its
    parent, yet a DAG, not a tree (one subtree walked twice, another never)."""
    name = _tree_arrays(tree_file)["nodes"]["left_child"]["value"]
    root_left = int(model_files.array(tree_file, name)[0])
    _edit_tree_field(tree_file, "right_child", lambda a: a.__setitem__(0, root_left))
    model_files.refused(tree_file, "decision tree is refused", "reached from the root more than once or not at all")


def test_tree_wider_than_the_estimator_is_refused(tmp_path):
    """A tree whose n_features (and split features) exceed the estimator's n_features_in_:
    scikit-learn checks X against n_features_in_, then the tree would read past X's row."""
    X, y = _data()
    path = _saved(DecisionTreeClassifier(random_state=0).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: doc["attributes"].update(n_features_in_=2))
    model_files.refused(path, "its tree splits 4 features, n_features_in_ is 2")


def test_tree_classes_must_fit_its_estimator(tmp_path):
    X, y = _data()
    path = _saved(DecisionTreeClassifier(random_state=0).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: doc["attributes"].update(n_classes_=3))
    model_files.refused(path, "n_classes_ is not its tree's")


@pytest.fixture
def forest_file(tmp_path):
    X, y = _data()
    return _saved(RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y), tmp_path)


def _forest_tree(doc, i):
    return doc["attributes"]["estimators_"][i]["value"]


@pytest.mark.parametrize("edit,fragment", [
    (lambda doc: _forest_tree(doc, 1)["attributes"].update(n_features_in_=3), "its tree splits 4 features"),
    (lambda doc: doc["attributes"].update(n_features_in_=3), "its tree 0 does not have the forest's"),
    (lambda doc: doc["attributes"].update(n_classes_=3), "classes_ and n_classes_ do not agree"),
    (lambda doc: doc["attributes"]["estimators_"].insert(0, doc["attributes"].pop("estimator_")),
     "estimator and estimator_ must be DecisionTreeClassifier"),
    (lambda doc: doc["attributes"]["estimators_"][1]["value"].update(**{"class": "sklearn.tree.ExtraTreeClassifier"}),
     "non-empty list of DecisionTreeClassifier"),
])
def test_forest_members_must_agree_with_the_forest(forest_file, edit, fragment):
    model_files.rewrite(forest_file, edit)
    model_files.refused(forest_file, fragment)


def test_depth_check_is_linear_on_a_deep_chain():
    """The real depth of a 200,000-node chain is found without a Python loop per node."""
    n = 200_001
    left = np.full(n, -1, dtype=np.intp)
    right = np.full(n, -1, dtype=np.intp)
    inner = np.arange(0, n - 1, 2)
    left[inner], right[inner] = inner + 2, inner + 1
    depth = sk._depths(left, right, left != -1)
    assert int(depth.max()) == (n - 1) // 2


# --------------------------------------------------------------------------------------
# runtime parameters are not taken from the file
# --------------------------------------------------------------------------------------

def test_n_jobs_and_verbose_take_their_defaults(tmp_path):
    X, y = _data()
    model = make_pipeline(
        ColumnTransformer([("s", StandardScaler(), [0, 1]), ("t", StandardScaler(), [2, 3])]),
        RandomForestClassifier(n_estimators=3, random_state=0))
    model.fit(X, y)  # then as if fitted with them (8 workers on a small machine are slow)
    expected = model.predict_proba(X)
    model[0].set_params(n_jobs=8)
    model[1].set_params(n_jobs=8, verbose=3)
    path = _saved(model, tmp_path)
    assert inspect_model(path)["params"]["steps"][0][1]["params"]["n_jobs"] == 8  # the file says 8
    loaded = load_model(path)
    assert loaded[0].n_jobs is None and loaded[1].n_jobs is None and loaded[1].verbose == 0
    np.testing.assert_array_equal(loaded.predict_proba(X), expected)

    def edit(doc):
        _node(doc, 0)["params"]["n_jobs"] = 10**6
        _node(doc, 1)["params"].update(n_jobs=-(10**6), verbose=10**9)

    model_files.rewrite(path, edit)
    loaded = load_model(path)
    assert loaded[0].n_jobs is None and loaded[1].n_jobs is None and loaded[1].verbose == 0
    assert np.isfinite(loaded.predict_proba(X)).all()


class _JobsRanker(BaseEstimator):
    """A registered rankwise-style estimator with runtime parameters."""

    def __init__(self, alpha=1.0, n_jobs=None, verbose=0):
        self.alpha, self.n_jobs, self.verbose = alpha, n_jobs, verbose

    def fit(self, X, y):
        self.coef_ = np.ones(X.shape[1])
        return self

    def decision_function(self, X):
        return np.asarray(X) @ self.coef_

    def _get_model_state(self):
        return {}, {"coef_": self.coef_}

    def _set_model_state(self, attributes, arrays):
        self.coef_ = arrays["coef_"]


def test_n_jobs_of_a_rankwise_estimator_takes_its_default(tmp_path):
    register_model("TrustTestJobsRanker", _JobsRanker)
    X, y = _data()
    path = _saved(make_pipeline(StandardScaler(), _JobsRanker(alpha=2.0, n_jobs=4, verbose=2)).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 1)["params"].update(n_jobs=10**6, verbose=10**6))
    loaded = load_model(path)[1]
    assert (loaded.alpha, loaded.n_jobs, loaded.verbose) == (2.0, None, 0)
    alone = _saved(_JobsRanker(n_jobs=-1).fit(X, y), tmp_path, "alone.rwm")  # format 1
    assert load_model(alone).n_jobs is None


# --------------------------------------------------------------------------------------
# only the attributes the class defines, each holding only what scikit-learn keeps there
# --------------------------------------------------------------------------------------

@pytest.fixture
def rf_file(tmp_path):
    X, y = _data()
    return _saved(make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=2, max_depth=2,
                                                                          random_state=0)).fit(X, y), tmp_path)


def test_attribute_the_class_never_sets_is_refused(rf_file):
    """RandomForestClassifier has no decision_function: an instance attribute of that name
    holding an estimator from the file would have given it one."""
    def edit(doc):
        _node(doc, 1)["attributes"]["decision_function"] = {
            TAG: "estimator", "value": {"class": "sklearn.preprocessing.StandardScaler", "params": {},
                                        "attributes": {}}}

    model_files.rewrite(rf_file, edit)
    model_files.refused(rf_file, "RandomForestClassifier has no fitted attribute 'decision_function'")


@pytest.mark.parametrize("attr", ["predict_log_proba_", "foo_", "_abc", "transform_"])
def test_unknown_plain_attribute_is_refused(rf_file, attr):
    model_files.rewrite(rf_file, lambda doc: _node(doc, 0)["attributes"].update({attr: 1.0}))
    model_files.refused(rf_file, f"StandardScaler has no fitted attribute '{attr}'")


def test_estimator_where_scikit_learn_keeps_numbers_is_refused(rf_file):
    def edit(doc):
        _node(doc, 0)["attributes"]["mean_"] = {TAG: "estimator", "value": {
            "class": "sklearn.preprocessing.StandardScaler", "params": {}, "attributes": {}}}

    model_files.rewrite(rf_file, edit)
    model_files.refused(rf_file, "fitted attribute 'mean_' cannot hold an estimator")


def test_tree_outside_tree_is_refused(rf_file):
    def edit(doc):
        trees = _node(doc, 1)["attributes"]["estimators_"]
        _node(doc, 0)["attributes"]["scale_"] = trees[0]["value"]["attributes"].pop("tree_")

    model_files.rewrite(rf_file, edit)
    model_files.refused(rf_file, "cannot hold a decision tree")


def test_estimator_in_a_plain_parameter_is_refused(rf_file):
    def edit(doc):
        _node(doc, 0)["params"]["copy"] = {TAG: "estimator", "value": {
            "class": "sklearn.preprocessing.StandardScaler", "params": {}, "attributes": {}}}

    model_files.rewrite(rf_file, edit)
    model_files.refused(rf_file, "parameter 'copy' cannot hold an estimator")


def test_fitted_attribute_table_covers_the_installed_scikit_learn():
    """The committed table holds every fitted attribute the installed scikit-learn sets
    (re-run here, so the table cannot drift), and the same parameter kinds."""
    fitted, params = sk.generate_fitted_table()
    assert set(fitted) == set(sk.ALLOWED)
    missing = {name: sorted(set(attrs) - set(sk.FITTED_ATTRIBUTES[name])) for name, attrs in fitted.items()}
    assert not {k: v for k, v in missing.items() if v}, missing
    for name, attrs in fitted.items():
        for attr, kinds in attrs.items():
            assert set(kinds) <= set(sk.FITTED_ATTRIBUTES[name][attr]), (name, attr, kinds)
    assert params == sk.PARAM_KINDS


# --------------------------------------------------------------------------------------
# every string from a file is shown escaped
# --------------------------------------------------------------------------------------

EVIL = "\x1b[2J\x1b]0;owned\x07\nline2\r\u202e"


def _clean(text):
    assert not any(ord(c) < 32 or ord(c) == 127 or c == "\u202e" for c in text), repr(text)
    return text


@pytest.fixture
def small_file(tmp_path):
    X, y = _data()
    return _saved(make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y), tmp_path)


def test_unknown_estimator_message_escapes_versions_and_names(small_file):
    model_files.rewrite(small_file, lambda doc: doc.update(estimator="x" + EVIL, rankwise_version="1" + EVIL))
    msg = _clean(model_files.refused(small_file, "unknown estimator", "\\x1b[2J"))
    assert "written by rankwise 1\\x1b" in msg


def test_newer_format_message_escapes_the_version(small_file):
    model_files.rewrite(small_file, lambda doc: doc.update(format_version=99, rankwise_version=EVIL))
    _clean(model_files.refused(small_file, "format version 99", "\\x1b"))


def test_unknown_parameter_message_escapes_its_name(small_file):
    model_files.rewrite(small_file, lambda doc: _node(doc, 0)["params"].update({"a" + EVIL: 1}))
    _clean(model_files.refused(small_file, "has no parameter a\\x1b"))


def test_member_names_are_escaped(small_file):
    members = model_files.members(small_file)
    members["arrays/" + EVIL + ".npy"] = b"x"
    model_files.write(small_file, members)
    _clean(model_files.refused(small_file, "unexpected members", "\\x1b"))


def test_sklearn_version_warning_is_escaped(small_file):
    model_files.rewrite(small_file, lambda doc: doc.update(sklearn_version="1.0" + EVIL))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        load_model(small_file)
    messages = [str(w.message) for w in record if issubclass(w.category, UserWarning)]
    assert len(messages) == 1 and "scikit-learn 1.0\\x1b" in _clean(messages[0])


def test_inspect_steps_are_escaped(tmp_path):
    X, y = _data()
    model = make_pipeline(ColumnTransformer([("num", StandardScaler(), [0, 1, 2, 3])]), LogisticRegression()).fit(X, y)
    path = _saved(model, tmp_path)

    def edit(doc):
        transformers = _node(doc, 0)["attributes"]["transformers_"]
        transformers[0]["value"][0] = "n" + EVIL
        doc["params"]["steps"][0]["value"][0] = "s" + EVIL

    model_files.rewrite(path, edit)
    steps = inspect_model(path)["steps"]
    for step in steps:
        for part in step[:2]:
            _clean(part)
    assert any("s\\x1b" in step[0] for step in steps) and any("n\\x1b" in step[0] for step in steps)


def test_non_printable_in_an_exception_from_scikit_learn_is_escaped(small_file):
    """A parameter value the class refuses: the refusal (scikit-learn's own message,
    quoting the value) reaches the message escaped."""
    model_files.rewrite(small_file, lambda doc: _node(doc, 1)["params"].update(penalty=EVIL))
    _clean(model_files.refused(small_file, "LogisticRegression"))


# --------------------------------------------------------------------------------------
# bounded memory: the description
# --------------------------------------------------------------------------------------

def _with_filler(path, filler, compression=zipfile.ZIP_DEFLATED):
    members = model_files.members(path)
    text = members[JSON_MEMBER].decode()
    assert '"copy": true' in text
    members[JSON_MEMBER] = text.replace('"copy": true', '"copy": ' + filler, 1).encode()
    model_files.write(path, members, compression)


def test_nested_empty_containers_are_refused_before_parsing(small_file):
    """12 MB of "[],[],..." compressed to some 15 KB (60 MB from 61 KB took 3.0 GB before)."""
    _with_filler(small_file, "[" + ",".join(["[]"] * 4_000_000) + "]")
    assert os.path.getsize(small_file) < 100_000
    model_files.refused(small_file, "more than 64 times: not a model description")


def test_many_values_within_the_ratio_are_refused_before_parsing(small_file, monkeypatch):
    """Under the size ratio (a description under 1 MiB), still more values than its
    compressed size allows."""
    _with_filler(small_file, "[" + ",".join(["{}"] * 320_000) + "]")
    msg = model_files.refused(small_file, "JSON values in", "refused before parsing it")

    def refuse(*args, **kwargs):
        raise AssertionError("json.loads was called")

    monkeypatch.setattr(_model_io.json, "loads", refuse)
    assert model_files.refused(small_file) == msg


def test_stored_description_bomb_is_refused_before_parsing(small_file, monkeypatch):
    """Without compression the ratio is 1: 3 MB of "[],[],..." stored made a million lists
    (about 200 MB); now the values are bounded by the description's own size too."""
    _with_filler(small_file, "[" + ",".join(["[]"] * 1_000_000) + "]", zipfile.ZIP_STORED)

    def refuse(*args, **kwargs):
        raise AssertionError("json.loads was called")

    monkeypatch.setattr(_model_io.json, "loads", refuse)
    model_files.refused(small_file, "JSON values in", "refused before parsing it")


def test_a_long_value_in_a_refusal_is_cut(small_file):
    """scikit-learn's refusal of a parameter quotes the whole value: the message stays
    short."""
    _with_filler(small_file, "[" + ",".join(["1"] * 50_000) + "]")
    msg = model_files.refused(small_file, "StandardScaler")
    assert len(msg) < 1000


def test_deep_nesting_is_refused_before_parsing(small_file, monkeypatch):
    _with_filler(small_file, "[" * 600 + "]" * 600)

    def refuse(*args, **kwargs):
        raise AssertionError("json.loads was called")

    monkeypatch.setattr(_model_io.json, "loads", refuse)
    model_files.refused(small_file, "not valid JSON", "nests 60", "more than a model description's 512")


def test_brackets_inside_strings_do_not_count(tmp_path):
    """Feature names full of brackets, quotes and backslashes are data, not nesting."""
    pd = pytest.importorskip("pandas")

    X, y = _data()
    names = ["[" * 700 + '"\\', "{" * 700 + "\\\\", '\\"' + "]" * 5, "x,:" * 200]
    frame = pd.DataFrame(X, columns=names)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(frame, y)
    path = _saved(model, tmp_path)
    np.testing.assert_array_equal(load_model(path).decision_function(frame), model.decision_function(frame))


def test_json_extent_matches_a_parse():
    rng = np.random.default_rng(3)
    pieces = ['"a\\\\"', '"q\\"[{"', '"]]}"', "1", "[]", "{}", "null", '"\\\\\\""']

    def value(depth):
        r = rng.random()
        if depth > 5 or r < 0.3:
            return pieces[rng.integers(len(pieces))]
        if r < 0.65:
            return "[" + ",".join(value(depth + 1) for _ in range(rng.integers(0, 4))) + "]"
        return "{" + ",".join(f'"k{i}[":' + value(depth + 1) for i in range(rng.integers(0, 4))) + "}"

    def count(obj, depth=0):
        if isinstance(obj, list):
            return max([depth + 1] + [count(v, depth + 1)[0] for v in obj]), 1 + sum(count(v)[1] for v in obj)
        if isinstance(obj, dict):
            return (max([depth + 1] + [count(v, depth + 1)[0] for v in obj.values()]),
                    1 + sum(1 + count(v)[1] for v in obj.values()))
        return depth, 1

    saved = _model_io._CHUNK
    try:
        for chunk in (5, 64, 1 << 18):
            _model_io._CHUNK = chunk
            for _ in range(200):
                text = value(0)
                depth, n = count(json.loads(text))
                got_depth, got_n = _model_io._json_extent(text.encode())
                assert got_depth == depth
                assert got_n >= n  # commas: one fewer than a container's items, plus one per key
    finally:
        _model_io._CHUNK = saved


def test_description_bomb_peak_memory_in_a_child_process(small_file):
    """Loading the crafted file in a child limited to 2 GiB of address space: refused,
    with a peak within 50 MB of the child's size before loading (before the fix these 4
    million lists took about 600 MB)."""
    _with_filler(small_file, "[" + ",".join(["[]"] * 4_000_000) + "]")
    code = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        from rankwise.io._model import load_model, ModelFileError
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            load_model({str(small_file)!r})
        except ModelFileError:
            print("refused", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("refused"), proc.stderr[-500:]
    assert int(proc.stdout.split()[1]) < 50 * 1024, proc.stdout  # KiB


# --------------------------------------------------------------------------------------
# per-class checks: a loaded model scores finite values or the file is refused
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("step,attr,change,fragment", [
    (1, "coef_", lambda a: a.__setitem__((0, 1), np.nan), "coef_ holds a value that is not finite"),
    (1, "coef_", lambda a: a[:, :3], "coef_ must be a float array of 4 columns"),
    (1, "intercept_", lambda a: a * np.inf, "intercept_ holds a value that is not finite"),
    (0, "scale_", lambda a: a * 0, "scale_ holds a value <= 0"),
    (0, "scale_", lambda a: a[:2], "scale_ must be a float array of 4 values"),
    (0, "mean_", lambda a: a * np.nan, "mean_ holds a value that is not finite"),
])
def test_linear_pipeline_state_is_checked(small_file, step, attr, change, fragment):
    name = _node(model_files.description(small_file), step)["attributes"][attr]["value"]
    arr = model_files.array(small_file, name)
    out = change(arr)
    model_files.rewrite(small_file, arrays={name: np.ascontiguousarray(arr if out is None else out)})
    model_files.refused(small_file, fragment)


@pytest.mark.parametrize("edit,fragment", [
    (lambda doc: _node(doc, 1)["attributes"].update(n_features_in_=5), "coef_ must be a float array of 5 columns"),
    (lambda doc: _node(doc, 1)["attributes"].update(n_features_in_=True), "n_features_in_ must be a positive int"),
    (lambda doc: _node(doc, 1)["params"].update(penalty="l7"), "penalty"),
    (lambda doc: _node(doc, 1)["params"].update(C=-1.0), "'C' parameter of LogisticRegression"),
])
def test_scalars_and_parameters_are_checked(small_file, edit, fragment):
    model_files.rewrite(small_file, edit)
    model_files.refused(small_file, fragment)


def test_feature_names_must_fit_n_features_in(tmp_path):
    pd = pytest.importorskip("pandas")

    X, y = _data()
    frame = pd.DataFrame(X, columns=list("abcd"))
    path = _saved(make_pipeline(StandardScaler(), LogisticRegression()).fit(frame, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 0)["attributes"].update(
        feature_names_in_={TAG: "objects", "value": {"shape": [2], "items": ["a", "b"]}}))
    model_files.refused(path, "feature_names_in_ must be 4 distinct strings")


def test_polynomial_output_count_is_checked(tmp_path):
    X, y = _data()
    path = _saved(make_pipeline(PolynomialFeatures(2), LogisticRegression()).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 0)["attributes"].update(n_output_features_=10**12))
    model_files.refused(path, "n_output_features_ must be 15")


def test_polynomial_huge_degree_is_refused(tmp_path):
    X, y = _data()
    path = _saved(make_pipeline(PolynomialFeatures(2), LogisticRegression()).fit(X, y), tmp_path)

    def edit(doc):
        _node(doc, 0)["params"]["degree"] = 60
        _node(doc, 0)["attributes"].update(_max_degree=60, n_output_features_=10**12)

    model_files.rewrite(path, edit)
    model_files.refused(path, "n_output_features_ must be")


def test_one_hot_categories_must_fit_n_features_in(tmp_path):
    X = np.array([["a", "x"], ["b", "y"], ["a", "y"], ["b", "x"]] * 10, dtype=object)
    y = np.array([0, 1, 1, 0] * 10)
    path = _saved(make_pipeline(OneHotEncoder(), LogisticRegression()).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 0)["attributes"]["categories_"].pop())
    model_files.refused(path, "categories_ must be 2 one-dimensional arrays")


def test_nystroem_unknown_kernel_is_refused(tmp_path):
    X, y = _data()
    path = _saved(make_pipeline(Nystroem(n_components=5, random_state=0), LogisticRegression()).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 0)["params"].update(kernel="no-such-kernel"))
    model_files.refused(path, "kernel")


def test_column_transformer_column_out_of_range_is_refused(tmp_path):
    X, y = _data()
    model = make_pipeline(ColumnTransformer([("s", StandardScaler(), [0, 1])]), LogisticRegression()).fit(X, y)
    path = _saved(model, tmp_path)

    def edit(doc):
        _node(doc, 0)["attributes"]["transformers_"][0]["value"][2] = [0, 10**6]

    model_files.rewrite(path, edit)
    model_files.refused(path, "column index 1000000 is outside [-4, 4)")


def test_rankwise_node_state_must_be_plain_data(tmp_path):
    import rankwise as rw

    X, y = _data()
    path = _saved(make_pipeline(StandardScaler(), rw.BBRRanker()).fit(X, y), tmp_path)
    model_files.rewrite(path, lambda doc: _node(doc, 1)["attributes"].update(
        intercept_={TAG: "estimator", "value": {"class": "sklearn.preprocessing.StandardScaler", "params": {},
                                                "attributes": {}}}))
    model_files.refused(path, "must be plain JSON data")


def test_pipeline_steps_must_be_named_estimators(small_file):
    """Found by the fuzz test: steps nested one level deeper loaded, then failed at
    scoring with scikit-learn's TypeError."""
    model_files.rewrite(small_file, lambda doc: doc["params"].update(steps=[doc["params"]["steps"]]))
    model_files.refused(small_file, "steps must be a non-empty list of (name, estimator)")


@pytest.fixture
def column_file(tmp_path):
    X, y = _data()
    frame = np.empty((len(X), 2), dtype=object)
    frame[:, 0] = np.where(X[:, 0] > 0, "a", "b")
    frame[:, 1] = X[:, 1]
    model = make_pipeline(ColumnTransformer([("num", StandardScaler(), [1]), ("cat", OneHotEncoder(), [0])]),
                          LogisticRegression()).fit(frame, y)
    return _saved(model, tmp_path)


def test_column_transformer_input_indices_are_checked(column_file):
    model_files.rewrite(column_file, lambda doc: _node(doc, 0)["attributes"]["_transformer_to_input_indices"].update(num=[2**63]))
    model_files.refused(column_file, "_transformer_to_input_indices must map names to column indices in [0, 2)")


def test_one_hot_output_counts_are_checked(column_file):
    def edit(doc):
        encoder = _node(doc, 0)["attributes"]["transformers_"][1]["value"][1]["value"]
        encoder["attributes"]["_n_features_outs"] = [{TAG: "float", "value": "inf"}]

    model_files.rewrite(column_file, edit)
    model_files.refused(column_file, "_n_features_outs must hold 1 counts")


# --------------------------------------------------------------------------------------
# encoders, column transformers and pipelines: the states the fuzz test found
# --------------------------------------------------------------------------------------

def _encoder(doc):
    return _node(doc, 0)["attributes"]["transformers_"][1]["value"][1]["value"]


def _column(doc):
    return _node(doc, 0)["attributes"]


def test_one_hot_output_count_zero_in_a_child_process(tmp_path):
    """Found by the fuzz test (seed 5031): ``_n_features_outs`` lowered to 0 on the fuzz
    corpus's frame pipeline loaded, and scoring its probe (an unseen category, a missing
    value) then corrupted the heap ("double free or corruption"). The crafted file is
    loaded and scored in a child process with a memory limit: it must be refused."""
    pytest.importorskip("pandas")
    from _support import model_fuzz

    model, probe = model_fuzz.corpus_builders()["Pipeline[ColumnTransformer+LogisticRegression]"]()
    path = _saved(model, tmp_path)
    model_files.rewrite(path, lambda doc: _encoder(doc)["attributes"].update(_n_features_outs=[0]))
    code = textwrap.dedent(f"""
        import resource, sys, numpy as np
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        sys.path.insert(0, {os.path.dirname(os.path.dirname(__file__))!r})
        from _support import model_fuzz
        from rankwise.io._model import load_model, ModelFileError
        X = model_fuzz.probe_input({probe!r})
        try:
            m = load_model({str(path)!r})
        except ModelFileError as exc:
            print("refused", exc)
        else:
            for _ in range(20):
                try:
                    s = m.decision_function(X)
                except ValueError as exc:
                    print("error at scoring", exc)
                    break
            else:
                print("finite" if np.isfinite(s).all() else "not finite")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("refused"), (proc.returncode, proc.stdout[-300:],
                                                                        proc.stderr[-500:])
    assert "_n_features_outs must hold 1 counts, [4]" in proc.stdout


@pytest.mark.parametrize("edit,fragment", [
    (lambda a: a.update(_n_features_outs=[1]), "_n_features_outs must hold 1 counts, [2]"),
    (lambda a: a.update(_drop_idx_after_grouping="true"), "_drop_idx_after_grouping does not match"),
    (lambda a: a.update(drop_idx_=[1]), "drop_idx_ does not match"),
    (lambda a: a.update(_infrequent_enabled=True), "_infrequent_enabled does not match its parameters"),
    (lambda a: a.update(_infrequent_enabled=1), "_infrequent_enabled must be true or false"),
])
def test_one_hot_internals_are_checked(column_file, edit, fragment):
    model_files.rewrite(column_file, lambda doc: edit(_encoder(doc)["attributes"]))
    model_files.refused(column_file, fragment)


def test_one_hot_dtype_must_be_a_dtype(column_file):
    model_files.rewrite(column_file, lambda doc: _encoder(doc)["params"].update(dtype="x"))
    model_files.refused(column_file, "its parameter 'dtype' must be a numeric dtype")


@pytest.fixture
def infrequent_file(tmp_path):
    X = np.array([["a"]] * 20 + [["b"]] * 20 + [["c"]] * 2 + [["d"]] * 2, dtype=object)
    y = np.arange(len(X)) % 2
    model = make_pipeline(OneHotEncoder(min_frequency=5, handle_unknown="infrequent_if_exist"),
                          LogisticRegression()).fit(X, y)
    return _saved(model, tmp_path)


def test_legitimate_infrequent_encoder_loads(infrequent_file):
    m = load_model(infrequent_file)
    X = np.array([["a"], ["b"], ["c"], ["zz"]], dtype=object)
    assert np.isfinite(m.decision_function(X)).all()


@pytest.mark.parametrize("edit,fragment", [
    (lambda a: a["_infrequent_indices"].append(None),
     "_infrequent_indices and _default_to_infrequent_mappings must hold 1 entries"),
    (lambda a: a.update(_infrequent_indices=a["_default_to_infrequent_mappings"],
                        _default_to_infrequent_mappings=a["_infrequent_indices"]), "does not fit its mapping"),
])
def test_infrequent_state_is_checked(infrequent_file, edit, fragment):
    model_files.rewrite(infrequent_file, lambda doc: edit(_node(doc, 0)["attributes"]))
    model_files.refused(infrequent_file, fragment)


def test_infrequent_mapping_must_match_its_indices(infrequent_file):
    doc = model_files.description(infrequent_file)
    name = _node(doc, 0)["attributes"]["_default_to_infrequent_mappings"][0]["value"]
    mapping = model_files.array(infrequent_file, name)
    model_files.rewrite(infrequent_file, arrays={name: mapping * 0 + 7})
    model_files.refused(infrequent_file, "_default_to_infrequent_mappings does not match _infrequent_indices")


@pytest.mark.parametrize("edit,fragment", [
    (lambda a: a["transformers_"][1]["value"].__setitem__(0, "a\nb"),
     "_transformer_to_input_indices must have the names of transformers_"),
    (lambda a: a["transformers_"][1]["value"].__setitem__(2, 0), "a column selection must be a list"),
    (lambda a: a["transformers_"][1]["value"].__setitem__(2, []), "the columns of 'cat' do not match"),
    (lambda a: a["_transformer_to_input_indices"]["cat"].append(0), "the columns of 'cat' do not match"),
    (lambda a: a.update(_transformer_to_input_indices=None), "must have the names of transformers_"),
    (lambda a: a["output_indices_"].pop("cat"), "output_indices_ must have the names of transformers_"),
    (lambda a: a["output_indices_"]["cat"]["value"].__setitem__(1, 2),
     "output_indices_['cat'] does not follow the previous slice"),
])
def test_column_transformer_layout_is_checked(column_file, edit, fragment):
    model_files.rewrite(column_file, lambda doc: edit(_column(doc)))
    model_files.refused(column_file, fragment)


def test_column_transformer_names_and_slices_load(tmp_path):
    """Column specs a fit keeps as they were given (a slice, names) and a remainder load."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": np.arange(30.0), "b": np.arange(30.0) % 7, "c": list("xyz") * 10,
                          "d": np.arange(30.0) % 4})
    y = np.arange(30) % 2
    model = make_pipeline(ColumnTransformer([("n", StandardScaler(), slice(0, 2)),
                                             ("c", OneHotEncoder(), ["c"])],
                                            remainder=StandardScaler()), LogisticRegression()).fit(frame, y)
    loaded = load_model(_saved(model, tmp_path))
    assert np.array_equal(loaded.decision_function(frame), model.decision_function(frame))


@pytest.fixture
def imputer_file(tmp_path):
    X, y = _data()
    X[::5, 2] = np.nan
    from sklearn.impute import SimpleImputer

    return _saved(make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression()).fit(X, y), tmp_path)


def _statistics(path, change):
    name = _node(model_files.description(path), 0)["attributes"]["statistics_"]["value"]
    arr = model_files.array(path, name).copy()
    change(arr)
    model_files.rewrite(path, arrays={name: arr})


@pytest.mark.parametrize("value,fragment", [
    (np.nan, "step 'simpleimputer' outputs 3 columns, step 'standardscaler' expects 4"),
    (np.inf, "statistics_ holds an infinite value"),
    (-np.inf, "statistics_ holds an infinite value"),
])
def test_imputer_statistics_are_checked(imputer_file, value, fragment):
    _statistics(imputer_file, lambda a: a.__setitem__(1, value))
    model_files.refused(imputer_file, fragment)


def test_imputer_fill_dtype_must_be_a_dtype(imputer_file):
    model_files.rewrite(imputer_file, lambda doc: _node(doc, 0)["attributes"].update(_fill_dtype=False))
    model_files.refused(imputer_file, "_fill_dtype must be a dtype")


def test_imputer_indicator_must_fit_add_indicator(imputer_file):
    model_files.rewrite(imputer_file, lambda doc: _node(doc, 0)["params"].update(add_indicator=True))
    model_files.refused(imputer_file, "indicator_ must be a MissingIndicator of 4 features")


def test_imputer_dropping_an_empty_column_loads(tmp_path):
    """A column all missing at fit has a NaN statistic and is dropped: legitimate, and the
    next step was fitted on the narrower width."""
    from sklearn.impute import SimpleImputer

    X, y = _data()
    X[:, 3] = np.nan
    model = make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression()).fit(X, y)
    loaded = load_model(_saved(model, tmp_path))
    assert np.isfinite(loaded.decision_function(X)).all()


def test_column_transformer_width_must_fit_the_next_step(column_file):
    """A shortened one-hot output (its categories and output counts lowered together) is a
    consistent encoder whose output no longer fits the classifier."""
    def edit(doc):
        enc = _encoder(doc)["attributes"]
        enc["categories_"][0]["value"]["shape"] = [1]
        enc["categories_"][0]["value"]["items"] = enc["categories_"][0]["value"]["items"][:1]
        enc["_n_features_outs"] = [1]
        _column(doc)["output_indices_"]["cat"]["value"][1] = 2

    model_files.rewrite(column_file, edit)
    model_files.refused(column_file, "step 'columntransformer' outputs 2 columns, step 'logisticregression' expects 3")


def test_imputer_fill_dtype_must_be_present(imputer_file):
    """Found by the fuzz test (seed 12193): the key deleted loaded, then transform raised
    AttributeError."""
    if "_fill_dtype" not in sk._imputer_dtypes():
        pytest.skip("this scikit-learn's SimpleImputer has no _fill_dtype")
    model_files.rewrite(imputer_file, lambda doc: _node(doc, 0)["attributes"].pop("_fill_dtype"))
    model_files.refused(imputer_file, "_fill_dtype must be a dtype")
