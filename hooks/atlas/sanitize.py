"""One policy for untrusted text (pages, front matter, URLs), used by the build and `make i18n`.

- Front matter: only the keys we use, each plain text on one line: no tags, no character
  references, no control characters. Markup there is refused with `file:line` rather than
  escaped silently, because a contributor who wrote `<b>` meant something we will not show;
  the hook also escapes the values where it hands them to the theme (belt and braces: the
  theme prints `page.title` and `page.meta.description` without escaping).
- Page HTML: the page's rendered HTML (so raw HTML, Markdown links, and attribute lists such
  as `{: onclick=… }` are all seen the same way, after entity decoding) may hold only the
  elements and attributes in ALLOWED_ELEMENTS / ALLOWED_ATTRIBUTES, and every link is
  http(s), mailto:, relative or a fragment. Python's own `html.parser` reads it: the same
  tokenizer rules as a browser for tags and attributes, with no new dependency.
- URLs in data: absolute http(s) with a host, no credentials, no spaces or backslashes
  (urls.py, which the data checks share).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from . import yamlsrc
from .marker_syntax import LOOKS_OURS, find as find_markers, swap as swap_markers
from .problems import Problem
from .urls import is_http_url, link_problem   # noqa: F401 - is_http_url: this policy's, for the hooks

# What Markdown (with our mkdocs.yml extensions) produces, plus the notices our hook adds.
# Pages use no raw HTML today; anything else needs a reason and a line here.
ALLOWED_ELEMENTS = frozenset({
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "a", "em", "strong", "code", "pre", "blockquote",
    "ul", "ol", "li", "hr", "br", "img", "table", "thead", "tbody", "tr", "th", "td",
    "div", "span", "details", "summary",
})
ALLOWED_ATTRIBUTES = frozenset({
    "id", "class", "href", "title", "alt", "src", "lang", "hreflang", "role", "open", "style",
})
STYLE = re.compile(r"^\s*text-align:\s*(left|right|center)\s*;?\s*$")   # Markdown table alignment
NAME = re.compile(r"^[^\s\"'<>&`=]+$")        # ids and class names (Unicode slugs too); '__' is refused below
URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "poster", "cite", "data",
                            "background", "srcset", "xlink:href", "ping", "longdesc", "manifest"})
# Files MkDocs would publish verbatim from docs/: pictures only (no .html, .js, .svg, .css).
STATIC_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")

FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)   # as mkdocs reads it
FRONT_MATTER_KEYS = ("title", "description", "source_hash")
REQUIRED_KEYS = ("title",)
MARKUP = re.compile(r"[<>]|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
HASH = re.compile(r"^[0-9a-f]{12}$")

# The Markdown extensions of mkdocs.yml, for `make i18n`, which renders without MkDocs.
EXTENSIONS = ("attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences",
              "pymdownx.details")


# --- front matter -----------------------------------------------------------------------

def split_front_matter(text: str, shown: str, problems: list[Problem]) -> tuple[dict | None, int]:
    """(front matter mapping or None, line where the body starts); problems for what is broken."""
    if not text.startswith("---"):
        problems.append(Problem(shown, 1, "", "no front matter; a page starts with '---', "
                                "'title: …', '---'"))
        return None, 1
    m = FRONT_MATTER.match(text)
    if not m:
        problems.append(Problem(shown, 1, "", "front matter is not closed by a '---' line"
                                + _page_text_hint(text.split("\n")[1:]) + " (it would be published as text)"))
        return None, 1
    body_line = text[: m.end()].count("\n") + 1
    found: list[Problem] = []
    doc = yamlsrc.parse(m.group(1), shown, found, first_line=2)
    if doc is None:
        hint = _page_text_hint(m.group(1).split("\n"))
        if hint:   # the closing '---' is missing: the YAML error is only a consequence of it
            problems.append(Problem(shown, 1, "", f"front matter is not closed by a '---' line{hint}; "
                                    f"lines 2 to {body_line - 2} (up to the next '---') are read as front matter"))
            return None, body_line
        problems += [Problem(p.file, p.line, p.where, p.message + COLON_HINT) if "mapping values are not allowed"
                     in p.message else p for p in found]
        return None, body_line
    problems += found
    if not isinstance(doc.data, dict):
        problems.append(Problem(shown, 2, "", "front matter must be a mapping such as 'title: …' "
                                "(it would be published as text)"))
        return None, body_line
    return doc.data, body_line


# What starts a page's text and is never front matter: a heading, a code fence, a marker.
PAGE_TEXT = re.compile(r"^(?:#{1,6}[ \t]+\S|```|~~~|<!--)")
COLON_HINT = " (a value holding ': ' needs quotes, as in title: \"Storage: datasets\")"


def _page_text_hint(lines: list[str]) -> str:
    """Where front matter that was never closed runs into the page's text: ', add it before
    line N ('# Heading')', or '' when nothing in `lines` (from line 2) reads as page text."""
    for n, line in enumerate(lines, 2):
        if PAGE_TEXT.match(line):
            return f"; add one before line {n} ({line.strip()[:40]!r}), where the page's text starts"
    return ""


PROSE_KEYS = ("title", "description")   # front matter a reader sees: nav, tab, search result


@lru_cache(maxsize=512)
def front_matter_prose(text: str) -> tuple[tuple[int, str, str], ...]:
    """(line, key, value) of the front matter a reader sees (title, description), for the checks
    that read prose (English left in, avoided terms); none when the front matter is broken
    (front_matter_problems says why)."""
    m = FRONT_MATTER.match(text)
    doc = yamlsrc.parse(m.group(1), "page", [], first_line=2) if m else None
    if doc is None or not isinstance(doc.data, dict):
        return ()
    return tuple((doc.line(key), key, doc.data[key]) for key in PROSE_KEYS if isinstance(doc.data.get(key), str))


def front_matter_problems(text: str, shown: str) -> list[Problem]:
    """Every way the front matter of a page breaks the policy above."""
    problems: list[Problem] = []
    data, _ = split_front_matter(text, shown, problems)
    if data is None:
        return problems
    lines = text.splitlines()
    for key, value in data.items():
        line = next((n for n, s in enumerate(lines[1:], 2) if s.startswith(f"{key}:")), 2)
        if key not in FRONT_MATTER_KEYS:
            problems.append(Problem(shown, line, f"front matter key '{key}'",
                                    f"unknown key, allowed: {', '.join(FRONT_MATTER_KEYS)}"))
        elif key == "source_hash":
            if not HASH.match(str(value)):
                problems.append(Problem(shown, line, "front matter key 'source_hash'",
                                        f"found {value!r}, allowed: 12 hex digits written by `make i18n-sync`"))
        elif not isinstance(value, str) or not value.strip():
            problems.append(Problem(shown, line, f"front matter key '{key}'",
                                    f"found {type(value).__name__} {str(value)[:40]!r}, allowed: one line of plain text"))
        else:
            problem = plain_text_problem(value)
            if problem:
                problems.append(Problem(shown, line, f"front matter key '{key}'", problem))
    for key in REQUIRED_KEYS:
        if key not in data:
            problems.append(Problem(shown, 1, f"front matter key '{key}'", "missing"))
    return problems


def plain_text_problem(value: str) -> str | None:
    """Why `value` is not one line of plain text, or None."""
    m = MARKUP.search(value)
    if m:
        return f"found markup {m.group(0)!r} in {value[:80]!r}; allowed: plain text (write 'and' for '&…;', no tags)"
    if CONTROL.search(value) or "\n" in value.strip():
        return f"found a control character or line break in {value[:80]!r}; allowed: one line of plain text"
    return None


# --- page HTML --------------------------------------------------------------------------

def _tag_problems(tag: str, attrs: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """What the policy refuses in one start tag: (message, text to look for in the source)."""
    found = []
    if tag not in ALLOWED_ELEMENTS:
        found.append((f"element <{tag}> is not allowed; allowed elements: "
                      f"{', '.join(sorted(ALLOWED_ELEMENTS))}", f"<{tag}"))
    for name, value in attrs:
        value = value or ""
        if name in URL_ATTRIBUTES and name in ALLOWED_ATTRIBUTES:
            problem = link_problem(value, name)
            if problem:
                found.append((f"<{tag}> {problem}", value))
        elif name not in ALLOWED_ATTRIBUTES:
            found.append((f"attribute {name}= on <{tag}> is not allowed; allowed attributes: "
                          f"{', '.join(sorted(ALLOWED_ATTRIBUTES))}", name))
        elif name == "style" and not STYLE.match(value):
            found.append((f"style={value!r} on <{tag}> is not allowed; allowed: text-align only", value))
        elif name in ("id", "class") and not all(NAME.match(v) and not v.startswith("__") for v in value.split()):
            found.append((f"{name}={value!r} on <{tag}>; allowed: names without spaces, quotes or "
                          "<>&`=, not starting with '__' (the theme's own ids)", value))
    return found


def _comment_problems(data: str) -> list[tuple[str, str]]:
    if LOOKS_OURS.match(data):   # a marker still a comment after Markdown was skipped silently
        return [(f"comment <!--{data}--> reads as a marker but was not expanded (indented "
                 "inside a list or HTML block?); allowed: a marker alone at the start of a line, "
                 "or marker text inside `code`", "\0code:" + data.strip())]
    return []


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []      # (message, text to look for in the source)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += _tag_problems(tag, attrs)

    handle_startendtag = handle_starttag

    def handle_comment(self, data: str) -> None:
        self.found += _comment_problems(data)


# The fast path: HTML as Markdown writes it is text without '<' between plain tags (lower-case
# names, double-quoted values with no <>"` in them, ASCII spaces between) and simple comments.
# Where every '<' of a page starts such a token, a browser and html.parser read the same tags as
# this does, so their rules can be checked without html.parser's character-by-character scan
# (about 2.5 ms a page). Each token holds exactly one '<', so "every '<' starts one" is "as many
# tokens as '<'"; a page repeats most of its tags (<p>, <li>, <code>), so each distinct one is
# checked once. Anything else, and any page with a problem, goes to the full parser, which
# gives the messages.
_SP = "[ \t\n\r\f]"
_FAST = re.compile(rf"<(/?)([a-z][a-z0-9]*)((?:{_SP}+[a-z][a-z-]*(?:=\"[^\"<>`]*\")?)*){_SP}*/?>|<!--([^<>]*?)-->")
_TOKEN = re.compile(rf"<(?:/?[a-z][a-z0-9]*(?:{_SP}+[a-z][a-z-]*(?:=\"[^\"<>`]*\")?)*{_SP}*/?>|!--[^<>]*?-->)")
_ATTR = re.compile(rf"{_SP}+([a-z][a-z-]*)(?:=\"([^\"<>`]*)\")?")


def _fast_clean(html: str) -> bool:
    """True when `html` is entirely plain tokens (above) and none breaks a rule."""
    tokens = _TOKEN.findall(html)
    if len(tokens) != html.count("<"):
        return False
    for token in set(tokens):
        if token[1] == "!":
            if _comment_problems(token[4:-3]):
                return False
        elif token[1] != "/" and not _start_tag_ok(token):
            return False
    return True


@lru_cache(maxsize=4096)
def _start_tag_ok(token: str) -> bool:
    """One plain start tag, as _FAST matched it (pages repeat most of theirs: <p>, <li>, <code>)."""
    m = _FAST.match(token)
    attrs = [(name, unescape(value) if value else value) for name, value in _ATTR.findall(m.group(3))]
    return not _tag_problems(m.group(2), attrs)


def html_problems(html: str, source: str | Callable[[], str], shown: str) -> list[Problem]:
    """Every element, attribute or link in a page's rendered `html` that the policy refuses,
    located at the first line of `source` (the page's Markdown, or what reads it when needed)
    where it appears."""
    if _fast_clean(html):
        return []
    source = source() if callable(source) else source
    checker = _Checker()
    checker.feed(html)
    checker.close()
    lines = source.splitlines()
    out = []
    for message, needle in checker.found:
        if needle.startswith("\0code:"):   # a skipped marker: the line we took for code holds it
            from .pages import code_mask
            needle = needle[len("\0code:"):]
            line = next((n for n, (text, code) in enumerate(zip(lines, code_mask(lines)), 1)
                         if code and needle in text), _line_of(lines, needle))
        else:
            line = _line_of(lines, needle)
        out.append(Problem(shown, line, "", message))
    return out


def _line_of(lines: list[str], needle: str) -> int:
    if needle:
        low = needle.lower()
        for n, line in enumerate(lines, 1):
            if low in line.lower():
                return n
        for part in reversed(low.split(":", 1)):   # an entity-encoded scheme: find the rest
            if len(part) >= 4:
                for n, line in enumerate(lines, 1):
                    if part in line.lower():
                        return n
    return 1


@lru_cache(maxsize=1)
def _markdown():
    import markdown  # only `make i18n` renders pages itself; the build gets MkDocs' HTML
    from pymdownx.slugs import slugify
    return markdown.Markdown(extensions=list(EXTENSIONS),
                             extension_configs={"toc": {"permalink": True, "slugify": slugify(case="lower")}})


def render_markdown(body: str) -> str:
    """A page body as HTML, with the extensions of mkdocs.yml."""
    md = _markdown()
    md.reset()
    return md.convert(body)


def page_problems(text: str, shown: str) -> list[Problem]:
    """Front matter and rendered-HTML problems of one page (for `make i18n`)."""
    problems = front_matter_problems(text, shown)
    if any(p.message.startswith("front matter is not closed") for p in problems):
        return problems   # where its text starts is unknown: its code would be read as text (one message is enough)
    m = FRONT_MATTER.match(text)
    body = text[m.end():] if m else text
    found, _ = find_markers(body)
    try:
        html = render_markdown(swap_markers(body, found))   # as the build does before Markdown
    except RecursionError:
        return problems + [Problem(shown, 1, "", "Markdown nested too deeply to render")]
    return problems + html_problems(html, text, shown)


def check_docs(docs: Path, root: Path, languages: tuple[str, ...]) -> tuple[list[Problem], dict[Path, str]]:
    """Read every page under `docs` safely; problems for unusable files and folders, and the
    text of each page that could be read."""
    from . import files
    problems: list[Problem] = []
    texts: dict[Path, str] = {}
    rel = lambda p: Path(p).absolute().relative_to(root.absolute()).as_posix() if Path(p).absolute().is_relative_to(root.absolute()) else str(p)  # noqa: E731
    if not docs.is_dir():
        return [Problem(rel(docs), 1, "", "folder is missing")], texts
    for entry in sorted(docs.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.name not in languages or not entry.is_dir():
            problems.append(Problem(rel(entry), 1, "", f"not a language folder; allowed in docs/: "
                                    f"{', '.join(f'{lang}/' for lang in languages)} (languages configured in mkdocs.yml)"))
    if not (docs / languages[0]).is_dir():
        problems.append(Problem(rel(docs / languages[0]), 1, "", "folder is missing; every page starts in English"))
    for lang in languages:
        found, bad = files.walk(docs / lang, root, "")
        problems += [Problem(rel(p), 1, "", why) for p, why in bad]
        pages = [p for p in found if p.name.endswith(".md")]
        for other in sorted(set(found) - set(pages)):
            if not other.name.lower().endswith(STATIC_SUFFIXES):
                problems.append(Problem(rel(other), 1, "", "MkDocs would publish this file as it is; allowed in "
                                        f"docs/: Markdown pages (.md) and pictures ({', '.join(STATIC_SUFFIXES)})"))
        for page in pages:
            try:
                texts[page] = files.read_text(page, root)
            except files.FileProblem as exc:
                problems.append(Problem(rel(page), exc.line, "", str(exc)))
    return problems, texts
