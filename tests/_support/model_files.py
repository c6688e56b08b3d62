"""Crafted model files: a saved rankwise model (a ZIP of ``rankwise-model.json``,
``rankwise-model.sha256`` and ``arrays/*.npy`` members, each array's SHA-256 recorded in
the description) rewritten with edits and every checksum recomputed, as a hostile or
careless writer would, so that only the checks meant for such a file can refuse it; and
the assertion that ``load_model`` refuses a file with a one-line ``ModelFileError``."""

import hashlib
import io
import json
import zipfile

import numpy as np
import pytest

import rankwise

JSON_MEMBER = "rankwise-model.json"
CHECKSUM_MEMBER = "rankwise-model.sha256"


def members(path):
    """The members of the model file ``path`` (or of the file's bytes), in their order."""
    with zipfile.ZipFile(io.BytesIO(path) if isinstance(path, bytes) else path) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def write(path, members, compression=zipfile.ZIP_DEFLATED):
    """Write ``members`` (in their order) to ``path``, the checksum member recomputed from
    the description member (in place in ``members``)."""
    members[CHECKSUM_MEMBER] = f"{hashlib.sha256(members[JSON_MEMBER]).hexdigest()}  {JSON_MEMBER}\n".encode()
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def description(path):
    """The decoded description (``rankwise-model.json``) of the model file ``path``."""
    return json.loads(members(path)[JSON_MEMBER])


def array(path, name):
    """A writable copy of the array ``name`` of the model file ``path``."""
    files = members(path)
    entry = json.loads(files[JSON_MEMBER])["arrays"][name]
    return np.load(io.BytesIO(files[entry["file"]]), allow_pickle=False).copy()


def npy(arr):
    """``arr`` encoded as a ``.npy`` member."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=False)
    return buf.getvalue()


def rewrite(path, edit=None, *, params=None, attributes=None, arrays=None, payload=None, source=None,
            indent=None, compression=zipfile.ZIP_DEFLATED):
    """Rewrite the model file ``path`` with every checksum recomputed, the member order kept.

    ``edit(doc)`` changes the decoded description; ``params`` and ``attributes`` update its
    top-level parameters and attributes; ``arrays`` (name -> array) replaces array members,
    each re-encoded with its dtype, shape and SHA-256 updated in the description;
    ``payload`` (bytes or str) replaces the ``booster_`` array by those bytes (uint8).
    ``source`` (a path or a file's bytes) is read instead of ``path``; the description is
    written with ``json.dumps(doc, indent=indent)``. Returns ``path``."""
    files = members(path if source is None else source)
    doc = json.loads(files[JSON_MEMBER])
    if edit is not None:
        edit(doc)
    if params is not None:
        doc["params"].update(params)
    if attributes is not None:
        doc["attributes"].update(attributes)
    arrays = dict(arrays or {})
    if payload is not None:
        arrays["booster_"] = np.frombuffer(payload.encode() if isinstance(payload, str) else payload, dtype=np.uint8)
    for name, arr in arrays.items():
        data = npy(arr)
        entry = doc["arrays"][name]
        files[entry["file"]] = data
        entry.update(dtype=arr.dtype.str, shape=list(arr.shape), sha256=hashlib.sha256(data).hexdigest())
    files[JSON_MEMBER] = json.dumps(doc, indent=indent).encode()
    return write(path, files, compression)


def refused(path, *fragments, in_path=True):
    """Assert that ``load_model(path)`` raises a one-line ``ModelFileError`` holding every
    fragment (and the file's path, unless ``in_path`` is false); its message."""
    with pytest.raises(rankwise.ModelFileError) as info:
        rankwise.load_model(path)
    msg = str(info.value)
    assert "\n" not in msg, msg
    if in_path:
        assert str(path) in msg, msg
    for fragment in fragments:
        assert fragment in msg, msg
    return msg
