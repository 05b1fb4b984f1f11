"""The translator's loop: one-language builds, LANG from the make command line only, and
`mkdocs serve` rebuilding when provider data changes. (Speed itself is `make bench`.)"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import BIN, ROOT, free_port, mkdocs_build


def make_dry_run(*args: str, env_lang: str = "C.UTF-8") -> subprocess.CompletedProcess:
    env = {**os.environ, "LANG": env_lang}
    return subprocess.run(["make", "-n", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_lang_counts_only_on_the_make_command_line():
    given = make_dry_run("build", "LANG=hi")
    assert given.returncode == 0 and "ATLAS_LANG=hi" in given.stdout, given.stdout + given.stderr
    from_shell = make_dry_run("build", env_lang="hi")   # the shell's locale variable, not a choice
    assert from_shell.returncode == 0 and "ATLAS_LANG" not in from_shell.stdout
    serve = make_dry_run("serve", "LANG=vi")
    assert "ATLAS_LANG=vi" in serve.stdout and "scripts/serve.py" in serve.stdout


def test_a_language_we_do_not_have_is_refused_with_the_ones_we_do():
    result = make_dry_run("build", "LANG=fr")
    assert result.returncode != 0
    assert "LANG=fr: no such language in mkdocs.yml; use one of: en hi vi" in result.stderr


def test_one_language_build_is_a_working_hindi_site(tmp_path):
    site = tmp_path / "site"
    result = mkdocs_build(ROOT, site, only="hi")
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (site / "en").exists() and not (site / "hi").exists() and not (site / "vi").exists()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="hi"' in home
    table = (site / "compare/kubernetes.html").read_text(encoding="utf-8")
    assert "atlas-table__table" in table and 'href="../providers/aws.html"' in table
    assert '"base": ".."' in (site / "guides/storage.html").read_text(encoding="utf-8")   # search at the root
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["hin"]
    assert any(d["location"] == "providers/aws.html" for d in index["docs"])
    assert (site / "providers/aws.html").is_file()


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode("utf-8")


def _wait_for(url: str, needle: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if needle in _get(url):
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


@pytest.mark.long   # mostly waiting on a live server: better early, beside the other process's work
def test_serve_rebuilds_when_provider_data_changes(scratch):
    """Edit data/providers.yaml while `mkdocs serve` runs: the comparison page shows the edit."""
    port = free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(scratch / "hooks"), "ATLAS_LANG": "en"}
    # make serve's own wrapper: it serves at / and removes its site folder when stopped
    proc = subprocess.Popen([str(BIN / "python"), str(ROOT / "scripts/serve.py"), "--dev-addr", f"127.0.0.1:{port}"],
                            cwd=scratch,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        import yaml
        from markupsafe import escape
        data = scratch / "data/providers.yaml"
        text = data.read_text(encoding="utf-8")
        first = yaml.safe_load(text)["providers"][0]   # whichever provider comes first, by whatever name
        url = f"http://127.0.0.1:{port}/compare/kubernetes.html"
        assert _wait_for(url, str(escape(first["name"])), 90), "the site was never served"
        start = text.index(f"id: {first['id']}\n")
        data.write_text(text[:start] + re.sub(r"^(\s+)name: .*$", r"\1name: Provider renamed by a test",
                                              text[start:], count=1, flags=re.M), encoding="utf-8")
        assert _wait_for(url, "Provider renamed by a test", 60), "no rebuild after the data edit"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
