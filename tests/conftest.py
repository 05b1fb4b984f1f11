"""Shared fixtures: the repository root, scratch copies of it, and one real strict build."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
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
