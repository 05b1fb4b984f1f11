"""Ordinary Markdown links to provider pages: `[AWS](../providers/aws.md)` in any page.

Provider pages are generated (atlas/provider_pages.py), one per provider and language, stamped
from one stand-in page, so MkDocs does not know them as documentation files: its own link check
would refuse `../providers/aws.html` and publish `../providers/aws.md` as a link to nothing.
Before MkDocs reads a page, this turns each link whose target resolves to `providers/<id>.md`
(or `.html`) into a link to the generated page, and refuses, with file and line, a link to a
provider that does not exist. Links in code stay text.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from markupsafe import escape

from .pages import prose_lines

# [text](target) or [text](target "title"), not an image; the text may hold one level of [...].
LINK = re.compile(r"(?<!!)\[(?P<text>(?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
PROVIDER_PAGE = re.compile(r"providers/(?P<id>[^/]+)\.(?:md|html)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def rewrite(markdown: str, page: str, provider_ids: Iterable[str]) -> tuple[str, list[tuple[int, str]]]:
    """The page with its provider links made links to the generated pages, and (line, problem)
    for each link to a provider that does not exist. `page`: the page's path inside its
    language folder (guides/storage.md); lines count from the start of `markdown`."""
    ids = set(provider_ids)
    lines = markdown.split("\n")
    problems: list[tuple[int, str]] = []
    for n, line in prose_lines(markdown):
        if "providers/" not in line:
            continue
        spans = [m.span() for m in CODE_SPAN.finditer(line)]

        def one(m: re.Match) -> str:
            if any(a <= m.start() < b for a, b in spans):
                return m.group(0)
            target, _, fragment = m.group("target").partition("#")
            if "://" in target or target.startswith(("/", "mailto:")):
                return m.group(0)
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
            found = PROVIDER_PAGE.fullmatch(resolved)
            if not found:
                return m.group(0)
            pid = found.group("id")
            if pid not in ids:
                problems.append((n, f"link to provider page '{m.group('target')}': no provider '{pid}' in "
                                    f"data/providers.yaml; allowed: one of {', '.join(sorted(ids))}"))
                return m.group(0)
            href = target[: -len(".md")] + ".html" if target.endswith(".md") else target
            if fragment:
                href += "#" + fragment
            return f'<a href="{escape(href)}">{m.group("text")}</a>'

        lines[n - 1] = LINK.sub(one, line)
    return "\n".join(lines), problems
