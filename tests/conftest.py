"""Shared fixtures: the repository root, scratch copies of it, and one real strict build."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
BIN = Path(sys.executable).parent
COPIED = ("docs", "data", "hooks", "overrides", "mkdocs.yml")


def free_port() -> int:
    """A port on 127.0.0.1 that is free now: build a site for it, then serve it there."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The test site is built for the address the browser tests serve it from, as a deployment is
# built for its own host: canonical and hreflang URLs are absolute, and must stay on this host.
SITE_PORT = free_port()
SITE_URL = f"http://127.0.0.1:{SITE_PORT}/"


def copy_repo(dest: Path) -> Path:
    """A scratch copy of everything a build reads, to change without touching the repo."""
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    return dest


def mkdocs_build(root: Path, site: Path, site_url: str = SITE_URL, only: str | None = None) -> subprocess.CompletedProcess:
    """A real `mkdocs build --strict` of `root` into `site`, published at `site_url`; with
    `only`, that language alone (as `make build LANG=…`)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(root / "hooks"), "ATLAS_SITE_URL": site_url}
    env.pop("ATLAS_LANG", None)
    if only:
        env["ATLAS_LANG"] = only
    return subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site), "--config-file", str(root / "mkdocs.yml")],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The repository's own site, built once per test session with --strict."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return site


@pytest.fixture
def scratch(tmp_path) -> Path:
    return copy_repo(tmp_path / "repo")


# --- the browser: one headless Chromium and one server of the built site per test process ------

# Debian's headless shell first: the same Chromium (same package version, Blink and V8) built
# for headless use only, as Playwright itself runs headless tests; `make test` took 135 s on it
# against 173 s in the full browser's headless mode. Debian's chromium otherwise.
CHROMIUM = (os.environ.get("ATLAS_CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _browser_or_skip():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs Chromium for browser tests, none at {CHROMIUM}; .ci/run installs Debian's "
                        "chromium-headless-shell")
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium-headless-shell (or chromium) to run "
                    "browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - requirements-test.txt installs it
        pytest.fail("playwright is not installed; run make test")
    return sync_playwright


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output readable
        pass


@pytest.fixture(scope="session")
def server(built_site):
    handler = functools.partial(_Quiet, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", SITE_PORT), handler)   # the built site's own host
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    sync_playwright = _browser_or_skip()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def guarded_page(browser, origin: str):
    """A fresh page whose requests to any host but `origin` fail the test. They are watched,
    not routed: a route turns the browser's cache off, and every page would load cold."""
    context = browser.new_context()
    outside = []
    context.on("request", lambda r: r.url.startswith((origin + "/", "data:", "blob:")) or outside.append(r.url))
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()
    assert not outside, f"the page tried to load from another host: {outside}"


@pytest.fixture
def page(browser, server):
    yield from guarded_page(browser, server)
