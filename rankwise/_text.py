"""Text that came from a file, made safe to show on a terminal.

Column names of a CSV or Parquet header, the version strings, feature names, class names
and metadata of a model file, and every message built from them can hold control
characters: an ANSI escape sequence (``ESC [ ...``) recolours or rewrites the terminal,
a carriage return or a newline forges another line of output, a right-to-left override
reorders what is read. Everything the command line prints that could hold such text
goes through :func:`shown` (one line: every non-printable character escaped) or
:func:`terminal_text` (several lines: the same, newlines and tabs kept), so none of it
reaches the terminal raw; the model reader (:mod:`rankwise.io`) escapes its messages with
the same :func:`shown`. Printable text, accented letters and other scripts included,
is left as it is.
"""

from __future__ import annotations

__all__ = ["shown", "quoted", "terminal_text"]


def _escape(ch: str) -> str:
    code = ord(ch)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if ch in named:
        return named[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: object) -> str:
    """``text`` on one line with every character that is not printable (control
    characters, ESC, DEL, C1 controls, line and paragraph separators, bidirectional and
    other format characters, unassigned code points) written as a Python-style escape
    (``\\x1b``, ``\\n``, ``\\u202e``). Printable characters, a backslash among them,
    are kept, so a plain string is returned unchanged."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def quoted(text: object) -> str:
    """``'text'`` for a name in a message, escaped as by :func:`shown`."""
    return "'" + shown(text) + "'"


def terminal_text(text: str) -> str:
    """Several lines for a terminal: as :func:`shown`, but newlines and tabs are kept
    (they are the layout of the output, not part of a name)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t" else _escape(ch) for ch in text)
