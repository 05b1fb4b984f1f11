"""Find English sentences left in Hindi and Vietnamese text.

A sentence counts as English when it uses English function words ("the", "and", "is"…)
that no Hindi or Vietnamese sentence needs, after code, URLs, Markdown link targets and
glossary terms are removed. Technical names (Kubernetes, CUDA, `nvidia.com/gpu`) carry no
function words, so normal technical Hindi and Vietnamese pass. Text is read as it looks: a
zero-width space or soft hyphen inside an English word does not hide it (invisible.py).
"""
from __future__ import annotations

import re
import unicodedata

from . import invisible

# English-only function words. Words that are also Vietnamese ("to", "do", "an", "can",
# "in", "con", "a", "the" is kept: Vietnamese has no "the") are left out on purpose.
ENGLISH = frozenset("""
the and of is are was were be been being for with you your this that these those it its
they their there we our from by as at does should must into than have has had will would
which what when where who why how not only also more most each other about after before
without between some any all such here then them he she his her while because through
over under until again once just very can't don't doesn't isn't aren't won't it's you're
let lets get gets make makes use uses using used want need needs keep keeps run runs
if or but so no yes one two first new way well even much many like same different
""".split())
VI_MARKS = re.compile(r"[ăâđêôơưàáảãạằắẳẵặầấẩẫậèéẻẽẹềếểễệìíỉĩịòóỏõọồốổỗộờớởỡợùúủũụừứửữựỳýỷỹỵ]", re.I)
DEVANAGARI = re.compile(r"[\u0900-\u097F]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
GLOSS = re.compile(r"\((?:\s*[A-Za-z][A-Za-z0-9/.+-]*){1,4}\s*\)")  # "(tensor parallelism)": a term, not a sentence
SENTENCE_END = re.compile(r"(?<=[.!?।])\s+|\s*[।]\s*")


def strip_markup(line: str) -> str:
    """Prose of one Markdown line: no code spans, URLs, link targets, HTML, anchors."""
    text = re.sub(r"`[^`]*`", " ", line)
    text = re.sub(r"<!--.*?-->", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\{\s*#[^}]*\}", " ", text)
    text = re.sub(r"^\s*(?:#+|[-*+]|\d+\.|>)\s*", "", text)
    return re.sub(r"[*_\[\]]", "", text)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip()]


def is_english(sentence: str, lang: str, keep: frozenset[str] = frozenset()) -> bool:
    """True when `sentence`, found in a `lang` page, reads as English."""
    text = unicodedata.normalize("NFC", invisible.visible(sentence))
    for term in keep:
        if term and term in text:
            text = text.replace(term, " ")
    text = GLOSS.sub(" ", text)
    words = LATIN_WORD.findall(text)
    if len(words) < 3:
        return False
    function_words = sum(1 for w in words if w.lower() in ENGLISH)
    tokens = text.split()
    mark = DEVANAGARI if lang == "hi" else VI_MARKS
    native = sum(1 for t in tokens if mark.search(t))
    if native == 0:
        # nothing of the page's language: English if it has a function word or reads as
        # ordinary lowercase prose (names and acronyms are capitalised)
        lowercase = sum(1 for w in words if w.islower() and len(w) >= 3)
        if (function_words and len(words) >= 4) or (lang == "hi" and lowercase >= 4):
            return True
    if function_words == 0:
        return False
    return (function_words >= 2 and native / max(1, len(tokens)) < 0.25
            and len(words) / max(1, len(tokens)) > 0.6)


def table_cells(line: str) -> list[str]:
    """The cells of a Markdown table row (`| a | b |`), each read as prose of its own: a Hindi
    cell beside an English one must not hide it. A pipe inside `code` or escaped is no border."""
    text = re.sub(r"`[^`]*`", " ", line).strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return re.split(r"(?<!\\)\|", text)


def find_in_lines(lines: list[tuple[int, str]], lang: str, keep: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, sentence) for every English sentence in `lines`; a table row is read cell by cell."""
    found = []
    for n, line in lines:
        parts = table_cells(line) if line.lstrip().startswith("|") else (line,)
        for part in parts:
            for s in sentences(strip_markup(part)):
                if is_english(s, lang, keep):
                    found.append((n, s))
    return found
