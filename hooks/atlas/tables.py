"""Comparison tables rendered from provider facts, one language at a time."""
from __future__ import annotations

import datetime as dt

from markupsafe import Markup, escape as e

from . import cells, collation
from .cells import ROOT_LINK
from .data import Atlas, Provider
from .facts import count
from .render import local_date, pieces, render


# A provider with fewer sourced facts than this has not been researched yet: where a table has
# nothing sourced for it, its row says so in one cell instead of a row of "Unknown", and sorts last.
RESEARCHED = 3


def pending(p: Provider) -> bool:
    """Whether `p` is still to be researched (fewer than RESEARCHED sourced facts)."""
    return sum(1 for fact in p.facts.values() if fact.known) < RESEARCHED


_waiting_of: list = [None, frozenset()]   # the Atlas, and the ids of its providers not yet researched


def waiting(atlas: Atlas) -> frozenset[str]:
    """Ids of the providers not yet researched, worked out once per Atlas (every table asks)."""
    if _waiting_of[0] is not atlas:
        _waiting_of[:] = [atlas, frozenset(p.id for p in atlas.providers if pending(p))]
    return _waiting_of[1]


_order_of: list = [None, {}]   # the Atlas, and field -> its providers in order (the same in every language)


def order(atlas: Atlas, field: str) -> list[Provider]:
    """Providers that have the capability first (yes, partial, unknown, no), then by name;
    providers not yet researched last."""
    if _order_of[0] is not atlas:
        _order_of[:] = [atlas, {}]
    found = _order_of[1].get(field)
    if found is None:
        late = waiting(atlas)
        found = _order_of[1][field] = sorted(
            atlas.providers, key=lambda p: (atlas.rank(field, p.facts[field].value), p.id in late, p.name.casefold()))
    return list(found)


# A row's cells are the same in every table of a language that shows the same fields, and a
# provider's fields appear in two or three tables of each language, so each cell is built once
# per atlas, language and day. Every value is escaped in cells.py, as the template would.
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


def cell(atlas: Atlas, lang: str, p: Provider, f: str, today: dt.date) -> str:
    """Provider `p`'s compact cell for field `f` in `lang`, from the cache."""
    cache = _cells(atlas, lang, today)
    found = cache.get((p.id, f))
    if found is None:
        found = cache[(p.id, f)] = cells.compact(atlas, lang, p, f, today)
    return found


def _rows(atlas: Atlas, lang: str, providers: list[Provider], fields: list[str], today: dt.date,
          with_category: bool = True) -> Markup:
    """The table body: one row per provider, its name (with a way to add it to a side-by-side
    comparison), its category, and its compact cells."""
    cache = _cells(atlas, lang, today)
    countries_field = "regions" in atlas.list_fields
    late = waiting(atlas)
    lines = []
    for p in providers:
        start = cache.get(("row", p.id, with_category))
        if start is None:   # the same in every table of the language
            pid, name, cat = e(p.id), e(p.name), e(atlas.t(lang, f"categories.{p.category}"))
            regions = f' data-regions="{e(_regions(atlas, p))}"' if countries_field else ""
            add = e(atlas.t(lang, "table.add", provider=p.name))
            prices = e(atlas.t(lang, "table.prices", provider=p.name))
            start = cache[("row", p.id, with_category)] = (
                f'<tr data-provider="{pid}"{regions}>'
                f'<th scope="row" class="atlas-table__provider" data-sort-value="{name}"><span class="atlas-table__who">'
                f'<a href="{ROOT_LINK}providers/{pid}.html">{name}</a>'
                f'<a class="atlas-table__add" href="{ROOT_LINK}compare/side-by-side.html?add={pid}" title="{add}">'
                f'<span aria-hidden="true">+</span><span class="atlas-sr">{add}</span></a>'
                # its own GPU prices: a small sign beside the name, its words for screen readers and as a tooltip
                + (f'<a class="atlas-table__price" href="{e(p.pricing.value)}" rel="noopener noreferrer" title="{prices}">'
                   f'<span aria-hidden="true">¤</span><span class="atlas-sr">{prices}</span></a>' if p.pricing else "")
                + '</span></th>'
                + (f'<td data-sort-value="{cat}" class="atlas-table__category">{cat}</td>' if with_category else ""))
        if p.id in late and not any(p.facts[f].known for f in fields):
            said = cache.get(("pending", p.id, len(fields)))
            if said is None:
                known = sum(1 for fact in p.facts.values() if fact.known)
                words = atlas.t(lang, "table.pending", sourced=known, total=len(p.facts))
                said = cache[("pending", p.id, len(fields))] = (
                    f'<td class="atlas-table__pending" colspan="{len(fields)}" data-sort-value="9">{e(words)}</td>')
            lines.append(f"{start}{said}</tr>")
            continue
        pid = p.id
        lines.append(start + "".join([cache.get((pid, f)) or cell(atlas, lang, p, f, today) for f in fields]) + "</tr>")
    return Markup("\n".join(lines))


def legend_terms(atlas: Atlas, lang: str, fields: list[str]) -> list[tuple[str, str]]:
    """(short label, full words) for each value whose table word is shortened, in these fields."""
    out = []
    for f in fields:
        for v in atlas.fields.get(f, ()):
            short = atlas.words[lang].get(f"fields.{f}.short.{v}")
            if short:
                out.append((short, atlas.value_label(lang, f, v)))
    return list(dict.fromkeys(out))


def render_table(atlas: Atlas, lang: str, group: str, *, table_id: str, today: dt.date,
                 report_url: str) -> str:
    """HTML for one comparison table (`group` may be 'all' for the full matrix, which leaves
    out the category column: its width goes to capabilities)."""
    matrix = group == "all"
    fields = list(atlas.all_fields) if matrix else list(atlas.groups[group])
    late = waiting(atlas)
    providers = sorted(atlas.providers, key=lambda p: (p.id in late, p.name.casefold())) if matrix else order(atlas, fields[0])
    rows = _rows(atlas, lang, providers, fields, today, with_category=not matrix)
    t = lambda key, **kw: atlas.t(lang, f"table.{key}", **kw)  # noqa: E731
    group_title = atlas.t(lang, f"groups.{group}")
    as_of = atlas.newest_verified or today
    tally = count(providers, fields)
    html = render(
        "table.html", id=table_id, lang=lang, t=t, rows=Markup(ROWS_SLOT), group=group, matrix=matrix,
        headers=[(f, atlas.t(lang, f"fields.{f}.label")) for f in fields],
        caption=t("caption", group=group_title, count=len(providers)),
        terms=legend_terms(atlas, lang, fields),
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
    """(code, "GPUs in India", one of the language's first countries) per filter choice: the
    page language's readers' countries first, in their order (hi: India; vi: Vietnam, then
    Singapore), then every other country by name in the page's language."""
    home = atlas.home_region.get(lang, ())
    order = collation.key(lang)
    codes = sorted(atlas.region_choices, key=lambda c: (c not in home, home.index(c) if c in home else 0,
                                                        order(atlas.country(lang, c))))
    return [(c, atlas.t(lang, "table.region_option", country=atlas.country(lang, c)), c in home) for c in codes]


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
        out.append(f'<li data-provider="{pid}"><a href="{ROOT_LINK}providers/{pid}.html">{e(p.name)}</a>'
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
