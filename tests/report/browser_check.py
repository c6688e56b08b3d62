"""Open a local HTML file in headless Chromium and report what a reader would see.

Standard library only: Chromium is driven through the DevTools protocol over
``--remote-debugging-pipe`` (commands on fd 3, replies on fd 4, NUL-terminated JSON).

    python tests/browser_check.py report.html [screenshot.png]

prints a JSON summary: console errors / exceptions / failed loads, every image's
``naturalWidth``, the page's scroll and viewport widths (sections collapsed and opened),
the text and ``data-*`` attributes of every table cell, and where the screenshot went.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

__all__ = ["find_chromium", "inspect_page"]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        exe = shutil.which(name)
        if exe:
            return exe
    return None


class _Pipe:
    def __init__(self, proc, write_fd: int, read_fd: int):
        self.proc, self.w, self.r = proc, write_fd, read_fd
        self.buf = b""
        self.next_id = 0
        self.events: list[dict] = []

    def _read_message(self, deadline: float) -> dict:
        import select

        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from Chromium")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 16)
                if not chunk:
                    raise RuntimeError(f"Chromium closed the pipe (exit code {self.proc.poll()})")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30.0):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == mid:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict:
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            e = self._read_message(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        try:
            while True:
                self.events.append(self._read_message(deadline))
        except TimeoutError:
            pass


# Widths are measured twice: as the page opens (sections collapsed) and with every
# <details> opened, so that a reader who expands everything still sees no horizontal
# scrolling. ``data`` holds each cell's data-* attributes (the exact numbers).
_PROBE = """(() => {
  const doc = document.documentElement;
  const widths = () => ({scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
                         clientWidth: doc.clientWidth, innerWidth: window.innerWidth});
  const closed = widths();
  const details = Array.from(document.querySelectorAll('details'));
  details.forEach(d => { d.open = true; });
  const opened = widths();
  return {
    title: document.title,
    closed: closed,
    opened: opened,
    details: details.length,
    images: Array.from(document.images).map(i => ({alt: i.alt, complete: i.complete,
                                                   naturalWidth: i.naturalWidth, naturalHeight: i.naturalHeight})),
    tables: Array.from(document.querySelectorAll('table')).map(t => ({
      cls: t.className,
      rows: Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.innerText.trim())),
      data: Array.from(t.rows).map(r => Array.from(r.cells).map(c => Object.assign({}, c.dataset))),
      classes: Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.className))})),
    scripts: document.scripts.length,
    height: doc.scrollHeight,
  };
})()"""


def inspect_page(html_path, screenshot: str | None = None, *, width: int = 1280, height: int = 2000,
                 chromium: str | None = None, timeout: float = 60.0) -> dict:
    """Load ``html_path`` in headless Chromium; return console errors, images, tables."""
    exe = chromium or find_chromium()
    if exe is None:
        raise FileNotFoundError("no chromium executable on PATH")
    url = pathlib.Path(html_path).resolve().as_uri()
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()
    profile = tempfile.mkdtemp(prefix="rankwise-chromium-")
    args = [exe, "--headless=new", "--disable-gpu", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
            "--remote-debugging-pipe", f"--window-size={width},{height}", "about:blank"]

    def child_fds():  # the browser reads commands on fd 3 and writes replies on fd 4
        import fcntl

        r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4 first
        w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.dup2(r, 3)
        os.dup2(w, 4)

    # fds 3 and 4 are set up by child_fds, which runs before the unlisted fds are closed
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=child_fds, pass_fds=(3, 4))
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    pipe = _Pipe(proc, to_chrome_w, from_chrome_r)
    try:
        target = pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
        sid = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            pipe.send(f"{domain}.enable", session=sid)
        pipe.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=sid)
        pipe.events.clear()
        pipe.send("Page.navigate", {"url": url}, session=sid)
        pipe.wait_event("Page.loadEventFired", timeout=timeout)
        pipe.drain(0.5)  # late console messages
        probe = pipe.send("Runtime.evaluate", {"expression": _PROBE, "returnByValue": True}, session=sid)
        page = probe["result"]["value"]
        shot = None
        if screenshot:
            data = pipe.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False},
                             session=sid)["data"]
            pathlib.Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
            pathlib.Path(screenshot).write_bytes(base64.b64decode(data))
            shot = str(screenshot)
        errors = []
        for e in pipe.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
            elif m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
            elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                errors.append(f"log ({p['entry'].get('source')}): {p['entry']['text']}")
            elif m == "Network.loadingFailed":
                errors.append(f"load failed: {p.get('errorText')}")
        pipe.send("Browser.close")
        return {"url": url, "errors": errors, "screenshot": shot, **page}
    finally:
        os.close(to_chrome_w)
        os.close(from_chrome_r)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    out = inspect_page(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
