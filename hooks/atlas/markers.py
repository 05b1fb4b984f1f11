"""Find our HTML-comment markers in a page's Markdown and replace them with rendered HTML.

A marker names its owner (`providers:`, `quiz:`, `i18n:`, `glossary:`), so a comment that is
not ours is left alone, and one of ours that is not understood stops the build. Most markers
become HTML slots filled after Markdown; `glossary:` becomes Markdown, so its headings get
anchors, permalinks and a table of contents like any page.
"""
from __future__ import annotations

import datetime as dt
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import changes, chooser, glossary, quizzes, side_by_side, tables
from .data import Atlas
# Finding markers and swapping them for slots live a layer down, in marker_syntax (sanitize
# reads pages with them too); they are named here as well, for the callers that render.
from .marker_syntax import SLOT, Marker, find, forget, swap as swap_slots  # noqa: F401 - forget: for the hooks
from .pages import fill_slots, markdown_body


@dataclass
class Context:
    """What a renderer needs to know about the page being built."""

    atlas: Atlas
    lang: str
    today: dt.date
    report_url: str
    extra: dict[str, Callable[[], str]] = field(default_factory=dict)  # i18n:status, reader:choose
    terms: tuple[glossary.Term, ...] = ()                               # for glossary:terms
    counter: int = 0
    # Rendered markers by (owner, name, options), shared by every page of one language in one
    # build: each distinct marker is rendered once per language, whatever the number of pages.
    memo: dict | None = None

    def next_id(self, prefix: str) -> str:
        """An element id for the block being rendered; `replace` numbers it per page."""
        return f"{prefix}-{ID}"


# Stands for a page's own element id in memoised HTML (`atlas-table-<ID>`); random per process,
# so no data or translation can contain it.
ID = "atlasid" + secrets.token_hex(8)
# Filled after search indexing: tables, lists and the chooser repeat what the provider pages
# say (readers find a provider through its own page), quizzes repeat the guide they check, and
# the status table is for translators. Search then holds the prose people wrote.
LATE = ("providers", "reader", "quiz", "i18n")


@dataclass(frozen=True)
class Late:
    """A rendered block that goes in only after Material's search has indexed the page
    (`on_page_context`), so search never parses it. `html` is shared by every page that shows it."""

    html: str
    ident: str

    def text(self) -> str:
        return self.html.replace(ID, self.ident)


def replace(markdown: str, ctx: Context, swap: bool = True) -> tuple[str, list[str], list[str | Late]]:
    """Markdown with each marker swapped for a slot comment, one message per marker that
    failed, and the rendered HTML for each slot (`Late` for blocks filled after search).

    The HTML goes in after Markdown has run (`fill`), so Markdown never parses or alters
    it and large tables cost no Markdown time. With `ctx.memo`, a marker rendered before for
    this language (by `check_tree`, or on another page) is not rendered again. With `swap`
    false (a check that wants the messages), the Markdown comes back as it was.
    """
    markers, broken = find(markdown)
    errors = [f"line {n}: marker {text!r} is not understood; allowed: {ALLOWED}" for n, text in broken]
    slots, placed, inline, quizzes_seen = [], [], [], {}
    for m in markers:
        if m.owner == "glossary":
            try:
                inline.append((m, _memoised(m, ctx, _render_markdown)))
            except ValueError as exc:
                errors.append(f"line {m.line}: marker {m.text!r}: {exc.args[0]}")
            continue
        if m.owner == "quiz" and m.name != "generated":
            if m.name in quizzes_seen:   # its element ids would repeat
                errors.append(f"line {m.line}: marker {m.text!r}: quiz '{m.name}' is already on line "
                              f"{quizzes_seen[m.name]} of this page; allowed: each quiz once per page")
                continue
            quizzes_seen[m.name] = m.line
        try:
            html = _memoised(m, ctx, _render)
        except ValueError as exc:
            errors.append(f"line {m.line}: marker {m.text!r}: {exc.args[0]}")
            continue
        placed.append(m)
        ident = ""
        if ID in html:   # this page's own id for the block (ids repeat nowhere on a page)
            ctx.counter += 1
            ident = str(ctx.counter)
        slots.append(Late(html, ident) if m.owner in LATE else html.replace(ID, ident))
    return (swap_slots(markdown, placed, inline) if swap else markdown), errors, slots


def _memoised(m: Marker, ctx: Context, render: Callable[[Marker, Context], str]) -> str:
    """`render(m, ctx)` with ids written as `ID`, from `ctx.memo` when rendered before; a
    failure is remembered too and raised again as ValueError(reason)."""
    key = (m.owner, m.name, tuple(sorted(m.options.items())))
    hit = ctx.memo.get(key) if ctx.memo is not None else None
    if hit is None:
        try:
            hit = (True, render(m, ctx))
        except (quizzes.QuizError, KeyError, ValueError) as exc:
            hit = (False, exc.args[0] if exc.args else str(exc))
        if ctx.memo is not None:
            ctx.memo[key] = hit
    if not hit[0]:
        raise ValueError(hit[1])
    return hit[1]


def fill(html: str, slots: list[str | Late], late: bool = False) -> str:
    """Put each slot's rendered HTML into the page HTML (Markdown may wrap a slot in <p>):
    the early blocks, or with `late` the `Late` ones."""
    return fill_slots(html, blocks(slots, late))


def blocks(slots: list[str | Late], late: bool = False) -> dict[str, str]:
    """Each slot comment with its HTML: the early blocks, or with `late` the `Late` ones."""
    return {SLOT.format(n): block.text() if late else block
            for n, block in enumerate(slots) if isinstance(block, Late) == late}


def check_tree(docs: Path, texts: dict[Path, str], ctx_for: Callable[[str], Context],
               languages: Callable[[Path], list[str]] | None = None) -> list[str]:
    """Render every marker of every page (`texts`: page path -> text, read by
    `sanitize.check_docs`) in each language that page is built in (`languages(path)`; by
    default the language of its folder under `docs`).

    Returns the problems, as 'docs/…md:N: …' with lines counted in the file. Run once
    before the first language is written, so a broken marker in any language stops the
    build before any page reaches the site folder; contexts that share a `memo` with the
    page builds keep what was rendered here, so nothing is rendered twice.
    """
    problems = []
    for page, text in sorted(texts.items()):
        rel = page.relative_to(docs.parent).as_posix()
        body, dropped = markdown_body(text)   # what the page build will be handed, so `find` reads it once
        for lang in (languages(page) if languages else [page.relative_to(docs).parts[0]]):
            problems += [located(rel, e, dropped) for e in replace(body, ctx_for(lang), swap=False)[1]]
    return sorted(set(problems), key=problems.index)


def located(rel: str, error: str, dropped: int = 0) -> str:
    """'line N: message' from `replace` as 'file:N: message' (`dropped`: lines of the file
    before the Markdown that `replace` read)."""
    m = re.match(r"line (\d+): ", error)
    return f"{rel}:{int(m.group(1)) + dropped}: {error[m.end():]}" if m else f"{rel}:{1 + dropped}: {error}"


ALLOWED = ("<!-- providers:table feature=GROUP -->, <!-- providers:matrix -->, <!-- providers:list -->, "
           "<!-- quiz:ID -->, <!-- quiz:generated feature=FIELD count=N -->, <!-- i18n:status -->, "
           "<!-- glossary:terms -->, <!-- reader:choose -->, <!-- reader:side-by-side -->, <!-- reader:changes -->")


def reader_blocks(atlas, lang: str, today, reader_data: Callable[[], object], root: Path | None = None,
                  repo_url: str = "") -> dict[str, Callable[[], str]]:
    """The reader tools' markers (<!-- reader:choose -->, <!-- reader:side-by-side -->,
    <!-- reader:changes -->) for a Context's `extra`, the same for the build and `make i18n`."""
    to_root = "" if lang == atlas.languages[0] else "../"   # the changes page sits at its language's root
    return {"choose": lambda: chooser.render_chooser(atlas, reader_data(), lang),
            "side-by-side": lambda: side_by_side.render(atlas, lang),
            "changes": lambda: changes.render(atlas, lang, changes.history(root) if root else None, repo_url, to_root)}


def _render_markdown(m: Marker, ctx: Context) -> str:
    if m.name != "terms":
        raise ValueError(f"unknown marker '{m.owner}:{m.name}', allowed: <!-- glossary:terms -->")
    _only(m, set())
    t = lambda key: ctx.atlas.t(ctx.lang, key)  # noqa: E731
    return glossary.markdown(ctx.lang, ctx.terms, t("glossary.more_terms"), t("glossary.english"),
                             t("site.language_name"))


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
    if m.owner in ("i18n", "reader") and m.name in ctx.extra:
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
