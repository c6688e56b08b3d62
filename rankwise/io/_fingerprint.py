"""Fingerprints of the data a result was computed from: a file's size and SHA-256, or the
SHA-256 of in-memory labels and scores, so that a report names exactly what it measured."""

from __future__ import annotations

import hashlib
import os
from typing import Any, Iterable

import numpy as np

__all__ = ["file_fingerprint", "array_fingerprint"]


def file_fingerprint(path: Any, *, name: str | None = None, chunk_size: int = 1 << 20) -> dict:
    """The size and SHA-256 of a file, read in chunks of ``chunk_size`` bytes.

    Returns ``{"name": ..., "size": bytes, "sha256": 64 hex digits}``; ``name`` defaults
    to the file's base name (the command line passes ``"standard input"`` for the copy of
    a pipe).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "scores.csv")
    >>> _ = open(path, "wb").write(b"abc")
    >>> fp = file_fingerprint(path)
    >>> fp["name"], fp["size"], fp["sha256"][:16]
    ('scores.csv', 3, 'ba7816bf8f01cfea')
    """
    path = os.fspath(path)
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while True:
            block = fh.read(chunk_size)
            if not block:
                break
            digest.update(block)
            size += len(block)
    return {"name": os.path.basename(path) if name is None else str(name), "size": size,
            "sha256": digest.hexdigest()}


def array_fingerprint(arrays: Iterable[tuple[str, Any]]) -> str:
    """SHA-256 (hex) of named arrays, in the given order: each name (UTF-8, with its
    length) and the array as little-endian float64 with its length, so that the same
    labels and scores give the same fingerprint whatever their input type (a list, an
    int or float array) and a different order or name gives another one.

    Examples
    --------
    >>> a = array_fingerprint([("y", [0, 1]), ("model", [0.2, 0.7])])
    >>> a == array_fingerprint([("y", np.array([0.0, 1.0])), ("model", (0.2, 0.7))])
    True
    >>> a == array_fingerprint([("y", [0, 1]), ("other", [0.2, 0.7])])
    False
    """
    digest = hashlib.sha256()
    for name, values in arrays:
        key = str(name).encode("utf-8")
        data = np.ascontiguousarray(np.asarray(values, dtype="<f8").ravel())
        digest.update(len(key).to_bytes(8, "little") + key + data.size.to_bytes(8, "little"))
        digest.update(data.tobytes())
    return digest.hexdigest()
