"""The "choose by needs" page: native checkboxes per need, and every provider with the facts
behind each need. Which values meet a need is data (data/fields.yaml `needs:`); the page
carries, per provider, the choices its sourced facts meet and those still unknown, so the
script only compares lists. Without JavaScript every provider is listed with its facts.
"""
from __future__ import annotations

from markupsafe import Markup, escape as e

from . import collation

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
    home = atlas.home_region.get(lang, ())
    for n in reader.needs:
        if not n.each_item:
            continue
        items = [item for m, item in all_tokens if m is n]
        if atlas.list_fields[n.field].items is None:   # countries: the reader's own first, then by name
            order = collation.key(lang)
            items.sort(key=lambda c: (c not in home, home.index(c) if c in home else 0, order(atlas.country(lang, c))))
        labels = [(token(n, i), t(f"item.{n.id}", item=atlas.item_label(lang, n.field, i))) for i in items]
        groups.append((n.id, t(f"legend_{n.id}"), labels))
    fields = list(dict.fromkeys(n.field for n in reader.needs))
    labels = {f: atlas.t(lang, f"fields.{f}.label") for f in fields}
    met = _met(atlas, reader, all_tokens)
    rows = []
    for p in sorted(atlas.providers, key=lambda p: p.name.casefold()):
        facts = []
        for f in fields:
            fact = p.facts[f]
            if f in atlas.list_fields and fact.known:
                words = ", ".join(atlas.item_label(lang, f, i) for i in fact.value) or atlas.t(lang, f"fields.{f}.empty")
            else:
                words = atlas.value_label(lang, f, fact.value)
            facts.append((f, labels[f], words, not fact.known))
        rows.append((p, *met[p.id], facts))
    html = render("chooser.html", t=t, plain=plain, groups=groups, rows=Markup(ROWS_SLOT), total=len(rows))
    # The rows go in after render() has dropped blank lines (they have none): a thousand
    # providers are a thousand list items, cheaper as strings than as template loops.
    return html.replace(ROWS_SLOT, _items(atlas, lang, rows), 1)


ROWS_SLOT = "<!-- atlas-choose-rows -->"
_met_of: list = [None, None, {}]   # the Atlas and ReaderData of the choices below, and the choices


def _met(atlas: Atlas, reader: ReaderData, all_tokens: list) -> dict[str, tuple[str, str]]:
    """Per provider id, the choices its facts meet and those still unknown, as the page's
    space-separated tokens: the same in every language, so worked out once per data."""
    if _met_of[0] is not atlas or _met_of[1] is not reader:
        met = {}
        for p in atlas.providers:
            states = [(token(n, i), meets(p, n, i)) for n, i in all_tokens]
            met[p.id] = (" ".join(t for t, state in states if state == YES),
                         " ".join(t for t, state in states if state == UNKNOWN))
        _met_of[:] = [atlas, reader, met]
    return _met_of[2]


def _items(atlas: Atlas, lang: str, rows: list) -> str:
    """One list item per provider, its facts under it. Every value is escaped: data and
    translations are text."""
    out = []
    # A field's opening (its name and label) and a value's words are the same for hundreds of
    # providers: each is escaped once.
    opening: dict = {}
    escaped: dict = {}
    for p, yes, unknown, facts in rows:
        pid = e(p.id)
        out.append(f'<li data-provider="{pid}" data-yes="{e(yes)}" data-unknown="{e(unknown)}">\n'
                   f'<a href="{ROOT_LINK}providers/{pid}.html" class="atlas-choose__name">{e(p.name)}</a>'
                   f' <span class="atlas-providers__category">({e(atlas.t(lang, f"categories.{p.category}"))})</span>\n'
                   '<dl class="atlas-choose__facts">')
        for field, label, words, unknown_fact in facts:
            head = opening.get((field, label, unknown_fact))
            if head is None:
                mark = ' class="atlas-choose__unknown"' if unknown_fact else ""
                head = opening[(field, label, unknown_fact)] = f'<div data-field="{e(field)}"{mark}><dt>{e(label)}</dt><dd>'
            said = escaped.get(words)
            if said is None:
                said = escaped[words] = str(e(words))
            out.append(f'{head}{said}</dd></div>')
        out.append("</dl>\n</li>")
    return "\n".join(out)
