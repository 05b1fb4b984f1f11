"""Comparison tables rendered from provider facts, one language at a time."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .data import Atlas, Provider
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


def order(atlas: Atlas, field: str) -> list[Provider]:
    """Providers that have the capability first (yes, partial, unknown, no), then by name."""
    ranks = atlas.fields[field]
    return sorted(atlas.providers, key=lambda p: (ranks[p.facts[field].value], p.name.casefold()))


def render_table(atlas: Atlas, lang: str, group: str, *, table_id: str, today: dt.date,
                 report_url: str) -> str:
    """HTML for one comparison table (`group` may be 'all' for the full matrix)."""
    fields = list(atlas.fields) if group == "all" else list(atlas.groups[group])
    providers = atlas.providers if group == "all" else order(atlas, fields[0])
    if group == "all":
        providers = sorted(providers, key=lambda p: p.name.casefold())
    footnotes: dict[str, int] = {}
    rows = []
    for p in providers:
        cells = []
        for f in fields:
            fact = p.facts[f]
            rank = atlas.fields[f][fact.value]
            bucket = min(3, int(rank)) if fact.value != "unknown" else 2
            nums = tuple((footnotes.setdefault(url, len(footnotes) + 1), url) for url in fact.sources)
            cells.append(Cell(
                field=f, value=fact.value, label=atlas.value_label(lang, f, fact.value), rank=rank,
                tone=TONES[bucket], icon=ICONS[bucket], sources=nums, verified=fact.verified,
                verified_text=local_date(fact.verified, lang) if fact.verified else "",
                stale=bool(fact.verified and (today - fact.verified).days > STALE_AFTER_DAYS),
                note=atlas.note(lang, p.id, f),
            ))
        rows.append((p, cells))
    t = lambda key, **kw: atlas.t(lang, f"table.{key}", **kw)  # noqa: E731
    group_title = atlas.t(lang, f"groups.{group}")
    as_of = atlas.newest_verified or today
    return render(
        "table.html", id=table_id, lang=lang, t=t, rows=rows, group=group,
        headers=[(f, atlas.t(lang, f"fields.{f}.label")) for f in fields],
        caption=t("caption", group=group_title, count=len(providers)),
        category=lambda c: atlas.t(lang, f"categories.{c}"),
        footnotes=sorted((n, url) for url, n in footnotes.items()),
        as_of=pieces(atlas.t(lang, "table.data_as_of")), as_of_text=local_date(as_of, lang),
        as_of_iso=as_of.isoformat(), verified=pieces(atlas.t(lang, "table.verified")),
        stale_hint=t("stale_hint", days=STALE_AFTER_DAYS), report_url=report_url,
        total=len(providers),
    )


def render_list(atlas: Atlas, lang: str) -> str:
    """The providers overview: every provider's name, homepage and category."""
    providers = sorted(atlas.providers, key=lambda p: p.name.casefold())
    return render("provider_list.html", providers=providers,
                  category=lambda c: atlas.t(lang, f"categories.{c}"),
                  t=lambda key, **kw: atlas.t(lang, f"table.{key}", **kw))
