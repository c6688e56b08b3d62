"""The scikit-learn classes a model file may hold, and the checks of their special state.

A model file names a scikit-learn class by its public path (``"sklearn.pipeline.Pipeline"``);
loading looks that string up in :data:`ALLOWED`, a fixed table, and imports only the
modules the table names, never a module or attribute read from a file. A class takes part
when its fitted state is plain data: parameters from ``get_params(deep=False)``, fitted
attributes from the instance's ``__dict__`` (numbers, strings, arrays of plain dtypes,
lists and dicts of them, other allowed estimators). Two kinds of fitted value are not
plain data and have their own encoding, checked here before anything is built:

* a decision tree's ``tree_`` (scikit-learn's compiled ``Tree``): its node table is
  stored as one array per field and rebuilt only after every child index, feature index
  and shape has been checked (the compiled code trusts them; a child index out of range
  would read outside the table);
* a ``scipy.interpolate.BSpline`` (``SplineTransformer.bsplines_``): knots, coefficients,
  degree, extrapolation mode.

Attributes that hold compiled helper objects the estimator rebuilds from its parameters
(``SGDClassifier._loss_function_``) are left out of the file and rebuilt on load.
``FunctionTransformer`` and every estimator taking a callable are not allowed: a callable
is code.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

#: Name recorded in the file -> (module, class). Only these modules are ever imported.
ALLOWED: dict[str, tuple[str, str]] = {
    f"sklearn.{module}.{name}": (f"sklearn.{module}", name)
    for module, names in {
        "pipeline": ["Pipeline"],
        "compose": ["ColumnTransformer"],
        "impute": ["SimpleImputer", "MissingIndicator"],
        "preprocessing": ["StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler", "Normalizer",
                          "OneHotEncoder", "OrdinalEncoder", "LabelBinarizer", "SplineTransformer",
                          "PolynomialFeatures"],
        "kernel_approximation": ["Nystroem", "RBFSampler"],
        "linear_model": ["LogisticRegression", "RidgeClassifier", "SGDClassifier", "Perceptron",
                         "LinearRegression", "Ridge"],
        "svm": ["LinearSVC"],
        "tree": ["DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier"],
        "ensemble": ["RandomForestClassifier", "ExtraTreesClassifier"],
    }.items()
    for name in names
}

# Fitted attributes left out of the file and rebuilt from the parameters on load.
_REBUILT: dict[str, dict[str, Callable[[Any], Any]]] = {
    name: {"_loss_function_": lambda est: est._get_loss_function(est.loss)}
    for name in ("sklearn.linear_model.SGDClassifier", "sklearn.linear_model.Perceptron")
}

# Parameters that must keep one value: a pipeline's ``memory`` names a cache folder whose
# files joblib unpickles when the pipeline is refitted.
FIXED_PARAMS: dict[str, dict[str, Any]] = {"sklearn.pipeline.Pipeline": {"memory": None}}

TREE_CLASS = ("sklearn.tree._tree", "Tree")
BSPLINE_CLASS = ("scipy.interpolate._bsplines", "BSpline")


def allowed_class(name: str) -> type:
    """The class of an allowlisted name (the caller has checked ``name in ALLOWED``)."""
    module, attr = ALLOWED[name]
    return getattr(importlib.import_module(module), attr)


def name_of(cls: type) -> str | None:
    """The allowlisted name of exactly ``cls`` (a subclass is not allowed: its code is not
    the code that was reviewed)."""
    for name, (module, attr) in ALLOWED.items():
        if attr == cls.__name__ and cls.__module__.startswith("sklearn.") and allowed_class(name) is cls:
            return name
    return None


def fitted_state(name: str, est: Any, params: dict) -> dict:
    """The fitted attributes of an allowlisted estimator to store: its ``__dict__`` less
    its parameters and the attributes rebuilt on load."""
    skip = set(params) | set(_REBUILT.get(name, ()))
    return {k: v for k, v in vars(est).items() if k not in skip}


def param_problem(name: str, params: dict) -> str | None:
    """Why the parameters of an allowlisted ``name`` cannot be saved or loaded, or None."""
    for key, value in FIXED_PARAMS.get(name, {}).items():
        if key in params and params[key] is not value:
            return f"its parameter {key!r} must be {value!r} (a cache folder holds pickles)"
    return None


def attribute_problem(cls: type, name: str, params: set) -> str | None:
    """Why a fitted attribute ``name`` read from a file cannot be set on a ``cls``, or
    None: it must not be a parameter, nor shadow anything the class defines (a method,
    a property)."""
    if name in params:
        return f"'{name}' is a parameter, not a fitted attribute"
    if hasattr(cls, name):
        return f"'{name}' would shadow {cls.__name__}.{name}"
    return None


def restore(name: str, est: Any, attributes: dict) -> None:
    """Set the checked fitted attributes, then rebuild the left-out ones."""
    vars(est).update(attributes)
    for attr, rebuild in _REBUILT.get(name, {}).items():
        setattr(est, attr, rebuild(est))


# --- decision trees ----------------------------------------------------------------------

def is_tree(value: Any) -> bool:
    t = type(value)
    return (t.__module__, t.__name__) == TREE_CLASS


def _tree_module():
    return importlib.import_module(TREE_CLASS[0])


def node_dtype() -> np.dtype:
    """The node record of the installed scikit-learn (never read from a file)."""
    return np.dtype(_tree_module().NODE_DTYPE)


def tree_state(tree: Any) -> dict:
    """``{"n_features", "n_classes", "n_outputs", "max_depth", "node_count", "nodes": {field:
    array}, "values"}`` of a fitted ``Tree``."""
    n_features, n_classes, n_outputs = tree.__reduce__()[1]
    state = tree.__getstate__()
    nodes = state["nodes"]
    return {"n_features": int(n_features), "n_classes": np.ascontiguousarray(n_classes, dtype=np.int64),
            "n_outputs": int(n_outputs), "max_depth": int(state["max_depth"]),
            "node_count": int(state["node_count"]),
            "nodes": {f: np.ascontiguousarray(nodes[f]) for f in nodes.dtype.names},
            "values": np.ascontiguousarray(state["values"])}


def tree_problem(spec: dict) -> str | None:
    """Why a tree's stored state (arrays already loaded) cannot be rebuilt safely, or None.

    Checked: the node fields are exactly the installed node record's, each a 1-D array of
    ``node_count`` entries of the record's dtype; ``values`` is ``(node_count, n_outputs,
    max(n_classes))`` float64; every internal node has a feature in ``[0, n_features)``
    and two children after it (so the table is a tree and every walk ends); every leaf
    has both children ``-1``.
    """
    dtype = node_dtype()
    n, n_features, n_outputs = spec["node_count"], spec["n_features"], spec["n_outputs"]
    for key in ("node_count", "n_features", "n_outputs", "max_depth"):
        if not isinstance(spec[key], int) or isinstance(spec[key], bool) or spec[key] < 0:
            return f"{key} must be an int >= 0"
    if n < 1 or n_outputs < 1:
        return "a tree needs at least one node and one output"
    n_classes = spec["n_classes"]
    if n_classes.dtype.kind not in "iu" or n_classes.shape != (n_outputs,) or (n_classes < 1).any():
        return f"n_classes must be {n_outputs} positive integers"
    if set(spec["nodes"]) != set(dtype.names):
        return f"the node fields must be {', '.join(dtype.names)}"
    for field in dtype.names:
        arr = spec["nodes"][field]
        if arr.shape != (n,) or arr.dtype != dtype.fields[field][0]:
            return f"the node field {field} must be {n} values of dtype {dtype.fields[field][0]}"
    values = spec["values"]
    if values.dtype != np.float64 or values.shape != (n, n_outputs, int(n_classes.max())):
        return f"values must be float64 of shape {(n, n_outputs, int(n_classes.max()))}"
    left, right, feature = spec["nodes"]["left_child"], spec["nodes"]["right_child"], spec["nodes"]["feature"]
    index = np.arange(n)
    leaf = left == -1
    if not np.array_equal(leaf, right == -1):
        return "a node has one child"
    inner = ~leaf
    if ((left[inner] <= index[inner]) | (left[inner] >= n) | (right[inner] <= index[inner]) | (right[inner] >= n)).any():
        return "a child index is out of range"
    if ((feature[inner] < 0) | (feature[inner] >= n_features)).any():
        return f"a split feature is outside [0, {n_features})"
    return None


def build_tree(spec: dict) -> Any:
    dtype = node_dtype()
    nodes = np.empty(spec["node_count"], dtype=dtype)
    for field in dtype.names:
        nodes[field] = spec["nodes"][field]
    tree = _tree_module().Tree(spec["n_features"], spec["n_classes"].astype(np.intp), spec["n_outputs"])
    tree.__setstate__({"max_depth": spec["max_depth"], "node_count": spec["node_count"], "nodes": nodes,
                       "values": np.ascontiguousarray(spec["values"])})
    return tree


# --- B-splines ---------------------------------------------------------------------------

def is_bspline(value: Any) -> bool:
    t = type(value)
    return (t.__module__, t.__name__) == BSPLINE_CLASS


def bspline_state(b: Any) -> dict:
    return {"t": np.ascontiguousarray(b.t), "c": np.ascontiguousarray(b.c), "k": int(b.k),
            "extrapolate": b.extrapolate if isinstance(b.extrapolate, str) else bool(b.extrapolate),
            "axis": int(b.axis)}


def bspline_problem(spec: dict) -> str | None:
    t, c, k = spec["t"], spec["c"], spec["k"]
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 20:
        return "its degree must be an int in [0, 20]"
    if spec["extrapolate"] not in (True, False, "periodic"):
        return "extrapolate must be true, false or 'periodic'"
    if spec["axis"] != 0:
        return "axis must be 0"
    if t.ndim != 1 or t.dtype.kind != "f" or c.dtype.kind != "f" or c.ndim < 1:
        return "knots and coefficients must be float arrays"
    if t.shape[0] < 2 * k + 2 or c.shape[0] < t.shape[0] - k - 1 or not np.all(np.diff(t) >= 0):
        return "its knots and coefficients do not make a spline"
    return None


def build_bspline(spec: dict) -> Any:
    from scipy.interpolate import BSpline

    return BSpline(spec["t"], spec["c"], spec["k"], extrapolate=spec["extrapolate"], axis=spec["axis"])
