"""A pull request that adds a language, or changes an English page, keeps `make test` green.

On a scratch copy of the repository (with its tests), `make new-language CODE=ta` runs, an
English page gains a heading and a link (its translations become outdated), and every test of
the suite that depends on the site's languages (marker `languages`, given in conftest.py to each
test that runs per language or reads LANGS / TRANSLATIONS) runs again there, with the copy's own
hooks, data and tests: the new language is tested like the others, and nothing fails because a
translation is behind.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import LANGS, ROOT
from test_translator_pr import GIT_ENV, git, make, make_repo

NEW = {"ta": "தமிழ்", "bn": "বাংলা", "kn": "ಕನ್ನಡ"}
CODE = next(code for code in NEW if code not in LANGS)   # Tamil, or the next one on a copy that has Tamil


def suite_copy(tmp_path, code: str):
    repo = make_repo(tmp_path / "repo")
    for name in ("tests", ):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    for name in ("pytest.ini", "LICENSE", "LICENSE-DATA", "README.md"):
        shutil.copy2(ROOT / name, repo / name)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the site")
    added = make(repo, "new-language", f"CODE={code}", f"NAME={NEW[code]}")
    assert added.returncode == 0, added.stdout + added.stderr
    page = repo / "docs" / "en" / "guides" / "storage.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\n## Trade-offs", "\n## Checksums after a copy { #checksums }\n\nCompare checksums "
                                 "after every large copy; the [GPU sharing guide](gpu-sharing.md) explains why jobs "
                                 "on one GPU must not share a scratch folder.\n\n## Trade-offs", 1), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"{code}: new language; en: a new section")
    return repo


@pytest.mark.long
def test_after_new_language_and_an_english_change_every_language_test_passes(tmp_path):
    code = CODE
    repo = suite_copy(tmp_path, code)
    status = make(repo, "i18n")
    assert status.returncode == 0, status.stdout[-4000:]
    for lang in (la for la in LANGS[1:] if (repo / "docs" / la / "guides" / "storage.md").exists()):
        assert f"outdated: docs/{lang}/guides/storage.md: outdated" in status.stdout, status.stdout[-4000:]
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATLAS_TEST_PORT", "ATLAS_TEST_SITE", "ATLAS_TEST_ROOT", "PYTEST_CURRENT_TEST")
           and not k.startswith(("PYTEST_XDIST", "PYTEST_ADDOPTS"))}
    env.update(GIT_ENV, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(repo / "hooks"))
    listed = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider", "-m", "languages",
                             "--ignore", "tests/test_new_language_suite.py"],
                            cwd=repo, env=env, capture_output=True, text=True, timeout=300).stdout.splitlines()
    assert sum(f"[{code}]" in line or f"-{code}]" in line for line in listed) >= 20, listed[-5:]   # run for the new language too
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                             "--dist", "worksteal", "-m", "languages",
                             "--ignore", "tests/test_new_language_suite.py"],
                            cwd=repo, env=env, capture_output=True, text=True, timeout=1500)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr[-2000:]
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-3000:]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary
