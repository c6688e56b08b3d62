"""Outputs that are not regular files (issue 27, item 2): a named pipe, a socket, a device
node, a folder, or a symbolic link to one of them, standing where rankwise would write, is
refused with or without ``force`` by ``check_output``, ``write_atomic`` and ``save_model``,
without being opened (a pipe with no reader would block) and without being replaced.

The risky calls (anything that might open a pipe for writing) run in a child process
with a timeout, so a regression hangs the child, not the test run."""

import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

from rankwise.io import _atomic, check_output, write_atomic


@pytest.fixture
def short_dir():
    """A folder with a short path: an AF_UNIX socket path is limited to ~107 bytes."""
    d = tempfile.mkdtemp(prefix="rw27-", dir="/tmp")
    yield d
    shutil.rmtree(d)


def _fifo(d):
    path = os.path.join(d, "out.fifo")
    os.mkfifo(path)
    return path


def _socket(d):
    path = os.path.join(d, "out.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.close()  # the socket file stays
    return path


def _device(d):
    """A character device like /dev/null (major 1, minor 3) made here, never the real one."""
    path = os.path.join(d, "null")
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    return path


MAKERS = {"fifo": _fifo, "socket": _socket, "device": _device}
KINDS = {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}


def _target(kind, d, via_link):
    node = MAKERS[kind](d)
    if not via_link:
        return node, node
    link = os.path.join(d, "link.out")
    os.symlink(node, link)
    return node, link


def _run_child(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter limited to 4 GiB of address space."""
    prelude = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    """)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)


def test_write_atomic_refuses_every_non_regular_output(short_dir):
    # Every kind, directly and through a link, with and without force, with the anonymous
    # and the named temporary file: all in one child (a regression that opens the FIFO
    # for writing would block it, and the timeout ends it).
    cases = []
    for kind in ("fifo", "socket", "device"):
        sub = os.path.join(short_dir, kind)
        os.mkdir(sub)
        node = MAKERS[kind](sub)
        link = os.path.join(sub, "link.out")
        os.symlink(node, link)
        cases += [(kind, node, out, force, named) for out in (node, link) for force in (False, True)
                  for named in (False, True)]
    before = {c[1]: os.lstat(c[1]) for c in cases}
    code = f"""
        from rankwise.io import _atomic, write_atomic
        anonymous = _atomic._anonymous
        for kind, node, out, force, named in {cases!r}:
            _atomic._anonymous = (lambda folder: None) if named else anonymous
            try:
                write_atomic(out, "results\\n", force=force)
            except ValueError as exc:
                print("REFUSED", exc)
            else:
                print("WRITTEN", out)
    """
    r = _run_child(code, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(cases)
    for (kind, node, out, force, named), line in zip(cases, lines):
        assert line.startswith("REFUSED") and "not a regular file" in line, (kind, out, force, named, line)
        assert ("symbolic link" in line) == (out != node)
    for kind, node, out, force, named in cases:
        after = os.lstat(node)
        assert KINDS[kind](after.st_mode)
        assert (after.st_ino, after.st_rdev) == (before[node].st_ino, before[node].st_rdev)
        assert out == node or os.readlink(out) == node
    for kind in ("fifo", "socket", "device"):  # nothing left behind
        assert len(os.listdir(os.path.join(short_dir, kind))) == 2


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_check_output_refuses_without_opening(short_dir, kind):
    # A FIFO with no reader: opening it for writing would block; lstat/stat do not.
    node = MAKERS[kind](short_dir)
    for force in (False, True):
        with pytest.raises(ValueError, match=r"not a regular file.*even with --force"):
            check_output(node, force=force, option="--force")
    assert KINDS[kind](os.lstat(node).st_mode)


def test_link_to_a_folder_is_refused_and_links_to_regular_files_keep_todays_rule(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "to_folder"
    link.symlink_to(folder)
    with pytest.raises(IsADirectoryError):
        write_atomic(link, "x", force=True)
    assert link.is_symlink() and folder.is_dir()
    # a link to a regular file: replaced itself with force, its target kept (the existing rule)
    target = tmp_path / "t.txt"
    target.write_text("keep")
    ln = tmp_path / "o.txt"
    ln.symlink_to(target)
    write_atomic(ln, "new", force=True)
    assert target.read_text() == "keep" and ln.read_text() == "new" and not ln.is_symlink()
    # a chain of links ending at a FIFO is followed to its end
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    a, b = tmp_path / "a", tmp_path / "b"
    b.symlink_to(fifo)
    a.symlink_to(b)
    with pytest.raises(ValueError, match="named pipe"):
        check_output(a, force=True)
    assert a.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("named", [False, True], ids=["anonymous", "named-tmp"])
def test_a_pipe_made_while_writing_is_not_replaced(tmp_path, monkeypatch, named):
    # check_output passes (nothing there); the FIFO appears while the data is written:
    # the last-moment check before the rename keeps it, and no temporary file is left.
    if named:
        monkeypatch.setattr(_atomic, "_anonymous", lambda folder: None)
    out = tmp_path / "o.txt"

    def data(f):
        os.mkfifo(out)
        f.write("results")

    with pytest.raises(ValueError, match="named pipe"):
        write_atomic(out, data, force=True)
    assert stat.S_ISFIFO(os.lstat(out).st_mode) and os.listdir(tmp_path) == ["o.txt"]


def test_empty_path_and_a_file_as_folder_are_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        check_output("", force=True)
    f = tmp_path / "data.csv"
    f.write_text("y\n1\n")
    with pytest.raises(NotADirectoryError, match="is not a folder"):
        check_output(f / "sub" / "out.txt", force=True)
    assert f.read_text() == "y\n1\n"


def test_save_model_refuses_a_non_regular_output(short_dir):
    outs = []
    for kind in ("fifo", "socket", "device"):
        sub = os.path.join(short_dir, kind)
        os.mkdir(sub)
        node = MAKERS[kind](sub)
        link = os.path.join(sub, "link.rwm")
        os.symlink(node, link)
        outs += [(kind, node, node), (kind, node, link)]
    code = f"""
        import numpy as np
        import rankwise
        X = np.random.default_rng(0).normal(size=(40, 2))
        m = rankwise.BBRRanker().fit(X, np.arange(40) % 2)
        for kind, node, out in {outs!r}:
            for overwrite in (False, True):
                try:
                    rankwise.save_model(m, out, overwrite=overwrite)
                except ValueError as exc:
                    print("REFUSED", overwrite, exc)
                except FileExistsError as exc:
                    print("EXISTS", overwrite, exc)
                else:
                    print("WRITTEN", overwrite)
    """
    r = _run_child(code, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 * len(outs) and all(line.startswith("REFUSED") for line in lines), r.stdout
    assert all("overwrite=True" in line for line in lines)
    for kind, node, out in outs:
        assert KINDS[kind](os.lstat(node).st_mode)
        assert out == node or os.readlink(out) == node


def test_save_model_keeps_replacing_a_regular_file(tmp_path):
    import rankwise

    m = rankwise.BBRRanker().fit(np.random.default_rng(0).normal(size=(40, 2)), np.arange(40) % 2)
    out = tmp_path / "m.rwm"
    out.write_bytes(b"old")
    rankwise.save_model(m, out, overwrite=True)
    assert out.read_bytes()[:2] == b"PK"
