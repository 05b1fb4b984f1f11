"""Per-page additions: translation state notices, reading time and FAQ structured data."""
from __future__ import annotations

import hashlib
import html
import json
import math
import re
import secrets
from functools import lru_cache

from markupsafe import Markup, escape

FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)   # as mkdocs reads it
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#([A-Za-z0-9_-]+)[^}]*\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
# A word is a whitespace-separated run holding a letter or digit (\w alone would split Devanagari
# at its vowel signs): every run, less the runs of punctuation alone (a dash, an arrow).
PUNCTUATION_ONLY = re.compile(r"(?:[^\w\s]|_)+")
WORDS_PER_MINUTE = 200
COMMENTS = re.compile(r"<!--.*?-->")
PLAIN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
PLAIN_TAG = re.compile(r"<[^>]+>")
PLAIN_EMPHASIS = re.compile(r"[*_`]+")
PLAIN_LIST_ITEM = re.compile(r"^\s*(?:[-+*]|\d+\.)\s+", re.M)


def source_hash(text: str) -> str:
    """Short content hash of an English page: what a translation records it translates."""
    normal = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").strip().splitlines())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


def body(markdown: str) -> str:
    """The Markdown without its front matter."""
    return FRONT_MATTER.sub("", markdown, count=1)


def markdown_body(text: str) -> tuple[str, int]:
    """The Markdown a page build hands our hooks for a page's text, and the number of lines
    of the file before it: MkDocs drops the front matter and the blank lines after it
    (mkdocs.utils.meta.get_data, for front matter that is a mapping, which every page that
    builds has), and mkdocs-static-i18n joins the lines again with "\n" (to translate
    admonition titles), which drops a final newline. A text with other line breaks (form
    feed, U+2028) is returned without that join, so line numbers stay the file's."""
    m = FRONT_MATTER.match(text)
    body = text[m.end():].lstrip("\n") if m else text
    dropped = text.count("\n", 0, len(text) - len(body))
    if not OTHER_LINE_BREAKS.search(body):
        body = "\n".join(body.splitlines())
    return body, dropped


OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")   # what str.splitlines splits at, besides \n and \r


def code_mask(lines: list[str], indented: bool = True) -> list[bool]:
    """For each line, whether it is code: inside a fence (closed only by the same character,
    at least as long, with nothing after it, so a ```` fence may hold ``` lines), or, with
    `indented`, an indented code block (four spaces or a tab after a blank line)."""
    mask, fence, prev_blank, in_block = [], "", True, False
    for line in lines:
        m = FENCE_LINE.match(line) if "```" in line or "~~~" in line else None
        if fence:
            mask.append(True)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = ""
            prev_blank = False
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = m.group(1)
            mask.append(True)
            in_block = False
            continue
        blank = not line.strip()
        if indented and not blank and line.startswith(("    ", "\t")) and (prev_blank or in_block):
            in_block = True
        elif not blank:
            in_block = False
        mask.append(in_block and not blank or (in_block and blank))
        prev_blank = blank
    return mask


@lru_cache(maxsize=4)   # a page's reading time and its FAQ read the same lines
def prose_lines(markdown: str) -> tuple[tuple[int, str], ...]:
    """(line number, text) of lines outside fenced code and front matter."""
    out = []
    lines = markdown.split("\n")
    start = 0
    m = FRONT_MATTER.match(markdown)
    if m:
        start = markdown[: m.end()].count("\n")
    body = lines[start:]
    for n, (line, is_code) in enumerate(zip(body, code_mask(body, indented=False)), start + 1):
        if not is_code:
            out.append((n, line))
    return tuple(out)


def reading_minutes(markdown: str) -> int:
    """Minutes to read the prose (code and comments excluded), at least one."""
    text = " ".join(line for _, line in prose_lines(markdown))
    text = COMMENTS.sub(" ", text)
    runs = text.split()
    alone = PUNCTUATION_ONLY.fullmatch   # tried only on runs that do not start with a letter or digit
    words = len(runs) - sum(1 for run in runs if not run[0].isalnum() and alone(run))
    return max(1, math.ceil(words / WORDS_PER_MINUTE))


# Where a page's furniture (translation notices, reading time, listen controls) goes: a comment
# after the H1 that the hooks fill when the page is written, after Material's search has read
# the page, so a search result shows the page's first sentence, not "10 min read Listen Pause".
# Unguessable, like every slot: a comment a contributor writes can never stand in for it.
TOP_SLOT = f"<!-- atlas-top {secrets.token_hex(8)} -->"


def fill_slot(html: str, slot: str, block: str) -> str:
    """`html` with `slot` (which Markdown may have wrapped in <p>) replaced by `block`, once."""
    return fill_slots(html, {slot: block})


def fill_slots(html: str, blocks: dict[str, str]) -> str:
    """`html` with each slot of `blocks` (which Markdown may have wrapped in <p>) replaced by
    its block, once, in one copy of the page (a replace per slot would copy it per slot)."""
    spots, after = [], 0
    for slot, block in blocks.items():   # in page order, as callers give them: each search starts at the last
        start = html.find(slot, after)
        if start < 0:
            start = html.find(slot)
            if start < 0:
                continue
        after = start
        end = start + len(slot)
        if start >= 3 and html.startswith("<p>", start - 3) and html.startswith("</p>", end):
            start, end = start - 3, end + 4
        spots.append((start, end, block))
    out, pos = [], 0
    for start, end, block in sorted(spots, key=lambda s: s[0]):
        out += (html[pos:start], block)
        pos = end
    out.append(html[pos:])
    return "".join(out)


def insert_after_h1(markdown: str, html_block: str) -> str:
    """Put `html_block` right after the page's first H1, or at the top when there is none."""
    lines = markdown.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("# "):
            return "\n".join(lines[: i + 1] + ["", html_block, ""] + lines[i + 1:])
    return f"{html_block}\n\n{markdown}"


def notice(kind: str, title: str, text: str, link_text: str = "", href: str = "") -> str:
    """A visible, localized notice block (escaped)."""
    link = Markup(' <a href="{}" hreflang="en">{}</a>').format(href, link_text) if href else ""
    return str(Markup('<div class="atlas-notice atlas-notice--{}" role="note"><p><strong>{}</strong> {}{}</p></div>')
               .format(kind, title, text, link))


def faq(markdown: str, section_id: str = "faq") -> list[tuple[str, str]]:
    """(question, answer as plain text) pairs from the `## … { #faq }` section."""
    pairs: list[tuple[str, list[str]]] = []
    if f"#{section_id}" not in markdown:   # no such section (its heading names it)
        return []
    inside = False
    for _, line in prose_lines(markdown):
        m = HEADING.match(line) if line.startswith("#") else None
        if m and len(m.group(1)) <= 2:
            inside = m.group(3) == section_id
            continue
        if not inside:
            continue
        if m and len(m.group(1)) == 3:
            pairs.append((plain(m.group(2)), []))
        elif pairs and not line.lstrip().startswith("<!--"):
            pairs[-1][1].append(line)
    return [(q, plain(" ".join(a))) for q, a in pairs if q]


def plain(markdown: str) -> str:
    """Markdown inline text as plain text: links keep their words, markup goes. (A pattern
    runs only where what it needs is in the text; an FAQ answer seldom holds a link or a tag.)"""
    text = PLAIN_LINK.sub(r"\1", markdown) if "](" in markdown else markdown
    text = PLAIN_TAG.sub("", text) if "<" in text else text
    text = PLAIN_EMPHASIS.sub("", text)
    text = PLAIN_LIST_ITEM.sub("", text)
    return html.unescape(" ".join(text.split())).strip()


def faq_jsonld(pairs: list[tuple[str, str]], lang: str) -> str:
    """schema.org FAQPage JSON-LD, safe to place inside a <script> element."""
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "inLanguage": lang,
        "mainEntity": [
            {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": a}}
            for q, a in pairs
        ],
    }
    text = json.dumps(data, ensure_ascii=False, indent=None)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def attr(text: str) -> str:
    return str(escape(text))
