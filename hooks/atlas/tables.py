"""Comparison tables rendered from provider facts, one language at a time."""
from __future__ import annotations

import datetime as dt

from markupsafe import Markup, escape as e

from . import countries
from .data import Atlas, Provider
from .facts import count
from .render import local_date, pieces, render

STALE_AFTER_DAYS = 180
ICONS = {0: "✓", 1: "◐", 2: "?", 3: "✗"}   # shown beside the words, never instead of them
TONES = {0: "yes", 1: "partial", 2: "unknown", 3: "no"}


def order(atlas: Atlas, field: str) -> list[Provider]:
    """Providers that have the capability first (yes, partial, unknown, no), then by name."""
    return sorted(atlas.providers, key=lambda p: (atlas.rank(field, p.facts[field].value), p.name.casefold()))


# A cell's HTML is the same in every table of a language except for its footnote links, so it
# is built once per atlas, language, provider and field (a provider's fields appear in two or
# three tables of each language) as the markup before and after those links. Every value is
# escaped here, as the template would: data and translations are text, never markup.
_CELLS: dict[tuple[str, dt.date], dict] = {}
_CELLS_OF: list[Atlas | None] = [None]


def _cells(atlas: Atlas, lang: str, today: dt.date) -> dict:
    if _CELLS_OF[0] is not atlas:   # a new build or new data: forget the last atlas's cells
        forget_cells()
        _CELLS_OF[0] = atlas
    return _CELLS.setdefault((lang, today), {})


def forget_cells() -> None:
    """Drop the cell cache (the build calls this once every table is rendered)."""
    _CELLS.clear()
    _CELLS_OF[0] = None


def cell(atlas: Atlas, lang: str, p: Provider, f: str, today: dt.date) -> tuple[str, str]:
    """Provider `p`'s cell for field `f` in `lang`, as the markup before and after its source
    links, from the cache (the tables and the provider pages share it)."""
    cache = _cells(atlas, lang, today)
    found = cache.get((p.id, f))
    if found is None:
        found = cache[(p.id, f)] = _cell(atlas, lang, p, f, today)
    return found


def _cell(atlas: Atlas, lang: str, p: Provider, f: str, today: dt.date) -> tuple[str, str]:
    """The cell from its parts: the value's words depend only on the field and value, the date
    line only on the date, so each is made once per language (`cache`); the note is the
    provider's own."""
    fact = p.facts[f]
    cache = _cells(atlas, lang, today)
    head = cache.get(("value", f, fact.value))
    if head is None:
        head = cache[("value", f, fact.value)] = _value_markup(atlas, lang, f, fact)
    tail = ""
    if fact.verified:
        tail = cache.get(("date", fact.verified))
        if tail is None:
            tail = cache[("date", fact.verified)] = _date_markup(atlas, lang, fact.verified, today)
    note = atlas.note(lang, p.id, f)
    if note:
        tail += (f'\n<span class="atlas-v__note"><span class="atlas-v__note-label">{e(atlas.t(lang, "table.note"))}:</span>'
                 f' {e(note)}</span>')
    return head, tail.lstrip("\n") + "\n</td>" if tail else "</td>"


def _value_markup(atlas: Atlas, lang: str, f: str, fact) -> str:
    rank = atlas.rank(f, fact.value)
    bucket = min(3, int(rank)) if fact.value != "unknown" else 2
    tone, icon = TONES[bucket], ICONS[bucket]
    value = " ".join(fact.value) if isinstance(fact.value, tuple) else fact.value
    items = None
    if f in atlas.list_fields and fact.known:
        items = tuple((item, atlas.item_label(lang, f, item)) for item in fact.value)
        tone, icon = ("list", "") if items else ("no", ICONS[3])
        label = "" if items else atlas.t(lang, f"fields.{f}.empty")
        if items:
            rank = -len(items)   # longer lists sort first
    else:
        label = atlas.value_label(lang, f, fact.value)
    head = f'<td class="atlas-v atlas-v--{e(tone)}" data-sort-value="{e(rank)}" data-value="{e(value)}">\n'
    if items:
        return head + '<ul class="atlas-v__items">' + "".join(
            f'<li data-item="{e(item)}"' + (f' title="{e(item)}"' if words != item else "") + f">{e(words)}</li>"
            for item, words in items) + "</ul>"
    return head + f'<span class="atlas-v__icon" aria-hidden="true">{e(icon)}</span> <span class="atlas-v__label">{e(label)}</span>'


def _date_markup(atlas: Atlas, lang: str, verified: dt.date, today: dt.date) -> str:
    when = f'<time datetime="{e(verified.isoformat())}">{e(local_date(verified, lang))}</time>'
    line = ('<span class="atlas-v__date">' + "".join(
        str(e(words)) + (when if name else "") for words, name in pieces(atlas.t(lang, "table.verified"))) + "</span>")
    if (today - verified).days > STALE_AFTER_DAYS:
        hint = atlas.t(lang, "table.stale_hint", days=STALE_AFTER_DAYS)
        line += f'\n<span class="atlas-v__stale" title="{e(hint)}">⚠ {e(atlas.t(lang, "table.stale"))}</span>'
    return line


def _rows(atlas: Atlas, lang: str, providers: list[Provider], fields: list[str], table_id: str,
          today: dt.date, footnotes: dict[str, int]) -> Markup:
    """The table body: one row per provider, its cells from the per-language cache, and its
    footnote links numbered in this table's order (first source seen, first number)."""
    cache = _cells(atlas, lang, today)
    countries_field = "regions" in atlas.list_fields
    source_n: dict[int, str] = {}
    tid = e(table_id)
    lines = []
    for p in providers:
        start = cache.get(("row", p.id, None))
        if start is None:   # the same in every table of the language
            pid, name, cat = e(p.id), e(p.name), e(atlas.t(lang, f"categories.{p.category}"))
            regions = f' data-regions="{e(_regions(atlas, p))}"' if countries_field else ""
            start = cache[("row", p.id, None)] = (
                f'<tr data-provider="{pid}"{regions}>\n'
                f'<th scope="row" class="atlas-table__provider" data-sort-value="{name}">'
                f'<a href="atlas-root:providers/{pid}.html">{name}</a></th>\n'
                f'<td data-sort-value="{cat}">{cat}</td>')
        lines.append(start)
        for f in fields:
            head, tail = cell(atlas, lang, p, f, today)
            lines.append(head)
            sources = p.facts[f].sources
            if sources:
                links = []
                for url in sources:
                    n = footnotes.setdefault(url, len(footnotes) + 1)
                    label = source_n.get(n)
                    if label is None:
                        label = source_n[n] = str(e(atlas.t(lang, "table.source_n", n=n)))
                    links.append(f'<a href="#{tid}-src-{n}" class="atlas-v__fn" aria-label="{label}">[{n}]</a>')
                lines.append('<span class="atlas-v__src">' + "".join(links) + "</span>")
            lines.append(tail)
        lines.append("</tr>")
    return Markup("\n".join(lines))


def render_table(atlas: Atlas, lang: str, group: str, *, table_id: str, today: dt.date,
                 report_url: str) -> str:
    """HTML for one comparison table (`group` may be 'all' for the full matrix)."""
    fields = list(atlas.all_fields) if group == "all" else list(atlas.groups[group])
    providers = atlas.providers if group == "all" else order(atlas, fields[0])
    if group == "all":
        providers = sorted(providers, key=lambda p: p.name.casefold())
    footnotes: dict[str, int] = {}
    rows = _rows(atlas, lang, providers, fields, table_id, today, footnotes)
    t = lambda key, **kw: atlas.t(lang, f"table.{key}", **kw)  # noqa: E731
    group_title = atlas.t(lang, f"groups.{group}")
    as_of = atlas.newest_verified or today
    tally = count(providers, fields)
    html = render(
        "table.html", id=table_id, lang=lang, t=t, rows=Markup(ROWS_SLOT), group=group,
        headers=[(f, atlas.t(lang, f"fields.{f}.label")) for f in fields],
        caption=t("caption", group=group_title, count=len(providers)),
        footnotes=sorted((n, url) for url, n in footnotes.items()),
        as_of=pieces(atlas.t(lang, "table.data_as_of")), as_of_text=local_date(as_of, lang),
        as_of_iso=as_of.isoformat(), report_url=report_url,
        total=len(providers), coverage=t("coverage", sourced=tally.sourced, total=tally.total, percent=tally.percent),
        regions=region_choices(atlas, lang),
    )
    # The rows go in after render() has dropped blank lines: they have none, and that pass
    # over a thousand-row table cost more than the rest of the table.
    return html.replace(ROWS_SLOT, rows, 1)


ROWS_SLOT = "<!-- atlas-rows -->"


def region_choices(atlas: Atlas, lang: str) -> list[tuple[str, str, bool]]:
    """(code, "GPUs in India", is the page language's country) per filter choice; that one first."""
    home = atlas.home_region.get(lang)
    codes = sorted(atlas.region_choices, key=lambda c: c != home)
    return [(c, atlas.t(lang, "table.region_option", country=countries.name(c, lang)), c == home) for c in codes]


def _regions(atlas: Atlas, p: Provider) -> str:
    fact = p.facts.get("regions")
    return " ".join(fact.value) if fact is not None and fact.known and isinstance(fact.value, tuple) else ""


def render_list(atlas: Atlas, lang: str) -> str:
    """The providers overview: every provider's name, homepage, category, countries and GPU
    models. The items go in as strings after the template (a thousand providers cost more as
    template loops than the rest of the page); every value is escaped."""
    providers = sorted(atlas.providers, key=lambda p: p.name.casefold())
    shown = [f for f in ("regions", "gpus") if f in atlas.list_fields]
    unknown = e(atlas.t(lang, "values.unknown"))
    labels = {f: e(atlas.t(lang, f"fields.{f}.label")) for f in shown}
    out = []
    for p in providers:
        pid = e(p.id)
        out.append(f'<li data-provider="{pid}"><a href="atlas-root:providers/{pid}.html">{e(p.name)}</a>'
                   f' <span class="atlas-providers__category">({e(atlas.t(lang, f"categories.{p.category}"))})</span>')
        if shown:
            out.append('<dl class="atlas-providers__facts">')
            for f in shown:
                fact = p.facts[f]
                if fact.known:
                    words = ", ".join(f'<span data-item="{e(i)}"' + (f' title="{e(i)}"' if label != i else "") + f">{e(label)}</span>"
                                      for i, label in ((i, atlas.item_label(lang, f, i)) for i in fact.value))
                else:
                    words = unknown
                out.append(f"<dt>{labels[f]}</dt>\n<dd data-field=\"{e(f)}\">{words}</dd>")
            out.append("</dl>")
        out.append("</li>")
    tally = count(providers, shown)
    html = render("provider_list.html", items=Markup(LIST_SLOT),
                  coverage=atlas.t(lang, "table.coverage", sourced=tally.sourced, total=tally.total,
                                   percent=tally.percent) if shown else "")
    return html.replace(LIST_SLOT, "\n".join(out), 1)


LIST_SLOT = "<!-- atlas-provider-items -->"
