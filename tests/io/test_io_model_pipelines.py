"""Model files holding scikit-learn pipelines (format 2): exact round trips on generated
and real data, and crafted files refused before anything is built."""

from __future__ import annotations

import warnings
import zipfile

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.linear_model import LogisticRegression, Perceptron, RidgeClassifier, SGDClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    MinMaxScaler,
    OneHotEncoder,
    OrdinalEncoder,
    PolynomialFeatures,
    RobustScaler,
    SplineTransformer,
    StandardScaler,
)
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import rankwise as rw
from rankwise.io import _model as _model_io
from rankwise.io._datasets import CREDIT_CATEGORICAL, CREDIT_NUMERIC, load_credit_data
from rankwise.io._model import JSON_MEMBER, ModelFileError, inspect_model, load_model, save_model
from _support import model_files


def _outputs(model, X):
    """Every output the model has, as bytes: equal bytes mean equal floats, sign of zero
    and nan included."""
    out = {}
    for method in ("decision_function", "predict_proba", "transform", "predict"):
        if hasattr(model, method):
            try:
                out[method] = np.asarray(getattr(model, method)(X)).tobytes()
            except AttributeError:  # e.g. predict_proba of a hinge-loss SGDClassifier
                pass
    return out


def _round_trip(model, X, path):
    save_model(model, path)
    loaded = load_model(path)
    assert type(loaded) is type(model)
    expected, got = _outputs(model, X), _outputs(loaded, X)
    assert expected and got.keys() == expected.keys()
    for method in expected:
        assert got[method] == expected[method], method
    return loaded


# --------------------------------------------------------------------------------------
# generated data
# --------------------------------------------------------------------------------------

def _generated(seed=0, n=80):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    X[:, 2] = np.round(X[:, 2])  # ties
    y = (X[:, 0] - X[:, 1] + rng.normal(size=n) > 0).astype(int)
    return X, y


GENERATED = {
    "scaler+logistic": lambda: make_pipeline(StandardScaler(), LogisticRegression()),
    "minmax+ridge": lambda: make_pipeline(MinMaxScaler(), RidgeClassifier()),
    "robust+linearsvc": lambda: make_pipeline(RobustScaler(), LinearSVC()),
    "spline+sgd": lambda: make_pipeline(SplineTransformer(n_knots=4), SGDClassifier(random_state=0)),
    "spline-periodic": lambda: make_pipeline(SplineTransformer(extrapolation="periodic"), LogisticRegression()),
    "poly+perceptron": lambda: make_pipeline(PolynomialFeatures(2), Perceptron(random_state=0)),
    "nystroem+bbr": lambda: make_pipeline(Nystroem(n_components=10, random_state=0), rw.BBRRanker()),
    "rbf+pairwise": lambda: make_pipeline(RBFSampler(n_components=8, random_state=0), rw.PairwiseRanker()),
    "spline+bbr": lambda: make_pipeline(StandardScaler(), SplineTransformer(), rw.BBRRanker()),
    "tree": lambda: DecisionTreeClassifier(max_depth=4, random_state=0),
    "forest": lambda: RandomForestClassifier(n_estimators=7, max_depth=5, random_state=0),
    "extra-trees": lambda: ExtraTreesClassifier(n_estimators=5, random_state=0),
    "logistic alone": lambda: LogisticRegression(C=0.3),
    "scaler alone": lambda: StandardScaler(),
}


@pytest.mark.parametrize("name", GENERATED)
def test_generated_round_trip(name, tmp_path):
    X, y = _generated()
    model = GENERATED[name]().fit(X, y)
    _round_trip(model, X, tmp_path / "m.rwm")
    doc = inspect_model(tmp_path / "m.rwm")
    import sklearn

    assert doc["format_version"] == 2 and doc["sklearn_version"] == sklearn.__version__


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 40), levels=st.integers(1, 4))
def test_round_trip_any_small_sample(tmp_path_factory, seed, n, levels):
    """Tiny samples, heavy ties (features on a few levels), sample weights."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels + 1, size=(n, 3)).astype(float)
    y = np.r_[0, 1, rng.integers(0, 2, size=n - 2)]
    w = rng.uniform(0.1, 3.0, size=n)
    model = make_pipeline(StandardScaler(), rw.BBRRanker()).fit(X, y, bbrranker__sample_weight=w)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y, sample_weight=w)
    path = tmp_path_factory.mktemp("h")
    _round_trip(model, X, path / "a.rwm")
    _round_trip(tree, X, path / "b.rwm")


# --------------------------------------------------------------------------------------
# the credit data: categorical columns, missing values
# --------------------------------------------------------------------------------------

def _preprocess(encoder=None):
    return ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), CREDIT_NUMERIC),
        ("cat", encoder if encoder is not None else OneHotEncoder(handle_unknown="ignore"), CREDIT_CATEGORICAL),
    ])


CREDIT = {
    "logistic": lambda: make_pipeline(_preprocess(), LogisticRegression(max_iter=2000)),
    "bbr": lambda: make_pipeline(_preprocess(), rw.BBRRanker()),
    "proper": lambda: make_pipeline(_preprocess(), rw.ProperLossRanker()),
    "ordinal+forest": lambda: make_pipeline(
        _preprocess(OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)),
        RandomForestClassifier(n_estimators=10, random_state=0)),
}


@pytest.fixture(scope="module")
def credit():
    pytest.importorskip("pandas")  # a DataFrame with named columns is what these tests are about
    return load_credit_data()


@pytest.mark.parametrize("name", CREDIT)
def test_credit_round_trip(name, credit, tmp_path):
    X, y = credit
    assert X.isna().any().any() and any(X[c].dtype == object for c in X)  # what this test is about
    model = CREDIT[name]().fit(X, y)
    loaded = _round_trip(model, X, tmp_path / "m.rwm")
    # the column transformer alone, too: its one-hot matrix is the same
    assert loaded[0].transform(X).tobytes() == model[0].transform(X).tobytes()
    assert list(loaded[0].get_feature_names_out()) == list(model[0].get_feature_names_out())


def test_inspect_shows_steps(credit, tmp_path):
    X, y = credit
    save_model(CREDIT["bbr"]().fit(X, y), tmp_path / "m.rwm")
    steps = inspect_model(tmp_path / "m.rwm")["steps"]
    assert steps == [
        ("", "sklearn.pipeline.Pipeline"),
        ("columntransformer", "sklearn.compose.ColumnTransformer"),
        ("columntransformer/num", "sklearn.pipeline.Pipeline", CREDIT_NUMERIC),
        ("columntransformer/num/simpleimputer", "sklearn.impute.SimpleImputer"),
        ("columntransformer/num/standardscaler", "sklearn.preprocessing.StandardScaler"),
        ("columntransformer/cat", "sklearn.preprocessing.OneHotEncoder", CREDIT_CATEGORICAL),
        ("bbrranker", "BBRRanker"),
    ]


def test_rankwise_estimator_alone_stays_format_1(tmp_path):
    X, y = _generated()
    save_model(rw.BBRRanker().fit(X, y), tmp_path / "m.rwm")
    doc = inspect_model(tmp_path / "m.rwm")
    assert doc["format_version"] == 1 and "sklearn_version" not in doc
    assert doc["steps"] == [("", "BBRRanker")]


# --------------------------------------------------------------------------------------
# what cannot be saved
# --------------------------------------------------------------------------------------

def test_function_transformer_is_refused(tmp_path):
    X, y = _generated()
    model = make_pipeline(FunctionTransformer(np.log1p), LogisticRegression()).fit(np.abs(X), y)
    with pytest.raises(TypeError, match="FunctionTransformer.*not a registered rankwise model class nor an allowed"):
        save_model(model, tmp_path / "m.rwm")
    assert not (tmp_path / "m.rwm").exists()


def test_subclass_of_allowed_class_is_refused(tmp_path):
    class MyScaler(StandardScaler):
        pass

    X, y = _generated()
    with pytest.raises(TypeError, match="MyScaler"):
        save_model(make_pipeline(MyScaler(), LogisticRegression()).fit(X, y), tmp_path / "m.rwm")


def test_callable_parameter_is_refused(tmp_path):
    X, y = _generated()
    model = make_pipeline(Nystroem(kernel=lambda a, b: float(a @ b), n_components=5), LogisticRegression())
    model.fit(X, y)
    with pytest.raises(TypeError, match="'kernel' of Nystroem is a callable"):
        save_model(model, tmp_path / "m.rwm")


# --------------------------------------------------------------------------------------
# versions
# --------------------------------------------------------------------------------------

def test_other_sklearn_version_warns_and_loads(tmp_path):
    X, y = _generated()
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    path = tmp_path / "m.rwm"
    save_model(model, path)
    model_files.rewrite(path, lambda doc: doc.update(sklearn_version="1.5.0"))
    with pytest.warns(UserWarning) as record:
        loaded = load_model(path)
    messages = [str(w.message) for w in record]
    assert len(messages) == 1 and "\n" not in messages[0] and "scikit-learn 1.5.0" in messages[0]
    assert loaded.decision_function(X).tobytes() == model.decision_function(X).tobytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        save_model(model, tmp_path / "same.rwm")
        load_model(tmp_path / "same.rwm")  # the same version: no warning


def test_format_1_reader_refuses_format_2_tags(tmp_path):
    X, y = _generated()
    path = tmp_path / "m.rwm"
    save_model(rw.BBRRanker().fit(X, y), path)
    model_files.rewrite(path, lambda doc: doc["attributes"].update(x_={"__rankwise_type__": "slice", "value": [0, 1, None]}))
    with pytest.raises(ModelFileError, match="malformed tagged value"):
        load_model(path)


# --------------------------------------------------------------------------------------
# crafted files: refused before anything is built
# --------------------------------------------------------------------------------------

@pytest.fixture
def pipeline_file(tmp_path):
    X, y = _generated()
    model = make_pipeline(StandardScaler(), DecisionTreeClassifier(max_depth=3, random_state=0)).fit(X, y)
    path = tmp_path / "m.rwm"
    save_model(model, path)
    return path


@pytest.fixture
def nothing_built(monkeypatch):
    """Fails the test if load_model reaches the point of building estimators."""
    def refuse(self, value):
        raise AssertionError("load_model started building before refusing the file")

    monkeypatch.setattr(_model_io._Loader, "build", refuse)


def _step(doc, i):
    """The i-th step's node of the pipeline in ``doc``."""
    return doc["params"]["steps"][i]["value"][1]["value"]


@pytest.mark.parametrize("name", ["os.system", "builtins.eval", "numpy.load", "subprocess.Popen",
                                  "sklearn.preprocessing.FunctionTransformer", "sklearn.pipeline.Pipeline.__init__",
                                  "pickle.loads"])
def test_class_outside_the_allowlist_is_refused(pipeline_file, nothing_built, name):
    def edit(doc):
        node = _step(doc, 1)  # the second step: the first (allowed) one is not built either
        node["class"] = name
        node["params"] = {"allow_pickle": True, "file": "x.npy"} if name == "numpy.load" else {"command": "touch pwned"}
        node["attributes"] = {}

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, f"unknown estimator {name!r}")


def test_top_level_class_outside_the_allowlist_is_refused(pipeline_file, nothing_built):
    model_files.rewrite(pipeline_file, lambda doc: doc.update(estimator="os.system"))
    model_files.refused(pipeline_file, "unknown estimator 'os.system'")


def test_object_dtype_array_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        name = next(iter(doc["arrays"]))
        doc["arrays"][name]["dtype"] = "|O"

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "object dtype")


@pytest.mark.parametrize("item", [{"__rankwise_type__": "tuple", "value": []}, 3, [1], True])
def test_object_array_of_anything_but_strings_is_refused(pipeline_file, nothing_built, item):
    def edit(doc):
        _step(doc, 0)["attributes"]["feature_names_in_"] = {
            "__rankwise_type__": "objects", "value": {"shape": [1], "items": [item]}}

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "strings and missing values only")


def test_depth_bomb_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        node = {"class": "sklearn.preprocessing.StandardScaler", "params": {}, "attributes": {}}
        for _ in range(60):  # about 300 levels of JSON: within what json parses, deeper than a model is
            node = {"class": "sklearn.pipeline.Pipeline", "attributes": {}, "params": {"steps": [
                {"__rankwise_type__": "tuple", "value": ["p", {"__rankwise_type__": "estimator", "value": node}]}]}}
        _step(doc, 0)["params"]["copy"] = {"__rankwise_type__": "estimator", "value": node}

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "nested deeper than 64 levels")


def test_json_depth_bomb_is_refused(pipeline_file, nothing_built):
    members = model_files.members(pipeline_file)
    text = members[JSON_MEMBER].decode()
    members[JSON_MEMBER] = text.replace('"copy": true', '"copy": ' + "[" * 100_000 + "]" * 100_000).encode()
    model_files.write(pipeline_file, members, zipfile.ZIP_STORED)
    model_files.refused(pipeline_file, "not valid JSON")


def test_huge_declared_shape_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        name = next(n for n in doc["arrays"] if n.startswith("mean_"))
        doc["arrays"][name]["shape"] = [10**12]

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "needs 8000000000000 bytes")


def test_huge_tree_node_count_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        _step(doc, 1)["attributes"]["tree_"]["value"]["node_count"] = 10**15

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "decision tree is refused", "left_child must be 1000000000000000 values")


@pytest.mark.parametrize("field,value,fragment", [
    ("left_child", 10**6, "child index is out of range"),
    ("right_child", 0, "child index is out of range"),  # a cycle back to the root
    ("feature", 99, "split feature is outside [0, 4)"),
    ("feature", -5, "split feature is outside [0, 4)"),
])
def test_tree_with_bad_indices_is_refused(pipeline_file, nothing_built, field, value, fragment):
    """scikit-learn's compiled tree walks child and feature indices without bounds checks:
    a crafted index would read outside its arrays on the first prediction."""
    ref = _step(model_files.description(pipeline_file), 1)["attributes"]["tree_"]["value"]["nodes"][field]["value"]
    arr = model_files.array(pipeline_file, ref)
    arr[0] = value  # the root is a split node
    model_files.rewrite(pipeline_file, arrays={ref: arr})
    model_files.refused(pipeline_file, "decision tree is refused", fragment)


def test_attribute_shadowing_a_method_is_refused(pipeline_file, nothing_built):
    model_files.rewrite(pipeline_file, lambda doc: _step(doc, 0)["attributes"].update(transform="x"))
    model_files.refused(pipeline_file, "would shadow StandardScaler.transform")


def test_unknown_parameter_is_refused(pipeline_file, nothing_built):
    model_files.rewrite(pipeline_file, lambda doc: _step(doc, 0)["params"].update(func="os.system"))
    model_files.refused(pipeline_file, "StandardScaler has no parameter func")


def test_pipeline_memory_is_refused(pipeline_file, nothing_built, tmp_path):
    """A pipeline's memory is a folder of pickles that joblib loads when it refits."""
    model_files.rewrite(pipeline_file, lambda doc: doc["params"].update(memory=str(tmp_path)))
    model_files.refused(pipeline_file, "'memory' must be None")
    X, y = _generated()
    model = Pipeline([("s", StandardScaler()), ("m", LogisticRegression())], memory=str(tmp_path)).fit(X, y)
    with pytest.raises(TypeError, match="'memory' must be None"):
        save_model(model, tmp_path / "x.rwm")


def test_array_reference_outside_the_listing_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        _step(doc, 0)["attributes"]["mean_"] = {"__rankwise_type__": "array", "value": "elsewhere"}

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "refers to an array 'elsewhere' it does not list")


def test_array_used_twice_is_refused(pipeline_file, nothing_built):
    def edit(doc):
        node = _step(doc, 0)["attributes"]
        node["var_"] = node["mean_"]

    model_files.rewrite(pipeline_file, edit)
    model_files.refused(pipeline_file, "is used twice")


@pytest.mark.parametrize("tag,value", [
    ("dtype", "<f16"), ("dtype", "[('a', '<f8')]"), ("scalar_type", "<U3"), ("slice", [0, "1", None]), ("slice", [0, 1]),
    ("intdict", [["a", 1]]), ("estimator", {"class": "sklearn.preprocessing.StandardScaler"}), ("lambda", "x"),
])
def test_malformed_tags_are_refused(pipeline_file, nothing_built, tag, value):
    model_files.rewrite(pipeline_file, lambda doc: _step(doc, 0)["attributes"].update(x_={"__rankwise_type__": tag, "value": value}))
    model_files.refused(pipeline_file, "malformed")


@pytest.mark.parametrize("where", ["params", "attributes"])
def test_a_value_of_the_wrong_kind_anywhere_is_a_model_file_error(tmp_path, where):
    """The last line of defence of load_model: a description whose nested estimator holds
    a value of a kind its place never holds (here a slice tag where a dict of parameters or
    attributes stands, found by the fuzz test) is a refused file, not a TypeError escaping
    from the builder."""
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "m.rwm"
    save_model(make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y), path)

    def edit(doc):
        step = doc["params"]["steps"][0]["value"][1]["value"]
        step[where] = {"__rankwise_type__": "slice", "value": [0, 1, 1]}

    model_files.refused(model_files.rewrite(path, edit), "malformed description")


def test_a_tree_whose_node_table_is_one_array_is_refused(tmp_path):
    """Found by the fuzz test's long mode (a forest's ``tree_`` nodes swapped with an
    array reference): the node table must be a dict of arrays, not an array tag; this
    raised AttributeError from the decoder."""
    X = np.random.default_rng(1).normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "t.rwm"
    save_model(DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y), path)

    def edit(doc):
        tree = doc["attributes"]["tree_"]["value"]
        tree["nodes"], doc["attributes"]["classes_"] = doc["attributes"]["classes_"], tree["nodes"]

    model_files.refused(model_files.rewrite(path, edit), "malformed", "tree")
