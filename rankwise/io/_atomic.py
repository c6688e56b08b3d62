"""Writing outputs: one rule for every file rankwise writes, so that no file the user has
is ever lost, clobbered or left half-written.

The rule (:func:`check_output`, applied again by :func:`write_atomic` at the moment of
writing):

* an output that is one of the inputs (the same file however it is reached: another
  spelling of the path, a symbolic link, a hard link) or lies inside an input folder is
  refused, even with ``force``: replacing it would destroy the data being read;
* an output that is a directory is refused;
* an existing output that is not a regular file (a named pipe, a socket, a device such
  as ``/dev/null`` or ``/dev/stdout``), or a symbolic link to one, is refused even with
  ``force``: it is somebody's endpoint, not a file of results, and replacing it (as root,
  the system's ``/dev/null``) would break whatever uses it. It is only looked at
  (``lstat``/``stat``), never opened, so a pipe without a reader cannot block the check;
* an existing output is replaced only with ``force`` (``--force`` on the command line).
  A symbolic link counts as existing even when it points nowhere (a dangling link is
  someone's file, or a mistake worth hearing about); with ``force`` a link (dangling, or
  to a regular file) is itself replaced and its target is left alone;
* without ``force`` the output is created exclusively: if another process creates the
  same file while rankwise writes, the final step fails with ``FileExistsError`` and the
  other file stays as it was, so two concurrent writers cannot both succeed silently.

How a file is written: the data goes to a temporary file in the output's folder, then
the file is put in place in one step, so the output is either absent, its old self or
complete. On Linux the temporary file is anonymous (``O_TMPFILE``): it has no name until
it is linked in place (``linkat`` through ``/proc/self/fd``), so even ``kill -9``
mid-write leaves nothing behind. Elsewhere it is a hidden named file, removed on every
exit path Python controls (exceptions, ``KeyboardInterrupt``, ``SystemExit``); only a
hard kill can leave it.
"""

from __future__ import annotations

import errno
import glob
import os
import secrets
import tempfile
from typing import IO, Callable, Iterable, Union

__all__ = ["write_atomic", "check_output"]

_PathLike = Union[str, "os.PathLike[str]"]
_GLOB_CHARS = "*?["


def check_output(path: _PathLike, *, force: bool = False, inputs: Iterable[_PathLike] = (),
                 option: str = "force=True") -> str:
    """Check ``path`` against the output rule of this module before anything is computed
    or written, and return it as a string.

    ``inputs`` are the files (or folders, or glob patterns) the command reads; ``option``
    names, in the messages, what allows replacing (``"--force"`` on the command line).
    Raises ``ValueError`` for an output that is an input or an existing non-regular file
    (a pipe, socket or device, or a link to one: :func:`_refuse_special`),
    ``IsADirectoryError`` for a directory and ``FileExistsError`` for an existing output
    without ``force``.
    """
    path = os.fspath(path)
    if not path:
        raise ValueError("the output path is empty; name a file to write")
    if "\x00" in path:
        raise ValueError("the output path holds a NUL character; name a file to write")
    _refuse_inputs(path, inputs)
    _refuse_bad_folder(path)
    if os.path.isdir(path):
        raise IsADirectoryError(f"the output {path} is a directory")
    _refuse_special(path, option)
    if not force and os.path.lexists(path):
        if os.path.islink(path) and not os.path.exists(path):
            raise FileExistsError(f"the output {path} is a symbolic link to the missing {os.readlink(path)}; "
                                  f"pass {option} to replace the link")
        raise FileExistsError(f"the output {path} exists; pass {option} to replace it")
    return path


def _kind(mode: int) -> str | None:
    """What a file that is not a regular one is, in words; None for a regular file."""
    import stat

    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return name
    return "not a regular file"


def _refuse_special(path: str, option: str = "force=True") -> None:
    """Refuse, with or without ``force``, an existing ``path`` that is not a regular file,
    or a symbolic link whose target is not one (followed to the end); a dangling link or
    a link loop is left to the rule on existing outputs. Only ``lstat``/``stat`` are used:
    nothing is opened, so a FIFO cannot block here."""
    try:
        st = os.lstat(path)
    except OSError:
        return  # nothing there (or not reachable: the write reports it)
    import stat

    what = _kind(st.st_mode) if not stat.S_ISLNK(st.st_mode) else None
    via = ""
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.stat(path)
        except OSError:
            return  # dangling or a loop: an existing link like any other
        what = _kind(target.st_mode)
        via = f" (a symbolic link to {os.path.realpath(path)})"
    if what is not None:
        raise ValueError(f"the output {path}{via} is {what}, not a regular file; rankwise writes outputs only "
                         f"as regular files and never replaces anything else, even with {option}")


def _refuse_bad_folder(path: str) -> None:
    """The output's folder is made when missing; refuse, before any work, a path whose
    nearest existing ancestor is not a folder (``data.csv/out.txt``)."""
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent
    if not os.path.isdir(folder):
        raise NotADirectoryError(f"the output {path} cannot be written: {folder} is not a folder")


def _refuse_inputs(path: str, inputs: Iterable[_PathLike]) -> None:
    """The output may not be an input file, reached by any path, nor lie inside an input
    folder (a directory of Parquet parts, say)."""
    try:
        out = os.stat(path)
    except OSError:
        out = None  # nothing there (yet): it can only clash with an input folder
    real = os.path.realpath(path)
    for given in inputs:
        given = os.fspath(given)
        names = [given]
        if not os.path.lexists(given) and any(c in given for c in _GLOB_CHARS):
            names = glob.glob(given)
        for name in names:
            if os.path.isdir(name):
                folder = os.path.realpath(name)
                if os.path.commonpath([folder, real]) == folder:
                    raise ValueError(f"the output {path} is inside the input folder {given}; "
                                     "write it somewhere else")
                continue
            try:
                st = os.stat(name)
            except OSError:
                continue  # an input that is not there is the reader's error to report
            if out is not None and (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
                same = given if name == given else f"{name} (of {given})"
                raise ValueError(f"the output {path} is the input {same}; write it to another file")


def write_atomic(path: _PathLike, data: Union[str, bytes, Callable[[IO], None]], binary: bool = False, *,
                 force: bool = False, inputs: Iterable[_PathLike] = (), option: str = "force=True") -> None:
    """Write ``data`` to ``path`` under the rule of this module: a temporary file in the
    same folder, then one step that puts it in place (an exclusive link without
    ``force``, a rename over the old file with it).

    ``data`` is text (or bytes with ``binary=True``) or a callable that writes into the
    open file (e.g. ``lambda f: np.savez_compressed(f, **arrays)``). ``inputs`` and
    ``option`` are as in :func:`check_output`, which runs first. On any error nothing is
    left behind and ``path`` is untouched; ``FileExistsError`` when, without ``force``,
    ``path`` appeared while writing.
    """
    path = check_output(path, force=force, inputs=inputs, option=option)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd = _anonymous(folder)
    if fd is not None:
        try:
            _fill(fd, data, binary)
            _place_anonymous(fd, path, force, option)
        finally:
            os.close(fd)
        return
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        try:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual mode
            _fill(fd, data, binary)
        finally:
            os.close(fd)
        _place_named(tmp, path, force, option)
    finally:
        # Every exit Python sees (errors, KeyboardInterrupt, SystemExit) removes the name.
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _anonymous(folder: str) -> int | None:
    """An unnamed file in ``folder`` (Linux ``O_TMPFILE``), or None where the system or
    the file system has none, or ``/proc`` is missing to link it by."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY | os.O_CLOEXEC, 0o666)  # the umask applies
    except OSError:
        return None  # e.g. EOPNOTSUPP; a real problem with the folder shows again on the named file


def _fill(fd: int, data, binary: bool) -> None:
    """Write ``data`` through ``fd`` (left open) and make it durable before it is placed:
    a rename of an unflushed file can leave an empty output after a power loss."""
    kw = {} if binary else {"encoding": "utf-8"}
    with os.fdopen(fd, "wb" if binary else "w", closefd=False, **kw) as f:
        if callable(data):
            data(f)
        else:
            f.write(data)
        f.flush()
        os.fsync(fd)


def _taken(path: str, option: str) -> FileExistsError:
    return FileExistsError(f"the output {path} was created by someone else while rankwise wrote it; "
                           f"it was left as it is (pass {option} to replace it)")


def _place_anonymous(fd: int, path: str, force: bool, option: str) -> None:
    """Give the unnamed file its name: ``link`` fails if the name exists, so without
    ``force`` that is the exclusive step; with it, link under a fresh hidden name and
    rename over the old file (only that instant can leave a name behind).

    The link goes through ``/proc/self/fd`` with ``AT_SYMLINK_FOLLOW``, which Python's
    ``os.link`` passes to ``linkat`` only when a directory descriptor is given."""
    proc = f"/proc/self/fd/{fd}"
    folder, base = os.path.split(os.path.abspath(path))
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if not force:
            try:
                os.link(proc, base, dst_dir_fd=dir_fd, follow_symlinks=True)
            except FileExistsError:
                raise _taken(path, option) from None
            return
        while True:
            tmp = f".{base}.{secrets.token_hex(4)}.tmp"
            try:
                os.link(proc, tmp, dst_dir_fd=dir_fd, follow_symlinks=True)
                break
            except FileExistsError:
                continue
        try:
            _refuse_special(path, option)  # again at the last moment: a pipe made meanwhile is kept
            os.replace(tmp, base, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            os.unlink(tmp, dir_fd=dir_fd)
            raise
    finally:
        os.close(dir_fd)


def _place_named(tmp: str, path: str, force: bool, option: str) -> None:
    """Put the named temporary file in place: a rename with ``force``; without, a hard
    link (which fails if the name exists), or where the file system has no hard links,
    the name reserved by an exclusive create and then renamed over."""
    if force:
        _refuse_special(path, option)  # again at the last moment: a pipe made meanwhile is kept
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
        return
    except FileExistsError:
        raise _taken(path, option) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:
        raise _taken(path, option) from None
    os.replace(tmp, path)
