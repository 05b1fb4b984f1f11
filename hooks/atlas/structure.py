"""Compare the skeleton of a translated page with its English original.

`make i18n` compares everything (headings, code, markers, links). The build refuses the part a
reader would lose without a word (`lost`): a translation with no text, or without a marker the
English page has (its table, quiz or list), rather than publish the page without it.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path

from .marker_syntax import MARKER
from .pages import HEADING, markdown_body, prose_lines

LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE_OPEN = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)")
COMMENT = re.compile(r"(^|\s)(#|//).*$")


def skeleton(text: str) -> dict[str, list]:
    """Headings (level, anchor), code blocks (language, code without comments), markers, links."""
    headings, markers, links = [], [], []
    for _, line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            headings.append((len(m.group(1)), m.group(3) or ""))
        markers += [mk.group(0) for mk in MARKER.finditer(line)]
        links += LINK.findall(line)
    return {"headings": headings, "code": _code_blocks(text), "markers": markers, "links": sorted(links)}


def _code_blocks(text: str) -> list[tuple[str, str]]:
    blocks, current, lang = [], None, ""
    for line in text.splitlines():
        m = FENCE_OPEN.match(line)
        if m and current is None:
            current, lang = [], m.group(2)
            continue
        if m and current is not None:
            blocks.append((lang, "\n".join(current)))
            current = None
            continue
        if current is not None:
            stripped = COMMENT.sub("", line).rstrip()
            if stripped.strip():
                current.append(stripped)
    return blocks


EXTRA_MARKER = "is not at this place in the English page"


def lost(english: str, translated: str) -> list[tuple[int, str]]:
    """(line, message) for what a reader of the translation would miss: all its text (only
    front matter is left), or a marker of the English page."""
    if not markdown_body(translated)[0].strip() and markdown_body(english)[0].strip():
        return [(max(1, len(translated.splitlines())), f"the page has no text after its front matter, English has "
                              f"{len(markdown_body(english)[0].splitlines())} lines; allowed: the whole page "
                              "translated, or no file (readers then get the English page, marked as not yet translated)")]
    if skeleton(english)["markers"] == skeleton(translated)["markers"]:
        return []
    return [(n, m) for n, m in _located_differences(english, translated)   # a marker English lacks loses nothing
            if m.startswith("markers differ") and not m.endswith(EXTRA_MARKER)]


def lost_in_tree(docs: Path, texts: dict[Path, str], languages: list[str], english: str = "en",
                 behind: Callable[[str, str], bool] = lambda lang, page: False) -> list[str]:
    """'docs/<lang>/<page>:N: …' for every translation in `languages` that `lost` finds
    wanting (`texts`: every page read, by path, as sanitize.check_docs returns them). A
    translation that is `behind` its English page (outdated) may lack a marker English added
    since: readers get the outdated notice and a link to the English page, so only a page with
    no text at all is refused."""
    out = []
    for path, text in sorted(texts.items()):
        lang, _, page = path.relative_to(docs).as_posix().partition("/")
        original = docs / english / page
        if lang in languages and lang != english and original in texts:
            found = lost(texts[original], text)
            if behind(lang, page):
                found = [(n, m) for n, m in found if not m.startswith("markers differ")]
            out += [f"docs/{lang}/{page}:{n}: {message}" for n, message in found]
    return out


def compare(english: Path, translated: Path, texts: dict[Path, str] | None = None) -> list[tuple[int, str]]:
    """(line, message) for each way the translation's skeleton differs from English
    (`texts`: the pages' text already read, by path)."""
    if texts is not None and (english not in texts or translated not in texts):
        return []   # a page that could not be read safely: check_docs has said why
    read = lambda p: texts[p] if texts is not None else p.read_text(encoding="utf-8")  # noqa: E731
    return compare_text(read(english), read(translated))


def compare_text(english: str, translated: str) -> list[tuple[int, str]]:
    """`compare` for two texts (the English one may be an older version, from git history)."""
    empty = lost(english, translated)
    if empty and not empty[0][1].startswith("markers differ"):
        return empty   # one message says it all: every other part is missing too
    en, tr = skeleton(english), skeleton(translated)
    lines = translated.splitlines()
    out = []
    if [h[1] for h in en["headings"]] != [h[1] for h in tr["headings"]] or len(en["headings"]) != len(tr["headings"]):
        ea, ta = [h[1] for h in en["headings"]], [h[1] for h in tr["headings"]]
        first = next((i for i, (a, b) in enumerate(zip(ea, ta)) if a != b), min(len(ea), len(ta)))
        want = ea[first] if first < len(ea) else "(none)"
        got = ta[first] if first < len(ta) else "(none)"
        out.append((_line_of(lines, "{ #" + got) if got != "(none)" else len(lines),
                    f"headings differ from English: {len(ta)} headings vs {len(ea)}; "
                    f"heading #{first + 1} has anchor '{got}', English has '{want}'"))
    elif [h[0] for h in en["headings"]] != [h[0] for h in tr["headings"]]:
        out.append((1, "heading levels differ from English"))
    if len(en["code"]) != len(tr["code"]):
        out.append((1, f"{len(tr['code'])} code blocks, English has {len(en['code'])}"))
    else:
        for i, (a, b) in enumerate(zip(en["code"], tr["code"]), 1):
            if a != b:
                out.append((_line_of(lines, "```", i), f"code block {i} differs from English (comments aside)"))
    if en["markers"] != tr["markers"] or Counter(en["links"]) != Counter(tr["links"]):
        out += _located_differences(english, translated)
    return out


def _located(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """The headings (line, anchor or title), and the markers and link targets as (line, section,
    value): the section is the number of headings above, 0 before the first."""
    heads, found_markers, links = [], [], []
    for n, line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            heads.append((n, m.group(3) or m.group(2)))
        found_markers += [(n, len(heads), mk.group(0)) for mk in MARKER.finditer(line)]
        links += [(n, len(heads), target) for target in LINK.findall(line)]
    return heads, found_markers, links


def _located_differences(english: str, translated: str) -> list[tuple[int, str]]:
    """(line, message) for each marker or link target the translation lacks, has extra or has in
    place of English's: an extra one at its own line, a missing one where it belongs (the start
    of its section in the translation), each naming its line in the English page."""
    en_heads, en_markers, en_links = _located(english)
    tr_heads, tr_markers, tr_links = _located(translated)
    first = next(iter(prose_lines(translated)), (1, ""))[0]

    def section(k: int, heads: list[tuple[int, str]]) -> str:
        return f"under '{heads[k - 1][1]}'" if 0 < k <= len(heads) else "before the first heading"

    def belongs(k: int) -> tuple[int, str]:   # where English's section k starts in the translation
        line = tr_heads[k - 1][0] if 0 < k <= len(tr_heads) else first
        return line, section(k, en_heads)

    out = []
    matcher = SequenceMatcher(a=[v for *_, v in en_markers], b=[v for *_, v in tr_markers], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        mine, theirs = tr_markers[j1:j2], en_markers[i1:i2]
        for (n, _, value), (en_n, _, en_value) in zip(mine, theirs):
            out.append((n, f"markers differ from English: {value!r} here, English has {en_value!r} "
                           f"(line {en_n} of the English page)"))
        for n, _, value in mine[len(theirs):]:
            out.append((n, f"markers differ from English: {value!r} {EXTRA_MARKER}"))
        for en_n, k, value in theirs[len(mine):]:
            line, where = belongs(k)
            out.append((line, f"markers differ from English: {value!r} (line {en_n} of the English page) is "
                              f"missing; it belongs {where}"))
    missing = Counter(t for *_, t in en_links) - Counter(t for *_, t in tr_links)
    extra = Counter(t for *_, t in tr_links) - Counter(t for *_, t in en_links)
    lost = _surplus(en_links, tr_links, missing)     # English's links the translation lacks, by section
    added = _surplus(tr_links, en_links, extra)      # the translation's links English lacks
    for n, k, target in added:
        twin = next((x for x in lost if x[1] == k), None)   # the same section lost one: a changed link
        if twin:
            lost.remove(twin)
            out.append((n, f"link targets differ from English: {target!r} here, English links {twin[2]!r} "
                           f"(line {twin[0]} of the English page)"))
        else:
            out.append((n, f"link targets differ from English: {target!r} is not linked in the English page"))
    for en_n, k, target in lost:
        line, where = belongs(k)
        out.append((line, f"link targets differ from English: {target!r} (line {en_n} of the English page) "
                          f"is missing; it belongs {where}"))
    return sorted(out)


def _surplus(mine: list[tuple[int, int, str]], theirs: list[tuple[int, int, str]],
             counts: Counter) -> list[tuple[int, int, str]]:
    """The occurrences of `mine` that `theirs` lacks (`counts` of them by target): first from
    the sections where `mine` has more of a target than `theirs`, then the last ones."""
    per_section = Counter((k, t) for _, k, t in theirs)
    chosen, left = [], Counter(counts)
    for n, k, t in mine:
        if left[t] and per_section[(k, t)] <= 0:
            chosen.append((n, k, t))
            left[t] -= 1
        else:
            per_section[(k, t)] -= 1
    for n, k, t in reversed(mine):
        if left[t] and (n, k, t) not in chosen:
            chosen.append((n, k, t))
            left[t] -= 1
    return sorted(chosen)


def _line_of(lines: list[str], needle: str, nth: int = 1) -> int:
    seen = 0
    for n, line in enumerate(lines, 1):
        if needle in line:
            seen += 1
            if seen == (2 * nth - 1 if needle == "```" else nth):
                return n
    return 1
