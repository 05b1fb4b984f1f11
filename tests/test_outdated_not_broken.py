"""An English change makes its translations outdated, never broken; a translation broken on its
own still fails (issue 32, item 4). Each test works on a git repository made from a copy of the
site, so `make i18n` can find, by its source_hash, the English version a translation was made from.
"""
from __future__ import annotations

import re

import pytest
from conftest import TRANSLATIONS, copy_repo, mkdocs_build
from test_i18n import run_i18n
from test_translator_pr import git, git_repo

PAGE = "guides/storage.md"
NEW = ("\n## Where the bytes live { #where-bytes-live }\n\nA new paragraph that links the "
       "[GPU sharing guide](gpu-sharing.md) and shows the spot table.\n\n<!-- providers:table feature=spot-billing -->\n")


@pytest.fixture
def repo(tmp_path):
    return git_repo(copy_repo(tmp_path / "repo"))


def change_english(repo):
    page = repo / "docs" / "en" / PAGE
    text = page.read_text(encoding="utf-8")
    text = text.replace("\n## Why it matters for real workflows", NEW + "\n## Why it matters for real workflows", 1)
    page.write_text(text, encoding="utf-8")
    git(repo, "commit", "-qam", "English: a new section with a heading, a link and a table")


def drop_heading(repo, lang):
    page = repo / "docs" / lang / PAGE
    lines = page.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if line.endswith("{ #checkpoints }"))
    del lines[n]
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return n + 1


def translated(repo) -> list[str]:
    """The languages with their own copy of PAGE (a language just added has none yet)."""
    return [lang for lang in TRANSLATIONS if (repo / "docs" / lang / PAGE).exists()]


def test_an_english_change_lists_translations_as_outdated_and_passes(repo):
    change_english(repo)
    result = run_i18n(repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert translated(repo)
    for lang in translated(repo):
        assert re.search(rf"outdated: docs/{lang}/{PAGE}: outdated \(translates \w+, English is now \w+\)", result.stdout), result.stdout
        assert f"docs/{lang}/{PAGE}:" in result.stdout and "behind its English page, not broken: headings differ" in result.stdout


def test_an_english_change_builds_with_the_outdated_notice(repo, tmp_path):
    change_english(repo)
    site = tmp_path / "site"
    result = mkdocs_build(repo, site)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for lang in translated(repo):
        html = (site / lang / PAGE.replace(".md", ".html")).read_text(encoding="utf-8")
        assert "atlas-notice atlas-notice--outdated" in html, lang
    assert 'id="where-bytes-live"' in (site / PAGE.replace(".md", ".html")).read_text(encoding="utf-8")


def test_a_translation_broken_on_its_own_still_fails(repo):
    drop_heading(repo, "hi")
    result = run_i18n(repo)
    assert result.returncode == 1
    assert re.search(rf"docs/hi/{PAGE}:\d+: headings differ from English", result.stdout), result.stdout


def test_a_translation_behind_and_broken_fails_against_the_english_it_translates(repo):
    change_english(repo)
    drop_heading(repo, "vi")
    result = run_i18n(repo)
    assert result.returncode == 1, result.stdout
    assert re.search(rf"docs/vi/{PAGE}:\d+: headings differ from English: .*\(against the English it translates \(commit \w{{7}}\)\)",
                     result.stdout), result.stdout
    hi = [line for line in result.stdout.splitlines() if f"docs/hi/{PAGE}:" in line and "headings differ" in line]
    assert hi and all("behind its English page, not broken" in line for line in hi), hi
