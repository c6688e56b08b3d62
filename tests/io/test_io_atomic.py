"""rankwise.io.write_atomic and check_output: the one rule for every output (issue 14, item 2)."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from rankwise.io import _atomic, check_output, write_atomic


def _has_tmpfile(folder):
    fd = _atomic._anonymous(str(folder))
    if fd is None:
        return False
    os.close(fd)
    return True


@pytest.fixture(params=["anonymous", "named"])
def mode(request, monkeypatch, tmp_path):
    """Every test runs with the Linux unnamed temporary file and with the named fallback
    used where O_TMPFILE is missing."""
    if request.param == "named":
        monkeypatch.setattr(_atomic, "_anonymous", lambda folder: None)
    elif not _has_tmpfile(tmp_path):
        pytest.skip("no O_TMPFILE here")
    return request.param


def test_writes_text_bytes_and_callables_with_the_usual_mode(tmp_path, mode):
    write_atomic(tmp_path / "a.txt", "héllo\n")
    write_atomic(tmp_path / "b.bin", b"\x00\x01", binary=True)
    write_atomic(tmp_path / "sub" / "c.txt", lambda f: f.write("x"))
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo\n"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "sub" / "c.txt").read_text() == "x"
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / "a.txt").st_mode & 0o777 == 0o666 & ~umask
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.bin", "sub"]


def test_existing_output_is_replaced_only_with_force(tmp_path, mode):
    out = tmp_path / "o.txt"
    out.write_text("precious")
    with pytest.raises(FileExistsError, match="force=True"):
        write_atomic(out, "new")
    assert out.read_text() == "precious"
    write_atomic(out, "new", force=True)
    assert out.read_text() == "new" and os.listdir(tmp_path) == ["o.txt"]
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x", force=True)


def test_dangling_symlink_counts_as_an_existing_output(tmp_path, mode):
    # save_model always refused this; write_atomic replaced the link silently.
    link = tmp_path / "o.txt"
    link.symlink_to(tmp_path / "missing" / "target.txt")
    with pytest.raises(FileExistsError, match="symbolic link to the missing"):
        write_atomic(link, "new")
    assert link.is_symlink()
    # With force the link itself is replaced; nothing is written where it pointed.
    write_atomic(link, "new", force=True)
    assert not link.is_symlink() and link.read_text() == "new" and not (tmp_path / "missing").exists()


def test_live_symlink_is_replaced_with_force_and_its_target_is_kept(tmp_path, mode):
    target = tmp_path / "target.txt"
    target.write_text("keep")
    link = tmp_path / "o.txt"
    link.symlink_to(target)
    with pytest.raises(FileExistsError):
        write_atomic(link, "new")
    write_atomic(link, "new", force=True)
    assert target.read_text() == "keep" and link.read_text() == "new" and not link.is_symlink()


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hardlink", "input_symlink"])
@pytest.mark.parametrize("force", [False, True])
def test_output_that_is_an_input_is_refused(tmp_path, monkeypatch, spelling, force):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "s.csv"
    data.write_text("y,a\n0,1\n1,2\n")
    given = "s.csv"
    out = {"same": "s.csv", "dot": "./s.csv", "symlink": "link.csv", "hardlink": "hard.csv",
           "input_symlink": "s.csv"}[spelling]
    if spelling == "symlink":
        os.symlink("s.csv", "link.csv")
    elif spelling == "hardlink":
        os.link("s.csv", "hard.csv")
    elif spelling == "input_symlink":  # the input is a link to the output
        os.symlink("s.csv", "in.csv")
        given = "in.csv"
    with pytest.raises(ValueError, match="is the input"):
        check_output(out, force=force, inputs=[given])
    with pytest.raises(ValueError, match="is the input"):
        write_atomic(out, "score\n", force=force, inputs=["other.csv", given])
    assert data.read_text() == "y,a\n0,1\n1,2\n"


def test_output_inside_an_input_folder_or_glob_is_refused(tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "part.0.parquet").write_bytes(b"PAR1")
    with pytest.raises(ValueError, match="inside the input folder"):
        write_atomic(parts / "scores.csv", "x", inputs=[parts])
    with pytest.raises(ValueError, match="is the input"):
        write_atomic(parts / "part.0.parquet", "x", force=True, inputs=[str(parts) + "/*.parquet"])
    assert os.listdir(parts) == ["part.0.parquet"]
    # A sibling whose name starts like the folder is not inside it.
    write_atomic(tmp_path / "parts2.csv", "x", inputs=[parts])


def test_output_appearing_while_writing_is_kept(tmp_path, mode):
    # Another process creates the output after the check and before the write ends: the
    # final step fails instead of replacing the other file.
    out = tmp_path / "o.txt"

    def writer(f):
        f.write("mine")
        out.write_text("theirs")

    with pytest.raises(FileExistsError, match="while rankwise wrote it"):
        write_atomic(out, writer)
    assert out.read_text() == "theirs" and os.listdir(tmp_path) == ["o.txt"]


def test_two_concurrent_writers_cannot_both_succeed(tmp_path, mode):
    out = tmp_path / "o.txt"
    barrier = threading.Barrier(2, timeout=10)
    results = {}

    def run(name):
        def writer(f):
            f.write(name)
            barrier.wait()  # both are past the existence check and mid-write

        try:
            write_atomic(out, writer)
            results[name] = "ok"
        except FileExistsError:
            results[name] = "refused"

    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results.values()) == ["ok", "refused"]
    winner = next(n for n, r in results.items() if r == "ok")
    assert out.read_text() == winner and os.listdir(tmp_path) == ["o.txt"]


@pytest.mark.parametrize("error", [ValueError("bad"), KeyboardInterrupt(), SystemExit(3)])
@pytest.mark.parametrize("force", [False, True])
def test_no_temporary_left_on_any_python_exit(tmp_path, mode, error, force):
    (tmp_path / "old.txt").write_text("old")

    def writer(f):
        f.write("partial")
        raise error

    with pytest.raises(type(error)):
        write_atomic(tmp_path / ("old.txt" if force else "new.txt"), writer, force=force)
    assert os.listdir(tmp_path) == ["old.txt"] and (tmp_path / "old.txt").read_text() == "old"


@pytest.mark.parametrize("force", [False, True])
def test_kill_9_mid_write_leaves_nothing_behind(tmp_path, force):
    if not _has_tmpfile(tmp_path):
        pytest.skip("no O_TMPFILE here: a hard kill can leave the named temporary file")
    (tmp_path / "old.txt").write_text("old")
    target = tmp_path / ("old.txt" if force else "new.txt")
    code = textwrap.dedent(f"""
        import sys, time
        from rankwise.io import write_atomic

        def writer(f):
            f.write("x" * 100000)
            f.flush()
            print("writing", flush=True)
            time.sleep(60)

        write_atomic({str(target)!r}, writer, force={force})
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "writing\n"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert os.listdir(tmp_path) == ["old.txt"] and (tmp_path / "old.txt").read_text() == "old"


def test_without_hard_links_the_name_is_reserved_exclusively(tmp_path, monkeypatch):
    # File systems without hard links (the named fallback): an exclusive create reserves
    # the name before the rename, so a file that appeared meanwhile is still kept.
    monkeypatch.setattr(_atomic, "_anonymous", lambda folder: None)

    def no_links(src, dst, **kw):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    write_atomic(tmp_path / "a.txt", "a")
    out = tmp_path / "b.txt"

    def writer(f):
        f.write("mine")
        out.write_text("theirs")

    with pytest.raises(FileExistsError, match="while rankwise wrote it"):
        write_atomic(out, writer)
    assert (tmp_path / "a.txt").read_text() == "a" and out.read_text() == "theirs"
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"]
