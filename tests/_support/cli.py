"""Running the command line inside a test: exit code, standard output and error."""

from __future__ import annotations

import json
import warnings

from rankwise.cli import main


def run_cli(capsys, argv):
    """``(exit code, stdout, stderr)`` of ``rankwise argv`` (library warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def json_cli(capsys, argv):
    """The JSON that ``rankwise argv`` prints (it must exit 0)."""
    rc, out, err = run_cli(capsys, argv)
    assert rc == 0, err
    return json.loads(out)
