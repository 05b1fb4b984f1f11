"""Guides link provider pages with an ordinary Markdown link, checked by the strict build."""
from __future__ import annotations

import re

from conftest import copy_repo, mkdocs_build

from atlas import provider_links

IDS = ("aws", "lambda", "e2e-networks")


def test_a_link_to_a_provider_becomes_a_link_to_its_generated_page():
    md, problems = provider_links.rewrite("See [**AWS**](../providers/aws.md#gpus) and [Lambda](../providers/lambda.html).",
                                          "guides/storage.md", IDS)
    assert problems == []
    assert md == 'See <a href="../providers/aws.html#gpus">**AWS**</a> and <a href="../providers/lambda.html">Lambda</a>.'


def test_a_link_to_an_unknown_provider_is_a_problem_on_its_line():
    md, problems = provider_links.rewrite("Intro\n\nRead [X](../providers/nope.md) now.", "guides/storage.md", IDS)
    assert [(n, msg.split(":")[0]) for n, msg in problems] == [(3, "link to provider page '../providers/nope.md'")]
    assert "no provider 'nope'" in problems[0][1] and "aws" in problems[0][1]


def test_code_other_folders_and_other_hosts_stay_as_they_are():
    text = ("`[A](../providers/nope.md)` and [B](https://example.com/providers/x.md) and [C](../compare/all.md)\n"
            "```\n[D](../providers/nope.md)\n```\n![img](../providers/aws.md)")
    md, problems = provider_links.rewrite(text, "guides/storage.md", IDS)
    assert (md, problems) == (text, [])


def test_the_providers_list_page_links_from_the_language_root():
    md, problems = provider_links.rewrite("[E2E](providers/e2e-networks.md)", "providers.md", IDS)
    assert (md, problems) == ('<a href="providers/e2e-networks.html">E2E</a>', [])


def _with_line(tmp_path, line: str):
    root = copy_repo(tmp_path / "repo")
    page = root / "docs" / "en" / "guides" / "storage.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace("\n## ", f"\n{line}\n\n## ", 1)
    page.write_text(text, encoding="utf-8")
    number = text.splitlines().index(line) + 1
    return root, number


def test_strict_build_publishes_a_working_provider_link(tmp_path):
    root, _ = _with_line(tmp_path, "Compare [AWS](../providers/aws.md) with [E2E](../providers/e2e-networks.md#regions).")
    site = tmp_path / "site"
    result = mkdocs_build(root, site, only="en")
    assert result.returncode == 0, result.stderr[-3000:]
    html = (site / "guides" / "storage.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'href="(\.\./providers/[^"]+)"', html)
    assert "../providers/aws.html" in hrefs and "../providers/e2e-networks.html#regions" in hrefs
    assert "providers/aws.md" not in html
    assert (site / "providers" / "aws.html").is_file() and (site / "providers" / "e2e-networks.html").is_file()


def test_strict_build_refuses_a_link_to_a_provider_that_does_not_exist(tmp_path):
    root, line = _with_line(tmp_path, "Compare [Nope](../providers/no-such-cloud.md) here.")
    result = mkdocs_build(root, tmp_path / "site", only="en")
    assert result.returncode != 0
    out = result.stdout + result.stderr
    assert f"docs/en/guides/storage.md:{line}: link to provider page '../providers/no-such-cloud.md'" in out, out[-3000:]
    assert "Traceback" not in out
