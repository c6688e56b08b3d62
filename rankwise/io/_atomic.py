"""Writing outputs without ever leaving a half-written or clobbered file behind."""

from __future__ import annotations

import os
import tempfile
from typing import Callable, IO, Union

__all__ = ["write_atomic"]


def write_atomic(path: str, data: Union[str, bytes, Callable[[IO], None]], binary: bool = False) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory,
    then ``os.replace``. ``data`` is text (or bytes with ``binary=True``) or a callable
    that writes into the open file (e.g. ``lambda f: np.savez_compressed(f, **arrays)``).
    On any error the temporary file is removed and ``path`` is untouched."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual mode
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
