"""Saving and loading fitted estimators without pickle.

A model file is a ZIP archive holding a JSON description of the estimator
(``rankwise-model.json``: class name, constructor parameters, fitted scalars), the
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
FORMAT_VERSION = 1
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
_ARRAY_KEYS = {"file", "dtype", "shape", "sha256"}

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


def _encode(value: Any, where: str) -> Any:
    """A JSON-able, exactly decodable copy of ``value``; ``where`` names it in errors."""
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
        return {_TYPE_KEY: "float", "value": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return {_TYPE_KEY: "tuple", "value": [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where} is a dict with a non-string key {k!r}; only string keys can be saved.")
            if k == _TYPE_KEY:
                raise TypeError(f"{where} is a dict with the reserved key {_TYPE_KEY!r}.")
            out[k] = _encode(v, f"{where}[{k!r}]")
        return out
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


def _decode(value: Any, where: str) -> Any:
    """Inverse of :func:`_encode`; raises ``ValueError`` on a malformed tag."""
    if isinstance(value, list):
        return [_decode(v, where) for v in value]
    if isinstance(value, dict):
        if _TYPE_KEY in value:
            tag = value[_TYPE_KEY]
            if set(value) != {_TYPE_KEY, "value"}:
                raise ValueError(f"malformed tagged value in {where}")
            if tag == "tuple" and isinstance(value["value"], list):
                return tuple(_decode(v, where) for v in value["value"])
            if tag == "float" and value["value"] in ("nan", "inf", "-inf"):
                return float(value["value"])
            raise ValueError(f"malformed tagged value in {where}")
        return {k: _decode(v, where) for k, v in value.items()}
    return value


def _short_repr(value: Any, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
    """Save a fitted, registered estimator to ``path`` (a ZIP archive; see
    ``docs/model_format.md``), atomically: ``path`` is either the complete new file or
    left as it was.

    ``metadata`` is an optional JSON-able dict (string keys) stored with the model and
    returned by :func:`inspect_model`. An existing ``path`` is refused with
    ``FileExistsError`` unless ``overwrite=True``. Raises ``NotFittedError`` for an
    unfitted estimator and ``TypeError`` for an unregistered class or a value that
    cannot be stored without pickle (e.g. a callable parameter), naming it.
    """
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    path = os.fspath(path)
    cls = type(estimator)
    name = _name_of(cls)
    if name is None:
        _ensure_builtin_models()
        name = _name_of(cls)
    if name is None:
        raise TypeError(
            f"Cannot save a {cls.__qualname__}: it is not a registered rankwise model class "
            f"(registered: {', '.join(sorted(_REGISTRY)) or 'none'}). Use rankwise's register_model."
        )
    try:
        check_is_fitted(estimator)
    except NotFittedError as exc:
        raise NotFittedError(f"Cannot save this {cls.__name__}: it is not fitted yet; call fit first.") from exc
    check_output(path, force=overwrite, option="overwrite=True")  # the rule of every output

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
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise TypeError(f"The 'metadata' argument of save_model must be a dict or None. Got {type(metadata).__name__} instead.")
    enc_metadata = _encode(metadata, "The 'metadata' argument of save_model")

    members: list[tuple[str, bytes]] = []
    manifest = {}
    for k, arr in arrays.items():
        if type(arr) is not np.ndarray:
            raise TypeError(
                f"The fitted array {k!r} of {cls.__name__} must be a numpy.ndarray. Got {type(arr).__name__} instead."
            )
        problem = _dtype_problem(arr.dtype)
        if problem is not None:
            raise TypeError(f"The fitted array {k!r} of {cls.__name__} cannot be saved without pickle: {problem}.")
        data = _npy_bytes(arr)
        file = f"{ARRAY_DIR}{k}.npy"
        manifest[k] = {"file": file, "dtype": arr.dtype.str, "shape": list(arr.shape),
                       "sha256": hashlib.sha256(data).hexdigest()}
        members.append((file, data))

    from .._version import __version__

    now = datetime.now(timezone.utc).replace(microsecond=0)
    header = {
        "format": FORMAT_TAG,
        "format_version": FORMAT_VERSION,
        "rankwise_version": __version__,
        "estimator": name,
        "params": params,
        "attributes": enc_attributes,
        "arrays": manifest,
        "created": now.isoformat(),
        "metadata": enc_metadata,
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
        if exc is not None:
            msg += f" ({_one_line(exc)})"
        return ModelFileError(" ".join(msg.split()))

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
            raise self.fail(f"the member '{info.filename}' uses compression method {info.compress_type}; "
                            "model files use DEFLATE or none")
        if info.compress_size > self.size:
            raise self.fail(f"the member '{info.filename}' claims {info.compress_size} compressed bytes in a file of "
                            f"{self.size}; the file is truncated or corrupted")
        bound = info.compress_size if info.compress_type == zipfile.ZIP_STORED else (
            _MAX_DEFLATE_RATIO * info.compress_size + 1024)
        if info.file_size > bound:
            raise self.fail(f"the member '{info.filename}' claims {info.file_size} bytes from {info.compress_size} "
                            "compressed bytes, more than its compression can produce; the file is corrupted")

    def read_member(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, what: str) -> bytes:
        """A small member's bytes, refused unread when the archive says it is over ``limit``."""
        if info.file_size > limit:
            raise self.fail(f"'{info.filename}' is {info.file_size} bytes, too large for {what}")
        self.check_member(info)
        try:
            with zf.open(info) as member:
                data = member.read(info.file_size)
                if len(data) != info.file_size or member.read(1):
                    raise EOFError(f"{len(data)} bytes where the archive says {info.file_size}")
                return data
        except _READ_ERRORS as exc:
            raise self.fail(f"the member '{info.filename}' is unreadable; the file is corrupted or truncated", exc) from exc

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
                shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
                hint = f"it holds {shown}" if names else "the archive is empty"
            raise self.fail(f"not a rankwise model file: no '{JSON_MEMBER}' member ({hint})")
        raw = self.read_member(zf, infos[JSON_MEMBER], _MAX_JSON_BYTES, "a model description")
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
            doc = json.loads(raw.decode("utf-8"), parse_constant=reject_constant, object_pairs_hook=unique_keys)
        except (ValueError, RecursionError) as exc:
            if stored_sum is not None and stored_sum != actual_sum:
                raise self.fail(f"'{JSON_MEMBER}' fails its SHA-256 checksum; the file is corrupted") from exc
            raise self.fail(f"'{JSON_MEMBER}' is not valid JSON", exc) from exc
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_TAG:
            tag = doc.get("format") if isinstance(doc, dict) else None
            raise self.fail(
                f"not a rankwise model file ('{JSON_MEMBER}' has format {tag!r}, expected {FORMAT_TAG!r})"
            )
        version = doc.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise self.fail(f"invalid format_version {_short_repr(version)}")
        if version > FORMAT_VERSION:
            writer = doc.get("rankwise_version")
            writer = _short_repr(writer, 40) if not isinstance(writer, str) else writer[:40]
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
        if keys != _HEADER_KEYS:
            missing, extra = sorted(_HEADER_KEYS - keys), sorted(keys - _HEADER_KEYS)
            raise self.fail(
                "malformed description:"
                + (f" missing {', '.join(missing)}" if missing else "")
                + (f" unexpected {', '.join(extra)}" if extra else "")
            )
        for key, typ in (("rankwise_version", str), ("estimator", str), ("created", str),
                         ("params", dict), ("attributes", dict), ("arrays", dict), ("metadata", dict)):
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
            params = _decode(doc["params"], "params")
            attributes = _decode(doc["attributes"], "attributes")
            metadata = _decode(doc["metadata"], "metadata")
        except ValueError as exc:
            raise self.fail(f"malformed description: {exc}") from exc
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
            shown = ", ".join(extra[:5]) + (", ..." if len(extra) > 5 else "")
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
                raise self.fail(f"the member '{info.filename}' is unreadable; the file is corrupted or truncated",
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
    ``sha256``), ``created`` and ``metadata``. The JSON's checksum is verified and
    every array member must be present; the arrays' own checksums are verified by
    :func:`load_model`. Raises :class:`ModelFileError` (a ``ValueError``) for a file
    that is not a valid model and ``FileNotFoundError`` for a missing path.
    """
    _, header, _ = _open_checked(path, with_arrays=False)
    return header


def load_model(path: Union[str, os.PathLike], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """Load an estimator saved by :func:`save_model`.

    Nothing from the file is executed: the class is looked up among the registered
    ones, the parameters go through its constructor, the fitted state through its
    ``_set_model_state``, and each array is copied into a plain NumPy array (never
    unpickled) once its ``.npy`` header has been checked against the description's
    dtype and shape. Anything wrong with the file (not a ZIP, truncated, foreign,
    corrupted, edited, newer format, unknown estimator, rejected parameters or state)
    raises :class:`ModelFileError`, a ``ValueError`` with a one-line message; a missing
    path raises ``FileNotFoundError``. Loading writes nothing.

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
    cls = _REGISTRY.get(name)
    if cls is None:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise reader.fail(
            f"unknown estimator {_short_repr(name, 40)} (written by rankwise {header['rankwise_version'][:40]}); "
            f"registered: {known}"
        )
    params = header["params"]
    get_names = getattr(cls, "_get_param_names", None)
    if callable(get_names):
        unknown = sorted(set(params) - set(get_names()))
        if unknown:
            raise reader.fail(f"{name} has no parameter {', '.join(unknown)}")
    try:
        estimator = cls(**params)
    except Exception as exc:
        raise reader.fail(f"{name} rejected the saved parameters", exc) from exc
    try:
        estimator._set_model_state(dict(header["attributes"]), arrays)
        check_is_fitted(estimator)
    except NotFittedError as exc:
        raise reader.fail(f"the saved state does not make a fitted {name}") from exc
    except Exception as exc:
        raise reader.fail(f"{name} rejected the saved fitted state", exc) from exc
    return estimator
