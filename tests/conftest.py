"""Shared fixtures: the repository root, scratch copies of it, and one real strict build."""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
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
# One site and one server per run, in the process that starts the run (with `-n`, the workers'
# controller, which lives until the last test is done): the workers inherit the port through the
# environment and wait for the build (see pytest_configure below).
SITE_PORT = int(os.environ.get("ATLAS_TEST_PORT") or free_port())
os.environ["ATLAS_TEST_PORT"] = str(SITE_PORT)
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


def _build_args(root: Path, site: Path, site_url: str, only: str | None = None) -> dict:
    """The command, folder and environment of a `mkdocs build --strict` of `root` into `site`."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(root / "hooks"), "ATLAS_SITE_URL": site_url}
    env.pop("ATLAS_LANG", None)
    if only:
        env["ATLAS_LANG"] = only
    return {"args": [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site), "--config-file", str(root / "mkdocs.yml")],
            "cwd": root, "env": env}


def mkdocs_build(root: Path, site: Path, site_url: str = SITE_URL, only: str | None = None) -> subprocess.CompletedProcess:
    """A real `mkdocs build --strict` of `root` into `site`, published at `site_url`; with
    `only`, that language alone (as `make build LANG=…`)."""
    return subprocess.run(**_build_args(root, site, site_url, only), capture_output=True, text=True, timeout=300)


class _SharedSite:
    """The repository's own site, built once per run with --strict by the process that starts the
    run, while the test processes start and collect, and served by it on SITE_PORT. Whichever
    process needs it first waits for the build; a failed build fails every test that needs it,
    with mkdocs's output."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="atlas-test-site-"))
        self.site = self.root / "site"
        self.done = self.root / "build.json"
        self.log = open(self.root / "build.log", "w+")
        self.proc = subprocess.Popen(**_build_args(ROOT, self.site, SITE_URL), stdout=self.log, stderr=subprocess.STDOUT)
        self.finisher = threading.Thread(target=self._finish, daemon=True)
        self.finisher.start()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", SITE_PORT), functools.partial(_Quiet, directory=str(self.site)))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def _finish(self):
        code = self.proc.wait()
        self.log.seek(0)
        partial = self.done.with_suffix(".part")
        partial.write_text(json.dumps({"returncode": code, "output": self.log.read()}))
        partial.rename(self.done)   # whole or absent: a reader never sees half of it

    def close(self):
        self.httpd.shutdown()
        if self.proc.poll() is None:   # a run that needed no site: stop its build
            self.proc.kill()
        self.finisher.join()
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


def pytest_configure(config):
    # Not in a worker of `-n`, and not for `--collect-only` or `--help`, which run no test.
    if not hasattr(config, "workerinput") and not config.option.collectonly and not config.option.help:
        config._atlas_site = _SharedSite()
        os.environ["ATLAS_TEST_SITE"] = str(config._atlas_site.root)


def _language_dependent(item) -> bool:
    """A test that runs once per language, or reads the site's list of languages (LANGS,
    TRANSLATIONS, or a helper of its module that does)."""
    if "lang" in getattr(getattr(item, "callspec", None), "params", {}):
        return True
    function = getattr(item, "function", None)
    names = set(getattr(getattr(function, "__code__", None), "co_names", ()))
    if names & {"LANGS", "TRANSLATIONS"}:
        return True
    module = getattr(item, "module", None)
    helpers = [getattr(module, n, None) for n in names]
    return any({"LANGS", "TRANSLATIONS"} & set(getattr(getattr(h, "__code__", None), "co_names", ()))
               for h in helpers if callable(h))


def pytest_collection_modifyitems(config, items):
    """Long tests (marked `long`: the walk and the axe runs, 5 to 12 s each) start early, spread
    over the test processes. With `-n`, each process takes a slice of this order and an idle one
    takes tests from the end of another's; a long test left for last kept one core busy while
    the other idled (4 s of the run). Each slice opens with a few tests that need no site, run
    while the site builds."""
    for item in items:   # what a new language must also pass (tests/test_new_language_suite.py)
        if _language_dependent(item):
            item.add_marker(pytest.mark.languages)
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    long = [item for item in items if item.get_closest_marker("long")]
    short = [item for item in items if not item.get_closest_marker("long")]
    ordered, left = [], len(items)
    for i in range(workers):
        size = left // (workers - i)                      # the slice xdist's scheduler sends
        mine = long[i::workers]
        take = max(0, size - len(mine))
        slice_short, short = short[:take], short[take:]
        first = [item for item in slice_short if "built_site" not in item.fixturenames][:20]
        ordered += first + mine + [item for item in slice_short if item not in first]
        left -= size
    items[:] = ordered + short


def pytest_unconfigure(config):
    if getattr(config, "_atlas_site", None):
        config._atlas_site.close()


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The repository's own site (see _SharedSite)."""
    root = Path(os.environ["ATLAS_TEST_SITE"])
    deadline = time.monotonic() + 300
    while not (root / "build.json").exists():
        assert time.monotonic() < deadline, "the site's build took more than 300 s"
        time.sleep(0.05)
    result = json.loads((root / "build.json").read_text())
    assert result["returncode"] == 0, result["output"]
    assert "WARNING" not in result["output"], result["output"]
    return root / "site"


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


# The browser's speech synthesis, with the voices given (a JSON list for `%`): headless Chromium
# has none, and the listen tool shows only where the reader's browser can speak the page.
SPEECH_STUB = """
(() => {
  const voices = %s;
  window.__spoken = [];
  const synth = {
    speaking: false, paused: false,
    getVoices: () => voices,
    speak: (u) => window.__spoken.push({text: u.text, lang: u.lang, voice: u.voice && u.voice.lang}),
    cancel: () => { window.__cancelled = (window.__cancelled || 0) + 1 },
    pause() { this.paused = true }, resume() { this.paused = false },
    addEventListener: () => {},
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
  window.SpeechSynthesisUtterance = function (text) { this.text = text };
})();
"""


# A voice for each of our languages: the listen tool shows, as it does for most readers.
VOICES = SPEECH_STUB % json.dumps([{"lang": v, "name": v, "localService": True} for v in ("en-US", "hi-IN", "vi-VN")])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output readable
        pass

    def handle(self):
        # The browser dropped the connection mid-answer (it navigated away or cancelled a fetch):
        # nothing is wrong and nobody is left to answer. Unhandled, http.server prints a full
        # traceback ("Exception occurred during processing of request") into a passing run.
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


@pytest.fixture(scope="session")
def server(built_site):
    """Where the built site is served: on its own host, as it was built for (see _SharedSite)."""
    return f"http://127.0.0.1:{SITE_PORT}"


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


# --- the repository the tests read (issue 28) -------------------------------------------------
# ATLAS_TEST_ROOT points every test that reads the repository's data and pages (through ROOT: the
# shared site, copy_repo, load_atlas(ROOT), docs/) at another copy, such as one with a valid edit
# made to it (test_valid_edits.py): a check of our data must hold for any valid data. Tests import
# this checkout's hooks/; builds run the copy's (copy_repo copies them).
if os.environ.get("ATLAS_TEST_ROOT"):
    ROOT = Path(os.environ["ATLAS_TEST_ROOT"]).resolve()

from atlas import languages as _languages  # noqa: E402

# The site's languages, read from mkdocs.yml as the build reads them: a new language
# (`make new-language`) is tested like the others without editing a test.
LANGS: tuple[str, ...] = _languages.codes(ROOT)
TRANSLATIONS: tuple[str, ...] = LANGS[1:]

# A local voice for every language of the site (a new one's tag from CLDR: ta -> ta-IN).
from atlas.seo import og_locale  # noqa: E402

VOICES = SPEECH_STUB % json.dumps([{"lang": v, "name": v, "localService": True} for v in
                                   dict.fromkeys(("en-US", "hi-IN", "vi-VN", *(og_locale(c).replace("_", "-") for c in LANGS)))])


# True once the table script has turned every value link into its button: the matrix does it in
# slices while the browser is idle (atlas-table.js), so a check of the finished page waits for it.
TABLES_READY = "() => !document.querySelector('[data-atlas-table] a.atlas-v__more')"


# One page of each kind of page, the same file in each language's folder (tests/test_phone.py, tests/lighthouse.py).
PAGE_KINDS = {
    "home": "index.html",
    "guide": "guides/storage.html",
    "comparison": "compare/kubernetes.html",
    "matrix": "compare/all.html",
    "chooser": "compare/choose.html",
    "provider": "providers/runpod.html",
    "glossary": "glossary.html",
    "side by side": "compare/side-by-side.html",
    "country": "compare/buying-india.html",
}
