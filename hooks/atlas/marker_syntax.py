"""What our markers look like in a page's Markdown, where they are, and how they become slots.

Below `markers` (which renders them) so that `sanitize`, which checks a page as the build
reads it, can find and swap markers without importing the renderers.
"""
from __future__ import annotations

import difflib
import os
import re
import secrets
from dataclasses import dataclass

from .pages import code_mask

MARKER = re.compile(r"<!--\s*(providers|quiz|i18n|glossary|reader):([a-z0-9-]+)((?:\s+[a-z]+=[^\s>]+)*)\s*-->")
OURS = re.compile(r"<!--\s*(providers|quiz|i18n|glossary|reader):")
OWNERS = ("providers", "quiz", "i18n", "glossary", "reader")
COMMENT = re.compile(r"<!--(.*?)(?:-->|$)")
LOOKS_OURS = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*:")      # <!-- something: … --> reads as a marker
INLINE_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")


@dataclass(frozen=True)
class Marker:
    owner: str
    name: str
    options: dict[str, str]
    line: int
    text: str
    start: int = 0      # column span of `text` in its line
    end: int = 0


# What `find` read in each page text, by the text's length and hash: `check_tree` reads every
# page before the first language is built and each page build reads the same text again.
# Cleared at the start of each build (`forget`); read-only for callers. Python keys hash() afresh
# in every process, so no contributor can write a page that passes for another; where
# PYTHONHASHSEED fixes that key, one could, and nothing is remembered.
_found: dict[tuple[int, int], tuple[list[Marker], list[tuple[int, str]]]] = {}
_REMEMBER = os.environ.get("PYTHONHASHSEED", "random") == "random"


def find(markdown: str) -> tuple[list[Marker], list[tuple[int, str]]]:
    """Markers outside code (fenced, indented or inline), and (line, text) of comments that
    look like ours but do not parse, so a typo stops the build instead of rendering nothing."""
    if not _REMEMBER:
        return _find(markdown)
    key = (len(markdown), hash(markdown))
    hit = _found.get(key)
    if hit is None:
        hit = _found[key] = _find(markdown)
    return hit


def forget() -> None:
    """Drop what `find` remembers (once per build: the pages may have changed)."""
    _found.clear()


def _find(markdown: str) -> tuple[list[Marker], list[tuple[int, str]]]:
    found, broken = [], []
    lines = markdown.split("\n")
    mask = code_mask(lines)
    for n, (line, is_code) in enumerate(zip(lines, mask), 1):
        if is_code or "<!--" not in line:
            continue
        visible = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)   # same columns, code blanked
        for c in COMMENT.finditer(visible):
            text = line[c.start(): c.end()]
            full = MARKER.fullmatch(text)
            if full:
                opts = dict(o.split("=", 1) for o in full.group(3).split())
                found.append(Marker(full.group(1), full.group(2), opts, n, text, c.start(), c.end()))
            elif _looks_ours(c.group(1), closed=text.endswith("-->")):
                broken.append((n, text))
    return found, broken


def _looks_ours(body: str, closed: bool) -> bool:
    m = LOOKS_OURS.match(body)
    word = m.group(1) if m else (body.split() or [""])[0]
    if m or not closed:
        return bool(m) or word.lower().rstrip(":") in OWNERS
    return bool(difflib.get_close_matches(word.lower(), OWNERS, n=1, cutoff=0.75))


SLOT = "<!-- atlas-slot " + secrets.token_hex(8) + " {} -->"   # unguessable: a comment in a page cannot pose as one


def swap(markdown: str, markers: list[Marker], inline: list[tuple[Marker, str]] = ()) -> str:
    """`markdown` with each marker (by its own line and columns) replaced by its slot, and
    each `inline` marker by its Markdown."""
    lines = markdown.split("\n")
    swaps = [(m, SLOT.format(n)) for n, m in enumerate(markers)] + list(inline)
    for m, text in sorted(swaps, key=lambda s: (s[0].line, s[0].start), reverse=True):
        line = lines[m.line - 1]
        lines[m.line - 1] = line[: m.start] + "\n" + text + "\n" + line[m.end:]
    return "\n".join(lines)
