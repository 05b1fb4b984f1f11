"""Comparison tables rendered from provider facts, one language at a time."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from . import countries
from .data import Atlas, Provider
from .facts import count
from .render import local_date, pieces, render

STALE_AFTER_DAYS = 180
ICONS = {0: "✓", 1: "◐", 2: "?", 3: "✗"}   # shown beside the words, never instead of them
TONES = {0: "yes", 1: "partial", 2: "unknown", 3: "no"}


@dataclass(frozen=True)
class Cell:
    field: str
    value: str
    label: str
    rank: float
    tone: str
    icon: str
    sources: tuple[tuple[int, str], ...]   # (footnote number, url)
    verified: dt.date | None
    verified_text: str
    stale: bool
    note: str | None
    items: tuple[tuple[str, str], ...] | None = None   # list fields: (item id, its words)


def order(atlas: Atlas, field: str) -> list[Provider]:
    """Providers that have the capability first (yes, partial, unknown, no), then by name."""
    return sorted(atlas.providers, key=lambda p: (atlas.rank(field, p.facts[field].value), p.name.casefold()))


def render_table(atlas: Atlas, lang: str, group: str, *, table_id: str, today: dt.date,
                 report_url: str) -> str:
    """HTML for one comparison table (`group` may be 'all' for the full matrix)."""
    fields = list(atlas.all_fields) if group == "all" else list(atlas.groups[group])
    providers = atlas.providers if group == "all" else order(atlas, fields[0])
    if group == "all":
        providers = sorted(providers, key=lambda p: p.name.casefold())
    footnotes: dict[str, int] = {}
    rows = []
    for p in providers:
        cells = []
        for f in fields:
            fact = p.facts[f]
            rank = atlas.rank(f, fact.value)
            bucket = min(3, int(rank)) if fact.value != "unknown" else 2
            nums = tuple((footnotes.setdefault(url, len(footnotes) + 1), url) for url in fact.sources)
            items, tone, icon = None, TONES[bucket], ICONS[bucket]
            if f in atlas.list_fields and fact.known:
                items = tuple((item, atlas.item_label(lang, f, item)) for item in fact.value)
                tone, icon = ("list", "") if items else ("no", ICONS[3])
                label = "" if items else atlas.t(lang, f"fields.{f}.empty")
            else:
                label = atlas.value_label(lang, f, fact.value)
            cells.append(Cell(
                field=f, value=" ".join(fact.value) if isinstance(fact.value, tuple) else fact.value,
                label=label, rank=-len(items) if items else rank, items=items,   # longer lists sort first
                tone=tone, icon=icon, sources=nums, verified=fact.verified,
                verified_text=local_date(fact.verified, lang) if fact.verified else "",
                stale=bool(fact.verified and (today - fact.verified).days > STALE_AFTER_DAYS),
                note=atlas.note(lang, p.id, f),
            ))
        rows.append((p, cells, _regions(atlas, p)))
    t = lambda key, **kw: atlas.t(lang, f"table.{key}", **kw)  # noqa: E731
    group_title = atlas.t(lang, f"groups.{group}")
    as_of = atlas.newest_verified or today
    tally = count(providers, fields)
    return render(
        "table.html", id=table_id, lang=lang, t=t, rows=rows, group=group,
        headers=[(f, atlas.t(lang, f"fields.{f}.label")) for f in fields],
        caption=t("caption", group=group_title, count=len(providers)),
        category=lambda c: atlas.t(lang, f"categories.{c}"),
        footnotes=sorted((n, url) for url, n in footnotes.items()),
        as_of=pieces(atlas.t(lang, "table.data_as_of")), as_of_text=local_date(as_of, lang),
        as_of_iso=as_of.isoformat(), verified=pieces(atlas.t(lang, "table.verified")),
        stale_hint=t("stale_hint", days=STALE_AFTER_DAYS), report_url=report_url,
        total=len(providers), coverage=t("coverage", sourced=tally.sourced, total=tally.total, percent=tally.percent),
        regions=region_choices(atlas, lang), countries_field="regions" in atlas.list_fields,
    )


def region_choices(atlas: Atlas, lang: str) -> list[tuple[str, str, bool]]:
    """(code, "GPUs in India", is the page language's country) per filter choice; that one first."""
    home = atlas.home_region.get(lang)
    codes = sorted(atlas.region_choices, key=lambda c: c != home)
    return [(c, atlas.t(lang, "table.region_option", country=countries.name(c, lang)), c == home) for c in codes]


def _regions(atlas: Atlas, p: Provider) -> str:
    fact = p.facts.get("regions")
    return " ".join(fact.value) if fact is not None and fact.known and isinstance(fact.value, tuple) else ""


def render_list(atlas: Atlas, lang: str) -> str:
    """The providers overview: every provider's name, homepage, category, countries and GPU models."""
    providers = sorted(atlas.providers, key=lambda p: p.name.casefold())
    shown = [f for f in ("regions", "gpus") if f in atlas.list_fields]
    unknown = atlas.t(lang, "values.unknown")

    def items(p: Provider, f: str) -> tuple[tuple[str, str], ...] | None:
        fact = p.facts[f]
        return tuple((i, atlas.item_label(lang, f, i)) for i in fact.value) if fact.known else None

    tally = count(providers, shown)
    return render("provider_list.html", providers=providers, shown=shown, items=items, unknown=unknown,
                  label=lambda f: atlas.t(lang, f"fields.{f}.label"),
                  category=lambda c: atlas.t(lang, f"categories.{c}"),
                  coverage=atlas.t(lang, "table.coverage", sourced=tally.sourced, total=tally.total,
                                   percent=tally.percent) if shown else "",
                  t=lambda key, **kw: atlas.t(lang, f"table.{key}", **kw))
