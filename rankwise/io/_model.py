"""Saving and loading fitted estimators without pickle.

A model file is a ZIP archive holding a JSON description of the estimator
(``rankwise-model.json``: class name, constructor parameters, fitted scalars; in format 2
a scikit-learn estimator or pipeline from an allowlist, with nested estimators), the
SHA-256 of that JSON (``rankwise-model.sha256``) and one ``.npy`` member per fitted
array (``arrays/<name>.npy``, its SHA-256 recorded in the JSON). Loading never runs
code from the file: the class comes from an allowlist (:func:`register_model`), the
parameters and scalars are plain JSON, the arrays are read with
``allow_pickle=False`` after their header has been checked. A file that is not a
rankwise model, or is truncated, corrupted or edited, raises :class:`ModelFileError`
(a ``ValueError``) whose one-line message names the file and what is wrong.

The layout is described in ``docs/model_format.md``.

An estimator class takes part by being registered and by providing two methods::

    @register_model
    class MyRanker(BaseEstimator):
        def _get_model_state(self):          # -> (attributes, arrays)
            return {"intercept_": self.intercept_}, {"coef_": self.coef_}

        def _set_model_state(self, attributes, arrays):
            self.intercept_ = attributes["intercept_"]
            self.coef_ = arrays["coef_"]

Its parameters are saved from ``get_params(deep=False)`` and restored through the
constructor, ``cls(**params)``.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import stat
import struct
import zipfile
import zlib
from datetime import datetime, timezone
from typing import Any, Optional, Union

import numpy as np

from .._text import shown
from ._atomic import check_output, write_atomic

__all__ = [
    "ModelFileError",
    "register_model",
    "registered_models",
    "save_model",
    "load_model",
    "inspect_model",
    "FORMAT_VERSION",
    "DEFAULT_MAX_BYTES",
]

FORMAT_TAG = "rankwise-model"
#: The newest layout this rankwise writes and reads; files of a newer version are refused.
#: Version 1 holds one registered rankwise estimator; version 2 adds scikit-learn
#: estimators from an allowlist, nested (pipelines, column transformers, forests).
#: A file is written in the oldest version that can hold its estimator.
FORMAT_VERSION = 2
JSON_MEMBER = "rankwise-model.json"
CHECKSUM_MEMBER = "rankwise-model.sha256"
ARRAY_DIR = "arrays/"

# A description larger than this is not one rankwise wrote (the fitted arrays live in
# their own members); refusing it keeps a crafted archive from exhausting memory.
_MAX_JSON_BYTES = 64 * 1024 * 1024
#: The most bytes the fitted arrays of a model may take once loaded, unless load_model is
#: given another ``max_bytes``: far above what rankwise's learners store (a coefficient
#: vector, a few hundred stumps, kernel landmarks), far below what would hurt a machine.
#: A crafted file can declare any size; this is what keeps loading it bounded.
DEFAULT_MAX_BYTES = 1 << 30
# The description is parsed into one Python object per JSON value (about 60 to 100 bytes
# each, twice while it is decoded): before json.loads sees it, a linear scan bounds its
# nesting and the number of values it can make, so that a few kilobytes of compressed
# "[[],[],...]" cannot become gigabytes of lists. Measured on legitimate files: a pipeline
# of a 500-tree forest has a 3.2 MB description of 125,000 values (keys included) from
# 248 KB compressed (ratio 13), a one-hot encoder of 10^4 categories 10,000 values from
# 25 KB (ratio 13): 25 to 33 bytes of description per value. A description may hold
# _JSON_VALUES_FLOOR values, and beyond that two per compressed byte and one per
# _JSON_BYTES_PER_VALUE bytes of its own (whichever is fewer: a stored, uncompressed
# "[],[],..." makes a list of some 80 bytes, kept up to three times while it is decoded
# and built, from 3 bytes); its size may be _JSON_RATIO times its compressed size (or
# _JSON_RATIO_FLOOR bytes); its nesting _MAX_JSON_DEPTH levels (a model's values nest at
# most _MAX_DEPTH levels, a few JSON levels each).
_JSON_VALUES_FLOOR = 200_000
_JSON_VALUES_PER_BYTE = 2
_JSON_BYTES_PER_VALUE = 16
_JSON_RATIO, _JSON_RATIO_FLOOR = 64, 1 << 20
_MAX_JSON_DEPTH = 512
# The checksum member is one sha256sum line (87 bytes); the archive's central directory
# of a rankwise model holds a handful of entries. zipfile turns every directory entry into
# a Python object about ten times its size, so the directory is bounded before zipfile
# parses it.
_MAX_CHECKSUM_BYTES = 1024
_MAX_DIRECTORY_BYTES = 1 << 20
# An .npy header: the magic string, version, length and text, which numpy itself limits
# to 10,000 characters by default.
_NPY_MIN_HEADER, _NPY_MAX_HEADER = 10, 12 + 10000
# DEFLATE cannot expand data by more than 1032:1 (a 258-byte match coded in two bits);
# a member claiming more is lying about its size.
_MAX_DEFLATE_RATIO = 1032
# Members are read, hashed and copied in pieces of this size, never whole.
_CHUNK = 1 << 18
# Tag of the JSON objects that stand for values JSON has no literal for (tuples, nan/inf).
_TYPE_KEY = "__rankwise_type__"
# Names of attributes and arrays: Python identifiers, never dunders (array names are
# also file names inside the archive).
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHA256_RE = re.compile(r"[0-9a-f]{64}\Z")
_HEADER_KEYS = {
    "format", "format_version", "rankwise_version", "estimator", "params",
    "attributes", "arrays", "created", "metadata",
}
_HEADER_KEYS_V2 = _HEADER_KEYS | {"sklearn_version"}
_ARRAY_KEYS = {"file", "dtype", "shape", "sha256"}
# How deeply the values of a description may nest (lists, dicts, tagged values, estimators
# inside estimators): a pipeline of column transformers of pipelines needs about a dozen.
_MAX_DEPTH = 64
# The keys of a nested estimator: a scikit-learn one, and a rankwise one (whose arrays
# are named by its _get_model_state and stored as members).
_NODE_KEYS = {"class", "params", "attributes"}
_RANKWISE_NODE_KEYS = _NODE_KEYS | {"arrays"}

# Modules of rankwise that register estimators, imported (fixed names, never names read
# from a file) before a registry lookup so that load_model finds the built-in estimators
# even when the caller imported only this module.
_BUILTIN_MODEL_MODULES: tuple[str, ...] = ("rankwise.learners",)

_REGISTRY: dict[str, type] = {}


class ModelFileError(ValueError):
    """A model file could not be read: not a rankwise model, truncated, corrupted,
    edited, written by a newer rankwise, or describing an estimator this rankwise does
    not know. The message is one line naming the file."""


# --------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------


def register_model(name_or_cls: Union[str, type, None] = None, cls: Optional[type] = None):
    """Allowlist an estimator class for :func:`save_model` / :func:`load_model`.

    Three spellings::

        @register_model                    # registered under cls.__name__
        class BBRRanker(...): ...

        @register_model("BBRRanker")       # under an explicit, stable name
        class BBRRanker(...): ...

        register_model("BBRRanker", BBRRanker)

    The name is what the file records; it must stay stable across releases (renaming
    a class without keeping its registered name makes old files unloadable). The class
    must define ``_get_model_state``, ``_set_model_state`` and ``get_params``.
    Registering another class under a taken name raises ``ValueError``; registering
    the same class again (e.g. after a module reload) replaces the entry.
    """
    if isinstance(name_or_cls, type) and cls is None:
        return _register(name_or_cls.__name__, name_or_cls)
    if name_or_cls is None or isinstance(name_or_cls, str):
        name = name_or_cls
        if cls is not None:
            return _register(name if name is not None else cls.__name__, cls)

        def decorator(klass: type) -> type:
            return _register(name if name is not None else klass.__name__, klass)

        return decorator
    raise TypeError(
        "register_model takes a class, a name, or a name and a class. "
        f"Got {type(name_or_cls).__name__} instead."
    )


def _register(name: str, cls: type) -> type:
    if not isinstance(cls, type):
        raise TypeError(f"register_model: expected a class, got {type(cls).__name__}.")
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ValueError(f"register_model: the name must be a Python identifier. Got {name!r} instead.")
    missing = [m for m in ("_get_model_state", "_set_model_state", "get_params") if not callable(getattr(cls, m, None))]
    if missing:
        raise TypeError(f"register_model: {cls.__name__} must define {', '.join(missing)} to be saved and loaded.")
    old = _REGISTRY.get(name)
    if old is not None and old is not cls and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
        raise ValueError(
            f"register_model: the name {name!r} is already taken by {old.__module__}.{old.__qualname__}."
        )
    for other, klass in list(_REGISTRY.items()):  # one name per class
        if klass is cls and other != name:
            raise ValueError(f"register_model: {cls.__name__} is already registered as {other!r}.")
    _REGISTRY[name] = cls
    return cls


def _ensure_builtin_models() -> None:
    import importlib

    for module in _BUILTIN_MODEL_MODULES:
        importlib.import_module(module)


def registered_models() -> dict[str, type]:
    """The registered estimator classes, by the name model files record (sorted)."""
    _ensure_builtin_models()
    return dict(sorted(_REGISTRY.items()))


def _name_of(cls: type) -> Optional[str]:
    for name, klass in _REGISTRY.items():
        if klass is cls:
            return name
    return None


# --------------------------------------------------------------------------------------
# JSON values: exact round trip, or a clear TypeError at save time
# --------------------------------------------------------------------------------------


class _Arrays:
    """The arrays met while encoding a format-2 description, each under a unique member
    name (the attribute's name and a counter, so that a file's listing reads well)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def add(self, arr: np.ndarray, hint: str, where: str) -> str:
        if type(arr) is not np.ndarray:
            raise TypeError(f"{where} must be a numpy.ndarray. Got {type(arr).__name__} instead.")
        problem = _dtype_problem(arr.dtype)
        if problem is not None:
            raise TypeError(f"{where} cannot be saved without pickle: {problem}.")
        base = re.sub(r"[^A-Za-z0-9]+", "_", hint).strip("_") or "array"
        name = f"{'a_' if base[0].isdigit() else ''}{base}_{len(self.arrays)}"
        self.arrays[name] = arr
        return name


def _tag(kind: str, value: Any) -> dict:
    return {_TYPE_KEY: kind, "value": value}


def _encode(value: Any, where: str, ext: Optional[_Arrays] = None) -> Any:
    """A JSON-able, exactly decodable copy of ``value``; ``where`` names it in errors.
    With ``ext`` (format 2, the state of a scikit-learn estimator) it also takes arrays
    (stored as members), object arrays of strings, dtypes, slices, dicts with integer
    keys and allowed estimators."""
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if isinstance(value, np.floating) and np.finfo(value.dtype).bits > 64:
            raise TypeError(f"{where} is a {value.dtype} scalar; only float64 and narrower floats can be saved exactly.")
        x = float(value)
        if math.isfinite(x):
            return x
        return _tag("float", "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_encode(v, f"{where}[{i}]", ext) for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return _tag("tuple", [_encode(v, f"{where}[{i}]", ext) for i, v in enumerate(value)])
    if isinstance(value, dict):
        if ext is not None and value and all(isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))
                                             for k in value):
            return _tag("intdict", [[int(k), _encode(v, f"{where}[{k!r}]", ext)] for k, v in value.items()])
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where} is a dict with a non-string key {k!r}; only string keys can be saved.")
            if k == _TYPE_KEY:
                raise TypeError(f"{where} is a dict with the reserved key {_TYPE_KEY!r}.")
            out[k] = _encode(v, f"{where}[{k!r}]", ext)
        return out
    if ext is not None:
        tagged = _encode_extended(value, where, ext)
        if tagged is not None:
            return tagged
    if isinstance(value, np.ndarray):
        raise TypeError(
            f"{where} is a numpy array; only JSON-able values (str, int, float, bool, None, "
            "lists, tuples, dicts) can be saved here (fitted arrays belong in the arrays of _get_model_state)."
        )
    kind = "a callable" if callable(value) else f"a {type(value).__module__}.{type(value).__qualname__}"
    raise TypeError(
        f"{where} is {kind} ({_short_repr(value)}); only JSON-able values "
        "(str, int, float, bool, None, lists, tuples, dicts with string keys) can be saved."
    )


def _encode_extended(value: Any, where: str, ext: _Arrays) -> Optional[dict]:
    """The tagged form of a format-2 value, or None when ``value`` is none of them."""
    from . import _sklearn_state as sk

    names = re.findall(r"'([A-Za-z_][A-Za-z0-9_]*)'", where)
    hint = names[-1] if names else "array"
    if isinstance(value, np.ndarray) and value.dtype == object:
        items = value.ravel(order="C").tolist()
        for item in items:
            if not (item is None or isinstance(item, str) or (isinstance(item, float) and math.isnan(item))):
                raise TypeError(f"{where} is an object array holding {_short_repr(item)}; object arrays can be saved "
                                "when they hold only strings and missing values (None or nan).")
        return _tag("objects", {"shape": list(value.shape), "items": [_encode(v, where) for v in items]})
    if isinstance(value, np.ndarray):
        return _tag("array", ext.add(value, hint, where))
    if isinstance(value, np.dtype):  # a dtype is a descriptor: object is fine here, not in an array
        if value != np.dtype(object) and _dtype_problem(value) is not None:
            raise TypeError(f"{where} is the dtype {value}, which cannot be saved: {_dtype_problem(value)}.")
        return _tag("dtype", value.str)
    if isinstance(value, type) and issubclass(value, np.generic):
        if np.dtype(value).kind not in "biufc" or _dtype_problem(np.dtype(value)) is not None:
            raise TypeError(f"{where} is the type {value.__name__}, which cannot be saved.")
        return _tag("scalar_type", np.dtype(value).str)
    if isinstance(value, slice):
        parts = [value.start, value.stop, value.step]
        if not all(p is None or (isinstance(p, (int, np.integer)) and not isinstance(p, bool)) for p in parts):
            raise TypeError(f"{where} is a slice of non-integers ({_short_repr(value)}).")
        return _tag("slice", [None if p is None else int(p) for p in parts])
    if sk.is_tree(value):
        state = sk.tree_state(value)
        return _tag("tree", {**{k: state[k] for k in ("n_features", "n_outputs", "max_depth", "node_count")},
                             "n_classes": _tag("array", ext.add(state["n_classes"], "tree_n_classes", where)),
                             "values": _tag("array", ext.add(state["values"], "tree_values", where)),
                             "nodes": {f: _tag("array", ext.add(a, f"tree_{f}", where))
                                       for f, a in state["nodes"].items()}})
    if sk.is_bspline(value):
        state = sk.bspline_state(value)
        return _tag("bspline", {"t": _tag("array", ext.add(state["t"], "bspline_t", where)),
                                "c": _tag("array", ext.add(state["c"], "bspline_c", where)),
                                "k": state["k"], "extrapolate": state["extrapolate"], "axis": state["axis"]})
    if hasattr(value, "get_params") and not isinstance(value, type):
        return _tag("estimator", _encode_estimator(value, where, ext))
    return None


def _encode_estimator(est: Any, where: str, ext: _Arrays) -> dict:
    """``{"class", "params", "attributes"}`` of an allowed scikit-learn estimator, or of a
    registered rankwise one with its ``"arrays"`` (state name -> member name)."""
    from . import _sklearn_state as sk

    cls = type(est)
    name = _name_of(cls)
    if name is not None:
        params, attributes, arrays = _rankwise_state(est, name)
        return {"class": name, "params": params, "attributes": attributes,
                "arrays": {k: ext.add(arr, k, f"The fitted array {k!r} of {name}") for k, arr in arrays.items()}}
    name = sk.name_of(cls)
    if name is None:
        raise TypeError(_not_allowed(cls, where))
    params = est.get_params(deep=False)
    problem = sk.param_problem(name, params)
    if problem is not None:
        raise TypeError(f"Cannot save {where}, a {cls.__name__}: {problem}.")
    return {"class": name,
            "params": {k: _encode(v, f"The parameter {k!r} of {cls.__name__}", ext) for k, v in params.items()},
            "attributes": {k: _encode(v, f"The fitted attribute {k!r} of {cls.__name__}", ext)
                           for k, v in sk.fitted_state(name, est, params).items()}}


def _not_allowed(cls: type, where: Optional[str] = None) -> str:
    from . import _sklearn_state as sk

    return (f"Cannot save {'' if where is None else where + ', '}a {cls.__module__}.{cls.__qualname__}: it is not a "
            f"registered rankwise model class nor an allowed scikit-learn class (allowed: "
            f"{', '.join(n.rsplit('.', 1)[1] for n in sk.ALLOWED)}; see docs/model_format.md).")


def _rankwise_state(estimator: Any, name: str) -> tuple[dict, dict, dict]:
    """Encoded parameters and attributes and the raw arrays of a registered estimator."""
    cls = type(estimator)
    params = {k: _encode(v, f"The parameter {k!r} of {cls.__name__}")
              for k, v in estimator.get_params(deep=False).items()}
    state = estimator._get_model_state()
    if not (isinstance(state, tuple) and len(state) == 2 and isinstance(state[0], dict) and isinstance(state[1], dict)):
        raise TypeError(f"{cls.__name__}._get_model_state must return a tuple (attributes: dict, arrays: dict).")
    attributes, arrays = state
    for k in list(attributes) + list(arrays):
        if not isinstance(k, str) or not _NAME_RE.match(k) or (k.startswith("__") and k.endswith("__")):
            raise TypeError(f"{cls.__name__}._get_model_state: {k!r} is not a valid attribute name (a Python identifier, not a dunder).")
    both = sorted(set(attributes) & set(arrays))
    if both:
        raise TypeError(f"{cls.__name__}._get_model_state: {', '.join(both)} both an attribute and an array.")
    enc_attributes = {k: _encode(v, f"The fitted attribute {k!r} of {cls.__name__}") for k, v in attributes.items()}
    for k, arr in arrays.items():
        if type(arr) is not np.ndarray:
            raise TypeError(
                f"The fitted array {k!r} of {cls.__name__} must be a numpy.ndarray. Got {type(arr).__name__} instead."
            )
        problem = _dtype_problem(arr.dtype)
        if problem is not None:
            raise TypeError(f"The fitted array {k!r} of {cls.__name__} cannot be saved without pickle: {problem}.")
    return params, enc_attributes, arrays


class _Node:
    """A nested estimator read from a format-2 description, not yet built."""

    __slots__ = ("cls", "params", "attributes", "arrays")

    def __init__(self, cls: str, params: dict, attributes: dict, arrays: Optional[dict]):
        self.cls, self.params, self.attributes, self.arrays = cls, params, attributes, arrays


class _ArrayRef:
    """A fitted array of a format-2 description: the name of its member."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


def _kinds(value: Any) -> set:
    """The placeholders inside a decoded value: "e" a nested estimator, "t" a tree, "b" a
    B-spline, "a" an array reference (tags other than these are plain data)."""
    if isinstance(value, _Node):
        return {"e"}
    if isinstance(value, _Special):
        return {"t" if value.kind == "tree" else "b"}
    if isinstance(value, _ArrayRef):
        return {"a"}
    out: set = set()
    if isinstance(value, (list, tuple)):
        for v in value:
            out |= _kinds(v)
    elif isinstance(value, dict):
        for v in value.values():
            out |= _kinds(v)
    elif isinstance(value, np.ndarray) and value.dtype == object:
        out.add("o")
    return out


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether a decoded value is plain JSON data (what a rankwise estimator's state is)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


class _Special:
    """A tree or a B-spline read from a description, built once its arrays are checked."""

    __slots__ = ("kind", "spec")

    def __init__(self, kind: str, spec: dict):
        self.kind, self.spec = kind, spec


def _decode(value: Any, where: str, ext: bool = False, depth: int = 0) -> Any:
    """Inverse of :func:`_encode`; raises ``ValueError`` on a malformed tag or a value
    nested deeper than ``_MAX_DEPTH``. With ``ext`` (format 2) estimators, array
    references, trees and B-splines come back as placeholders, built by load_model once
    the whole description has been checked."""
    if depth > _MAX_DEPTH:
        raise ValueError(f"{where} is nested deeper than {_MAX_DEPTH} levels")
    if isinstance(value, list):
        return [_decode(v, where, ext, depth + 1) for v in value]
    if isinstance(value, dict):
        if _TYPE_KEY in value:
            tag = value[_TYPE_KEY]
            if set(value) != {_TYPE_KEY, "value"}:
                raise ValueError(f"malformed tagged value in {where}")
            inner = value["value"]
            if tag == "tuple" and isinstance(inner, list):
                return tuple(_decode(v, where, ext, depth + 1) for v in inner)
            if tag == "float" and inner in ("nan", "inf", "-inf"):
                return float(inner)
            if ext:
                return _decode_extended(tag, inner, where, depth)
            raise ValueError(f"malformed tagged value in {where}")
        return {k: _decode(v, where, ext, depth + 1) for k, v in value.items()}
    return value


def _decode_extended(tag: Any, inner: Any, where: str, depth: int) -> Any:
    def bad(what: str = "") -> ValueError:
        return ValueError(f"malformed {_escaped(tag, 40) if isinstance(tag, str) else 'tagged'} value in {where}{what}")

    def plain_int(x) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if tag == "array":
        if not isinstance(inner, str) or not _NAME_RE.match(inner):
            raise bad()
        return _ArrayRef(inner)
    if tag == "estimator":
        if not isinstance(inner, dict) or set(inner) not in (_NODE_KEYS, _RANKWISE_NODE_KEYS):
            raise bad(f": an estimator has the keys {', '.join(sorted(_NODE_KEYS))} (and arrays)")
        if not isinstance(inner["class"], str) or not all(isinstance(inner[k], dict) for k in inner if k != "class"):
            raise bad()
        arrays = inner.get("arrays")
        if arrays is not None and not all(isinstance(v, str) and _NAME_RE.match(v) for v in arrays.values()):
            raise bad(": array names")
        name = inner["class"]
        return _Node(name, _decode(inner["params"], f"{where} > {name}", True, depth + 1),
                     _decode(inner["attributes"], f"{where} > {name}", True, depth + 1),
                     None if arrays is None else {k: _ArrayRef(v) for k, v in arrays.items()})
    if tag == "objects":
        if not isinstance(inner, dict) or set(inner) != {"shape", "items"} or not isinstance(inner["items"], list):
            raise bad()
        shape = inner["shape"]
        if not isinstance(shape, list) or len(shape) > 32 or not all(plain_int(n) and n >= 0 for n in shape) \
                or math.prod(shape) != len(inner["items"]):
            raise bad(": shape")
        items = [_decode(v, where, False, depth + 1) for v in inner["items"]]
        if not all(v is None or isinstance(v, str) or (isinstance(v, float) and math.isnan(v)) for v in items):
            raise bad(": object arrays hold strings and missing values only")
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out.reshape(shape)
    if tag in ("dtype", "scalar_type"):
        try:
            if not isinstance(inner, str):
                raise TypeError("not a string")
            dtype = np.dtype(inner)
        except (TypeError, ValueError) as exc:
            raise bad() from exc
        allowed = _dtype_problem(dtype) is None or (tag == "dtype" and dtype == np.dtype(object))
        if not allowed or dtype.str != inner or (tag == "scalar_type" and dtype.kind not in "biufc"):
            raise bad(f": {_short_repr(inner)}")
        return dtype if tag == "dtype" else dtype.type
    if tag == "slice":
        if not isinstance(inner, list) or len(inner) != 3 or not all(p is None or plain_int(p) for p in inner):
            raise bad()
        return slice(*inner)
    if tag == "intdict":
        if not isinstance(inner, list) or not all(isinstance(p, list) and len(p) == 2 and plain_int(p[0]) for p in inner):
            raise bad()
        return {p[0]: _decode(p[1], where, True, depth + 1) for p in inner}
    if tag == "tree":
        keys = {"n_features", "n_outputs", "max_depth", "node_count", "n_classes", "values", "nodes"}
        if not isinstance(inner, dict) or set(inner) != keys or not isinstance(inner["nodes"], dict):
            raise bad()
        spec = _decode(inner, where, True, depth + 1)
        # "nodes" decodes to a dict of array references unless it is itself a tag
        if not all(isinstance(spec[k], _ArrayRef) for k in ("n_classes", "values")) or not isinstance(
                spec["nodes"], dict) or not all(isinstance(v, _ArrayRef) for v in spec["nodes"].values()):
            raise bad(": its arrays")
        return _Special("tree", spec)
    if tag == "bspline":
        if not isinstance(inner, dict) or set(inner) != {"t", "c", "k", "extrapolate", "axis"}:
            raise bad()
        spec = _decode(inner, where, True, depth + 1)
        if not (isinstance(spec["t"], _ArrayRef) and isinstance(spec["c"], _ArrayRef)):
            raise bad(": its arrays")
        return _Special("bspline", spec)
    raise bad()


def _short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` on one line, at most ``limit`` characters, every character that
    is not printable (control characters, terminal escape sequences, line breaks,
    direction overrides) written as its escape: how any value read from a file is shown
    in a message."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    text = _escaped(" ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _escaped(text: str, limit: Optional[int] = None) -> str:
    """``text`` with every non-printable character escaped (``\\x1b``, ``\\n``,
    ``\\u202e``; :func:`rankwise._text.shown`), cut to ``limit`` characters: a string
    from a file, shown without quotes."""
    if not isinstance(text, str):
        return _short_repr(text, limit or 60)
    text = shown(text)
    return text if limit is None or len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------------------
# arrays
# --------------------------------------------------------------------------------------


def _dtype_problem(dtype: np.dtype) -> Optional[str]:
    """Why ``dtype`` cannot be stored, or ``None``. Allowed: bool, integers, floats up to
    64 bits, complex up to 128 bits, fixed-width str/bytes; never object, structured,
    sub-array, datetime or platform-dependent long double dtypes."""
    if dtype.hasobject:
        return "object dtype, which would need pickle"
    if dtype.fields is not None or dtype.subdtype is not None:
        return f"structured dtype {dtype}"
    if dtype.kind not in "biufcUS":
        return f"dtype {dtype} (only bool, numeric and fixed-width string dtypes)"
    if (dtype.kind == "f" and dtype.itemsize > 8) or (dtype.kind == "c" and dtype.itemsize > 16):
        return f"dtype {dtype} (long double is platform-dependent)"
    return None


def _json_extent(raw: bytes) -> tuple[int, int]:
    """``(depth, values)`` of a JSON text without parsing it: its deepest nesting of
    arrays and objects, and how many values and keys it can make (its ``[``, ``{``,
    ``,`` and ``:`` outside strings, plus one). Linear, in pieces of ``_CHUNK`` bytes
    with NumPy, so the scan itself takes little memory."""
    depth = max_depth = 0
    values = 1
    in_string = False
    backslashes = 0  # the run of backslashes that ends the previous piece
    for start in range(0, len(raw), _CHUNK):
        b = np.frombuffer(raw, dtype=np.uint8, count=min(_CHUNK, len(raw) - start), offset=start)
        idx = np.arange(b.shape[0])
        bs = b == 92
        # the length of the run of backslashes ending at each byte (0 where it is not one)
        last_other = np.maximum.accumulate(np.where(bs, -1, idx))
        run = np.where(bs, idx - last_other, 0)
        if backslashes:
            first = last_other < 0
            run[first] += backslashes
        before = np.concatenate(([backslashes], run[:-1]))
        quote = (b == 34) & (before % 2 == 0)
        # inside a string: an odd number of unescaped quotes up to and including the byte
        parity = (np.cumsum(quote) + in_string) % 2 == 1
        outside = ~parity & ~quote
        opens = outside & ((b == 91) | (b == 123))
        closes = outside & ((b == 93) | (b == 125))
        values += int(np.count_nonzero(opens)) + int(np.count_nonzero(outside & ((b == 44) | (b == 58))))
        if opens.any() or closes.any():
            level = depth + np.cumsum(opens.astype(np.int64) - closes.astype(np.int64))
            max_depth = max(max_depth, int(level.max()))
            depth = int(level[-1])
        in_string = bool(parity[-1]) if b.shape[0] else in_string
        backslashes = int(run[-1]) if b.shape[0] else backslashes
    return max_depth, values


class _TooMuchJSON(ValueError):
    """A description that would make more Python objects than a model's can."""


def _npy_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=False)
    return buf.getvalue()


class _HashingStream:
    """An archive member as the .npy parser reads it: every byte handed out is hashed and
    counted, and while ``limit`` is set no read may go past it (numpy's header parser
    reads as many bytes as the file says its header has)."""

    def __init__(self, member, hasher):
        self.member, self.hasher = member, hasher
        self.count = 0
        self.limit: Optional[int] = None

    def read(self, n: int) -> bytes:
        if n is None or n < 0:  # every read here names its size
            raise ValueError("an unbounded read of an archive member")
        if self.limit is not None and self.count + n > self.limit:
            raise ValueError(f"its .npy header is longer than {self.limit} bytes")
        data = self.member.read(n)
        self.hasher.update(data)
        self.count += len(data)
        return data

    def drain(self) -> None:
        """Read (and hash) the rest of the member, keeping none of it: the member's CRC-32
        and SHA-256 are checked even when its header was refused."""
        self.limit = None
        while self.read(_CHUNK):
            pass


def _read_npy(stream: _HashingStream, dtype: np.dtype, shape: tuple[int, ...], size: int) -> np.ndarray:
    """The array of a ``.npy`` member of ``size`` bytes. Its header must declare ``dtype``
    and ``shape`` and leave exactly the bytes they need, all checked before the array is
    allocated; the data are then copied into the array piece by piece, so loading takes
    the array's size once, not twice, and never more than the description declared.
    Raises ``ValueError`` with the reason (``EOFError`` when the member ends early)."""
    stream.limit = _NPY_MAX_HEADER
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        h_shape, fortran, h_dtype = np.lib.format.read_array_header_1_0(stream)
    elif version == (2, 0):
        h_shape, fortran, h_dtype = np.lib.format.read_array_header_2_0(stream)
    else:
        raise ValueError(f"unsupported .npy version {version}")
    stream.limit = None
    problem = _dtype_problem(h_dtype)
    if problem is not None:
        raise ValueError(f"it holds {problem}")
    if h_dtype.str != dtype.str or tuple(h_shape) != shape:
        raise ValueError(
            f"it holds dtype {h_dtype.str} shape {tuple(h_shape)}, the description says dtype {dtype.str} shape {shape}"
        )
    count = math.prod(shape)
    expected = count * dtype.itemsize
    payload = size - stream.count
    if payload != expected:
        raise ValueError(f"its data is {payload} bytes, expected {expected}")
    flat = np.empty(count, dtype=dtype)
    if expected:
        view = memoryview(flat.view(np.uint8))
        pos = 0
        while pos < expected:
            piece = stream.read(min(_CHUNK, expected - pos))
            if not piece:
                raise EOFError("the member ends before its data")
            view[pos: pos + len(piece)] = piece
            pos += len(piece)
    # numpy's own layout rule: a Fortran-ordered array is the transpose of the C-ordered
    # array of the reversed shape.
    return flat.reshape(shape[::-1]).transpose() if fortran else flat.reshape(shape)


def _array_nbytes(entry: dict) -> int:
    """The bytes a described array takes once loaded (exact, from Python integers: a
    crafted shape cannot overflow it)."""
    return math.prod(entry["shape"]) * np.dtype(entry["dtype"]).itemsize


# --------------------------------------------------------------------------------------
# saving
# --------------------------------------------------------------------------------------


def save_model(estimator: Any, path: Union[str, os.PathLike], *, metadata: Optional[dict] = None,
               overwrite: bool = False) -> None:
    """Save a fitted estimator to ``path`` (a ZIP archive; see ``docs/model_format.md``),
    atomically: ``path`` is either the complete new file or left as it was.

    The estimator is a registered rankwise estimator (written as format 1), or one of the
    allowed scikit-learn classes (``rankwise/io/_sklearn_state.py``: pipelines, column
    transformers, imputers, scalers, encoders, spline and polynomial features, linear
    models, trees and forests) with whatever allowed estimators it holds, rankwise ones
    included (format 2, recording the scikit-learn version).

    ``metadata`` is an optional JSON-able dict (string keys) stored with the model and
    returned by :func:`inspect_model`. An existing ``path`` is refused with
    ``FileExistsError`` unless ``overwrite=True``. Raises ``NotFittedError`` for an
    unfitted estimator and ``TypeError`` for an unregistered class or a value that
    cannot be stored without pickle (e.g. a callable parameter), naming it.
    """
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    from . import _sklearn_state as sk

    path = os.fspath(path)
    cls = type(estimator)
    name = _name_of(cls)
    if name is None:
        _ensure_builtin_models()
        name = _name_of(cls)
    sk_name = sk.name_of(cls) if name is None else None
    if name is None and sk_name is None:
        raise TypeError(_not_allowed(cls) + " Use rankwise's register_model for your own classes.")
    try:
        check_is_fitted(estimator)
    except NotFittedError as exc:
        raise NotFittedError(f"Cannot save this {cls.__name__}: it is not fitted yet; call fit first.") from exc
    check_output(path, force=overwrite, option="overwrite=True")  # the rule of every output

    if name is not None:  # a rankwise estimator: format 1, arrays under their own names
        params, enc_attributes, arrays = _rankwise_state(estimator, name)
        extra: dict = {}
        version = 1
    else:  # an allowed scikit-learn estimator, with everything inside it: format 2
        import sklearn

        ext = _Arrays()
        node = _encode_estimator(estimator, "the estimator", ext)
        name, params, enc_attributes, arrays = node["class"], node["params"], node["attributes"], ext.arrays
        extra = {"sklearn_version": sklearn.__version__}
        version = 2
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise TypeError(f"The 'metadata' argument of save_model must be a dict or None. Got {type(metadata).__name__} instead.")
    enc_metadata = _encode(metadata, "The 'metadata' argument of save_model")

    members: list[tuple[str, bytes]] = []
    manifest = {}
    for k, arr in arrays.items():
        data = _npy_bytes(arr)
        file = f"{ARRAY_DIR}{k}.npy"
        manifest[k] = {"file": file, "dtype": arr.dtype.str, "shape": list(arr.shape),
                       "sha256": hashlib.sha256(data).hexdigest()}
        members.append((file, data))

    from .._version import __version__

    now = datetime.now(timezone.utc).replace(microsecond=0)
    header = {
        "format": FORMAT_TAG,
        "format_version": version,
        "rankwise_version": __version__,
        "estimator": name,
        "params": params,
        "attributes": enc_attributes,
        "arrays": manifest,
        "created": now.isoformat(),
        "metadata": enc_metadata,
        **extra,
    }
    text = json.dumps(header, allow_nan=False, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    json_bytes = text.encode("utf-8")
    checksum = f"{hashlib.sha256(json_bytes).hexdigest()}  {JSON_MEMBER}\n".encode("ascii")
    members = [(JSON_MEMBER, json_bytes), (CHECKSUM_MEMBER, checksum)] + members
    stamp = now.timetuple()[:6]

    def write(f) -> None:
        with zipfile.ZipFile(f, "w") as zf:
            for member, data in members:
                info = zipfile.ZipInfo(member, date_time=stamp)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, data)

    write_atomic(path, write, binary=True, force=overwrite, option="overwrite=True")


# --------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------

# What zipfile, zlib and numpy raise on a damaged archive or member (OSError: a corrupted
# offset makes zipfile seek before the start of the file; the file itself opened fine).
_READ_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, NotImplementedError,
                RuntimeError, ValueError, struct.error, OverflowError, KeyError, OSError)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, (zipfile.BadZipFile, OSError)) or (isinstance(exc, ValueError) and text):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Reader:
    """One model file, opened for validation; every failure is a ModelFileError."""

    def __init__(self, path: str):
        self.path = path

    def fail(self, what: str, exc: Optional[BaseException] = None) -> ModelFileError:
        msg = f"Cannot load the model file '{self.path}': {what}"
        if exc is not None:  # another library's message may quote a whole value: cut it
            msg += f" ({_escaped(_one_line(exc), 300)})"
        # One line, and nothing read from the file reaches a terminal raw.
        return ModelFileError(_escaped(" ".join(msg.split())))

    def open_file(self, max_bytes: int):
        """The model file opened for reading, after checking that it is a regular file (a
        symlink is followed) no larger than a model within ``max_bytes`` can be. A device
        such as ``/dev/zero``, a FIFO or a directory is refused without reading from it;
        the file is opened without blocking (a FIFO would wait for a writer) and checked
        again once open, in case the path was swapped in between."""
        try:
            before = os.stat(self.path)
        except FileNotFoundError:
            import errno

            raise FileNotFoundError(errno.ENOENT, "No such model file", self.path) from None
        self.check_regular(before, max_bytes)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fh = os.fdopen(os.open(self.path, flags), "rb")
        try:
            after = os.fstat(fh.fileno())
            self.check_regular(after, max_bytes)
            if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
                raise self.fail("the file was replaced while it was being opened")
        except BaseException:
            fh.close()
            raise
        self.size = after.st_size
        return fh

    def check_regular(self, st: os.stat_result, max_bytes: int) -> None:
        if not stat.S_ISREG(st.st_mode):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a character device" if stat.S_ISCHR(st.st_mode)
                    else "a block device" if stat.S_ISBLK(st.st_mode) else "a FIFO (named pipe)"
                    if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a file")
            target = os.path.realpath(self.path)
            shown = f" ('{target}')" if target != os.path.abspath(self.path) else ""
            raise self.fail(f"it is {kind}{shown}, not a regular file")
        limit = _max_file_bytes(max_bytes)
        if st.st_size > limit:
            raise self.fail(f"it is {st.st_size} bytes, more than a model file within the limit of {max_bytes} "
                            f"bytes of arrays can be ({limit}; load_model's max_bytes)")

    def check_directory(self, fh) -> None:
        """Refuse an archive whose central directory is larger than a model's can be, before
        zipfile reads it into one Python object per entry. The end record is found as
        zipfile finds it (the last 22 bytes, else the last signature in the trailing
        comment window, then a ZIP64 record right before it); a file without one is left
        to zipfile to refuse."""
        tail_len = min(self.size, 22 + 0xFFFF)
        fh.seek(self.size - tail_len)
        tail = fh.read(tail_len)
        if len(tail) >= 22 and tail[-22:-18] == b"PK\x05\x06" and tail[-2:] == b"\0\0":
            pos = len(tail) - 22
        else:
            pos = tail.rfind(b"PK\x05\x06")
            if pos < 0 or pos + 22 > len(tail):
                return
        dir_size = struct.unpack("<L", tail[pos + 12: pos + 16])[0]
        end = self.size - tail_len + pos
        if end >= 76:
            fh.seek(end - 20)
            if fh.read(4) == b"PK\x06\x07":
                fh.seek(end - 76)
                record = fh.read(56)
                if record[:4] == b"PK\x06\x06":
                    dir_size = struct.unpack("<q", record[40:48])[0]
        if dir_size > _MAX_DIRECTORY_BYTES:
            raise self.fail(f"its ZIP directory is {dir_size} bytes, more than a model file's can be "
                            f"({_MAX_DIRECTORY_BYTES})")

    def check_member(self, info: zipfile.ZipInfo) -> None:
        """The sizes the archive's directory gives for a member against the file's real size
        and what its compression can produce, before anything is decompressed (zipfile
        stops at the declared size, so that size bounds every read)."""
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise self.fail(f"the member '{_escaped(info.filename, 80)}' uses compression method {info.compress_type}; "
                            "model files use DEFLATE or none")
        if info.compress_size > self.size:
            raise self.fail(f"the member '{_escaped(info.filename, 80)}' claims {info.compress_size} compressed bytes in a file of "
                            f"{self.size}; the file is truncated or corrupted")
        bound = info.compress_size if info.compress_type == zipfile.ZIP_STORED else (
            _MAX_DEFLATE_RATIO * info.compress_size + 1024)
        if info.file_size > bound:
            raise self.fail(f"the member '{_escaped(info.filename, 80)}' claims {info.file_size} bytes from {info.compress_size} "
                            "compressed bytes, more than its compression can produce; the file is corrupted")

    def read_member(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, what: str) -> bytes:
        """A small member's bytes, refused unread when the archive says it is over ``limit``."""
        if info.file_size > limit:
            raise self.fail(f"'{_escaped(info.filename, 80)}' is {info.file_size} bytes, too large for {what}")
        self.check_member(info)
        try:
            with zf.open(info) as member:
                data = member.read(info.file_size)
                if len(data) != info.file_size or member.read(1):
                    raise EOFError(f"{len(data)} bytes where the archive says {info.file_size}")
                return data
        except _READ_ERRORS as exc:
            raise self.fail(f"the member '{_escaped(info.filename, 80)}' is unreadable; the file is corrupted or truncated", exc) from exc

    def header(self, zf: zipfile.ZipFile) -> tuple[dict, dict[str, zipfile.ZipInfo]]:
        """The validated, decoded JSON description and the archive's members by name."""
        infos: dict[str, zipfile.ZipInfo] = {}
        for info in zf.infolist():
            if info.filename in infos:
                raise self.fail(f"the archive holds the member '{info.filename}' twice")
            infos[info.filename] = info
        if JSON_MEMBER not in infos:
            names = sorted(infos)
            if names and all(n.endswith(".npy") for n in names):
                hint = "it looks like a NumPy .npz file"
            else:
                shown = ", ".join(_escaped(n, 80) for n in names[:5]) + (", ..." if len(names) > 5 else "")
                hint = f"it holds {shown}" if names else "the archive is empty"
            raise self.fail(f"not a rankwise model file: no '{JSON_MEMBER}' member ({hint})")
        info = infos[JSON_MEMBER]
        if info.file_size > max(_JSON_RATIO_FLOOR, _JSON_RATIO * info.compress_size):
            raise self.fail(f"'{JSON_MEMBER}' claims {info.file_size} bytes from {info.compress_size} compressed "
                            f"bytes, more than {_JSON_RATIO} times: not a model description")
        raw = self.read_member(zf, info, _MAX_JSON_BYTES, "a model description")
        stored_sum = None
        if CHECKSUM_MEMBER in infos:
            line = self.read_member(zf, infos[CHECKSUM_MEMBER], _MAX_CHECKSUM_BYTES, "a checksum line")
            line = line.decode("ascii", "replace").strip()
            stored_sum = line.split(" ", 1)[0]
        actual_sum = hashlib.sha256(raw).hexdigest()

        def reject_constant(name: str):
            raise ValueError(f"non-standard JSON constant {name}")

        def unique_keys(pairs):
            obj = {}
            for k, v in pairs:
                if k in obj:
                    raise ValueError(f"duplicate key {k!r}")
                obj[k] = v
            return obj

        try:
            depth, values = _json_extent(raw)
            if depth > _MAX_JSON_DEPTH:
                raise ValueError(f"it nests {depth} levels deep, more than a model description's {_MAX_JSON_DEPTH}")
            cap = _JSON_VALUES_FLOOR + min(_JSON_VALUES_PER_BYTE * info.compress_size, len(raw) // _JSON_BYTES_PER_VALUE)
            if values > cap:
                raise _TooMuchJSON(f"'{JSON_MEMBER}' holds about {values} JSON values in {info.compress_size} "
                                   f"compressed bytes, more than a model description can ({cap}); refused before "
                                   "parsing it")
            doc = json.loads(raw.decode("utf-8"), parse_constant=reject_constant, object_pairs_hook=unique_keys)
        except (ValueError, RecursionError) as exc:
            if stored_sum is not None and stored_sum != actual_sum:
                raise self.fail(f"'{JSON_MEMBER}' fails its SHA-256 checksum; the file is corrupted") from exc
            if isinstance(exc, _TooMuchJSON):
                raise self.fail(str(exc)) from exc
            raise self.fail(f"'{JSON_MEMBER}' is not valid JSON", exc) from exc
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_TAG:
            tag = doc.get("format") if isinstance(doc, dict) else None
            raise self.fail(
                f"not a rankwise model file ('{JSON_MEMBER}' has format {_short_repr(tag)}, expected {FORMAT_TAG!r})"
            )
        version = doc.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise self.fail(f"invalid format_version {_short_repr(version)}")
        if version > FORMAT_VERSION:
            writer = doc.get("rankwise_version")
            writer = _escaped(writer, 40)
            from .._version import __version__

            raise self.fail(
                f"it uses model format version {version}, written by rankwise {writer}; this rankwise "
                f"({__version__}) reads format versions up to {FORMAT_VERSION}: upgrade rankwise to load it"
            )
        if stored_sum is None:
            raise self.fail(f"the checksum member '{CHECKSUM_MEMBER}' is missing")
        if not _SHA256_RE.match(stored_sum):
            raise self.fail(f"the checksum member '{CHECKSUM_MEMBER}' is malformed")
        if stored_sum != actual_sum:
            raise self.fail(f"'{JSON_MEMBER}' fails its SHA-256 checksum; the file is corrupted or was edited")
        return self.validate(doc), infos

    def validate(self, doc: dict) -> dict:
        keys = set(doc)
        ext = doc["format_version"] >= 2
        expected = _HEADER_KEYS_V2 if ext else _HEADER_KEYS
        if keys != expected:
            missing, extra = sorted(expected - keys), sorted(keys - expected)
            raise self.fail(
                "malformed description:"
                + (f" missing {', '.join(missing)}" if missing else "")
                + (f" unexpected {', '.join(extra)}" if extra else "")
            )
        for key, typ in (("rankwise_version", str), ("estimator", str), ("created", str),
                         ("params", dict), ("attributes", dict), ("arrays", dict), ("metadata", dict),
                         *((("sklearn_version", str),) if ext else ())):
            if not isinstance(doc[key], typ):
                raise self.fail(f"malformed description: '{key}' must be a {typ.__name__}")
        arrays = {}
        for name, entry in doc["arrays"].items():
            if not _NAME_RE.match(name) or (name.startswith("__") and name.endswith("__")):
                raise self.fail(f"malformed description: invalid array name {_short_repr(name)}")
            if not isinstance(entry, dict) or set(entry) != _ARRAY_KEYS:
                raise self.fail(f"malformed description of the array '{name}'")
            if entry["file"] != f"{ARRAY_DIR}{name}.npy":
                raise self.fail(f"malformed description of the array '{name}': file {_short_repr(entry['file'])}")
            if not isinstance(entry["sha256"], str) or not _SHA256_RE.match(entry["sha256"]):
                raise self.fail(f"malformed description of the array '{name}': sha256")
            shape = entry["shape"]
            if not isinstance(shape, list) or len(shape) > 32 or not all(
                    isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
                raise self.fail(f"malformed description of the array '{name}': shape {_short_repr(shape)}")
            try:
                if not isinstance(entry["dtype"], str):
                    raise TypeError("not a string")
                dtype = np.dtype(entry["dtype"])
            except (TypeError, ValueError) as exc:
                raise self.fail(f"the array '{name}' has an invalid dtype {_short_repr(entry['dtype'])}") from exc
            problem = _dtype_problem(dtype)
            if problem is not None:
                raise self.fail(f"the array '{name}' is refused: {problem}")
            if dtype.str != entry["dtype"]:
                raise self.fail(f"the array '{name}' has a non-canonical dtype {_short_repr(entry['dtype'])}")
            arrays[name] = {"file": entry["file"], "dtype": dtype.str, "shape": tuple(shape), "sha256": entry["sha256"]}
        for name in doc["attributes"]:
            if not _NAME_RE.match(name) or (name.startswith("__") and name.endswith("__")):
                raise self.fail(f"malformed description: invalid attribute name {_short_repr(name)}")
        clash = sorted(set(doc["attributes"]) & set(arrays))
        if clash:
            raise self.fail(f"malformed description: {', '.join(clash)} both an attribute and an array")
        try:
            params = _decode(doc["params"], "params", ext)
            attributes = _decode(doc["attributes"], "attributes", ext)
            metadata = _decode(doc["metadata"], "metadata")
        except ValueError as exc:
            raise self.fail(f"malformed description: {exc}") from exc
        except Exception as exc:  # a tag whose parts are of kinds it never holds
            raise self.fail("malformed description: a tagged value is not what its tag says", exc) from exc
        extra = {"sklearn_version": doc["sklearn_version"]} if ext else {}
        return {
            "format": doc["format"],
            "format_version": doc["format_version"],
            "rankwise_version": doc["rankwise_version"],
            "estimator": doc["estimator"],
            "params": params,
            "attributes": attributes,
            "arrays": arrays,
            "created": doc["created"],
            "metadata": metadata,
            **extra,
        }

    def check_members(self, header: dict, infos: dict[str, zipfile.ZipInfo]) -> None:
        """Every declared array member present, no other member, and each array member's
        size in the archive's directory what its dtype and shape need plus an .npy header
        (checked before anything is decompressed)."""
        expected = {JSON_MEMBER, CHECKSUM_MEMBER} | {e["file"] for e in header["arrays"].values()}
        for name, entry in header["arrays"].items():
            if entry["file"] not in infos:
                raise self.fail(f"the array member '{entry['file']}' is missing")
        extra = sorted(set(infos) - expected)
        if extra:
            shown = ", ".join(_escaped(n, 80) for n in extra[:5]) + (", ..." if len(extra) > 5 else "")
            raise self.fail(f"unexpected members in the archive: {shown}")
        for name, entry in header["arrays"].items():
            info = infos[entry["file"]]
            nbytes = _array_nbytes(entry)
            if not nbytes + _NPY_MIN_HEADER <= info.file_size <= nbytes + _NPY_MAX_HEADER:
                raise self.fail(f"the array member '{entry['file']}' is {info.file_size} bytes in the archive; "
                                f"dtype {entry['dtype']} shape {entry['shape']} needs {nbytes} bytes and a header")
            self.check_member(info)

    def arrays(self, zf: zipfile.ZipFile, header: dict, infos: dict[str, zipfile.ZipInfo],
               max_bytes: int) -> dict[str, np.ndarray]:
        total = sum(_array_nbytes(entry) for entry in header["arrays"].values())
        if total > max_bytes:
            raise self.fail(f"its arrays would take {total} bytes once loaded, more than the limit of {max_bytes} "
                            "(load_model's max_bytes); refused before reading them")
        out = {}
        for name, entry in header["arrays"].items():
            info = infos[entry["file"]]
            dtype, shape = np.dtype(entry["dtype"]), entry["shape"]
            hasher = hashlib.sha256()
            refused = None
            try:
                with zf.open(info) as member:
                    stream = _HashingStream(member, hasher)
                    try:
                        out[name] = _read_npy(stream, dtype, shape, info.file_size)
                    except (ValueError, TypeError) as exc:
                        refused = exc
                    stream.drain()  # to the end: zipfile checks the CRC-32 there
            except _READ_ERRORS as exc:
                raise self.fail(f"the member '{_escaped(info.filename, 80)}' is unreadable; the file is corrupted or truncated",
                                exc) from exc
            if hasher.hexdigest() != entry["sha256"]:
                raise self.fail(f"the array member '{entry['file']}' fails its SHA-256 checksum; the file is corrupted")
            if refused is not None:
                raise self.fail(f"the array member '{entry['file']}' is refused", refused) from refused
        return out


def _max_file_bytes(max_bytes: int) -> int:
    """The largest model file whose arrays can fit in ``max_bytes``: the arrays (DEFLATE
    may grow incompressible data by a little), the description, the directory, headers."""
    return max_bytes + max_bytes // 256 + _MAX_JSON_BYTES + _MAX_DIRECTORY_BYTES + (1 << 20)


def _check_max_bytes(max_bytes: Any) -> int:
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, (int, np.integer)) or max_bytes < 0:
        raise TypeError(f"max_bytes must be an int >= 0 (bytes). Got {_short_repr(max_bytes)} instead.")
    return int(max_bytes)


def _open_checked(path: Union[str, os.PathLike], with_arrays: bool, max_bytes: int = DEFAULT_MAX_BYTES):
    max_bytes = _check_max_bytes(max_bytes)
    path = os.fspath(path)
    reader = _Reader(path)
    with reader.open_file(max_bytes) as fh:
        reader.check_directory(fh)
        fh.seek(0)
        try:
            zf = zipfile.ZipFile(fh, "r")
        except _READ_ERRORS as exc:
            raise reader.fail("not a rankwise model file, or truncated: it is not a readable ZIP archive", exc) from exc
        with zf:
            header, infos = reader.header(zf)
            reader.check_members(header, infos)
            arrays = reader.arrays(zf, header, infos, max_bytes) if with_arrays else None
    return reader, header, arrays


def inspect_model(path: Union[str, os.PathLike]) -> dict:
    """The validated description of a model file, without building the estimator or
    reading the fitted arrays' data.

    Returns a dict with ``format``, ``format_version``, ``rankwise_version``,
    ``estimator`` (the registered name; it need not be registered in this rankwise),
    ``params``, ``attributes``, ``arrays`` (name -> ``file``, ``dtype``, ``shape``,
    ``sha256``), ``created``, ``metadata``, ``sklearn_version`` (format 2) and ``steps``:
    ``(path, class)`` for the estimator, then each fitted step of a pipeline and
    transformer of a column transformer (``(path, class, columns)``), depth first, paths
    joining step names with ``/``. Nested estimators appear as ``{"estimator", "params",
    "attributes"}`` dicts, fitted arrays as ``{"array": member name}``. The JSON's checksum is verified and
    every array member must be present; the arrays' own checksums are verified by
    :func:`load_model`. The strings of ``steps`` (names, classes, columns) are for display
    and have every non-printable character escaped (``\\x1b``); the other fields are the
    file's data as it is (escape them before printing). Raises :class:`ModelFileError`
    (a ``ValueError``) for a file that is not a valid model and ``FileNotFoundError`` for a missing path.
    """
    _, header, _ = _open_checked(path, with_arrays=False)
    top = _Node(header["estimator"], header["params"], header["attributes"], None)
    header = {k: _readable(v) for k, v in header.items()}
    header["steps"] = _steps(top, "")
    return header


def _readable(value: Any) -> Any:
    """A decoded description value with its placeholders as plain dicts: a nested
    estimator ``{"estimator", "params", "attributes"}`` (and ``"arrays"``), an array
    ``{"array": member name}``, a tree or B-spline ``{"tree" | "bspline": ...}``."""
    if isinstance(value, _Node):
        out = {"estimator": value.cls, "params": _readable(value.params), "attributes": _readable(value.attributes)}
        if value.arrays is not None:
            out["arrays"] = _readable(value.arrays)
        return out
    if isinstance(value, _ArrayRef):
        return {"array": value.name}
    if isinstance(value, _Special):
        return {value.kind: _readable(value.spec)}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_readable(v) for v in value)
    if isinstance(value, dict):
        return {k: _readable(v) for k, v in value.items()}
    return value


def _display(value: Any) -> Any:
    """A decoded value with every string escaped (:func:`_escaped`): ``steps`` is for
    showing, and what a file names must not reach a terminal raw."""
    if isinstance(value, str):
        return _escaped(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_display(v) for v in value)
    if isinstance(value, dict):
        return {k: _display(v) for k, v in value.items()}
    return value


def _steps(node: _Node, path: str) -> list:
    """``[(path, estimator name), ...]``: the estimator, then the fitted steps of a
    pipeline (``steps``) and the fitted transformers of a column transformer
    (``transformers_``, with their columns as a third item), depth first; a path joins
    the step names with ``/``."""
    out: list = [(path or "", _escaped(node.cls))] if not path else []
    children = []
    if node.cls == "sklearn.pipeline.Pipeline":
        children = [(step[0], step[1], None) for step in node.params.get("steps", [])
                    if isinstance(step, tuple) and len(step) == 2]
    elif node.cls == "sklearn.compose.ColumnTransformer":
        children = [(t[0], t[1], t[2]) for t in node.attributes.get("transformers_", [])
                    if isinstance(t, tuple) and len(t) == 3]
    for name, child, columns in children:
        name = _escaped(name) if isinstance(name, str) else _short_repr(name)
        sub = f"{path}/{name}" if path else name
        shown = _escaped(child.cls) if isinstance(child, _Node) else _display(child)
        columns = columns.tolist() if isinstance(columns, np.ndarray) else columns
        out.append((sub, shown) if columns is None else (sub, shown, _display(_readable(columns))))
        if isinstance(child, _Node):
            out.extend(_steps(child, sub))
    return out


def load_model(path: Union[str, os.PathLike], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """Load an estimator saved by :func:`save_model`.

    Nothing from the file is executed: every class, the top one and each nested one, is
    looked up among the registered rankwise ones and the allowed scikit-learn ones, and
    the whole description is checked (names, parameters, array references, decision
    trees' node tables) before anything is built; the parameters go through each
    class's constructor, the fitted state through ``_set_model_state`` (rankwise) or the
    checked attributes (scikit-learn), and each array is copied into a plain NumPy array (never
    unpickled) once its ``.npy`` header has been checked against the description's
    dtype and shape. Anything wrong with the file (not a ZIP, truncated, foreign,
    corrupted, edited, newer format, unknown estimator, rejected parameters or state)
    raises :class:`ModelFileError`, a ``ValueError`` with a one-line message; a missing
    path raises ``FileNotFoundError``. Loading writes nothing. A file written with
    another scikit-learn version loads with a one-line ``UserWarning`` when its state
    passes the checks.

    Memory is bounded by what the file declares, and what it declares by ``max_bytes``
    (default :data:`DEFAULT_MAX_BYTES`, 1 GiB): the path must be a regular file (a
    device, FIFO or directory is refused without being read) no larger than such a
    model can be, the declared arrays may take at most ``max_bytes`` once loaded, and
    the archive's own sizes must agree with the declared ones, all checked before
    anything is decompressed or allocated. Raise ``max_bytes`` to load a larger model
    you trust.
    """
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    reader, header, arrays = _open_checked(path, with_arrays=True, max_bytes=max_bytes)
    _ensure_builtin_models()
    name = header["estimator"]
    if header["format_version"] == 1:  # one rankwise estimator, its arrays under their own names
        top = _Node(name, header["params"], header["attributes"], {k: _ArrayRef(k) for k in arrays})
    else:
        top = _Node(name, header["params"], header["attributes"], None)
    loader = _Loader(reader, arrays, header)
    try:
        loader.check(top, top=True)  # every class, name, array and tree, before anything is built
        unused = sorted(set(arrays) - set(loader.used))
        if unused:
            raise reader.fail(f"the array member '{ARRAY_DIR}{unused[0]}.npy' is not used by the description")
        if header["format_version"] >= 2:
            import sklearn

            if header["sklearn_version"] != sklearn.__version__:
                import warnings

                warnings.warn(f"The model file '{_escaped(reader.path)}' was written with scikit-learn "
                              f"{_escaped(header['sklearn_version'], 40)}; this is scikit-learn {sklearn.__version__}: its "
                              "state was accepted, but check its scores.", UserWarning, stacklevel=2)
        estimator = loader.build(top)
    except ModelFileError:
        raise
    except Exception as exc:
        # The last line of defence: a description so malformed (a value of a kind its place
        # never holds) that a check or a constructor tripped over it is a refused file,
        # never another library's exception escaping load_model.
        raise reader.fail("malformed description: its state does not make an estimator", exc) from exc
    try:
        check_is_fitted(estimator)
    except NotFittedError as exc:
        raise reader.fail(f"the saved state does not make a fitted {name}") from exc
    return estimator


class _Loader:
    """Checks a decoded description completely (:meth:`check`), then builds it
    (:meth:`build`); nothing is constructed before every class has been found in the
    allowlist, every parameter and attribute name accepted, every array reference and
    every tree checked."""

    def __init__(self, reader: _Reader, arrays: dict, header: dict):
        self.reader, self.arrays, self.header = reader, arrays, header
        self.used: set[str] = set()

    def cls(self, node: _Node) -> tuple[str, type]:
        """``("rankwise" | "sklearn", class)`` of a node's class name, or a ModelFileError."""
        from . import _sklearn_state as sk

        name = node.cls
        if isinstance(name, str) and name in _REGISTRY:
            if node.arrays is None:
                raise self.reader.fail(f"malformed description: the rankwise estimator {name} lacks its arrays")
            return "rankwise", _REGISTRY[name]
        if isinstance(name, str) and name in sk.ALLOWED:
            if node.arrays is not None:
                raise self.reader.fail(f"malformed description: the scikit-learn estimator {name} has arrays")
            try:
                return "sklearn", sk.allowed_class(name)
            except (ImportError, AttributeError) as exc:
                raise self.reader.fail(f"the estimator class {name} is not in this scikit-learn", exc) from exc
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise self.reader.fail(
            f"unknown estimator {_short_repr(name, 80)} (written by rankwise {_escaped(self.header['rankwise_version'], 40)}); "
            f"registered: {known}; allowed scikit-learn classes: {', '.join(n.rsplit('.', 1)[1] for n in sk.ALLOWED)}"
        )

    def check(self, value: Any, top: bool = False) -> None:
        from . import _sklearn_state as sk

        if isinstance(value, _Node):
            kind, cls = self.cls(value)
            if top and self.header["format_version"] >= 2 and kind != "sklearn":
                raise self.reader.fail("malformed description: a format 2 file holds a scikit-learn estimator")
            get_names = getattr(cls, "_get_param_names", None)
            param_names = set(get_names()) if callable(get_names) else set()
            unknown = sorted(set(value.params) - param_names)
            if unknown:
                raise self.reader.fail(f"{value.cls} has no parameter {', '.join(_escaped(u, 60) for u in unknown[:5])}")
            problem = sk.param_problem(value.cls, value.params) if kind == "sklearn" else None
            if problem is not None:
                raise self.reader.fail(f"{value.cls} is refused: {problem}")
            names = list(value.attributes) + list(value.arrays or ())
            for attr in names:
                if not _NAME_RE.match(attr) or (attr.startswith("__") and attr.endswith("__")):
                    raise self.reader.fail(f"malformed description: invalid attribute name {_short_repr(attr)}")
                problem = sk.attribute_problem(value.cls, cls, attr, param_names) if kind == "sklearn" else None
                if problem is not None:
                    raise self.reader.fail(f"the fitted attribute of {value.cls} is refused: {problem}")
            # What kind of value each name may hold: an estimator, a tree, a B-spline only
            # where scikit-learn keeps one; a rankwise estimator's state is plain data.
            for what, entries in (("parameter", value.params), ("fitted attribute", value.attributes)):
                for key, v in entries.items():
                    kinds = _kinds(v)
                    if kind == "sklearn":
                        problem = sk.kinds_problem(value.cls, what, key, kinds)
                    else:
                        problem = None if _plain(v) else f"its {what} {key!r} must be plain JSON data"
                    if problem is not None:
                        raise self.reader.fail(f"{value.cls} is refused: {problem}")
            for v in (*value.params.values(), *value.attributes.values(), *(value.arrays or {}).values()):
                self.check(v)
        elif isinstance(value, _ArrayRef):
            if value.name not in self.arrays:
                raise self.reader.fail(f"malformed description: it refers to an array '{value.name}' it does not list")
            if value.name in self.used:
                raise self.reader.fail(f"malformed description: the array '{value.name}' is used twice")
            self.used.add(value.name)
        elif isinstance(value, _Special):
            self.check(value.spec)
            spec = self.resolve(value.spec)
            problem = (sk.tree_problem if value.kind == "tree" else sk.bspline_problem)(spec)
            if problem is not None:
                raise self.reader.fail(f"a saved {'decision tree' if value.kind == 'tree' else 'B-spline'} is "
                                       f"refused: {problem}")
        elif isinstance(value, (list, tuple)):
            for v in value:
                self.check(v)
        elif isinstance(value, dict):
            for v in value.values():
                self.check(v)

    def resolve(self, value: Any) -> Any:
        """``value`` with its array references replaced by the arrays (nothing built)."""
        if isinstance(value, _ArrayRef):
            return self.arrays[value.name]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    def build(self, value: Any) -> Any:
        from . import _sklearn_state as sk

        if isinstance(value, _Node):
            kind, cls = self.cls(value)
            # Runtime parameters (threads, processes, verbosity) are never taken from a file.
            params = {k: self.build(v) for k, v in value.params.items() if k not in sk.RUNTIME_PARAMS}
            attributes = {k: self.build(v) for k, v in value.attributes.items()}
            try:
                estimator = cls(**params)
            except Exception as exc:
                raise self.reader.fail(f"{value.cls} rejected the saved parameters", exc) from exc
            try:
                if kind == "sklearn":
                    sk.restore(value.cls, estimator, attributes)
                else:
                    estimator._set_model_state(dict(attributes), {k: self.arrays[r.name] for k, r in value.arrays.items()})
            except Exception as exc:
                raise self.reader.fail(f"{value.cls} rejected the saved fitted state", exc) from exc
            try:
                problem = sk.fitted_problem(value.cls, estimator) if kind == "sklearn" else None
            except Exception as exc:  # a state too malformed for the checks themselves
                raise self.reader.fail(f"the saved state of {value.cls} is refused", exc) from exc
            if problem is not None:
                raise self.reader.fail(f"the saved state of {value.cls} is refused: {problem}")
            return estimator
        if isinstance(value, _ArrayRef):
            return self.arrays[value.name]
        if isinstance(value, _Special):
            spec = self.resolve(value.spec)
            return sk.build_tree(spec) if value.kind == "tree" else sk.build_bspline(spec)
        if isinstance(value, list):
            return [self.build(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.build(v) for v in value)
        if isinstance(value, dict):
            return {k: self.build(v) for k, v in value.items()}
        return value
