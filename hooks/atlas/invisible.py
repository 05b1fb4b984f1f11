"""Characters a reader cannot see: bidi controls, zero-width and other invisible characters,
C0 and C1 controls.

Two uses. URLs (sources, homepages, mkdocs.yml's report_url, page links) may hold none of
them: a right-to-left override shows a reader another address than the one the link opens.
The prose checks (English left in a page, avoided glossary terms) read text as it looks, so a
zero-width space inside "s\u200bharing" does not hide an English word from them.

Devanagari (and the other Indic scripts) need ZWJ and ZWNJ after a virama: क्‍ष (half form),
उद्‌घाटन (visible virama). There they are part of the word and stay; anywhere else they are
invisible, as in Latin text.
"""
from __future__ import annotations

import re
import unicodedata

# Invisible in every script (category Cf and the blank letters of Hangul, Khmer and Mongolian).
_HIDDEN = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f\u202a-\u202e"
           "\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\U000e0001\U000e0020-\U000e007f")
_VIRAMAS = "\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d4d"
# What the prose checks see through: the hidden characters, and ZWNJ/ZWJ except after a virama.
SEE_THROUGH = re.compile(f"[{_HIDDEN}]|(?<![{_VIRAMAS}])[\u200c\u200d]")
_REFUSED_KINDS = {"Cc": "control character", "Cf": "format character", "Co": "private-use character",
                  "Cs": "surrogate", "Cn": "unassigned character", "Zl": "line separator", "Zp": "paragraph separator"}
# Unicode gives controls no name; these are the ones a contributor is likely to meet.
_CONTROL_NAMES = {0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
                  0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE",
                  0x7F: "DELETE", 0x85: "NEXT LINE"}


def visible(text: str) -> str:
    """`text` as a reader sees it: without the characters SEE_THROUGH matches."""
    return text if text.isascii() else SEE_THROUGH.sub("", text)


def name(ch: str) -> str:
    """'U+202E RIGHT-TO-LEFT OVERRIDE', 'U+0000 NULL', 'U+0085 NEXT LINE': a character, escaped."""
    code = ord(ch)
    label = unicodedata.name(ch, "") or _CONTROL_NAMES.get(code) or _REFUSED_KINDS.get(unicodedata.category(ch), "character")
    return f"U+{code:04X} {label}"


def first(text: str) -> tuple[int, str] | None:
    """(1-based position, character) of the first character of `text` a reader cannot see (a
    joiner after a virama aside), or None."""
    if text.isascii() and text.isprintable():   # nearly every URL: one pass in C
        return None
    for i, ch in enumerate(text):
        if ch.isascii() and ch.isprintable():
            continue
        kind = unicodedata.category(ch)
        if ch in "\u200c\u200d":
            if i and text[i - 1] in _VIRAMAS:
                continue
            return i + 1, ch
        if kind in _REFUSED_KINDS or kind == "Zs" or SEE_THROUGH.match(ch):   # Zs: a space other than " "
            return i + 1, ch
    return None


def problem(text: str) -> str | None:
    """'U+202E RIGHT-TO-LEFT OVERRIDE at position 23', for the first character of `text` a
    reader cannot see, or None."""
    found = first(text)
    return f"{name(found[1])} at position {found[0]}" if found else None
