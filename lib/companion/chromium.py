"""Headless Chromium (Debian's /usr/bin/chromium) on the built book, with the network off: the DOM
after the page's scripts ran, and full-page screenshots. Used by the browser test
(tests/report/test_browser.py) and the screenshot tool (tools/screenshots.py).

Every page of the book loads _static/selfcheck.js, which fills a hidden #selfcheck element once
the page and its mathematics are ready (images, claims rows, verdict lines, overflowing tables and
the page's full height); `--dump-dom` hands it back.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

# --host-resolver-rules and the dead proxy: any attempt to reach a host fails at once
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", "--virtual-time-budget=15000",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9")
SELFCHECK = re.compile(r'<pre id="selfcheck"[^>]*>(.*?)</pre>', re.S)
WIDTH = 1280                 # the width the book is checked and shown at
MAX_HEIGHT = 16384           # Chromium's largest screenshot (a GPU texture's side)


class ChromiumError(RuntimeError):
    """Chromium is missing, or failed on a page."""


def binary() -> str:
    """The Chromium to run (Debian's package: `apt-get install chromium`)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise ChromiumError("headless Chromium not found: install Debian's `chromium` package "
                            "(`apt-get install -y chromium`; `make chromium` does as root)")
    return found


def browse(chromium: str, profiles: Path, url: str, *args: str, timeout_s: float = 120) -> str:
    """Run Chromium once on `url` with a fresh profile under `profiles`; return its stdout."""
    profile = profiles / f"profile{len(list(profiles.glob('profile*')))}"
    done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args, url],
                          capture_output=True, text=True, timeout=timeout_s)
    if done.returncode != 0:
        raise ChromiumError(f"chromium failed on {url}:\n{done.stderr[-2000:]}")
    return done.stdout


def selfcheck(dom: str) -> dict | None:
    """The page's #selfcheck report from a dumped DOM (None when the script never ran)."""
    found = SELFCHECK.search(dom)
    return json.loads(html.unescape(found.group(1))) if found else None


def dump(chromium: str, profiles: Path, page: Path, height: int = 900,
         suffix: str = "") -> tuple[str, dict | None]:
    """The DOM of a page of the book after load at WIDTH x height, and its selfcheck report."""
    dom = browse(chromium, profiles, page.as_uri() + suffix, "--dump-dom",
                 f"--window-size={WIDTH},{height}")
    return dom, selfcheck(dom)


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ChromiumError(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def screenshot(chromium: str, profiles: Path, page: Path, out: Path) -> tuple[int, int]:
    """A screenshot of the whole page at WIDTH, as tall as the page (nothing cut off): measured
    first, taken at that height, measured again at it (a page may grow with its window); return
    (the PNG's height, the page's height)."""
    _, check = dump(chromium, profiles, page)
    if check is None:
        raise ChromiumError(f"{page}: its selfcheck never ran (not a page of the book?)")
    height = check["height"]
    for _ in range(3):
        if height > MAX_HEIGHT:
            raise ChromiumError(f"{page} is {height} px tall, over Chromium's {MAX_HEIGHT} px "
                                "screenshot: choose a shorter page")
        out.parent.mkdir(parents=True, exist_ok=True)
        browse(chromium, profiles, page.as_uri(), f"--window-size={WIDTH},{height}",
               f"--screenshot={out}")
        _, again = dump(chromium, profiles, page, height)
        if again is None or again["height"] <= height:
            return png_size(out)[1], again["height"] if again else height
        height = again["height"]
    raise ChromiumError(f"{page}: its height keeps growing with the window ({height} px)")
