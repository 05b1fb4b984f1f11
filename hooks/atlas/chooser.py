"""The "choose by needs" page: native checkboxes per need, and every provider with the facts
behind each need. Which values meet a need is data (data/fields.yaml `needs:`); the page
carries, per provider, the choices its sourced facts meet and those still unknown, so the
script only compares lists. Without JavaScript every provider is listed with its facts.
"""
from __future__ import annotations

from . import countries
from .data import Atlas
from .provider_pages import ROOT_LINK
from .reader import UNKNOWN, YES, ReaderData, meets, token, tokens
from .render import render


def render_chooser(atlas: Atlas, reader: ReaderData, lang: str) -> str:
    """HTML of the chooser in `lang`."""
    t = lambda key, **kw: atlas.t(lang, f"reader.choose.{key}", **kw)  # noqa: E731
    all_tokens = tokens(atlas, reader.needs)
    plain = [(token(n, None), t(f"needs.{n.id}")) for n, item in all_tokens if item is None]
    groups = []
    home = atlas.home_region.get(lang)
    for n in reader.needs:
        if not n.each_item:
            continue
        items = [item for m, item in all_tokens if m is n]
        if atlas.list_fields[n.field].items is None:   # countries: the reader's own first, then by name
            items.sort(key=lambda c: (c != home, countries.name(c, lang)))
        labels = [(token(n, i), t(f"item.{n.id}", item=atlas.item_label(lang, n.field, i))) for i in items]
        groups.append((n.id, t(f"legend_{n.id}"), labels))
    fields = list(dict.fromkeys(n.field for n in reader.needs))
    rows = []
    for p in sorted(atlas.providers, key=lambda p: p.name.casefold()):
        met = [(n, i, meets(p, n, i)) for n, i in all_tokens]
        yes = [token(n, i) for n, i, state in met if state == YES]
        unknown = [token(n, i) for n, i, state in met if state == UNKNOWN]
        facts = []
        for f in fields:
            fact = p.facts[f]
            if f in atlas.list_fields and fact.known:
                words = ", ".join(atlas.item_label(lang, f, i) for i in fact.value) or atlas.t(lang, f"fields.{f}.empty")
            else:
                words = atlas.value_label(lang, f, fact.value)
            facts.append((f, atlas.t(lang, f"fields.{f}.label"), words, not fact.known))
        rows.append((p, " ".join(yes), " ".join(unknown), facts))
    return render("chooser.html", t=t, plain=plain, groups=groups, rows=rows, total=len(rows), root=ROOT_LINK,
                  category=lambda c: atlas.t(lang, f"categories.{c}"))
