"""Find our HTML-comment markers in a page's Markdown and replace them with rendered HTML.

A marker names its owner (`providers:`, `quiz:`, `i18n:`), so a comment that is not ours
is left alone, and one of ours that is not understood stops the build.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import quizzes, tables
from .data import Atlas

MARKER = re.compile(r"<!--\s*(providers|quiz|i18n):([a-z0-9-]+)((?:\s+[a-z]+=[^\s>]+)*)\s*-->")
OURS = re.compile(r"<!--\s*(providers|quiz|i18n):")
FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Marker:
    owner: str
    name: str
    options: dict[str, str]
    line: int
    text: str


@dataclass
class Context:
    """What a renderer needs to know about the page being built."""

    atlas: Atlas
    lang: str
    today: dt.date
    report_url: str
    extra: dict[str, Callable[[], str]] = field(default_factory=dict)  # e.g. i18n:status
    counter: int = 0

    def next_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter}"


def find(markdown: str) -> tuple[list[Marker], list[tuple[int, str]]]:
    """Markers outside fenced code, and (line, text) of our comments that do not parse."""
    found, broken = [], []
    fenced = False
    for n, line in enumerate(markdown.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or "<!--" not in line:
            continue
        for m in OURS.finditer(line):
            end = line.find("-->", m.start())
            text = line[m.start(): end + 3] if end >= 0 else line[m.start():]
            full = MARKER.fullmatch(text)
            if not full:
                broken.append((n, text))
                continue
            opts = dict(o.split("=", 1) for o in full.group(3).split())
            found.append(Marker(full.group(1), full.group(2), opts, n, text))
    return found, broken


SLOT = "<!-- atlas-slot {} -->"


def replace(markdown: str, ctx: Context, rendered: list[str] | None = None) -> tuple[str, list[str], list[str]]:
    """Markdown with each marker swapped for a slot comment, one message per marker that
    failed, and the rendered HTML for each slot.

    The HTML goes in after Markdown has run (`fill`), so Markdown never parses or alters
    it and large tables cost no Markdown time. `rendered` reuses HTML rendered earlier for
    the same markers in the same order (see `check_tree`).
    """
    markers, broken = find(markdown)
    if rendered is not None and len(rendered) == len(markers) and not broken:
        out = markdown
        for n, m in enumerate(markers):
            out = out.replace(m.text, "\n" + SLOT.format(n) + "\n", 1)
        return out, [], list(rendered)
    errors = [f"line {n}: marker {text!r} is not understood; allowed: {ALLOWED}" for n, text in broken]
    out, slots = markdown, []
    for m in markers:
        try:
            html = _render(m, ctx)
        except (quizzes.QuizError, KeyError, ValueError) as exc:
            reason = exc.args[0] if exc.args else exc
            errors.append(f"line {m.line}: marker {m.text!r}: {reason}")
            continue
        out = out.replace(m.text, "\n" + SLOT.format(len(slots)) + "\n", 1)
        slots.append(html)
    return out, errors, slots


def fill(html: str, slots: list[str]) -> str:
    """Put each slot's rendered HTML into the page HTML (Markdown may wrap a slot in <p>)."""
    for n, block in enumerate(slots):
        slot = SLOT.format(n)
        html = html.replace(f"<p>{slot}</p>", block, 1) if f"<p>{slot}</p>" in html else html.replace(slot, block, 1)
    return html


def check_tree(docs: Path, ctx_for: Callable[[str], Context]) -> tuple[list[str], dict[tuple[str, str], list[str]]]:
    """Render every marker of every page in every language folder under `docs`.

    Returns the problems, as 'docs/…md: line N: …' with lines counted in the file, and the
    rendered HTML per (language, file), so each page's build reuses it instead of rendering
    again. Run once before the first language is written, so a broken marker in any
    language stops the build before any page reaches the site folder.
    """
    problems, rendered = [], {}
    for folder in sorted(p for p in docs.iterdir() if p.is_dir()):
        for page in sorted(folder.rglob("*.md")):
            _, errors, slots = replace(page.read_text(encoding="utf-8"), ctx_for(folder.name))
            rel = page.relative_to(docs.parent).as_posix()
            problems += [f"{rel}: {e}" for e in errors]
            rendered[(folder.name, str(page.resolve()))] = slots
    return problems, rendered


ALLOWED = ("<!-- providers:table feature=GROUP -->, <!-- providers:matrix -->, <!-- providers:list -->, "
           "<!-- quiz:ID -->, <!-- quiz:generated feature=FIELD count=N -->, <!-- i18n:status -->")


def _render(m: Marker, ctx: Context) -> str:
    a, lang = ctx.atlas, ctx.lang
    if m.owner == "providers":
        if m.name == "table":
            _only(m, {"feature"})
            group = m.options.get("feature", "")
            if group not in a.groups:
                raise ValueError(f"unknown feature {group!r}, allowed: {', '.join(a.groups)}")
            return tables.render_table(a, lang, group, table_id=ctx.next_id("atlas-table"),
                                       today=ctx.today, report_url=ctx.report_url)
        if m.name == "matrix":
            _only(m, set())
            return tables.render_table(a, lang, "all", table_id=ctx.next_id("atlas-table"),
                                       today=ctx.today, report_url=ctx.report_url)
        if m.name == "list":
            _only(m, set())
            return tables.render_list(a, lang)
    if m.owner == "quiz":
        if m.name == "generated":
            _only(m, {"feature", "count"})
            count = m.options.get("count", "1")
            if not count.isdigit():
                raise ValueError(f"count={count!r}, allowed: a whole number")
            questions = quizzes.generated(a, lang, m.options.get("feature", ""), int(count))
            title = a.t(lang, "quiz.generated_title")
            return quizzes.render_quiz(a, lang, quiz_key=ctx.next_id(f"quiz-generated-{m.options['feature']}"),
                                       title=title, questions=questions)
        _only(m, set())
        title, questions = quizzes.authored(a, lang, m.name)
        return quizzes.render_quiz(a, lang, quiz_key=f"quiz-{m.name}", title=title, questions=questions)
    if m.owner == "i18n" and m.name in ctx.extra:
        _only(m, set())
        return ctx.extra[m.name]()
    raise ValueError(f"unknown marker '{m.owner}:{m.name}'")


def _only(m: Marker, allowed: set[str]) -> None:
    extra = set(m.options) - allowed
    if extra:
        raise ValueError(f"unknown option {', '.join(sorted(extra))}, allowed: {', '.join(sorted(allowed)) or 'none'}")
    missing = {"feature"} & allowed - set(m.options)
    if missing:
        raise ValueError("missing option feature=…")
