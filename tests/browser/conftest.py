"""Browser tests: a real ``skirmish serve`` on a free port, driven by Playwright's Chromium.

They run for real in ``make test`` (which installs Debian's chromium when it is missing) and fail,
not skip, without a browser; ``SKIRMISH_NO_BROWSER=1`` skips them on machines that cannot have one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1500, "height": 950}


def _no_browser() -> bool:
    return os.environ.get("SKIRMISH_NO_BROWSER") == "1"


@pytest.fixture(autouse=True)
def _browser_wanted() -> None:
    if _no_browser():
        pytest.skip("SKIRMISH_NO_BROWSER=1: browser tests skipped")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``skirmish serve`` in a subprocess, from the checkout (so its scenarios are offered); ended at teardown."""
    if _no_browser():
        pytest.skip("SKIRMISH_NO_BROWSER=1: browser tests skipped")
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "skirmish", "serve", "--port", str(port)], cwd=ROOT,
                                stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/api/games", timeout=2).close()
                break
            except (urllib.error.URLError, OSError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"skirmish serve did not start:\n{log.read_text()}")
                time.sleep(0.2)
        yield Server(url)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright (which must not fetch a browser of its own)."""
    if _no_browser():
        pytest.skip("SKIRMISH_NO_BROWSER=1: browser tests skipped")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test does), "
                    "or set SKIRMISH_NO_BROWSER=1 to skip the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    """A fresh page on the server; any script error on it fails the test."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"the page reported errors: {errors}"
