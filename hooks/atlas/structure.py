"""Compare the skeleton of a translated page with its English original."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .markers import MARKER
from .pages import HEADING, prose_lines

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


def compare(english: Path, translated: Path, texts: dict[Path, str] | None = None) -> list[tuple[int, str]]:
    """(line, message) for each way the translation's skeleton differs from English
    (`texts`: the pages' text already read, by path)."""
    if texts is not None and (english not in texts or translated not in texts):
        return []   # a page that could not be read safely: check_docs has said why
    read = lambda p: texts[p] if texts is not None else p.read_text(encoding="utf-8")  # noqa: E731
    en, tr = skeleton(read(english)), skeleton(read(translated))
    lines = read(translated).splitlines()
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
    if en["markers"] != tr["markers"]:
        out.append((1, f"markers {tr['markers']} differ from English {en['markers']}"))
    if Counter(en["links"]) != Counter(tr["links"]):
        missing = sorted((Counter(en["links"]) - Counter(tr["links"])).elements())
        extra = sorted((Counter(tr["links"]) - Counter(en["links"])).elements())
        out.append((1, f"link targets differ from English: missing {missing}, extra {extra}"))
    return out


def _line_of(lines: list[str], needle: str, nth: int = 1) -> int:
    seen = 0
    for n, line in enumerate(lines, 1):
        if needle in line:
            seen += 1
            if seen == (2 * nth - 1 if needle == "```" else nth):
                return n
    return 1
