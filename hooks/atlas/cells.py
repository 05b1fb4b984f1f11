"""One fact as readers see it: a compact cell for the comparison tables (icon and a short
label, as MDN's compatibility tables and caniuse do) and the evidence behind it (the value in
words, the note, the sources, the date it was verified and the source's own words).

The evidence is written once, on the provider's page (`providers/<id>.html`, row
`#fact-<field>`); every table cell links there, and the table script opens that block in a
row under the cell. So a note is written once per provider and language, not once per table
cell, and a table page carries only its short cells. Every value is escaped: data and
translations are text, never markup.
"""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

from markupsafe import escape as e

from . import ages, collation
from .data import Atlas, Fact, Provider
from .fragments import with_fragment
from .render import local_date, local_month, pieces

ICONS = {0: "✓", 1: "◐", 2: "?", 3: "✗"}   # shown beside the words, never instead of them
TONES = {0: "yes", 1: "partial", 2: "unknown", 3: "no"}
CHIPS = 2          # list values show this many items in a table cell, then "+N"
ROOT_LINK = "atlas-root:"


def fact_anchor(field: str) -> str:
    """The id of a fact's row on its provider's page."""
    return f"fact-{field}"


def fact_link(p: Provider, field: str) -> str:
    """Where a cell's evidence lives: its provider's page, at the fact (made relative later)."""
    return f"{ROOT_LINK}providers/{p.id}.html#{fact_anchor(field)}"


def tone(atlas: Atlas, field: str, fact: Fact) -> tuple[str, str, float]:
    """(tone, icon, sort rank) of a fact: yes, partial, unknown, no; list fields are 'list'
    (longer lists sort first) or 'no' for a sourced empty list."""
    rank = atlas.rank(field, fact.value)
    bucket = 2 if not fact.known else min(3, int(rank))
    if field in atlas.list_fields and fact.known:
        return ("list", "", -len(fact.value)) if fact.value else ("no", ICONS[3], rank)
    return TONES[bucket], ICONS[bucket], rank


def short_label(atlas: Atlas, lang: str, field: str, value: str) -> str:
    """A value's word or two for a table cell: the field's own short word (`fields.F.short.V`),
    else its value label, which for yes/no fields is already short."""
    return atlas.words[lang].get(f"fields.{field}.short.{value}") or atlas.value_label(lang, field, value)


def has_details(atlas: Atlas, lang: str, p: Provider, field: str) -> bool:
    fact = p.facts[field]
    return bool(fact.sources or fact.verified or _noted(atlas, lang, p, field))


def _noted(atlas: Atlas, lang: str, p: Provider, field: str) -> bool:
    """The fact has a note in `lang`, or an English one shown there until it is translated."""
    noted = atlas.noted.get(lang)
    if noted is None:
        return atlas.note(lang, p.id, field) is not None or atlas.note(atlas.languages[0], p.id, field) is not None
    return (p.id, field) in noted


# The parts of cells and evidence that depend only on the language and the value (a value's
# words, a date line, a list of source links, a quotation) are made once per atlas: a thousand
# providers share a few hundred of them, and escaping every one again was most of the cost.
_PARTS: dict = {}
_PARTS_OF: list = [None]


def _parts(atlas: Atlas) -> dict:
    if _PARTS_OF[0] is not atlas:   # new data: forget the last atlas's parts
        _PARTS.clear()
        _PARTS_OF[0] = atlas
    return _PARTS


def _memo(atlas: Atlas, key: tuple, make) -> str:
    parts = _parts(atlas)
    found = parts.get(key)
    if found is None:
        found = parts[key] = make()
    return found


def compact(atlas: Atlas, lang: str, p: Provider, field: str, today: dt.date) -> str:
    """The table cell (`<td>…</td>`): short label, or up to CHIPS list items and "+N"; a link to
    the evidence when there is any. The tone's icon (ICONS) is drawn before the label by atlas.css
    from the cell's class (`atlas-v--plain` marks a cell without a link), and is not read aloud:
    one element less in each of the matrix's 540 cells is a fifth of its style work on a phone.
    Unknown without a note is plain and quiet."""
    fact = p.facts[field]
    noted = _noted(atlas, lang, p, field)
    stale = fact.known and ages.age(field, fact.verified, fact.source_date, today) is not None
    linked = bool(fact.sources or fact.verified or noted)
    head, inner = _memo(atlas, ("cell", lang, field, fact.value, noted, stale, linked),
                        lambda: _compact_parts(atlas, lang, field, fact, noted, stale, linked))
    if linked:
        parts = _parts(atlas)
        link = parts.get(("link", p.id, field))   # the same in every language
        if link is None:
            link = parts[("link", p.id, field)] = str(e(fact_link(p, field)))
        return f'{head}<a class="atlas-v__more" href="{link}">{inner}</a></td>'
    return f"{head}{inner}</td>"


def _compact_parts(atlas: Atlas, lang: str, field: str, fact: Fact, noted: bool, stale: bool,
                   linked: bool) -> tuple[str, str]:
    kind, icon, rank = tone(atlas, field, fact)
    classes = (f"atlas-v atlas-v--{kind}" + ("" if linked else " atlas-v--plain") + (" atlas-v--noted" if noted else "")
               + (" atlas-v--stale" if stale else ""))
    value = " ".join(fact.value) if isinstance(fact.value, tuple) else fact.value
    listed = ""
    if kind == "list":
        items = [atlas.item_label(lang, field, i) for i in ordered(atlas, lang, field, fact.value)]
        inner = "".join(f'<span class="atlas-v__chip">{e(i)}</span>' for i in items[:CHIPS])
        if len(items) > CHIPS:
            inner += (f'<span class="atlas-v__chip atlas-v__chip--more" title="{e(", ".join(items[CHIPS:]))}">'
                      f'+{len(items) - CHIPS}</span>')
        listed = f' data-words="{e(", ".join(items))}"'   # the filter reads the items not shown
    else:
        label = (atlas.t(lang, f"fields.{field}.empty") if field in atlas.list_fields and fact.known
                 else short_label(atlas, lang, field, fact.value))
        inner = str(e(label))   # the icon is the tone's, drawn by atlas.css: no element in each of hundreds of cells
    return f'<td class="{classes}" data-sort-value="{e(rank)}" data-value="{e(value)}"{listed}>', inner


def evidence(atlas: Atlas, lang: str, p: Provider, field: str, today: dt.date) -> str:
    """The evidence block of one fact (`<div class="atlas-ev">`): the value in full words, the
    note, the source's own words (with their language), the sources and the verified date."""
    fact = p.facts[field]
    parts = _parts(atlas)   # looked up directly: 63,000 blocks in a thousand-provider build
    value = parts.get(("value", lang, field, fact.value))
    if value is None:
        value = parts[("value", lang, field, fact.value)] = _value_line(atlas, lang, field, fact)
    out = ['<div class="atlas-ev">', value]
    notes, at = atlas.notes, (p.id, field)
    note = notes.get(lang, {}).get(at)
    english = notes.get(atlas.languages[0], {}).get(at) if not note else None
    if note:
        label = parts.get(("note-label", lang))
        if label is None:
            label = parts[("note-label", lang)] = f'<p class="atlas-ev__note"><strong>{e(atlas.t(lang, "table.note"))}:</strong> '
        out.append(f"{label}{e(note)}</p>")
    elif english:   # a note not yet translated: the English one, marked as such (data/words.py lets it build)
        out.append(f'<p class="atlas-ev__note"><strong>{e(atlas.t(lang, "table.note"))}:</strong> '
                   f'<span lang="{e(atlas.languages[0])}">{e(english)}</span> '
                   f'<span class="atlas-ev__untranslated">({e(atlas.t(lang, "table.note_untranslated"))})</span></p>')
    if fact.quote:
        ours = quote_translation(atlas, lang, p.id, field, fact)
        key = ("quote", lang, fact.quote, fact.quote_lang, fact.sources[:1], ours)
        quoted = parts.get(key)
        if quoted is None:
            quoted = parts[key] = _quote(atlas, lang, fact, ours)
        out.append(quoted)
    out.append(dates_line(atlas, lang, fact, field, today, atlas.checked.get((p.id, field))))
    out.append("</div>")
    return "".join(out)


def _value_line(atlas: Atlas, lang: str, field: str, fact: Fact) -> str:
    kind, icon, _ = tone(atlas, field, fact)
    if kind == "list":
        words = _items(atlas, lang, field, fact.value)
    elif field in atlas.list_fields and fact.known:
        words = str(e(atlas.t(lang, f"fields.{field}.empty")))
    else:
        words = str(e(atlas.value_label(lang, field, fact.value)))
    return (f'<p class="atlas-ev__value atlas-v--{kind}">'
            + (f'<span class="atlas-v__icon" aria-hidden="true">{e(icon)}</span> ' if icon else "") + words + "</p>")


def needs_translation(lang: str, quote_lang: str) -> bool:
    """A quote the reader of `lang` may not read: neither in the page's language nor in English."""
    base = quote_lang.split("-")[0].lower()
    return base not in ("en", lang.split("-")[0].lower())


def quote_translation(atlas: Atlas, lang: str, pid: str, field: str, fact: Fact) -> tuple[str, str] | None:
    """(our translation, its language) of a quote the page's reader may not read: the page
    language's own, else the English one (shown in English, marked) until it is translated."""
    if not fact.quote or not needs_translation(lang, fact.quote_lang):
        return None
    mine = atlas.words[lang].get(f"quotes.{pid}.{field}")
    if mine:
        return mine, lang
    english = atlas.words[atlas.languages[0]].get(f"quotes.{pid}.{field}")
    return (english, atlas.languages[0]) if english else None


def _quote(atlas: Atlas, lang: str, fact: Fact, ours: tuple[str, str] | None) -> str:
    cite = f' cite="{e(fact.sources[0])}"' if fact.sources else ""
    out = (f'<figure class="atlas-ev__quote"><figcaption>{e(atlas.t(lang, "table.quote_label"))}</figcaption>'
           f'<blockquote lang="{e(fact.quote_lang)}"{cite}><p>{e(fact.quote)}</p></blockquote>')
    if ours:
        text, its_lang = ours
        marked = (f' lang="{e(its_lang)}"' if its_lang != lang else "")
        later = (f' <span class="atlas-ev__untranslated">({e(atlas.t(lang, "table.note_untranslated"))})</span>'
                 if its_lang != lang else "")
        out += (f'<p class="atlas-ev__ours"><strong>{e(atlas.t(lang, "table.quote_translation"))}:</strong> '
                f'<span{marked}>{e(text)}</span>{later}</p>')
    return out + "</figure>"


def _sources(atlas: Atlas, lang: str, sources: tuple[str, ...], quoted: str | None = None) -> str:
    """The source links; each of a quoted fact's links carries a text fragment to the quoted words."""
    links = ", ".join(f'<a href="{e(with_fragment(u, quoted))}" rel="noopener noreferrer nofollow" translate="no">'
                      f'{e(short_url(u))}</a>' for u in sources)
    return f'{e(atlas.t(lang, "reader.provider.sources"))}: {links}'


def dates_line(atlas: Atlas, lang: str, fact: Fact, field: str, today: dt.date, checked: dt.date | None = None) -> str:
    """Sources · source dated … · verified … · quote found at the source on … · ⚠ may be outdated."""
    if not (fact.sources or fact.verified):
        return ""
    old = ages.age(field, fact.verified, fact.source_date, today) if fact.known or field == "pricing_page" else None
    parts = _parts(atlas)
    key = ("dates", lang, fact.sources, fact.quote, fact.source_date, fact.verified, checked, old)
    found = parts.get(key)
    if found is None:
        found = parts[key] = _dates_line(atlas, lang, fact, checked, old)
    return found


def _dates_line(atlas: Atlas, lang: str, fact: Fact, checked: dt.date | None, old: ages.Age | None) -> str:
    line = []
    if fact.sources:
        line.append(_sources(atlas, lang, fact.sources, fact.quote))
    if fact.source_date:
        line.append(_memo(atlas, ("source-date", lang, fact.source_date), lambda: source_date_markup(atlas, lang, fact.source_date)))
    if fact.verified:
        line.append(_memo(atlas, ("date", lang, fact.verified), lambda: _dated(lang, pieces(atlas.t(lang, "table.verified")), fact.verified)))
    if checked and fact.quote:
        line.append(_memo(atlas, ("checked", lang, checked), lambda: _dated(lang, pieces(atlas.t(lang, "table.checked")), checked)))
    if old:
        line[-1] += stale_markup(atlas, lang, old)
    return '<p class="atlas-ev__src">' + " · ".join(line) + "</p>"


def ordered(atlas: Atlas, lang: str, field: str, items: tuple[str, ...]) -> list[str]:
    """Countries as the page's readers look for them: their own and next door first (hi: India;
    vi: Vietnam, then Singapore), then by name in the page's language; other lists as written."""
    if atlas.list_fields[field].items is not None:
        return list(items)
    home = atlas.home_region.get(lang, ())
    order = collation.key(lang)
    return sorted(items, key=lambda c: (c not in home, home.index(c) if c in home else 0, order(atlas.country(lang, c))))


def _items(atlas: Atlas, lang: str, field: str, items: tuple[str, ...]) -> str:
    """A list value in words, each item marked with its code (a country's name, titled with its code)."""
    out = []
    for item in ordered(atlas, lang, field, items):
        words = atlas.item_label(lang, field, item)
        title = f' title="{e(item)}"' if words != item else ""
        out.append(f'<span data-item="{e(item)}"{title}>{e(words)}</span>')
    return ", ".join(out)


def _dated(lang: str, words: tuple, day: dt.date, shown: str | None = None, iso: str | None = None) -> str:
    """Translated words (as render.pieces) with their {date} as a <time> element."""
    when = f'<time datetime="{e(iso or day.isoformat())}">{e(shown or local_date(day, lang))}</time>'
    return ('<span class="atlas-v__date">' + "".join(
        str(e(text)) + (when if name else "") for text, name in words) + "</span>")


def source_date_markup(atlas: Atlas, lang: str, written: str) -> str:
    """'source dated June 2023' (a month when the source prints only the month)."""
    day = ages.parse_source_date(written)
    shown = local_month(day, lang) if len(written) == 7 else local_date(day, lang)
    return _dated(lang, pieces(atlas.t(lang, "table.source_dated")), day, shown, written)


def stale_markup(atlas: Atlas, lang: str, old: ages.Age) -> str:
    """The "may be outdated" mark, with why as its tooltip and for screen readers."""
    if old.reason == "source":
        hint = atlas.t(lang, "table.stale_source_hint", days=old.limit)
    else:
        hint = atlas.t(lang, "table.stale_hint", days=old.limit)
    return (f' <span class="atlas-v__stale" title="{e(hint)}">⚠ {e(atlas.t(lang, "table.stale"))}'
            f'<span class="atlas-sr"> ({e(hint)})</span></span>')


def short_url(url: str, limit: int = 64) -> str:
    """A source URL as link text a reader can scan: host and path, the middle elided when long."""
    parts = urlsplit(url)
    text = (parts.netloc + parts.path).rstrip("/") or url
    if len(text) <= limit:
        return text
    head, tail = text[: limit // 2 - 1], text[-(limit // 2 - 1):]
    return f"{head}…{tail}"
