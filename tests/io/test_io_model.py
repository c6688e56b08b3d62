"""Saving and loading fitted models without pickle (rankwise.io)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pickle
import struct
import tracemalloc
import zipfile
import zlib

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError

from rankwise.io import _model as _model_io
from rankwise.io._model import (
    CHECKSUM_MEMBER,
    FORMAT_VERSION,
    JSON_MEMBER,
    ModelFileError,
    inspect_model,
    load_model,
    register_model,
    registered_models,
    save_model,
)

# --------------------------------------------------------------------------------------
# a small registered estimator
# --------------------------------------------------------------------------------------


@register_model("ModelIOTestRanker")
class TinyRanker(BaseEstimator):
    """Least-squares scores; enough state to exercise every part of the format."""

    def __init__(self, alpha=1.0, penalty="l2", window=(0.1, 3), options=None, scale=None):
        self.alpha = alpha
        self.penalty = penalty
        self.window = window
        self.options = options
        self.scale = scale

    def fit(self, X, y):
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        t = (y == self.classes_[-1]).astype(np.float64)
        A = X.T @ X + self.alpha * np.eye(X.shape[1])
        self.coef_ = np.linalg.solve(A, X.T @ (t - t.mean()))
        self.intercept_ = float(t.mean() - X.mean(axis=0) @ self.coef_) + 0.1 + 0.2  # an inexact float
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X):
        return np.asarray(X, dtype=np.float64) @ self.coef_ + self.intercept_

    def _get_model_state(self):
        return (
            {"intercept_": self.intercept_, "n_features_in_": self.n_features_in_},
            {"coef_": self.coef_, "classes_": self.classes_},
        )

    def _set_model_state(self, attributes, arrays):
        self.intercept_ = float(attributes["intercept_"])
        self.n_features_in_ = int(attributes["n_features_in_"])
        self.coef_ = arrays["coef_"]
        self.classes_ = arrays["classes_"]


@register_model("ModelIOTestState")
class StateHolder(BaseEstimator):
    """Saves whatever attributes and arrays it is given (to test the value encoding)."""

    def __init__(self, p=None):
        self.p = p

    def fit(self, attributes=None, arrays=None):
        self.attrs_ = dict(attributes or {})
        self.arrays_ = dict(arrays or {})
        return self

    def _get_model_state(self):
        return dict(self.attrs_), dict(self.arrays_)

    def _set_model_state(self, attributes, arrays):
        self.attrs_ = dict(attributes)
        self.arrays_ = dict(arrays)


_UNPICKLED = []


def _record_unpickling(tag):  # what a malicious pickle would "run"
    _UNPICKLED.append(tag)
    return tag


class _Evil:
    def __reduce__(self):
        return (_record_unpickling, ("unpickled!",))


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    return X, y


@pytest.fixture
def fitted(data):
    X, y = data
    return TinyRanker(alpha=0.3, penalty="l1", window=(0.25, 7), options={"a": [1, 2.5, None], "b": True}).fit(X, y)


@pytest.fixture
def model_path(tmp_path, fitted):
    path = tmp_path / "model.rwm"
    save_model(fitted, path, metadata={"dataset": "toy", "n": 60})
    return path


# --------------------------------------------------------------------------------------
# helpers to craft damaged files
# --------------------------------------------------------------------------------------


def _members(path):
    with zipfile.ZipFile(path) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def _write_members(path, members, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def _rewrite(path, edit=None, *, fix_json_sum=True, array_bytes=None, fix_array_sum=True, extra=None, drop=()):
    """Rewrite a model file: ``edit(doc)`` changes the JSON, ``array_bytes`` replaces array
    members; the checksums are recomputed unless told not to."""
    members = _members(path)
    doc = json.loads(members[JSON_MEMBER])
    for name, data in (array_bytes or {}).items():
        members[doc["arrays"][name]["file"]] = data
        if fix_array_sum:
            doc["arrays"][name]["sha256"] = hashlib.sha256(data).hexdigest()
    if edit is not None:
        edit(doc)
    if edit is not None or array_bytes:
        members[JSON_MEMBER] = json.dumps(doc, indent=2).encode()
    if fix_json_sum:
        members[CHECKSUM_MEMBER] = f"{hashlib.sha256(members[JSON_MEMBER]).hexdigest()}  {JSON_MEMBER}\n".encode()
    members.update(extra or {})
    for name in drop:
        del members[name]
    _write_members(path, members)


def _npy(arr, allow_pickle=False):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=allow_pickle)
    return buf.getvalue()


def _load_error(path, *fragments):
    with pytest.raises(ModelFileError) as info:
        load_model(path)
    msg = str(info.value)
    assert isinstance(info.value, ValueError)
    assert "\n" not in msg
    assert str(path) in msg
    for fragment in fragments:
        assert fragment in msg, msg
    return msg


# --------------------------------------------------------------------------------------
# round trip
# --------------------------------------------------------------------------------------


def test_round_trip_is_exact(fitted, model_path, data):
    X, _ = data
    loaded = load_model(model_path)
    assert type(loaded) is TinyRanker
    assert loaded.get_params() == fitted.get_params()
    assert isinstance(loaded.window, tuple)
    for name in ("coef_", "classes_"):
        a, b = getattr(fitted, name), getattr(loaded, name)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
        assert b.flags.writeable
    assert loaded.intercept_ == fitted.intercept_
    assert loaded.n_features_in_ == fitted.n_features_in_
    assert np.array_equal(loaded.decision_function(X), fitted.decision_function(X))
    assert loaded.decision_function(X).tobytes() == fitted.decision_function(X).tobytes()


def test_layout_and_inspect(model_path, fitted):
    with zipfile.ZipFile(model_path) as zf:
        assert zf.namelist() == [JSON_MEMBER, CHECKSUM_MEMBER, "arrays/coef_.npy", "arrays/classes_.npy"]
        raw = zf.read(JSON_MEMBER)
        assert zf.read(CHECKSUM_MEMBER).decode().split()[0] == hashlib.sha256(raw).hexdigest()
    doc = json.loads(raw)
    # a rankwise estimator alone is written in format 1, which older rankwise releases read
    assert doc["format"] == "rankwise-model" and doc["format_version"] == 1 and FORMAT_VERSION == 2
    info = inspect_model(model_path)
    import rankwise

    assert info["rankwise_version"] == rankwise.__version__
    assert info["estimator"] == "ModelIOTestRanker"
    assert info["params"] == fitted.get_params()
    assert info["metadata"] == {"dataset": "toy", "n": 60}
    assert info["arrays"]["coef_"]["dtype"] == "<f8" and info["arrays"]["coef_"]["shape"] == (4,)
    assert info["attributes"]["intercept_"] == fitted.intercept_
    assert info["created"].endswith("+00:00")


def test_tricky_values_round_trip(tmp_path):
    floats = [0.1 + 0.2, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 1 / 3, 123456789.123456789]
    attrs = {
        "floats_": floats,
        "specials_": [float("nan"), float("inf"), -float("inf")],
        "numpy_": [np.float32(0.1), np.int64(-7), np.bool_(True), np.float64(2.5)],
        "nested_": {"t": (1, (2.0, "x")), "l": [[], {}], "none": None, "big": 2**80, "uni": "café ✓"},
    }
    arrays = {
        "fortran_": np.asfortranarray(np.arange(12.0).reshape(3, 4) / 7),
        "scalar_": np.array(np.pi),
        "empty_": np.zeros((0, 3), dtype=np.int32),
        "bools_": np.array([True, False]),
        "big_endian_": np.arange(5, dtype=">i8"),
        "f32_": np.linspace(0, 1, 7, dtype=np.float32),
        "c128_": np.array([1 + 2j, np.nan + 1j]),
        "str_": np.array(["no", "yes"]),
        "nan_": np.array([np.nan, -np.inf, np.inf, -0.0]),
        "uint_": np.array([0, 2**64 - 1], dtype=np.uint64),
    }
    est = StateHolder(p={"x": (1, 2), "y": float("nan")}).fit(attrs, arrays)
    path = tmp_path / "m"
    save_model(est, path)
    out = load_model(path)
    assert out.p["x"] == (1, 2) and np.isnan(out.p["y"])
    got = out.attrs_
    assert all(a == b and str(a) == str(b) for a, b in zip(got["floats_"], floats))  # -0.0 keeps its sign
    assert all(type(v) is float for v in got["floats_"])
    assert np.isnan(got["specials_"][0]) and got["specials_"][1:] == [float("inf"), -float("inf")]
    assert got["numpy_"] == [float(np.float32(0.1)), -7, True, 2.5]
    assert [type(v) for v in got["numpy_"]] == [float, int, bool, float]
    assert got["nested_"] == attrs["nested_"]
    for name, arr in arrays.items():
        back = out.arrays_[name]
        assert back.dtype == arr.dtype and back.shape == arr.shape, name
        assert back.tobytes(order="A") == arr.tobytes(order="A"), name
    assert out.arrays_["fortran_"].flags.f_contiguous
    # the JSON holds only standard JSON (no NaN / Infinity literals)
    raw = _members(path)[JSON_MEMBER].decode()
    json.loads(raw, parse_constant=lambda c: pytest.fail(f"non-standard constant {c}"))


def test_pathlike_and_str_paths(tmp_path, fitted):
    save_model(fitted, str(tmp_path / "a.rwm"))
    assert type(load_model(str(tmp_path / "a.rwm"))) is TinyRanker
    assert inspect_model(tmp_path / "a.rwm")["estimator"] == "ModelIOTestRanker"


# --------------------------------------------------------------------------------------
# saving: refusals
# --------------------------------------------------------------------------------------


def test_overwrite_protection(tmp_path, fitted, data):
    path = tmp_path / "m.rwm"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        save_model(fitted, path)
    assert path.read_bytes() == b"precious"
    save_model(fitted, path, overwrite=True)
    assert type(load_model(path)) is TinyRanker
    with pytest.raises(IsADirectoryError):
        save_model(fitted, tmp_path, overwrite=True)


def test_unfitted_is_refused(tmp_path):
    with pytest.raises(NotFittedError, match="not fitted"):
        save_model(TinyRanker(), tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_non_json_param_is_refused(tmp_path, data):
    X, y = data
    est = TinyRanker(scale=np.sqrt).fit(X, y)
    with pytest.raises(TypeError, match=r"'scale'.*callable"):
        save_model(est, tmp_path / "m")
    with pytest.raises(TypeError, match=r"'options'.*numpy array"):
        save_model(TinyRanker(options=np.ones(2)).fit(X, y), tmp_path / "m")
    with pytest.raises(TypeError, match=r"non-string key"):
        save_model(TinyRanker(options={1: 2}).fit(X, y), tmp_path / "m")
    with pytest.raises(TypeError, match=r"'metadata'"):
        save_model(TinyRanker().fit(X, y), tmp_path / "m", metadata={"f": object()})
    assert os.listdir(tmp_path) == []  # nothing written, no temporary left behind


def test_unstorable_state_is_refused(tmp_path):
    cases = [
        ({}, {"o_": np.array([1, "a"], dtype=object)}, "object dtype"),
        ({}, {"r_": np.zeros(2, dtype=[("a", "<f8")])}, "structured"),
        ({}, {"d_": np.array(["2020-01-01"], dtype="datetime64[D]")}, "datetime64"),
        ({}, {"l_": [1.0, 2.0]}, "numpy.ndarray"),
        ({}, {"m_": np.ma.masked_array([1.0])}, "numpy.ndarray"),
        ({"a_": np.ones(3)}, {}, "numpy array"),
        ({"bad name": 1}, {}, "valid attribute name"),
        ({}, {"../x": np.ones(1)}, "valid attribute name"),
        ({"x_": 1}, {"x_": np.ones(1)}, "both"),
    ]
    if np.finfo(np.longdouble).bits > 64:
        cases.append(({}, {"ld_": np.ones(2, dtype=np.longdouble)}, "long double"))
    for attrs, arrays, fragment in cases:
        with pytest.raises(TypeError, match=fragment):
            save_model(StateHolder().fit(attrs, arrays), tmp_path / "m")
    assert os.listdir(tmp_path) == []


def test_unregistered_class_is_refused(tmp_path, data):
    class Unregistered(TinyRanker):
        pass

    X, y = data
    with pytest.raises(TypeError, match="not a registered"):
        save_model(Unregistered().fit(X, y), tmp_path / "m")


def test_registry():
    assert registered_models()["ModelIOTestRanker"] is TinyRanker
    assert register_model("ModelIOTestRanker", TinyRanker) is TinyRanker  # idempotent

    class Other(BaseEstimator):
        def _get_model_state(self):
            return {}, {}

        def _set_model_state(self, attributes, arrays):
            pass

    with pytest.raises(ValueError, match="already taken"):
        register_model("ModelIOTestRanker", Other)
    with pytest.raises(ValueError, match="already registered"):
        register_model("SomeOtherName", TinyRanker)
    with pytest.raises(TypeError, match="_get_model_state"):
        register_model(type("NoState", (BaseEstimator,), {}))
    with pytest.raises(ValueError, match="identifier"):
        register_model("not a name", Other)
    try:
        assert register_model(Other) is Other
        assert register_model("ModelIOTestOther2")(type("Y", (Other,), {})).__name__ == "Y"
        assert "Other" in registered_models() and "ModelIOTestOther2" in registered_models()
    finally:
        _model_io._REGISTRY.pop("Other", None)
        _model_io._REGISTRY.pop("ModelIOTestOther2", None)


# --------------------------------------------------------------------------------------
# loading: every damaged or foreign file is a one-line ValueError
# --------------------------------------------------------------------------------------


def test_nonexistent_path(tmp_path):
    path = tmp_path / "missing.rwm"
    with pytest.raises(FileNotFoundError, match="missing.rwm"):
        load_model(path)
    with pytest.raises(FileNotFoundError):
        inspect_model(path)


def test_truncated_file(model_path):
    raw = model_path.read_bytes()
    model_path.write_bytes(raw[: len(raw) // 2])
    _load_error(model_path, "not a readable ZIP archive")
    model_path.write_bytes(raw[:-5])
    _load_error(model_path)


def test_empty_file_and_random_bytes(tmp_path):
    empty = tmp_path / "empty.rwm"
    empty.write_bytes(b"")
    _load_error(empty, "not a readable ZIP archive")
    noise = tmp_path / "noise.rwm"
    noise.write_bytes(np.random.default_rng(1).bytes(4096))
    _load_error(noise, "not a readable ZIP archive")
    with pytest.raises(ModelFileError):
        inspect_model(noise)


def test_raw_byte_flip_in_array_member(model_path):
    with zipfile.ZipFile(model_path) as zf:
        info = zf.getinfo("arrays/coef_.npy")
    raw = bytearray(model_path.read_bytes())
    # the member's data start after its local header (30 bytes + name + extra field)
    name_len, extra_len = int.from_bytes(raw[info.header_offset + 26: info.header_offset + 28], "little"), int.from_bytes(
        raw[info.header_offset + 28: info.header_offset + 30], "little")
    start = info.header_offset + 30 + name_len + extra_len
    raw[start + info.compress_size // 2] ^= 0x10
    model_path.write_bytes(bytes(raw))
    _load_error(model_path, "arrays/coef_.npy", "corrupted")


def test_array_member_altered_checksum_mismatch(model_path, fitted):
    data = bytearray(_npy(fitted.coef_))
    data[-3] ^= 0x01  # one bit of the last coefficient, the zip itself stays valid
    _rewrite(model_path, array_bytes={"coef_": bytes(data)}, fix_array_sum=False)
    _load_error(model_path, "arrays/coef_.npy", "SHA-256", "corrupted")


def test_edited_json_fails_checksum(model_path):
    members = _members(model_path)
    text = members[JSON_MEMBER].decode()
    assert '"alpha": 0.3' in text
    members[JSON_MEMBER] = text.replace('"alpha": 0.3', '"alpha": 0.4').encode()
    _write_members(model_path, members)
    _load_error(model_path, "rankwise-model.json", "checksum")
    with pytest.raises(ModelFileError, match="checksum"):
        inspect_model(model_path)


def test_unparsable_json(model_path):
    members = _members(model_path)
    members[JSON_MEMBER] = members[JSON_MEMBER][:-20]
    _write_members(model_path, members)
    _load_error(model_path, "corrupted")  # the checksum says why it does not parse
    members[CHECKSUM_MEMBER] = f"{hashlib.sha256(members[JSON_MEMBER]).hexdigest()}  {JSON_MEMBER}\n".encode()
    _write_members(model_path, members)  # now the checksum matches the broken text
    _load_error(model_path, "not valid JSON")


def test_missing_checksum_member(model_path):
    _rewrite(model_path, fix_json_sum=False, drop=[CHECKSUM_MEMBER])
    _load_error(model_path, CHECKSUM_MEMBER, "missing")


def test_foreign_zip(tmp_path):
    path = tmp_path / "report.docx"
    _write_members(path, {"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"})
    _load_error(path, "not a rankwise model file", "word/document.xml")
    other = tmp_path / "other.zip"
    _write_members(other, {JSON_MEMBER: json.dumps({"format": "something-else"}).encode()})
    _load_error(other, "not a rankwise model file", "something-else")
    empty_zip = tmp_path / "empty.zip"
    _write_members(empty_zip, {})
    _load_error(empty_zip, "not a rankwise model file")


def test_npz_file(tmp_path):
    path = tmp_path / "weights.npz"
    np.savez(path, coef_=np.ones(3), intercept_=np.array(0.5))
    _load_error(path, "not a rankwise model file", ".npz")


def test_newer_format_version(model_path):
    def edit(doc):
        doc["format_version"] = 999
        doc["rankwise_version"] = "7.3.0"

    _rewrite(model_path, edit)
    msg = _load_error(model_path, "format version 999", "rankwise 7.3.0", "upgrade")
    assert f"up to {FORMAT_VERSION}" in msg
    with pytest.raises(ModelFileError, match="999"):
        inspect_model(model_path)


@pytest.mark.parametrize("bad", [0, -1, "1", 1.0, True, None])
def test_invalid_format_version(model_path, bad):
    _rewrite(model_path, lambda doc: doc.update(format_version=bad))
    _load_error(model_path, "format_version")


def test_unknown_estimator(model_path):
    _rewrite(model_path, lambda doc: doc.update(estimator="GradientBoostedRanker"))
    _load_error(model_path, "unknown estimator 'GradientBoostedRanker'", "ModelIOTestRanker")
    assert inspect_model(model_path)["estimator"] == "GradientBoostedRanker"  # inspect does not need the class


def test_array_member_missing(model_path):
    _rewrite(model_path, drop=["arrays/coef_.npy"])
    _load_error(model_path, "arrays/coef_.npy", "missing")
    with pytest.raises(ModelFileError, match="missing"):
        inspect_model(model_path)


def test_unexpected_member(model_path):
    _rewrite(model_path, extra={"arrays/extra_.npy": _npy(np.ones(2))})
    _load_error(model_path, "unexpected", "arrays/extra_.npy")


def test_array_dtype_and_shape_mismatch(model_path, fitted):
    # the description and the .npy header disagree (checksums consistent)
    _rewrite(model_path, array_bytes={"coef_": _npy(fitted.coef_.astype(np.float32))})
    _load_error(model_path, "arrays/coef_.npy", "<f4", "<f8")


def test_array_shape_mismatch(tmp_path, fitted):
    path = tmp_path / "m"
    save_model(fitted, path)
    _rewrite(path, array_bytes={"coef_": _npy(np.ones(5))})
    _load_error(path, "arrays/coef_.npy", "(5,)", "(4,)")
    save_model(fitted, path, overwrite=True)
    _rewrite(path, lambda doc: doc["arrays"]["coef_"].update(shape=[2, 2]))
    _load_error(path, "arrays/coef_.npy", "(4,)", "(2, 2)")


def test_truncated_array_payload(model_path, fitted):
    _rewrite(model_path, array_bytes={"coef_": _npy(fitted.coef_)[:-8]})
    _load_error(model_path, "arrays/coef_.npy", "bytes")


@pytest.mark.parametrize("declared", ["declared-object", "declared-float"])
def test_object_array_is_never_unpickled(model_path, monkeypatch, declared):
    evil = np.empty(4, dtype=object)
    evil[:] = [_Evil(), 1, 2, 3]
    payload = _npy(evil, allow_pickle=True)
    if declared == "declared-object":
        # the description admits it is an object array
        _rewrite(model_path, lambda doc: doc["arrays"]["coef_"].update(dtype="|O"), array_bytes={"coef_": payload})
        fragment = "object dtype"
    else:
        # the description lies (says <f8); the .npy header says object
        _rewrite(model_path, array_bytes={"coef_": payload})
        fragment = "object dtype"

    def boom(*a, **k):
        raise AssertionError("pickle must never be used by load_model")

    monkeypatch.setattr(pickle, "load", boom)
    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr(pickle, "Unpickler", boom)
    _UNPICKLED.clear()
    _load_error(model_path, fragment)
    assert _UNPICKLED == []


def test_bad_dtypes_in_description(model_path):
    for dtype, fragment in [("|V8", "dtype"), ("<M8[D]", "datetime64"), ("nonsense", "invalid dtype"),
                            (8, "invalid dtype"), ("f8", "non-canonical")]:
        _rewrite(model_path, lambda doc: doc["arrays"]["coef_"].update(dtype=dtype))
        _load_error(model_path, fragment)


def test_path_traversal_names_are_refused(model_path):
    def edit(doc):
        doc["arrays"]["coef_"]["file"] = "../../etc/passwd"

    _rewrite(model_path, edit)
    _load_error(model_path, "malformed description of the array 'coef_'")


def test_malformed_description(model_path):
    edits = [
        (lambda doc: doc.pop("params"), "missing params"),
        (lambda doc: doc.update(surprise=1), "unexpected surprise"),
        (lambda doc: doc.update(params=[1]), "'params' must be a dict"),
        (lambda doc: doc["params"].update(alpha={"__rankwise_type__": "set", "value": [1]}), "malformed tagged value"),
        (lambda doc: doc["attributes"].update({"__class__": "x"}), "invalid attribute name"),
    ]
    for edit, fragment in edits:
        members = _members(model_path)
        _rewrite(model_path, edit)
        _load_error(model_path, fragment)
        _write_members(model_path, members)
    assert type(load_model(model_path)) is TinyRanker  # the restores were faithful


def test_params_rejected_by_constructor(model_path):
    _rewrite(model_path, lambda doc: doc["params"].update(learning_rate=0.1))
    _load_error(model_path, "has no parameter learning_rate")


def test_state_rejected(model_path):
    _rewrite(model_path, lambda doc: doc["attributes"].pop("intercept_"))
    _load_error(model_path, "rejected the saved fitted state", "intercept_")


def test_missing_param_takes_its_default(model_path):
    # a parameter added in a later release is absent from older files: its default applies
    _rewrite(model_path, lambda doc: doc["params"].pop("scale"))
    assert load_model(model_path).scale is None


def test_duplicate_members_and_keys(model_path):
    members = _members(model_path)
    with zipfile.ZipFile(model_path, "a") as zf, pytest.warns(UserWarning):
        zf.writestr("arrays/coef_.npy", b"x")
    _load_error(model_path, "twice")
    text = members[JSON_MEMBER].decode().replace('"alpha": 0.3,', '"alpha": 0.3, "alpha": 5,')
    members[JSON_MEMBER] = text.encode()
    members[CHECKSUM_MEMBER] = f"{hashlib.sha256(members[JSON_MEMBER]).hexdigest()}  {JSON_MEMBER}\n".encode()
    _write_members(model_path, members)
    _load_error(model_path, "duplicate key")


def test_loading_never_pickles_and_writes_nothing(model_path, monkeypatch, data):
    def boom(*a, **k):
        raise AssertionError("pickle must never be used by load_model")

    monkeypatch.setattr(pickle, "load", boom)
    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr(pickle, "Unpickler", boom)
    folder = model_path.parent
    before = {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}
    os.chmod(model_path, 0o444)
    try:
        est = load_model(model_path)
        inspect_model(model_path)
    finally:
        os.chmod(model_path, 0o644)
    after = {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}
    assert before == after
    X, _ = data
    assert np.isfinite(est.decision_function(X)).all()


def test_stored_uncompressed_is_read_too(model_path):
    # writers other than save_model may choose ZIP_STORED
    _write_members(model_path, _members(model_path), compression=zipfile.ZIP_STORED)
    assert type(load_model(model_path)) is TinyRanker


# --------------------------------------------------------------------------------------
# hostile files: memory bounded by what the file declares, refused before allocating
# --------------------------------------------------------------------------------------

_MiB = 1 << 20


@contextlib.contextmanager
def _address_space(extra: int):
    """Cap this process's address space at its current size plus ``extra`` bytes while the
    block runs, so that code which would allocate gigabytes fails with MemoryError at once
    instead of taking the machine's memory (Linux only)."""
    resource = pytest.importorskip("resource")
    try:
        with open("/proc/self/status") as fh:
            vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    except (OSError, StopIteration):
        pytest.skip("needs /proc/self/status")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = vm + extra
    if hard != resource.RLIM_INFINITY and cap > hard:
        pytest.skip("the hard address-space limit is too low")
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _deflate(data: bytes) -> bytes:
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    return co.compress(data) + co.flush()


def _zero_bomb(head: bytes, n_zeros: int) -> bytes:
    """A raw DEFLATE stream of ``head`` then ``n_zeros`` zero bytes, built in milliseconds:
    after a full flush the compressor's state is reset, so every MiB of zeros compresses
    to the same bytes, which are repeated."""
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = [co.compress(head) + co.flush(zlib.Z_FULL_FLUSH)]
    block = co.compress(bytes(_MiB)) + co.flush(zlib.Z_FULL_FLUSH)
    out.append(block * (n_zeros // _MiB))
    out.append(co.compress(bytes(n_zeros % _MiB)) + co.flush())
    return b"".join(out)


def _raw_zip(path, members):
    """Write a ZIP archive by hand from ``(name, stored bytes, method, crc, file_size)``
    entries, so that a member can declare sizes its data do not have."""
    out, directory = bytearray(), bytearray()
    for name, data, method, crc, size in members:
        encoded = name.encode()
        offset = len(out)
        out += struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, 0, method, 0, 0x21, crc, len(data), size,
                           len(encoded), 0) + encoded + data
        directory += struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, 0, method, 0, 0x21, crc, len(data),
                                 size, len(encoded), 0, 0, 0, 0, 0o644 << 16, offset) + encoded
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(directory), len(out), 0)
    path.write_bytes(bytes(out + directory + end))


def _entry(name, data):
    return (name, _deflate(data), zipfile.ZIP_DEFLATED, zlib.crc32(data), len(data))


def _description(model_path, edit=None):
    """The JSON and checksum members of a model file after ``edit(doc)``, checksum fixed."""
    doc = json.loads(_members(model_path)[JSON_MEMBER])
    if edit is not None:
        edit(doc)
    raw = json.dumps(doc, indent=2).encode()
    return [_entry(JSON_MEMBER, raw), _entry(CHECKSUM_MEMBER, f"{hashlib.sha256(raw).hexdigest()}  {JSON_MEMBER}\n".encode())]


def test_declared_huge_array_is_refused_before_allocating(model_path, tmp_path):
    # the reproduction: a 3.9 MB file whose description (checksum consistent) and
    # archive directory both declare a 5e8-element float64 array, 4 GB of zeros once
    # inflated; it used to take 8 GB (and a MemoryError traceback from `rankwise score`)
    n = 500_000_000
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (n,)})
    head = header.getvalue()
    bomb = _zero_bomb(head, 8 * n)
    assert len(bomb) < 5 * _MiB

    def edit(doc):
        doc["arrays"]["coef_"].update(shape=[n], sha256="0" * 64)  # never reached: refused first

    path = tmp_path / "bomb.rwm"
    members = _description(model_path, edit) + [
        ("arrays/classes_.npy", *_entry("x", _members(model_path)["arrays/classes_.npy"])[1:]),
        ("arrays/coef_.npy", bomb, zipfile.ZIP_DEFLATED, 0, len(head) + 8 * n),
    ]
    _raw_zip(path, members)
    with _address_space(512 * _MiB):
        msg = _load_error(path, "4000000", "bytes", "max_bytes")
    assert "1073741824" in msg
    # a caller who means it can raise the limit; nothing else about the file is relaxed
    with _address_space(512 * _MiB), pytest.raises((ModelFileError, MemoryError)):
        load_model(path, max_bytes=100)


def test_max_bytes_bounds_a_valid_model(tmp_path):
    big = StateHolder().fit({"n": 1}, {"w": np.arange(1000, dtype=np.float64)})
    path = tmp_path / "m.rwm"
    save_model(big, path)
    with pytest.raises(ModelFileError, match="8000 bytes once loaded, more than the limit of 4000"):
        load_model(path, max_bytes=4000)
    np.testing.assert_array_equal(load_model(path, max_bytes=8000).arrays_["w"], np.arange(1000))
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(TypeError, match="max_bytes"):
            load_model(path, max_bytes=bad)


def test_oversized_checksum_member_is_not_read(model_path, tmp_path):
    # the checksum member is one line; one that inflates to 2 GB was read whole
    members = _members(model_path)
    line = members[CHECKSUM_MEMBER]
    entries = [_entry(JSON_MEMBER, members[JSON_MEMBER]),
               (CHECKSUM_MEMBER, _zero_bomb(line, 2_000_000_000), zipfile.ZIP_DEFLATED, 0, len(line) + 2_000_000_000)]
    entries += [_entry(name, data) for name, data in members.items() if name.startswith("arrays/")]
    path = tmp_path / "bomb.rwm"
    _raw_zip(path, entries)
    with _address_space(512 * _MiB):
        _load_error(path, CHECKSUM_MEMBER, "too large")
        with pytest.raises(ModelFileError, match="too large"):
            inspect_model(path)


def test_member_sizes_must_match_the_description(model_path, tmp_path, fitted):
    # the archive's directory says the member is small, the description says 80 MB
    def edit(doc):
        doc["arrays"]["coef_"]["shape"] = [10_000_000]

    members = _members(model_path)
    path = tmp_path / "small.rwm"
    _raw_zip(path, _description(model_path, edit) + [_entry(n, d) for n, d in members.items() if n.startswith("arrays/")])
    _load_error(path, "arrays/coef_.npy", "80000000 bytes")
    # a directory that claims 80 MB inflate from a few hundred compressed bytes lies
    data = _npy(np.zeros(10_000_000))
    small = _deflate(_npy(fitted.coef_))
    entries = _description(model_path, edit) + [_entry("arrays/classes_.npy", members["arrays/classes_.npy"]),
                                                ("arrays/coef_.npy", small, zipfile.ZIP_DEFLATED, 0, len(data))]
    _raw_zip(path, entries)
    _load_error(path, "arrays/coef_.npy", "more than its compression can produce")


def test_huge_zip_directory_is_refused_before_parsing(model_path, tmp_path):
    members = _members(model_path)
    entries = [_entry(n, d) for n, d in members.items()]
    entries += [(f"pad/{i:06d}" + "x" * 60, b"", zipfile.ZIP_STORED, 0, 0) for i in range(16_000)]
    path = tmp_path / "wide.rwm"
    _raw_zip(path, entries)
    _load_error(path, "ZIP directory", "bytes")


def test_symlink_to_dev_zero_is_refused_unread(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / "model.rwm"
    link.symlink_to("/dev/zero")
    with _address_space(512 * _MiB):  # it used to read /dev/zero until the machine ran out
        msg = _load_error(link, "character device", "/dev/zero", "not a regular file")
        with pytest.raises(ModelFileError, match="not a regular file"):
            inspect_model(link)
    assert "\n" not in msg


def test_fifo_and_directory_are_refused(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    import threading

    fifo = tmp_path / "model.rwm"
    os.mkfifo(fifo)
    outcome = []

    def load():
        try:
            load_model(fifo)
        except Exception as exc:  # recorded, checked below
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # it blocked opening the FIFO: release it, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(10)
        pytest.fail("load_model blocked on a FIFO")
    assert isinstance(outcome[0], ModelFileError) and "FIFO" in str(outcome[0]), outcome
    _load_error(tmp_path, "a directory", "not a regular file")


def test_file_size_is_bounded(model_path):
    # a file larger than any model within max_bytes is refused by its size (here a sparse
    # file: large, nothing written, nothing read)
    limit = _model_io._max_file_bytes(100)
    with open(model_path, "r+b") as fh:
        fh.truncate(limit + 1)
    with pytest.raises(ModelFileError, match=f"it is {limit + 1} bytes, more than a model file"):
        load_model(model_path, max_bytes=100)


def test_loading_takes_the_arrays_size_once(tmp_path):
    # each array is inflated straight into its own buffer, not read whole and then copied
    arr = np.random.default_rng(0).normal(size=1_000_000)
    path = tmp_path / "m.rwm"
    save_model(StateHolder().fit({}, {"w": arr}), path)
    tracemalloc.start()
    try:
        loaded = load_model(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(loaded.arrays_["w"], arr)
    assert peak < 1.25 * arr.nbytes, peak
