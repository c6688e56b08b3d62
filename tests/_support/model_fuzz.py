"""Fuzzing of model files: a corpus of real saved models, a seeded mutator whose changes
get past the integrity checks, and a runner that loads and scores each mutated file in a
child process under a memory limit and a wall-clock timeout.

The mutator changes what a crafted file could change (description fields, array members,
the engines' booster payloads) and then makes the file self-consistent again: each
changed array is re-encoded as a ``.npy`` member whose header matches its new dtype and
shape, the description records that dtype, shape and the member's SHA-256, and the
checksum member is recomputed. A mutated file is thus refused, if at all, by the checks
that are meant to stop a hostile file, not by the checksums that stop a damaged one.

Every outcome of loading and scoring a file is one of:

* ``refused``: ``load_model`` raised ``ModelFileError``;
* ``finite``: the model loaded and its scores of the probe input are finite;
* ``input-refused``: the model loaded and refused the probe with scikit-learn's ordinary
  input validation (a number of features or feature names that do not match);
* failures: ``crash`` (the child died: a signal, or an exit without a result),
  ``hang`` (the timeout), ``memory`` (``MemoryError`` or an allocation refused under the
  limit), ``nan`` (scores that are not finite), ``other-exception`` (loaded, then scoring
  raised something else), ``loaded-other-error`` (loading raised something other than
  ``ModelFileError``), ``bad-message`` (refused, but the one-line message holds a raw
  control character, e.g. a newline or an escape sequence taken from the file).

This module imports only the standard library and NumPy at the top, so that a child
process can load it by path before it imports rankwise.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import math
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import zipfile
from typing import Any, Callable, Optional

import numpy as np

JSON_MEMBER = "rankwise-model.json"
CHECKSUM_MEMBER = "rankwise-model.sha256"
TYPE_KEY = "__rankwise_type__"

#: Outcomes that are what the format promises: a refusal, or a model that scores finite values
#: (or refuses an input that does not fit it, with the ordinary validation).
ACCEPTABLE = ("refused", "finite", "input-refused")
FAILURES = ("crash", "hang", "memory", "nan", "other-exception", "loaded-other-error", "bad-message")
OUTCOMES = ACCEPTABLE + FAILURES

#: The mutation kinds, with the weight each is drawn with.
MUTATION_WEIGHTS = {
    "json-number": 6, "json-string": 4, "json-scalar": 2, "json-list": 4, "json-key": 4, "json-swap": 3,
    "json-type": 2, "array-values": 6, "array-dtype": 3, "array-shape": 3, "array-byteorder": 2,
    "array-length": 3, "xgb-payload": 30, "lgb-payload": 30,
}

_SEED = 20261204


# --------------------------------------------------------------------------------------
# the corpus: real saved models
# --------------------------------------------------------------------------------------


def _numeric_data(n: int = 80, p: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, -1] = np.round(X[:, -1])  # ties
    y = (X[:, 0] - 0.5 * X[:, 1] + rng.normal(size=n) > 0).astype(int)
    return X, y


def _frame_data(n: int = 80, seed: int = 0):
    import pandas as pd

    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    a[::7] = np.nan
    cat = rng.choice(["red", "green", "blue"], size=n).astype(object)
    cat[::11] = None
    y = (a + (cat == "red") + rng.normal(size=n) > 0.3).astype(int)
    return pd.DataFrame({"a": a, "b": b, "c": cat}), y


def probe_input(spec: list):
    """The fixed input each model of the corpus is scored on: ``["numeric", p]`` (8 rows,
    extreme values and ties included) or ``["frame"]`` (a DataFrame with missing values and
    an unseen category)."""
    if spec[0] == "numeric":
        p = int(spec[1])
        rng = np.random.default_rng(12345)
        X = rng.normal(size=(8, p))
        X[0] = 0.0
        X[1] = 1e6
        X[2] = -1e6
        X[3] = X[4]
        return X
    import pandas as pd

    return pd.DataFrame({"a": [0.5, np.nan, -3.0, 1e6, 0.0, 2.0], "b": [1.0, 0.0, np.nan, -1e6, 0.0, 2.0],
                         "c": np.array(["red", "green", None, "purple", "blue", "red"], dtype=object)})


def _rankwise_model(name: str, cls: type, **extra):
    import warnings

    params = cls().get_params()
    kwargs = dict(extra)
    for key, value in (("n_estimators", 5), ("n_jobs", 1), ("random_state", 0), ("max_depth", 2)):
        if key in params and key not in kwargs:
            kwargs[key] = value
    p = 2 if name == "ExactLinearRankMaximizer" else 3
    X, y = _numeric_data(p=p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cls(**kwargs).fit(X, y), ["numeric", p]


def corpus_builders() -> dict[str, Callable[[], tuple[Any, list]]]:
    """``{kind: builder}``; a builder returns ``(fitted model, probe spec)``. One of each
    registered rankwise estimator (the boosted ranker once per installed engine),
    scikit-learn pipelines on a DataFrame and on numbers, a tree and a small forest."""
    import importlib.util

    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, SplineTransformer, StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    import rankwise as rw
    from rankwise.io._model import registered_models

    out: dict[str, Callable] = {}
    for name, cls in registered_models().items():
        if not cls.__module__.startswith("rankwise."):
            continue  # a test's own registered class (tests/io/test_io_model.py), not a learner
        if name == "BoostedPairwiseRanker":
            for engine in ("xgboost", "lightgbm"):
                if importlib.util.find_spec(engine) is not None:
                    out[f"{name}[{engine}]"] = (lambda n=name, c=cls, e=engine: _rankwise_model(n, c, engine=e))
        else:
            out[name] = lambda n=name, c=cls: _rankwise_model(n, c)

    def frame_pipeline(last):
        def build():
            X, y = _frame_data()
            pre = ColumnTransformer([
                ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), ["a", "b"]),
                ("cat", OneHotEncoder(handle_unknown="ignore"), ["c"]),
            ])
            return make_pipeline(pre, last()).fit(X, y), ["frame"]
        return build

    def numeric(model):
        def build():
            X, y = _numeric_data()
            return model().fit(X, y), ["numeric", X.shape[1]]
        return build

    if importlib.util.find_spec("pandas") is not None:  # the column transformers take a DataFrame
        out["Pipeline[ColumnTransformer+LogisticRegression]"] = frame_pipeline(lambda: LogisticRegression())
        out["Pipeline[ColumnTransformer+BBRRanker]"] = frame_pipeline(lambda: rw.BBRRanker())
    out["Pipeline[SplineTransformer+LogisticRegression]"] = numeric(
        lambda: make_pipeline(SplineTransformer(n_knots=4), LogisticRegression()))
    out["DecisionTreeClassifier"] = numeric(lambda: DecisionTreeClassifier(max_depth=4, random_state=0))
    out["RandomForestClassifier"] = numeric(
        lambda: RandomForestClassifier(n_estimators=3, max_depth=4, random_state=0, n_jobs=1))
    return out


def build_corpus(folder: str, kinds: Optional[list[str]] = None) -> dict[str, dict]:
    """Fit and save the corpus into ``folder``; ``{kind: {"data": file bytes, "probe": spec}}``.
    Each saved file is checked to load before it is used."""
    import rankwise as rw

    out = {}
    for kind, build in corpus_builders().items():
        if kinds is not None and kind not in kinds:
            continue
        model, probe = build()
        path = os.path.join(folder, re.sub(r"[^A-Za-z0-9]+", "_", kind) + ".rwm")
        rw.save_model(model, path, overwrite=True)
        scores = _scores(rw.load_model(path), probe_input(probe))
        if not all(np.all(np.isfinite(x)) for x in scores):
            raise AssertionError(f"the unmutated {kind} does not score the probe with finite values")
        with open(path, "rb") as f:
            out[kind] = {"data": f.read(), "probe": probe}
    return out


# --------------------------------------------------------------------------------------
# reading and rewriting a model file, consistently
# --------------------------------------------------------------------------------------


def npy_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=False)
    return buf.getvalue()


class ModelFile:
    """A model file taken apart: its members (in order), its description, and its arrays
    (decoded lazily). :meth:`to_bytes` puts it back together with every checksum
    recomputed and every changed array re-encoded and re-declared."""

    def __init__(self, data: bytes):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            self.members = {info.filename: zf.read(info) for info in zf.infolist()}
        self.doc = json.loads(self.members[JSON_MEMBER])
        self.changed: dict[str, np.ndarray] = {}

    def array_names(self) -> list[str]:
        return sorted(self.doc.get("arrays", {}))

    def array(self, name: str) -> np.ndarray:
        if name in self.changed:
            return self.changed[name]
        data = self.members[self.doc["arrays"][name]["file"]]
        return np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)

    def set_array(self, name: str, arr: np.ndarray) -> None:
        self.changed[name] = arr

    def to_bytes(self) -> bytes:
        members = dict(self.members)
        for name, arr in self.changed.items():
            spec = self.doc["arrays"][name]
            data = npy_bytes(arr)
            members[spec["file"]] = data
            spec.update(dtype=arr.dtype.str, shape=list(arr.shape), sha256=hashlib.sha256(data).hexdigest())
        raw = json.dumps(self.doc, sort_keys=True, indent=1).encode("utf-8")
        members[JSON_MEMBER] = raw
        members[CHECKSUM_MEMBER] = f"{hashlib.sha256(raw).hexdigest()}  {JSON_MEMBER}\n".encode()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for name, data in members.items():
                zf.writestr(name, data)
        return buf.getvalue()


def consistency_problems(data: bytes) -> list[str]:
    """What the integrity checks would find wrong with a model file, read here without
    building anything: a CRC, the description's checksum, an array member missing or
    extra, its SHA-256, its ``.npy`` header's dtype and shape against the declared ones.
    Empty for a file the mutator wrote."""
    problems = []
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        bad = zf.testzip()
        if bad is not None:
            problems.append(f"CRC of {bad}")
        members = {info.filename: zf.read(info) for info in zf.infolist()}
    raw = members.get(JSON_MEMBER, b"")
    if members.get(CHECKSUM_MEMBER) != f"{hashlib.sha256(raw).hexdigest()}  {JSON_MEMBER}\n".encode():
        problems.append("description checksum")
    doc = json.loads(raw)
    declared = {spec["file"]: (name, spec) for name, spec in doc.get("arrays", {}).items()}
    extra = set(members) - set(declared) - {JSON_MEMBER, CHECKSUM_MEMBER}
    if extra:
        problems.append(f"undeclared members {sorted(extra)}")
    for member, (name, spec) in declared.items():
        if member != f"arrays/{name}.npy" or member not in members:
            problems.append(f"member of {name}")
            continue
        blob = members[member]
        if hashlib.sha256(blob).hexdigest() != spec["sha256"]:
            problems.append(f"SHA-256 of {name}")
        stream = io.BytesIO(blob)
        version = np.lib.format.read_magic(stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
        if dtype.str != spec["dtype"] or list(shape) != spec["shape"]:
            problems.append(f".npy header of {name}: {dtype.str}{list(shape)} against {spec['dtype']}{spec['shape']}")
        if len(blob) - stream.tell() != dtype.itemsize * math.prod(shape):
            problems.append(f"data length of {name}")
    return problems


def rehash(data: bytes) -> bytes:
    """The same model file with every array re-encoded and every checksum recomputed (a
    mutation that changes nothing): it must load and score as the original does."""
    mf = ModelFile(data)
    for name in mf.array_names():
        mf.set_array(name, mf.array(name))
    return mf.to_bytes()


# --------------------------------------------------------------------------------------
# the mutator
# --------------------------------------------------------------------------------------

_NAN, _INF, _NINF = ({TYPE_KEY: "float", "value": v} for v in ("nan", "inf", "-inf"))
_NUMBERS = [("nan tag", _NAN), ("inf tag", _INF), ("-inf tag", _NINF), ("0", 0), ("-1", -1), ("1", 1),
            ("2", 2), ("10**9", 10**9), ("2**31", 2**31), ("2**63", 2**63), ("2**63-1", 2**63 - 1),
            ("-2**63", -2**63), ("2**64", 2**64), ("10**30", 10**30), ("1e308", 1e308), ("-1e308", -1e308),
            ("5e-324", 5e-324), ("-0.0", -0.0)]
_STRINGS = ["", "\x1b[31mred\x1b[0m", "a\nb", "\x00", "os.system", "builtins.eval", "nan", "-1", "l2", "auto",
            "rbf", "xgboost", "lightgbm", "catboost", "sklearn.pipeline.Pipeline",
            "sklearn.tree.DecisionTreeClassifier", "sklearn.linear_model.LogisticRegression",
            "sklearn.preprocessing.StandardScaler", "BBRRanker", "KernelRanker", "BoostedPairwiseRanker",
            "array", "tree", "estimator", "float", "tuple", "objects", "dtype", "scalar_type", "slice", "intdict",
            "bspline", "<f8", ">i8", "|O", "O", "x" * 5000, "\u202e\u0007bell", "../../etc/passwd", "decision_function"]
_NEW_KEYS = ["n_jobs", "decision_function", "predict_proba", "__class__", "__dict__", "fit", "verbose", "memory",
             "extra_", "_sklearn_version", "coef_", "n_features_in_", "tree_", "classes_", "cache_size", "_", TYPE_KEY]


def _walk(value: Any, path: tuple, out: list) -> None:
    out.append((path, value))
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, path + (k,), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _walk(v, path + (i,), out)


def _path_text(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "<root>"


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _set(doc: Any, path: tuple, value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def _json_nodes(doc: dict, rng) -> list:
    """Every place of the description a JSON mutation may hit: all of ``params``,
    ``attributes`` and ``metadata``, and now and then the header fields too. Never the
    array declarations: a changed dtype, shape or checksum there would only be caught by
    the integrity checks, which are not what is fuzzed (array mutations change an array
    and its declaration together)."""
    nodes: list = []
    keys = ("params", "attributes", "metadata")
    if rng.random() < 0.08:
        keys = tuple(k for k in doc if k != "arrays")
        nodes = [((k,), doc[k]) for k in keys]
    for key in keys:
        if key in doc and isinstance(doc[key], (dict, list)):
            _walk(doc[key], (key,), nodes)
    return nodes


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def _mutate_json(mf: ModelFile, kind: str, rng) -> Optional[str]:
    nodes = _json_nodes(mf.doc, rng)
    if kind == "json-number":
        cand = [(p, v) for p, v in nodes if isinstance(v, (int, float)) and not isinstance(v, bool) and p]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        label, new = _pick(rng, _NUMBERS + [("float of int", float(old) + 0.5), ("x*-1", -old),
                                            ("x+1", old + 1), ("x-1", old - 1), ("x*1000", old * 1000)])
        _set(mf.doc, path, copy.deepcopy(new))
        return f"{_path_text(path)}: {old!r} -> {label}"
    if kind == "json-string":
        cand = [(p, v) for p, v in nodes if isinstance(v, str) and p]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        new = _pick(rng, _STRINGS + [old + "\x1b]0;t\x07", old[:-1], old.upper()])
        _set(mf.doc, path, new)
        return f"{_path_text(path)}: {old[:40]!r} -> {new[:40]!r}"
    if kind == "json-scalar":
        cand = [(p, v) for p, v in nodes if (v is None or isinstance(v, bool)) and p]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        new = _pick(rng, [None, True, False, 0, 1, "true", [], {}])
        if new is old:
            new = "null" if old is None else (not old)
        _set(mf.doc, path, new)
        return f"{_path_text(path)}: {old!r} -> {new!r}"
    if kind == "json-list":
        cand = [(p, v) for p, v in nodes if isinstance(v, list) and p]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        how = _pick(rng, ["truncate", "drop-first", "duplicate", "nest", "empty", "reverse", "append-copy",
                          "repeat-100"])
        new = {"truncate": old[:-1], "drop-first": old[1:], "duplicate": old + old, "nest": [old], "empty": [],
               "reverse": old[::-1], "append-copy": old + old[-1:], "repeat-100": old * 100}[how]
        _set(mf.doc, path, copy.deepcopy(new))
        return f"{_path_text(path)} (list of {len(old)}): {how}"
    if kind == "json-key":
        cand = [(p, v) for p, v in nodes if isinstance(v, dict)]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        how = _pick(rng, ["delete", "add", "rename"]) if old else "add"
        if how == "add":
            key = _pick(rng, _NEW_KEYS)
            value = _pick(rng, [1, -1, 8, 10**6, "x", None, True, [], {}, _NAN,
                                {TYPE_KEY: "estimator", "value": {"class": "sklearn.preprocessing.StandardScaler",
                                                                  "params": {}, "attributes": {}}}])
            old[key] = copy.deepcopy(value)
            return f"{_path_text(path)}: add key {key!r} = {str(value)[:60]}"
        key = _pick(rng, sorted(old))
        if how == "delete":
            del old[key]
            return f"{_path_text(path)}: delete key {key!r}"
        new_key = _pick(rng, _NEW_KEYS + [key + "_", key.upper(), key[:-1]])
        old[new_key] = old.pop(key)
        return f"{_path_text(path)}: rename key {key!r} -> {new_key!r}"
    if kind == "json-swap":
        cand = [(p, v) for p, v in nodes if p]
        if len(cand) < 2:
            return None
        (p1, v1), (p2, v2) = _pick(rng, cand), _pick(rng, cand)
        if p1[:len(p2)] == p2 or p2[:len(p1)] == p1:  # one inside the other: copy instead of swap
            _set(mf.doc, p1, copy.deepcopy(v2))
            return f"{_path_text(p1)} <- copy of {_path_text(p2)}"
        _set(mf.doc, p1, copy.deepcopy(v2))
        _set(mf.doc, p2, copy.deepcopy(v1))
        return f"swap {_path_text(p1)} <-> {_path_text(p2)}"
    if kind == "json-type":
        cand = [(p, v) for p, v in nodes if p]
        if not cand:
            return None
        path, old = _pick(rng, cand)
        deep: Any = []
        for _ in range(int(rng.integers(30, 200))):
            deep = [deep]
        label, new = _pick(rng, [("{}", {}), ("[]", []), ("'x'", "x"), ("0", 0), ("null", None), ("true", True),
                                 ("nested lists", deep), ("list of 10**5 empty dicts", [{}] * 100000),
                                 ("tuple tag", {TYPE_KEY: "tuple", "value": [1, 2]}),
                                 ("slice tag", {TYPE_KEY: "slice", "value": [0, 2**62, 1]}),
                                 ("intdict tag", {TYPE_KEY: "intdict", "value": [[-1, 2], [2**70, 3]]})])
        _set(mf.doc, path, copy.deepcopy(new))
        return f"{_path_text(path)}: {type(old).__name__} -> {label}"
    raise AssertionError(kind)


def _value_array(arr: np.ndarray, rng) -> tuple[np.ndarray, str]:
    """``arr`` with a few of its elements (or all) set to a hostile value of its dtype."""
    out = arr.copy()
    flat = out.reshape(-1)
    if flat.size == 0:
        return out, "empty array, unchanged"
    k = flat.size if rng.random() < 0.15 else int(rng.integers(1, min(3, flat.size) + 1))
    idx = rng.choice(flat.size, size=k, replace=False)
    kind = arr.dtype.kind
    if kind in "fc":
        # The largest value of a narrow float; for float64, 1e300: large enough to break what
        # trusts its weights, small enough that a linear score of the probe (|x| <= 1e6, a few
        # features) stays finite, so that an overflow of honest arithmetic is not reported.
        huge = float(np.finfo(arr.dtype).max) if arr.dtype.itemsize < (8 if kind == "f" else 16) else 1e300
        label, value = _pick(rng, [("nan", np.nan), ("inf", np.inf), ("-inf", -np.inf), ("1e300", 1e300),
                                   ("-1e300", -1e300), ("0", 0.0), ("-1", -1.0), ("huge-for-dtype", huge)])
    elif kind in "iu":
        info = np.iinfo(arr.dtype)
        opts = [("0", 0), ("-1", -1), ("-2", -2), ("size", flat.size), ("size+1", flat.size + 1),
                ("max", int(info.max)), ("min", int(info.min)), ("2**31-1", 2**31 - 1), ("1000", 1000)]
        if flat.size:
            opts.append(("own max+1", int(flat.max()) + 1))
            opts.append(("another element", int(flat[int(rng.integers(flat.size))])))
        label, value = _pick(rng, opts)
        value = int(np.array(value).astype(arr.dtype, casting="unsafe")) if not (info.min <= value <= info.max) \
            else value
    elif kind == "b":
        label, value = "not", None
        flat[idx] = ~flat[idx]
        return out, f"{k} of {flat.size} elements: not"
    elif kind in "US":
        label, value = _pick(rng, [("''", ""), ("escape", "\x1b[2J"), ("other", "zz"), ("nul", "\x00")])
        if kind == "S":
            value = value.encode("latin-1")
    else:
        return out, "unhandled dtype, unchanged"
    flat[idx] = value
    return out, f"{k} of {flat.size} elements -> {label}"


def _mutate_array(mf: ModelFile, kind: str, rng) -> Optional[str]:
    names = [n for n in mf.array_names() if not (kind == "array-values" and n == "booster_" and rng.random() < 0.7)]
    if not names:
        return None
    name = _pick(rng, names)
    arr = mf.array(name)
    where = f"array {name} {arr.dtype.str}{list(arr.shape)}"
    if kind == "array-values":
        new, what = _value_array(arr, rng)
    elif kind == "array-dtype":
        target = _pick(rng, ["<f4", "<f8", "<f2", "<i4", "<i8", "<u8", "|u1", "|i1", "|b1", "<c16", "<U4", "|S3",
                             "<i2", ">f8", ">i8"])
        if target == arr.dtype.str:
            target = "<f4" if target != "<f4" else "<i8"
        with np.errstate(all="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    new = arr.astype(target, casting="unsafe")
                except (TypeError, ValueError):
                    new = np.zeros(arr.shape, dtype=target)
        what = f"dtype -> {target}"
    elif kind == "array-shape":
        how = _pick(rng, ["ravel", "add axis", "column", "transpose", "fortran", "2 x n/2", "0-d"])
        if how == "ravel":
            new = arr.reshape(-1)
        elif how == "add axis":
            new = arr[np.newaxis]
        elif how == "column":
            new = arr.reshape(-1, 1)
        elif how == "transpose":
            new = np.ascontiguousarray(arr.T) if arr.ndim >= 2 else arr[np.newaxis].T.copy()
        elif how == "fortran":
            new = np.asfortranarray(arr if arr.ndim >= 2 else arr.reshape(1, -1))
        elif how == "2 x n/2" and arr.size % 2 == 0 and arr.size:
            new = arr.reshape(2, -1)
        else:
            new = np.asarray(arr.reshape(-1)[0] if arr.size else np.zeros((), arr.dtype))
            how = "0-d"
        what = f"shape -> {list(new.shape)} ({how})"
    elif kind == "array-byteorder":
        if arr.dtype.itemsize == 1 or arr.dtype.kind in "S":
            new = np.asfortranarray(arr) if arr.ndim >= 2 else arr.copy()
            what = "byte order has no meaning; layout copy"
        else:
            new = arr.astype(arr.dtype.newbyteorder())
            what = f"byte order -> {new.dtype.str}"
    elif kind == "array-length":
        how = _pick(rng, ["drop last", "drop first", "double", "one more", "empty", "x1000"])
        flat = arr if arr.ndim >= 1 else arr.reshape(1)
        new = {"drop last": flat[:-1], "drop first": flat[1:], "double": np.concatenate([flat, flat]),
               "one more": np.concatenate([flat, flat[-1:] if len(flat) else flat]), "empty": flat[:0],
               "x1000": np.concatenate([flat] * 1000) if flat.nbytes * 1000 < 64 << 20 else flat}[how]
        new = np.ascontiguousarray(new)
        what = f"length along axis 0 -> {new.shape[0] if new.ndim else 0} ({how})"
    else:
        raise AssertionError(kind)
    mf.set_array(name, new)
    return f"{where}: {what}"


def _payload_number(rng, old: Any, n: int, size: int) -> tuple[Any, str]:
    """A hostile value for a number of a booster: ``n`` features, ``size`` nodes of its tree."""
    return _pick(rng, [(-1, "-1"), (-2, "-2"), (size, "node count"), (size + 7, "node count+7"),
                       (2**31 - 1, "2**31-1"), (-2**31, "-2**31"), (n, "n_features"), (n + 100, "n_features+100"),
                       (0, "0"), (float("nan"), "nan"), (float("inf"), "inf"), (-1e308, "-1e308"),
                       (1e38, "1e38")])


def _xgb_mutation(payload: bytes, rng) -> tuple[bytes, str]:
    j = json.loads(payload)
    learner = j["learner"]
    model = learner["gradient_booster"]["model"]
    trees = model["trees"]
    n = int(learner["learner_model_param"]["num_feature"])
    what = _pick(rng, ["tree-array"] * 6 + ["tree-param", "base_score", "num_feature", "num_trees", "tree_info",
                                            "cycle", "truncate-array", "iteration_indptr", "bloat"])
    if what == "bloat":  # a small file that declares a large or deeply nested payload
        how = _pick(rng, ["padding", "deep", "wide"])
        if how == "padding":
            return payload + b" " * (24 << 20), "xgboost payload followed by 24 MiB of spaces"
        if how == "deep":
            model["tree_info"] = "@"
            text = json.dumps(j).replace('"@"', "[" * 100000 + "]" * 100000)
            return text.encode(), "xgboost tree_info -> lists nested 100000 deep"
        model["tree_info"] = "@"
        text = json.dumps(j).replace('"@"', "[" + ",".join(["{}"] * 2000000) + "]")
        return text.encode(), "xgboost tree_info -> a list of 2,000,000 empty objects"
    if what in ("tree-array", "cycle", "truncate-array") and trees:
        t = int(rng.integers(len(trees)))
        tree = trees[t]
        size = len(tree["left_children"])
        if what == "cycle":
            inner = [i for i in range(size) if tree["left_children"][i] != -1]
            if inner:
                i = _pick(rng, inner)
                side = _pick(rng, ["left_children", "right_children"])
                target = _pick(rng, [0, i])
                tree[side][i] = target
                return json.dumps(j).encode(), f"xgboost tree {t}: {side}[{i}] -> {target} (a cycle)"
            what = "tree-array"
        if what == "truncate-array":
            field = _pick(rng, ["left_children", "right_children", "split_indices", "split_conditions",
                                "base_weights", "default_left", "parents", "split_type"])
            tree[field] = tree[field][:-1]
            return json.dumps(j).encode(), f"xgboost tree {t}: {field} one element short"
        field = _pick(rng, ["left_children", "right_children", "split_indices", "split_conditions", "base_weights",
                            "default_left", "parents", "split_type", "loss_changes", "sum_hessian"])
        if not tree[field]:
            return json.dumps(j).encode(), f"xgboost tree {t}: {field} empty, unchanged"
        i = int(rng.integers(len(tree[field])))
        old = tree[field][i]
        value, label = _payload_number(rng, old, n, size)
        tree[field][i] = value
        return json.dumps(j).encode(), f"xgboost tree {t}: {field}[{i}] {old!r} -> {label}"
    if what == "tree-param" and trees:
        t = int(rng.integers(len(trees)))
        key = _pick(rng, ["num_nodes", "num_feature", "num_deleted", "size_leaf_vector"])
        value = _pick(rng, ["0", "1", "-1", "100000", "2147483647", str(n + 5), "nan", "x"])
        trees[t]["tree_param"][key] = value
        return json.dumps(j).encode(), f"xgboost tree {t}: tree_param.{key} -> {value!r}"
    if what == "base_score":
        value = _pick(rng, ["[NaN]", "[nan]", "[inf]", "[-inf]", "[1E38]", "[3.4E38]", "NaN", "-1", "[]", "[1,2]",
                            "x"])
        learner["learner_model_param"]["base_score"] = value
        return json.dumps(j).encode(), f"xgboost base_score -> {value!r}"
    if what == "num_feature":
        value = _pick(rng, ["0", "1", str(n - 1), str(n + 1), "1000000", "-1", "x"])
        learner["learner_model_param"]["num_feature"] = value
        return json.dumps(j).encode(), f"xgboost learner num_feature -> {value!r}"
    if what == "num_trees":
        value = _pick(rng, ["0", str(len(trees) + 1), str(len(trees) - 1), "100000", "-1"])
        model["gbtree_model_param"]["num_trees"] = value
        return json.dumps(j).encode(), f"xgboost num_trees -> {value!r}"
    if what == "tree_info":
        value = _pick(rng, [[], model["tree_info"][:-1], [1] * len(trees), [-1] * len(trees), model["tree_info"] * 2])
        model["tree_info"] = value
        return json.dumps(j).encode(), f"xgboost tree_info -> {value!r}"
    value = _pick(rng, [[], [0], [0, 10**6], list(range(len(trees) + 3)), [1, 0]])
    model["iteration_indptr"] = value
    return json.dumps(j).encode(), f"xgboost iteration_indptr -> {value!r}"


_LGB_FIELDS = ("split_feature", "left_child", "right_child", "threshold", "leaf_value", "num_leaves",
               "decision_type", "internal_value", "leaf_count", "num_cat", "shrinkage", "leaf_weight")


def _lgb_resize(text: str) -> str:
    """The LightGBM model text with its ``tree_sizes`` line recomputed (LightGBM cuts the
    trees out of the text by those sizes)."""
    starts = [m.start() for m in re.finditer(r"^Tree=", text, flags=re.M)]
    end = text.find("end of trees")
    if not starts or end < 0:
        return text
    sizes = [b - a for a, b in zip(starts, starts[1:] + [end])]
    return re.sub(r"^tree_sizes=.*$", "tree_sizes=" + " ".join(map(str, sizes)), text, count=1, flags=re.M)


def _lgb_mutation(payload: bytes, rng) -> tuple[bytes, str]:
    text = payload.decode("utf-8")
    m_feat = re.search(r"^max_feature_idx=(\d+)", text, flags=re.M)
    n = int(m_feat.group(1)) + 1 if m_feat else 3
    what = _pick(rng, ["tree-field"] * 6 + ["cycle", "header", "drop-tree-sizes", "bloat"])
    if what == "bloat":  # a small file that declares a large payload
        how = _pick(rng, ["padding", "long line"])
        if how == "padding":
            return payload + b"\n" * (24 << 20), "lightgbm payload followed by 24 MiB of newlines"
        new = re.sub(r"^(leaf_value=)", lambda m: m.group(1) + "0 " * (8 << 20), text, count=1, flags=re.M)
        return _lgb_resize(new).encode(), "lightgbm first leaf_value line with 8,388,608 more values"
    trees = [m for m in re.finditer(r"^Tree=(\d+)\n(.*?)(?=\n\n)", text, flags=re.M | re.S)]
    if what == "header":
        key = _pick(rng, ["max_feature_idx", "num_class", "num_tree_per_iteration", "version"])
        value = _pick(rng, ["-1", "0", "1000000", str(n), "2147483647", "x"])
        new, count = re.subn(rf"^{key}=.*$", f"{key}={value}", text, count=1, flags=re.M)
        return _lgb_resize(new).encode(), f"lightgbm header {key} -> {value!r}" + ("" if count else " (absent)")
    if what == "drop-tree-sizes":
        return re.sub(r"^tree_sizes=.*\n", "", text, count=1, flags=re.M).encode(), "lightgbm tree_sizes line dropped"
    if not trees:
        return payload, "lightgbm: no tree, unchanged"
    t = int(rng.integers(len(trees)))
    block = trees[t]
    lines = block.group(2).split("\n")
    fields = {ln.split("=", 1)[0]: i for i, ln in enumerate(lines) if "=" in ln}
    leaves_line = lines[fields["num_leaves"]] if "num_leaves" in fields else "num_leaves=1"
    size = int(leaves_line.split("=", 1)[1])
    if what == "cycle" and "left_child" in fields and size > 2:
        side = _pick(rng, ["left_child", "right_child"])
        li = fields[side]
        values = lines[li].split("=", 1)[1].split(" ")
        i = int(rng.integers(len(values)))
        target = _pick(rng, [0, i])
        values[i] = str(target)
        lines[li] = f"{side}=" + " ".join(values)
        desc = f"lightgbm tree {t}: {side}[{i}] -> {target} (a cycle)"
    else:
        present = [f for f in _LGB_FIELDS if f in fields]
        field = _pick(rng, present)
        li = fields[field]
        values = lines[li].split("=", 1)[1].split(" ")
        how = _pick(rng, ["number"] * 4 + ["drop one", "add one"])
        if how == "drop one" and len(values) > 0:
            values = values[:-1]
            desc = f"lightgbm tree {t}: {field} one value short"
        elif how == "add one":
            values = values + [values[-1] if values else "0"]
            desc = f"lightgbm tree {t}: {field} one value more"
        else:
            i = int(rng.integers(len(values)))
            value, label = _payload_number(rng, values[i], n, size)
            old = values[i]
            values[i] = ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")) \
                if isinstance(value, float) and not math.isfinite(value) else str(value)
            desc = f"lightgbm tree {t}: {field}[{i}] {old} -> {label}"
        lines[li] = f"{field}=" + " ".join(values)
    new_text = text[:block.start(2)] + "\n".join(lines) + text[block.end(2):]
    return _lgb_resize(new_text).encode(), desc


def _mutate_payload(mf: ModelFile, kind: str, rng) -> Optional[str]:
    if "booster_" not in mf.doc.get("arrays", {}):
        return None
    payload = mf.array("booster_").tobytes()
    is_xgb = payload.lstrip()[:1] == b"{"
    if (kind == "xgb-payload") != is_xgb:
        return None
    new, desc = (_xgb_mutation if is_xgb else _lgb_mutation)(payload, rng)
    mf.set_array("booster_", np.frombuffer(new, dtype=np.uint8).copy())
    return desc


def applicable_kinds(data: bytes) -> list[str]:
    """The mutation kinds that apply to a model file: the engine payload kinds only to a
    file holding that engine's booster."""
    mf = ModelFile(data)
    kinds = [k for k in MUTATION_WEIGHTS if not k.endswith("-payload")]
    if "booster_" in mf.doc.get("arrays", {}):
        kinds.append("xgb-payload" if mf.array("booster_").tobytes().lstrip()[:1] == b"{" else "lgb-payload")
    return kinds


def mutate(data: bytes, seed: int, salt: str = "", kind: Optional[str] = None) -> tuple[bytes, str, str]:
    """A mutated copy of the model file ``data``: ``(bytes, mutation kind, one-line
    description)``. The same ``seed`` and ``salt`` (e.g. the model's kind) give the same
    mutation. ``kind`` forces the kind of mutation; when it finds nothing to change in this
    file another kind is drawn."""
    rng = np.random.default_rng([_SEED, seed, int.from_bytes(hashlib.sha256(salt.encode()).digest()[:4], "little")])
    kinds = applicable_kinds(data)
    weights = np.array([MUTATION_WEIGHTS[k] for k in kinds], dtype=float)
    for attempt in range(20):
        chosen = kind if (kind is not None and attempt == 0) else kinds[int(rng.choice(len(kinds),
                                                                                      p=weights / weights.sum()))]
        mf = ModelFile(data)
        if chosen.startswith("json-"):
            desc = _mutate_json(mf, chosen, rng)
        elif chosen.startswith("array-"):
            desc = _mutate_array(mf, chosen, rng)
        else:
            desc = _mutate_payload(mf, chosen, rng)
        if desc is not None:
            return mf.to_bytes(), chosen, " ".join(desc.encode("unicode_escape").decode("ascii").split())[:240]
    return rehash(data), "none", "no applicable mutation"


# --------------------------------------------------------------------------------------
# the child process
# --------------------------------------------------------------------------------------

_INPUT_ERROR = re.compile(r"X has \d+ features|expecting \d+ features|feature names|features? as input|"
                          r"columns? (are|is) missing|n_features_in_")


def _scores(model, X):
    if hasattr(model, "decision_function"):
        s = model.decision_function(X)
    elif hasattr(model, "predict_proba"):
        s = model.predict_proba(X)
    else:
        s = model.predict(X)
    out = [np.asarray(s, dtype=np.float64)]
    if hasattr(model, "decision_path"):  # trees and forests: a path's buffer is sized from the file
        model.decision_path(X)
    if hasattr(model, "apply"):
        out.append(np.asarray(model.apply(X), dtype=np.float64))
    return out


#: Words of the messages of the integrity checks (checksums, sizes, .npy headers): a mutated
#: file refused with one of them did not get past them, so the mutator is at fault.
INTEGRITY_MESSAGE = re.compile(r"checksum|corrupted|unreadable|array member '[^']*' is refused|bytes in the archive")


def _one(path: str, probe: list) -> tuple[str, str]:
    from rankwise.io import ModelFileError, load_model

    try:
        model = load_model(path)
    except ModelFileError as exc:
        message = str(exc)
        raw = [c for c in message if unicodedata.category(c) in ("Cc", "Cf")]
        if raw:  # a newline, an escape sequence, a bidi override from the file, shown as is
            return "bad-message", f"ModelFileError with raw {''.join(raw)!r}: {message}"
        return "refused", message
    except MemoryError as exc:
        return "memory", f"MemoryError at load: {exc}"
    except BaseException as exc:  # noqa: BLE001 - what is being classified
        return "loaded-other-error", f"{type(exc).__name__}: {exc}"
    try:
        scores = _scores(model, probe_input(probe))
    except MemoryError as exc:
        return "memory", f"MemoryError at scoring: {exc}"
    except ValueError as exc:
        # The probe has the original model's input width and columns: refusing it is ordinary
        # input validation only when the model's first step does it (the file changed what
        # the model takes). An inner step refusing what the steps before it give it is a
        # state that does not make a scorer.
        first = model.steps[0][1] if type(model).__name__ == "Pipeline" and getattr(model, "steps", None) else model
        if _INPUT_ERROR.search(str(exc)) and (type(first).__name__ in str(exc) or "feature names" in str(exc)):
            return "input-refused", f"{type(exc).__name__}: {exc}"
        return "other-exception", f"{type(model).__name__}: {type(exc).__name__}: {exc}"
    except BaseException as exc:  # noqa: BLE001
        return "other-exception", f"{type(model).__name__}: {type(exc).__name__}: {exc}"
    if not all(np.all(np.isfinite(s)) for s in scores):
        return "nan", f"{type(model).__name__}: scores {scores[0].ravel()[:4]}"
    return "finite", type(model).__name__


def _vm_size() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def child_main(jobs_path: str, fd: int, budget: int) -> None:
    """Run in a child: import rankwise, limit the address space to what it takes now plus
    ``budget`` bytes, then load and score each job of ``jobs_path`` (a JSON list of
    ``[index, path, probe]``), writing ``start i`` and then the result to ``fd``."""
    import resource
    import warnings

    warnings.simplefilter("ignore")
    import rankwise  # noqa: F401  (imported before the limit: the interpreter's own cost)
    import rankwise.io  # noqa: F401
    import sklearn.ensemble  # noqa: F401
    import sklearn.tree  # noqa: F401

    for engine in ("xgboost", "lightgbm"):
        try:
            __import__(engine)
        except ImportError:
            pass
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass
    limit = _vm_size() + budget
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with open(jobs_path) as f:
        jobs = json.load(f)
    out = os.fdopen(fd, "w", buffering=1)
    for index, path, probe in jobs:
        out.write(json.dumps({"start": index}) + "\n")
        out.flush()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            outcome, message = _one(path, probe)
        except MemoryError:
            outcome, message = "memory", "MemoryError"
        message = " ".join(str(message).encode("unicode_escape").decode("ascii").split())[:400]
        grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024  # KiB on Linux
        out.write(json.dumps({"done": index, "outcome": outcome, "message": message, "peak_mib": grew}) + "\n")
        out.flush()
    out.close()


_CHILD = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('_model_fuzz', sys.argv[1]); "
          "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); "
          "mod.child_main(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))")


def _run_batch(jobs: list, results: dict, timeout: float, budget: int, startup: float, tmp: str) -> None:
    """Run ``jobs`` (``[index, path, probe]``) in children, one after another: when a child
    dies or hangs on a job, that job gets its failure and a new child takes the rest."""
    pending = list(jobs)
    while pending:
        jobs_path = os.path.join(tmp, f"jobs-{pending[0][0]}.json")
        with open(jobs_path, "w") as f:
            json.dump(pending, f)
        err_path = os.path.join(tmp, f"stderr-{pending[0][0]}.txt")
        rfd, wfd = os.pipe()
        env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   MALLOC_ARENA_MAX="2", PYTHONWARNINGS="ignore")
        with open(err_path, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-c", _CHILD, os.path.abspath(__file__), jobs_path, str(wfd),
                                     str(budget)], stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                    pass_fds=(wfd,), env=env, start_new_session=True)
        os.close(wfd)
        current, buf, deadline, started = None, b"", time.monotonic() + startup, False
        failed: Optional[tuple[str, str]] = None
        with os.fdopen(rfd, "rb", buffering=0) as pipe:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    failed = ("hang", f"no result within {timeout:g} s")
                    break
                ready, _, _ = select.select([pipe], [], [], left)
                if not ready:
                    continue
                chunk = pipe.read(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    msg = json.loads(line)
                    if "start" in msg:
                        current, started = msg["start"], True
                    else:
                        results[msg["done"]] = (msg["outcome"], msg["message"], msg["peak_mib"])
                        pending = [j for j in pending if j[0] != msg["done"]]
                        current = None
                    deadline = time.monotonic() + timeout
        if failed is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        rc = proc.wait()
        if current is None and not pending:
            return
        with open(err_path, "rb") as f:
            tail = " ".join(f.read()[-600:].decode("utf-8", "replace").split())
        if current is None:
            if not started:  # the child could not even start: the harness is broken, not the file
                raise RuntimeError(f"the fuzz child failed to start (exit {rc}): {tail}")
            current = pending[0][0]  # died between two files (e.g. freeing the previous model)
            tail = "after the previous file: " + tail
        if failed is None:
            memory = any(s in tail for s in ("bad_alloc", "MemoryError", "Cannot allocate memory",
                                             "out of memory"))
            sig = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
            failed = ("memory" if memory else "crash", f"{sig}: {tail[-300:]}")
        results[current] = failed + (None,)
        pending = [j for j in pending if j[0] != current]


def run_files(jobs: list, *, workers: int = 2, timeout: float = 20.0, budget: int = 2 << 30,
              startup: float = 120.0, batch: int = 60) -> dict:
    """Load and score each ``[index, path, probe]`` of ``jobs`` in child processes
    (``workers`` at a time, ``batch`` files per child), each under an address-space limit
    of its imports plus ``budget`` bytes and ``timeout`` seconds per file; ``{index:
    (outcome, message, peak_mib)}``: ``peak_mib`` is how much the child's peak resident memory
    grew while it handled that file (0 when an earlier file had raised it higher; ``None``
    when the child died)."""
    results: dict = {}
    batches = [jobs[i:i + batch] for i in range(0, len(jobs), batch)]
    errors: list = []
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not batches:
                    return
                part = batches.pop(0)
            try:
                _run_batch(part, results, timeout, budget, startup, tmp)
            except Exception as exc:  # noqa: BLE001 - reported by the caller
                errors.append(exc)
                return

    with tempfile.TemporaryDirectory(prefix="rankwise-fuzz-") as tmp:
        threads = [threading.Thread(target=worker) for _ in range(max(1, workers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]
    return results


def fuzz_weight(kind: str) -> int:
    """How many times more files a model kind gets than a linear learner: the kinds whose
    state reaches compiled code (boosters, trees, forests) get more."""
    if kind.startswith("BoostedPairwiseRanker"):
        return 4
    if kind.startswith("Pipeline"):  # nested scikit-learn state: the most places to change
        return 3
    if kind in ("DecisionTreeClassifier", "RandomForestClassifier"):
        return 2
    return 1


def fuzz(corpus: dict, folder: str, n: int, seed: int = 0, **run_kw) -> list[dict]:
    """Mutate each model of ``corpus`` ``n * fuzz_weight(kind)`` times (seeds from ``seed``
    on), write the files into ``folder``, run them; one record per file: ``kind``,
    ``seed``, ``mutation``, ``description``, ``outcome``, ``message``, ``path``, ``peak_mib``."""
    records, jobs = [], []
    for kind, entry in corpus.items():
        stem = re.sub(r"[^A-Za-z0-9]+", "_", kind)
        for s in range(seed, seed + n * fuzz_weight(kind)):
            data, mutation, desc = mutate(entry["data"], s, salt=kind)
            path = os.path.join(folder, f"{stem}-{s}.rwm")
            with open(path, "wb") as f:
                f.write(data)
            jobs.append([len(records), path, entry["probe"]])
            records.append({"kind": kind, "seed": s, "mutation": mutation, "description": desc, "path": path})
    results = run_files(jobs, **run_kw)
    for i, rec in enumerate(records):
        rec["outcome"], rec["message"], rec["peak_mib"] = results[i]
    return records


def failures_report(records: list[dict]) -> str:
    """One line per failing file: model kind, seed, mutation, outcome and message."""
    return "\n".join(f"{r['kind']} seed={r['seed']} [{r['mutation']}] {r['description']} => {r['outcome']}: "
                     f"{r['message'][:300]}" for r in records if r["outcome"] not in ACCEPTABLE)


def summary_table(records: list[dict], by: str) -> str:
    """A Markdown table of outcome counts per ``by`` (``"kind"`` or ``"mutation"``)."""
    keys = sorted({r[by] for r in records})
    head = f"| {by} | files | " + " | ".join(OUTCOMES) + " |"
    lines = [head, "|" + "---|" * (len(OUTCOMES) + 2)]
    for key in keys + ["all"]:
        rows = [r for r in records if key == "all" or r[by] == key]
        counts = [sum(r["outcome"] == o for r in rows) for o in OUTCOMES]
        lines.append(f"| {key} | {len(rows)} | " + " | ".join(map(str, counts)) + " |")
    return "\n".join(lines)


def failure_classes(records: list[dict]) -> str:
    """The failures grouped by model kind, mutation kind and outcome: a count and the first
    example (seed, description, message) of each group."""
    groups: dict = {}
    for r in records:
        if r["outcome"] not in ACCEPTABLE:
            groups.setdefault((r["kind"], r["mutation"], r["outcome"]), []).append(r)
    lines = []
    for (kind, mutation, outcome), rows in sorted(groups.items()):
        first = rows[0]
        lines.append(f"- {kind} / {mutation} / {outcome}: {len(rows)} file(s); e.g. seed {first['seed']}: "
                     f"{first['description']} => {first['message'][:240]}")
    return "\n".join(lines)
